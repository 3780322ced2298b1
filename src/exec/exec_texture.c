/* The texture family: tex, tld4 and txq (docs/images.md, "Textures").
 *
 * Each lane names a texture (src[0]: a 64-bit handle register, or a SASS header-pool slot whose
 * entry holds the same low 32 bits, or a PTX .texref bound to a texture) and coordinates
 * (src[1]).
 * The handle's low 20 bits name the image, bits 31:20 the sampler (mem/mem_texture.h). The
 * sampler model gives each lane its footprint of texels; the texels of all lanes are fetched
 * through memsys_texture_read as one warp-level access (the L1's read-only path), then decoded,
 * filtered and written to the four result registers. No sparse textures are modelled: the
 * residency predicate is always true. */
#include <string.h>

#include "exec/exec_internal.h"
#include "mem/memsys.h"

/* One lane's texture: its image and sampler, or NULLs when the handle names none. */
typedef struct lane_texture {
    const mem_image_desc *img;
    const mem_sampler *smp;
} lane_texture;

static lane_texture decode_handle(exec_warp *w, uint64_t h)
{
    lane_texture t = {NULL, NULL};
    if (h >> 32)
        return t;
    t.img = mem_image_table_get(memsys_images(w->run->ms), h & MEM_IMAGE_MAX_INDEX);
    t.smp = mem_sampler_table_get(memsys_samplers(w->run->ms), h >> MEM_TEX_SAMPLER_SHIFT);
    if (!t.img || !t.smp)
        t.img = NULL, t.smp = NULL;
    return t;
}

/* A PTX .texref: an 8-byte module variable holding the handle of the texture bound to it (by
 * the launch file's texture of the same name, or gms_module_bind_texture); reading it is a
 * host-side peek, not a request. Handle 0 (never a texture: samplers count from 1) means
 * unbound: EXEC-TEX-003. Returns 0, or -1 after faulting. */
static int resolve_reference(exec_warp *w, const exec_xinsn *x, unsigned lead, uint32_t var,
                             lane_texture *tx)
{
    const exec_program *prog = w->run->prog;
    uint64_t handle = 0;
    if (var >= prog->module->nvars ||
        memsys_peek(w->run->ms, &w->mctx, lead, exec_program_var_location(prog, var), &handle,
                    sizeof handle) != 0 || handle == 0) {
        warp_fault(w, x, lead, "EXEC-TEX-003", "%s: texture reference '%s' is not bound to a "
                   "texture (a launch file binds the texture of the same name; the API, "
                   "gms_module_bind_texture)", ir_opcode_name((ir_opcode)x->in->op),
                   var < prog->module->nvars ? prog->module->vars[var].name : "?");
        return -1;
    }
    lane_texture t = decode_handle(w, handle);
    for (unsigned l = 0; l < LANES; l++) tx[l] = t;
    return 0;
}

/* Resolves src[0] for the lanes of `mask` into tx[]. Returns 0, or -1 after faulting. */
static int resolve(exec_warp *w, const exec_xinsn *x, uint32_t mask, lane_texture *tx)
{
    const ir_operand *o = &x->in->src[0];
    const ir_machine *k = &w->run->prog->module->machine;
    unsigned lead = (unsigned)__builtin_ctz(mask);
    if (o->kind == IR_OPND_IMM && k->has_image_bank) {
        uint32_t entry = 0; /* the pool entry: samplerPtr[31:20] | headerPtr[19:0] */
        uint64_t at = MEM_CONST_WINDOW + ((uint64_t)k->image_bank << MEM_CONST_BANK_SHIFT) +
                      4 * (uint64_t)o->imm;
        lane_texture t = {NULL, NULL};
        if (memsys_peek(w->run->ms, &w->mctx, lead, at, &entry, 4) == 0)
            t = decode_handle(w, entry);
        for (unsigned l = 0; l < LANES; l++) tx[l] = t;
        return 0;
    }
    if (o->kind == IR_OPND_SYM)
        return resolve_reference(w, x, lead, o->sym, tx);
    uint64_t tmp[LANES];
    const uint64_t *h = warp_src(w, x, 0, tmp);
    for (unsigned l = 0; l < LANES; l++)
        tx[l] = ((mask >> l) & 1u) ? decode_handle(w, h[l]) : (lane_texture){NULL, NULL};
    return 0;
}

/* Filtered dimensions of a geometry and the coordinate that holds the array layer (or -1):
 * (x), (x, y), (x, y, z), (x, layer), (x, y, layer), as for surfaces. */
static uint32_t geometry(uint8_t dim, int *layer_at)
{
    *layer_at = dim == IR_IMAGE_1D_ARRAY ? 1 : dim == IR_IMAGE_2D_ARRAY ? 2 : -1;
    return dim == IR_IMAGE_3D ? 3 : (dim == IR_IMAGE_2D || dim == IR_IMAGE_2D_ARRAY) ? 2 : 1;
}

/* Per-lane state between the footprint and the result. */
typedef struct tex_lane {
    mem_tex_footprint fp;
    uint8_t live; /* 1: the lane has a valid texture and reads (disabled images read 0) */
} tex_lane;

/* Footprints and texel addresses of every lane into lanes[] and ta. */
static void footprints(exec_warp *w, const exec_xinsn *x, uint32_t mask, const lane_texture *tx,
                       tex_lane *lanes, mem_tex_access *ta)
{
    const ir_insn *in = x->in;
    int layer_at;
    uint32_t dims = geometry(in->mem.image_dim, &layer_at);
    uint32_t c[3][LANES];
    for (unsigned i = 0; i < 3; i++) exec_image_coordinate(w, x, i, c[i]);
    int integer = in->type2 != IR_T_F32;
    for (unsigned l = 0; l < LANES; l++) {
        lanes[l].live = 0;
        ta->slots[l] = 0;
        const mem_image_desc *d = tx[l].img;
        if (!((mask >> l) & 1u) || !d || d->disabled)
            continue;
        float f[3];
        int32_t ci[3];
        memcpy(f, (uint32_t[3]){c[0][l], c[1][l], c[2][l]}, sizeof f);
        memcpy(ci, (uint32_t[3]){c[0][l], c[1][l], c[2][l]}, sizeof ci);
        mem_tex_footprint *fp = &lanes[l].fp;
        mem_tex_footprint_of(tx[l].smp, d, dims, f, ci, integer, in->op == IR_TLD4, fp);
        /* The layer is an integer, clamped to the image's layers (CUDA's array index). */
        int64_t layer = layer_at < 0 ? 0 : (int64_t)(int32_t)c[layer_at][l];
        layer = layer < 0 ? 0 : layer >= d->layers ? d->layers - 1 : layer;
        uint32_t tb = mem_image_texel_bytes(d);
        for (uint32_t t = 0; t < fp->count; t++) {
            if (fp->outside[t])
                continue;
            ta->addr[l][t] = d->base + mem_image_byte_offset(d, (uint64_t)fp->x[t] * tb,
                                                             (uint32_t)fp->y[t],
                                                             (uint32_t)fp->z[t], (uint32_t)layer);
            ta->slots[l] |= (uint8_t)(1u << t);
        }
        lanes[l].live = 1;
    }
}

/* Writes element e of the four-register result VEC. */
static void write_result(exec_warp *w, const ir_operand *d, uint32_t mask, uint32_t res[][4])
{
    for (unsigned e = 0; e < 4; e++) {
        uint32_t reg = d->kind == IR_OPND_VEC ? (e < d->count ? d->vregs[e] : IR_REG_SINK)
                                              : (e == 0 ? d->reg : IR_REG_SINK);
        if (reg == IR_REG_SINK || reg == IR_REG_IMM)
            continue;
        uint64_t *r = w->regs + (size_t)reg * LANES;
        for (unsigned l = 0; l < LANES; l++)
            if ((mask >> l) & 1u)
                r[l] = res[l][e];
    }
}

/* One lane's result from its fetched texels. */
static void filter_lane(const exec_xinsn *x, const lane_texture *t, const tex_lane *tl,
                        const mem_tex_access *ta, unsigned l, uint32_t out[4])
{
    const ir_insn *in = x->in;
    int as_float = in->type == IR_T_F32;
    uint32_t texel[MEM_TEX_MAX_FOOTPRINT][4];
    for (uint32_t i = 0; i < tl->fp.count; i++)
        mem_tex_decode(t->smp, t->img, tl->fp.outside[i] ? NULL : ta->data[l][i], as_float,
                       texel[i]);
    if (in->op == IR_TLD4) {
        /* The 2x2 footprint's channel in gather order: (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
        static const unsigned order[4] = {2, 3, 1, 0};
        unsigned ch = in->sub ? in->sub - 1u : 0;
        for (unsigned e = 0; e < 4; e++) out[e] = texel[order[e]][ch];
    } else if (tl->fp.count == 1) {
        memcpy(out, texel[0], sizeof texel[0]);
    } else {
        mem_tex_blend(&tl->fp, (const uint32_t(*)[4])texel, out);
    }
}

/* txq: one property of each lane's texture; an invalid texture reads 0. PTX's enumerations:
 * address modes wrap 0, mirror 1, clamp_to_edge 3, clamp_to_border 4; filter point 0,
 * linear 1; the channel type and order as suq gives them (OpenCL's values). */
static void query(exec_warp *w, const exec_xinsn *x, uint32_t mask, const lane_texture *tx)
{
    static const uint8_t address_code[4] = {0, 3, 1, 4};
    uint64_t out[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        const mem_image_desc *d = tx[l].img;
        const mem_sampler *s = tx[l].smp;
        uint64_t v = 0;
        if (d) {
            unsigned step = d->bits == 8 ? 0 : d->bits == 16 ? 1 : 2;
            switch (x->in->sub) {
            case IR_TXQ_WIDTH: v = d->width; break;
            case IR_TXQ_HEIGHT: v = d->height; break;
            case IR_TXQ_DEPTH: v = d->depth; break;
            case IR_TXQ_ARRAY_SIZE: v = d->layers; break;
            case IR_TXQ_CHANNEL_ORDER: v = d->channels == 1 ? 0x10B0 : d->channels == 2 ? 0x10B2
                                                                                        : 0x10B5;
                break;
            case IR_TXQ_CHANNEL_DATA_TYPE:
                v = d->kind == MEM_IMAGE_FLOAT ? (d->bits == 16 ? 0x10DD : 0x10DE)
                    : d->kind == MEM_IMAGE_SIGNED ? 0x10D7 + step : 0x10DA + step;
                break;
            case IR_TXQ_NORMALIZED_COORDS: v = s->normalized; break;
            case IR_TXQ_FILTER_MODE: v = s->filter; break;
            case IR_TXQ_ADDR_MODE_0: case IR_TXQ_ADDR_MODE_1: case IR_TXQ_ADDR_MODE_2:
                v = address_code[s->address[x->in->sub - IR_TXQ_ADDR_MODE_0] & 3u];
                break;
            case IR_TXQ_NUM_MIPMAP_LEVELS: v = 1; break; /* one level: no mipmaps are modelled */
            default: v = 0; break;                       /* num_samples: not multisampled */
            }
        }
        out[l] = v;
    }
    warp_write_dst(w, &x->in->dst[0], out, mask, 32);
}

void exec_h_texture(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    lane_texture tx[LANES];
    if (resolve(w, x, mask, tx))
        return;
    if (in->op == IR_TXQ) {
        query(w, x, mask, tx);
        return;
    }
    mem_tex_access ta; /* about 6 KiB: every lane's texel addresses and bytes */
    tex_lane lanes[LANES];
    uint32_t res[LANES][4];
    ta.insn_id = in->id;
    ta.texel_bytes = 0;
    footprints(w, x, mask, tx, lanes, &ta);
    for (unsigned l = 0; l < LANES; l++)
        if (ta.slots[l] && !ta.texel_bytes)
            ta.texel_bytes = mem_image_texel_bytes(tx[l].img);
    /* Lanes of one warp may name images of different texel sizes: fetch per size. */
    mem_fault f;
    for (unsigned l = 0; l < LANES; l++) {
        if (!ta.slots[l] || mem_image_texel_bytes(tx[l].img) == ta.texel_bytes)
            continue;
        warp_fault(w, x, l, "EXEC-TEX-002", "%s: the lanes of one warp read textures of "
                   "different texel sizes, which is not modelled", ir_opcode_name((ir_opcode)in->op));
        return;
    }
    if (ta.texel_bytes && memsys_texture_read(w->run->ms, &w->mctx, &ta, &f)) {
        warp_fault(w, x, (unsigned)__builtin_ctz(mask), "EXEC-MEM-001", "texture fetch: %s",
                   f.what);
        return;
    }
    for (unsigned l = 0; l < LANES; l++) {
        memset(res[l], 0, sizeof res[l]);
        if (((mask >> l) & 1u) && lanes[l].live)
            filter_lane(x, &tx[l], &lanes[l], &ta, l, res[l]);
    }
    write_result(w, &in->dst[0], mask, res);
    if (in->ndst > 1 && in->dst[1].kind == IR_OPND_PRED) {
        uint64_t resident[LANES];
        for (unsigned l = 0; l < LANES; l++) resident[l] = 1; /* no sparse textures */
        warp_write_dst(w, &in->dst[1], resident, mask, 1);
    }
}

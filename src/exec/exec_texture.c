/* The texture family: tex, tld4 and txq (docs/images.md, "Textures").
 *
 * Each lane names a texture (src[0]: a 64-bit handle register, or a SASS header-pool slot whose
 * entry holds the same low 32 bits, or a PTX .texref bound to a texture) and coordinates
 * (src[1]); tex may add a level of detail (src[2]: an explicit level, or src[2] and src[3]:
 * gradients). The handle's low 20 bits name the image, bits 31:20 the sampler
 * (mem/mem_texture.h). The sampler model gives each lane its mipmap level or two, and in each
 * its footprint of texels (a cube direction first picks a face, a layer of the image); the
 * texels of all lanes are fetched through memsys_texture_read as one warp-level access (the
 * L1's read-only path), then decoded, filtered, blended between levels and written to the four
 * result registers. No sparse textures are modelled: the residency predicate is always true. */
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
 * (x), (x, y), (x, y, z), (x, layer), (x, y, layer), as for surfaces; a cube's direction
 * (x, y, z) filters two dimensions of a face, and a cube array's cube is coordinate 3. */
static uint32_t geometry(uint8_t dim, int *layer_at)
{
    *layer_at = dim == IR_IMAGE_1D_ARRAY ? 1 : dim == IR_IMAGE_2D_ARRAY ? 2
                : dim == IR_IMAGE_CUBE_ARRAY ? 3 : -1;
    return dim == IR_IMAGE_3D ? 3
           : (dim == IR_IMAGE_2D || dim == IR_IMAGE_2D_ARRAY || dim >= IR_IMAGE_CUBE) ? 2 : 1;
}

/* Per-lane state between the footprint and the result: the levels read and each level's
 * footprint, whose texels are fetch slots level * MEM_TEX_MAX_FOOTPRINT + texel. */
typedef struct tex_lane {
    mem_tex_lod lod;
    mem_tex_footprint fp[2];
    uint8_t live; /* 1: the lane has a valid texture and reads (disabled images read 0) */
} tex_lane;

static float as_f32(uint64_t bits)
{
    float f;
    uint32_t u = (uint32_t)bits;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Element e of every lane of the VEC src[i] (gradients), as floats; a missing element is 0. */
static void vector_element(exec_warp *w, const exec_xinsn *x, unsigned i, unsigned e,
                           float *out)
{
    const ir_operand *o = &x->in->src[i];
    uint32_t reg = e < o->count ? o->vregs[e] : IR_REG_SINK;
    for (unsigned l = 0; l < LANES; l++)
        out[l] = reg == IR_REG_IMM ? as_f32((uint64_t)o->imm >> (32 * e))
                 : reg == IR_REG_SINK ? 0.0f : as_f32(w->regs[(size_t)reg * LANES + l]);
}

/* Every lane's level of detail before bias and clamps: 0 without an operand (compute kernels
 * have no implicit derivatives), the f32 of src[2] (.level), or the gradients' (.grad). */
static void level_of_detail(exec_warp *w, const exec_xinsn *x, const lane_texture *tx,
                            uint32_t dims, float *lod)
{
    const ir_insn *in = x->in;
    for (unsigned l = 0; l < LANES; l++) lod[l] = 0.0f;
    if (in->op != IR_TEX || in->nsrc < 3)
        return;
    if (in->src[2].kind != IR_OPND_VEC) {
        uint64_t tmp[LANES];
        const uint64_t *v = warp_src(w, x, 2, tmp);
        for (unsigned l = 0; l < LANES; l++) lod[l] = as_f32(v[l]);
        return;
    }
    float dx[3][LANES], dy[3][LANES];
    for (unsigned d = 0; d < dims; d++) {
        vector_element(w, x, 2, d, dx[d]);
        vector_element(w, x, 3, d, dy[d]);
    }
    for (unsigned l = 0; l < LANES; l++) {
        if (!tx[l].img)
            continue;
        float gx[3] = {0, 0, 0}, gy[3] = {0, 0, 0};
        for (unsigned d = 0; d < dims; d++) gx[d] = dx[d][l], gy[d] = dy[d][l];
        lod[l] = mem_tex_lod_of_gradients(tx[l].smp, tx[l].img, dims, gx, gy);
    }
}

/* A cube lane's face (a layer, plus 6 per cube of a cube array) and its coordinates on the
 * face, which are normalized and clamped to the face whatever the sampler says. */
static uint32_t cube_face(const mem_image_desc *d, const float *f, uint32_t cube,
                          mem_sampler *face_sampler, float *uv)
{
    uint32_t face;
    mem_tex_cube_face(f, &face, uv);
    face_sampler->normalized = 1;
    face_sampler->address[0] = face_sampler->address[1] = MEM_TEX_CLAMP;
    uint32_t cubes = d->layers / 6;
    return face + 6 * (cube < cubes ? cube : cubes - 1);
}

/* Lane l's footprint in level `level` of image d and its texel addresses into fetch slots
 * level_slot * MEM_TEX_MAX_FOOTPRINT + t. Unnormalized float coordinates are in level-0
 * texels: each dimension is scaled by the level's size over level 0's. */
static void level_footprint(const mem_image_desc *d, const mem_sampler *smp, uint32_t level,
                            uint32_t dims, const float *f, const int32_t *ci, int integer,
                            int gather, uint32_t layer, unsigned slot_base, mem_tex_footprint *fp,
                            mem_tex_access *ta, unsigned l)
{
    mem_image_desc lv;
    mem_image_level(d, level, &lv);
    float c[3] = {f[0], f[1], f[2]};
    const uint32_t size0[3] = {d->width, d->height, d->depth}, size[3] = {lv.width, lv.height,
                                                                           lv.depth};
    for (uint32_t k = 0; k < dims && !smp->normalized && level; k++)
        c[k] = (float)((double)c[k] * size[k] / size0[k]);
    mem_tex_footprint_of(smp, &lv, dims, c, ci, integer, gather, fp);
    uint32_t tb = mem_image_texel_bytes(d);
    for (uint32_t t = 0; t < fp->count; t++) {
        if (fp->outside[t])
            continue;
        ta->addr[l][slot_base + t] =
            lv.base + mem_image_byte_offset(&lv, (uint64_t)fp->x[t] * tb, (uint32_t)fp->y[t],
                                            (uint32_t)fp->z[t], layer);
        ta->slots[l] |= (uint16_t)(1u << (slot_base + t));
    }
}

/* Footprints and texel addresses of every lane into lanes[] and ta. */
static void footprints(exec_warp *w, const exec_xinsn *x, uint32_t mask, const lane_texture *tx,
                       tex_lane *lanes, mem_tex_access *ta)
{
    const ir_insn *in = x->in;
    int layer_at;
    uint32_t dims = geometry(in->mem.image_dim, &layer_at);
    int cube = in->mem.image_dim >= IR_IMAGE_CUBE;
    uint32_t c[4][LANES];
    float lod[LANES];
    for (unsigned i = 0; i < 4; i++) exec_image_coordinate(w, x, i, c[i]);
    level_of_detail(w, x, tx, dims, lod);
    int integer = in->type2 != IR_T_F32;
    for (unsigned l = 0; l < LANES; l++) {
        lanes[l].live = 0;
        ta->slots[l] = 0;
        const mem_image_desc *d = tx[l].img;
        if (!((mask >> l) & 1u) || !d || d->disabled)
            continue;
        float f[4];
        int32_t ci[4];
        memcpy(f, (uint32_t[4]){c[0][l], c[1][l], c[2][l], c[3][l]}, sizeof f);
        memcpy(ci, (uint32_t[4]){c[0][l], c[1][l], c[2][l], c[3][l]}, sizeof ci);
        mem_sampler smp = *tx[l].smp;
        /* The layer is an integer, clamped to the image's layers (CUDA's array index). */
        int64_t layer = layer_at < 0 || cube ? 0 : (int64_t)(int32_t)c[layer_at][l];
        layer = layer < 0 ? 0 : layer >= d->layers ? d->layers - 1 : layer;
        if (cube) {
            int32_t at = layer_at < 0 ? 0 : ci[layer_at];
            layer = cube_face(d, f, at < 0 ? 0 : (uint32_t)at, &smp, f);
        }
        /* tld4 gathers from the base level; tex from the level(s) its level of detail picks. */
        if (in->op == IR_TLD4)
            lanes[l].lod = (mem_tex_lod){.count = 1};
        else
            mem_tex_select_levels(&smp, d, lod[l], &lanes[l].lod);
        for (uint32_t k = 0; k < lanes[l].lod.count; k++)
            level_footprint(d, &smp, lanes[l].lod.level[k], dims, f, ci, integer,
                            in->op == IR_TLD4, (uint32_t)layer, k * MEM_TEX_MAX_FOOTPRINT,
                            &lanes[l].fp[k], ta, l);
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

/* The filtered value of one level's footprint (fetch slots from slot_base) in out[]. */
static void filter_level(const exec_xinsn *x, const lane_texture *t, const mem_tex_footprint *fp,
                         const mem_tex_access *ta, unsigned l, unsigned slot_base,
                         uint32_t out[4])
{
    const ir_insn *in = x->in;
    int as_float = in->type == IR_T_F32;
    uint32_t texel[MEM_TEX_MAX_FOOTPRINT][4];
    for (uint32_t i = 0; i < fp->count; i++)
        mem_tex_decode(t->smp, t->img, fp->outside[i] ? NULL : ta->data[l][slot_base + i],
                       as_float, texel[i]);
    if (in->op == IR_TLD4) {
        /* The 2x2 footprint's channel in gather order: (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
        static const unsigned order[4] = {2, 3, 1, 0};
        unsigned ch = in->sub ? in->sub - 1u : 0;
        for (unsigned e = 0; e < 4; e++) out[e] = texel[order[e]][ch];
    } else if (fp->count == 1) {
        memcpy(out, texel[0], sizeof texel[0]);
    } else {
        mem_tex_blend(fp, (const uint32_t(*)[4])texel, out);
    }
}

/* One lane's result from its fetched texels: one level's value, or two levels' blended by
 * the level fraction in single precision (linear mipmap filtering reads floats only). */
static void filter_lane(const exec_xinsn *x, const lane_texture *t, const tex_lane *tl,
                        const mem_tex_access *ta, unsigned l, uint32_t out[4])
{
    filter_level(x, t, &tl->fp[0], ta, l, 0, out);
    if (tl->lod.count < 2)
        return;
    uint32_t upper[4];
    filter_level(x, t, &tl->fp[1], ta, l, MEM_TEX_MAX_FOOTPRINT, upper);
    float w = (float)tl->lod.frac / MEM_TEX_WEIGHT_ONE;
    for (unsigned e = 0; e < 4; e++) {
        float a = as_f32(out[e]), b = as_f32(upper[e]), r = (1.0f - w) * a + w * b;
        memcpy(&out[e], &r, sizeof r);
    }
}

/* txq: one property of each lane's texture; an invalid texture reads 0. PTX's enumerations:
 * address modes wrap 0, mirror 1, clamp_to_edge 3, clamp_to_border 4; filter point 0,
 * linear 1; the channel type and order as suq gives them (OpenCL's values). */
static void query(exec_warp *w, const exec_xinsn *x, uint32_t mask, const lane_texture *tx)
{
    static const uint8_t address_code[4] = {0, 3, 1, 4};
    uint64_t out[LANES], tmp[LANES];
    const uint64_t *level = x->in->nsrc > 1 ? warp_src(w, x, 1, tmp) : NULL;
    for (unsigned l = 0; l < LANES; l++) {
        const mem_image_desc *d = tx[l].img;
        const mem_sampler *s = tx[l].smp;
        uint64_t v = 0;
        mem_image_desc lv;
        uint32_t levels = d && d->levels ? d->levels : 1;
        if (d && level) { /* txq.level: the extents of that level; 0 past the last */
            if ((uint32_t)level[l] >= levels)
                d = NULL;
            else
                mem_image_level(d, (uint32_t)level[l], &lv), d = &lv;
        }
        if (d) {
            unsigned step = d->bits == 8 ? 0 : d->bits == 16 ? 1 : 2;
            switch (x->in->sub) {
            case IR_TXQ_WIDTH: v = d->width; break;
            case IR_TXQ_HEIGHT: v = d->height; break;
            case IR_TXQ_DEPTH: v = d->depth; break;
            case IR_TXQ_ARRAY_SIZE: /* cubes count whole cubes */
                v = d->dim >= IR_IMAGE_CUBE ? d->layers / 6 : d->layers;
                break;
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
            case IR_TXQ_NUM_MIPMAP_LEVELS: v = levels; break;
            default: v = 0; break;                       /* num_samples: not multisampled */
            }
        }
        out[l] = v;
    }
    warp_write_dst(w, &x->in->dst[0], out, mask, 32);
}

/* Reads the texels of ta: one warp-level access, except a 3D fetch that blends two levels (16
 * texels a lane, up to 512 lines a warp, more than the memory system's scratch of one access
 * holds), which is made as two, one per level. Returns 0, or -1 with *f. */
static int fetch(exec_warp *w, mem_tex_access *ta, int three_d, mem_fault *f)
{
    enum { LOWER = (1u << MEM_TEX_MAX_FOOTPRINT) - 1 };
    uint16_t all[LANES];
    int upper = 0;
    for (unsigned l = 0; l < LANES; l++) {
        all[l] = ta->slots[l];
        upper |= (all[l] & ~LOWER) != 0;
    }
    if (!three_d || !upper)
        return memsys_texture_read(w->run->ms, &w->mctx, ta, f);
    for (unsigned part = 0; part < 2; part++) {
        for (unsigned l = 0; l < LANES; l++)
            ta->slots[l] = (uint16_t)(all[l] & (part ? ~LOWER : LOWER));
        if (memsys_texture_read(w->run->ms, &w->mctx, ta, f))
            return -1;
    }
    return 0;
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
    if (ta.texel_bytes && fetch(w, &ta, in->mem.image_dim == IR_IMAGE_3D, &f)) {
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

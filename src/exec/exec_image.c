/* The image family: suld, sust, sured, suatom and suq (docs/images.md, "Surface instructions").
 *
 * Each lane names an image (src[0]: a handle register, a SASS header-pool slot, or a PTX
 * .surfref bound to an image) and a texel (src[1]); the handler turns them into per-lane
 * global addresses through the image's layout (mem/mem_image.h) and performs one warp-level
 * access, which the memory system sees as a surface access by its image_dim attribute: it goes
 * around the L1 and counts as surface requests. Unformatted accesses only: formatted ones (PTX
 * sust.p, SASS .P) are refused. */
#include <string.h>

#include "exec/alu.h"
#include "exec/exec_internal.h"
#include "mem/mem_image.h"
#include "mem/memsys.h"

/* PTX suq .channel_data_type and .channel_order values: the OpenCL enumerations PTX names. */
enum {
    CL_R = 0x10B0, CL_RG = 0x10B2, CL_RGBA = 0x10B5,
    CL_SIGNED_INT8 = 0x10D7, CL_UNSIGNED_INT8 = 0x10DA, CL_HALF_FLOAT = 0x10DD, CL_FLOAT = 0x10DE,
};

/* The image of one lane's handle or pool entry, or NULL when it is invalid. With a header pool
 * (SASS) only the low 20 bits of a register name the header (samplerPtr is above them). */
static const mem_image_desc *lookup(exec_warp *w, uint64_t handle)
{
    if (w->run->prog->module->machine.has_image_bank)
        handle &= MEM_IMAGE_MAX_INDEX;
    return mem_image_table_get(memsys_images(w->run->ms), handle);
}

/* A PTX .surfref: an 8-byte module variable holding the handle of the image bound to it (by the
 * launch file's image of the same name, or gms_module_bind_surface). Binding is a host-side
 * write, so reading it here is not a memory request of the kernel. Handle 0 (never an image)
 * means unbound: EXEC-IMAGE-002. */
static int resolve_reference(exec_warp *w, const exec_xinsn *x, unsigned lead, uint32_t var,
                             const mem_image_desc **img)
{
    const exec_program *prog = w->run->prog;
    uint64_t handle = 0;
    if (var >= prog->module->nvars ||
        memsys_peek(w->run->ms, &w->mctx, lead, exec_program_var_location(prog, var), &handle,
                    sizeof handle) != 0 || handle == 0) {
        warp_fault(w, x, lead, "EXEC-IMAGE-002", "%s: surface reference '%s' is not bound to an "
                   "image (a launch file binds the image of the same name; the API, "
                   "gms_module_bind_surface)", ir_opcode_name((ir_opcode)x->in->op),
                   var < prog->module->nvars ? prog->module->vars[var].name : "?");
        return -1;
    }
    const mem_image_desc *d = lookup(w, handle);
    for (unsigned l = 0; l < LANES; l++) img[l] = d;
    return 0;
}

/* Resolves src[0] for the lanes of `mask` into img[]. Returns 0, or -1 after faulting. */
static int resolve_images(exec_warp *w, const exec_xinsn *x, uint32_t mask,
                          const mem_image_desc **img)
{
    const ir_operand *o = &x->in->src[0];
    const ir_machine *k = &w->run->prog->module->machine;
    unsigned lead = (unsigned)__builtin_ctz(mask);
    if (o->kind == IR_OPND_IMM && k->has_image_bank) {
        /* A pool slot: the 32-bit entry at word `imm` of the image bank. */
        uint32_t entry = 0;
        uint64_t at = MEM_CONST_WINDOW + ((uint64_t)k->image_bank << MEM_CONST_BANK_SHIFT) +
                      4 * (uint64_t)o->imm;
        const mem_image_desc *d = NULL;
        if (memsys_peek(w->run->ms, &w->mctx, lead, at, &entry, 4) == 0)
            d = lookup(w, entry);
        for (unsigned l = 0; l < LANES; l++) img[l] = d;
        return 0;
    }
    if (o->kind == IR_OPND_SYM)
        return resolve_reference(w, x, lead, o->sym, img);
    uint64_t tmp[LANES];
    const uint64_t *h = warp_src(w, x, 0, tmp);
    for (unsigned l = 0; l < LANES; l++) img[l] = ((mask >> l) & 1u) ? lookup(w, h[l]) : NULL;
    return 0;
}

/* suq: one property of each lane's image; an invalid image reads 0. */
static void query(exec_warp *w, const exec_xinsn *x, uint32_t mask, const mem_image_desc **img)
{
    uint64_t out[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        const mem_image_desc *d = img[l];
        uint64_t v = 0;
        if (d) {
            switch (x->in->sub) {
            case IR_SUQ_WIDTH: v = d->width; break;
            case IR_SUQ_HEIGHT: v = d->height; break;
            case IR_SUQ_DEPTH: v = d->depth; break;
            case IR_SUQ_ARRAY_SIZE: v = d->layers; break;
            case IR_SUQ_CHANNEL_ORDER: v = d->channels == 1 ? CL_R : d->channels == 2 ? CL_RG
                                                                                      : CL_RGBA; break;
            case IR_SUQ_CHANNEL_DATA_TYPE: {
                unsigned step = d->bits == 8 ? 0 : d->bits == 16 ? 1 : 2;
                v = d->kind == MEM_IMAGE_FLOAT ? (d->bits == 16 ? CL_HALF_FLOAT : CL_FLOAT)
                    : d->kind == MEM_IMAGE_SIGNED ? CL_SIGNED_INT8 + step
                                                  : CL_UNSIGNED_INT8 + step;
                break;
            }
            case IR_SUQ_MEMORY_LAYOUT: v = d->layout == MEM_IMAGE_PITCH; break;
            default: break;
            }
        }
        out[l] = v;
    }
    warp_write_dst(w, &x->in->dst[0], out, mask, 32);
}

void exec_image_coordinate(exec_warp *w, const exec_xinsn *x, unsigned i, uint32_t *c)
{
    const ir_operand *o = &x->in->src[1];
    const uint64_t *v = NULL;
    uint64_t tmp[LANES];
    if (o->kind == IR_OPND_VEC) {
        if (i < o->count && o->vregs[i] != IR_REG_SINK && o->vregs[i] != IR_REG_IMM)
            v = w->regs + (size_t)o->vregs[i] * LANES;
    } else if (i == 0) {
        v = warp_src(w, x, 1, tmp);
    }
    for (unsigned l = 0; l < LANES; l++) c[l] = v ? (uint32_t)v[l] : 0;
}

/* One lane's texel position: x in bytes, y, z, layer. */
typedef struct texel_pos {
    int64_t x_bytes;
    int64_t y, z, layer;
} texel_pos;

/* Clamps or checks a coordinate against [0, limit): returns 0 when in range (after NEAR's
 * clamp), 1 when out of range. */
static int fit(int64_t *v, int64_t limit, uint8_t clamp)
{
    if (*v >= 0 && *v < limit)
        return 0;
    if (clamp != IR_CLAMP_NEAR)
        return 1;
    *v = *v < 0 ? 0 : limit - 1;
    return 0;
}

/* Range check of lane position p in image d for an access of `size` bytes: 0 in range (NEAR
 * moved it to the edge), 1 out of range. */
static int place(const mem_image_desc *d, texel_pos *p, uint32_t size, uint8_t clamp)
{
    int64_t row = (int64_t)d->width * mem_image_texel_bytes(d);
    int64_t slots = row / size; /* access-sized positions in a row */
    int64_t xs = p->x_bytes / size;
    if (p->x_bytes < 0)
        xs = -1;
    int bad = slots == 0 || fit(&xs, slots, clamp);
    p->x_bytes = xs * (int64_t)size;
    bad |= fit(&p->y, d->height, clamp) | fit(&p->z, d->depth, clamp) |
           fit(&p->layer, d->layers, clamp);
    return bad;
}

/* The per-lane global addresses of the texels: lanes whose image is invalid or disabled, or
 * whose coordinates are out of range with IGNORE, leave *live. Returns 0, or -1 after
 * faulting (TRAP out of range: EXEC-IMAGE-001; byte x not a multiple of the access size:
 * EXEC-IMAGE-003). */
static int texel_addresses(exec_warp *w, const exec_xinsn *x, const mem_image_desc **img,
                           uint32_t *live, int store, uint64_t *addr)
{
    const ir_mem_attrs *m = &x->in->mem;
    uint32_t size = (uint32_t)m->elem_bytes * (m->vec ? m->vec : 1);
    uint32_t c[3][LANES];
    for (unsigned i = 0; i < 3; i++) exec_image_coordinate(w, x, i, c[i]);
    /* Coordinates are signed 32-bit integers (a negative one is out of range: NEAR clamps it to
     * 0), except the x of a 1D buffer whose mode is not NEAR, which is unsigned; array layers are
     * the low 16 bits, unsigned (seed 004's coordinate table; PTX's .s32 coordinates). */
    int is_signed = m->image_dim != IR_IMAGE_1D_BUFFER || m->image_clamp == IR_CLAMP_NEAR;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((*live >> l) & 1u))
            continue;
        const mem_image_desc *d = img[l];
        if (!d || (d->disabled && store)) {
            *live &= ~(1u << l);
            continue;
        }
        texel_pos p = {is_signed ? (int64_t)(int32_t)c[0][l] : (int64_t)c[0][l], 0, 0, 0};
        switch (m->image_dim) {
        case IR_IMAGE_1D_ARRAY: p.layer = c[1][l] & 0xFFFFu; break;
        case IR_IMAGE_2D: p.y = (int32_t)c[1][l]; break;
        case IR_IMAGE_2D_ARRAY: p.y = (int32_t)c[1][l]; p.layer = c[2][l] & 0xFFFFu; break;
        case IR_IMAGE_3D: p.y = (int32_t)c[1][l]; p.z = (int32_t)c[2][l]; break;
        default: break;
        }
        if (m->image_flags & IR_IMAGE_BYTE_X) {
            if (p.x_bytes % size) {
                warp_fault(w, x, l, "EXEC-IMAGE-003", "%s: byte coordinate x = %lld is not a "
                           "multiple of the %u-byte access", ir_opcode_name((ir_opcode)x->in->op),
                           (long long)p.x_bytes, size);
                return -1;
            }
        } else {
            p.x_bytes *= size;
        }
        texel_pos asked = p;
        if (place(d, &p, size, m->image_clamp)) {
            if (m->image_clamp == IR_CLAMP_TRAP) {
                warp_fault(w, x, l, "EXEC-IMAGE-001", "%s: texel (x %lld bytes, y %lld, z %lld, "
                           "layer %lld) of %u bytes is outside the %ux%ux%u image of %u layers",
                           ir_opcode_name((ir_opcode)x->in->op), (long long)asked.x_bytes,
                           (long long)asked.y, (long long)asked.z, (long long)asked.layer, size,
                           d->width, d->height, d->depth, d->layers);
                return -1;
            }
            *live &= ~(1u << l);
            continue;
        }
        if (d->disabled) { /* a load of a disabled image reads 0 */
            *live &= ~(1u << l);
            continue;
        }
        addr[l] = d->base + mem_image_byte_offset(d, (uint64_t)p.x_bytes, (uint32_t)p.y,
                                                  (uint32_t)p.z, (uint32_t)p.layer);
    }
    return 0;
}

static void prepare(exec_warp *w, const exec_xinsn *x, mem_access *acc, mem_op op, uint32_t live)
{
    const ir_insn *in = x->in;
    acc->op = (uint8_t)op;
    acc->space = IR_SPACE_GLOBAL;
    acc->elem_bytes = in->mem.elem_bytes;
    acc->vec = in->mem.vec ? in->mem.vec : 1;
    acc->active = live;
    acc->insn_id = in->id;
    acc->time = 0;
    acc->attrs = &in->mem; /* its image_dim makes it a surface access */
    acc->policy = 0;
    acc->window_errors = w->run->prog->module->machine.window_errors;
}

/* sured and suatom: the atomic at L2 through the memory system's atomic path. */
static void atomic(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint32_t live,
                   mem_access *acc)
{
    const ir_insn *in = x->in;
    prepare(w, x, acc, MEM_OP_ATOMIC, live);
    acc->atom_op = in->sub;
    acc->atom_type = in->type;
    acc->atom_mods = in->mods;
    acc->atom_returns = in->op == IR_SUATOM;
    acc->atom_fn = alu_atom_apply;
    uint64_t tb[LANES], tc[LANES];
    memcpy(acc->operand_b, warp_src(w, x, 2, tb), sizeof acc->operand_b);
    if (in->sub == IR_ATOM_CAS && in->nsrc > 3)
        memcpy(acc->operand_c, warp_src(w, x, 3, tc), sizeof acc->operand_c);
    for (unsigned l = 0; l < LANES; l++) memset(acc->data[l], 0, acc->elem_bytes);
    if (live && exec_mem_access(w, x, acc))
        return;
    if (in->op != IR_SUATOM)
        return;
    exec_mem_unpack(w, x, mask, acc); /* dropped lanes return 0 */
    if (in->ndst > 1 && in->dst[1].kind == IR_OPND_PRED) {
        uint64_t no_sparse[LANES] = {0}; /* no sparse tiles are modelled: always resident */
        warp_write_dst(w, &in->dst[1], no_sparse, mask, 1);
    }
}

/* A formatted store (PTX sust.p) converts its 32-bit source elements to the texel's format; PTX
 * defines the conversion fully only when it is the identity: 32-bit channels, one source element
 * per channel (docs/images.md, "Formatted accesses"). Then the store is the raw store of the
 * texel, x counting texels, and this returns 0. Any other formatted access faults with
 * EXEC-IMAGE-004, naming what is not modelled, and this returns -1. */
static int formatted_is_raw(exec_warp *w, const exec_xinsn *x, uint32_t mask,
                            const mem_image_desc **img, uint32_t size)
{
    const ir_insn *in = x->in;
    const char *op = ir_opcode_name((ir_opcode)in->op);
    unsigned lane = (unsigned)__builtin_ctz(mask);
    if (in->op != IR_SUST) {
        warp_fault(w, x, lane, "EXEC-IMAGE-004", "%s: formatted loads, reductions and atomics "
                   "(.p) are not modelled", op);
        return -1;
    }
    for (unsigned l = 0; l < LANES; l++) {
        const mem_image_desc *d = img[l];
        if (!((mask >> l) & 1u) || !d)
            continue;
        if (d->bits != 32 || in->mem.elem_bytes != 4 || size != mem_image_texel_bytes(d)) {
            warp_fault(w, x, l, "EXEC-IMAGE-004", "%s: a formatted store of %u 32-bit "
                       "element(s) to texels of %u channel(s) of %u bits converts values, which "
                       "is not modelled (only 32-bit channels, one element each)", op,
                       (unsigned)(in->mem.vec ? in->mem.vec : 1), (unsigned)d->channels,
                       (unsigned)d->bits);
            return -1;
        }
    }
    return 0;
}

void exec_h_image(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    if (in->op == IR_SUATOM) /* helper and killed pixels' SUATOM is a no-op: no access, no result */
        mask &= ~w->run->launch->helper_lanes;
    if (!mask)
        return;
    const mem_image_desc *img[LANES];
    if (resolve_images(w, x, mask, img))
        return;
    if (in->op == IR_SUQ) {
        query(w, x, mask, img);
        return;
    }
    uint32_t size = (uint32_t)in->mem.elem_bytes * (in->mem.vec ? in->mem.vec : 1);
    if ((in->mem.image_flags & IR_IMAGE_FORMATTED) && formatted_is_raw(w, x, mask, img, size))
        return;
    if (size == 0 || size > 16) {
        warp_fault(w, x, (unsigned)__builtin_ctz(mask), "EXEC-UNSUP-002",
                   "access of %u bytes per lane is not modelled", size);
        return;
    }
    mem_access *acc = &w->run->acc;
    uint32_t live = mask;
    int writes = in->op != IR_SULD;
    if (texel_addresses(w, x, img, &live, writes, acc->addr))
        return;
    if (in->op == IR_SURED || in->op == IR_SUATOM) {
        atomic(w, x, mask, live, acc);
        return;
    }
    prepare(w, x, acc, writes ? MEM_OP_STORE : MEM_OP_LOAD, live);
    if (writes) {
        exec_mem_pack(w, x, live, acc, 2);
        if (live)
            exec_mem_access(w, x, acc);
        return;
    }
    for (unsigned l = 0; l < LANES; l++) memset(acc->data[l], 0, size);
    if (live && exec_mem_access(w, x, acc))
        return;
    exec_mem_unpack(w, x, mask, acc); /* lanes that read nothing get 0 */
}

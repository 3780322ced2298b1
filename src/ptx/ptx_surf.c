/* The surface instructions of PTX (PTX ISA 9.1 §9.7.10: suld.b, sust.b, sust.p, sured.b, sured.p,
 * suq): their modifier rules as ptxas 13 enforces them, and their operands lowered to the IR's
 * image ops (ir_ops.def "images"; docs/ptx.md, "Surfaces"). The surface is a .u64 register (a
 * surface object) or a .surfref variable; the coordinates are 32-bit, and the x coordinate of
 * the .b forms is a byte offset (IR_IMAGE_BYTE_X). */
#include "ptx/ptx_internal.h"

#define HAS(g) (c->has_group[PTX_G_##g])
#define VAL(g) (c->group_value[PTX_G_##g])

static bool is_load(const ptx_insn_ctx *c) { return c->op == PTX_OP_SULD; }
static bool is_store(const ptx_insn_ctx *c)
{
    return c->op == PTX_OP_SUST_B || c->op == PTX_OP_SUST_P;
}
static bool is_red(const ptx_insn_ctx *c)
{
    return c->op == PTX_OP_SURED_B || c->op == PTX_OP_SURED_P;
}

/* Which reductions exist for which types: sured.b adds u32/s32/u64, takes min/max of
 * u32/s32/u64/s64 and and/or of b32; sured.p's b32 takes every operation, its b64 min/max only. */
static bool check_reduction(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t op = VAL(ATOM), t = UINT32_C(1) << c->types[0], ok;
    if (!HAS(ATOM))
        return ptx_insn_fail(p, c, "PTX-SURF-003", "sured needs an operation (.add, .min, .max, .and, .or)");
    if (op != IR_ATOM_ADD && op != IR_ATOM_MIN && op != IR_ATOM_MAX && op != IR_ATOM_AND &&
        op != IR_ATOM_OR)
        return ptx_insn_fail(p, c, "PTX-SURF-003", "sured takes only .add, .min, .max, .and and .or");
    if (VAL(GEOM) == IR_IMAGE_1D_ARRAY || VAL(GEOM) == IR_IMAGE_2D_ARRAY)
        return ptx_insn_fail(p, c, "PTX-SURF-003", "sured takes only the .1d, .2d and .3d geometries");
    if (c->op == PTX_OP_SURED_P)
        ok = op == IR_ATOM_MIN || op == IR_ATOM_MAX ? TM(B32) | TM(B64) : TM(B32);
    else if (op == IR_ATOM_ADD)
        ok = TM(U32) | TM(S32) | TM(U64);
    else if (op == IR_ATOM_AND || op == IR_ATOM_OR)
        ok = TM(B32);
    else
        ok = TM_I32 | TM_I64;
    if (!(ok & t))
        return ptx_insn_fail(p, c, "PTX-MEM-003", "this surface reduction is not defined for this type");
    return true;
}

bool ptx_check_surface(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_mem_attrs *m = &c->insn->mem;
    m->space = IR_SPACE_SURFACE;
    if (c->op == PTX_OP_SUQ) {
        if (!HAS(SUQ))
            return ptx_insn_fail(p, c, "PTX-SURF-003", "suq needs a query (.width, .height, .depth, ...)");
        return true;
    }
    if (!HAS(GEOM))
        return ptx_insn_fail(p, c, "PTX-SURF-003", "needs a geometry (.1d, .2d, .3d, .a1d or .a2d)");
    if (!HAS(SUMODE))
        return ptx_insn_fail(p, c, "PTX-SURF-003", "needs an out-of-bounds mode (.trap, .clamp or .zero)");
    if (is_red(c) && !check_reduction(p, c))
        return false;
    if (HAS(COP)) {
        uint32_t cop = VAL(COP);
        if (is_load(c) && cop != PTX_COP_CA && cop != PTX_COP_CG && cop != PTX_COP_CS &&
            cop != PTX_COP_CV)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-004", "suld takes the cache operators .ca, .cg, .cs "
                        "and .cv");
        if (is_store(c) && cop != PTX_COP_WB && cop != PTX_COP_CG && cop != PTX_COP_CS &&
            cop != PTX_COP_WT)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-004", "sust takes the cache operators .wb, .cg, .cs "
                        "and .wt");
    }
    if (HAS(VEC) && (VAL(VEC) > 4 || ir_type_bits(c->types[0]) * VAL(VEC) > 128))
        return ptx_insn_fail(p, c, "PTX-TYPE-001", "a surface access moves at most 128 bits (.v2 or .v4)");
    m->image_dim = (uint8_t)VAL(GEOM);
    m->image_clamp = (uint8_t)VAL(SUMODE);
    m->image_flags = c->op == PTX_OP_SUST_P || c->op == PTX_OP_SURED_P ? IR_IMAGE_FORMATTED
                                                                       : IR_IMAGE_BYTE_X;
    return true;
}

/* ---- operands ---- */
static const ptx_image_kind surface = {
    .noun = "surface", .ref = ".surfref", .query = "suq", .handle_rule = "PTX-SURF-002",
    .coord_rule = "PTX-SURF-001", .image_ref = 1, .integer_layer = false,
};

/* The data operand: a register or immediate, or a vector of mem.vec elements; nvcc writes a
 * scalar as {r}. */
static bool data_operand(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, bool is_dst,
                         ir_operand *out)
{
    ir_type t = c->types[0];
    unsigned vec = c->insn->mem.vec;
    if (vec > 1)
        return ptx_lower_vec(p, c, o, t, vec, is_dst, out);
    ptx_popnd one;
    if (o->kind == PTX_P_VEC && o->count == 1) {
        one = *o;
        if (o->elem_is_imm[0]) {
            one.kind = PTX_P_INT;
            one.ival = o->elem_imm[0];
        } else {
            one.kind = PTX_P_NAME;
            one.name = o->elems[0];
            one.ival = 0;
        }
        o = &one;
    }
    return is_dst ? ptx_lower_dst(p, c, o, t, out) : ptx_lower_src(p, c, o, t, out);
}

static bool count_is(ptx_parser *p, const ptx_insn_ctx *c, unsigned n)
{
    if (c->nops == n)
        return true;
    ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes %u operands, found %u",
                 (int)c->text_len, c->text, n, c->nops);
    return false;
}

void ptx_lower_surface(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->op == PTX_OP_SUQ) {
        ptx_lower_image_query(p, c, &surface);
        return;
    }
    if (!count_is(p, c, 2))
        return;
    const ptx_popnd *addr = is_load(c) ? &ops[1] : &ops[0];
    const ptx_popnd *data = is_load(c) ? &ops[0] : &ops[1];
    if (addr->kind != PTX_P_IMAGE) {
        ptx_image_opnd_err(p, c, addr, "PTX-SURF-001",
                           "expected the surface and its coordinates [a, {x, ...}]");
        return;
    }
    if (!ptx_lower_image_handle(p, c, &surface, addr, &in->src[0]) ||
        !ptx_lower_image_coords(p, c, &surface, addr, &in->src[1]))
        return;
    if (is_load(c)) {
        if (data_operand(p, c, data, true, &in->dst[0])) {
            in->ndst = 1;
            in->nsrc = 2;
        }
    } else if (data_operand(p, c, data, false, &in->src[2])) {
        in->nsrc = 3;
    }
}

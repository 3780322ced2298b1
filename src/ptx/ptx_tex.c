/* The texture instructions of PTX (PTX ISA 9.1, "Texture Instructions": tex, tld4, txq) in
 * unified texture mode, where the sampler is part of the texture: their modifier rules as ptxas 13 enforces them
 * and their operands lowered to the IR's texture ops (ir_ops.def "textures"; docs/ptx.md,
 * "Textures"). The texture is a .u64 register (a texture object) or a .texref variable. Forms
 * gpumemsim does not model are rejected by name: cube and multisample geometries, mipmap level
 * selection (.base .level .grad, txq.level), half-precision results, an explicit sampler, the
 * offset and depth-compare operands, and the sampler-only and layout queries of txq. */
#include "ptx/ptx_internal.h"

#define HAS(g) (c->has_group[PTX_G_##g])
#define VAL(g) (c->group_value[PTX_G_##g])

static bool fail(ptx_parser *p, const ptx_insn_ctx *c, const char *rule, const char *msg)
{
    ptx_error_at(p, c->line, c->col, rule, "'%.*s': %s", (int)c->text_len, c->text, msg);
    return false;
}

static bool unmodelled(ptx_parser *p, const ptx_insn_ctx *c, const char *what)
{
    ptx_error_at(p, c->line, c->col, "PTX-UNSUP-002", "'%.*s': %s not modelled by gpumemsim",
                 (int)c->text_len, c->text, what);
    return false;
}

static bool check_txq(ptx_parser *p, const ptx_insn_ctx *c)
{
    if (!HAS(TXQ))
        return fail(p, c, "PTX-TEX-003", "txq needs a query (.width, .height, .filter_mode, ...)");
    if (VAL(TXQ) == 0)
        return unmodelled(p, c, "the queries .force_unnormalized_coords (of a sampler) and "
                          ".memory_layout are");
    return true;
}

bool ptx_check_texture(ptx_parser *p, ptx_insn_ctx *c)
{
    static const char *const forms[] = {
        [PTX_TEXFORM_CUBE] = "cube textures (.cube) are",
        [PTX_TEXFORM_ACUBE] = "cube array textures (.acube) are",
        [PTX_TEXFORM_2DMS] = "multisample textures (.2dms) are",
        [PTX_TEXFORM_A2DMS] = "multisample array textures (.a2dms) are",
        [PTX_TEXFORM_BASE] = "mipmap level selection (.base) is",
        [PTX_TEXFORM_LEVEL] = "mipmap level selection (.level) is",
        [PTX_TEXFORM_GRAD] = "mipmap level selection (.grad) is",
    };
    ir_mem_attrs *m = &c->insn->mem;
    m->space = IR_SPACE_SURFACE; /* image memory, as the surface instructions */
    if (HAS(TEXFORM))
        return unmodelled(p, c, forms[VAL(TEXFORM)]);
    if (c->op == PTX_OP_TXQ)
        return check_txq(p, c);
    if (!HAS(GEOM))
        return fail(p, c, "PTX-TEX-003", "needs a geometry (.1d, .2d, .3d, .a1d or .a2d)");
    if (c->op == PTX_OP_TLD4) {
        if (!HAS(TLD4))
            return fail(p, c, "PTX-TEX-003", "tld4 needs the channel it gathers (.r, .g, .b or "
                        ".a)");
        if (VAL(GEOM) != IR_IMAGE_2D && VAL(GEOM) != IR_IMAGE_2D_ARRAY)
            return fail(p, c, "PTX-TEX-003", "tld4 takes only the .2d and .a2d geometries");
    }
    if (c->types[0] == IR_T_F16 || c->types[0] == IR_T_F16X2)
        return unmodelled(p, c, "half-precision texture results (.f16, .f16x2) are");
    if (!HAS(VEC) || VAL(VEC) != 4)
        return fail(p, c, "PTX-TEX-003", "the result is a .v4 vector");
    m->image_dim = (uint8_t)VAL(GEOM);
    m->elem_bytes = 4;
    m->vec = 4;
    return true;
}

/* ---- operands ---- */
static bool opnd_err(ptx_parser *p, const ptx_insn_ctx *c, const ptx_popnd *o, const char *rule,
                     const char *msg)
{
    ptx_error_at(p, o->line, o->col, rule, "'%.*s': %s", (int)c->text_len, c->text, msg);
    return false;
}

bool ptx_no_texture_operands(ptx_parser *p, const ptx_insn_ctx *c)
{
    for (uint32_t i = 0; i < c->nops; i++) {
        const ptx_popnd *o = &p->ops[i];
        if (o->kind == PTX_P_VEC && o->name2.text)
            return opnd_err(p, c, o, "PTX-OPND-002", "a vector result with a predicate {...}|p "
                            "belongs to tex and tld4");
        if (o->kind == PTX_P_IMAGE && o->has_sampler)
            return opnd_err(p, c, o, "PTX-OPND-002", "a sampler operand [a, s, b] belongs to tex "
                            "and tld4");
    }
    return true;
}

/* The texture: a 64-bit integer register (a texture object, PTX 3.1 and later) or a .texref
 * variable, without an offset. */
static bool texture_operand(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    static const char *const what = "the texture must be a .u64 register or a .texref variable";
    uint32_t slot = 0;
    const ptx_binding *b = ptx_lookup(p, o->name.text, o->name.len, &slot);
    if (!o->has_base || o->ival != 0 || !b ||
        (b->kind != PTX_SYM_REG && b->kind != PTX_SYM_VAR))
        return opnd_err(p, c, o, "PTX-TEX-002", what);
    out->sym = IR_SYM_NONE;
    if (b->kind == PTX_SYM_VAR) {
        const ir_var *v = &((const ir_var *)p->vars.data)[b->index];
        if (v->image_ref != 2)
            return opnd_err(p, c, o, "PTX-TEX-002", "the variable is not a .texref");
        out->kind = IR_OPND_SYM;
        out->sym = b->index;
        return true;
    }
    if (ir_type_bits((ir_type)b->type) != 64 || ir_type_is_float((ir_type)b->type))
        return opnd_err(p, c, o, "PTX-TEX-002", what);
    if (p->version < 31)
        return opnd_err(p, c, o, "PTX-VER-001", "a texture object in a register requires PTX "
                        "ISA 3.1 or later");
    return ptx_lower_reg(p, c, &o->name, IR_T_U64, false, out);
}

/* One coordinate (any 32-bit register; the layer of a1d/a2d an integer one, as ptxas requires)
 * into element `slot` of the IR vector `out`; an integer immediate is packed into out->imm. */
static bool coordinate(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, unsigned i,
                       unsigned slot, bool layer, ir_operand *out)
{
    if (o->elem_is_imm[i]) {
        if (out->count > 2 || o->elem_imm[i] < INT32_MIN || o->elem_imm[i] > UINT32_MAX)
            return opnd_err(p, c, o, "PTX-OPND-003", "an immediate coordinate must fit 32 bits "
                            "and is modelled for 1d, 2d and a1d textures only");
        out->imm = (int64_t)((uint64_t)out->imm |
                             (((uint64_t)o->elem_imm[i] & 0xFFFFFFFFu) << (32 * slot)));
        out->vregs[slot] = IR_REG_IMM;
        return true;
    }
    const ptx_binding *b = ptx_lookup(p, o->elems[i].text, o->elems[i].len, NULL);
    if (layer && b && b->kind == PTX_SYM_REG && ir_type_is_float((ir_type)b->type))
        return opnd_err(p, c, o, "PTX-TEX-001", "the array layer is an integer (.u32) register");
    ir_operand r = {0};
    if (!ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &r))
        return false;
    out->vregs[slot] = r.reg;
    return true;
}

/* The coordinates: PTX's 1d {x}, 2d {x, y}, a1d {layer, x}, 3d {x, y, z, w}, a2d
 * {layer, x, y, w} become the IR's (x), (x, y), (x, layer), (x, y, z), (x, y, layer). As ptxas
 * 13 does, a vector of 2 or 4 elements longer than the geometry needs is accepted and its
 * further elements are ignored (checked as registers all the same). */
static bool coordinates(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    static const struct {
        uint8_t written, used, order[3], layer; /* layer: the IR slot of the layer, or 3 */
    } shapes[] = {
        [IR_IMAGE_1D] = {1, 1, {0}, 3},          [IR_IMAGE_2D] = {2, 2, {0, 1}, 3},
        [IR_IMAGE_1D_ARRAY] = {2, 2, {1, 0}, 1}, [IR_IMAGE_3D] = {4, 3, {0, 1, 2}, 3},
        [IR_IMAGE_2D_ARRAY] = {4, 3, {1, 2, 0}, 2},
    };
    unsigned dim = c->insn->mem.image_dim;
    if (o->count < shapes[dim].written || o->count == 3 || o->count > 4)
        return opnd_err(p, c, o, "PTX-TEX-001", "the coordinates do not match the geometry "
                        "(1d: {x}, 2d: {x, y}, a1d: {layer, x}, 3d: {x, y, z, w}, a2d: "
                        "{layer, x, y, w})");
    for (unsigned i = shapes[dim].written; i < o->count; i++) {
        ir_operand ignored = {0};
        if (!o->elem_is_imm[i] && !ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &ignored))
            return false;
    }
    out->kind = IR_OPND_VEC;
    out->sym = IR_SYM_NONE;
    out->count = shapes[dim].used;
    for (unsigned k = 0; k < shapes[dim].used; k++)
        if (!coordinate(p, c, o, shapes[dim].order[k], k, k == shapes[dim].layer, out))
            return false;
    return true;
}

/* The result: {a, b, c, d} of 32-bit registers ('_' discards a channel), and the optional
 * predicate of {a, b, c, d}|p (PTX ISA 7.1), which says whether the texels were resident. */
static bool result(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_insn *in)
{
    if (o->kind != PTX_P_VEC || o->count != 4)
        return opnd_err(p, c, o, "PTX-OPND-002", "the result is a vector of four registers "
                        "{a, b, c, d}");
    ir_operand *d = &in->dst[0];
    d->kind = IR_OPND_VEC;
    d->sym = IR_SYM_NONE;
    d->count = 4;
    for (unsigned i = 0; i < 4; i++) {
        if (!o->elems[i].text) {
            if (o->elem_is_imm[i])
                return opnd_err(p, c, o, "PTX-OPND-002", "the result vector holds registers");
            d->vregs[i] = IR_REG_SINK;
            continue;
        }
        ir_operand r = {0};
        if (!ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &r))
            return false;
        d->vregs[i] = r.reg;
    }
    in->ndst = 1;
    if (!o->name2.text)
        return true;
    if (p->version < 71)
        return opnd_err(p, c, o, "PTX-VER-001", "the predicate result {...}|p requires PTX ISA "
                        "7.1 or later");
    if (!ptx_lower_reg(p, c, &o->name2, IR_T_PRED, false, &in->dst[1]))
        return false;
    in->ndst = 2;
    return true;
}

static void lower_txq(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->nops != 2) {
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes 2 operands, found %u",
                     (int)c->text_len, c->text, c->nops);
        return;
    }
    if (ops[1].kind != PTX_P_ADDR) {
        opnd_err(p, c, &ops[1], "PTX-TEX-002", "txq reads the texture [a]");
        return;
    }
    if (ops[0].kind != PTX_P_NAME || ops[0].ival) {
        opnd_err(p, c, &ops[0], "PTX-OPND-002", "the destination must be a register");
        return;
    }
    if (ptx_lower_reg(p, c, &ops[0].name, IR_T_B32, false, &in->dst[0]) &&
        texture_operand(p, c, &ops[1], &in->src[0]))
        in->ndst = in->nsrc = 1;
}

void ptx_lower_texture(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->op == PTX_OP_TXQ) {
        lower_txq(p, c);
        return;
    }
    if (c->nops > 2) {
        unmodelled(p, c, "the offset and depth-compare operands are");
        return;
    }
    if (c->nops < 2 || ops[1].kind != PTX_P_IMAGE) {
        opnd_err(p, c, c->nops < 2 ? &ops[0] : &ops[1], "PTX-TEX-001",
                 "expected the result and the texture with its coordinates d, [a, {x, ...}]");
        return;
    }
    if (ops[1].has_sampler) {
        unmodelled(p, c, "an explicit sampler [a, s, {x, ...}] (independent texture mode) is");
        return;
    }
    if (texture_operand(p, c, &ops[1], &in->src[0]) && coordinates(p, c, &ops[1], &in->src[1]) &&
        result(p, c, &ops[0], in))
        in->nsrc = 2;
}

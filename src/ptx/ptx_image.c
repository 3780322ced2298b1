/* The operands that the surface (ptx_surf.c) and texture (ptx_tex.c) instructions share: the
 * image handle ([a]: a .u64 register holding an image object, or a .surfref/.texref variable),
 * the coordinate vector {x, ...} of the geometry, and the query instructions suq and txq
 * (PTX ISA 9.1 §9.7.10 and "Texture Instructions"; docs/ptx.md, "Surfaces" and "Textures").
 * What differs between the two lies in a ptx_image_kind: the words and rule ids of the
 * diagnostics, and the texture's rule that an array layer is an integer register. */
#include "ptx/ptx_internal.h"

bool ptx_image_opnd_err(ptx_parser *p, const ptx_insn_ctx *c, const ptx_popnd *o,
                        const char *rule, const char *msg)
{
    ptx_error_at(p, o->line, o->col, rule, "'%.*s': %s", (int)c->text_len, c->text, msg);
    return false;
}

static bool not_a_handle(ptx_parser *p, const ptx_insn_ctx *c, const ptx_image_kind *k,
                         const ptx_popnd *o)
{
    ptx_error_at(p, o->line, o->col, k->handle_rule,
                 "'%.*s': the %s must be a .u64 register or a %s variable", (int)c->text_len,
                 c->text, k->noun, k->ref);
    return false;
}

bool ptx_lower_image_handle(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k,
                            const ptx_popnd *o, ir_operand *out)
{
    uint32_t slot = 0;
    const ptx_binding *b = ptx_lookup(p, o->name.text, o->name.len, &slot);
    if (!o->has_base || o->ival != 0 || !b ||
        (b->kind != PTX_SYM_REG && b->kind != PTX_SYM_VAR))
        return not_a_handle(p, c, k, o);
    out->sym = IR_SYM_NONE;
    if (b->kind == PTX_SYM_VAR) {
        const ir_var *v = &((const ir_var *)p->vars.data)[b->index];
        if (v->image_ref != k->image_ref) {
            ptx_error_at(p, o->line, o->col, k->handle_rule, "'%.*s': the variable is not a %s",
                         (int)c->text_len, c->text, k->ref);
            return false;
        }
        out->kind = IR_OPND_SYM;
        out->sym = b->index;
        return true;
    }
    if (ir_type_bits((ir_type)b->type) != 64 || ir_type_is_float((ir_type)b->type))
        return not_a_handle(p, c, k, o);
    if (p->version < 31) {
        ptx_error_at(p, o->line, o->col, "PTX-VER-001", "'%.*s': a %s object in a register "
                     "requires PTX ISA 3.1 or later", (int)c->text_len, c->text, k->noun);
        return false;
    }
    return ptx_lower_reg(p, c, &o->name, IR_T_U64, false, out);
}

/* One coordinate (any 32-bit register; the layer of a1d/a2d an integer one where k asks for it)
 * into element `slot` of the IR vector `out`; an integer immediate is packed into out->imm. */
static bool coordinate(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k,
                       const ptx_popnd *o, unsigned i, unsigned slot, bool layer, ir_operand *out)
{
    if (o->elem_is_imm[i]) {
        if (out->count > 2 || o->elem_imm[i] < INT32_MIN || o->elem_imm[i] > UINT32_MAX) {
            ptx_error_at(p, o->line, o->col, "PTX-OPND-003", "'%.*s': an immediate coordinate "
                         "must fit 32 bits and is modelled for 1d, 2d and a1d %ss only",
                         (int)c->text_len, c->text, k->noun);
            return false;
        }
        out->imm = (int64_t)((uint64_t)out->imm |
                             (((uint64_t)o->elem_imm[i] & 0xFFFFFFFFu) << (32 * slot)));
        out->vregs[slot] = IR_REG_IMM;
        return true;
    }
    if (layer && k->integer_layer) {
        const ptx_binding *b = ptx_lookup(p, o->elems[i].text, o->elems[i].len, NULL);
        if (b && b->kind == PTX_SYM_REG && ir_type_is_float((ir_type)b->type))
            return ptx_image_opnd_err(p, c, o, k->coord_rule,
                                      "the array layer is an integer (.u32) register");
    }
    ir_operand r = {0};
    if (!ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &r))
        return false;
    out->vregs[slot] = r.reg;
    return true;
}

bool ptx_lower_image_coords(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k,
                            const ptx_popnd *o, ir_operand *out)
{
    static const struct {
        uint8_t written, used, order[4], layer; /* layer: the IR slot of the layer, or 7 */
    } shapes[] = {
        [IR_IMAGE_1D] = {1, 1, {0}, 7},          [IR_IMAGE_2D] = {2, 2, {0, 1}, 7},
        [IR_IMAGE_1D_ARRAY] = {2, 2, {1, 0}, 1}, [IR_IMAGE_3D] = {4, 3, {0, 1, 2}, 7},
        [IR_IMAGE_2D_ARRAY] = {4, 3, {1, 2, 0}, 2}, [IR_IMAGE_CUBE] = {4, 3, {0, 1, 2}, 7},
        [IR_IMAGE_CUBE_ARRAY] = {4, 4, {1, 2, 3, 0}, 3},
    };
    unsigned dim = c->insn->mem.image_dim;
    if (o->count < shapes[dim].written || o->count == 3 || o->count > 4)
        return ptx_image_opnd_err(p, c, o, k->coord_rule, "the coordinates do not match the "
                                  "geometry (1d: {x}, 2d: {x, y}, a1d: {layer, x}, 3d and cube: "
                                  "{x, y, z, w}, a2d: {layer, x, y, w}, acube: {layer, x, y, "
                                  "z})");
    for (unsigned i = shapes[dim].written; i < o->count; i++) {
        ir_operand ignored = {0};
        if (!o->elem_is_imm[i] && !ptx_lower_reg(p, c, &o->elems[i], IR_T_B32, false, &ignored))
            return false;
    }
    out->kind = IR_OPND_VEC;
    out->sym = IR_SYM_NONE;
    out->count = shapes[dim].used;
    for (unsigned s = 0; s < shapes[dim].used; s++)
        if (!coordinate(p, c, k, o, shapes[dim].order[s], s, s == shapes[dim].layer, out))
            return false;
    return true;
}

void ptx_lower_image_query(ptx_parser *p, ptx_insn_ctx *c, const ptx_image_kind *k)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    if (c->nops != 2) {
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes 2 operands, found %u",
                     (int)c->text_len, c->text, c->nops);
        return;
    }
    if (ops[1].kind != PTX_P_ADDR) {
        ptx_error_at(p, ops[1].line, ops[1].col, k->handle_rule, "'%.*s': %s reads the %s [a]",
                     (int)c->text_len, c->text, k->query, k->noun);
        return;
    }
    if (ops[0].kind != PTX_P_NAME || ops[0].ival) {
        ptx_image_opnd_err(p, c, &ops[0], "PTX-OPND-002", "the destination must be a register");
        return;
    }
    if (ptx_lower_reg(p, c, &ops[0].name, IR_T_B32, false, &in->dst[0]) &&
        ptx_lower_image_handle(p, c, k, &ops[1], &in->src[0]))
        in->ndst = in->nsrc = 1;
}

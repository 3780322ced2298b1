/* The surface half of the SASS checker (sass_check.h): SUATOM, SULD, SUST and SURED
 * (../reference/sass-dialect.md sections 3 and 4, "Surface operations" and the SUATOM.D table;
 * seed page 004; docs/sass.md, "Surfaces"). The operand kinds were matched by the form already;
 * here: the mode, the dimension and its coordinate registers, the atomic operation and its size,
 * the sparse-status predicate and the surface operand (slot or bindless register). */
#include <stdio.h>
#include <string.h>

#include "sass/sass_check.h"

unsigned sass_ps_shift(const sass_insn *in)
{
    return sass_op_rows[in->op].form == SASS_FORM_SURFACE && in->nopnd &&
           in->o[0].kind == SASS_O_PRED;
}

/* Coordinates per dimension (reference 4, "Surface operations"): 1D and 1D_BUFFER one register;
 * 2D and 1D_ARRAY two; 3D and 2D_ARRAY three. */
static unsigned coord_regs(uint32_t dim)
{
    switch (dim) {
    case IR_IMAGE_2D: case IR_IMAGE_1D_ARRAY: return 2;
    case IR_IMAGE_3D: case IR_IMAGE_2D_ARRAY: return 3;
    default: return 1;
    }
}

unsigned sass_addr_regs(const sass_insn *in)
{
    if (sass_op_rows[in->op].form == SASS_FORM_SURFACE)
        return coord_regs(in->val[SASS_G_DIM]);
    return in->has[SASS_G_E] ? 2 : 1;
}

static bool fail(sass_parser *p, uint32_t line, uint32_t col, const char *rule, const char *msg,
                 const sass_insn *in)
{
    sass_error(p, line, col, rule, "%s %s", sass_op_rows[in->op].mnemonic, msg);
    return false;
}

/* The spelling of value `v` of group `g` ("" when none). */
static const char *mod_text(sass_group g, uint32_t v)
{
    for (size_t i = 0; i < sass_mod_row_count; i++)
        if (sass_mod_rows[i].group == g && sass_mod_rows[i].value == v)
            return sass_mod_rows[i].text;
    return "";
}

/* SUATOM and SURED without an operation: the message suggests the instruction with .ADD after the
 * dimension (the seed's `SUATOM.D.BA.1D.U64.TRAP` becomes `SUATOM.D.BA.1D.ADD.U64.TRAP`). */
static bool missing_op(sass_parser *p, const sass_insn *in)
{
    char fix[96];
    snprintf(fix, sizeof fix, "%s%s%s%s.ADD%s%s", sass_op_rows[in->op].mnemonic,
             mod_text(SASS_G_SUMODE, in->val[SASS_G_SUMODE]), in->has[SASS_G_BA] ? ".BA" : "",
             mod_text(SASS_G_DIM, in->val[SASS_G_DIM]),
             in->has[SASS_G_ATOMSZ] ? mod_text(SASS_G_ATOMSZ, in->val[SASS_G_ATOMSZ]) : "",
             in->has[SASS_G_CLAMP] ? mod_text(SASS_G_CLAMP, in->val[SASS_G_CLAMP]) : "");
    sass_error(p, in->line, in->col, "SASS-SURF-002", "%s needs an atomic operation (ADD, MIN, "
               "MAX, INC, DEC, AND, OR, XOR%s): it has no default; did you mean %s?",
               sass_op_rows[in->op].mnemonic, in->op == SASS_OP_SUATOM ? ", EXCH or CAS" : "",
               fix);
    return false;
}

/* The seed page's op x size table (CAS from its last row). */
static bool size_allowed(uint32_t op, uint32_t sz)
{
    switch (op) {
    case IR_ATOM_ADD:
        return sz == SASS_ASZ_U32 || sz == SASS_ASZ_S32 || sz == SASS_ASZ_SD32 ||
               sz == SASS_ASZ_U64 || sz == SASS_ASZ_F32 || sz == SASS_ASZ_F16X2;
    case IR_ATOM_MIN: case IR_ATOM_MAX:
        return sz != SASS_ASZ_F32;
    case IR_ATOM_INC: case IR_ATOM_DEC:
        return sz == SASS_ASZ_U32;
    case IR_ATOM_AND: case IR_ATOM_OR: case IR_ATOM_XOR:
        return sz == SASS_ASZ_U32 || sz == SASS_ASZ_S32 || sz == SASS_ASZ_SD32 ||
               sz == SASS_ASZ_U64;
    default: /* EXCH, CAS */
        return sz == SASS_ASZ_U32 || sz == SASS_ASZ_S32 || sz == SASS_ASZ_U64;
    }
}

/* The operation and size of SUATOM and SURED. */
static bool check_op(sass_parser *p, const sass_insn *in)
{
    uint32_t op = in->val[SASS_G_ATOMOP], opcol = in->mod_col[SASS_G_ATOMOP];
    if (!in->has[SASS_G_ATOMOP])
        return missing_op(p, in);
    if (op == SASS_ATOM_SAFEADD || op == SASS_ATOM_CAST)
        return fail(p, in->line, opcol, "SASS-SURF-009", "takes the operations ADD MIN MAX INC "
                    "DEC AND OR XOR EXCH CAS only", in);
    if (in->op == SASS_OP_SURED && (op == IR_ATOM_EXCH || op == IR_ATOM_CAS))
        return fail(p, in->line, opcol, "SASS-SURF-010", "returns nothing: .EXCH and .CAS are "
                    "SUATOM's", in);
    uint32_t sz = in->has[SASS_G_ATOMSZ] ? in->val[SASS_G_ATOMSZ] : SASS_ASZ_U32;
    uint32_t szcol = in->has[SASS_G_ATOMSZ] ? in->mod_col[SASS_G_ATOMSZ] : opcol;
    if (sz == SASS_ASZ_F16X2_FTZ)
        return fail(p, in->line, szcol, "SASS-SURF-011", "size .F16x2.FTZ.RN is written "
                    ".F16x2.RN (the page's table and its encoding name)", in);
    if (!size_allowed(op, sz))
        return fail(p, in->line, szcol, "SASS-SURF-009", "does not take this size with this "
                    "operation (the seed page's table)", in);
    if (sz == SASS_ASZ_SD32 || sz == SASS_ASZ_SD64)
        return fail(p, in->line, szcol, "SASS-SURF-012", "sizes .SD32 and .SD64 are not "
                    "modelled", in);
    return true;
}

/* [Ra]: a register other than RZ, no offset, aligned for the dimension's coordinate count. */
static bool check_coords(sass_parser *p, const sass_insn *in, const sass_opnd *o)
{
    if (!o->has_base || o->reg == SASS_RZ || o->imm_line)
        return fail(p, o->line, o->col, "SASS-SURF-005", "coordinates are written [Ra], Ra a "
                    "register other than RZ, without an offset", in);
    unsigned n = coord_regs(in->val[SASS_G_DIM]), align = n == 3 ? 4 : n;
    if (o->reg % align) {
        sass_error(p, o->line, o->col + 1, "SASS-SURF-006", "%s%s takes %u coordinate "
                   "registers from Ra, which must be a multiple of %u: R%u is not",
                   sass_op_rows[in->op].mnemonic, mod_text(SASS_G_DIM, in->val[SASS_G_DIM]), n,
                   align, o->reg);
        return false;
    }
    return true;
}

/* The last operand: a bindless Rc (not RZ) or the slot #tsPtrIdxU13. */
static bool check_image(sass_parser *p, const sass_insn *in, const sass_opnd *o)
{
    if (o->kind == SASS_O_REG && o->reg == SASS_RZ)
        return fail(p, o->line, o->col, "SASS-SURF-007", "bindless surface register Rc cannot "
                    "be RZ", in);
    if (o->kind == SASS_O_IMM && (o->imm < 0 || o->imm > 0x1FFF)) {
        sass_error(p, o->line, o->col, "SASS-SURF-008", "surface slot %lld does not fit "
                   "#tsPtrIdxU13 (0..8191)", (long long)o->imm);
        return false;
    }
    return true;
}

bool sass_check_surface(sass_parser *p, const sass_insn *in)
{
    bool atomic = in->op == SASS_OP_SUATOM || in->op == SASS_OP_SURED;
    unsigned sh = sass_ps_shift(in);
    if (!in->has[SASS_G_SUMODE])
        return fail(p, in->line, in->col, "SASS-SURF-003", "needs its mode .D (raw data)", in);
    if (in->val[SASS_G_SUMODE] == SASS_SU_P || in->has[SASS_G_CHMASK])
        return fail(p, in->line, in->mod_col[in->has[SASS_G_CHMASK] ? SASS_G_CHMASK
                                                                   : SASS_G_SUMODE],
                    "SASS-SURF-001", "formatted data (.P with a channel mask) is not "
                    "supported yet: use .D", in);
    if (!in->has[SASS_G_DIM])
        return fail(p, in->line, in->col, "SASS-SURF-004", "needs its dimension (.1D "
                    ".1D_BUFFER .1D_ARRAY .2D .2D_ARRAY .3D)", in);
    if (atomic && !check_op(p, in))
        return false;
    const sass_opnd *last = &in->o[in->nopnd - 1];
    if (sh && (in->op != SASS_OP_SUATOM ||
               (last->kind == SASS_O_IMM && in->val[SASS_G_ATOMOP] != IR_ATOM_CAS)))
        return fail(p, in->o[0].line, in->o[0].col, "SASS-SURF-013", "takes no sparse-status "
                    "predicate here (SUATOM with a slot takes Ps only with .CAS)", in);
    for (unsigned i = sh; i < in->nopnd; i++)
        if (in->o[i].kind == SASS_O_MEM && !check_coords(p, in, &in->o[i]))
            return false;
    return check_image(p, in, last);
}

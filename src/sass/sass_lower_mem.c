/* The memory half of the SASS lowering (sass_lower.h): loads and stores of every window, LDC,
 * atomics and reductions (64-bit data packed into b64 temporaries by glue), CCTL and CCTLL (the
 * seed page's table of levels per operation), MEMBAR and BAR, and the surface instructions
 * SUATOM, SULD, SUST, SURED (docs/sass.md, "Lowering" and "Surfaces"). */
#include <string.h>

#include "sass/sass_check.h"
#include "sass/sass_lower.h"

static ir_space space_of(sass_op_id op)
{
    switch (op) {
    case SASS_OP_LDG: case SASS_OP_STG: return IR_SPACE_GLOBAL;
    case SASS_OP_LDL: case SASS_OP_STL: case SASS_OP_CCTLL: return IR_SPACE_LOCAL;
    case SASS_OP_LDS: case SASS_OP_STS: case SASS_OP_ATOMS: return IR_SPACE_SHARED;
    case SASS_OP_LDC: return IR_SPACE_CONST;
    default: return IR_SPACE_GENERIC;
    }
}

/* [Ra + imm]: a 32-bit base, the .E pair {Ra, Ra+1}, or an absolute address (no base: Ra omitted,
 * RZ or beyond the kernel's registers). */
static ir_operand address(sass_lowering *L, const sass_insn *s, const sass_opnd *o)
{
    ir_operand a = {.kind = IR_OPND_ADDR, .sym = IR_SYM_NONE, .imm = o->imm};
    if (o->kind == SASS_O_CBANK)
        a.bank = o->bank;
    if (!sass_has_base(&L->p->k, o)) {
        a.imm = (int64_t)(uint32_t)o->imm;
        return a;
    }
    a.has_reg = 1;
    a.reg = o->reg;
    if (s->has[SASS_G_E]) {
        a.count = 2;
        a.vregs[0] = o->reg;
        a.vregs[1] = o->reg + 1;
    }
    return a;
}

/* The cache operator's meaning (reference 4, "Cache operators"; docs/sass.md). */
static void cache_op(ir_mem_attrs *m, const sass_insn *s, bool store)
{
    if (!s->has[SASS_G_COP])
        return;
    switch (s->val[SASS_G_COP]) {
    case SASS_COP_CG:
        if (store)
            m->write_mode = IR_WRITE_BYPASS_L1;
        else
            m->l1 |= IR_L1_BYPASS;
        break;
    case SASS_COP_CS:
        if (store) {
            m->write_mode = IR_WRITE_STREAMING;
        } else if (s->op != SASS_OP_LDL) { /* LDL.CS is LDL.CA (seed page 002) */
            m->l1_alloc = IR_EVICT_FIRST;
            m->l2_evict = IR_EVICT_FIRST;
        }
        break;
    case SASS_COP_LU: m->l1 |= IR_L1_LAST_USE; m->l1_alloc = IR_EVICT_FIRST; break;
    case SASS_COP_CV: m->l1 |= IR_L1_INVALIDATE; break;
    case SASS_COP_CI: m->l1 |= IR_L1_READ_ONLY; break;
    case SASS_COP_WB: m->write_mode = IR_WRITE_BACK; break;
    case SASS_COP_WT: m->write_mode = IR_WRITE_THROUGH; break;
    default: break; /* CA: the default */
    }
}

static ir_type sized_type(const sass_insn *s)
{
    if (!s->has[SASS_G_SIZE])
        return IR_T_B32;
    switch (s->val[SASS_G_SIZE]) {
    case SASS_SZ_U8: return IR_T_U8;
    case SASS_SZ_S8: return IR_T_S8;
    case SASS_SZ_U16: return IR_T_U16;
    case SASS_SZ_S16: return IR_T_S16;
    default: return IR_T_B32;
    }
}

static bool lower_ld_st(sass_lowering *L, const sass_insn *s)
{
    const sass_form form = (sass_form)sass_op_rows[s->op].form;
    bool store = form == SASS_FORM_STORE;
    unsigned data = store ? 1 : 0, regs = sass_data_regs(s, data);
    ir_operand value = regs > 1 ? sass_vec(L, s->o[data].reg, regs, !store)
                       : store  ? sass_src_reg(s->o[data].reg)
                                : sass_dst_reg(L, s->o[data].reg);
    ir_insn *in = sass_emit(L, store ? IR_ST : IR_LD, false);
    if (!in)
        return false;
    in->type = (uint8_t)sized_type(s);
    in->mem.space = (uint8_t)space_of((sass_op_id)s->op);
    in->mem.elem_bytes = (uint8_t)(ir_type_bits((ir_type)in->type) / 8);
    in->mem.vec = (uint8_t)regs;
    in->mem.uniform = s->has[SASS_G_U];
    cache_op(&in->mem, s, store);
    ir_operand addr = address(L, s, &s->o[store ? 0 : 1]);
    if (store) {
        in->nsrc = 2;
        in->src[0] = addr;
        in->src[1] = value;
    } else {
        in->ndst = in->nsrc = 1;
        in->dst[0] = value;
        in->src[0] = addr;
    }
    return true;
}

/* A 64-bit operand of an atomic: the pair {r, r+1} packed by glue into a b64 temporary. */
static ir_operand pack64(sass_lowering *L, uint32_t r)
{
    if (r == SASS_RZ)
        return (ir_operand){.kind = IR_OPND_IMM, .sym = IR_SYM_NONE};
    ir_operand t = {.kind = IR_OPND_REG, .reg = sass_temp(L, IR_T_B64), .sym = IR_SYM_NONE};
    ir_insn *mv = sass_emit(L, IR_MOV, true);
    if (mv) {
        mv->type = IR_T_B64;
        mv->ndst = mv->nsrc = 1;
        mv->dst[0] = t;
        mv->src[0] = sass_vec(L, r, 2, false);
    }
    return t;
}

static ir_type atom_type(const sass_insn *s, uint32_t op, bool wide)
{
    if (op == IR_ATOM_CAS || op == IR_ATOM_EXCH || op == IR_ATOM_AND || op == IR_ATOM_OR ||
        op == IR_ATOM_XOR)
        return wide ? IR_T_B64 : IR_T_B32;
    switch (s->has[SASS_G_ATOMSZ] ? s->val[SASS_G_ATOMSZ] : SASS_ASZ_U32) {
    case SASS_ASZ_S32: return IR_T_S32;
    case SASS_ASZ_U64: return IR_T_U64;
    case SASS_ASZ_S64: return IR_T_S64;
    case SASS_ASZ_F32: return IR_T_F32;
    default: return wide ? IR_T_U64 : IR_T_U32; /* SAFEADD is a 64-bit add */
    }
}

static bool lower_atom(sass_lowering *L, const sass_insn *s)
{
    bool red = s->op == SASS_OP_RED, wide = sass_data_bytes(s) == 8;
    uint32_t op = s->val[SASS_G_ATOMOP];
    const sass_opnd *addr = &s->o[red ? 0 : 1];
    ir_operand b, c = {0}, d = {0};
    unsigned bi = red ? 1 : 2;
    b = wide ? pack64(L, s->o[bi].reg) : sass_src_reg(s->o[bi].reg);
    if (op == IR_ATOM_CAS)
        c = wide ? pack64(L, s->o[3].reg) : sass_src_reg(s->o[3].reg);
    if (!red)
        d = wide ? (ir_operand){.kind = IR_OPND_REG, .reg = sass_temp(L, IR_T_B64),
                                .sym = IR_SYM_NONE}
                 : sass_dst_reg(L, s->o[0].reg);
    ir_insn *in = sass_emit(L, red ? IR_RED : IR_ATOM, false);
    if (!in)
        return false;
    in->type = (uint8_t)atom_type(s, op, wide);
    in->sub = (uint8_t)(op == SASS_ATOM_SAFEADD ? IR_ATOM_ADD : op);
    in->mem.space = (uint8_t)space_of((sass_op_id)s->op);
    in->mem.elem_bytes = wide ? 8 : 4;
    in->mem.vec = 1;
    in->ndst = red ? 0 : 1;
    in->dst[0] = d;
    in->src[0] = address(L, s, addr);
    in->src[1] = b;
    in->src[2] = c;
    in->nsrc = op == IR_ATOM_CAS ? 3 : 2;
    if (!wide || red || s->o[0].reg == SASS_RZ)
        return true;
    ir_insn *un = sass_emit(L, IR_MOV, true); /* unpack the old value into {Rd, Rd+1} */
    if (!un)
        return false;
    un->type = IR_T_B64;
    un->ndst = un->nsrc = 1;
    un->dst[0] = sass_vec(L, s->o[0].reg, 2, true);
    un->src[0] = d;
    return true;
}

/* CCTL and CCTLL: the operation and the caches it reaches, after the seed page's table (PF1: L1
 * and L2; PF2: L2; WB, IV, RS, IVALL: L1; .C and .I: their L1; CRS.WBALL: the CRS cache). .U is
 * .D: the page defines it as a deprecated alias (docs/sass.md, "CCTL.U"). */
static bool lower_cctl(sass_lowering *L, const sass_insn *s)
{
    static const uint8_t ops[] = {
        [SASS_CCTL_PF1] = IR_CCTL_PREFETCH,   [SASS_CCTL_PF2] = IR_CCTL_PREFETCH,
        [SASS_CCTL_WB] = IR_CCTL_WRITEBACK,   [SASS_CCTL_IV] = IR_CCTL_INVALIDATE,
        [SASS_CCTL_RS] = IR_CCTL_DISCARD,     [SASS_CCTL_IVALL] = IR_CCTL_INVALIDATE,
        [SASS_CCTL_WBALL] = IR_CCTL_WRITEBACK};
    bool local = s->op == SASS_OP_CCTLL;
    uint32_t op = s->val[SASS_G_CCTLOP];
    uint32_t cache = s->has[SASS_G_CACHE] ? s->val[SASS_G_CACHE] : SASS_CACHE_D;
    ir_insn *in = sass_emit(L, IR_CCTL, false);
    if (!in)
        return false;
    ir_mem_attrs *m = &in->mem;
    m->cctl = ops[op];
    m->space = (uint8_t)(local ? IR_SPACE_LOCAL : IR_SPACE_GENERIC);
    m->cctl_levels = op == SASS_CCTL_PF1 ? IR_LEVEL_L1 | IR_LEVEL_L2
                     : op == SASS_CCTL_PF2 ? IR_LEVEL_L2 : IR_LEVEL_L1;
    if (local && cache != SASS_CACHE_CRS)
        m->cctl_lines = IR_LINES_LOCAL;
    if (cache == SASS_CACHE_C) {
        m->space = IR_SPACE_CONST;
        m->cctl_levels = IR_LEVEL_CONST_L1;
    } else if (cache == SASS_CACHE_I) {
        m->space = IR_SPACE_INSTRUCTION;
        m->cctl_levels = IR_LEVEL_INSN_L1;
    } else if (cache == SASS_CACHE_CRS) {
        m->space = IR_SPACE_CRS;
        m->cctl_levels = IR_LEVEL_CRS;
    } else if (op == SASS_CCTL_IVALL && !local) {
        m->cctl_lines = IR_LINES_GLOBAL; /* CCTL.D.IVALL: every global line of the L1 */
    }
    if (op == SASS_CCTL_IVALL || op == SASS_CCTL_WBALL) {
        m->cctl_all = 1;
        return true;
    }
    in->nsrc = 1;
    in->src[0] = address(L, s, &s->o[0]);
    return true;
}

static bool lower_membar(sass_lowering *L, const sass_insn *s)
{
    ir_insn *in = sass_emit(L, IR_MEMBAR, false);
    if (!in)
        return false;
    uint32_t scope = s->val[SASS_G_SCOPE];
    in->mem.scope = (uint8_t)(scope == SASS_SCOPE_VC ? IR_SCOPE_GPU : scope);
    /* SASS MEMBAR orders; it does not drop L1 lines unless an .IVALL* suffix says so */
    in->mem.fence = (uint8_t)(IR_FENCE_WAIT_WRITES | s->val[SASS_G_IVALL]);
    return true;
}

static ir_operand id_or_count(const sass_opnd *o)
{
    return o->kind == SASS_O_IMM ? sass_imm(o->imm) : sass_src_reg(o->reg);
}

/* BAR.SYNC {a {, b}}, BAR.ARV a, b, BAR.RED.op d, a {, b}, {!}Pa. */
static bool lower_bar(sass_lowering *L, const sass_insn *s)
{
    bool red = s->val[SASS_G_BAROP] == SASS_BAR_RED;
    unsigned first = red ? 1 : 0, nargs = s->nopnd - (red ? 2 : 0);
    ir_operand d = {0};
    if (red)
        d = s->o[0].kind == SASS_O_REG ? sass_dst_reg(L, s->o[0].reg)
            : s->o[0].reg == SASS_PT   ? sass_pred(sass_pred_temp(L), false)
                                       : sass_pred(s->o[0].reg, false);
    ir_insn *in = sass_emit(L, IR_BAR, false);
    if (!in)
        return false;
    in->sub = (uint8_t)(red ? s->val[SASS_G_BARRED] : s->val[SASS_G_BAROP]);
    if (red)
        in->type = s->val[SASS_G_BARRED] == IR_BAR_RED_POPC ? IR_T_U32 : IR_T_PRED;
    in->nsrc = 1;
    in->src[0] = nargs ? id_or_count(&s->o[first]) : sass_imm(0);
    if (nargs > 1) {
        in->src[1] = id_or_count(&s->o[first + 1]);
        in->nsrc = 2;
    }
    if (red) {
        in->ndst = 1;
        in->dst[0] = d;
        in->src[2] = sass_pred(s->o[s->nopnd - 1].reg, s->o[s->nopnd - 1].not_);
        in->nsrc = 3;
    }
    return true;
}

/* ---- surfaces (docs/sass.md, "Surfaces") ---- */
/* The attributes every surface op shares: global memory, the dimension, the clamp (.NEAR by
 * default), .BA, the access size elem_bytes x vec. */
static void surface_attrs(ir_insn *in, const sass_insn *s, unsigned elem_bytes, unsigned vec)
{
    in->mem.space = IR_SPACE_GLOBAL;
    in->mem.image_dim = (uint8_t)s->val[SASS_G_DIM];
    in->mem.image_clamp = (uint8_t)(s->has[SASS_G_CLAMP] ? s->val[SASS_G_CLAMP] : IR_CLAMP_NEAR);
    in->mem.image_flags = s->has[SASS_G_BA] ? IR_IMAGE_BYTE_X : 0;
    in->mem.elem_bytes = (uint8_t)elem_bytes;
    in->mem.vec = (uint8_t)vec;
}

/* src[0], the image: the slot #tsPtrIdxU13 as an IMM (a word index into machine.image_bank), or
 * the bindless register Rc (its header word) as a REG. src[1], the coordinates: Ra, or the VEC
 * {Ra, Ra+1 (, Ra+2)}. */
static void surface_image(sass_lowering *L, ir_insn *in, const sass_insn *s)
{
    const sass_opnd *img = &s->o[s->nopnd - 1];
    const sass_opnd *coords = &s->o[sass_ps_shift(s) + (s->op == SASS_OP_SUST ||
                                                        s->op == SASS_OP_SURED ? 0 : 1)];
    unsigned n = sass_addr_regs(s);
    in->src[0] = img->kind == SASS_O_IMM ? sass_imm(img->imm) : sass_src_reg(img->reg);
    in->src[1] = n == 1 ? sass_src_reg(coords->reg) : sass_vec(L, coords->reg, n, false);
}

/* The IR type of a SUATOM or SURED: the bit operations and exchanges untyped, the rest as the
 * size says (.F16x2.RN is f16x2, .F32.FTZ.RN f32, as ATOM's). */
static ir_type surface_atom_type(const sass_insn *s, uint32_t op, bool wide)
{
    if (s->has[SASS_G_ATOMSZ] && s->val[SASS_G_ATOMSZ] == SASS_ASZ_F16X2)
        return IR_T_F16X2;
    return atom_type(s, op, wide);
}

/* SULD.D Rd, [Ra], Rc | slot and SUST.D [Ra], Rb, Rc | slot: raw data as LDG/STG move it (.U8
 * .S8 .U16 .S16 .32, and .64/.128 as a VEC of 2 or 4 registers). */
static bool lower_suld_sust(sass_lowering *L, const sass_insn *s)
{
    bool store = s->op == SASS_OP_SUST;
    unsigned data = store ? 1 : 0, regs = sass_data_regs(s, data);
    ir_operand value = regs > 1 ? sass_vec(L, s->o[data].reg, regs, !store)
                       : store  ? sass_src_reg(s->o[data].reg)
                                : sass_dst_reg(L, s->o[data].reg);
    ir_insn *in = sass_emit(L, store ? IR_SUST : IR_SULD, false);
    if (!in)
        return false;
    in->type = (uint8_t)sized_type(s);
    surface_attrs(in, s, ir_type_bits((ir_type)in->type) / 8, regs);
    cache_op(&in->mem, s, store);
    surface_image(L, in, s);
    if (store) {
        in->nsrc = 3;
        in->src[2] = value;
    } else {
        in->nsrc = 2;
        in->ndst = 1;
        in->dst[0] = value;
    }
    return true;
}

/* SUATOM.D {Ps,} Rd, [Ra], Rb, Rc | slot and SURED.D [Ra], Rb, Rc | slot: 64-bit data packed
 * into b64 temporaries as ATOM's; CAS compares with Rb (Rb:Rb+1) and stores Rb+1 (Rb+2:Rb+3);
 * dst[1] the sparse status when Ps is a predicate other than PT. */
static bool lower_suatom(sass_lowering *L, const sass_insn *s)
{
    bool red = s->op == SASS_OP_SURED, wide = sass_data_bytes(s) == 8;
    unsigned sh = sass_ps_shift(s), bi = sh + (red ? 1 : 2);
    uint32_t op = s->val[SASS_G_ATOMOP], rb = s->o[bi].reg, rd = s->o[sh].reg;
    bool cas = op == IR_ATOM_CAS;
    ir_operand b = wide ? pack64(L, rb) : sass_src_reg(rb), c = {0}, d = {0};
    if (cas)
        c = rb == SASS_RZ ? sass_imm(0) : wide ? pack64(L, rb + 2) : sass_src_reg(rb + 1);
    if (!red)
        d = wide ? (ir_operand){.kind = IR_OPND_REG, .reg = sass_temp(L, IR_T_B64),
                                .sym = IR_SYM_NONE}
                 : sass_dst_reg(L, rd);
    ir_insn *in = sass_emit(L, red ? IR_SURED : IR_SUATOM, false);
    if (!in)
        return false;
    in->type = (uint8_t)surface_atom_type(s, op, wide);
    in->sub = (uint8_t)op;
    surface_attrs(in, s, wide ? 8 : 4, 1);
    surface_image(L, in, s);
    in->src[2] = b;
    in->src[3] = c;
    in->nsrc = cas ? 4 : 3;
    if (!red) {
        in->ndst = 1;
        in->dst[0] = d;
        if (sh && s->o[0].reg != SASS_PT) {
            in->ndst = 2;
            in->dst[1] = sass_pred(s->o[0].reg, false);
        }
    }
    if (!wide || red || rd == SASS_RZ)
        return true;
    ir_insn *un = sass_emit(L, IR_MOV, true); /* unpack the old value into {Rd, Rd+1} */
    if (!un)
        return false;
    un->type = IR_T_B64;
    un->ndst = un->nsrc = 1;
    un->dst[0] = sass_vec(L, rd, 2, true);
    un->src[0] = d;
    return true;
}

bool sass_lower_mem(sass_lowering *L)
{
    const sass_insn *s = L->cur;
    switch (sass_op_rows[s->op].form) {
    case SASS_FORM_LOAD: case SASS_FORM_STORE: case SASS_FORM_LDC: return lower_ld_st(L, s);
    case SASS_FORM_ATOM: case SASS_FORM_RED: return lower_atom(L, s);
    case SASS_FORM_CCTL: return lower_cctl(L, s);
    case SASS_FORM_BAR: return lower_bar(L, s);
    case SASS_FORM_SURFACE:
        return s->op == SASS_OP_SULD || s->op == SASS_OP_SUST ? lower_suld_sust(L, s)
                                                              : lower_suatom(L, s);
    default: return lower_membar(L, s);
    }
}

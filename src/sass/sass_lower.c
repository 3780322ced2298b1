/* The SASS lowering (sass_lower.h): one checked kernel into one IR function on the dialect's
 * machine (docs/sass.md, "Lowering"): IR register n is Rn (b32) and temporaries follow; IR
 * predicates 0..6 are P0..P6 and 7 is PT, set true by a glue setp at the entry; each SASS
 * instruction becomes one IR instruction, with glue before it (constant-bank loads, negated or
 * inverted operands, packing register pairs) or after it (unpacking), all with its id; and each
 * IR instruction gets an ir_ctrl (present on the SASS instruction itself) with the registers it
 * reads and writes. This file holds the framework and the ALU and control-flow instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass/sass_check.h"
#include "sass/sass_lower.h"

/* ---- the framework ---- */
ir_insn *sass_emit(sass_lowering *L, ir_opcode op, bool glue)
{
    ir_insn *in = dynarray_push(&L->insns);
    ir_ctrl *c = dynarray_push(&L->ctrls);
    if (!in || !c) {
        L->oom = true;
        return NULL;
    }
    in->op = (uint16_t)op;
    in->glue = glue;
    in->id = L->cur_id;
    if (L->cur) {
        const sass_insn *s = L->cur;
        in->line = s->line;
        in->col = s->col;
        if (s->has_guard && !(s->guard == SASS_PT && !s->guard_neg)) {
            in->has_guard = 1;
            in->guard = s->guard;
            in->guard_neg = s->guard_neg;
        }
    }
    c->wr_sb = c->rd_sb = c->depbar_sb = IR_SB_NONE;
    return in;
}

uint32_t sass_temp(sass_lowering *L, ir_type type)
{
    uint8_t *t = dynarray_push(&L->temp_types);
    if (!t) {
        L->oom = true;
        return 0;
    }
    *t = (uint8_t)type;
    return L->nregs + (uint32_t)L->temp_types.count - 1;
}

uint32_t sass_pred_temp(sass_lowering *L) { return SASS_IR_PREDS + L->npred_temps++; }

ir_operand sass_imm(int64_t v)
{
    ir_operand o = {.kind = IR_OPND_IMM, .sym = IR_SYM_NONE};
    o.imm = (int64_t)(uint32_t)v;
    return o;
}

ir_operand sass_src_reg(uint32_t r)
{
    if (r == SASS_RZ)
        return sass_imm(0);
    return (ir_operand){.kind = IR_OPND_REG, .reg = r, .sym = IR_SYM_NONE};
}

ir_operand sass_dst_reg(sass_lowering *L, uint32_t r)
{
    if (r == SASS_RZ)
        r = sass_temp(L, IR_T_B32);
    return (ir_operand){.kind = IR_OPND_REG, .reg = r, .sym = IR_SYM_NONE};
}

ir_operand sass_pred(uint32_t p, bool neg)
{
    return (ir_operand){.kind = IR_OPND_PRED, .reg = p, .neg = neg, .sym = IR_SYM_NONE};
}

ir_operand sass_vec(sass_lowering *L, uint32_t r, unsigned count, bool is_dst)
{
    ir_operand o = {.kind = IR_OPND_VEC, .count = (uint8_t)count, .sym = IR_SYM_NONE};
    uint32_t zero = 0;
    if (r == SASS_RZ && !is_dst) {
        zero = sass_temp(L, IR_T_B32);
        ir_insn *mv = sass_emit(L, IR_MOV, true);
        if (!mv)
            return o;
        mv->type = IR_T_B32;
        mv->ndst = mv->nsrc = 1;
        mv->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = zero, .sym = IR_SYM_NONE};
        mv->src[0] = sass_imm(0);
    }
    for (unsigned e = 0; e < count; e++)
        o.vregs[e] = r != SASS_RZ ? r + e : is_dst ? sass_temp(L, IR_T_B32) : zero;
    return o;
}

/* A source operand of an ALU instruction: register, immediate, or c[b][o] through a glue
 * ld.const into a temporary. */
static ir_operand alu_src(sass_lowering *L, const sass_opnd *o)
{
    if (o->kind == SASS_O_IMM)
        return sass_imm(o->imm);
    if (o->kind != SASS_O_CBANK)
        return sass_src_reg(o->reg);
    uint32_t t = sass_temp(L, IR_T_B32);
    ir_insn *ld = sass_emit(L, IR_LD, true);
    ir_operand r = {.kind = IR_OPND_REG, .reg = t, .sym = IR_SYM_NONE};
    if (!ld)
        return r;
    ld->type = IR_T_B32;
    ld->ndst = ld->nsrc = 1;
    ld->dst[0] = r;
    ld->src[0] = (ir_operand){.kind = IR_OPND_ADDR, .bank = o->bank, .imm = o->imm,
                              .sym = IR_SYM_NONE};
    ld->mem.space = IR_SPACE_CONST;
    ld->mem.elem_bytes = 4;
    ld->mem.vec = 1;
    return r;
}

/* A glue instruction `op.b32 t, a {, b}` into a new temporary; returns the temporary. */
static ir_operand glue_op(sass_lowering *L, ir_opcode op, ir_type type, ir_operand a,
                          ir_operand b)
{
    ir_operand t = {.kind = IR_OPND_REG, .reg = sass_temp(L, IR_T_B32), .sym = IR_SYM_NONE};
    ir_insn *g = sass_emit(L, op, true);
    if (g) {
        g->type = (uint8_t)type;
        g->ndst = 1;
        g->nsrc = b.kind ? 2 : 1;
        g->dst[0] = t;
        g->src[0] = a;
        g->src[1] = b;
    }
    return t;
}

/* A glue instruction of two sources whose result nobody reads (it sets a flag): returns it, or
 * NULL when out of memory. */
static ir_insn *glue_op_insn(sass_lowering *L, ir_opcode op, ir_type type, const ir_operand src[2])
{
    ir_operand t = {.kind = IR_OPND_REG, .reg = sass_temp(L, IR_T_B32), .sym = IR_SYM_NONE};
    ir_insn *g = sass_emit(L, op, true);
    if (g) {
        g->type = (uint8_t)type;
        g->ndst = 1;
        g->nsrc = 2;
        g->dst[0] = t;
        g->src[0] = src[0];
        g->src[1] = src[1];
    }
    return g;
}

/* The main IR instruction of an ALU op: `op.type d, srcs...`. */
static ir_insn *alu(sass_lowering *L, ir_opcode op, ir_type type, ir_operand d,
                    const ir_operand *src, unsigned nsrc)
{
    ir_insn *in = sass_emit(L, op, false);
    if (!in)
        return NULL;
    in->type = (uint8_t)type;
    in->ndst = d.kind ? 1 : 0;
    in->dst[0] = d;
    in->nsrc = (uint8_t)nsrc;
    for (unsigned i = 0; i < nsrc; i++)
        in->src[i] = src[i];
    return in;
}

/* ---- ALU instructions ---- */
/* IADD with its carry flag as the hardware keeps it: a negated operand x is added as ~x + 1,
 * so the carry out is "no borrow" and IADD.X adds ~x plus the carry in (multi-word subtraction:
 * IADD.CC lo, alo, -blo; IADD.X hi, ahi, -bhi). Without .CC or .X a negation is plain
 * subtraction. With them the lowering is addc on the complement, the +1 coming from a carry
 * that a glue add sets (IADD.CC) or from the incoming carry (IADD.X). */
static bool lower_iadd(sass_lowering *L, const sass_insn *s)
{
    ir_operand a = alu_src(L, &s->o[1]), b = alu_src(L, &s->o[2]);
    bool na = s->o[1].neg, nb = s->o[2].neg;
    bool cc = s->has[SASS_G_CC], x = s->has[SASS_G_X];
    ir_opcode op = IR_ADD;
    bool carry_in = x;
    if (na && nb) /* -a - b: negate a first, then subtract b */
        a = glue_op(L, IR_SUB, IR_T_U32, sass_imm(0), a);
    if (na && !nb) { /* -a + b == b - a */
        ir_operand t = a;
        a = b;
        b = t;
    }
    if (na || nb) {
        if (!cc && !x) {
            op = IR_SUB;
        } else {
            b = glue_op(L, IR_NOT, IR_T_B32, b, (ir_operand){0});
            if (!x) { /* the +1 of ~b + 1 as a carry in: 0xffffffff + 1 carries */
                ir_operand one[2] = {sass_imm(0xffffffff), sass_imm(1)};
                ir_insn *g = glue_op_insn(L, IR_ADD, IR_T_U32, one);
                if (!g)
                    return false;
                g->mods |= IR_MOD_CC;
                g->flag_out = IR_FLAG_CARRY;
                carry_in = true;
            }
        }
    }
    ir_operand src[2] = {a, b};
    ir_insn *in = alu(L, op, IR_T_U32, sass_dst_reg(L, s->o[0].reg), src, 2);
    if (!in)
        return false;
    if (cc) {
        in->mods |= IR_MOD_CC;
        in->flag_out = IR_FLAG_CARRY;
    }
    if (carry_in) {
        in->mods |= IR_MOD_CARRY_IN;
        in->flag_in = IR_FLAG_CARRY;
    }
    return true;
}

static bool lower_lop(sass_lowering *L, const sass_insn *s)
{
    static const ir_opcode ops[] = {[SASS_LOP_AND] = IR_AND, [SASS_LOP_OR] = IR_OR,
                                    [SASS_LOP_XOR] = IR_XOR};
    ir_operand a = alu_src(L, &s->o[1]), b = alu_src(L, &s->o[2]);
    ir_operand d = sass_dst_reg(L, s->o[0].reg);
    uint32_t lop = s->val[SASS_G_LOPOP];
    if (lop == SASS_LOP_PASS_B)
        return alu(L, s->o[2].inv ? IR_NOT : IR_MOV, IR_T_B32, d, &b, 1) != NULL;
    if (s->o[2].inv)
        b = glue_op(L, IR_NOT, IR_T_B32, b, (ir_operand){0});
    ir_operand src[2] = {a, b};
    return alu(L, ops[lop], IR_T_B32, d, src, 2) != NULL;
}

static bool lower_setp(sass_lowering *L, const sass_insn *s)
{
    ir_operand a = alu_src(L, &s->o[2]), b = alu_src(L, &s->o[3]);
    ir_insn *in = sass_emit(L, IR_SETP, false);
    if (!in)
        return false;
    in->type = s->has[SASS_G_U32] ? IR_T_U32 : IR_T_S32;
    in->cmp = (uint8_t)s->val[SASS_G_CMP];
    in->boolop = (uint8_t)s->val[SASS_G_BOOL];
    in->dst[0] = s->o[0].reg == SASS_PT ? (ir_operand){.kind = IR_OPND_SINK, .sym = IR_SYM_NONE}
                                        : sass_pred(s->o[0].reg, false);
    in->ndst = 1;
    if (s->o[1].reg != SASS_PT) {
        in->dst[1] = sass_pred(s->o[1].reg, false);
        in->ndst = 2;
    }
    in->src[0] = a;
    in->src[1] = b;
    in->nsrc = 2;
    /* `.AND PT` changes neither result (t AND true, !t AND true): no combine operand then, which
     * spares the executor expanding PT to 32 lanes and combining it. */
    if (s->o[4].reg == SASS_PT && !s->o[4].not_ && s->val[SASS_G_BOOL] == IR_BOOL_AND) {
        in->boolop = IR_BOOL_NONE;
    } else {
        in->src[2] = sass_pred(s->o[4].reg, s->o[4].not_);
        in->nsrc = 3;
    }
    if (s->has[SASS_G_X])
        in->flag_in = IR_FLAG_CARRY; /* compares the high words: a - b - (1 - carry) */
    return true;
}

static uint32_t pred_dst(sass_lowering *L, uint32_t p)
{
    if (p != SASS_PT)
        return p;
    if (L->psink == UINT32_MAX)
        L->psink = sass_pred_temp(L);
    return L->psink;
}

/* PSETP.b1.b2 Pd, Pn, Pa, Pb, Pc: t = Pa b1 Pb; Pd = t b2 Pc; Pn = !t b2 Pc. */
static bool lower_psetp(sass_lowering *L, const sass_insn *s)
{
    static const ir_opcode ops[] = {[IR_BOOL_AND] = IR_AND, [IR_BOOL_OR] = IR_OR,
                                    [IR_BOOL_XOR] = IR_XOR};
    ir_opcode b1 = ops[s->val[SASS_G_BOOL]], b2 = ops[s->val[SASS_G_BOOL2]];
    uint32_t t = sass_pred_temp(L), n = UINT32_MAX;
    ir_operand pc = sass_pred(s->o[4].reg, s->o[4].not_);
    ir_operand src[2] = {sass_pred(s->o[2].reg, s->o[2].not_),
                         sass_pred(s->o[3].reg, s->o[3].not_)};
    ir_insn *in = sass_emit(L, b1, true);
    if (!in)
        return false;
    in->type = IR_T_PRED, in->ndst = 1, in->nsrc = 2;
    in->dst[0] = sass_pred(t, false), in->src[0] = src[0], in->src[1] = src[1];
    if (s->o[1].reg != SASS_PT) { /* Pn first, into a temporary: Pd may be one of the sources */
        n = sass_pred_temp(L);
        if (!(in = sass_emit(L, b2, true)))
            return false;
        in->type = IR_T_PRED, in->ndst = 1, in->nsrc = 2;
        in->dst[0] = sass_pred(n, false), in->src[0] = sass_pred(t, true), in->src[1] = pc;
    }
    if (!(in = sass_emit(L, b2, false)))
        return false;
    in->type = IR_T_PRED, in->ndst = 1, in->nsrc = 2;
    in->dst[0] = sass_pred(pred_dst(L, s->o[0].reg), false);
    in->src[0] = sass_pred(t, false), in->src[1] = pc;
    if (n == UINT32_MAX)
        return true;
    if (!(in = sass_emit(L, IR_MOV, true)))
        return false;
    in->type = IR_T_PRED, in->ndst = 1, in->nsrc = 1;
    in->dst[0] = sass_pred(s->o[1].reg, false), in->src[0] = sass_pred(n, false);
    return true;
}

static bool lower_alu(sass_lowering *L, const sass_insn *s)
{
    const sass_op_row *row = &sass_op_rows[s->op];
    ir_operand src[4];
    ir_opcode op = (ir_opcode)row->ir_op;
    ir_type type = IR_T_U32;
    unsigned n = 0;
    for (unsigned i = 1; i < s->nopnd && n < 4; i++)
        if (s->o[i].kind != SASS_O_PRED)
            src[n++] = alu_src(L, &s->o[i]);
    ir_operand d = sass_dst_reg(L, s->o[0].reg);
    uint32_t mods = 0;
    switch (s->op) {
    case SASS_OP_MOV: case SASS_OP_MOV32I: type = IR_T_B32; break;
    case SASS_OP_S2R:
        src[0] = (ir_operand){.kind = IR_OPND_SREG, .reg = s->o[1].reg, .sym = IR_SYM_NONE};
        break;
    case SASS_OP_ISCADD: /* (a << sh) + b = a * (1 << sh) + b */
        src[2] = src[1];
        src[1] = sass_imm((int64_t)1 << s->o[3].imm);
        n = 3;
        mods = IR_MOD_LO;
        break;
    case SASS_OP_SHL: type = IR_T_B32; break;
    case SASS_OP_SHR: type = s->has[SASS_G_U32] ? IR_T_U32 : IR_T_S32; break;
    case SASS_OP_LOP32I: {
        static const ir_opcode ops[] = {IR_AND, IR_OR, IR_XOR};
        op = ops[s->val[SASS_G_LOPOP]];
        type = IR_T_B32;
        break;
    }
    case SASS_OP_LOP3: type = IR_T_B32; break;
    case SASS_OP_XMAD:
        mods = (s->o[1].h1 ? IR_MOD_H1A : 0) | (s->o[2].h1 ? IR_MOD_H1B : 0) |
               (s->has[SASS_G_PSL] ? IR_MOD_PSL : 0) | (s->has[SASS_G_MRG] ? IR_MOD_MRG : 0) |
               (s->has[SASS_G_CBCC] ? IR_MOD_CBCC : 0);
        break;
    case SASS_OP_IMUL: case SASS_OP_IMAD: mods = IR_MOD_LO; break;
    case SASS_OP_IMNMX:
        op = s->o[3].not_ ? IR_MAX : IR_MIN;
        type = s->has[SASS_G_U32] ? IR_T_U32 : IR_T_S32;
        break;
    case SASS_OP_SEL:
        type = IR_T_B32;
        src[n++] = sass_pred(s->o[3].reg, s->o[3].not_);
        break;
    case SASS_OP_IADD32I: break;
    default: break;
    }
    ir_insn *in = alu(L, op, type, d, src, n);
    if (!in)
        return false;
    in->mods = mods;
    if (s->op == SASS_OP_IADD32I && s->has[SASS_G_CC])
        in->mods |= IR_MOD_CC, in->flag_out = IR_FLAG_CARRY;
    if (s->op == SASS_OP_IADD32I && s->has[SASS_G_X])
        in->mods |= IR_MOD_CARRY_IN, in->flag_in = IR_FLAG_CARRY;
    return true;
}

/* Control flow, the call-return stack, DEPBAR and NOP. */
static bool lower_flow(sass_lowering *L, const sass_insn *s)
{
    ir_insn *in = sass_emit(L, (ir_opcode)sass_op_rows[s->op].ir_op, false);
    if (!in)
        return false;
    switch (sass_op_rows[s->op].form) {
    case SASS_FORM_LABEL: /* the SASS target; sass_lower_kernel maps it to an IR index */
        in->nsrc = 1;
        in->src[0] = (ir_operand){.kind = IR_OPND_LABEL, .imm = s->o[0].imm, .sym = IR_SYM_NONE};
        if (s->has[SASS_G_BRAU])
            in->mods |= IR_MOD_UNI;
        break;
    case SASS_FORM_SRC1:
        in->nsrc = 1;
        in->src[0] = s->o[0].kind == SASS_O_IMM ? sass_imm(s->o[0].imm) : sass_src_reg(s->o[0].reg);
        break;
    case SASS_FORM_DST1:
        in->ndst = 1;
        in->dst[0] = sass_dst_reg(L, s->o[0].reg);
        break;
    default: break;
    }
    return true;
}

/* The ir_ctrl of the SASS instruction: its settled control fields and the registers it reads and
 * writes (register groups whole; RZ none; an address base only when it is one). */
static void fill_ctrl(sass_lowering *L, ir_ctrl *c, const sass_insn *s)
{
    const sass_form form = (sass_form)sass_op_rows[s->op].form;
    bool writes_first = form != SASS_FORM_STORE && form != SASS_FORM_RED &&
                        form != SASS_FORM_CCTL && form != SASS_FORM_SRC1 &&
                        form != SASS_FORM_BAR && form != SASS_FORM_DEPBAR &&
                        s->op != SASS_OP_SUST && s->op != SASS_OP_SURED;
    unsigned first_slot = sass_ps_shift(s); /* SUATOM's Rd follows its predicate Ps */
    c->present = 1;
    c->stall = s->ctrl.stall;
    c->yield = s->ctrl.yield;
    c->wr_sb = s->ctrl.wr;
    c->rd_sb = s->ctrl.rd;
    c->wait_mask |= s->ctrl.req;
    if (form == SASS_FORM_BAR && s->val[SASS_G_BAROP] == SASS_BAR_RED)
        writes_first = true;
    for (unsigned i = 0; i < s->nopnd; i++) {
        const sass_opnd *o = &s->o[i];
        uint32_t first = o->reg, span = sass_data_regs(s, i);
        uint32_t *set = c->reads;
        if (o->kind == SASS_O_REG) {
            if (i == first_slot && writes_first)
                set = c->writes;
        } else if (o->kind == SASS_O_MEM && form == SASS_FORM_SURFACE) {
            span = sass_addr_regs(s);
        } else if (o->kind == SASS_O_MEM || o->kind == SASS_O_CBANK) {
            if (!sass_has_base(&L->p->k, o))
                continue;
            span = sass_addr_regs(s);
        } else {
            continue;
        }
        for (uint32_t r = first; r < first + span && r < SASS_RZ; r++)
            set[r / 32] |= 1u << (r % 32);
    }
}

/* DEPBAR's waits go into its ctrl. */
static void depbar_ctrl(ir_ctrl *c, const sass_insn *s)
{
    if (s->op != SASS_OP_DEPBAR)
        return;
    if (s->has[SASS_G_DEPBAR] && s->val[SASS_G_DEPBAR] == SASS_DEPBAR_ALL)
        c->wait_mask |= (1u << IR_SCOREBOARDS) - 1;
    for (unsigned i = 0; i < s->nopnd; i++) {
        if (s->o[i].kind == SASS_O_SBSET)
            c->wait_mask |= s->o[i].sbmask;
        if (s->o[i].kind == SASS_O_SB) {
            c->depbar_sb = (uint8_t)s->o[i].reg;
            c->depbar_le = (uint8_t)s->o[i + 1].imm;
        }
    }
}

static bool lower_one(sass_lowering *L, const sass_insn *s)
{
    size_t before = L->insns.count;
    bool ok;
    switch (s->op) {
    case SASS_OP_IADD: ok = lower_iadd(L, s); break;
    case SASS_OP_LOP: ok = lower_lop(L, s); break;
    case SASS_OP_ISETP: ok = lower_setp(L, s); break;
    case SASS_OP_PSETP: ok = lower_psetp(L, s); break;
    default:
        switch (sass_op_rows[s->op].form) {
        case SASS_FORM_LOAD: case SASS_FORM_STORE: case SASS_FORM_LDC: case SASS_FORM_ATOM:
        case SASS_FORM_RED: case SASS_FORM_CCTL: case SASS_FORM_BAR: case SASS_FORM_SURFACE:
            ok = sass_lower_mem(L);
            break;
        case SASS_FORM_LABEL: case SASS_FORM_NONE: case SASS_FORM_SRC1: case SASS_FORM_DST1:
        case SASS_FORM_DEPBAR:
            ok = s->op == SASS_OP_MEMBAR ? sass_lower_mem(L) : lower_flow(L, s);
            break;
        default: ok = lower_alu(L, s); break;
        }
    }
    if (!ok || L->oom)
        return false;
    ir_insn *ins = L->insns.data;
    ir_ctrl *cs = L->ctrls.data;
    for (size_t i = before; i < L->insns.count; i++)
        if (!ins[i].glue) {
            fill_ctrl(L, &cs[i], s);
            depbar_ctrl(&cs[i], s);
        }
    return true;
}

/* ---- the function ---- */
/* The names and types of the registers and predicates, in the module's arena. */
static bool name_slots(sass_lowering *L, ir_func *fn)
{
    arena *a = &L->m->arena;
    fn->nregs = L->nregs + (uint32_t)L->temp_types.count;
    fn->npreds = SASS_IR_PREDS + L->npred_temps;
    fn->reg_types = arena_alloc(a, fn->nregs);
    fn->reg_names = arena_alloc(a, fn->nregs * sizeof *fn->reg_names);
    fn->pred_names = arena_alloc(a, fn->npreds * sizeof *fn->pred_names);
    if (!fn->reg_types || !fn->reg_names || !fn->pred_names)
        return false;
    char name[16];
    for (uint32_t r = 0; r < fn->nregs; r++) {
        bool temp = r >= L->nregs;
        fn->reg_types[r] = temp ? ((uint8_t *)L->temp_types.data)[r - L->nregs] : IR_T_B32;
        snprintf(name, sizeof name, temp ? "%%t%u" : "R%u", temp ? r - L->nregs : r);
        if (!(fn->reg_names[r] = arena_strndup(a, name, strlen(name))))
            return false;
    }
    for (uint32_t q = 0; q < fn->npreds; q++) {
        if (q == SASS_IR_PT)
            snprintf(name, sizeof name, "PT");
        else if (q < SASS_IR_PT)
            snprintf(name, sizeof name, "P%u", q);
        else
            snprintf(name, sizeof name, "%%p%u", q - SASS_IR_PREDS);
        if (!(fn->pred_names[q] = arena_strndup(a, name, strlen(name))))
            return false;
    }
    return true;
}

/* Parameters at natural alignment from offset 0 of the block the executor places at
 * c[0x0][0x140]. */
static bool lower_params(sass_lowering *L, ir_func *fn)
{
    const sass_kernel *k = &L->p->k;
    const sass_param *ps = k->params.data;
    if (!k->params.count)
        return true;
    fn->params = arena_alloc(&L->m->arena, k->params.count * sizeof *fn->params);
    if (!fn->params)
        return false;
    uint64_t off = 0;
    for (size_t i = 0; i < k->params.count; i++) {
        ir_param *q = &fn->params[i];
        unsigned bytes = ir_type_bits((ir_type)ps[i].type) / 8;
        off = (off + bytes - 1) / bytes * bytes;
        q->name = arena_strndup(&L->m->arena, ps[i].name, ps[i].len);
        if (!q->name)
            return false;
        q->type = ps[i].type;
        q->align = bytes;
        q->size_bytes = bytes;
        q->offset = off;
        q->line = ps[i].line;
        q->col = ps[i].col;
        off += bytes;
    }
    fn->nparams = (uint32_t)k->params.count;
    fn->params_bytes = off;
    return true;
}

/* .shared and .local: one function variable each, the whole allocation of its window. */
static bool lower_windows(sass_lowering *L, ir_func *fn)
{
    const sass_kernel *k = &L->p->k;
    uint32_t n = (k->shared_bytes > 0) + (k->local_bytes > 0);
    if (!n)
        return true;
    fn->vars = arena_alloc(&L->m->arena, n * sizeof *fn->vars);
    if (!fn->vars)
        return false;
    const struct { uint32_t bytes; uint8_t space; const char *name; } w[] = {
        {k->shared_bytes, IR_SPACE_SHARED, "__shared"}, {k->local_bytes, IR_SPACE_LOCAL, "__local"}};
    for (int i = 0; i < 2; i++) {
        if (!w[i].bytes)
            continue;
        ir_var *v = &fn->vars[fn->nvars++];
        v->name = w[i].name;
        v->space = w[i].space;
        v->type = IR_T_B8;
        v->align = 16;
        v->size_bytes = w[i].bytes;
        v->line = k->line;
        v->col = k->col;
    }
    return true;
}

/* PT is true: a glue setp at the entry, serving the first instruction. */
static void set_pt(sass_lowering *L)
{
    ir_insn *in = sass_emit(L, IR_SETP, true);
    if (!in)
        return;
    in->has_guard = 0;
    in->type = IR_T_U32;
    in->cmp = IR_CMP_EQ;
    in->ndst = 1;
    in->dst[0] = sass_pred(SASS_IR_PT, false);
    in->nsrc = 2;
    in->src[0] = sass_imm(0);
    in->src[1] = sass_imm(0);
}

static void *arena_copy(arena *a, const dynarray *v)
{
    void *copy = v->count ? arena_alloc(a, v->count * v->elem) : NULL;
    if (copy)
        memcpy(copy, v->data, v->count * v->elem);
    return copy;
}

static bool lower_body(sass_lowering *L, uint32_t *first_ir)
{
    const sass_kernel *k = &L->p->k;
    const sass_insn *ins = k->insns.data;
    for (size_t i = 0; i < k->insns.count && !L->oom; i++) {
        L->cur = &ins[i];
        L->cur_id = L->p->insn_ids + (uint32_t)i;
        first_ir[i] = i ? (uint32_t)L->insns.count : 0; /* the entry's setp belongs to 0 */
        if (i == 0)
            set_pt(L);
        if (!lower_one(L, &ins[i]))
            return false;
    }
    ir_insn *irs = L->insns.data;
    for (size_t i = 0; i < L->insns.count; i++)
        if (irs[i].src[0].kind == IR_OPND_LABEL)
            irs[i].src[0].imm = first_ir[irs[i].src[0].imm];
    return !L->oom;
}

bool sass_lower_kernel(sass_parser *p)
{
    sass_kernel *k = &p->k;
    sass_lowering L = {.p = p, .m = p->m, .nregs = k->max_reg, .psink = UINT32_MAX};
    dynarray_init(&L.insns, sizeof(ir_insn));
    dynarray_init(&L.ctrls, sizeof(ir_ctrl));
    dynarray_init(&L.temp_types, 1);
    uint32_t *first_ir = calloc(k->insns.count + 1, sizeof *first_ir);
    ir_func *fn = dynarray_push(&p->funcs);
    bool ok = first_ir && fn && lower_body(&L, first_ir);
    if (ok) {
        fn->name = arena_strndup(&p->m->arena, k->name, k->name_len);
        fn->is_entry = 1;
        fn->is_visible = 1;
        fn->line = k->line;
        fn->col = k->col;
        fn->insns = arena_copy(&p->m->arena, &L.insns);
        fn->ctrl = arena_copy(&p->m->arena, &L.ctrls);
        fn->ninsns = (uint32_t)L.insns.count;
        ok = fn->name && fn->insns && fn->ctrl && name_slots(&L, fn) && lower_params(&L, fn) &&
             lower_windows(&L, fn);
        p->insn_ids += (uint32_t)k->insns.count;
        if (fn->nregs > p->max_nregs)
            p->max_nregs = fn->nregs;
    }
    if (!ok)
        fe_cursor_oom(&p->cur, "SASS-LIMIT-001");
    free(first_ir);
    dynarray_free(&L.insns);
    dynarray_free(&L.ctrls);
    dynarray_free(&L.temp_types);
    return ok;
}

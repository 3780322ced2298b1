/* Lowering of the ALU and control rows of visa_ops.def (docs/visa.md, "Instructions"). vISA
 * computes in the destination's type: each source is converted to it first (implicit
 * conversion), so `add (M1,32) Vq Vq Vd` sign-extends Vd; cmp computes in its first register
 * source's type. Three-source forms that the IR lacks are split into two IR instructions (the
 * first one glue): add3 into two adds. */
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower.h"
#include "visa/visa_lower_internal.h"

static bool is_float(uint8_t t)
{
    return t == IR_T_F16 || t == IR_T_BF16 || t == IR_T_F32 || t == IR_T_F64;
}
static bool is_signed(uint8_t t) { return t >= IR_T_S8 && t <= IR_T_S64; }
static unsigned ir_bytes(uint8_t t)
{
    switch (t) {
    case IR_T_U8: case IR_T_S8: case IR_T_B8: return 1;
    case IR_T_U16: case IR_T_S16: case IR_T_B16: case IR_T_F16: case IR_T_BF16: return 2;
    case IR_T_U64: case IR_T_S64: case IR_T_B64: case IR_T_F64: return 8;
    default: return 4;
    }
}
static uint8_t bits_of(uint8_t t)
{
    unsigned b = ir_bytes(t);
    return b == 1 ? IR_T_B8 : b == 2 ? IR_T_B16 : b == 4 ? IR_T_B32 : IR_T_B64;
}
static uint8_t unsigned_of(uint8_t t)
{
    unsigned b = ir_bytes(t);
    return b == 1 ? IR_T_U8 : b == 2 ? IR_T_U16 : b == 4 ? IR_T_U32 : IR_T_U64;
}
static uint8_t signed_of(uint8_t t)
{
    unsigned b = ir_bytes(t);
    return b == 1 ? IR_T_S8 : b == 2 ? IR_T_S16 : b == 4 ? IR_T_S32 : IR_T_S64;
}

static ir_operand reg_opnd(uint32_t r) { return (ir_operand){.kind = IR_OPND_REG, .reg = r}; }

bool visa_glue_shift(visa_parser *p, const visa_insn_head *h, ir_operand *o, uint8_t slot_bits,
                     uint8_t shift)
{
    uint8_t t = slot_bits == 64 ? IR_T_U64 : IR_T_U32;
    uint32_t tmp = visa_new_reg(p, t);
    ir_insn *in = visa_glue(p, h, IR_SHR, false);
    if (!in)
        return false;
    in->type = t;
    in->ndst = 1, in->nsrc = 2;
    in->dst[0] = reg_opnd(tmp);
    in->src[0] = *o;
    in->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = shift};
    *o = reg_opnd(tmp);
    return true;
}

static bool unary_glue(visa_parser *p, const visa_insn_head *h, uint16_t op, uint8_t t,
                       ir_operand *o)
{
    uint32_t tmp = visa_new_reg(p, t);
    ir_insn *in = visa_glue(p, h, op, false);
    if (!in)
        return false;
    in->type = t;
    in->ndst = in->nsrc = 1;
    in->dst[0] = reg_opnd(tmp);
    in->src[0] = *o;
    *o = reg_opnd(tmp);
    return true;
}

bool visa_source_modifier(visa_parser *p, const visa_insn_head *h, ir_operand *o, uint8_t have,
                          bool neg, bool abs)
{
    if (abs && !unary_glue(p, h, IR_ABS, have, o))
        return false;
    return !neg || unary_glue(p, h, IR_NEG, have, o);
}

bool visa_convert(visa_parser *p, const visa_insn_head *h, ir_operand *o, uint8_t have,
                  uint8_t want)
{
    if (have == want || (!is_float(have) && !is_float(want) && ir_bytes(have) == ir_bytes(want)))
        return true;
    if (o->kind == IR_OPND_IMM && !is_float(have) && !is_float(want)) {
        /* an integer immediate: extend by its own signedness, then keep the low bits */
        uint64_t v = (uint64_t)o->imm;
        unsigned bits = ir_bytes(have) * 8;
        if (bits < 64 && is_signed(have) && (v >> (bits - 1) & 1))
            v |= ~UINT64_C(0) << bits;
        unsigned wb = ir_bytes(want) * 8;
        o->imm = (int64_t)(wb == 64 ? v : v & ((UINT64_C(1) << wb) - 1));
        return true;
    }
    uint32_t tmp = visa_new_reg(p, want);
    ir_insn *in = visa_glue(p, h, IR_CVT, false);
    if (!in)
        return false;
    in->type = want;
    in->type2 = have;
    if (is_float(want) && (!is_float(have) || ir_bytes(want) < ir_bytes(have)))
        in->rnd = IR_RND_RN;
    else if (!is_float(want) && is_float(have))
        in->rnd = IR_RND_RZI; /* vISA converts floats to integers toward zero */
    in->ndst = in->nsrc = 1;
    in->dst[0] = reg_opnd(tmp);
    in->src[0] = *o;
    *o = reg_opnd(tmp);
    return true;
}

bool visa_glue_insert(visa_parser *p, const visa_insn_head *h, uint32_t reg, uint32_t tmp,
                      const visa_place *pl)
{
    ir_insn *in = visa_glue(p, h, IR_BFI, true);
    if (!in)
        return false;
    in->type = pl->slot_bits == 64 ? IR_T_B64 : IR_T_B32;
    in->ndst = 1, in->nsrc = 4;
    in->dst[0] = reg_opnd(reg);
    in->src[0] = reg_opnd(tmp);
    in->src[1] = reg_opnd(reg);
    in->src[2] = (ir_operand){.kind = IR_OPND_IMM, .imm = pl->shift};
    in->src[3] = (ir_operand){.kind = IR_OPND_IMM, .imm = pl->bits};
    uint32_t *post = dynarray_push(&p->post_glue);
    if (!post) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return false;
    }
    *post = (uint32_t)p->insns.count - 1;
    return true;
}

/* The destination of a value instruction: a register, or a temporary followed by a bit-field
 * insert when the element is narrower than its slot. *fix is 1 when the insert must follow. */
static bool dst_begin(visa_parser *p, const visa_insn_head *h, const visa_operand *o, uint8_t t,
                      ir_operand *out, visa_place *pl, bool *fix)
{
    if (!visa_lower_dst_place(p, h, o, pl))
        return false;
    *fix = pl->bits != pl->slot_bits;
    *out = reg_opnd(*fix ? visa_new_reg(p, t) : pl->reg);
    return !p->cur.oom;
}

static const struct { const char *mod; uint8_t cmp; } cmps[] = {
    {".eq", IR_CMP_EQ}, {".ne", IR_CMP_NE}, {".lt", IR_CMP_LT},
    {".le", IR_CMP_LE}, {".gt", IR_CMP_GT}, {".ge", IR_CMP_GE}};

static bool lower_cmp(visa_parser *p, const visa_insn_head *h, visa_operand *ops)
{
    uint8_t cmp = 0;
    for (size_t i = 0; h->nmods == 1 && i < sizeof cmps / sizeof cmps[0]; i++)
        if (fe_token_is(h->mods[0], FE_TOK_DOTNAME, cmps[i].mod))
            cmp = cmps[i].cmp;
    if (!cmp) {
        visa_error(p, h->line, h->col, "VISA-SEM-001",
                   "cmp needs one relation: .eq, .ne, .lt, .le, .gt or .ge");
        return false;
    }
    if (ops[0].kind != VISA_O_PRED && ops[0].kind != VISA_O_REG) {
        visa_error(p, ops[0].line, ops[0].col_pos, "VISA-SEM-007",
                   "cmp writes a P variable or a general register");
        return false;
    }
    uint8_t t = visa_types[(ops[1].kind == VISA_O_REG ? ops[1] : ops[2]).type].ir_type;
    if (is_float(t) && cmp == IR_CMP_NE)
        cmp = IR_CMP_NEU; /* a NaN compares not-equal */
    ir_operand a, b;
    if (!visa_lower_src(p, h, &ops[1], t, &a) || !visa_lower_src(p, h, &ops[2], t, &b))
        return false;
    if (ops[0].kind == VISA_O_REG) {
        /* A general destination gets all ones where the relation holds and 0 elsewhere. */
        uint8_t dt = visa_types[ops[0].type].ir_type;
        ir_operand d;
        visa_place pl;
        bool fix;
        if (!dst_begin(p, h, &ops[0], dt, &d, &pl, &fix))
            return false;
        ir_insn *set = visa_emit(p, IR_SET, h);
        if (!set)
            return false;
        set->type = is_float(dt) ? unsigned_of(dt) : dt;
        set->type2 = t;
        set->cmp = cmp;
        set->ndst = 1, set->nsrc = 2;
        set->dst[0] = d;
        set->src[0] = a;
        set->src[1] = b;
        return !fix || visa_glue_insert(p, h, pl.reg, d.reg, &pl);
    }
    ir_insn *in = visa_emit(p, IR_SETP, h);
    if (!in)
        return false;
    in->type = t;
    in->cmp = cmp;
    in->ndst = 1, in->nsrc = 2;
    in->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = visa_pred_reg(p, ops[0].var)};
    in->src[0] = a;
    in->src[1] = b;
    return true;
}

/* and/or/xor/not on P variables: lane-wise logic on the IR predicates. */
static bool lower_pred_logic(visa_parser *p, const visa_insn_head *h, int op, visa_operand *ops,
                             int n)
{
    ir_insn *in = visa_emit(p, visa_op_rows[op].ir_op, h);
    if (!in)
        return false;
    in->type = IR_T_PRED;
    in->ndst = 1;
    in->nsrc = (uint8_t)(n - 1);
    in->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = visa_pred_reg(p, ops[0].var)};
    for (int i = 1; i < n; i++) {
        if (ops[i].kind != VISA_O_PRED) {
            visa_error(p, ops[i].line, ops[i].col_pos, "VISA-SEM-007",
                       "logic on a P variable takes P variables as sources");
            return false;
        }
        /* the P variable may have been written by a cmp already: its register is per-lane */
        ir_insn *cur = &((ir_insn *)p->insns.data)[p->insns.count - 1];
        cur->src[i - 1] = (ir_operand){.kind = IR_OPND_PRED, .reg = visa_pred_reg(p, ops[i].var),
                                       .neg = ops[i].neg};
    }
    return true;
}

static bool lower_branch(visa_parser *p, const visa_insn_head *h, const visa_operand *l)
{
    ir_insn *in = visa_emit(p, IR_BRA, h);
    if (!in)
        return false;
    in->nsrc = 1;
    in->src[0] = (ir_operand){.kind = IR_OPND_LABEL};
    if (fe_labels_add_ref(&p->labels, l->label, (uint32_t)p->insns.count - 1, 0) != 0) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return false;
    }
    return true;
}

static bool lower_control(visa_parser *p, const visa_insn_head *h, int op, visa_operand *ops)
{
    if (op == VISA_OP_GOTO || op == VISA_OP_JMP)
        return lower_branch(p, h, &ops[0]);
    ir_insn *in = visa_emit(p, op == VISA_OP_RET ? IR_EXIT : IR_BAR, h);
    if (!in)
        return false;
    if (op == VISA_OP_BARRIER) {
        in->sub = IR_BAR_SYNC;
        in->nsrc = 1;
        in->src[0] = (ir_operand){.kind = IR_OPND_IMM, .imm = 0};
    }
    return true;
}

/* The IR type an operation computes in, from the destination's type. */
static uint8_t op_type(int op, uint8_t t)
{
    switch (op) {
    case VISA_OP_AND: case VISA_OP_OR: case VISA_OP_XOR: case VISA_OP_NOT: case VISA_OP_BFN:
        return bits_of(t);
    case VISA_OP_SHR: return unsigned_of(t);
    case VISA_OP_ASR: return signed_of(t);
    default: return t;
    }
}

/* The value instructions: d = op(sources) in the destination's type. */
static bool lower_value(visa_parser *p, const visa_insn_head *h, int op, visa_operand *ops,
                        int n)
{
    const visa_op_row *row = &visa_op_rows[op];
    uint8_t dt = visa_types[ops[0].type].ir_type;
    uint8_t t = op_type(op, dt);
    bool logic = op == VISA_OP_AND || op == VISA_OP_OR || op == VISA_OP_XOR ||
                 op == VISA_OP_NOT || op == VISA_OP_BFN || op == VISA_OP_SHL ||
                 op == VISA_OP_SHR || op == VISA_OP_ASR;
    for (int i = 0; logic && i < n; i++)
        if (is_float(visa_types[ops[i].type].ir_type)) {
            visa_error(p, ops[i].line, ops[i].col_pos, "VISA-SEM-001",
                       "operands of logic and shift instructions must be integers (operand %d is "
                       "%s)", i, visa_types[ops[i].type].name);
            return false;
        }
    if (h->sat && !is_float(dt)) {
        visa_error(p, h->line, h->col, "VISA-UNSUP-006", ".sat on an integer type is not executed");
        return false;
    }
    if (op == VISA_OP_SEL && !h->pred.present) {
        visa_error(p, h->line, h->col, "VISA-SEM-001", "sel needs a predicate");
        return false;
    }
    ir_operand src[3];
    for (int i = 1; i < n; i++)
        if (!visa_lower_src(p, h, &ops[i], op == VISA_OP_SEL ? dt : t, &src[i - 1]))
            return false;
    if (op == VISA_OP_ADD3) { /* s0 + s1 into a temporary, then + s2 */
        if (!unary_glue(p, h, IR_MOV, t, &src[0]))
            return false;
        ir_insn *g = visa_glue(p, h, IR_ADD, false);
        if (!g)
            return false;
        g->type = t;
        g->ndst = 1, g->nsrc = 2;
        g->dst[0] = src[0];
        g->src[0] = src[0];
        g->src[1] = src[1];
        src[1] = src[2];
        n = 3;
    }
    ir_operand d;
    visa_place pl;
    bool fix = false;
    uint32_t hold = 0, c0 = 0;
    bool cross = visa_crosslane_dst(p, h, &ops[0], &hold, &c0) && ir_bytes(t) == 4;
    if (cross)
        d = reg_opnd(visa_new_reg(p, t));
    else if (!dst_begin(p, h, &ops[0], t, &d, &pl, &fix))
        return false;
    uint16_t irop = row->ir_op;
    if (op == VISA_OP_MAD && is_float(t))
        irop = IR_FMA;
    ir_insn *in = op == VISA_OP_SEL ? visa_emit_unpredicated(p, irop, h) : visa_emit(p, irop, h);
    if (!in)
        return false;
    in->type = t;
    in->ndst = 1;
    in->dst[0] = d;
    in->nsrc = (uint8_t)(n - 1);
    for (int i = 0; i < n - 1; i++)
        in->src[i] = src[i];
    if (h->sat)
        in->mods |= IR_MOD_SAT;
    if ((op == VISA_OP_MUL || op == VISA_OP_MAD) && !is_float(t))
        in->mods |= IR_MOD_LO;
    if (op == VISA_OP_MULH)
        in->mods |= IR_MOD_HI;
    if (irop == IR_FMA)
        in->rnd = IR_RND_RN;
    if (op == VISA_OP_SEL) {
        in->nsrc = 3;
        in->src[2] = (ir_operand){.kind = IR_OPND_PRED, .reg = visa_pred_reg(p, h->pred.var),
                                  .neg = h->pred.neg};
    }
    if (op == VISA_OP_BFN) {
        /* bfn.xLUT indexes its table with s0 = 0xAA, s1 = 0xCC, s2 = 0xF0; the IR's lop3 with
         * a = 0xF0, b = 0xCC, c = 0xAA: the sources go in reverse order. */
        const fe_token *m = h->nmods == 1 ? h->mods[0] : NULL;
        unsigned lut = 0;
        if (!m || m->len != 4 || m->text[1] != 'x') {
            visa_error(p, h->line, h->col, "VISA-SEM-001", "bfn needs its table as .xNN");
            return false;
        }
        for (int i = 2; i < 4; i++) {
            char c = m->text[i];
            lut = lut * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        in = &((ir_insn *)p->insns.data)[p->insns.count - 1];
        ir_operand s0 = in->src[0];
        in->src[0] = in->src[2];
        in->src[2] = s0;
        in->nsrc = 4;
        in->src[3] = (ir_operand){.kind = IR_OPND_IMM, .imm = lut};
    }
    if (cross)
        return visa_crosslane_scatter(p, h, &ops[0], hold, c0, d.reg);
    return !fix || visa_glue_insert(p, h, pl.reg, d.reg, &pl);
}

static bool mark_post_glue(visa_parser *p)
{
    uint32_t *post = dynarray_push(&p->post_glue);
    if (!post) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return false;
    }
    *post = (uint32_t)p->insns.count - 1;
    return true;
}

/* Element index of a destination region's first element. */
static uint32_t first_elem(const visa_parser *p, const visa_operand *o)
{
    return o->row * p->grf_bytes / visa_types[o->type].bytes + o->col;
}

/* addc (exec) dst carry s0 s1: dst = low 32 bits of s0 + s1, carry = its carry out (0 or 1).
 * The IR's add with the carry flag, then an add of the flag into the carry register (glue). */
static bool lower_addc(visa_parser *p, const visa_insn_head *h, visa_operand *ops)
{
    for (int i = 0; i < 4; i++)
        if (ops[i].kind == VISA_O_REG && ops[i].type != VISA_T_UD) {
            visa_error(p, ops[i].line, ops[i].col_pos, "VISA-SEM-001",
                       "addc takes ud operands only");
            return false;
        }
    ir_operand a, b, d, carry;
    if (!visa_lower_src(p, h, &ops[2], IR_T_U32, &a) || !visa_lower_src(p, h, &ops[3], IR_T_U32, &b) ||
        !visa_lower_dst(p, h, &ops[0], &d) || !visa_lower_dst(p, h, &ops[1], &carry))
        return false;
    ir_insn *in = visa_emit(p, IR_ADD, h);
    if (!in)
        return false;
    in->type = IR_T_U32;
    in->mods = IR_MOD_CC;
    in->flag_out = IR_FLAG_CARRY;
    in->ndst = 1, in->nsrc = 2;
    in->dst[0] = d;
    in->src[0] = a;
    in->src[1] = b;
    ir_insn *c = visa_glue(p, h, IR_ADD, true);
    if (!c)
        return false;
    c->type = IR_T_U32;
    c->mods = IR_MOD_CARRY_IN;
    c->flag_in = IR_FLAG_CARRY;
    c->ndst = 1, c->nsrc = 2;
    c->dst[0] = carry;
    c->src[0] = (ir_operand){.kind = IR_OPND_IMM, .imm = 0};
    c->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = 0};
    return mark_post_glue(p);
}

/* madw (exec) dst s0 s1 s2: the 64-bit s0 * s1 + s2; its low dwords go to the destination's
 * first exec-size elements, its high dwords to the elements from the next GRF boundary on. */
static bool lower_madw(visa_parser *p, const visa_insn_head *h, visa_operand *ops)
{
    uint8_t dt = ops[0].type;
    if (dt != VISA_T_UD && dt != VISA_T_D) {
        visa_error(p, ops[0].line, ops[0].col_pos, "VISA-SEM-001", "madw writes d or ud");
        return false;
    }
    uint8_t t = dt == VISA_T_UD ? IR_T_U32 : IR_T_S32, wide = dt == VISA_T_UD ? IR_T_U64 : IR_T_S64;
    ir_operand a, b, c, lo, hi;
    if (!visa_lower_src(p, h, &ops[1], t, &a) || !visa_lower_src(p, h, &ops[2], t, &b) ||
        !visa_lower_src(p, h, &ops[3], t, &c) || !visa_convert(p, h, &c, t, wide))
        return false;
    uint32_t e0 = first_elem(p, &ops[0]);
    uint32_t row_elems = p->grf_bytes / 4;
    uint32_t hi_elem = e0 + (h->exec.size + row_elems - 1) / row_elems * row_elems;
    if (!visa_lane_reg(p, ops[0].var, e0, &h->exec, ops[0].line, ops[0].col_pos, &lo) ||
        !visa_lane_reg(p, ops[0].var, hi_elem, &h->exec, ops[0].line, ops[0].col_pos, &hi))
        return false;
    uint32_t prod = visa_new_reg(p, wide);
    ir_insn *m = visa_glue(p, h, IR_MUL, false);
    if (!m)
        return false;
    m->type = t;
    m->mods = IR_MOD_WIDE;
    m->ndst = 1, m->nsrc = 2;
    m->dst[0] = reg_opnd(prod);
    m->src[0] = a;
    m->src[1] = b;
    ir_insn *ad = visa_glue(p, h, IR_ADD, false);
    if (!ad)
        return false;
    ad->type = wide;
    ad->ndst = 1, ad->nsrc = 2;
    ad->dst[0] = reg_opnd(prod);
    ad->src[0] = reg_opnd(prod);
    ad->src[1] = c;
    ir_insn *in = visa_emit(p, IR_CVT, h);
    if (!in)
        return false;
    in->type = IR_T_U32;
    in->type2 = IR_T_U64;
    in->ndst = in->nsrc = 1;
    in->dst[0] = lo;
    in->src[0] = reg_opnd(prod);
    ir_insn *sh = visa_glue(p, h, IR_SHR, true);
    if (!sh || !mark_post_glue(p))
        return false;
    sh->type = IR_T_U64;
    sh->ndst = 1, sh->nsrc = 2;
    sh->dst[0] = reg_opnd(prod);
    sh->src[0] = reg_opnd(prod);
    sh->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = 32};
    ir_insn *mh = visa_glue(p, h, IR_CVT, true);
    if (!mh)
        return false;
    mh->type = IR_T_U32;
    mh->type2 = IR_T_U64;
    mh->ndst = mh->nsrc = 1;
    mh->dst[0] = hi;
    mh->src[0] = reg_opnd(prod);
    return mark_post_glue(p);
}

/* Whether `o` is a register whose storage owner is lowered as uniform slots (mode 1). */
static bool uniform_root(const visa_parser *p, const visa_operand *o)
{
    return o->kind == VISA_O_REG && visa_var_at(p, visa_var_at(p, o->var)->root)->mode == 1;
}

/* Whether a no-mask instruction of several lanes works only on uniform data: its destination's
 * root is uniform (or not yet accessed) and every register source's root is uniform, with at
 * least one register source (docs/visa.md, "Execution model": uniform no-mask moves). */
static bool uniform_nomask(const visa_parser *p, const visa_insn_head *h, const visa_operand *ops,
                           int n)
{
    if (!h->exec.nomask || h->exec.size < 2 || h->pred.present || n < 2 ||
        ops[0].kind != VISA_O_REG)
        return false;
    uint8_t dmode = visa_var_at(p, visa_var_at(p, ops[0].var)->root)->mode;
    if (dmode == 2)
        return false;
    bool any = false;
    for (int i = 1; i < n; i++) {
        if (ops[i].kind == VISA_O_REG && !uniform_root(p, &ops[i]))
            return false;
        any |= ops[i].kind == VISA_O_REG;
    }
    return any || dmode == 1;
}

/* Operand `o` narrowed to the one element lane `lane` of its region touches. */
static visa_operand lane_element(const visa_parser *p, const visa_operand *o, uint32_t lane)
{
    visa_operand e = *o;
    if (o->kind != VISA_O_REG)
        return e;
    unsigned size = visa_types[o->type].bytes;
    uint32_t per_row = p->grf_bytes / size;
    uint32_t elem = o->row * per_row + o->col;
    if (o->is_dst)
        elem += lane * o->hstride;
    else
        elem += (o->width ? lane / o->width : 0) * o->vstride +
                (o->width ? lane % o->width : 0) * o->hstride;
    e.row = elem / per_row;
    e.col = elem % per_row;
    e.vstride = 0;
    e.width = 1;
    e.hstride = o->is_dst ? 1 : 0;
    return e;
}

/* A no-mask instruction of n lanes on uniform data, carried out as n one-element instructions:
 * element k of the destination region gets the result from element k of each source region. */
static bool lower_uniform_lanes(visa_parser *p, const visa_insn_head *h, int op,
                                const visa_operand *ops, int n)
{
    visa_insn_head one = *h;
    one.exec.size = 1;
    one.exec.lane_offset = 0;
    for (uint32_t lane = 0; lane < h->exec.size; lane++) {
        visa_operand e[8];
        for (int i = 0; i < n && i < 8; i++)
            e[i] = lane_element(p, &ops[i], lane);
        if (!visa_lower_insn(p, &one, op, e, n))
            return false;
    }
    return true;
}

bool visa_lower_insn(visa_parser *p, const visa_insn_head *h, int op, visa_operand *ops, int n)
{
    if (n <= 8 && op != VISA_OP_CMP && uniform_nomask(p, h, ops, n))
        return lower_uniform_lanes(p, h, op, ops, n);
    if (op == VISA_OP_ADDC && n == 4)
        return lower_addc(p, h, ops);
    if (op == VISA_OP_MADW && n == 4)
        return lower_madw(p, h, ops);
    switch (op) {
    case VISA_OP_GOTO: case VISA_OP_JMP: case VISA_OP_RET: case VISA_OP_BARRIER:
        return lower_control(p, h, op, ops);
    case VISA_OP_CMP: return lower_cmp(p, h, ops);
    default: break;
    }
    if (h->nmods && op != VISA_OP_BFN) {
        visa_error(p, h->mods[0]->line, h->mods[0]->col, "VISA-SEM-001",
                   "'%.*s' takes no modifier '%.*s'", (int)h->mnemonic->len, h->mnemonic->text,
                   (int)h->mods[0]->len, h->mods[0]->text);
        return false;
    }
    if (n >= 2 && ops[0].kind == VISA_O_PRED &&
        (op == VISA_OP_AND || op == VISA_OP_OR || op == VISA_OP_XOR || op == VISA_OP_NOT))
        return lower_pred_logic(p, h, op, ops, n);
    if (n < 2 || ops[0].kind != VISA_O_REG) {
        visa_error(p, h->line, h->col, "VISA-SEM-001", "'%.*s' needs a register destination",
                   (int)h->mnemonic->len, h->mnemonic->text);
        return false;
    }
    return lower_value(p, h, op, ops, n);
}

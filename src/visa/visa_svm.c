/* svm_atomic: the shared-virtual-memory atomic message IGC still emits for some OpenCL atomics
 * on Xe (an aggregated atomic_max or atomic_inc on one address: docs/visa.md, "Instructions").
 *   svm_atomic.OP (exec) ADDR DST SRC0 SRC1
 * Each operand is a raw operand `V.k` (byte k of V, one element per lane from there) or
 * `%null.0`. ADDR holds 64-bit virtual addresses; DST receives the old value (or %null); SRC0
 * is the operand of two-operand ops, SRC1 the swap value of cmpxchg. Lowered to the IR's atom
 * (red when DST is %null) on global memory. */
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower.h"
#include "visa/visa_lower_internal.h"

static const struct {
    const char *name;
    uint8_t sub;
    int8_t sign;   /* 1 signed, 0 unsigned */
    int8_t srcs;   /* sources the op reads */
    int8_t inc;    /* +1 / -1 for inc / dec (an add of that) */
} svm_ops[] = {
    {".add", IR_ATOM_ADD, 0, 1, 0},     {".sub", 0, 0, 1, 0},
    {".inc", IR_ATOM_ADD, 0, 0, 1},     {".dec", IR_ATOM_ADD, 0, 0, -1},
    {".min", IR_ATOM_MIN, 0, 1, 0},     {".max", IR_ATOM_MAX, 0, 1, 0},
    {".minsint", IR_ATOM_MIN, 1, 1, 0}, {".maxsint", IR_ATOM_MAX, 1, 1, 0},
    {".xchg", IR_ATOM_EXCH, 0, 1, 0},   {".cmpxchg", IR_ATOM_CAS, 0, 2, 0},
    {".and", IR_ATOM_AND, 0, 1, 0},     {".or", IR_ATOM_OR, 0, 1, 0},
    {".xor", IR_ATOM_XOR, 0, 1, 0},
};

/* A raw operand `V.k`; *null is set for %null. */
static bool raw_operand(visa_parser *p, visa_operand *o, bool *null)
{
    memset(o, 0, sizeof *o);
    const fe_token *t = fe_cursor_peek(&p->cur, 0);
    int32_t v = visa_parse_var_name(p);
    if (v < 0)
        return false;
    const fe_token *k = fe_cursor_peek(&p->cur, 0);
    uint32_t elem = 0;
    if (k->kind == FE_TOK_DOTNAME && k->line == t->line) {
        for (uint32_t i = 1; i < k->len; i++) {
            if (k->text[i] < '0' || k->text[i] > '9' || elem > 4096) {
                visa_expected(p, "a raw operand's element offset .N");
                return false;
            }
            elem = elem * 10 + (uint32_t)(k->text[i] - '0');
        }
        fe_cursor_next(&p->cur);
    }
    const visa_var *var = visa_var_at(p, v);
    *null = var->predef == VISA_PRE_NULL;
    /* the offset of a raw operand is in bytes (GenX_IR wants it GRF-aligned) */
    if (elem % visa_types[var->type].bytes) {
        visa_error(p, k->line, k->col, "VISA-SEM-003",
                   "raw operand offset %u is not a whole %s element", elem,
                   visa_types[var->type].name);
        return false;
    }
    elem /= visa_types[var->type].bytes;
    o->kind = VISA_O_REG;
    o->var = v;
    o->type = var->type;
    o->col = elem;
    o->vstride = 1, o->width = 1, o->hstride = 0;
    o->line = t->line;
    o->col_pos = t->col;
    return true;
}

bool visa_elect_lane(visa_parser *p, const visa_insn_head *h, uint32_t *pred)
{
    if (h->pred.present) {
        visa_error(p, h->pred.line, h->pred.col, "VISA-UNSUP-006",
                   "a predicated svm_atomic of execution size 1 is not executed");
        return false;
    }
    uint32_t mask = visa_new_reg(p, IR_T_B32), low = visa_new_reg(p, IR_T_B32);
    uint32_t below = visa_new_reg(p, IR_T_B32);
    ir_insn *m = visa_glue(p, h, IR_MOV, false);
    if (!m)
        return false;
    m->type = IR_T_B32;
    m->ndst = m->nsrc = 1;
    m->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = below};
    m->src[0] = (ir_operand){.kind = IR_OPND_SREG, .reg = IR_SREG_LANEMASK_LT};
    ir_insn *a = visa_glue(p, h, IR_ACTIVEMASK, false);
    if (!a)
        return false;
    a->type = IR_T_B32;
    a->ndst = 1;
    a->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = mask};
    ir_insn *n = visa_glue(p, h, IR_AND, false);
    if (!n)
        return false;
    n->type = IR_T_B32;
    n->ndst = 1, n->nsrc = 2;
    n->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = low};
    n->src[0] = (ir_operand){.kind = IR_OPND_REG, .reg = mask};
    n->src[1] = (ir_operand){.kind = IR_OPND_REG, .reg = below};
    *pred = p->npreds++;
    ir_insn *s = visa_glue(p, h, IR_SETP, false);
    if (!s)
        return false;
    s->type = IR_T_U32;
    s->cmp = IR_CMP_EQ;
    s->ndst = 1, s->nsrc = 2;
    s->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = *pred};
    s->src[0] = (ir_operand){.kind = IR_OPND_REG, .reg = low};
    s->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = 0};
    return true;
}

bool visa_lower_svm_atomic(visa_parser *p, const visa_insn_head *h)
{
    int which = -1;
    for (size_t i = 0; h->nmods == 1 && i < sizeof svm_ops / sizeof svm_ops[0]; i++)
        if (fe_token_is(h->mods[0], FE_TOK_DOTNAME, svm_ops[i].name))
            which = (int)i;
    if (which < 0 || svm_ops[which].sub == 0) {
        visa_error(p, h->line, h->col, "VISA-UNSUP-003", "svm_atomic%.*s is not executed",
                   h->nmods ? (int)h->mods[0]->len : 0, h->nmods ? h->mods[0]->text : "");
        return false;
    }
    visa_operand ops[4];
    bool null[4];
    for (int i = 0; i < 4; i++)
        if (!raw_operand(p, &ops[i], &null[i]))
            return false;
    if (null[0] || (svm_ops[which].srcs >= 1 && null[2]) || (svm_ops[which].srcs == 2 && null[3])) {
        visa_error(p, h->line, h->col, "VISA-SEM-001",
                   "svm_atomic needs an address and the sources of its operation");
        return false;
    }
    const visa_operand *typed = !null[1] ? &ops[1] : &ops[2];
    unsigned bytes = null[1] && svm_ops[which].srcs == 0 ? 4 : visa_types[typed->type].bytes;
    if (bytes != 4 && bytes != 8) {
        visa_error(p, typed->line, typed->col_pos, "VISA-UNSUP-006",
                   "svm_atomic on %u-byte data is not executed", bytes);
        return false;
    }
    uint8_t t = svm_ops[which].sign ? (bytes == 8 ? IR_T_S64 : IR_T_S32)
                                    : (bytes == 8 ? IR_T_U64 : IR_T_U32);
    /* raw operands read one element per lane from their offset; exec size 1 reads it uniformly */
    for (int i = 0; i < 4; i++)
        if (h->exec.size > 1)
            ops[i].vstride = 1;
        else
            ops[i].vstride = 0;
    ir_operand addr, b = {.kind = IR_OPND_IMM, .imm = svm_ops[which].inc}, c = {0}, d = {0};
    if (!visa_lower_src(p, h, &ops[0], IR_T_U64, &addr))
        return false;
    if (svm_ops[which].srcs >= 1 && !visa_lower_src(p, h, &ops[2], t, &b))
        return false;
    if (svm_ops[which].srcs == 2 && !visa_lower_src(p, h, &ops[3], t, &c))
        return false;
    if (!null[1] && !visa_lower_dst(p, h, &(visa_operand){.kind = VISA_O_REG, .var = ops[1].var,
                                                           .type = ops[1].type, .col = ops[1].col,
                                                           .hstride = 1, .is_dst = 1,
                                                           .line = ops[1].line,
                                                           .col_pos = ops[1].col_pos},
                                    &d))
        return false;
    if (svm_ops[which].inc < 0)
        b.imm = bytes == 8 ? -1 : (int64_t)0xFFFFFFFF;
    uint32_t elect = UINT32_MAX;
    if (h->exec.size == 1 && !visa_elect_lane(p, h, &elect))
        return false;
    ir_insn *in = visa_emit(p, null[1] ? IR_RED : IR_ATOM, h);
    if (!in)
        return false;
    if (elect != UINT32_MAX) {
        in->has_guard = 1;
        in->guard = elect;
        in->guard_neg = 0;
    }
    in->type = t;
    in->sub = svm_ops[which].sub;
    in->mem.space = IR_SPACE_GLOBAL;
    in->mem.elem_bytes = (uint8_t)bytes;
    in->mem.vec = 1;
    in->mem.scope = IR_SCOPE_GPU;
    in->mem.sem = IR_SEM_RELAXED;
    in->ndst = null[1] ? 0 : 1;
    in->dst[0] = d;
    in->src[0] = (ir_operand){.kind = IR_OPND_ADDR, .has_reg = 1, .reg = addr.reg,
                              .sym = IR_SYM_NONE};
    in->src[1] = b;
    in->src[2] = c;
    in->nsrc = svm_ops[which].sub == IR_ATOM_CAS ? 3 : 2;
    return addr.kind == IR_OPND_REG;
}

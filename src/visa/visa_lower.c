/* The kernel's IR function: instruction emission with the lane guards, labels, the thread
 * payload prologue and the module's machine (docs/visa.md, "Execution model").
 *
 * Lanes. An instruction with execution size n at mask offset m acts on lanes [m, m+n) of the
 * thread. When that is not the whole thread (IGC splits SIMD32 work into (M1, 16) and (M5, 16)
 * halves on Xe-HPG), the IR instruction is guarded by a predicate that holds exactly for those
 * lanes, computed once in the prologue from %laneid; a vISA predicate is and-ed with it. An
 * execution size of 1 is a uniform operation that every lane carries out on its copy.
 *
 * The prologue fills what the hardware and IGC's runtime put in the thread's registers before
 * it starts (docs/visa.md, "Thread payload"): r0 with the work-group ids, the per-thread local
 * ids, and the cross-thread inputs, which become the kernel's parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower.h"
#include "visa/visa_lower_internal.h"

static ir_insn *push_insn(visa_parser *p, dynarray *to, uint16_t op, uint32_t line, uint32_t col)
{
    ir_insn *in = dynarray_push(to);
    if (!in) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return NULL;
    }
    in->op = op;
    in->line = line;
    in->col = col;
    return in;
}

uint32_t visa_laneid(visa_parser *p)
{
    if (p->laneid_reg != UINT32_MAX)
        return p->laneid_reg;
    uint32_t r = visa_new_reg(p, IR_T_U32);
    ir_insn *in = push_insn(p, &p->prologue, IR_MOV, p->func_line, p->func_col);
    if (!in)
        return 0;
    in->type = IR_T_U32;
    in->glue = 1;
    in->ndst = in->nsrc = 1;
    in->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = r};
    in->src[0] = (ir_operand){.kind = IR_OPND_SREG, .reg = IR_SREG_LANEID};
    p->laneid_reg = r;
    return r;
}

/* The predicate of lanes [off, off + size), or UINT32_MAX when it is every lane of the thread
 * (or size 1: uniform). Built in the prologue: t = laneid - off; p = t < size (unsigned). */
static uint32_t range_pred(visa_parser *p, const visa_exec *ex)
{
    if (!ex->present || ex->size == 1 || (ex->lane_offset == 0 && ex->size >= p->simd_size))
        return UINT32_MAX;
    unsigned j = 0;
    while ((1u << j) < ex->size)
        j++;
    uint32_t *slot = &p->range_pred[ex->lane_offset / 4][j];
    if (*slot)
        return *slot - 1;
    uint32_t lid = visa_laneid(p), t = visa_new_reg(p, IR_T_U32), q = p->npreds++;
    ir_insn *sub = push_insn(p, &p->prologue, IR_SUB, p->func_line, p->func_col);
    if (!sub)
        return UINT32_MAX;
    sub->type = IR_T_U32;
    sub->glue = 1;
    sub->ndst = 1, sub->nsrc = 2;
    sub->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = t};
    sub->src[0] = (ir_operand){.kind = IR_OPND_REG, .reg = lid};
    sub->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = ex->lane_offset};
    ir_insn *set = push_insn(p, &p->prologue, IR_SETP, p->func_line, p->func_col);
    if (!set)
        return UINT32_MAX;
    set->type = IR_T_U32;
    set->cmp = IR_CMP_LT;
    set->glue = 1;
    set->ndst = 1, set->nsrc = 2;
    set->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = q};
    set->src[0] = (ir_operand){.kind = IR_OPND_REG, .reg = t};
    set->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = ex->size};
    *slot = q + 1;
    return q;
}

/* Sets the guard of `in`: the lanes of h->exec and, unless `no_pred`, h's predicate. */
static bool set_guard(visa_parser *p, const visa_insn_head *h, ir_insn *in_unused, bool no_pred,
                      uint32_t *guard, uint8_t *neg)
{
    (void)in_unused;
    uint32_t range = range_pred(p, &h->exec);
    bool pred = h->pred.present && !no_pred;
    *neg = 0;
    *guard = UINT32_MAX;
    if (!pred) {
        *guard = range;
        return true;
    }
    uint32_t vp = visa_pred_reg(p, h->pred.var);
    if (range == UINT32_MAX) {
        *guard = vp;
        *neg = h->pred.neg;
        return true;
    }
    /* Both: q = range & (vp or !vp) in a temporary predicate. */
    uint32_t q = p->npreds++;
    ir_insn *a = push_insn(p, &p->insns, IR_AND, h->line, h->col);
    if (!a)
        return false;
    a->type = IR_T_PRED;
    a->glue = 1;
    a->ndst = 1, a->nsrc = 2;
    a->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = q};
    a->src[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = range};
    a->src[1] = (ir_operand){.kind = IR_OPND_PRED, .reg = vp, .neg = h->pred.neg};
    *guard = q;
    return true;
}

static ir_insn *emit_guarded(visa_parser *p, const visa_insn_head *h, uint16_t op, bool no_pred,
                             bool glue)
{
    uint32_t guard;
    uint8_t neg;
    if (!set_guard(p, h, NULL, no_pred, &guard, &neg))
        return NULL;
    ir_insn *in = push_insn(p, &p->insns, op, h->line, h->col);
    if (!in)
        return NULL;
    in->glue = glue;
    in->nomask = h->exec.nomask && h->exec.size > 1;
    if (guard != UINT32_MAX) {
        in->has_guard = 1;
        in->guard = guard;
        in->guard_neg = neg;
    }
    return in;
}

ir_insn *visa_emit(visa_parser *p, uint16_t op, const visa_insn_head *h)
{
    return emit_guarded(p, h, op, false, false);
}

/* visa_emit without the vISA predicate (sel reads it as an operand). */
ir_insn *visa_emit_unpredicated(visa_parser *p, uint16_t op, const visa_insn_head *h)
{
    return emit_guarded(p, h, op, true, false);
}

ir_insn *visa_glue(visa_parser *p, const visa_insn_head *h, uint16_t op, bool guarded)
{
    if (guarded)
        return emit_guarded(p, h, op, false, true);
    ir_insn *in = push_insn(p, &p->insns, op, h->line, h->col);
    if (in) {
        in->glue = 1;
        in->nomask = h->exec.nomask && h->exec.size > 1;
    }
    return in;
}

void visa_define_label(visa_parser *p, const fe_token *name)
{
    int32_t l = fe_labels_get(&p->labels, name->text, name->len, name->line, name->col);
    if (l < 0) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return;
    }
    if (fe_labels_define(&p->labels, l, (uint32_t)p->insns.count, name->line, name->col) != 0)
        visa_error(p, name->line, name->col, "VISA-SEM-004", "label '%.*s' is defined twice",
                   (int)name->len, name->text);
}

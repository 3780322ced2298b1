/* The timing core's register scoreboard (PTX; SASS until its control codes drive issue;
 * docs/timing.md, "Scheduling"): per warp and scoreboard slot (tinsn), the cycle a register or
 * predicate is ready and what a reader waits as until then. Inline, for the issue
 * (timing_issue.c). An instruction's slots come from the lists timing_insn_fill worked out; the
 * operand walk they replace serves the instructions whose slots do not fit them (tinsn.walk),
 * and tests/unit/test_timing_sb.c runs both on the same scoreboards. */
#ifndef GMS_TIMING_TIMING_SB_H
#define GMS_TIMING_TIMING_SB_H

#include "timing/timing_internal.h"

/* The operand walk: operand `o` of an instruction moves *r to its slot's ready cycle when that
 * is later, and *why to that slot's reason. */
static inline void timing_sb_operand_ready(const tstate *S, const twarp *w, const ir_operand *o,
                                           uint64_t *r, uint8_t *why)
{
    switch (o->kind) {
    case IR_OPND_REG:
        if (o->reg < S->nregs && w->reg_ready[o->reg] > *r) {
            *r = w->reg_ready[o->reg];
            *why = w->reg_why[o->reg];
        }
        return;
    case IR_OPND_ADDR:
        if (o->has_reg && o->reg < S->nregs && w->reg_ready[o->reg] > *r) {
            *r = w->reg_ready[o->reg];
            *why = w->reg_why[o->reg];
        }
        return;
    case IR_OPND_PRED:
        if (o->reg < S->npreds && w->pred_ready[o->reg] > *r) {
            *r = w->pred_ready[o->reg];
            *why = w->pred_why[o->reg];
        }
        return;
    case IR_OPND_VEC:
        for (unsigned e = 0; e < o->count && e < 8; e++)
            if (o->vregs[e] < S->nregs && w->reg_ready[o->vregs[e]] > *r) {
                *r = w->reg_ready[o->vregs[e]];
                *why = w->reg_why[o->vregs[e]];
            }
        return;
    default:
        return;
    }
}

/* The operand walk: destination `o` is ready at `ready`, a reader waits as `why`. */
static inline void timing_sb_operand_written(const tstate *S, twarp *w, const ir_operand *o,
                                             uint64_t ready, uint8_t why)
{
    switch (o->kind) {
    case IR_OPND_REG:
        if (o->reg < S->nregs) {
            w->reg_ready[o->reg] = ready;
            w->reg_why[o->reg] = why;
        }
        return;
    case IR_OPND_PRED:
        if (o->reg < S->npreds) {
            w->pred_ready[o->reg] = ready;
            w->pred_why[o->reg] = why;
        }
        return;
    case IR_OPND_VEC:
        for (unsigned e = 0; e < o->count && e < 8; e++)
            if (o->vregs[e] < S->nregs) {
                w->reg_ready[o->vregs[e]] = ready;
                w->reg_why[o->vregs[e]] = why;
            }
        return;
    default:
        return;
    }
}

/* The register scoreboard of instruction `ti` for warp w: the cycle *r (IN: the earliest) its
 * guard, sources and destinations allow, *why what it waits as. The operands in the order the
 * lists keep (tinsn): a slot later than the latest so far moves it. A destination waits only
 * for an earlier variable-latency write of it (a load): two fixed-latency writes complete in
 * order. (Registers that are never read share one slot after the executor's allocation, which
 * must not serialise them.) The lists give what the operand walk gives. */
static inline __attribute__((always_inline)) void
timing_sb_wait(const tstate *S, const twarp *w, const tinsn *ti, uint64_t *r, uint8_t *why)
{
    const uint64_t *ready = w->reg_ready;
    const uint8_t *rwhy = w->reg_why;
    uint64_t t = *r;
    uint8_t dep = *why;
    if (__builtin_expect(ti->walk, 0)) {
        const ir_insn *in = ti->in;
        if (in->has_guard && in->guard < S->npreds && w->pred_ready[in->guard] > t) {
            t = w->pred_ready[in->guard];
            dep = w->pred_why[in->guard];
        }
        for (unsigned i = 0; i < in->nsrc; i++)
            timing_sb_operand_ready(S, w, &in->src[i], &t, &dep);
        for (unsigned i = 0; i < in->ndst; i++) {
            uint64_t rd = t;
            uint8_t wd = dep;
            timing_sb_operand_ready(S, w, &in->dst[i], &rd, &wd);
            if (rd > t && wd != TIMING_STALL_WAIT) {
                t = rd;
                dep = wd;
            }
        }
    } else {
        for (unsigned i = 0; i < ti->nread; i++) {
            uint32_t k = ti->read[i];
            if (ready[k] > t) {
                t = ready[k];
                dep = rwhy[k];
            }
        }
        uint64_t rd = t;
        uint8_t wd = dep;
        for (unsigned i = 0; i < ti->nwrite; i++) {
            uint32_t k = ti->write[i];
            if (ready[k] > rd) {
                rd = ready[k];
                wd = rwhy[k];
            }
            if ((ti->wend >> i) & 1u) { /* the end of one destination operand */
                if (rd > t && wd != TIMING_STALL_WAIT) {
                    t = rd;
                    dep = wd;
                }
                rd = t;
                wd = dep;
            }
        }
    }
    *r = t;
    *why = dep;
}

/* Records that instruction `ti`'s results (its write list, or the walk) are ready at cycle
 * `ready`; a reader waits as `why`. */
static inline __attribute__((always_inline)) void
timing_sb_written(const tstate *S, twarp *w, const tinsn *ti, uint64_t ready, uint8_t why)
{
    if (__builtin_expect(ti->walk, 0)) {
        for (unsigned i = 0; i < ti->in->ndst; i++)
            timing_sb_operand_written(S, w, &ti->in->dst[i], ready, why);
        return;
    }
    for (unsigned i = 0; i < ti->nwrite; i++) {
        w->reg_ready[ti->write[i]] = ready;
        w->reg_why[ti->write[i]] = why;
    }
}

#endif

/* The executor's step, inline: step_one, one instruction of the warp loop, and exec_step_in,
 * exec_step's body (exec.h) for a layout its caller names. exec_warp.c builds its loops and
 * exec_step from them; the timing core (src/timing/timing_issue.c) inlines exec_step_in for
 * launches of 16-byte instructions (EXEC_LAYOUT_16), so that the step and the issue are one
 * function, without the call and its saved registers (docs/timing.md, "Model"). This is exec's
 * inside: outside exec/, only timing_issue.c includes it, for exec_step_in,
 * exec_warp_prefetch_in and exec_session_layout (docs/architecture.md). */
#ifndef GMS_EXEC_EXEC_STEP_H
#define GMS_EXEC_EXEC_STEP_H

#include <stddef.h>

#include "exec/exec_internal.h"

/* exec_step of a warp that issues nothing (not READY, or the launch has stopped); out of line
 * (exec_warp.c), so that the issuing path keeps a small frame. */
uint32_t exec_step_none(exec_warp *w, exec_step_info *info);
/* Called when the warp's pc reached next_wait_pc: merges the groups waiting there, or switches
 * to a group waiting at a lower pc, so that the running group has the lowest pc (exec_warp.c). */
void warp_reconverge(exec_warp *w);

/* One instruction of the loop, made three times (warp_run): for 16-byte instructions without
 * control words or glue (PTX, SASS of Volta and later, Intel LSC) the fetch address is a
 * constant shift, as cheap as when the size was fixed; any other module (`general`) reads the
 * fetch offset its instruction was given when the module was prepared, and leaves glue
 * instructions out of the counts and the instruction budget (ir_insn.glue: they are part of the
 * dialect's instruction next to them, which is counted once); and under --strict-hazards
 * (`hazards`, with any layout) every instruction's issue controls are checked first
 * (exec_hazard.c), so that the other two loops do not test for it. `info` is NULL in the
 * functional loop (the compiler drops what fills it) and exec_step's report otherwise; with
 * `info` the warp never parks (exec_step's sessions have no parallel phases: rs->tally is NULL),
 * so the test of exec_warp.parked, a host-cache line of its own, is left out.
 * lean: exec_step_in's. Returns 0 when the warp may go on, 1 when it must stop (fault, limit). */
static inline __attribute__((always_inline)) int step_one(exec_warp *w, int general, int hazards,
                                                          exec_step_info *info, uint32_t *flags,
                                                          int lean)
{
    exec_run_state *rs = w->run;
    exec_stats *st = rs->stats;
    const exec_xinsn *x = &w->code[w->pc];
    int counted = !general || !x->glue;
    if (counted) {
        if (!rs->budget) {
            warp_fault(w, x, (uint32_t)__builtin_ctz(w->active | 0x80000000u), "EXEC-LIMIT-001",
                       "instruction limit of %llu warp instructions reached (runaway kernel?); "
                       "raise it with \"max_instructions\" in the launch file or "
                       "--max-instructions N",
                       (unsigned long long)rs->launch->max_warp_instructions);
            return 1;
        }
        rs->budget--;
    }
    const ir_insn *in = x->in;
    uint32_t mask = in->nomask ? w->live : w->active;
    if (in->has_guard) {
        uint32_t g = w->preds[in->guard];
        mask &= in->guard_neg ? ~g : g;
    }
    /* Instruction fetch: a warp re-reads its instruction cache line only when it moves to
     * another 128-byte line (instruction sizes and control words: ir_machine). */
    uint64_t offset = general ? w->fetch_offsets[w->pc] : (uint64_t)w->pc * 16;
    uint64_t fetch_line = (w->code_base + offset) >> 7;
    if (fetch_line != w->fetch_line) {
        w->fetch_line = fetch_line;
        int miss = memsys_ifetch(rs->ms, w->cta->sm, fetch_line << 7, in->id);
        if (info)
            *flags |= EXEC_STEP_FETCHED | (miss ? EXEC_STEP_FETCH_MISS : 0u);
    }
    if (counted) {
        st->warp_instructions++;
        st->thread_instructions +=
            w->active == FULL_MASK ? LANES : exec_lane_count(w->active);
        st->thread_instructions_pred_on +=
            mask == FULL_MASK ? LANES : exec_lane_count(mask);
        rs->insn_counts[in->id]++;
    }
    if (info) {
        if (!lean) {
            /* NULL without scoreboards (exec_step_info.ctrl): PTX skips the walk to the table. */
            const ir_ctrl *table = rs->step_ctrl ? w->frames[w->depth - 1].fn->ir->ctrl : NULL;
            info->ctrl = table ? &table[w->pc] : NULL;
            info->active = w->active;
            info->pred_on = mask;
        }
        info->insn = in;
        *flags |= counted ? EXEC_STEP_COUNTED : 0u;
    }
    if (hazards && exec_hazard_issue(w, x, mask))
        return 1;
    x->fn(w, x, mask);
    if (!info && w->parked) /* a parallel phase's load that needs the L2 did nothing */
        return 1;
    if (!x->is_ctrl) {
        w->pc++;
        if (w->pc >= w->next_wait_pc)
            warp_reconverge(w);
    }
    return 0;
}

/* exec_step (exec.h) with the launch's layout `layout` (exec_run_state.step_layout, an
 * EXEC_LAYOUT_*): a constant in an inlined caller drops the other layouts' steps. lean (a
 * constant): 1 for a caller that reads only info->insn and info->next (and the result): ctrl,
 * active and pred_on are left as they were; 0 fills them as exec_step does. */
static inline __attribute__((always_inline)) uint32_t exec_step_in(exec_warp *w,
                                                                  exec_step_info *info,
                                                                  uint8_t layout, int lean)
{
    /* The flags go back in a register: a caller's load of bytes the step stored would wait for
     * every store of the step (the handler's register writes) when the host cannot forward
     * them. ctrl, active and pred_on are step_one's when it issues (exec_step_info). */
    exec_run_state *rs = w->run;
    if (w->state != WARP_READY || rs->faulted || rs->oom)
        return exec_step_none(w, info);
    uint32_t flags = 0;
    info->insn = NULL; /* stays so when the instruction budget has run out */
    uint32_t wakes = w->cta->wakes;
    const exec_xinsn *x = &w->code[w->pc];
    if (__builtin_expect(layout == EXEC_LAYOUT_16, 1))
        step_one(w, 0, 0, info, &flags, lean);
    else if (layout == EXEC_LAYOUT_GENERAL)
        step_one(w, 1, 0, info, &flags, lean);
    else
        step_one(w, 1, 1, info, &flags, lean);
    if (w->cta->wakes != wakes)
        flags |= EXEC_STEP_WOKE;
    uint8_t state = w->state;
    if (x->is_ctrl && state == WARP_READY && w->code + w->pc != x + 1)
        flags |= EXEC_STEP_TAKEN;
    info->next = state == WARP_READY || state == WARP_YIELD ? w->code[w->pc].in : NULL;
    if (rs->faulted || rs->oom)
        flags |= EXEC_STEP_STOPPED;
    return flags | state;
}

/* exec_warp_prefetch (exec.h), inline for the timing core's host-cache prefetches: the lines of
 * warp w (NULL: none) that a step reads first. */
static inline void exec_warp_prefetch_in(const exec_warp *w)
{
    if (!w)
        return;
    const char *p = (const char *)w;
    for (size_t off = 0; off < offsetof(exec_warp, mctx); off += 64) __builtin_prefetch(p + off);
}

/* Warp w's registers (exec_warp.regs, its top frame's): register slot r's 32 lanes are the
 * 256 bytes from r x 32, one 64-bit value a lane. For the timing core's host prefetches of a
 * next instruction's sources (exec_reg_prefetch); a call or return moves them. */
static inline const uint64_t *exec_warp_regs(const exec_warp *w)
{
    return w->regs;
}

/* Where warp w's next instruction is in its code (the one exec_step would issue now). */
static inline const exec_xinsn *exec_warp_next_x(const exec_warp *w)
{
    return &w->code[w->pc];
}

/* 1 when what one exec_step runs from instruction x on (exec_warp_next_x: x and, when x is
 * glue, the glue after it and the instruction they serve) may touch what other SMs share
 * (exec_xinsn.beyond_sm): the timing model runs it at the end of its cycle. Glue never sets
 * the pc, so the step runs those in order. */
static inline int exec_xinsn_group_beyond_sm(const exec_xinsn *x)
{
    for (;; x++) {
        if (x->beyond_sm)
            return 1;
        if (!x->glue)
            return 0;
    }
}

/* The instruction that follows x (exec_warp_next_x) when x falls through: x + 1's, NULL when
 * x sets the pc itself (a branch, call, return, exit, trap), which the last instruction of a
 * function always does (IR-VERIFY-011), so x + 1 is in the code whenever it is read. */
static inline const ir_insn *exec_xinsn_following(const exec_xinsn *x)
{
    return x->is_ctrl ? NULL : x[1].in;
}

/* Host-cache prefetch of register slot r of the registers at `regs` (exec_warp_regs): its
 * 32 lanes, four 64-byte host lines. Reads nothing; changes nothing. */
static inline void exec_reg_prefetch(const uint64_t *regs, uint32_t r)
{
    const char *p = (const char *)(regs + (size_t)r * LANES);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(p + 128);
    __builtin_prefetch(p + 192);
}

/* The layout session s steps (exec_run_state.step_layout: an EXEC_LAYOUT_*). */
static inline uint8_t exec_session_layout(const exec_session *s)
{
    return s->step_layout;
}

#endif

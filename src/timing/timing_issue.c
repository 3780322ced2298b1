/* The timing core's schedulers: choosing a warp, issuing its instruction through the executor,
 * timing what it did and, from the register scoreboard (timing_sb.h), when the warp's next
 * instruction may issue (timing.h; docs/timing.md, "Scheduling"), and the event loop that runs
 * them. The loop is here, beside the issue, so that the compiler can inline the issue into it
 * and the scoreboard into the issue. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/gate.h"
#include "exec/exec_step.h"
#include "timing/timing_internal.h"
#include "timing/timing_sb.h"
#include "timing/timing_scan.h"

/* The warp in slot j of SM sm. */
static twarp *warp_at(tstate *S, uint32_t sm, uint32_t j)
{
    return &S->warps[(size_t)sm * S->warps_per_sm + j];
}

/* timing_entry_warp for a scheduler whose state q the caller holds: its warp slot of entry k,
 * without reading q again through S->scheds. */
static inline twarp *entry_warp(const tstate *S, const tsched *q, uint32_t k)
{
    return (twarp *)((char *)q->slot0 + (size_t)k * S->entry_bytes);
}

/* Sets when the warp's next instruction may issue, no earlier than `tmin` (charged to `why`
 * before that): its source, guard and destination registers ready, a fence's earlier accesses
 * performed. A warp that is not READY waits (blocked) until another warp wakes it. `prev`: the
 * record of the instruction the warp issued last (NULL: none known), whose neighbour is
 * likely `in`'s (timing_insn_after). */
static inline __attribute__((always_inline)) void prepare(tstate *S, twarp *w,
                                                         const ir_insn *in, const tinsn *prev,
                                                         uint64_t tmin, uint8_t why, int ptx)
{
    S->rthr[w->cidx] = 0;
    w->b1 = w->b2 = tmin;
    w->w1 = w->w2 = why;
    if (!in) {
        w->blocked = 1;
        *w->rp = TIMING_NEVER;
        w->why = TIMING_STALL_BARRIER;
        return;
    }
    const tinsn *ti = timing_insn_after(S, prev, in);
    w->nx = ti;
    w->regs = exec_warp_regs(w->ew);
    w->nxx = exec_warp_next_x(w->ew);
    w->next_stalls = ti->stalls;
    uint64_t r = tmin;
    uint8_t dep = why;
    int use_ctrl = !ptx && S->use_ctrl;
    const ir_ctrl *c = use_ctrl ? exec_warp_next_ctrl(w->ew) : NULL;
    if (c) { /* SASS: the kernel's control codes say when (timing_ctrl.c) */
        timing_ctrl_wait e = timing_ctrl_explain(w->ctrl, c, tmin);
        w->b2 = e.stall_until;
        w->w2 = TIMING_STALL_WAIT;
        r = e.issue;
        if (e.issue > e.stall_until)
            dep = (uint8_t)e.scoreboard;
    } else if (!use_ctrl) { /* PTX: the register scoreboard */
        timing_sb_wait(S, w, ti, &r, &dep);
    }
    if (ti->fence && w->mem_done > r) {
        r = w->mem_done;
        dep = TIMING_STALL_MEMBAR;
    }
    S->rpipe[w->cidx] = ti->cost.pipe;
    *w->rp = r;
    w->why = dep;
}

/* prepare, for the callers outside the issue (CTA starts, wakes). */
void timing_prepare_next(tstate *S, twarp *w, const ir_insn *in, uint64_t tmin, uint8_t why)
{
    prepare(S, w, in, NULL, tmin, why, 0);
    /* the warp may now be ready earlier than its scheduler's saved mask says (tsched) */
    S->scheds[w->sched].mask_turn = 0;
}

/* ---- issuing ---- */

/* Warps of the CTA of `w` that a barrier or mbarrier released: ready again. */
static void wake_cta(tstate *S, const twarp *w, uint64_t t)
{
    size_t idx = (size_t)(w->cta - S->ctas);
    uint32_t sm = (uint32_t)(idx / S->ctas_per_sm), slot = (uint32_t)(idx % S->ctas_per_sm);
    for (uint32_t i = 0; i < S->warps_per_cta; i++) {
        twarp *v = warp_at(S, sm, slot * S->warps_per_cta + i);
        if (!v->blocked || exec_warp_status_of(v->ew) != EXEC_WARP_READY)
            continue;
        v->blocked = 0;
        uint64_t from = v->mem_done > t + 1 ? v->mem_done : t + 1;
        timing_prepare_next(S, v, exec_warp_next(v->ew), from, TIMING_STALL_BARRIER);
        timing_sched_wake(S, v->sched, *v->rp);
    }
}

/* Times the instruction one exec_step issued at cycle t for warp w on scheduler q. Returns its
 * record. */
static inline __attribute__((always_inline)) const tinsn *timed(tstate *S, tsched *q, twarp *w,
                                                        const exec_step_info *info, uint64_t t,
                                                        int ptx)
{
    const tinsn *ti = info->insn == w->nx->in ? w->nx : timing_insn(S, info->insn);
    timing_cost c = ti->cost;
    uint64_t ready;
    uint8_t why;
    if (S->mi.naccess) {
        ready = S->mi.ready;
        why = S->mi.long_latency ? TIMING_STALL_LONG_SCOREBOARD : TIMING_STALL_SHORT_SCOREBOARD;
        if (ready > w->mem_done)
            w->mem_done = ready;
        if (ready > S->mem_end)
            S->mem_end = ready;
    } else if (c.pipe == TIMING_PIPE_MEM) { /* a constant or parameter load served at once */
        ready = S->mi.at + S->cfg->latency.constant_l1_hit_cycles;
        why = TIMING_STALL_SHORT_SCOREBOARD;
    } else {
        ready = t + c.latency;
        why = c.variable ? TIMING_STALL_SHORT_SCOREBOARD : TIMING_STALL_WAIT;
    }
    if (!ptx && w->ctrl) {
        if (info->ctrl) {
            uint64_t read = c.pipe == TIMING_PIPE_MEM ? S->mi.at + c.latency : t + 1;
            timing_ctrl_issued(w->ctrl, info->ctrl, t, read, ready, S->mi.long_latency);
        }
    } else {
        timing_sb_written(S, w, ti, ready, why);
    }
    /* A memory instruction waits for the SM's memory-issue resource (S->mi.at, timing_pipe.h);
     * its scheduler hands over the next one only after the SM took this one. */
    if (c.pipe == TIMING_PIPE_MEM)
        q->pipe_free[c.pipe] = S->mi.at > t ? S->mi.at : t + 1;
    else
        q->pipe_free[c.pipe] = t + c.interval;
    return ti;
}

/* When warp w's next instruction goes to the memory pipe, it waits for the SM's memory-issue
 * resource: its accesses reach the memory side (S->mi.at) when the SM takes it, and the warp
 * may not issue again before that (S->mi.accept, a memory throttle). `in`: that instruction
 * (exec_step_info.next of the step before), NULL for the first step of the issue, whose
 * instruction is the one prepare() prepared (only the warp's own steps move its pc, and every
 * step is followed by a prepare or leaves the warp not ready). */
static void mem_issue(tstate *S, twarp *w, const ir_insn *in, int first)
{
    uint8_t pipe;
    if (first) {
        pipe = w->nx->cost.pipe;
    } else {
        if (!in)
            return;
        pipe = timing_insn(S, in)->cost.pipe;
    }
    if (pipe == TIMING_PIPE_MEM)
        S->mi.at = S->mi.accept = timing_mio_take(&S->mio, S->mi.sm, S->mi.at);
}

/* Warp w's step left it polling an open mbarrier phase (YIELD): counts the poll for the
 * deadlock test. The epoch moves when mbarrier phases completed since the last yield of any
 * warp: only yields compare it (here and in polling_deadlock, right after), and the count of
 * phases only grows, so this says what a look after every issue would. */
static void count_poll(tstate *S, twarp *w)
{
    tstate *M = S->main; /* polls run at a cycle's end, on one thread */
    uint64_t phases = exec_session_mbar_phases(S->xs);
    if (phases != M->phases) {
        M->phases = phases;
        M->epoch++;
    }
    w->yielding = 1;
    if (w->poll_epoch != M->epoch) {
        w->poll_epoch = M->epoch;
        w->polls = 0;
    }
    if (++w->polls >= TIMING_POLLS_STUCK)
        M->stuck = 1;
}

/* Steps warp w's next instruction (and the glue that belongs to it), issued at cycle t by
 * scheduler q, and times it: what it did, and when the warp's next instruction may issue.
 * at0: the cycle the SM's memory-issue resource took the first step's instruction when the
 * issue took it already (end_of_cycle_in), else UINT64_MAX. Returns 0 or -1 (host memory). ptx
 * (a constant): the launch has no control codes (!S->use_ctrl, so no warp has ctrl state),
 * which lets the compiler drop their tests, and steps 16-byte instructions (EXEC_LAYOUT_16),
 * whose step is inlined here. */
static inline __attribute__((always_inline)) int issue_steps(tstate *S, tsched *q, twarp *w,
                                                            uint64_t t, uint64_t at0, int ptx)
{
    uint64_t tmin = t + 1;
    uint8_t why = TIMING_STALL_WAIT;
    exec_step_info info;
    info.next = NULL;
    uint32_t step;
    uint32_t woke = 0; /* the steps' flags, for EXEC_STEP_WOKE */
    int first = 1;
    const tinsn *ti = NULL; /* the record of the last instruction stepped */
    do {
        S->mi.naccess = 0;
        S->mi.accept = t;
        S->mi.ready = t;
        S->mi.long_latency = 0;
        if (w->yielding) { /* a warp that polled an open mbarrier phase goes on polling */
            exec_warp_resume(w->ew);
            w->yielding = 0;
        }
        /* The memory side's latencies are issue to use (what a pointer chase measures), the
         * cycles the LSU pipe takes to read the sources (pipe.mem_latency_cycles) included:
         * the access is timed from issue, or from the cycle the SM's memory-issue resource
         * took it when that is later (docs/timing.md, "Memory", "Latencies"). */
        S->mi.at = t;
        if (first && at0 != UINT64_MAX)
            S->mi.at = S->mi.accept = at0;
        else
            mem_issue(S, w, info.next, first);
        first = 0;
        /* The fast copy's launches step 16-byte instructions: the step inline (exec_step.h). */
        step = ptx ? exec_step_in(w->ew, &info, EXEC_LAYOUT_16, 1) : exec_step(w->ew, &info);
        if (step & EXEC_STEP_STOPPED)
            S->stopped = 1;
        if (!info.insn)
            break;
        woke |= step;
        ti = timed(S, q, w, &info, t, ptx);
        if (S->mi.accept > tmin) {
            tmin = S->mi.accept;
            why = TIMING_STALL_MEMORY_THROTTLE;
        }
        if ((step & EXEC_STEP_TAKEN) && (ptx || !w->ctrl) &&
            t + S->cfg->pipe.branch_latency_cycles > tmin) {
            /* PTX and vISA: a taken branch's target issues pipe.branch_latency_cycles after
             * it (SASS: the branch's stall count says; docs/timing.md, "Pipes"). */
            tmin = t + S->cfg->pipe.branch_latency_cycles;
            why = TIMING_STALL_WAIT;
        }
        if ((step & EXEC_STEP_FETCH_MISS) && t + S->cfg->latency.l2_near_hit_cycles > tmin) {
            tmin = t + S->cfg->latency.l2_near_hit_cycles;
            why = TIMING_STALL_NO_INSTRUCTION;
        }
        /* The flags and status exec_step returned, in a register (exec.h, EXEC_STEP_*). */
    } while (!(step & EXEC_STEP_COUNTED) && (step & EXEC_STEP_STATUS) == EXEC_WARP_READY);
    int ready_next = 1;
    uint32_t status = step & EXEC_STEP_STATUS;
    if (status != EXEC_WARP_READY) { /* the common case skips the switch's jump table */
        switch (status) {
        case EXEC_WARP_DONE:
        case EXEC_WARP_FAULTED:
            timing_warp_finished(S, w, t + 1);
            ready_next = 0;
            break;
        case EXEC_WARP_BARRIER:
        case EXEC_WARP_MBARRIER:
            w->blocked = 1;
            *w->rp = TIMING_NEVER;
            S->rthr[w->cidx] = 0;
            w->b1 = w->b2 = t + 1;
            w->why = TIMING_STALL_BARRIER;
            ready_next = 0;
            break;
        case EXEC_WARP_YIELD: /* stays YIELD in the executor until it issues again */
            count_poll(S, w);
            break;
        default:
            break;
        }
    }
    if (ready_next)
        prepare(S, w, info.next, ti, tmin, why, ptx);
    if (woke & EXEC_STEP_WOKE)
        wake_cta(S, w, t);
    return 0;
}

/* Issues warp w's next instruction at cycle t on scheduler s (docs/timing.md, "Model"). One
 * that may touch what other SMs share (exec_xinsn_group_beyond_sm: the memory system below the
 * SM, atomics, printf, the clock, ...) takes its issue slot and the SM's memory-issue resource now
 * but runs at the end of the cycle, after every SM's other instructions of the cycle, in
 * scheduler order (end_of_cycle_in): so what the SMs share sees the same order whichever host
 * thread runs which SM. Until then the warp is not ready. Returns 0, 1 when the instruction
 * waits for the cycle's end, or -1 (host memory). */
static inline __attribute__((always_inline)) int issue(tstate *S, uint32_t s, twarp *w,
                                                      uint64_t t, int ptx)
{
    tsched *q = &S->scheds[s];
    timing_settle(S, w, t);
    timing_charge(S, w, TIMING_STALL_SELECTED, 1);
    w->charged = t + 1;
    S->now = t;
    S->mi.sm = q->sm;
    if (__builtin_expect(exec_xinsn_group_beyond_sm(w->nxx), 0)) {
        S->mi.at = t;
        mem_issue(S, w, NULL, 1);
        *w->rp = TIMING_NEVER;
        S->rthr[w->cidx] = 0;
        S->park[S->npark++] = (tpark){.w = w, .s = s, .k = q->last, .t = t, .at = S->mi.at};
        return 1;
    }
    return issue_steps(S, q, w, t, UINT64_MAX, ptx);
}

/* The warp of entry k of scheduler s starts waiting as MATH_PIPE_THROTTLE at cycle t. */
static inline __attribute__((always_inline)) void throttle_start(tstate *S, uint32_t s,
                                                                uint32_t k, uint64_t t)
{
    twarp *w = timing_entry_warp(S, s, k);
    timing_settle(S, w, t);
    w->b1 = w->b2 = t;
    w->why = TIMING_STALL_MATH_PIPE_THROTTLE;
    S->rthr[(size_t)s * S->per_sched + k] = 1;
}

/* A ready warp (entry e = base + k of scheduler s; base = s x per_sched) whose pipe is busy
 * until free_at waits for it (MATH_PIPE_THROTTLE). */
static inline void throttle(tstate *S, uint32_t s, size_t base, uint32_t k, uint64_t t,
                            uint64_t free_at)
{
    size_t e = base + k;
    if (!S->rthr[e])
        throttle_start(S, s, k, t);
    /* else: throttled again: the throttle segment grows, nothing to settle */
    S->rdy[e] = free_at;
}

/* 1 when the warp of entry k of scheduler s (its entries from `base` = s x per_sched, q its
 * state) may issue at cycle t (ready, its pipe free); a ready warp whose pipe is busy is moved
 * to the cycle the pipe frees. */
static inline __attribute__((always_inline)) int eligible(tstate *S, uint32_t s,
                                                          const tsched *q, size_t base,
                                                          uint32_t k, uint64_t t)
{
    size_t e = base + k;
    if (S->rdy[e] > t)
        return 0;
    uint64_t free_at = q->pipe_free[S->rpipe[e]];
    if (free_at <= t)
        return 1;
    throttle(S, s, base, k, t, free_at);
    return 0;
}

/* 1 when the last instruction of the warp of entry k of scheduler s asked to yield (SASS).
 * Reads the warp's slot, a host-cache miss when it is not the one issued: callers test
 * S->use_ctrl first, so PTX launches (no control codes, never a yield) skip it. */
static int yielded(tstate *S, uint32_t s, uint32_t k)
{
    const twarp *w = timing_entry_warp(S, s, k);
    return w->ctrl && w->ctrl->yielded;
}

/* The entries base .. min(base + 64, end) - 1 of scheduler s whose warp is ready by cycle t, as
 * a bit mask (bit i: entry base + i). Entries whose pipe is busy are in it: eligible() tells
 * them apart. Only ready entries can be eligible or throttled, so the scans below, which visit
 * the ready entries in entry order, choose and charge exactly as a scan of every entry would. */
static uint64_t ready_word(const tstate *S, uint32_t s, uint32_t base, uint32_t end, uint64_t t)
{
    const uint64_t *rdy = S->rdy + (size_t)s * S->per_sched + base;
    return timing_scan_ready(S->scan_avx2, rdy, end - base < 64 ? end - base : 64, t);
}

/* The first eligible entry of scheduler s among lo .. hi - 1, in entry order, or UINT32_MAX. */
static uint32_t first_eligible(tstate *S, uint32_t s, uint32_t lo, uint32_t hi, uint64_t t)
{
    for (uint32_t base = lo & ~63u; base < hi; base += 64) {
        uint64_t m = ready_word(S, s, base, hi, t);
        if (base < lo)
            m &= ~((UINT64_C(1) << (lo - base)) - 1);
        for (; m; m &= m - 1) {
            uint32_t k = base + (uint32_t)__builtin_ctzll(m);
            if (eligible(S, s, &S->scheds[s], (size_t)s * S->per_sched, k, t))
                return k;
        }
    }
    return UINT32_MAX;
}

/* Loose round-robin: the first eligible entry after the last one issued, in entry order. */
static uint32_t choose_lrr(tstate *S, uint32_t s, uint64_t t)
{
    const tsched *q = &S->scheds[s];
    uint32_t n = q->used, first = q->last == UINT32_MAX ? 0 : q->last + 1;
    uint32_t k = first_eligible(S, s, first, n, t);
    return k != UINT32_MAX ? k : first_eligible(S, s, 0, first < n ? first : n, t);
}

/* Greedy-then-oldest over the scheduler's entries except `skip`: the oldest eligible one. An
 * entry is tested (and, ready with its pipe busy, throttled) only when it is older than the best
 * found so far in entry order, which decides which warps are charged MATH_PIPE_THROTTLE. */
static inline __attribute__((always_inline)) uint32_t oldest(tstate *S, uint32_t s,
                                                            const tsched *q, size_t base,
                                                            uint32_t skip, uint64_t t)
{
    uint32_t n = q->used;
    const uint64_t *age = S->rage + base;
    uint32_t best = UINT32_MAX;
    uint64_t best_age = UINT64_MAX;
    /* Where ages rise in entry order (tsched.by_age) no entry after the first eligible one is
     * older, so none would be tested: the scans stop there, with the same choice and the same
     * warps throttled. */
    if (n < TIMING_SCAN_AVX2_FROM || !S->scan_avx2) {
        /* Few entries (or no AVX2): one pass in entry order, each entry's ready cycle read as
         * it comes (a throttle moves only the entry it tests), the same visits as the mask. */
        const uint64_t *rdy = S->rdy + base;
        for (uint32_t k = 0; k < n; k++)
            if (rdy[k] <= t && k != skip && age[k] < best_age && eligible(S, s, q, base, k, t)) {
                if (q->by_age)
                    return k;
                best = k;
                best_age = age[k];
            }
        return best;
    }
    for (uint32_t word = 0; word < n; word += 64) {
        /* The mask the end of the scheduler's last turn saved for this cycle, when no entry
         * was made ready since (tsched.mask_turn): entries that stopped being ready since
         * (done, throttled) may still be in it, which eligible() turns down at no cost. */
        uint64_t m = q->mask_turn == t + 1 ? q->ready_mask : ready_word(S, s, word, n, t);
        if (skip >= word && skip - word < 64)
            m &= ~(UINT64_C(1) << (skip - word));
        for (; m; m &= m - 1) {
            uint32_t k = word + (uint32_t)__builtin_ctzll(m);
            if (age[k] < best_age && eligible(S, s, q, base, k, t)) {
                if (q->by_age)
                    return k;
                best = k;
                best_age = age[k];
            }
        }
    }
    return best;
}

/* The entry (warp) scheduler s (q its state, its entries from `base`) issues from at cycle t,
 * or UINT32_MAX. gto_ptx (a constant): the policy is GTO and the launch has no control codes
 * (event_loop). */
static inline __attribute__((always_inline)) uint32_t choose(tstate *S, uint32_t s,
                                                            const tsched *q, size_t base,
                                                            uint64_t t, int gto_ptx)
{
    if (gto_ptx) {
        if (q->last != UINT32_MAX && eligible(S, s, q, base, q->last, t))
            return q->last;
        return oldest(S, s, q, base, UINT32_MAX, t);
    }
    if (S->policy == TIMING_LRR)
        return choose_lrr(S, s, t);
    /* A SASS yield (docs/timing.md, "Control codes") ends the greedy warp's turn: the oldest
     * other ready warp goes first; with none, the yielding warp goes on at no cost. */
    uint32_t skip = S->use_ctrl && q->last != UINT32_MAX && yielded(S, s, q->last) ? q->last
                                                                                  : UINT32_MAX;
    if (q->last != UINT32_MAX && skip == UINT32_MAX && eligible(S, s, q, base, q->last, t))
        return q->last;
    uint32_t best = oldest(S, s, q, base, skip, t);
    if (best == UINT32_MAX && skip != UINT32_MAX && eligible(S, s, q, base, skip, t))
        return skip;
    return best;
}

/* Under GTO, a scheduler that issued warp w (entry k) at cycle t issues it again at t + 1
 * whenever w is ready then with a free pipe: it is the greedy warp, so the calendar would choose
 * it. When its next instruction also affects nothing outside the warp (no memory, barrier,
 * exit), the issue is done now, ahead of the other schedulers' turns at that cycle, with the
 * same outcome: what they do then cannot change this choice (a warp they wake here still loses
 * to the greedy one; timing_sched_wake keeps it after the last issue). Saves the calendar round
 * trips of long ALU runs. 1 when scheduler s runs w ahead at t + 1. */
static inline int runs_ahead(tstate *S, const tsched *q, size_t e, const twarp *w, uint64_t t,
                             int gto_ptx)
{
    uint64_t next = t + 1;
    return (gto_ptx || S->policy == TIMING_GTO) && *w->rp == next && w->nx->local &&
           !exec_xinsn_group_beyond_sm(w->nxx) && q->pipe_free[S->rpipe[e]] <= next &&
           (gto_ptx || !(w->ctrl && w->ctrl->yielded)) && !S->stopped;
}

/* For the host-cache prefetches (prefetch_ahead): the warp slot that scheduler s (q its state)
 * will most likely issue from at its next turn: the greedy warp when it is ready by then, else
 * the oldest one ready by then (GTO's choice without the pipe test), NULL when none is. Only a
 * guess: a wake may bring the turn forward, another policy may choose otherwise; it decides
 * nothing the model computes. guess_next takes the mask of the entries ready by then (bit k:
 * entry k; at most 64 entries in use); guess_by_cycle, for the other schedulers, the cycle
 * (TIMING_NEVER: none) and scans the first `scan` entries for the mask. */
static inline const twarp *oldest_in(const tstate *S, uint32_t s, const tsched *q,
                                     uint64_t ready)
{
    const uint64_t *age = S->rage + (size_t)s * S->per_sched;
    uint32_t best = (uint32_t)__builtin_ctzll(ready);
    if (q->by_age) /* ages rise in entry order (tsched.by_age) */
        return entry_warp(S, q, best);
    for (uint64_t m = ready & (ready - 1); m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctzll(m);
        if (age[k] < age[best])
            best = k;
    }
    return entry_warp(S, q, best);
}

static inline const twarp *guess_next(const tstate *S, uint32_t s, const tsched *q,
                                      uint64_t ready)
{
    if (!ready)
        return NULL;
    if (q->last != UINT32_MAX && ((ready >> q->last) & 1))
        return entry_warp(S, q, q->last);
    return oldest_in(S, s, q, ready);
}

static inline const twarp *guess_by_cycle(const tstate *S, uint32_t s, const tsched *q,
                                          const uint64_t *rdy, uint64_t next, uint32_t scan)
{
    if (next == TIMING_NEVER)
        return NULL;
    if (q->last != UINT32_MAX && rdy[q->last] <= next)
        return entry_warp(S, q, q->last);
    uint64_t m = timing_scan_ready(S->scan_avx2, rdy, scan, next);
    return m ? oldest_in(S, s, q, m) : NULL;
}

/* sched_run's end for a scheduler with more than 64 entries in use (or any, under
 * timing_sched_rescan): its next cycle after its turn at cycle t, and its guess (from the first
 * 64 entries). It saves no mask of ready entries (tsched.ready_mask). */
static uint64_t wide_next(tstate *S, uint32_t s, tsched *q, const uint64_t *rdy, uint64_t t)
{
    /* a warp ready by t + 1 settles the cycle, so the scan may stop there */
    uint64_t next = timing_scan_min(S->scan_avx2, rdy, q->used, t + 1);
    if (next <= t)
        next = t + 1;
    q->next_w = guess_by_cycle(S, s, q, rdy, next, q->used < 64 ? q->used : 64);
    return next;
}

/* The end of scheduler s's turn at cycle t (q its state, its entries from `base`; k: the entry
 * it issued from last in the turn, UINT32_MAX when it issued nothing): sets its next cycle, the
 * mask of the entries ready then and the guess at the warp it issues from then. Inline in the
 * event loop and in end_of_cycle_in. */
static inline __attribute__((always_inline)) void turn_end(tstate *S, uint32_t s, tsched *q,
                                                          size_t base, uint32_t k, uint64_t t)
{
    const uint64_t *rdy = S->rdy + base;
    if (k != UINT32_MAX) {
        q->after_last = t + 1;
        if (rdy[k] <= t + 1) { /* the warp it issued goes on at t + 1: no scan needed */
            q->next_w = entry_warp(S, q, k);
            timing_sched_key(S, s, t + 1);
            return;
        }
    }
    /* The scheduler's next cycle: its earliest ready warp's, but at least t + 1 (one
     * instruction per cycle). With at most four entries in use and four or more in all, the
     * unused ones are never ready (TIMING_NEVER), so the least of the first four is the least
     * of those in use. Up to 64 entries, the scan that finds the cycle also gives the mask of
     * the entries ready by then when that is t + 1; when it is later, a second scan finds
     * them (those equal to it) unless the greedy warp is one of them. The guess needs the
     * mask, and the next turn's choice reuses it (oldest) unless an entry was made ready
     * meanwhile. A mask is made for one cycle, the scheduler's next turn, and its turns come at
     * rising cycles: the ends that save none need not clear it, as no later turn can match
     * it. */
    uint64_t next;
    if (q->used <= 4 && S->per_sched >= 4) {
        next = timing_scan_min4(rdy);
        if (next <= t)
            next = t + 1;
        q->next_w = guess_by_cycle(S, s, q, rdy, next, q->used);
    } else if (q->used <= 64 && !timing_sched_rescan) {
        uint64_t ready;
        next = timing_scan_next(S->scan_avx2, rdy, q->used, t + 1, &ready);
        if (!ready && next != TIMING_NEVER) { /* those ready by next are those equal to it */
            if (q->last != UINT32_MAX && rdy[q->last] == next) {
                /* the guess is the greedy warp without a mask; none is saved, and the next
                 * choice, which likely takes the greedy warp again, scans only if not */
                q->next_w = entry_warp(S, q, q->last);
                timing_sched_key(S, s, next);
                return;
            }
            ready = timing_scan_equal(S->scan_avx2, rdy, q->used, next);
        }
        q->next_w = guess_next(S, s, q, ready);
        q->ready_mask = ready;
        q->mask_turn = next + 1; /* TIMING_NEVER + 1 is 0, none */
    } else {
        next = wide_next(S, s, q, rdy, t);
    }
    timing_sched_key(S, s, next);
}

/* Runs scheduler `s` at cycle `t`: issues one instruction of one of its warps if any may issue
 * (and those it runs ahead), and sets the scheduler's next cycle; when the instruction waits
 * for the cycle's end (issue), that sets it (end_of_cycle_in), and until then the scheduler is in
 * no cycle of the calendar. Returns 0, or -1 when host memory ran out. Inline in the event
 * loop, its only caller. */
static inline __attribute__((always_inline)) int sched_run(tstate *S, uint32_t s, uint64_t t,
                                                          int gto_ptx)
{
    tsched *q = &S->scheds[s];
    size_t base = (size_t)s * S->per_sched;
    uint32_t k = choose(S, s, q, base, t, gto_ptx);
    if (k != UINT32_MAX) {
        q->last = k;
        twarp *w = entry_warp(S, q, k);
        for (uint32_t n = 0;; n++) { /* the issue, and those run ahead after it (runs_ahead) */
            int rc = issue(S, s, w, t, gto_ptx);
            if (rc < 0)
                return -1;
            if (rc) { /* at the cycle's end (only a turn's first issue: runs_ahead) */
                q->after_last = t + 1;
                S->key[s] = TIMING_NEVER;
                return 0;
            }
            if (n == TIMING_RUN_AHEAD || !runs_ahead(S, q, base + k, w, t, gto_ptx))
                break;
            t++;
        }
    }
    turn_end(S, s, q, base, k, t);
    return 0;
}

/* Prefetches the first `lines` (at most 8) 64-byte host lines from `p`: the same prefetches as
 * a loop over them, without the loop's own instructions. */
static inline void prefetch_lines(const char *p, uint32_t lines)
{
    switch (lines) {
    default: __builtin_prefetch(p + 448); /* fall through */
    case 7: __builtin_prefetch(p + 384); /* fall through */
    case 6: __builtin_prefetch(p + 320); /* fall through */
    case 5: __builtin_prefetch(p + 256); /* fall through */
    case 4: __builtin_prefetch(p + 192); /* fall through */
    case 3: __builtin_prefetch(p + 128); /* fall through */
    case 2: __builtin_prefetch(p + 64); /* fall through */
    case 1: __builtin_prefetch(p); /* fall through */
    case 0: break;
    }
}

/* Host-cache prefetches of the registers that instruction ti reads from `regs` (a warp's,
 * exec_warp_regs): its read list's register slots (tinsn.rregs; a predicate's slot is not a
 * register). An instruction whose slots did not fit the list (tinsn.walk) prefetches those the
 * list kept. */
static inline __attribute__((always_inline)) void prefetch_reads(const uint64_t *regs,
                                                                const tinsn *ti)
{
    for (unsigned m = ti->rregs; m; m &= m - 1)
        exec_reg_prefetch(regs, ti->read[__builtin_ctz(m)]);
}

/* Host-cache prefetches of the registers that warp w's next instruction reads, and the
 * instruction after it when that one falls through to an instruction that the same issue may
 * run ahead to (tinsn.local; runs_ahead) and whose record is filled already (a record is filled
 * only where the model needs it, timing_insn_fill). */
static inline __attribute__((always_inline)) void prefetch_sources(const twarp *w)
{
    const tinsn *ti = w->nx;
    if (!ti)
        return;
    prefetch_reads(w->regs, ti);
    /* the record after ti is the following instruction's when that one is filled (consecutive
     * ids: timing_insn_after) */
    const ir_insn *in = exec_xinsn_following(w->nxx);
    if (in && ti[1].in == in && ti[1].local)
        prefetch_reads(w->regs, ti + 1);
}

/* Host-cache prefetches for the schedulers due next in this cycle, staged so that each load
 * that finds an address was prefetched one event earlier: the scheduler's state two events
 * ahead, its entries and the slot of the warp it will likely issue from (tsched.next_w) one
 * event ahead, and for the next event that warp's executor state, scoreboard and the registers
 * its next instructions read (a warp that waited hundreds of cycles for memory finds them out
 * of the host caches). Changes nothing the model computes. */
static inline __attribute__((always_inline)) void prefetch_ahead(tstate *S)
{
    uint32_t n;
    const uint32_t *due = timing_cal_due(S->cal, &n);
    if (n == 0)
        return;
    if (n > 2)
        __builtin_prefetch(&S->scheds[due[2]]);
    if (n > 1) {
        uint32_t s2 = due[1];
        __builtin_prefetch(&S->rdy[(size_t)s2 * S->per_sched]);
        __builtin_prefetch(&S->rage[(size_t)s2 * S->per_sched]);
        const twarp *w = S->scheds[s2].next_w;
        if (w) {
            __builtin_prefetch(w);
            __builtin_prefetch((const char *)w + 64);
            __builtin_prefetch((const char *)w + 128);
        }
    }
    const twarp *w = S->scheds[due[0]].next_w;
    if (w && !w->done) {
        exec_warp_prefetch_in(w->ew);
        prefetch_lines((const char *)w->reg_ready, S->sb_lines);
        prefetch_sources(w);
    }
}

/* Host-cache prefetches for warp w's step at the cycle's end (end_of_cycle_in), one ahead: its
 * executor state, scoreboard and the registers its instruction reads. Changes nothing the
 * model computes. */
static inline __attribute__((always_inline)) void prefetch_parked(const tstate *S,
                                                                 const twarp *w)
{
    exec_warp_prefetch_in(w->ew);
    prefetch_lines((const char *)w->reg_ready, S->sb_lines);
    prefetch_reads(w->regs, w->nx);
}

/* The instructions of cycle t that reach beyond their SM (docs/timing.md, "The end of a
 * cycle"; M the main state), park[0 .. n), run in scheduler order (SM, then its schedulers):
 * each as its issue would have run it (issue_steps, from the memory-issue cycle its issue took,
 * with its part's state), and their warps' next cycles are set. The order depends on the SMs,
 * not on the calendars or the host threads, so the SMs' own work of a cycle may be done in any
 * order, on any host thread. With several parts each warp steps here bound to the session
 * itself (exec_warp_bind), the session's access hook pointed at its part's results. Returns 0,
 * 1 at a step that stopped the launch (the session's fault), or -1 (host memory). */
static inline __attribute__((always_inline)) int parks_in(tstate *M, tpark *park, uint32_t n,
                                                          int gto_ptx)
{
    /* at most one issue per scheduler and cycle: sorting by scheduler is a total order. By
     * hand, not qsort: this runs every cycle, for some 10 to 30 entries */
    for (uint32_t i = 1; i < n; i++) {
        tpark p = park[i];
        uint32_t j = i;
        for (; j > 0 && park[j - 1].s > p.s; j--) park[j] = park[j - 1];
        park[j] = p;
    }
    for (uint32_t i = 0; i < n; i++) {
        const tpark *p = &park[i];
        if (i + 1 < n)
            prefetch_parked(M, park[i + 1].w);
        tstate *P = timing_part_of(M, p->s);
        tsched *q = &P->scheds[p->s];
        P->now = M->now = p->t;
        P->mi.sm = q->sm;
        if (P->part) {
            exec_warp_bind(M->xs, p->w->ew, NULL);
            M->el->access_user = &P->mi;
        }
        if (__builtin_expect(M->careful, 0))
            exec_session_set_budget(M->xs, M->budget_left);
        if (issue_steps(P, q, p->w, p->t, p->at, gto_ptx))
            return -1;
        if (__builtin_expect(M->careful, 0))
            M->budget_left = exec_session_budget(M->xs);
        if (P->part)
            exec_warp_bind(M->xs, p->w->ew, P->part);
        turn_end(P, p->s, q, (size_t)p->s * P->per_sched, p->k, p->t);
        if (P->stopped)
            return 1;
    }
    return 0;
}

/* parks_in, made twice (gto_ptx a constant, as for serve_cycle) and kept out of the loop:
 * inlined into the event loop, the loop's code grew by two thirds and ran matmul_256 40% slower
 * on the host with fewer instructions (bench/README.md, "Session 22"). */
static __attribute__((noinline)) int parks_ptx(tstate *M, tpark *park, uint32_t n)
{
    return parks_in(M, park, n, 1);
}

static __attribute__((noinline)) int parks_general(tstate *M, tpark *park, uint32_t n)
{
    return parks_in(M, park, n, 0);
}

static int parks(tstate *M, tpark *park, uint32_t n, int gto_ptx)
{
    return gto_ptx ? parks_ptx(M, park, n) : parks_general(M, park, n);
}

/* Every part's parked instructions of the current cycle on this thread (parks_in). Returns 0,
 * 1 when a step stopped the launch, or -1 (host memory). */
static int end_parks(tstate *M, int gto_ptx)
{
    /* the parts are blocks of consecutive SMs: part after part is scheduler order */
    for (uint32_t i = 0; i < M->nparts; i++) {
        tstate *P = M->parts[i];
        uint32_t n = P->npark;
        P->npark = 0;
        int rc = n ? parks(M, P->park, n, gto_ptx) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Part P's scheduler s stopped the launch in its turn (a fault, or host memory) in an SM's own
 * work of a cycle: the record is taken from the executor so that the part's other warps go on
 * to the end of the cycle, and kept when s is the lowest scheduler that stopped in it
 * (timing_cycles: the launch stops at that cycle's end, with that record). */
static __attribute__((noinline, cold)) void hold_stop(tstate *P, uint32_t s)
{
    exec_fault f;
    P->stopped = 0;
    int r = exec_session_take_stop(P->run, &f);
    if (r && s < P->stop_s) {
        P->stop_s = s;
        P->stop_fault = f;
        P->stop_oom = r < 0;
    }
}

/* Part P's SMs' own work of cycle t (its calendar serves t): every due scheduler's turn, in the
 * calendar's order. Returns 0, or -1 when host memory ran out. */
static inline __attribute__((always_inline)) int serve_cycle(tstate *P, uint64_t t, int gto_ptx)
{
    for (;;) {
        uint32_t s = timing_cal_take_current(P->cal, P->key);
        if (s == TIMING_CAL_EMPTY)
            return 0;
        prefetch_ahead(P);
        P->turns++;
        if (sched_run(P, s, t, gto_ptx))
            return -1;
        if (__builtin_expect(P->stopped, 0))
            hold_stop(P, s);
    }
}

static __attribute__((noinline)) int serve_cycle_ptx(tstate *P, uint64_t t)
{
    return serve_cycle(P, t, 1);
}

static __attribute__((noinline)) int serve_cycle_general(tstate *P, uint64_t t)
{
    return serve_cycle(P, t, 0);
}

static int serve(tstate *P, uint64_t t, int gto_ptx)
{
    return gto_ptx ? serve_cycle_ptx(P, t) : serve_cycle_general(P, t);
}

/* A careful cycle t (timing_cycles: the runaway limit is near): every part's due schedulers on
 * this thread, SM by SM in increasing order (each SM's in its calendar's order), each SM's
 * work given what is left of the budget, so that the warp that meets the limit is the same
 * whatever the threads. Returns 0 or -1 (host memory). */
static __attribute__((noinline)) int careful_cycle(tstate *M, uint64_t t, int gto_ptx)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < M->nparts; i++) {
        tstate *P = M->parts[i];
        if (P->next != t)
            continue;
        for (uint32_t s; (s = timing_cal_take_current(P->cal, P->key)) != TIMING_CAL_EMPTY;)
            if (M->due_mark[s] != t + 1) {
                M->due_mark[s] = t + 1;
                M->due[n++] = s;
            }
    }
    /* stable: an SM's schedulers keep their calendar's order */
    for (uint32_t i = 1; i < n; i++) {
        uint32_t s = M->due[i], j = i;
        for (; j > 0 && M->due[j - 1] / M->nsched_sm > s / M->nsched_sm; j--)
            M->due[j] = M->due[j - 1];
        M->due[j] = s;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = M->due[i];
        tstate *P = timing_part_of(M, s);
        if (P->key[s] != t)
            continue;
        exec_session_set_budget(P->run, M->budget_left);
        int rc = gto_ptx ? sched_run(P, s, t, 1) : sched_run(P, s, t, 0);
        M->budget_left = exec_session_budget(P->run);
        exec_session_set_budget(P->run, UINT64_MAX);
        if (rc)
            return -1;
        if (P->stopped)
            hold_stop(P, s);
    }
    return 0;
}

/* ---- the host threads ---- */

/* The next cycle part P's calendar serves (after its current one), its first entry left in
 * place; TIMING_NEVER when none. Sets P->oom when host memory ran out. */
static uint64_t next_cycle(tstate *P)
{
    uint32_t s = timing_cal_take_slow(P->cal, P->key);
    if (s == TIMING_CAL_EMPTY)
        return TIMING_NEVER;
    if (s == TIMING_CAL_OOM) {
        P->oom = 1;
        return TIMING_NEVER;
    }
    P->cal->cur--; /* the entry taken: served again by the cycle's first take */
    return P->cal->now;
}

/* The lowest stop held in the cycle's SM work (hold_stop), made the session's. Returns 1 when
 * there was one. */
static int stop_held(tstate *M)
{
    tstate *low = NULL;
    for (uint32_t i = 0; i < M->nparts; i++) {
        tstate *P = M->parts[i];
        if (P->stop_s != UINT32_MAX && (!low || P->stop_s < low->stop_s))
            low = P;
    }
    if (!low)
        return 0;
    exec_session_stop_with(M->xs, &low->stop_fault, low->stop_oom);
    return 1;
}

/* Pauses a thread spins at a hand-over before it sleeps: a cycle's parts take some 5 to 30
 * microseconds (bench/README.md, "Session 23"), and a futex sleep and wake cost more on the
 * development machine than the spin (matmul_256 on two threads: 1.5 times the seconds with 100
 * pauses, some 3 microseconds, instead of 4096). */
enum { TIMING_HANDOVER_SPINS = 4096 };

/* The helpers of a launch on several host threads (docs/timing.md, "Host threads"): thread p
 * (p >= 1) runs part p. The main thread sets the cycle and bumps `go`; every part runs its SMs'
 * own work of it, then its parked instructions when its turn comes: the turns go in part order
 * (the parts are blocks of consecutive SMs, so that is scheduler order), each part's on its own
 * thread, `turn` (the cycle's number << 8 | the part whose turn it is) passed from part to part
 * and back to the main thread (nparts). A part's parked instructions touch nothing of the later
 * parts' SMs, so part p's run while the parts after it still do their SMs' work. `halt`: a step
 * stopped the launch (or host memory ran out); the parts after it leave their parked
 * instructions. */
typedef struct tpool {
    _Alignas(64) atomic_uint go;
    atomic_uint go_sleepers;
    uint64_t t;
    int quit, gto_ptx;
    _Alignas(64) atomic_uint turn;
    atomic_uint turn_sleepers;
    int halt;
} tpool;

typedef struct thelper {
    tpool *pool;
    tstate *P;
    pthread_t thread;
} thelper;

/* Waits until *word == want (acquire). */
static void wait_for(atomic_uint *word, atomic_uint *sleepers, unsigned want)
{
    for (unsigned v; (v = atomic_load_explicit(word, memory_order_acquire)) != want;)
        gate_word_wait_spin(word, sleepers, v, TIMING_HANDOVER_SPINS);
}

/* Part P's turn at the end of the current cycle: its parked instructions (unless the launch
 * halted), then its next cycle when no CTA slot of its SMs was freed (the CTA starts, on the
 * main thread after every turn, may add to its calendar: it looks then). */
static void part_turn(tpool *pool, tstate *P)
{
    tstate *M = P->main;
    if (!pool->halt && P->npark) {
        int rc = parks(M, P->park, P->npark, pool->gto_ptx);
        if (rc < 0)
            P->oom = 1;
        if (rc)
            pool->halt = 1;
    }
    P->npark = 0;
    if (!pool->halt && !P->nfreed)
        P->next = next_cycle(P);
}

static void *helper_main(void *arg)
{
    thelper *h = arg;
    tpool *pool = h->pool;
    tstate *P = h->P;
    unsigned seen = 0;
    for (;;) {
        seen = gate_word_wait_spin(&pool->go, &pool->go_sleepers, seen, TIMING_HANDOVER_SPINS);
        if (pool->quit)
            return NULL;
        uint64_t t = pool->t;
        int due = P->next == t;
        if (due && serve(P, t, pool->gto_ptx))
            P->oom = 1;
        wait_for(&pool->turn, &pool->turn_sleepers, seen << 8 | P->index);
        if (due)
            part_turn(pool, P);
        gate_word_set(&pool->turn, &pool->turn_sleepers, seen << 8 | (P->index + 1));
    }
}

/* A cycle t on the parts' threads, up to its CTA starts: each part's SMs' own work, then its
 * parked instructions in its turn. Returns 0, 1 when a parked step stopped the launch, or -1
 * (host memory). A stop in the SMs' work is held (stop_held, after). */
static int ring_cycle(tstate *M, tpool *pool, unsigned *seq, uint64_t t)
{
    unsigned n = ++*seq & 0xffffff; /* turn holds it << 8 */
    pool->t = t;
    pool->halt = 0;
    gate_word_set(&pool->go, &pool->go_sleepers, n);
    int due = M->next == t;
    if (due && serve(M, t, pool->gto_ptx))
        M->oom = 1;
    if (due)
        part_turn(pool, M);
    gate_word_set(&pool->turn, &pool->turn_sleepers, n << 8 | 1);
    wait_for(&pool->turn, &pool->turn_sleepers, n << 8 | M->nparts);
    for (uint32_t i = 0; i < M->nparts; i++)
        if (M->parts[i]->oom)
            return -1;
    return pool->halt ? 1 : 0;
}

/* A cycle t on this thread alone, up to its CTA starts: every part's SMs' own work (near the
 * runaway limit, careful_cycle's), then every part's parked instructions. Returns what
 * ring_cycle returns. */
static int alone_cycle(tstate *M, uint64_t t, int gto_ptx)
{
    int r = 0;
    if (M->careful)
        r = careful_cycle(M, t, gto_ptx);
    else
        for (uint32_t i = 0; i < M->nparts && !r; i++)
            if (M->parts[i]->next == t)
                r = serve(M->parts[i], t, gto_ptx);
    return r ? -1 : end_parks(M, gto_ptx);
}

/* Host threads beside this one that run parts (helpers[p - 1] runs part p). */
static int helpers_start(tstate *M, tpool *pool, thelper *helpers)
{
    for (uint32_t p = 1; p < M->nparts; p++) {
        helpers[p - 1] = (thelper){.pool = pool, .P = M->parts[p]};
        if (pthread_create(&helpers[p - 1].thread, NULL, helper_main, &helpers[p - 1])) {
            pool->quit = 1;
            gate_word_bump(&pool->go, &pool->go_sleepers);
            for (uint32_t q = 1; q < p; q++) pthread_join(helpers[q - 1].thread, NULL);
            return -1;
        }
    }
    return 0;
}

static void helpers_stop(tstate *M, tpool *pool, thelper *helpers)
{
    pool->quit = 1;
    gate_word_bump(&pool->go, &pool->go_sleepers);
    for (uint32_t p = 1; p < M->nparts; p++) pthread_join(helpers[p - 1].thread, NULL);
}

/* The most warp instructions one cycle can issue: a turn per scheduler, each up to
 * TIMING_RUN_AHEAD instructions ahead after its first (a parked one instead of them). */
static uint64_t cycle_bound(const tstate *M)
{
    return (uint64_t)M->nsched * (TIMING_RUN_AHEAD + 1);
}

/* exec_session_deadlock, with every resident warp bound to the session first (the report
 * faults one of them: the session's fault must get it). */
static void deadlock(tstate *M)
{
    for (size_t i = 0; M->part && i < (size_t)M->nsm * M->warps_per_sm; i++)
        if (M->warps[i].ew && M->warps[i].cta && M->warps[i].cta->busy)
            exec_warp_bind(M->xs, M->warps[i].ew, NULL);
    exec_session_deadlock(M->xs);
}

/* Adds the parts' instruction counts to the session's (exec_part_gather), for the progress
 * hook and the runaway limit. */
static void gather(tstate *M)
{
    for (uint32_t i = 0; M->part && i < M->nparts; i++) exec_part_gather(M->xs, M->parts[i]->part);
}

/* Cycles between two gathers of the parts' counts, when the runaway limit is far. */
enum { TIMING_GATHER_CYCLES = 256 };

/* The cycles of the launch (M: the main state; its parts' SMs on as many host threads). */
static int cycles(tstate *M, int gto_ptx)
{
    tpool pool = {.gto_ptx = gto_ptx};
    thelper *helpers = NULL;
    unsigned seq = 0;
    int rc = 0;
    if (M->nparts > 1) {
        helpers = calloc(M->nparts - 1, sizeof *helpers);
        if (!helpers || helpers_start(M, &pool, helpers)) {
            free(helpers);
            return -1;
        }
    }
    for (uint32_t i = 0; i < M->nparts; i++) M->parts[i]->next = next_cycle(M->parts[i]);
    const exec_stats *stats = M->xstats;
    uint64_t since_gather = 0;
    int alone = 1; /* this cycle runs on this thread alone (always with one part) */
    for (;;) {
        uint64_t t = TIMING_NEVER;
        int oom = 0;
        for (uint32_t i = 0; i < M->nparts; i++) {
            tstate *P = M->parts[i];
            oom |= P->oom;
            if (P->next < t)
                t = P->next;
        }
        if (oom) {
            rc = -1;
            break;
        }
        if (t == TIMING_NEVER) {
            if (M->ctas_started < M->total_ctas || timing_any_busy(M))
                deadlock(M);
            break;
        }
        M->cycle = t;
        /* Near the runaway limit the cycles run careful_cycle on this thread; up to then no
         * cycle can reach it, and the budgets stay unlimited. The parts' counts are gathered
         * every TIMING_GATHER_CYCLES cycles, and every cycle once the limit could be reached
         * before the next gather. */
        since_gather++;
        if (M->limit && !M->careful &&
            stats->warp_instructions - M->used0 + since_gather * cycle_bound(M) >= M->limit) {
            gather(M);
            since_gather = 0;
            uint64_t used = stats->warp_instructions - M->used0;
            if (used + cycle_bound(M) >= M->limit) {
                M->careful = 1;
                M->budget_left = used < M->limit ? M->limit - used : 0;
            }
        }
        /* Cycles with little work run on this thread alone (the parts one after the other): the
         * hand-overs would cost more than the second thread gives. Which thread runs a part
         * changes nothing the model computes. */
        if (M->nparts > 1) {
            uint32_t turns = 0;
            for (uint32_t i = 0; i < M->nparts; i++) {
                turns += M->parts[i]->turns;
                M->parts[i]->turns = 0;
            }
            alone = alone ? turns < M->handover_turns : turns < M->handover_turns / 2;
        }
        /* A stop in the SMs' own work ends the launch with this cycle: its parked instructions
         * run, in their order, but no CTA starts. */
        int r = __builtin_expect(M->careful, 0) || alone ? alone_cycle(M, t, gto_ptx)
                                                         : ring_cycle(M, &pool, &seq, t);
        if (r < 0) {
            rc = -1;
            break;
        }
        if (r || __builtin_expect(stop_held(M), 0))
            break;
        if (timing_start_freed(M)) {
            rc = -1;
            break;
        }
        /* the parts that served the cycle and have not looked for their next one (all of them
         * on this thread alone; on the ring, those whose CTA slots were freed: after the
         * starts, which may add to their calendars) */
        for (uint32_t i = 0; i < M->nparts; i++)
            if (M->parts[i]->next == t)
                M->parts[i]->next = next_cycle(M->parts[i]);
        if (since_gather >= TIMING_GATHER_CYCLES) {
            gather(M);
            since_gather = 0;
        }
        exec_session_progress(M->xs);
        /* A warp just reached TIMING_POLLS_STUCK polls (an mbarrier's, which runs at the
         * cycle's end): looked at once every warp of the cycle has stepped. */
        if (M->stuck) {
            if (timing_polling_deadlock(M)) {
                deadlock(M);
                break;
            }
            M->stuck = 0;
        }
    }
    if (M->nparts > 1)
        helpers_stop(M, &pool, helpers);
    free(helpers);
    gather(M);
    return rc;
}

int timing_event_loop_general_only;
int timing_sched_rescan;

int timing_cycles(tstate *M)
{
    if (M->policy == TIMING_GTO && !M->use_ctrl &&
        exec_session_layout(M->xs) == EXEC_LAYOUT_16 && !timing_event_loop_general_only)
        return cycles(M, 1);
    return cycles(M, 0);
}

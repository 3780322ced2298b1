/* The timing core's schedulers: choosing a warp, issuing its instruction through the executor
 * and timing what it did (timing.h; docs/timing.md, "Scheduling"). */
#include <string.h>

#include "timing/timing_internal.h"

/* ---- TEMPORARY until timing_class.c (pipes) and timing_mem.c (memory) land on main ----
 * Fixed costs so that the core runs end to end: ALU results after 4 cycles (FP64 8), branches
 * after 1, and memory by the nearest level that served the access from the preset's latency
 * keys. Replaced by timing_cost_of and timing_mem_access when those parts are merged. */

timing_cost timing_core_cost(const tstate *S, const ir_insn *in)
{
    (void)S;
    const ir_op_info *info = ir_op_info_of((ir_opcode)in->op);
    timing_cost c = {.pipe = TIMING_PIPE_INT, .latency = 4, .interval = 1, .variable = 0};
    switch (info ? info->family : IR_FAM_ALU) {
    case IR_FAM_LD: case IR_FAM_ST: case IR_FAM_ATOM: case IR_FAM_CACHE: case IR_FAM_IMAGE:
    case IR_FAM_TEXTURE: case IR_FAM_ASYNC: case IR_FAM_BULK: case IR_FAM_MBARRIER:
        c.pipe = TIMING_PIPE_MEM;
        c.latency = 0;
        c.variable = 1;
        return c;
    case IR_FAM_BRA: case IR_FAM_BRX: case IR_FAM_CALL: case IR_FAM_RET: case IR_FAM_EXIT:
    case IR_FAM_TRAP: case IR_FAM_NOP: case IR_FAM_BAR: case IR_FAM_BAR_WARP: case IR_FAM_FENCE:
    case IR_FAM_CRS:
        c.pipe = TIMING_PIPE_BRANCH;
        c.latency = 1;
        return c;
    default:
        break;
    }
    if (in->type == IR_T_F64) {
        c.pipe = TIMING_PIPE_FP64;
        c.latency = 8;
    } else if (in->type == IR_T_F32 || in->type == IR_T_F16 || in->type == IR_T_F16X2) {
        c.pipe = TIMING_PIPE_FP32;
    }
    return c;
}

static timing_mem_reply temporary_mem_reply(const tstate *S, const mem_access *a)
{
    const gpu_latency_config *L = &S->cfg->latency;
    unsigned lv = a->levels;
    uint32_t lat = L->l1_hit_cycles;
    uint8_t is_long = 1;
    if (lv & (1u << MEM_LEVEL_DRAM))
        lat = L->dram_cycles;
    else if (lv & (1u << MEM_LEVEL_L2))
        lat = L->l2_near_hit_cycles;
    else if (lv & (1u << MEM_LEVEL_L1))
        lat = L->l1_hit_cycles;
    else if (lv & (1u << MEM_LEVEL_SHARED)) {
        lat = L->shared_load_cycles;
        is_long = 0;
    } else if (lv & (1u << MEM_LEVEL_CONSTANT)) {
        lat = L->constant_l1_hit_cycles;
        is_long = 0;
    }
    return (timing_mem_reply){.accept = S->now, .ready = S->now + lat, .long_latency = is_long};
}

/* ---- end of TEMPORARY ---- */

void timing_on_access(const mem_access *a, void *user)
{
    tstate *S = user;
    timing_mem_reply r = temporary_mem_reply(S, a);
    S->naccess++;
    if (r.accept > S->acc_accept)
        S->acc_accept = r.accept;
    if (r.ready > S->acc_ready)
        S->acc_ready = r.ready;
    S->acc_long |= r.long_latency;
}

/* The warp in slot j of SM sm. */
static twarp *warp_at(tstate *S, uint32_t sm, uint32_t j)
{
    return &S->warps[(size_t)sm * S->warps_per_sm + j];
}

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
        timing_prepare_next(S, v, v->mem_done > t + 1 ? v->mem_done : t + 1,
                            TIMING_STALL_BARRIER);
        timing_sched_wake(S, v->sched, v->ready);
    }
}

/* Times the instruction one exec_step issued at cycle t for warp w on scheduler q. */
static void timed(tstate *S, tsched *q, twarp *w, const exec_step_info *info, uint64_t t)
{
    timing_cost c = timing_core_cost(S, info->insn);
    uint64_t ready;
    uint8_t why;
    if (S->naccess) {
        ready = S->acc_ready;
        why = S->acc_long ? TIMING_STALL_LONG_SCOREBOARD : TIMING_STALL_SHORT_SCOREBOARD;
        if (ready > w->mem_done)
            w->mem_done = ready;
        if (ready > S->mem_end)
            S->mem_end = ready;
    } else if (c.pipe == TIMING_PIPE_MEM) { /* a constant or parameter load served at once */
        ready = t + S->cfg->latency.constant_l1_hit_cycles;
        why = TIMING_STALL_SHORT_SCOREBOARD;
    } else {
        ready = t + c.latency;
        why = c.variable ? TIMING_STALL_SHORT_SCOREBOARD : TIMING_STALL_WAIT;
    }
    timing_written(S, w, info->insn, ready, why);
    q->pipe_free[c.pipe] = t + c.interval;
}

/* Issues warp w's next instruction (and the glue that belongs to it) at cycle t. Returns 0 or
 * -1 (host memory). */
static int issue(tstate *S, uint32_t s, twarp *w, uint64_t t)
{
    tsched *q = &S->scheds[s];
    timing_settle(S, w, t);
    timing_charge(S, w, TIMING_STALL_SELECTED, 1);
    w->charged = t + 1;
    S->now = t;
    S->sm_now = s / S->nsched_sm;
    uint64_t tmin = t + 1;
    uint8_t why = TIMING_STALL_WAIT;
    exec_step_info info;
    int woke = 0;
    do {
        S->naccess = 0;
        S->acc_accept = t;
        S->acc_ready = t;
        S->acc_long = 0;
        exec_warp_resume(w->ew); /* a warp that polled an open mbarrier phase goes on polling */
        exec_step(w->ew, &info);
        if (!info.insn)
            break;
        woke |= info.woke;
        timed(S, q, w, &info, t);
        if (S->acc_accept > tmin) {
            tmin = S->acc_accept;
            why = TIMING_STALL_MEMORY_THROTTLE;
        }
        if (info.fetch_miss && t + S->cfg->latency.l2_near_hit_cycles > tmin) {
            tmin = t + S->cfg->latency.l2_near_hit_cycles;
            why = TIMING_STALL_NO_INSTRUCTION;
        }
    } while (!info.counted && info.status == EXEC_WARP_READY);
    uint64_t phases = exec_session_mbar_phases(S->xs);
    if (phases != S->phases) {
        S->phases = phases;
        S->epoch++;
    }
    switch (info.status) {
    case EXEC_WARP_DONE:
    case EXEC_WARP_FAULTED:
        if (timing_warp_finished(S, w, t + 1))
            return -1;
        break;
    case EXEC_WARP_BARRIER:
    case EXEC_WARP_MBARRIER:
        w->blocked = 1;
        w->ready = TIMING_NEVER;
        w->why = TIMING_STALL_BARRIER;
        break;
    case EXEC_WARP_YIELD: /* stays YIELD in the executor until it issues again */
        if (w->poll_epoch != S->epoch) {
            w->poll_epoch = S->epoch;
            w->polls = 0;
        }
        if (++w->polls >= TIMING_POLLS_STUCK)
            S->stuck = 1;
        timing_prepare_next(S, w, tmin, why);
        break;
    default:
        timing_prepare_next(S, w, tmin, why);
        break;
    }
    if (woke)
        wake_cta(S, w, t);
    return 0;
}

/* 1 when warp w may issue at cycle t on scheduler q; a warp whose pipe is busy is moved to the
 * cycle the pipe frees (MATH_PIPE_THROTTLE). */
static int eligible(tstate *S, tsched *q, twarp *w, uint64_t t)
{
    if (w->done || w->blocked || w->ready > t)
        return 0;
    uint64_t free_at = q->pipe_free[w->next_pipe];
    if (free_at <= t)
        return 1;
    timing_settle(S, w, t);
    w->ready = free_at;
    w->why = TIMING_STALL_MATH_PIPE_THROTTLE;
    return 0;
}

/* The warp slot scheduler s issues from at cycle t, or UINT32_MAX. */
static uint32_t choose(tstate *S, uint32_t s, uint64_t t)
{
    tsched *q = &S->scheds[s];
    uint32_t sm = s / S->nsched_sm, sub = s % S->nsched_sm, step = S->nsched_sm;
    uint32_t n = S->warps_per_sm;
    if (S->policy == TIMING_LRR) {
        uint32_t count = (n - sub + step - 1) / step;
        uint32_t first = q->last == UINT32_MAX ? 0 : (q->last - sub) / step + 1;
        for (uint32_t k = 0; k < count; k++) {
            uint32_t j = sub + (first + k) % count * step;
            if (eligible(S, q, warp_at(S, sm, j), t))
                return j;
        }
        return UINT32_MAX;
    }
    if (q->last != UINT32_MAX && eligible(S, q, warp_at(S, sm, q->last), t))
        return q->last;
    uint32_t best = UINT32_MAX;
    uint64_t best_age = UINT64_MAX;
    for (uint32_t j = sub; j < n; j += step) {
        twarp *w = warp_at(S, sm, j);
        if (w->age < best_age && eligible(S, q, w, t)) {
            best = j;
            best_age = w->age;
        }
    }
    return best;
}

int timing_sched_run(tstate *S, uint32_t s, uint64_t t)
{
    uint32_t sm = s / S->nsched_sm, sub = s % S->nsched_sm;
    uint32_t j = choose(S, s, t);
    if (j != UINT32_MAX) {
        S->scheds[s].last = j;
        if (issue(S, s, warp_at(S, sm, j), t))
            return -1;
    }
    uint64_t next = TIMING_NEVER;
    for (uint32_t k = sub; k < S->warps_per_sm; k += S->nsched_sm) {
        const twarp *w = warp_at(S, sm, k);
        if (!w->done && !w->blocked && w->ready < next)
            next = w->ready;
    }
    if (next <= t) /* one instruction per cycle */
        next = t + 1;
    timing_sched_key(S, s, next);
    return 0;
}

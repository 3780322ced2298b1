/* The timing model's core: warp schedulers over the executor's stepping interface
 * (timing.h; docs/timing.md, "Model", "Scheduling", "Stall reasons"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "timing/timing.h"
#include "timing/timing_class.h"
#include "timing/timing_internal.h"
#include "timing/timing_mem.h"
#include "timing/timing_scan.h"

struct timing_model {
    gpu_config cfg;
    timing_cal cal;  /* the calendar's storage, kept across launches */
    timing_mem *mem; /* the memory side's calendars */
};

timing_model *timing_create(const gpu_config *cfg)
{
    timing_model *tm = calloc(1, sizeof *tm);
    if (!tm)
        return NULL;
    tm->cfg = *cfg;
    tm->mem = timing_mem_create(cfg);
    if (!tm->mem) {
        free(tm);
        return NULL;
    }
    return tm;
}

void timing_destroy(timing_model *tm)
{
    if (!tm)
        return;
    timing_cal_free(&tm->cal);
    timing_mem_destroy(tm->mem);
    free(tm);
}

/* ---- what the scheduler needs of an instruction ---- */

/* Adds scoreboard slot `slot` (< limit, else nothing) to a list of `cap` (*n entries);
 * sets *full when it does not fit. */
static void list_add(uint16_t *list, uint8_t *n, unsigned cap, uint8_t *full, uint32_t slot,
                     uint32_t limit)
{
    if (slot >= limit)
        return;
    if (*n == cap) {
        *full = 1;
        return;
    }
    list[(*n)++] = (uint16_t)slot;
}

/* The slots operand `o` names (timing_internal.h, tinsn) into a list: its register, its
 * address's base register, its predicate (at nregs + p) or its vector's elements. */
static void operand_slots(const tstate *S, const ir_operand *o, uint16_t *list, uint8_t *n,
                          unsigned cap, uint8_t *full)
{
    switch (o->kind) {
    case IR_OPND_REG:
        list_add(list, n, cap, full, o->reg, S->nregs);
        return;
    case IR_OPND_ADDR:
        if (o->has_reg)
            list_add(list, n, cap, full, o->reg, S->nregs);
        return;
    case IR_OPND_PRED:
        if (o->reg < S->npreds)
            list_add(list, n, cap, full, S->nregs + o->reg, S->nregs + S->npreds);
        return;
    case IR_OPND_VEC:
        for (unsigned e = 0; e < o->count && e < 8; e++)
            list_add(list, n, cap, full, o->vregs[e], S->nregs);
        return;
    default:
        return;
    }
}

/* The scoreboard lists of ti->in: the guard and the sources read, the destinations written,
 * each destination operand's last slot marked; ti->walk when they do not fit (or a slot does
 * not fit 16 bits, or a destination is an address, which the scoreboard reads but never
 * writes). */
static void scoreboard_lists(const tstate *S, tinsn *ti)
{
    const ir_insn *in = ti->in;
    uint8_t full = S->nregs + S->npreds > UINT16_MAX;
    if (in->has_guard && in->guard < S->npreds)
        list_add(ti->read, &ti->nread, TINSN_READS, &full, S->nregs + in->guard,
                 S->nregs + S->npreds);
    for (unsigned i = 0; i < in->nsrc; i++)
        operand_slots(S, &in->src[i], ti->read, &ti->nread, TINSN_READS, &full);
    for (unsigned i = 0; i < ti->nread; i++)
        if (ti->read[i] < S->nregs)
            ti->rregs |= (uint8_t)(1u << i);
    for (unsigned i = 0; i < in->ndst; i++) {
        uint8_t before = ti->nwrite;
        full |= in->dst[i].kind == IR_OPND_ADDR;
        operand_slots(S, &in->dst[i], ti->write, &ti->nwrite, TINSN_WRITES, &full);
        if (ti->nwrite > before)
            ti->wend |= (uint8_t)(1u << (ti->nwrite - 1));
    }
    ti->walk = full;
}

/* The record of `in` in S->more, an open-addressing table by address (S->nmore entries, a
 * power of two at least twice the instructions that can need it): the entry holding it, or
 * the empty entry where it goes. */
static tinsn *more_entry(tstate *S, const ir_insn *in)
{
    uint32_t mask = S->nmore - 1;
    uint32_t h = (uint32_t)(((uintptr_t)in * UINT64_C(0x9E3779B97F4A7C15)) >> 40) & mask;
    while (S->more[h].in && S->more[h].in != in) h = (h + 1) & mask;
    return &S->more[h];
}

/* Fills the record of instruction `in` (borrowed): S->insns' entry of its id when that is
 * free, else its entry of S->more (glue sharing an id, an id outside the module), which
 * state_alloc sized for every such instruction of the module. Returns the record. Never
 * fails. */
const tinsn *timing_insn_fill(tstate *S, const ir_insn *in)
{
    tinsn *ti;
    if (in->id < S->ninsns && !S->insns[in->id].in) {
        ti = &S->insns[in->id];
    } else {
        ti = more_entry(S, in);
        if (ti->in == in)
            return ti;
        /* Only an instruction from outside the module could overfill the table (the
         * executor runs the module's own): it takes the spare record. */
        if (2 * (S->more_used + 1) > S->nmore)
            ti = &S->spare[0];
        else
            S->more_used++;
    }
    memset(ti, 0, sizeof *ti);
    ti->in = in;
    const ir_op_info *info = ir_op_info_of((ir_opcode)in->op);
    ti->cost = timing_cost_of(S->cfg, in);
    ti->local = info && (info->cls == IR_CLASS_ALU || info->cls == IR_CLASS_WARP ||
                         info->family == IR_FAM_BRA || info->family == IR_FAM_BRX);
    ti->fence = info && info->family == IR_FAM_FENCE;
    /* The launch's totals are the rows' growth (finish_stats): a row counts from the fill of
     * its id's entry of S->insns, the first record of that id (glue in S->more shares it). */
    ti->stalls = S->insn_stalls && in->id < S->ninsns ? S->insn_stalls[in->id] : S->own;
    if (S->insn_stalls && in->id < S->ninsns && ti == &S->insns[in->id])
        for (unsigned r = 0; r < TIMING_STALL_COUNT; r++) S->stalls[r] -= ti->stalls[r];
    scoreboard_lists(S, ti);
    return ti;
}

/* Entries of S->more for `mod`: a power of two at least twice its instructions that cannot
 * have S->insns' entry of their id (glue, ids out of range). */
static uint32_t extra_insns(const ir_module *mod)
{
    uint32_t n = 0, cap = 2;
    for (uint32_t f = 0; f < mod->nfuncs; f++)
        for (uint32_t i = 0; i < mod->funcs[f].ninsns; i++)
            n += mod->funcs[f].insns[i].glue || mod->funcs[f].insns[i].id >= mod->ninsns_total;
    while (cap < 2 * (uint64_t)n && cap < (1u << 31)) cap <<= 1;
    return cap;
}

/* ---- CTAs ---- */

static void warp_resident(tstate *S, uint32_t sm, uint64_t t, int delta)
{
    tsm *m = &S->sms[sm];
    if (delta > 0 && m->resident++ == 0)
        m->active_since = t;
    if (delta < 0 && --m->resident == 0)
        S->ts->sm_active_cycles += t - m->active_since;
}

int timing_age_scan;

/* Sets tsched.by_age of scheduler s: whether its entries whose warps are not done hold rising
 * ages in entry order (always 0 under timing_age_scan). Ages change only when a CTA starts
 * (cta_start); a warp that ends leaves the others' order as it was. */
static void sched_order_by_age(tstate *S, uint32_t s)
{
    tsched *q = &S->scheds[s];
    const uint64_t *age = S->rage + (size_t)s * S->per_sched;
    uint64_t last = 0;
    int first = 1;
    q->by_age = !timing_age_scan;
    if (!q->by_age)
        return;
    for (uint32_t k = 0; k < q->used; k++) {
        if (timing_entry_warp(S, s, k)->done)
            continue;
        if (!first && age[k] <= last) {
            q->by_age = 0;
            return;
        }
        first = 0;
        last = age[k];
    }
}

/* Starts the grid's next CTA in slot `slot` of SM `sm` at cycle t. Returns 0 or -1 (the
 * executor ran out of host memory). */
static int cta_start(tstate *S, uint32_t sm, uint32_t slot, uint64_t t)
{
    if (exec_session_start_cta(S->xs, sm, slot))
        return -1;
    tstate *M = S->main;
    tcta *c = &S->ctas[sm * S->ctas_per_sm + slot];
    c->busy = 1;
    c->warps_left = S->warps_per_cta;
    for (uint32_t i = 0; i < S->warps_per_cta; i++) {
        uint32_t j = slot * S->warps_per_cta + i;
        twarp *w = &S->warps[(size_t)sm * S->warps_per_sm + j];
        memset(w->reg_ready, 0, S->nregs * sizeof *w->reg_ready);
        memset(w->pred_ready, 0, S->npreds * sizeof *w->pred_ready);
        if (w->ctrl)
            memset(w->ctrl, 0, sizeof *w->ctrl);
        w->ew = exec_session_warp(S->xs, sm, slot, i);
        if (S->part)
            exec_warp_bind(S->xs, w->ew, S->part);
        w->cta = c;
        w->start = w->charged = t;
        w->mem_done = t;
        S->rage[w->cidx] = M->next_age++;
        w->blocked = w->done = w->yielding = 0;
        w->polls = 0;
        w->sched = sm * S->nsched_sm + j % S->nsched_sm;
        if (S->scheds[w->sched].used <= j / S->nsched_sm)
            S->scheds[w->sched].used = j / S->nsched_sm + 1;
        warp_resident(S, sm, t, 1);
        timing_prepare_next(S, w, exec_warp_next(w->ew), t, TIMING_STALL_NO_INSTRUCTION);
        if (w->blocked) { /* a CTA whose warp has no live lane: nothing to run */
            w->blocked = 0;
            w->done = 1;
            *w->rp = TIMING_NEVER;
            c->warps_left--;
            warp_resident(S, sm, t, -1);
            continue;
        }
        timing_sched_wake(S, w->sched, *w->rp);
    }
    for (uint32_t s = sm * S->nsched_sm; s < (sm + 1) * S->nsched_sm; s++)
        sched_order_by_age(S, s);
    return 0;
}

void timing_warp_finished(tstate *S, twarp *w, uint64_t end)
{
    w->done = 1;
    *w->rp = TIMING_NEVER;
    S->ts->warp_resident_cycles += end - w->start;
    tcta *c = w->cta;
    uint32_t idx = (uint32_t)(c - S->ctas);
    warp_resident(S, idx / S->ctas_per_sm, end, -1);
    if (end > S->end)
        S->end = end;
    if (--c->warps_left)
        return;
    c->busy = 0;
    /* the executor's slot is freed at the cycle's end, on one thread (timing_start_freed) */
    S->freed[S->nfreed++] = (tfreed){.idx = idx, .at = end};
}

/* qsort's order of freed CTA slots: by slot index, so by SM, then slot. */
static int freed_before(const void *a, const void *b)
{
    uint32_t x = ((const tfreed *)a)->idx, y = ((const tfreed *)b)->idx;
    return (x > y) - (x < y);
}

int timing_start_freed(tstate *M)
{
    /* the parts are blocks of consecutive SMs: part after part, each part's sorted, is SM and
     * slot order. Every slot is retired in the executor before any starts. */
    uint32_t any = 0;
    for (uint32_t p = 0; p < M->nparts; p++) {
        tstate *P = M->parts[p];
        if (!P->nfreed) /* the common case: no CTA ended in the cycle */
            continue;
        any = 1;
        qsort(P->freed, P->nfreed, sizeof *P->freed, freed_before);
        for (uint32_t i = 0; i < P->nfreed; i++)
            exec_session_retire_cta(M->xs, P->freed[i].idx / M->ctas_per_sm,
                                    P->freed[i].idx % M->ctas_per_sm);
    }
    for (uint32_t p = 0; any && p < M->nparts; p++) {
        tstate *P = M->parts[p];
        for (uint32_t i = 0; i < P->nfreed && M->ctas_started < M->total_ctas; i++) {
            uint32_t idx = P->freed[i].idx;
            M->ctas_started++;
            if (cta_start(P, idx / M->ctas_per_sm, idx % M->ctas_per_sm, P->freed[i].at))
                return -1;
        }
        P->nfreed = 0;
    }
    return 0;
}

/* ---- setting up a launch ---- */

/* Resident CTAs per SM under the timing model: the executor's limits (threads, CTAs, shared
 * memory) and the preset's warps and registers per SM (docs/timing.md, "Scheduling"). */
static uint32_t occupancy(const gpu_config *cfg, const exec_session_shape *sh)
{
    uint32_t n = sh->ctas_per_sm;
    uint32_t warps = sh->warps_per_cta;
    if (cfg->sm.max_warps_per_sm / warps < n)
        n = cfg->sm.max_warps_per_sm / warps;
    /* Registers: the entry function's register slots stand for its 32-bit registers per
     * thread, rounded up to 8 and at most 255; a warp's share is allocated in units of 256. */
    uint32_t regs = (sh->regs_per_thread + 7u) & ~7u;
    if (regs > 255)
        regs = 255;
    uint32_t per_warp = (regs * 32u + 255u) & ~255u;
    uint64_t per_cta = (uint64_t)per_warp * warps;
    if (per_cta && cfg->sm.registers_per_sm / per_cta < n)
        n = (uint32_t)(cfg->sm.registers_per_sm / per_cta);
    return n ? n : 1; /* the executor accepted one CTA; the registers of one always fit */
}

/* Scoreboard entries every warp needs: the most register slots and predicates of any function
 * of the module. */
static void scoreboard_size(const exec_program *p, const ir_module *mod, uint32_t *nregs,
                            uint32_t *npreds)
{
    *nregs = 1;
    *npreds = 1;
    for (uint32_t f = 0; f < mod->nfuncs; f++) {
        uint32_t r = exec_program_register_slots(p, f);
        if (r > *nregs)
            *nregs = r;
        if (mod->funcs[f].npreds > *npreds)
            *npreds = mod->funcs[f].npreds;
    }
}

/* A warp's scoreboard bytes (its registers' and predicates' ready cycles and reasons). */
static size_t scoreboard_bytes(const tstate *S)
{
    size_t per_warp = S->nregs * (sizeof(uint64_t) + 1) + S->npreds * (sizeof(uint64_t) + 1);
    return (per_warp + 7) & ~(size_t)7;
}

/* The bytes of the launch's state block (state_alloc). It is one block of
 * pages_alloc_dense (base/pages.h), on 2 MiB pages when it fills one: every warp's slot is
 * written as the block is laid out and the event loop reads them in no order, so 4 KiB pages
 * were a fault each (600 for the h100's 8,448 warp slots of a 1 Mi-element saxpy) and a host
 * TLB entry each. */
static size_t state_bytes(const tstate *S)
{
    size_t nw = (size_t)S->nsm * S->warps_per_sm;
    size_t ncompact = (size_t)S->nsched * S->per_sched;
    size_t bytes = nw * sizeof(twarp) + (size_t)S->nsm * S->ctas_per_sm * sizeof(tcta) +
                   S->nsm * sizeof(tsm) + S->nsched * (sizeof(tsched) + 8) +
                   ncompact * (8 + 8 + 1 + 1) + nw * scoreboard_bytes(S) + 64 +
                   ((size_t)S->ninsns + S->nmore + 1) * sizeof(tinsn) +
                   S->nsched * sizeof(tpark) + (size_t)S->nsm * S->ctas_per_sm * sizeof(tfreed);
    return bytes;
}

/* Allocates the state of one launch in one block. Returns 0 or -1. */
static int state_alloc(tstate *S)
{
    size_t nw = (size_t)S->nsm * S->warps_per_sm;
    size_t per_warp = scoreboard_bytes(S);
    size_t ncompact = (size_t)S->nsched * S->per_sched;
    size_t bytes = state_bytes(S);
    if (S->use_ctrl) {
        S->ctrls = calloc(nw, sizeof *S->ctrls);
        if (!S->ctrls)
            return -1;
    }
    uint8_t *b = pages_alloc_dense(bytes);
    if (!b)
        return -1;
    S->blocks = b;
    S->warps = (twarp *)b;
    b += nw * sizeof(twarp);
    S->key = (uint64_t *)b;
    b += S->nsched * sizeof(uint64_t);
    S->scheds = (tsched *)b;
    b += S->nsched * sizeof(tsched);
    S->ctas = (tcta *)b;
    b += (size_t)S->nsm * S->ctas_per_sm * sizeof(tcta);
    S->sms = (tsm *)b;
    b += S->nsm * sizeof(tsm);
    b = (uint8_t *)(((uintptr_t)b + 7) & ~(uintptr_t)7);
    S->rdy = (uint64_t *)b;
    b += ncompact * sizeof(uint64_t);
    S->rage = (uint64_t *)b;
    b += ncompact * sizeof(uint64_t);
    S->rpipe = b;
    b += ncompact;
    S->rthr = b;
    b += ncompact;
    b = (uint8_t *)(((uintptr_t)b + 7) & ~(uintptr_t)7);
    S->insns = (tinsn *)b;
    b += (size_t)S->ninsns * sizeof(tinsn);
    S->more = (tinsn *)b;
    b += (size_t)(S->nmore + 1) * sizeof(tinsn); /* an empty record after the last
                                                       (timing_insn_after) */
    b = (uint8_t *)(((uintptr_t)b + 7) & ~(uintptr_t)7);
    for (size_t i = 0; i < ncompact; i++) S->rdy[i] = TIMING_NEVER;
    for (size_t i = 0; i < nw; i++) {
        twarp *w = &S->warps[i];
        w->reg_ready = (uint64_t *)b;
        w->pred_ready = w->reg_ready + S->nregs;
        w->reg_why = (uint8_t *)(w->pred_ready + S->npreds);
        w->pred_why = w->reg_why + S->nregs;
        w->done = 1;
        uint32_t sm = (uint32_t)(i / S->warps_per_sm), j = (uint32_t)(i % S->warps_per_sm);
        w->cidx = (sm * S->nsched_sm + j % S->nsched_sm) * S->per_sched + j / S->nsched_sm;
        w->rp = &S->rdy[w->cidx];
        w->ctrl = S->ctrls ? &S->ctrls[i] : NULL;
        w->next_stalls = S->own;
        b += per_warp;
    }
    /* the current cycle's parked instructions and freed CTA slots (timing_issue.c) */
    S->park = (tpark *)b;
    b += S->nsched * sizeof(tpark);
    S->freed = (tfreed *)b;
    for (uint32_t s = 0; s < S->nsched; s++) {
        S->key[s] = TIMING_NEVER;
        S->scheds[s].last = UINT32_MAX;
        S->scheds[s].sm = s / S->nsched_sm;
        S->scheds[s].slot0 = &S->warps[(size_t)(s / S->nsched_sm) * S->warps_per_sm +
                                       s % S->nsched_sm];
    }
    return 0;
}

/* Adds part P's counters, stall rows and ends to the main state M's. */
static void merge_part(tstate *M, const tstate *P)
{
    for (unsigned r = 0; r < TIMING_STALL_COUNT; r++) M->stalls[r] += P->stalls[r] + P->own[r];
    for (uint32_t i = 0; P->insn_stalls && i < M->ninsns; i++)
        for (unsigned r = 0; r < TIMING_STALL_COUNT; r++)
            M->insn_stalls[i][r] += P->insn_stalls[i][r];
    M->ts->warp_resident_cycles += P->ts->warp_resident_cycles;
    M->ts->sm_active_cycles += P->ts->sm_active_cycles;
    if (P->end > M->end)
        M->end = P->end;
    if (P->mem_end > M->mem_end)
        M->mem_end = P->mem_end;
}

/* Fills the launch's statistics once it ended (M: the main state). A launch that stopped early
 * (a fault, a deadlock) still has resident warps: their cycles up to the end of the cycle it
 * stopped in are charged too, so that the stall reasons always sum to the resident
 * warp-cycles. */
static void finish_stats(tstate *M)
{
    uint64_t stop = M->cycle + 1;
    for (size_t i = 0; M->warps && i < (size_t)M->nsm * M->warps_per_sm; i++) {
        twarp *w = &M->warps[i];
        if (w->done)
            continue;
        uint32_t sm = (uint32_t)(i / M->warps_per_sm);
        tstate *P = timing_part_of(M, sm * M->nsched_sm);
        if (w->charged < stop)
            timing_settle(P, w, stop);
        P->ts->warp_resident_cycles += w->charged - w->start;
        if (w->charged > P->end)
            P->end = w->charged;
        w->done = 1;
        warp_resident(P, sm, w->charged, -1);
    }
    for (uint32_t p = 1; p < M->nparts; p++) merge_part(M, M->parts[p]);
    /* Every charge went to a row: the instructions' rows (their growth in this launch) and
     * S->own sum to the totals. */
    for (uint32_t i = 0; M->insns && M->insn_stalls && i < M->ninsns; i++)
        if (M->insns[i].in)
            for (unsigned r = 0; r < TIMING_STALL_COUNT; r++) M->stalls[r] += M->insn_stalls[i][r];
    for (unsigned r = 0; r < TIMING_STALL_COUNT; r++) M->stalls[r] += M->own[r];
    timing_stats *ts = M->ts;
    ts->enabled = 1;
    ts->cycles = M->end > M->mem_end ? M->end : M->mem_end;
    ts->max_warps_per_sm = M->cfg->sm.max_warps_per_sm;
    ts->sm_count = M->nsm;
    ts->clock_mhz = M->cfg->sm.clock_mhz;
}

/* 1 when every resident warp is blocked or has polled an open mbarrier phase many times since
 * the last phase completed: no phase will complete any more (docs/semantics.md, "mbarrier"). */
int timing_polling_deadlock(const tstate *S)
{
    size_t nw = (size_t)S->nsm * S->warps_per_sm;
    for (size_t i = 0; i < nw; i++) {
        const twarp *w = &S->warps[i];
        if (w->done || w->blocked)
            continue;
        if (w->poll_epoch != S->epoch || w->polls < TIMING_POLLS_STUCK)
            return 0;
    }
    return 1;
}

int timing_any_busy(const tstate *S)
{
    for (size_t i = 0; i < (size_t)S->nsm * S->ctas_per_sm; i++)
        if (S->ctas[i].busy)
            return 1;
    return 0;
}

static int start_grid(tstate *M)
{
    for (uint32_t k = 0; k < M->ctas_per_sm; k++)
        for (uint32_t sm = 0; sm < M->nsm && M->ctas_started < M->total_ctas; sm++) {
            M->ctas_started++;
            if (cta_start(timing_part_of(M, sm * M->nsched_sm), sm, k, 0))
                return -1;
        }
    return 0;
}

/* Fills the record of every instruction of the module (the parts copy them, and several
 * threads must not fill records as they go). */
static void fill_all(tstate *M, const exec_program *p, const ir_module *mod)
{
    for (uint32_t f = 0; f < mod->nfuncs; f++) {
        uint32_t n;
        const ir_insn *insns = exec_program_insns(p, f, &n);
        for (uint32_t i = 0; i < n; i++) timing_insn(M, &insns[i]);
    }
}

/* Part P's copy of a record's stall row: P's own row of the same instruction, or P->own. */
static uint64_t *part_row(const tstate *M, const tstate *P, uint64_t *row)
{
    if (!row || row == M->own)
        return row ? (uint64_t *)P->own : NULL;
    return P->insn_stalls[(timing_insn_stalls *)row - M->insn_stalls];
}

static void part_free(tstate *P)
{
    if (!P)
        return;
    if (P->cal) {
        timing_cal_free(P->cal);
        free(P->cal);
    }
    free(P->part_block);
    free(P);
}

/* Part `index` of the main state M (index >= 1): a copy of M with its own calendar, records,
 * stall rows, parked and freed lists, counters and executor part. NULL when host memory ran
 * out. */
static tstate *part_create(tstate *M, uint32_t index)
{
    tstate *P = malloc(sizeof *P);
    if (!P)
        return NULL;
    *P = *M;
    P->main = M;
    P->index = index;
    P->parts = NULL;
    P->blocks = NULL;
    P->due = NULL;
    P->due_mark = NULL;
    P->part = NULL;
    memset(&P->own_ts, 0, sizeof P->own_ts);
    P->ts = &P->own_ts;
    P->stalls = P->own_ts.stalls;
    memset(P->own, 0, sizeof P->own);
    size_t nrec = (size_t)M->ninsns + M->nmore + 1;
    size_t rows = M->insn_stalls ? (size_t)M->ninsns * sizeof(timing_insn_stalls) : 0;
    size_t bytes = nrec * sizeof(tinsn) + rows + M->nsched * sizeof(tpark) +
                   (size_t)M->nsm * M->ctas_per_sm * sizeof(tfreed);
    P->cal = calloc(1, sizeof *P->cal);
    P->part_block = calloc(1, bytes);
    if (!P->cal || !P->part_block) {
        part_free(P);
        return NULL;
    }
    timing_cal_reset(P->cal);
    uint8_t *b = P->part_block;
    P->insns = (tinsn *)b;
    memcpy(P->insns, M->insns, nrec * sizeof(tinsn)); /* M->more follows M->insns */
    P->more = P->insns + M->ninsns;
    b += nrec * sizeof(tinsn);
    P->insn_stalls = rows ? (timing_insn_stalls *)b : NULL;
    b += rows;
    P->park = (tpark *)b;
    b += M->nsched * sizeof(tpark);
    P->freed = (tfreed *)b;
    for (size_t i = 0; i < nrec; i++) P->insns[i].stalls = part_row(M, P, P->insns[i].stalls);
    for (unsigned i = 0; i < 2; i++) P->spare[i].stalls = part_row(M, P, P->spare[i].stalls);
    P->part = exec_part_create(M->xs, &P->mi, &P->now);
    if (!P->part) {
        part_free(P);
        return NULL;
    }
    P->run = exec_part_session(P->part);
    return P;
}

/* Splits the main state M in n parts (n >= 1; n = 1: M alone, its warps bound to the session).
 * Returns 0 or -1 (host memory). */
static int parts_create(tstate *M, uint32_t n)
{
    M->main = M;
    M->index = 0;
    M->run = M->xs;
    M->stop_s = UINT32_MAX;
    M->parts = calloc(n, sizeof *M->parts);
    M->part_by_sm = calloc(M->nsm, sizeof *M->part_by_sm);
    size_t extra = M->nsched * (sizeof(uint32_t) + sizeof(uint64_t));
    M->part_block = calloc(1, extra);
    if (!M->parts || !M->part_by_sm || !M->part_block)
        return -1;
    uint8_t *b = M->part_block;
    M->due_mark = (uint64_t *)b;
    b += M->nsched * sizeof(uint64_t);
    M->due = (uint32_t *)b;
    M->parts[0] = M;
    M->nparts = 1;
    if (n == 1)
        return 0;
    M->part = exec_part_create(M->xs, &M->mi, &M->now);
    if (!M->part)
        return -1;
    M->run = exec_part_session(M->part);
    for (uint32_t i = 1; i < n; i++) {
        M->parts[i] = part_create(M, i);
        if (!M->parts[i])
            return -1;
        M->nparts = i + 1;
    }
    M->nparts = n;
    for (uint32_t i = 1; i < n; i++) M->parts[i]->nparts = n;
    /* Blocks of consecutive SMs, so that no host cache line of the per-SM and per-scheduler
     * arrays but those at a block's edge is written by two threads, and the end of a cycle's
     * order (by scheduler) takes the parts one after the other. The grid's CTAs only ever run
     * on its first min(CTAs, SMs) SMs (start_grid, and freed slots take the next ones): those are
     * split evenly, the last part also taking the SMs that stay idle. */
    uint32_t active = M->total_ctas < M->nsm ? M->total_ctas : M->nsm;
    for (uint32_t sm = 0; sm < M->nsm; sm++) {
        uint32_t p = sm < active ? (uint32_t)((uint64_t)sm * n / active) : n - 1;
        M->part_by_sm[sm] = M->parts[p];
    }
    /* each warp slot's stall rows until its first instruction: its part's */
    for (size_t i = 0; i < (size_t)M->nsm * M->warps_per_sm; i++)
        M->warps[i].next_stalls =
            timing_part_of(M, (uint32_t)(i / M->warps_per_sm) * M->nsched_sm)->own;
    return 0;
}

/* Gives back the parts (their executor parts' counts go to the session). */
static void parts_destroy(tstate *M)
{
    for (uint32_t i = 1; M->parts && i < M->nparts; i++) {
        exec_part_destroy(M->xs, M->parts[i]->part);
        part_free(M->parts[i]);
    }
    exec_part_destroy(M->xs, M->part);
    free(M->parts);
    free(M->part_by_sm);
    free(M->part_block);
}

/* Scheduler turns in a cycle from which the next cycle runs on the parts' threads, and below
 * half of which it goes back to the main thread alone (docs/timing.md, "Host threads"): a
 * cycle's hand-overs cost some 3 microseconds on the development machine, a turn a few tenths
 * (matvec_cols_4k, 3.4 warp instructions a cycle: 1.3 s on one thread, 3.1 s on two with every
 * cycle handed over). The environment's GPUMEMSIM_HANDOVER_TURNS (a whole number) replaces
 * it: tests/threads_same.sh sets 0, so that every cycle goes through the hand-overs. Which
 * thread runs a part changes nothing the model computes. */
enum { TIMING_HANDOVER_TURNS = 32 };

static uint32_t handover_turns(void)
{
    const char *e = getenv("GPUMEMSIM_HANDOVER_TURNS");
    if (!e || !*e)
        return TIMING_HANDOVER_TURNS;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    return *end || v > UINT32_MAX ? TIMING_HANDOVER_TURNS : (uint32_t)v;
}

/* Host threads for a launch: those asked for, but no more than SMs or CTAs (more would only
 * wait). */
static uint32_t threads_for(const exec_machine *machine, uint32_t total_ctas)
{
    uint32_t n = machine->host_threads ? machine->host_threads : 1;
    if (n > machine->sm_count)
        n = machine->sm_count;
    if (n > total_ctas)
        n = total_ctas;
    return n ? n : 1;
}

int timing_run(timing_model *tm, exec_program *p, const ir_module *mod, memsys *ms,
               const exec_machine *machine, const exec_launch *launch, timing_policy policy,
               exec_stats *stats, exec_fault *fault, char **printf_out, timing_stats *ts,
               timing_insn_stalls *insn_stalls)
{
    memset(ts, 0, sizeof *ts);
    tstate S = {.cfg = &tm->cfg, .mem = tm->mem, .policy = policy, .ts = ts,
                .stalls = ts->stalls, .insn_stalls = insn_stalls, .ninsns = mod->ninsns_total,
                .nparts = 1};
    exec_launch el = *launch;
    el.on_access = timing_mem_on_access;
    el.access_user = &S.mi;
    S.mi.tm = tm->mem;
    el.clock = &S.now;
    int rc = exec_session_open(p, ms, machine, &el, stats, fault, &S.xs);
    if (rc)
        return rc;
    exec_session_shape sh;
    exec_session_shape_of(S.xs, &sh);
    S.nsm = machine->sm_count;
    S.nsched_sm = tm->cfg.sm.schedulers ? tm->cfg.sm.schedulers : 1;
    S.nsched = S.nsm * S.nsched_sm;
    S.entry_bytes = (size_t)S.nsched_sm * sizeof(twarp);
    S.ctas_per_sm = occupancy(&tm->cfg, &sh);
    S.warps_per_cta = sh.warps_per_cta;
    S.warps_per_sm = S.ctas_per_sm * S.warps_per_cta;
    S.total_ctas = sh.total_ctas;
    S.per_sched = (S.warps_per_sm + S.nsched_sm - 1) / S.nsched_sm;
    S.cal = &tm->cal;
    timing_cal_reset(S.cal);
    timing_mem_launch_begin(tm->mem);
    S.use_ctrl = mod->machine.scoreboards > 0;
    S.scan_avx2 = (uint8_t)timing_scan_has_avx2();
    scoreboard_size(p, mod, &S.nregs, &S.npreds);
    S.nmore = extra_insns(mod);
    S.sb_lines = S.nregs < 64 ? (S.nregs * (uint32_t)sizeof(uint64_t) + 63) / 64 : 8;
    S.el = &el;
    S.xstats = stats;
    S.handover_turns = handover_turns();
    S.limit = launch->max_warp_instructions;
    S.used0 = stats->warp_instructions;
    /* the runaway limit is the model's to apply, in an order that does not depend on the host
     * threads (timing_cycles) */
    exec_session_set_budget(S.xs, UINT64_MAX);
    int ours = 0;
    if (state_alloc(&S) || timing_mio_init(&S.mio, &tm->cfg, S.nsm)) {
        ours = 1;
    } else {
        fill_all(&S, p, mod);
        if (parts_create(&S, threads_for(machine, S.total_ctas)))
            ours = 1;
        else if (start_grid(&S) || timing_cycles(&S) || S.oom)
            ours = !exec_session_stopped(S.xs);
    }
    if (ours) {
        fault->rule = "TIMING-001";
        snprintf(fault->message, sizeof fault->message,
                 "out of host memory for the timing model's state of %u SMs x %u warps",
                 S.nsm, S.warps_per_sm);
    }
    finish_stats(&S);
    parts_destroy(&S);
    pages_free(S.blocks, state_bytes(&S));
    free(S.ctrls);
    timing_mio_fini(&S.mio);
    rc = exec_session_close(S.xs, printf_out);
    return ours ? -1 : rc;
}

/* The functional scheduler: rounds of turns, each round cut into phases so that the SMs can be
 * simulated on several host threads with results that do not depend on how many
 * (docs/architecture.md, "SMs on several host threads").
 *
 * A round: the free resident slots take the grid's next CTAs (slot order: k, then SM; chosen
 * on the calling thread, initialised in a start phase by the thread that takes each SM), every
 * live warp gets a turn of `quantum` instructions, and CTAs whose warps are all done retire. The
 * turns run in phases:
 *   parallel  every SM (each on whichever thread takes it) runs its warps in slot and warp order,
 *             each until its turn is used, it stops (barrier, exit, fault), or it parks before
 *             an instruction marked serial (exec_xinsn.serial) or a load that would reach the
 *             L2. Only the SM's own state changes: its warps, CTAs, shared memory, L1, constant
 *             and instruction caches, and the thread's copies of the counters; the L2 writes
 *             of its stores wait in the SM's log.
 *   logs      the logs are applied SM by SM in the order made: by every thread at once, each
 *             on its share of the L2's sets with the same writes in the same order per set
 *             (memsys_l2log.h), or by one thread where that does not hold.
 *   serial    one thread runs the next instruction of every parked warp in the fixed order of
 *             slot k, SM, warp, with the launch's own state: the L2, DRAM, printf and the
 *             device heap see the same sequence whatever the number of threads.
 *   loads     instead of serial, with two threads or more, when every parked warp waits on a
 *             plain load and two SMs or more have one: every thread runs the loads of whole
 *             SMs, each SM's in warp order, their L2 reads and L1 victims' write-backs logged
 *             in the SM's log and each load taking the bytes its read will return
 *             (memsys_l2log.h, memsys_ploads_begin);
 *             then the logs are applied in SM order as after a parallel phase, which leaves
 *             the L2 and DRAM as the serial order does.
 * The phases alternate until no warp of the round is parked, one resident slot at a time (the
 * warps of slot k of every SM). Faults in a parallel phase are ordered by (SM, slot, warp): the
 * lowest is the launch's fault.
 *
 * Hand-overs (base/gate.h): a phase is a stage of items (SMs, then the logs' parts) that any
 * thread takes; whoever finishes a stage's last item decides and opens the next (stage_end), so
 * a chain of stages runs without the calling thread, which is handed back only for a serial
 * phase, a stop or the round's end, and meanwhile takes items too. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/gate.h"
#include "exec/exec_internal.h"
#include "exec/exec_mbarrier.h"
#include "mem/memsys_l2log.h"

typedef struct window window;

/* Groups of consecutive SMs whose free register blocks form one stack each ("register blocks",
 * end_round): a fixed number, so that which block a CTA gets does not depend on the thread
 * count, and a multiple of the threads' blocks of SMs for 1, 2, 4 and 8 threads (set_orders),
 * so that a block stays with the thread whose SMs used it. */
enum { BLOCK_GROUPS = 8 };

/* What a phase's items are. A phase of PHASE_RUN or PHASE_LOADS with two threads or more has,
 * after one item per SM, one per part of the store logs' application (memsys_l2log.h): the
 * thread that finishes the last SM decides whether the logs go by parts (decide_logs), and a
 * part's item waits for that answer. The logs are thus applied in the phase that made them,
 * with no hand-over between. */
enum {
    PHASE_RUN,   /* the SMs run their warps; then the logs' parts */
    PHASE_START, /* the SMs initialise the CTAs chosen for their free slots */
    PHASE_LOADS, /* the SMs run their parked loads (memsys_ploads_begin); then the logs' parts */
};

/* How a phase's logs are applied (window.l2_how; 0: not decided yet). */
enum { L2_BY_PARTS = 1, L2_ONE_BY_ONE = 2 };

/* How a chain of stages hands back to the calling thread (run_chain). */
enum {
    CHAIN_SERIAL,     /* the serial phase is next (or, after starts, the first turns) */
    CHAIN_SLOTS_DONE, /* the round's slots have no turns left */
    CHAIN_STOP,       /* the launch stops (a fault, host memory) */
};

/* One host thread's side of the launch. Its warps see `rs`, a copy of the launch state with the
 * thread's own statistics, fault, instruction counts and memory tally (whose view is rs.ms). */
typedef struct worker {
    exec_run_state rs;
    exec_run_state srs;       /* rs as the serial phase's: no tally (loads are made, not parked),
                                 for the parked loads by SMs */
    exec_stats stats;
    exec_fault fault;
    uint64_t fault_key;       /* (SM, slot, warp) of the warp running at the thread's lowest fault
                                 (fault_hold); UINT64_MAX: none */
    uint32_t ran;             /* warps that took a turn in the current round */
    uint32_t loads_ran;       /* parked loads made in the phases of PHASE_LOADS */
    uint64_t start_key;       /* (slot, SM) of the lowest CTA start that failed; UINT64_MAX:
                                 none */
    exec_fault start_fault;   /* what each CTA start of the thread reports, read on a failure */
    uint32_t index;           /* in win->workers */
    uint8_t order[GATE_RANGES]; /* the gate's ranges in the order this thread claims from them
                                 (set_orders): its own SM range first, then the others', then
                                 its own part of the logs, then the others' */
    uint8_t norder;
    window *win;
    pthread_t thread;
} worker;

struct window {
    exec_run_state *rs;       /* the launch's own state */
    worker *workers;
    uint32_t nworkers;        /* workers[0] is the calling thread's; the others have threads */
    gate gate;                /* the stages' items (with two workers or more) */
    int phase;                /* what the open stage does (PHASE_*) */
    uint32_t stage_items;     /* items of the open stage */
    uint32_t nranges;         /* the gate's ranges: SM blocks, then parts (set_orders) */
    uint32_t starts[GATE_RANGES + 1];       /* their starts for stages with parts... */
    uint32_t starts_no_parts[GATE_RANGES + 1]; /* ...and for those without (PHASE_START) */
    atomic_uint stage_done;   /* of them done: the thread that does the last ends the stage */
    uint32_t local_next;      /* one worker: the stage's next item */
    atomic_uint events;       /* bumped at each stage opened and chain ended: what the calling
                                 thread waits on once it has found no item */
    atomic_uint event_sleepers;
    atomic_int chain_over;    /* the chain has ended, with chain_result (CHAIN_*) */
    int chain_result;
    memsys_l2_part **l2parts; /* one per worker (any thread may apply any part: their counters
                                 go to that thread's view), for memsys_store_logs_begin (NULL:
                                 one worker) */
    atomic_uint sms_done;     /* SM items of the phase done (decide_logs after the last) */
    atomic_uint l2_how;       /* L2_BY_PARTS, L2_ONE_BY_ONE; 0: not decided */
    atomic_uint l2_sleepers;  /* threads asleep on l2_how (gate_word_wait) */
    uint32_t slot, slot_end;  /* the resident slots whose warps the phases run now */
    uint32_t *start_linear;   /* per slot: the grid's CTA to start there; UINT32_MAX: none */
    uint32_t *free_blocks;    /* the register blocks no busy slot holds, in BLOCK_GROUPS
                                 stacks (block_stack), one per group of consecutive SMs, each
                                 with room for its SMs' slots; a stack's top (its end) is the
                                 block whose CTA ran last in the group ("register blocks") */
    uint32_t nfree_blocks[BLOCK_GROUPS]; /* blocks in each stack */
    uint32_t block_groups;    /* groups in use: min(BLOCK_GROUPS, SMs) */
    uint32_t starting;        /* slots with a CTA to start */
    memsys_store_log **logs;  /* per SM: the L2 writes of its stores in the parallel phase */
    atomic_int quit;          /* set before the last phase is opened: the threads return */
    int ploads;               /* the parked loads may run by SMs (memsys_ploads_prepare) */
    uint8_t *parked;          /* per SM with ploads, after a phase of PHASE_RUN: sm_parked */
};

/* What an SM's parked warps wait on, for the parked loads by SMs. */
enum { PARKED_NONE, PARKED_LOADS, PARKED_OTHER };

static uint64_t fault_key(uint32_t sm, uint32_t k, uint32_t warp)
{
    return (uint64_t)sm << 40 | (uint64_t)k << 20 | warp;
}

/* What SM `sm`'s warps of the slots the phases run now wait on (PARKED_*): a plain load,
 * which may run by SMs (memsys_l2log.h): not serial, of the ld family, memsys_ploads_plain. */
static uint8_t sm_parked(const window *win, uint32_t sm)
{
    const exec_run_state *rs = win->rs;
    uint8_t kind = PARKED_NONE;
    for (uint32_t k = win->slot; k < win->slot_end; k++) {
        uint32_t idx = sm * rs->ctas_per_sm + k;
        if (!rs->slot_busy[idx])
            continue;
        const exec_cta *cta = rs->slots[idx];
        for (uint32_t i = 0; i < cta->nwarps; i++) {
            const exec_warp *w = &cta->warps[i];
            if (!w->turn_left || w->state != WARP_READY)
                continue;
            const exec_xinsn *x = &w->code[w->pc];
            const ir_op_info *oi = ir_op_info_of((ir_opcode)x->in->op);
            if (x->serial || !oi || oi->family != IR_FAM_LD ||
                !memsys_ploads_plain(rs->ms, &x->in->mem))
                return PARKED_OTHER;
            kind = PARKED_LOADS;
        }
    }
    return kind;
}

/* The phase's next warp of SM `sm` with a turn left and ready, in slot and warp order, from
 * slot *k, warp *i on (the phase's slots: win->slot .. slot_end - 1): returns it with (*k, *i)
 * at its place, or NULL when there is none. The caller steps *i past it for the next call. */
static inline exec_warp *next_turn(const window *win, uint32_t sm, uint32_t *k, uint32_t *i)
{
    const exec_run_state *rs = win->rs;
    for (; *k < win->slot_end; (*k)++, *i = 0) {
        uint32_t idx = sm * rs->ctas_per_sm + *k;
        if (!rs->slot_busy[idx])
            continue;
        exec_cta *cta = rs->slots[idx];
        for (; *i < cta->nwarps; (*i)++) {
            exec_warp *w = &cta->warps[*i];
            if (w->turn_left && w->state == WARP_READY)
                return w;
        }
    }
    return NULL;
}

/* A worker's fault record, set aside while it runs an SM below the one that faulted. */
typedef struct held_fault {
    int held;
    exec_fault fault;
    uint64_t key;
} held_fault;

/* Before worker wk runs SM `sm` with state r (wk->rs or wk->srs, whose faults go to wk->fault):
 * when its fault so far is of a higher SM (a thread takes its own block of SMs, then others'
 * from their ends, so its SMs do not come in increasing order: set_orders), sets that fault
 * aside, so that this SM's first fault, lower in the (SM, slot, warp) order, is recorded if it
 * has one. A fault of a lower SM stays, as does r->faulted with it. */
static void fault_hold(worker *wk, exec_run_state *r, uint32_t sm, held_fault *h)
{
    h->held = 0;
    if (!r->faulted || wk->fault_key < fault_key(sm, 0, 0))
        return;
    h->held = 1;
    h->fault = wk->fault;
    h->key = wk->fault_key;
    r->faulted = 0;
    memset(&wk->fault, 0, sizeof wk->fault);
    wk->fault_key = UINT64_MAX;
}

/* After the SM: the fault set aside comes back unless the SM had one (a lower one). */
static void fault_release(worker *wk, exec_run_state *r, const held_fault *h)
{
    if (!h->held || r->faulted)
        return;
    wk->fault = h->fault;
    wk->fault_key = h->key;
    r->faulted = 1;
}

/* The parallel phase's work for SM `sm` on worker wk. */
static void run_sm(worker *wk, uint32_t sm)
{
    exec_run_state *rs = wk->win->rs;
    exec_warp *w;
    held_fault held;
    fault_hold(wk, &wk->rs, sm, &held);
    for (uint32_t k = wk->win->slot, i = 0; (w = next_turn(wk->win, sm, &k, &i)); i++) {
        w->run = &wk->rs;
        w->mctx.store_log = wk->win->logs[sm];
        uint32_t done = warp_run_parallel(w, w->turn_left);
        w->run = rs;
        wk->ran++;
        w->turn_left = w->state == WARP_READY ? w->turn_left - done : 0;
        if (wk->rs.faulted && wk->fault_key == UINT64_MAX)
            wk->fault_key = fault_key(sm, k, i);
    }
    fault_release(wk, &wk->rs, &held);
    /* Here rather than on the calling thread after the phase: the warps are still in this
     * thread's host caches, and the calling thread's work is what the others wait for. */
    if (wk->win->ploads)
        wk->win->parked[sm] = sm_parked(wk->win, sm);
}

/* The parked loads' phase's work for SM `sm` on worker wk: each parked warp's load, in warp
 * order, made as the serial phase would make it (through wk->srs), until one faults. */
static void loads_sm(worker *wk, uint32_t sm)
{
    exec_run_state *rs = wk->win->rs;
    /* After a fault of a lower SM on this thread, this SM's loads come after the launch's stop
     * in the serial order; a fault of a higher one is set aside meanwhile (fault_hold). */
    exec_warp *w;
    held_fault held;
    fault_hold(wk, &wk->srs, sm, &held);
    if (!wk->srs.faulted && !wk->srs.oom)
        for (uint32_t k = wk->win->slot, i = 0; (w = next_turn(wk->win, sm, &k, &i)); i++) {
            w->run = &wk->srs;
            warp_run(w, 1);
            w->run = rs;
            wk->loads_ran++;
            w->turn_left = w->state == WARP_READY ? w->turn_left - 1 : 0;
            if (wk->srs.faulted || wk->srs.oom) {
                if (wk->fault_key == UINT64_MAX)
                    wk->fault_key = fault_key(sm, k, i);
                break;
            }
        }
    fault_release(wk, &wk->srs, &held);
    memsys_ploads_sm_done(rs->ms, sm);
}

/* The start phase's work for SM `sm` on worker wk: the CTAs that begin_round chose for its
 * slots, in slot order, each ready for its first turn. A failure stops the SM's starts; the
 * thread keeps the lowest (slot, SM) failure's report, which is the one the serial order would
 * have met first. */
static void start_sm(worker *wk, uint32_t sm)
{
    window *win = wk->win;
    exec_run_state *rs = win->rs;
    uint32_t quantum = rs->machine->quantum;
    for (uint32_t k = 0; k < rs->ctas_per_sm; k++) {
        uint32_t idx = sm * rs->ctas_per_sm + k;
        if (win->start_linear[idx] == UINT32_MAX)
            continue;
        wk->start_fault.rule = NULL; /* each start reports its own failure */
        wk->rs.oom = 0;
        if (exec_init_cta(rs, &wk->rs, win->start_linear[idx], sm, k)) {
            uint64_t key = (uint64_t)k << 32 | sm;
            if (key < wk->start_key) {
                wk->start_key = key;
                wk->fault.rule = wk->start_fault.rule;
                memcpy(wk->fault.message, wk->start_fault.message, sizeof wk->fault.message);
            }
            break;
        }
        win->start_linear[idx] = UINT32_MAX;
        exec_cta *cta = rs->slots[idx];
        for (uint32_t i = 0; i < cta->nwarps; i++) cta->warps[i].turn_left = quantum;
    }
}

/* The start phase's item for SM `sm`: each failure's report goes to start_fault first. */
static void start_item(worker *wk, uint32_t sm)
{
    wk->rs.fault = &wk->start_fault; /* the lowest failure is copied from it to wk->fault */
    start_sm(wk, sm);
    wk->rs.fault = &wk->fault;
    wk->rs.oom = 0; /* a failed start is told by start_key */
}

/* Whether a thread's parked load faulted or ran out of memory in the phase (its SMs are done). */
static int loads_stopped(const window *win)
{
    for (uint32_t t = 0; t < win->nworkers; t++)
        if (win->workers[t].srs.faulted || win->workers[t].srs.oom)
            return 1;
    return 0;
}

/* On the thread that finished the phase's last SM, every SM's log complete (sms_done's
 * acquire): whether the logs go by parts (memsys_store_logs_begin), told to the parts' items.
 * After the parked loads, the L2 is read at once again first (the parts' views copy its read
 * hook), and a fault stops the launch before the logs: they are not applied. */
static void decide_logs(window *win)
{
    exec_run_state *rs = win->rs;
    unsigned how = L2_ONE_BY_ONE;
    int stopped = 0;
    if (win->phase == PHASE_LOADS) {
        memsys_ploads_end(rs->ms);
        stopped = loads_stopped(win);
    }
    if (!stopped && memsys_store_logs_begin(rs->ms, win->l2parts, win->nworkers, win->logs,
                                            rs->machine->sm_count))
        how = L2_BY_PARTS;
    gate_word_set(&win->l2_how, &win->l2_sleepers, how);
}

/* After a phase of PHASE_RUN or PHASE_LOADS: the L2 writes of the SMs' stores (and the loads'
 * reads), SM by SM in the order made: merged from the parts when decide_logs chose them, else
 * applied one log after the other here. Returns 1 (the launch stops, out of memory) when one
 * failed. */
static int apply_logs(window *win)
{
    exec_run_state *rs = win->rs;
    uint32_t nsm = rs->machine->sm_count, failed = UINT32_MAX;
    if (win->nworkers > 1 &&
        atomic_load_explicit(&win->l2_how, memory_order_relaxed) == L2_BY_PARTS) {
        memsys_store_logs_finish(rs->ms, win->l2parts, win->nworkers, win->logs, nsm, &failed);
    } else {
        for (uint32_t sm = 0; sm < nsm && failed == UINT32_MAX; sm++)
            if (memsys_store_log_apply(rs->ms, win->logs[sm]))
                failed = sm;
    }
    if (failed == UINT32_MAX)
        return 0;
    exec_oom(rs, rs->fault, "EXEC-NOMEM-004", "out of host memory for the L2 writes of the "
             "stores of SM %u", failed);
    return 1;
}

/* After a parallel phase: the lowest (SM, slot, warp) fault becomes the launch's, and a host
 * allocation failure on any thread stops the launch. Returns 1 when the launch must stop. */
static int gather_faults(window *win)
{
    exec_run_state *rs = win->rs;
    worker *first = NULL;
    for (uint32_t t = 0; t < win->nworkers; t++) {
        worker *wk = &win->workers[t];
        if (wk->rs.faulted && (!first || wk->fault_key < first->fault_key))
            first = wk;
        if (wk->rs.oom) {
            rs->oom = 1;
            if (!rs->fault->rule && wk->fault.rule)
                *rs->fault = wk->fault;
        }
    }
    if (first && !rs->oom) {
        *rs->fault = first->fault;
        rs->faulted = 1;
    }
    return rs->faulted || rs->oom;
}

static uint64_t issued(const window *win)
{
    uint64_t n = win->rs->stats->warp_instructions;
    for (uint32_t t = 0; t < win->nworkers; t++) n += win->workers[t].stats.warp_instructions;
    return n;
}

/* Runs, on the calling thread and in slot, SM and warp order, every warp that has some of its
 * turn left and is ready: `whole` its whole turn, else one instruction. *ran (OUT) counts them.
 * Returns 1 when the launch must stop (fault, no memory), else 0. */
static int run_in_order(window *win, int whole, uint32_t *ran)
{
    exec_run_state *rs = win->rs;
    uint32_t nsm = rs->machine->sm_count;
    *ran = 0;
    rs->clock_now = issued(win);
    for (uint32_t k = win->slot; k < win->slot_end; k++)
        for (uint32_t sm = 0; sm < nsm; sm++) {
            uint32_t idx = sm * rs->ctas_per_sm + k;
            if (!rs->slot_busy[idx])
                continue;
            exec_cta *cta = rs->slots[idx];
            for (uint32_t i = 0; i < cta->nwarps; i++) {
                exec_warp *w = &cta->warps[i];
                if (!w->turn_left || w->state != WARP_READY)
                    continue;
                (*ran)++;
                warp_run(w, whole ? w->turn_left : 1);
                w->turn_left = w->state == WARP_READY && !whole ? w->turn_left - 1 : 0;
                rs->mbar_polls += w->state == WARP_YIELD;
                if (rs->faulted || rs->oom)
                    return 1;
            }
        }
    return 0;
}

/* After a phase of PHASE_RUN: whether its parked warps all wait on a plain load (sm_parked,
 * which each SM's thread noted at the end of its turns). Returns how many SMs have such
 * warps, or UINT32_MAX when some parked warp waits on anything else. */
static uint32_t parked_plain_loads(const window *win)
{
    uint32_t sms = 0;
    for (uint32_t sm = 0; sm < win->rs->machine->sm_count; sm++) {
        if (win->parked[sm] == PARKED_OTHER)
            return UINT32_MAX;
        sms += win->parked[sm] == PARKED_LOADS;
    }
    return sms;
}

/* Opens a stage of phase `phase` (PHASE_*): one item per SM, then, with two workers or more
 * and logs to apply, one per part of the logs. Called by the calling thread to begin a chain,
 * or by whichever thread ended the stage before (stage_end), all of whose items are done. */
static void open_stage(window *win, int phase)
{
    uint32_t items = win->rs->machine->sm_count;
    win->phase = phase;
    if (win->nworkers > 1 && phase != PHASE_START) {
        items += win->nworkers;
        atomic_store_explicit(&win->sms_done, 0, memory_order_relaxed);
        atomic_store_explicit(&win->l2_how, 0, memory_order_relaxed);
    }
    win->stage_items = items;
    atomic_store_explicit(&win->stage_done, 0, memory_order_relaxed);
    if (win->nworkers == 1) {
        win->local_next = 0;
        return;
    }
    /* blocks of SMs, then parts (set_orders): each thread claims its own first */
    gate_open_ranges(&win->gate, phase == PHASE_START ? win->starts_no_parts : win->starts,
                     win->nranges);
    /* the calling thread may be waiting for the chain's end: it takes items too */
    gate_word_bump(&win->events, &win->event_sleepers);
}

/* Ends the chain of stages with `result` (CHAIN_*): the calling thread goes on. */
static void end_chain(window *win, int result)
{
    win->chain_result = result;
    atomic_store_explicit(&win->chain_over, 1, memory_order_release);
    gate_word_bump(&win->events, &win->event_sleepers);
}

/* Before a stage of PHASE_LOADS: the workers' counts cleared, the loads logged. */
static void begin_loads(window *win)
{
    for (uint32_t t = 0; t < win->nworkers; t++) {
        worker *wk = &win->workers[t];
        wk->loads_ran = 0;
        wk->srs.faulted = wk->srs.oom = 0;
    }
    memsys_ploads_begin(win->rs->ms, win->logs);
}

/* After a stage of PHASE_LOADS: the lowest fault, then the logs. *ran (OUT): the warps that
 * ran. Returns 1 when the launch must stop, else 0. */
static int end_loads(window *win, uint32_t *ran)
{
    memsys_ploads_end(win->rs->ms); /* decide_logs did, on some thread; here for one worker */
    *ran = 0;
    for (uint32_t t = 0; t < win->nworkers; t++) {
        worker *wk = &win->workers[t];
        *ran += wk->loads_ran;
        wk->rs.faulted |= wk->srs.faulted;
        wk->rs.oom |= wk->srs.oom;
    }
    return gather_faults(win) || apply_logs(win);
}

/* The next resident slot for the phases; 0 when the round has no more. */
static int next_slot(window *win)
{
    if (win->slot + 1 >= win->rs->ctas_per_sm)
        return 0;
    win->slot++;
    win->slot_end = win->slot + 1;
    return 1;
}

/* After a stage's last item, on the thread that did it: what comes next, decided as the calling
 * thread between phases would (the same code on the same state, whichever thread runs it):
 * after the SMs' turns, the parked loads by SMs (two SMs or more with plain loads: one SM would
 * keep the others idle), the next slot when nothing parked, else the serial phase; after the
 * loads, the next turns. Opening the next stage here saves a hand-over to the calling thread
 * and back. */
static void stage_end(window *win)
{
    uint32_t ran;
    switch (win->phase) {
    case PHASE_START:
        end_chain(win, CHAIN_SERIAL);
        return;
    case PHASE_RUN:
        if (apply_logs(win) || gather_faults(win)) {
            end_chain(win, CHAIN_STOP);
            return;
        }
        ran = win->ploads ? parked_plain_loads(win) : UINT32_MAX;
        if (ran != UINT32_MAX && ran >= 2) {
            begin_loads(win);
            open_stage(win, PHASE_LOADS);
        } else if (ran == 0) { /* nothing parked: the serial phase would run nothing */
            if (next_slot(win))
                open_stage(win, PHASE_RUN);
            else
                end_chain(win, CHAIN_SLOTS_DONE);
        } else {
            end_chain(win, CHAIN_SERIAL);
        }
        return;
    default:
        if (end_loads(win, &ran))
            end_chain(win, CHAIN_STOP);
        else if (ran || next_slot(win))
            open_stage(win, PHASE_RUN);
        else
            end_chain(win, CHAIN_SLOTS_DONE);
    }
}

/* Takes the open stage's next item for worker wk, in its order of the ranges; returns 0 when
 * none is left. */
static int claim_item(worker *wk, uint32_t *item)
{
    window *win = wk->win;
    if (win->nworkers > 1)
        return gate_claim_ordered(&win->gate, wk->order, wk->norder, item);
    if (win->local_next >= win->stage_items)
        return 0;
    *item = win->local_next++;
    return 1;
}

/* Item `item` of the phase open on worker wk: an SM's work, or (after the SMs) a part of the
 * logs, which waits until decide_logs has answered. */
static void do_item(worker *wk, uint32_t item)
{
    window *win = wk->win;
    uint32_t nsm = win->rs->machine->sm_count;
    if (item >= nsm) {
        if (gate_word_wait(&win->l2_how, &win->l2_sleepers, 0) == L2_BY_PARTS)
            memsys_store_logs_apply_part(win->l2parts[item - nsm], win->logs, nsm, item - nsm,
                                         win->nworkers, wk->rs.ms);
        return;
    }
    if (win->phase == PHASE_START) {
        start_item(wk, item);
        return;
    }
    if (win->phase == PHASE_RUN)
        run_sm(wk, item);
    else
        loads_sm(wk, item);
    if (win->nworkers > 1 &&
        atomic_fetch_add_explicit(&win->sms_done, 1, memory_order_acq_rel) + 1 == nsm)
        decide_logs(win);
}

/* Takes items until none is left, those of the stages that follow included; whoever does a
 * stage's last item ends the stage. */
static void take_items(worker *wk)
{
    window *win = wk->win;
    uint32_t item;
    while (claim_item(wk, &item)) {
        uint32_t items = win->stage_items; /* the stage cannot end before this item is done */
        do_item(wk, item);
        if (atomic_fetch_add_explicit(&win->stage_done, 1, memory_order_acq_rel) + 1 == items)
            stage_end(win);
    }
}

static void *worker_main(void *arg)
{
    worker *wk = arg;
    window *win = wk->win;
    unsigned seen = 0;
    for (;;) {
        seen = gate_wait_open(&win->gate, seen);
        if (atomic_load_explicit(&win->quit, memory_order_relaxed))
            return NULL;
        take_items(wk);
    }
}

/* Runs a chain of stages from one of phase `phase` on every worker, the calling thread's
 * included, until a stage's end hands back to the calling thread (not until every thread has
 * looked: a thread that comes late finds no item left). Returns the chain's result (CHAIN_*). */
static int run_chain(window *win, int phase)
{
    atomic_store_explicit(&win->chain_over, 0, memory_order_relaxed);
    open_stage(win, phase);
    for (;;) {
        /* read before looking for items: a stage opened or a chain ended after it changes it */
        unsigned seen = atomic_load_explicit(&win->events, memory_order_acquire);
        take_items(&win->workers[0]);
        if (atomic_load_explicit(&win->chain_over, memory_order_acquire))
            return win->chain_result;
        gate_word_wait(&win->events, &win->event_sleepers, seen);
    }
}


/* Adds the workers' statistics of the round to the launch's. */
static void gather_stats(window *win)
{
    for (uint32_t t = 0; t < win->nworkers; t++)
        exec_stats_gather(win->rs->stats, &win->workers[t].stats);
}

/* The stack of free register blocks of SM sm's group: its base in win->free_blocks, and in *n
 * its count. Group g holds SMs floor(g x nsm / groups) .. floor((g + 1) x nsm / groups) - 1,
 * as set_orders cuts the threads' blocks of SMs, and has room for their slots (each SM keeps
 * ctas_per_sm blocks between its slots and its group's stack). */
static uint32_t *block_stack(window *win, uint32_t sm, uint32_t **n)
{
    exec_run_state *rs = win->rs;
    uint64_t nsm = rs->machine->sm_count, groups = win->block_groups;
    /* the last g with floor(g x nsm / groups) <= sm */
    uint32_t g = (uint32_t)((groups * (sm + 1) - 1) / nsm);
    uint32_t first_sm = (uint32_t)(g * nsm / groups);
    *n = &win->nfree_blocks[g];
    return win->free_blocks + (size_t)first_sm * rs->ctas_per_sm;
}

/* Pushes the register block of slot idx (on SM sm) onto its group's stack. */
static void block_free(window *win, uint32_t sm, uint32_t idx)
{
    uint32_t *n;
    uint32_t *stack = block_stack(win, sm, &n);
    stack[(*n)++] = win->rs->reg_block[idx];
}

/* Gives slot idx (on SM sm) the block on top of its group's stack. */
static void block_take(window *win, uint32_t sm, uint32_t idx)
{
    uint32_t *n;
    uint32_t *stack = block_stack(win, sm, &n);
    win->rs->reg_block[idx] = stack[--*n];
}

/* Chooses the CTAs that free slots start (the grid's next ones, in slot order: k, then SM;
 * start_phase initialises them) and gives every live warp a turn; *turns (OUT) counts them. */
static void begin_round(window *win, uint32_t *turns)
{
    exec_run_state *rs = win->rs;
    *turns = 0;
    uint32_t nsm = rs->machine->sm_count, quantum = rs->machine->quantum;
    for (uint32_t k = 0; k < rs->ctas_per_sm; k++)
        for (uint32_t sm = 0; sm < nsm; sm++) {
            uint32_t idx = sm * rs->ctas_per_sm + k;
            if (!rs->slot_busy[idx] && rs->next_cta < rs->total_ctas) {
                win->start_linear[idx] = rs->next_cta++;
                block_take(win, sm, idx);
                win->starting++;
                rs->slot_busy[idx] = 1;
                rs->resident++;
                *turns += rs->nwarps; /* each warp of a new CTA is ready for a whole turn */
                continue;
            }
            if (!rs->slot_busy[idx])
                continue;
            exec_cta *cta = rs->slots[idx];
            for (uint32_t i = 0; i < cta->nwarps; i++) {
                exec_warp *w = &cta->warps[i];
                if (w->state == WARP_YIELD) /* its round is over: ready again */
                    w->state = WARP_READY;
                w->turn_left = w->state == WARP_DONE || w->state == WARP_FAULTED ? 0 : quantum;
                *turns += w->turn_left != 0;
            }
        }
}

/* After a start phase in which some CTA could not start (out of memory): the state the serial
 * starts would have left, which stopped at the first failure in slot order (k, then SM): that
 * CTA and those after it never started, and its report is the launch's. */
static void start_failed(window *win, uint64_t key, const exec_fault *f)
{
    exec_run_state *rs = win->rs;
    uint32_t nsm = rs->machine->sm_count;
    for (uint32_t k = 0; k < rs->ctas_per_sm; k++)
        for (uint32_t sm = 0; sm < nsm; sm++) {
            uint32_t idx = sm * rs->ctas_per_sm + k;
            if (win->start_linear[idx] == UINT32_MAX)
                continue;
            if (((uint64_t)k << 32 | sm) >= key) {
                if (((uint64_t)k << 32 | sm) == key)
                    rs->next_cta = win->start_linear[idx] + 1;
                rs->slot_busy[idx] = 0;
                rs->resident--;
                block_free(win, sm, idx);
            }
            win->start_linear[idx] = UINT32_MAX;
        }
    rs->oom = 1;
    if (!rs->fault->rule) {
        rs->fault->rule = f->rule;
        memcpy(rs->fault->message, f->message, sizeof rs->fault->message);
    }
}

/* Initialises the CTAs begin_round chose, each SM's on whichever thread takes it. Returns 1
 * when one could not start (the launch stops), else 0. */
static int start_phase(window *win)
{
    if (!win->starting)
        return 0;
    run_chain(win, PHASE_START);
    win->starting = 0;
    const worker *first = NULL;
    for (uint32_t t = 0; t < win->nworkers; t++)
        if (win->workers[t].start_key != UINT64_MAX &&
            (!first || win->workers[t].start_key < first->start_key))
            first = &win->workers[t];
    if (!first)
        return 0;
    start_failed(win, first->start_key, &first->fault);
    return 1;
}

/* Retires the CTAs whose warps are all done, in the order their slots' phases ran (slot k,
 * then SM), so that their register blocks go back to their groups' stacks with the last one
 * run on top. Returns how many.
 *
 * Register blocks. Which block of the register arena holds a CTA's entry registers is invisible
 * to the model (values, counters and cycles do not depend on it; PTX leaves a register undefined
 * until written), so the functional window hands a starting CTA the block freed last in its
 * group of SMs (BLOCK_GROUPS) rather than its slot's own: the first phases of a round then
 * write registers that the last phases of the round before left in the host's caches, where a
 * slot's own block was last written a whole round earlier (all the resident CTAs' registers and
 * lines later) and each first write missed them (issue 13 item 1; bench/README.md, "Session 18:
 * lead"). Within a group, a block stays with the SMs of one thread's block of SMs, in that
 * core's caches (a single stack for all SMs handed the high SMs' blocks, the other thread's, to
 * the low SMs at each round; session 21). The choice is made by the calling thread in slot
 * order, with a fixed number of groups, so it is the same for every thread count. */
static uint32_t end_round(window *win)
{
    exec_run_state *rs = win->rs;
    uint32_t retired = 0, nsm = rs->machine->sm_count;
    for (uint32_t k = 0; k < rs->ctas_per_sm; k++)
        for (uint32_t sm = 0; sm < nsm; sm++) {
            uint32_t idx = sm * rs->ctas_per_sm + k;
            if (rs->slot_busy[idx] && rs->slots[idx]->warps_done == rs->slots[idx]->nwarps) {
                rs->slot_busy[idx] = 0;
                rs->resident--;
                retired++;
                block_free(win, sm, idx);
            }
        }
    return retired;
}

/* A round that could reach the runaway limit runs as the serial scheduler always did: each warp
 * its whole turn in slot, SM and warp order, with the instructions left under the limit as the
 * budget, so that the warp that meets it faults at exactly that instruction (EXEC-LIMIT-001).
 * Returns what round_of_turns does. */
static uint32_t serial_round(window *win, uint64_t left)
{
    exec_run_state *rs = win->rs;
    uint32_t ran;
    win->slot = 0;
    win->slot_end = rs->ctas_per_sm;
    rs->budget = left;
    if (run_in_order(win, 1, &ran))
        return UINT32_MAX;
    rs->budget = UINT64_MAX;
    return ran + end_round(win);
}

/* Ends a round that stops the launch (a fault, host memory exhausted): the instructions its
 * warps ran before it stopped still count in the launch's statistics. Returns UINT32_MAX. */
static uint32_t stopped_round(window *win)
{
    gather_stats(win);
    return UINT32_MAX;
}

/* One round. Returns the warps that took a turn plus the CTAs retired (0: nothing could run),
 * or UINT32_MAX when the launch must stop. */
static uint32_t round_of_turns(window *win, uint64_t start)
{
    exec_run_state *rs = win->rs;
    uint32_t turns;
    begin_round(win, &turns);
    if (start_phase(win))
        return stopped_round(win);
    uint64_t limit = rs->launch->max_warp_instructions;
    uint64_t used = rs->stats->warp_instructions - start;
    if (limit && used + (uint64_t)turns * rs->machine->quantum > limit)
        return serial_round(win, limit > used ? limit - used : 0);
    uint32_t ran = 0;
    for (uint32_t t = 0; t < win->nworkers; t++) win->workers[t].ran = 0;
    /* Slot by slot: a phase runs the warps of one resident slot of every SM, so that they keep
     * their registers and lines in the host's caches from one phase to the next (all slots at
     * once made the stores of aos_update_1m miss the host's caches on the L2 lines their loads
     * had just filled: 33% slower on one thread). */
    win->slot = 0;
    win->slot_end = 1;
    for (;;) {
        /* the turns, with the parked loads by SMs, up to the next serial phase */
        int result = run_chain(win, PHASE_RUN);
        if (result == CHAIN_STOP)
            return stopped_round(win);
        if (result == CHAIN_SLOTS_DONE)
            break;
        uint32_t parked;
        if (run_in_order(win, 0, &parked))
            return stopped_round(win);
        if (!parked && !next_slot(win))
            break;
    }
    for (uint32_t t = 0; t < win->nworkers; t++) ran += win->workers[t].ran;
    gather_stats(win);
    return ran + end_round(win);
}

static int worker_init(window *win, worker *wk)
{
    exec_run_state *rs = win->rs;
    wk->win = win;
    wk->fault_key = UINT64_MAX;
    wk->start_key = UINT64_MAX;
    memset(&wk->start_fault, 0, sizeof wk->start_fault);
    int rc = exec_run_copy_init(&wk->rs, rs, &wk->stats, &wk->fault);
    wk->rs.clock = &rs->clock_now;
    wk->srs = wk->rs;
    wk->srs.tally = NULL;
    if (wk->rs.tally && win->l2parts)
        win->l2parts[wk->index] = memsys_l2_part_create(rs->ms, wk->rs.ms);
    return rc == 0 && (!win->l2parts || win->l2parts[wk->index]) ? 0 : -1;
}

/* Adds a worker's instruction counts and memory counters to the launch's and frees them. */
static void worker_fini(window *win, worker *wk)
{
    exec_run_copy_fini(win->rs, &wk->rs);
    if (win->l2parts) {
        memsys_l2_part_destroy(win->l2parts[wk->index]);
        win->l2parts[wk->index] = NULL;
    }
}

/* The gate's ranges for win->nworkers workers (open_stage) and each worker's order of them:
 * one block of consecutive SMs per worker and one range per part (up to GATE_RANGES / 2 each;
 * with more workers, workers share blocks and the parts form one range), worker t's own block
 * and part first, then the next ones' (their SMs from the end of their blocks). So an SM's
 * warps, L1 and log, and a part's L2 sets, stay in the host caches of the core that had them
 * the stage before. Which thread runs an item never changes the results. */
static void set_orders(window *win)
{
    uint32_t n = win->nworkers, half = GATE_RANGES / 2, nsm = win->rs->machine->sm_count;
    uint32_t sm_ranges = n < half ? n : half, part_ranges = n <= half ? n : 1;
    win->nranges = sm_ranges + part_ranges;
    for (uint32_t r = 0; r <= sm_ranges; r++)
        win->starts[r] = win->starts_no_parts[r] = (uint32_t)((uint64_t)r * nsm / sm_ranges);
    for (uint32_t j = 1; j <= part_ranges; j++) {
        win->starts[sm_ranges + j] = nsm + (part_ranges == 1 ? n : j);
        win->starts_no_parts[sm_ranges + j] = nsm;
    }
    for (uint32_t t = 0; t < n; t++) {
        worker *wk = &win->workers[t];
        uint32_t k = 0;
        /* the others' ranges from their ends (gate_claim_ordered) */
        for (uint32_t i = 0; i < sm_ranges; i++)
            wk->order[k++] = (uint8_t)((t + i) % sm_ranges | (i ? GATE_FROM_END : 0));
        for (uint32_t i = 0; i < part_ranges; i++)
            wk->order[k++] = (uint8_t)(sm_ranges + (t + i) % part_ranges);
        wk->norder = (uint8_t)k;
    }
}

/* Starts workers 1..n-1; returns how many workers run (fewer when a thread could not start:
 * the results are the same). */
static uint32_t start_threads(window *win, uint32_t n)
{
    uint32_t t = 1;
    for (; t < n; t++)
        if (pthread_create(&win->workers[t].thread, NULL, worker_main, &win->workers[t]))
            break;
    return t;
}

static void stop_threads(window *win)
{
    if (win->nworkers < 2)
        return;
    atomic_store_explicit(&win->quit, 1, memory_order_relaxed);
    gate_open(&win->gate, 0);
    for (uint32_t t = 1; t < win->nworkers; t++) pthread_join(win->workers[t].thread, NULL);
}

/* The rounds until the launch ends. */
static void run_rounds(window *win)
{
    exec_run_state *rs = win->rs;
    uint64_t start = rs->stats->warp_instructions;
    uint32_t polling_rounds = 0; /* in a row, in which every warp that ran only polled */
    for (;;) {
        uint64_t phases = rs->mbar_phases;
        rs->mbar_polls = 0;
        uint32_t ran = round_of_turns(win, start);
        if (ran == UINT32_MAX)
            return;
        exec_session_progress(rs);
        if (!rs->resident && rs->next_cta >= rs->total_ctas)
            return;
        /* Rounds in which every warp that ran ended its turn polling an mbarrier phase that
         * stayed open change nothing any warp waits for: after EXEC_MBAR_POLLING_ROUNDS of them
         * in a row, no phase will ever complete (docs/semantics.md, "mbarrier"). */
        polling_rounds = ran && ran == rs->mbar_polls && rs->mbar_phases == phases
                             ? polling_rounds + 1 : 0;
        if (!ran || polling_rounds == EXEC_MBAR_POLLING_ROUNDS) {
            exec_report_deadlock(rs);
            return;
        }
    }
}

static void free_logs(window *win)
{
    if (win->logs)
        for (uint32_t sm = 0; sm < win->rs->machine->sm_count; sm++)
            memsys_store_log_destroy(win->logs[sm]);
    free(win->logs);
}

void exec_window_run(exec_run_state *rs, uint32_t threads)
{
    /* More threads than SMs with work would only wait. */
    uint32_t nsm = rs->machine->sm_count;
    if (threads > nsm)
        threads = nsm;
    if (threads > rs->total_ctas)
        threads = rs->total_ctas;
    if (threads < 1)
        threads = 1;
    window win = {.rs = rs, .nworkers = 1};
    win.workers = calloc(threads, sizeof *win.workers);
    win.logs = calloc(nsm, sizeof *win.logs);
    win.start_linear = malloc(rs->nslots * sizeof *win.start_linear);
    if (win.start_linear)
        memset(win.start_linear, 0xff, rs->nslots * sizeof *win.start_linear);
    win.free_blocks = malloc(rs->nslots * sizeof *win.free_blocks);
    /* The free slots' own blocks, each group's slot (0, first SM)'s on top: the first round
     * starts each CTA in its slot's own block, as the timing model's starts do. */
    win.block_groups = nsm < BLOCK_GROUPS ? nsm : BLOCK_GROUPS;
    for (uint32_t k = rs->ctas_per_sm; win.free_blocks && k-- > 0;)
        for (uint32_t sm = nsm; sm-- > 0;)
            if (!rs->slot_busy[sm * rs->ctas_per_sm + k])
                block_free(&win, sm, sm * rs->ctas_per_sm + k);
    if (threads > 1)
        win.l2parts = calloc(threads, sizeof *win.l2parts);
    int ok = win.workers != NULL && win.logs != NULL && win.start_linear != NULL &&
             win.free_blocks != NULL &&
             (threads == 1 || win.l2parts != NULL);
    /* One thread takes the SMs in order and nothing reads the L2 in a parallel phase: its
     * stores may write the L2 at once, in the order the logs would (immediate logs). */
    for (uint32_t sm = 0; ok && sm < nsm; sm++)
        ok = (win.logs[sm] = memsys_store_log_create(threads == 1)) != NULL;
    for (uint32_t t = 0; ok && t < threads; t++) {
        win.workers[t].index = t;
        ok = worker_init(&win, &win.workers[t]) == 0;
    }
    if (!ok) {
        if (win.workers)
            for (uint32_t t = 0; t < threads; t++) worker_fini(&win, &win.workers[t]);
        free(win.workers);
        free(win.l2parts);
        free(win.start_linear);
        free(win.free_blocks);
        free_logs(&win);
        exec_oom(rs, rs->fault, "EXEC-NOMEM-004", "out of host memory for the per-thread "
                 "counters of %u host threads", threads);
        return;
    }
    /* The parked loads may run by SMs where nobody reads their served records (no access
     * observer): the stores from now on note the lines they may leave dirty in an L1. */
    win.parked = threads > 1 ? calloc(nsm, 1) : NULL;
    win.ploads = win.parked && !rs->launch->on_access && memsys_ploads_prepare(rs->ms, nsm) == 0;
    rs->budget = UINT64_MAX; /* taken by serial_round only */
    rs->clock = rs->launch->clock ? rs->launch->clock : &rs->clock_now;
    win.nworkers = threads; /* read by the threads: set before they start */
    uint32_t running = start_threads(&win, threads);
    if (running < threads) {
        /* The threads that started count on nworkers helpers: let them go and run alone. */
        win.nworkers = running;
        stop_threads(&win);
        win.nworkers = 1;
        running = 1;
    }
    for (uint32_t t = running; t < threads; t++) worker_fini(&win, &win.workers[t]);
    win.nworkers = running;
    set_orders(&win); /* before the first stage opens, whose gate_open the threads see it by */
    run_rounds(&win);
    stop_threads(&win);
    if (win.ploads)
        memsys_ploads_unprepare(rs->ms);
    for (uint32_t t = 0; t < running; t++) worker_fini(&win, &win.workers[t]);
    free(win.workers);
    free(win.l2parts);
    free(win.start_linear);
    free(win.free_blocks);
    free(win.parked);
    free_logs(&win);
}

/* The timing core's state for one launch, shared by timing.c (calendar, CTAs, stall charging,
 * the run) and timing_issue.c (choosing and issuing warps). Not part of the interface. */
#ifndef GMS_TIMING_TIMING_INTERNAL_H
#define GMS_TIMING_TIMING_INTERNAL_H

#include <stdint.h>

#include "timing/timing.h"
#include "timing/timing_cal.h"
#include "timing/timing_class.h"
#include "timing/timing_ctrl.h"
#include "timing/timing_mem.h"
#include "timing/timing_pipe.h"

#define TIMING_NEVER UINT64_MAX
/* Polls of an open mbarrier phase after which a warp counts as stuck (deadlock detection). */
enum { TIMING_POLLS_STUCK = 1000 };
/* Instructions a GTO scheduler may issue ahead of the calendar in one turn (timing_issue.c). */
enum { TIMING_RUN_AHEAD = 4096 };

/* Scoreboard slots a tinsn lists at most (timing_insn_fill): reads (the guard, then the
 * sources' registers and predicates in operand order) and writes (the destinations'). */
enum { TINSN_READS = 7, TINSN_WRITES = 4 };

/* What the scheduler needs of one static instruction, worked out once per launch on first use
 * (tstate.insns by ir_insn.id; glue, which shares the id of the instruction it serves, and ids
 * outside the module in tstate.more): its cost, whether it is warp-local or a fence, and the
 * scoreboard slots it reads and writes. A slot is a register slot r (< tstate.nregs) or
 * nregs + a predicate p (< tstate.npreds): twarp.reg_ready and .reg_why hold both, registers
 * first. Operands outside those ranges are not in the lists, as the scoreboard ignores them. */
typedef struct tinsn {
    const ir_insn *in;     /* the instruction it describes; NULL: not filled yet */
    uint64_t *stalls;      /* its row of tstate.insn_stalls (by ir_insn.id); NULL: none */
    timing_cost cost;
    uint8_t local;         /* affects nothing outside its warp (twarp.nx; timing_issue.c) */
    uint8_t fence;         /* a fence: waits for the warp's accesses (timing_prepare_next) */
    uint8_t walk;          /* 1: more slots than the lists hold: the scoreboard walks the
                              operands (timing_issue.c) */
    uint8_t nread, nwrite; /* entries of read[] and write[] */
    uint8_t wend;          /* bit i: write[i] is the last slot of a destination operand (a
                              vector's elements are one operand: timing_prepare_next) */
    uint8_t rregs;         /* bit i: read[i] is a register slot, not a predicate's (the
                              register prefetch, timing_issue.c, visits only these) */
    uint16_t read[TINSN_READS];
    uint16_t write[TINSN_WRITES];
} tinsn;

typedef struct tcta {
    uint32_t warps_left;   /* warps not yet done */
    uint8_t busy;          /* the slot holds a running CTA */
} tcta;

/* A warp slot of an SM: the warp in it and when it may issue next. */
typedef struct twarp {
    exec_warp *ew;
    const tinsn *nx;       /* its next instruction, as prepared (NULL before the first) */
    const uint64_t *regs;  /* when nx was prepared: ew's registers (exec_warp_regs) and */
    const struct exec_xinsn *nxx; /* nx's place in ew's code (exec_warp_next_x), for the host
                              prefetches of the registers nx and the instruction after it
                              read (timing_issue.c); these, `done` and reg_ready are read one
                              event before the warp may issue, so they are near the start */
    tcta *cta;
    uint64_t *rp;          /* its entry of tstate.rdy: earliest cycle of its next issue;
                              TIMING_NEVER while blocked or done (or the slot is empty) */
    uint32_t cidx;         /* index of its entries in tstate.rdy, .rage and .rpipe */
    uint8_t blocked;       /* at a barrier or asleep in an mbarrier wait */
    uint8_t yielding;      /* its last step left it YIELD in the executor (an mbarrier poll) */
    uint8_t done;
    uint64_t charged;      /* its resident cycles before this one are charged to reasons */
    uint64_t start;        /* cycle it became resident */
    uint64_t mem_done;     /* cycle its accesses so far are performed (fences, barriers) */
    uint64_t *reg_ready;   /* per register slot: cycle its value is ready */
    uint8_t *reg_why;      /* per register slot: what a reader waits as (timing_stall) */
    uint64_t *pred_ready;  /* per predicate */
    uint8_t *pred_why;
    uint32_t sched;        /* its scheduler (device-wide index) */
    uint64_t *next_stalls; /* tstate.insn_stalls' row of its next instruction (tstate.own
                              when it has none) */
    uint32_t polls;        /* mbarrier polls since the last phase completed anywhere */
    uint64_t poll_epoch;   /* S->epoch when polls was last counted */
    /* Why it waits, by segment: [charged, b1) w1, [b1, b2) w2, [b2, ready) why, then
     * NOT_SELECTED until it issues (timing_settle). */
    uint64_t b1, b2;
    uint8_t w1, w2;
    uint8_t why;
    timing_ctrl_warp *ctrl; /* SASS: its control-code state (NULL for PTX) */
} twarp;

/* An instruction issued in the calendar's current cycle that reaches beyond its SM
 * (exec_xinsn_group_beyond_sm), waiting for the cycle's end (timing_issue.c, end_of_cycle_in). */
typedef struct tpark {
    struct twarp *w;
    uint32_t s;            /* its scheduler */
    uint32_t k;            /* its entry of the scheduler */
    uint64_t t;            /* the cycle it issued in */
    uint64_t at;           /* the cycle the SM's memory-issue resource took it (t when it
                              does not go to the memory pipe) */
} tpark;

/* A CTA slot freed in the calendar's current cycle: the grid's next CTA starts in it at the
 * cycle's end (timing_start_freed). */
typedef struct tfreed {
    uint32_t idx;          /* the slot's index in tstate.ctas: SM x ctas_per_sm + slot */
    uint64_t at;           /* the cycle the CTA starts in: the one after its last warp ended */
} tfreed;

typedef struct tsm {
    uint32_t resident;     /* resident warps */
    uint64_t active_since; /* cycle resident became non-zero */
} tsm;

/* One warp scheduler (sub-partition). */
typedef struct tsched {
    uint64_t pipe_free[TIMING_PIPE_COUNT]; /* cycle each pipe takes its next instruction */
    uint32_t last;         /* entry of the warp it issued last; UINT32_MAX: none */
    uint32_t used;         /* its entries that ever held a warp are 0 .. used-1; the others
                              are never ready (the scans stop there) */
    const struct twarp *next_w; /* for the host-cache prefetches, a guess at the warp slot it
                              issues from at its next turn (NULL: none; timing_issue.c) */
    uint64_t after_last;   /* the cycle after the last one it issued in (0 before any) */
    uint64_t ready_mask;   /* bit k: entry k was ready by cycle mask_turn - 1 when its last
                              turn ended (a scan of timing_issue.c's; entries below 64) */
    uint64_t mask_turn;    /* the cycle ready_mask was made for, plus one; 0: none. Any
                              entry made ready later (timing_prepare_next) sets it to 0 */
    struct twarp *slot0;   /* the warp slot of its entry 0; entry k's is slot0 + k x
                              tstate.nsched_sm (timing_entry_warp) */
    uint32_t sm;           /* the SM it belongs to */
    uint8_t by_age;        /* its entries whose warps are not done hold rising ages in entry
                              order (set at each CTA start of its SM, sched_order_by_age; a
                              warp that ends keeps it true): the oldest ready entry is then
                              the first, and GTO's scans stop at the first eligible one */
} tsched;

typedef struct tstate {
    const gpu_config *cfg;
    timing_mem *mem;
    timing_mio mio;                   /* the SMs' memory-issue resource (timing_pipe.h) */
    exec_session *xs;
    timing_policy policy;
    timing_stats *ts;
    uint64_t *stalls;                 /* ts->stalls: during the run, minus the rows of
                                         insn_stalls as they were when their instruction was
                                         first met; finish_stats adds the rows and `own` */
    uint64_t own[TIMING_STALL_COUNT]; /* charges to no instruction's row */
    timing_insn_stalls *insn_stalls;
    uint32_t ninsns;
    tinsn *insns;                     /* ninsns: per static instruction, filled on first use */
    tinsn *more;                      /* nmore: glue that shares an id with the entry of
                                         S->insns, and instructions with ids out of range, by
                                         address (timing.c, more_entry) */
    uint32_t nmore, more_used;
    tinsn spare[2];                   /* [0] for an instruction from outside the module; [1]
                                         never filled (in NULL), for timing_insn_after */
    uint32_t nsm, nsched_sm, nsched;  /* SMs, schedulers per SM, schedulers */
    size_t entry_bytes;               /* nsched_sm x sizeof(twarp): from one entry's warp slot
                                         to the next entry's (timing_entry_warp) */
    uint32_t ctas_per_sm, warps_per_cta, warps_per_sm;
    uint32_t total_ctas, ctas_started;
    uint32_t nregs, npreds;           /* scoreboard entries per warp */
    uint32_t sb_lines;                /* 64-byte lines of a warp's reg_ready the event loop
                                         prefetches: its first min(nregs x 8, 512) bytes */
    twarp *warps;                     /* nsm x warps_per_sm */
    tcta *ctas;                       /* nsm x ctas_per_sm */
    tsm *sms;
    tsched *scheds;                   /* nsched */
    uint64_t *key;                    /* per scheduler: next cycle it may issue */
    timing_cal *cal;                  /* the calendar of schedulers by key (the model's) */
    /* per scheduler, per_sched entries each, for its warps in slot order (slot j of an SM is
     * scheduler j % nsched_sm's entry j / nsched_sm): compact for the scans of each issue */
    uint32_t per_sched;
    uint64_t *rdy;                    /* next issue cycle (twarp.rp) */
    uint64_t *rage;                   /* launch order; smaller is older (GTO) */
    uint8_t *rpipe;                   /* timing_pipe of the next instruction */
    uint8_t *rthr;                    /* 1: waiting as MATH_PIPE_THROTTLE (twarp.why) */
    int oom;                          /* the calendar could not grow */
    uint8_t use_ctrl;                 /* the module's machine has scoreboards (SASS) */
    uint8_t scan_avx2;                /* timing_scan.h: its AVX2 versions run here */
    timing_ctrl_warp *ctrls;          /* use_ctrl: one per warp slot */
    uint64_t now;                     /* the cycle being issued (what %clock reads) */
    uint64_t end;                     /* latest warp end so far */
    uint64_t mem_end;                 /* latest access performed so far */
    uint8_t stuck;                    /* a warp just reached TIMING_POLLS_STUCK polls */
    uint8_t stopped;                  /* a step stopped the launch (exec_step_info.stopped);
                                         the only other way, a CTA's start out of host memory,
                                         returns -1 */
    uint64_t next_age;
    uint64_t phases, epoch;           /* mbarrier phases seen at the last yield; epoch bumped
                                         when they changed (timing_issue.c) */
    timing_mem_issue mi;              /* the access hook's results for the instruction being
                                         issued (timing_mem_on_access) */
    tpark *park;                      /* nsched: the current cycle's instructions that reach
                                         beyond their SM, in issue order */
    uint32_t npark;
    tfreed *freed;                    /* the CTA slots of the part's SMs freed in the current
                                         cycle, in the order they were */
    uint32_t nfreed;
    void *blocks;                     /* owned (the main state's): everything above that was
                                         allocated */
    /* ---- the SMs on several host threads (docs/timing.md, "Host threads") ----
     * The launch's state is split in parts, one per host thread: part p takes a block of
     * consecutive SMs (timing.c, parts_create), and has its own copy of this struct, sharing the arrays above that are
     * per SM, scheduler or warp, but with its own calendar, instruction records and stall rows,
     * memory-issue results, parked instructions, freed slots, counters and executor part. Part 0
     * is the main state, which also holds what is the launch's: the CTAs started, warp ages,
     * mbarrier epochs, the stuck flag, the current cycle, the runaway limit. */
    struct tstate *main;              /* the main state (part 0; itself for part 0) */
    struct tstate **parts;            /* the main state's: parts[0 .. nparts) */
    struct tstate **part_by_sm;       /* the main state's: the part of each SM */
    uint32_t nparts, index;
    exec_session *run;                /* what the part's warps step with for their SM's own
                                         work: its executor part (exec_part_session), or with
                                         one part the session itself */
    exec_part *part;                  /* its executor part; NULL with one part (the warps stay
                                         bound to the session) */
    exec_launch *el;                  /* the main state's: the session's launch (whose
                                         access_user the end of a cycle points at the part
                                         whose warp it steps) */
    uint64_t next;                    /* the next cycle the part's calendar serves (its current
                                         one while it is served); TIMING_NEVER: none */
    uint64_t cycle;                   /* the main state's: the cycle being served */
    uint32_t stop_s;                  /* the lowest scheduler whose turn stopped the launch in the
                                         current cycle's SM work; UINT32_MAX: none */
    int stop_oom;                     /* that stop is a host-memory failure */
    uint32_t turns;                   /* scheduler turns the part ran since the main thread last
                                         looked (timing_cycles: whether a cycle is handed over) */
    uint32_t handover_turns;          /* the main state's: turns in a cycle from which the next
                                         cycle runs on the parts' threads (below half of it, on
                                         the main thread alone; timing.c, handover_turns) */
    uint64_t limit;                   /* the main state's: the runaway limit in warp
                                         instructions (0: none), and at the start of the run
                                         the session's count; careful: the cycles near the limit
                                         run as timing_cycles says, with budget_left */
    uint64_t used0, budget_left;
    uint8_t careful;
    const exec_stats *xstats;         /* the main state's: the session's statistics */
    uint32_t *due;                    /* the main state's, nsched: a careful cycle's schedulers */
    uint64_t *due_mark;               /* per scheduler: the cycle + 1 it was last put in due */
    void *part_block;                 /* a part's (not the main state's) own allocations; its
                                         calendar is its own too (the main state's is the
                                         model's) */
    timing_stats own_ts;              /* a part's statistics (ts points here) */
    exec_fault stop_fault;            /* stop_s's record */
} tstate;

/* The part that runs scheduler s. */
static inline tstate *timing_part_of(const tstate *M, uint32_t s)
{
    return M->nparts == 1 ? (tstate *)M : M->part_by_sm[s / M->nsched_sm];
}

/* timing_issue.c */
/* The launch's cycles (M: the main state, its parts made): cycle by cycle, the least next cycle
 * of any part's calendar, every part's SMs' own work of it (on the parts' host threads), then
 * its end (end_of_cycle_in), until no scheduler is left, the launch stopped, or no warp can go
 * on (a deadlock, recorded in the session); docs/timing.md, "Host threads". A stop in an SM's
 * own work ends the launch with the cycle: the other schedulers' turns of that cycle still run,
 * and the lowest scheduler's stop is the launch's. Near the runaway limit (M->limit) each cycle
 * runs on this thread SM by SM. Returns 0, or -1 when host memory ran out. */
int timing_cycles(tstate *M);
/* 0 (the default): GTO launches without control codes run a copy of the event loop made for
 * them (the policy and the controls' tests left out); 1: every launch runs the general one.
 * For the twin test of the two (tests/unit/test_timing_core.c); nothing else sets it. */
extern int timing_event_loop_general_only;
/* 0 (the default): the end of a scheduler's turn scans once for its next cycle and the entries
 * ready by then, and its next choice reuses that mask (tsched.ready_mask); 1: every scheduler
 * ends its turns as those of more than 64 entries do (a scan for the cycle, another for the
 * guess, no mask saved), so every choice scans. For the twin test of the two
 * (tests/unit/test_timing_core.c); nothing else sets it. */
extern int timing_sched_rescan;
/* 0 (the default): a scheduler whose live entries hold rising ages in entry order
 * (tsched.by_age) takes GTO's oldest eligible entry as the first eligible one; 1: every
 * scheduler compares ages. For the twin test of the two (tests/unit/test_timing_core.c);
 * nothing else sets it. */
extern int timing_age_scan;
/* Sets when warp w's next instruction `in` (exec_warp_next's; NULL: the warp is not READY or
 * YIELD, it waits blocked) may issue, no earlier than cycle `tmin` (charged to `why` before
 * that): its register scoreboard or control codes, a fence's accesses. */
void timing_prepare_next(tstate *S, twarp *w, const ir_insn *in, uint64_t tmin, uint8_t why);

/* timing.c, for timing_issue.c */
const tinsn *timing_insn_fill(tstate *S, const ir_insn *in);

/* The record of `in` when it is filled already in S->insns, else NULL (timing_insn fills it). */
static inline const tinsn *timing_insn_filled(const tstate *S, const ir_insn *in)
{
    return in->id < S->ninsns && S->insns[in->id].in == in ? &S->insns[in->id] : NULL;
}

/* What the scheduler needs of instruction `in` (borrowed; one of the module's): its entry of
 * S->insns once filled, else timing_insn_fill's. The record stays valid for the launch. Never
 * fails. */
static inline const tinsn *timing_insn(tstate *S, const ir_insn *in)
{
    const tinsn *ti = timing_insn_filled(S, in);
    return ti ? ti : timing_insn_fill(S, in);
}
/* timing_insn, given `prev`, a record of S->insns, S->more or S->spare[0] (NULL: none): the
 * record after it when that one is `in`'s, which is where the next instruction's record is
 * found in a straight run (consecutive ids), without the id's bounds test and index. Every
 * record has one after it to read (S->more ends with an empty one, S->spare[1] is empty), and a
 * record describes one instruction only, so a match is the record timing_insn returns. */
static inline const tinsn *timing_insn_after(tstate *S, const tinsn *prev, const ir_insn *in)
{
    return prev && prev[1].in == in ? prev + 1 : timing_insn(S, in);
}
/* Warp w finished at cycle `end` (the one after its last issue): it leaves its SM; when it was
 * its CTA's last, the CTA retires and its slot is noted for the grid's next CTA
 * (timing_start_freed). */
void timing_warp_finished(tstate *S, twarp *w, uint64_t end);
/* Starts the grid's next CTAs in the CTA slots freed since the last call, in SM and slot order,
 * each at the cycle after its old CTA's last warp ended. Returns 0 or -1 (the executor ran out
 * of host memory). */
int timing_start_freed(tstate *S);
/* 1 when every resident warp is blocked or polls an open mbarrier phase that no warp can
 * complete any more. */
int timing_polling_deadlock(const tstate *S);
/* 1 while a CTA slot of any SM holds a running CTA. */
int timing_any_busy(const tstate *S);

/* The warp slot of entry k of scheduler s (slot j of an SM is scheduler j % nsched_sm's entry
 * j / nsched_sm). */
static inline twarp *timing_entry_warp(const tstate *S, uint32_t s, uint32_t k)
{
    return (twarp *)((char *)S->scheds[s].slot0 + (size_t)k * S->entry_bytes);
}

/* Charges `cycles` of warp w to stall reason `why`, to its next instruction's row (the totals
 * are the rows' sum: finish_stats). */
static inline void timing_charge(tstate *S, twarp *w, timing_stall why, uint64_t cycles)
{
    (void)S;
    w->next_stalls[why] += cycles;
}

/* Charges cycles [from, to) of the warp, clipped to [w->charged, t), to `why`. */
static inline void timing_charge_span(tstate *S, twarp *w, uint64_t from, uint64_t to,
                                      uint64_t t, timing_stall why)
{
    if (from < w->charged)
        from = w->charged;
    if (to > t)
        to = t;
    if (to > from)
        timing_charge(S, w, why, to - from);
}

/* Charges the warp's cycles from w->charged up to t: to the reasons of its wait segments
 * (twarp.b1, .b2) until it was ready, then to NOT_SELECTED (docs/timing.md, "Stall
 * reasons"). */
static inline void timing_settle(tstate *S, twarp *w, uint64_t t)
{
    uint64_t c = w->charged;
    if (t <= c)
        return;
    uint64_t ready = *w->rp;
    if (w->b1 <= c && w->b2 <= c) {
        /* The common case (an issue at tmin = its next cycle): the first two segments are
         * empty, [c, min(ready, t)) is `why`, the rest NOT_SELECTED; what the spans below
         * charge, with fewer tests. */
        uint64_t mid = ready < t ? ready : t;
        if (mid > c)
            timing_charge(S, w, (timing_stall)w->why, mid - c);
        else
            mid = c;
        if (t > mid)
            timing_charge(S, w, TIMING_STALL_NOT_SELECTED, t - mid);
        w->charged = t;
        return;
    }
    timing_charge_span(S, w, w->charged, w->b1, t, (timing_stall)w->w1);
    timing_charge_span(S, w, w->b1, w->b2, t, (timing_stall)w->w2);
    timing_charge_span(S, w, w->b2, ready, t, (timing_stall)w->why);
    timing_charge_span(S, w, ready, t, t, TIMING_STALL_NOT_SELECTED);
    w->charged = t;
}

/* Sets scheduler s's next cycle to `key`. Always inline: in the event loop, a call (which the
 * compiler made of one of its three uses there) costs more than the body. */
static inline __attribute__((always_inline)) void timing_sched_key(tstate *S, uint32_t s, uint64_t key)
{
    if (S->key[s] == key)
        return;
    S->key[s] = key;
    if (key != TIMING_NEVER && timing_cal_add(S->cal, s, key))
        S->oom = 1;
}

/* Moves scheduler s's next cycle earlier to `key` when it is later, but not before the cycle
 * after the last one it issued in (it may have run ahead of the calendar: timing_issue.c). */
static inline void timing_sched_wake(tstate *S, uint32_t s, uint64_t key)
{
    uint64_t after = S->scheds[s].after_last;
    if (key < after)
        key = after;
    if (key < S->key[s])
        timing_sched_key(S, s, key);
}

#endif

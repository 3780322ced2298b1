/* SASS issue controls in time (docs/timing.md, "Control codes"; ../reference/sass-dialect.md
 * sections 2 and 5): the stall count, the yield hint, the six read and write scoreboards, the
 * wait mask (&req) and DEPBAR.LE, per warp. A pure module: it keeps a warp's scoreboard state and
 * answers when the next instruction may issue; the timing core calls it for machines with
 * scoreboards (ir_machine.scoreboards > 0) instead of its register scoreboard.
 *
 * Cycles are SM clock cycles, counted from the launch. A scoreboard is a counter of pending
 * operations (reference 5.1): each pending operation is one entry with the cycle from which an
 * instruction's wait sees it (the activation delay) and the cycle it clears.
 *
 * Owner: timing_ctrl.c (may extend this header, keeping these calls). Caller: timing.c. */
#ifndef GMS_TIMING_TIMING_CTRL_H
#define GMS_TIMING_TIMING_CTRL_H

#include <stdint.h>

#include "ir/ir.h"
#include "timing/timing_stats.h"

enum { TIMING_CTRL_PENDING_MAX = 16 }; /* operations tracked per scoreboard (DEPBAR counts) */

enum {
    /* An instruction issued at cycle i raises its scoreboards for waits of instructions that
     * issue at i + 2 or later: the scoreboard becomes active a cycle after issue, and the
     * reference asks a stall of at least 2 when the very next instruction waits on it (2.3). */
    TIMING_CTRL_ACTIVATION_CYCLES = 2,
    /* Stalls 12..15 take effect only with the yield bit; without it the stall is about 6
     * cycles (reference 2.2, after maxas). */
    TIMING_CTRL_STALL_NO_YIELD_MAX = 11,
    TIMING_CTRL_STALL_NO_YIELD_LONG = 6,
};

/* One warp's control state; zero-initialised means no scoreboard raised, free to issue. */
typedef struct timing_ctrl_warp {
    uint64_t next_issue;                   /* earliest issue of the next instruction (stall) */
    uint64_t release[IR_SCOREBOARDS][TIMING_CTRL_PENDING_MAX]; /* pending clear cycles */
    uint64_t active[IR_SCOREBOARDS][TIMING_CTRL_PENDING_MAX];  /* first issue cycle whose
                                                                  wait sees the entry */
    uint16_t long_entries[IR_SCOREBOARDS]; /* bit e: entry e is an L1TEX access */
    uint8_t pending[IR_SCOREBOARDS];       /* entries used in release[sb] */
    uint8_t long_latency[IR_SCOREBOARDS];  /* 1: the last op on sb was an L1TEX access */
    uint8_t yielded;                       /* 1: the last instruction asked to yield */
} timing_ctrl_warp;

/* Why an instruction waits, split by gate: [now, stall_until) is the previous instruction's
 * stall count (WAIT), [stall_until, issue) the scoreboards (`scoreboard`). */
typedef struct timing_ctrl_wait {
    uint64_t issue;          /* earliest issue cycle, >= now */
    uint64_t stall_until;    /* max(now, next_issue) */
    timing_stall scoreboard; /* LONG_ or SHORT_SCOREBOARD when issue > stall_until, else
                                SELECTED */
} timing_ctrl_wait;

/* Earliest cycle >= now at which the instruction with controls `c` may issue for warp `w`
 * (stall count of the previous one, the scoreboards in c->wait_mask cleared, DEPBAR.LE
 * satisfied); *why (when not NULL) gets the reason charged to the cycles before it: WAIT for the
 * stall count, LONG_ or SHORT_SCOREBOARD for a scoreboard (the gate that opens last; SELECTED
 * when the result is `now`). A glue instruction (c->present == 0) waits for nothing: `now`.
 * Both pointers are borrowed. Reference 2.3 and 5.1-5.2. */
uint64_t timing_ctrl_earliest(const timing_ctrl_warp *w, const ir_ctrl *c, uint64_t now,
                              timing_stall *why);

/* The same answer as timing_ctrl_earliest, with the wait split by gate (see timing_ctrl_wait),
 * for charging each waiting cycle to its own reason. */
timing_ctrl_wait timing_ctrl_explain(const timing_ctrl_warp *w, const ir_ctrl *c, uint64_t now);

/* Records that the instruction with controls `c` issued at cycle `issue`: its stall count sets
 * next_issue (stall 0: the next instruction may issue in the same cycle, the dual issue of
 * reference 2.3; stalls 12..15 without yield count as TIMING_CTRL_STALL_NO_YIELD_LONG); its read
 * scoreboard clears at `sources_read`, its write scoreboard at `result_ready` (the cycles the
 * core computed for it; a clear at or before issue + TIMING_CTRL_ACTIVATION_CYCLES is never
 * seen); `long_latency` as timing_mem_reply's. Entries cleared by `issue` are dropped first; a
 * scoreboard with TIMING_CTRL_PENDING_MAX entries still pending merges its two earliest-clearing
 * ones (the later clear cycle survives), which can only let a DEPBAR.LE go one operation early.
 * Predication does not matter: the core calls this for a predicated-off instruction too
 * (reference 2.3). A glue instruction (c->present == 0) changes nothing. */
void timing_ctrl_issued(timing_ctrl_warp *w, const ir_ctrl *c, uint64_t issue,
                        uint64_t sources_read, uint64_t result_ready, int long_latency);

/* Operations of scoreboard `sb` that an instruction issuing at cycle `at` would count as
 * pending (active and not yet cleared); 0 for sb >= IR_SCOREBOARDS. For tests and reports. */
unsigned timing_ctrl_count(const timing_ctrl_warp *w, unsigned sb, uint64_t at);

/* The stall in cycles that the controls `c` put after their instruction (see
 * timing_ctrl_issued); 0 for glue. */
unsigned timing_ctrl_stall_cycles(const ir_ctrl *c);

#endif

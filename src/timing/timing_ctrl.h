/* SASS issue controls in time (docs/timing.md, "Control codes"; ../reference/sass-dialect.md
 * sections 2 and 5): the stall count, the yield hint, the six read and write scoreboards, the
 * wait mask (&req) and DEPBAR.LE, per warp. A pure module: it keeps a warp's scoreboard state and
 * answers when the next instruction may issue; the timing core calls it for machines with
 * scoreboards (ir_machine.scoreboards > 0) instead of its register scoreboard.
 *
 * Owner: timing_ctrl.c (may extend this header, keeping these calls). Caller: timing.c. */
#ifndef GMS_TIMING_TIMING_CTRL_H
#define GMS_TIMING_TIMING_CTRL_H

#include <stdint.h>

#include "ir/ir.h"
#include "timing/timing_stats.h"

enum { TIMING_CTRL_PENDING_MAX = 16 }; /* operations tracked per scoreboard (DEPBAR counts) */

/* One warp's control state; zero-initialised means no scoreboard raised, free to issue. */
typedef struct timing_ctrl_warp {
    uint64_t next_issue;                   /* earliest issue of the next instruction (stall) */
    uint64_t release[IR_SCOREBOARDS][TIMING_CTRL_PENDING_MAX]; /* pending clear cycles */
    uint8_t pending[IR_SCOREBOARDS];       /* entries used in release[sb] */
    uint8_t long_latency[IR_SCOREBOARDS];  /* 1: the last op on sb was an L1TEX access */
    uint8_t yielded;                       /* 1: the last instruction asked to yield */
} timing_ctrl_warp;

/* Earliest cycle >= now at which the instruction with controls `c` may issue for warp `w`
 * (stall count of the previous one, the scoreboards in c->wait_mask cleared, DEPBAR.LE
 * satisfied); *why (when not NULL) gets the reason charged to the cycles before it: WAIT for the
 * stall count, LONG_ or SHORT_SCOREBOARD for a scoreboard. */
uint64_t timing_ctrl_earliest(const timing_ctrl_warp *w, const ir_ctrl *c, uint64_t now,
                              timing_stall *why);

/* Records that the instruction with controls `c` issued at cycle `issue`: its stall count sets
 * next_issue; its read scoreboard clears at `sources_read`, its write scoreboard at
 * `result_ready` (the cycles the core computed for it); `long_latency` as timing_mem_reply's. */
void timing_ctrl_issued(timing_ctrl_warp *w, const ir_ctrl *c, uint64_t issue,
                        uint64_t sources_read, uint64_t result_ready, int long_latency);

#endif

/* The timing model's core (docs/timing.md, "Model" and "Scheduling"): runs a launch through the
 * executor's stepping interface (exec.h, exec_session_*) one warp instruction at a time, in the
 * order the SMs' warp schedulers would issue them, and says how many SM clock cycles it took and
 * why warps waited. Per SM: the preset's warp schedulers (sub-partitions; a warp belongs to
 * scheduler warp_slot % schedulers), each issuing at most one instruction per cycle,
 * greedy-then-oldest or loose round-robin; a register scoreboard per warp (PTX) or the kernel's
 * own control codes (SASS, timing_ctrl.h); pipe costs (timing_class.h); memory times
 * (timing_mem.h); barriers, fences, instruction-fetch stalls; CTAs launched as occupancy allows
 * (registers, shared memory, warps, CTAs per SM) and as others retire.
 *
 * Event-driven: each warp has the cycle its next instruction may issue and the reason it waits
 * until then; each scheduler sits in one calendar (a heap keyed by the next cycle it can issue),
 * so idle cycles are skipped, not stepped. Functional-first: an instruction's data effect
 * happens when it issues. Deterministic: the order depends only on the input.
 *
 * Layering: timing/ is above exec/ and mem/ and below sim/; neither exec/ nor mem/ includes it. */
#ifndef GMS_TIMING_TIMING_H
#define GMS_TIMING_TIMING_H

#include <stdint.h>

#include "config/gpu_config.h"
#include "exec/exec.h"
#include "ir/ir.h"
#include "timing/timing_stats.h"

/* Warp scheduling policy of every scheduler (docs/timing.md, "Scheduling"). */
typedef enum timing_policy {
    TIMING_GTO, /* greedy-then-oldest: keep issuing the last warp while it can, else the oldest
                   ready one (the default) */
    TIMING_LRR  /* loose round-robin: the next ready warp after the last one issued */
} timing_policy;

/* One device's timing model: the per-resource calendars of its memory side, kept across the
 * device's launches (each launch starts them at cycle 0). */
typedef struct timing_model timing_model;

/* Creates the model for GPU `cfg` (borrowed; the model keeps a copy). Returns NULL when host
 * memory ran out. */
timing_model *timing_create(const gpu_config *cfg);
void timing_destroy(timing_model *tm);

/* Per-instruction stall counters: warp-cycles charged to each reason while instruction `id` (a
 * module's static id) was the warp's next instruction, SELECTED for the cycles it issued. */
typedef uint64_t timing_insn_stalls[TIMING_STALL_COUNT];

/* Runs launch `launch` of program `p` (module `mod`) on `ms` as exec_run does (same arguments,
 * results, faults and printf output; launch->on_access, access_user and clock are the model's
 * and must be unset), ordering the warps' instructions in time under policy `policy`.
 * *ts (OUT) gets the launch's timing statistics (zeroed first). insn_stalls (may be NULL): per
 * static instruction id of `mod` (mod->ninsns_total entries), accumulated (not zeroed).
 * Returns 0, 1 (fault, in *fault) or -1 (host memory ran out: EXEC-NOMEM-* in *fault, or
 * TIMING-001 when the model's own state could not be allocated). */
int timing_run(timing_model *tm, exec_program *p, const ir_module *mod, memsys *ms,
               const exec_machine *machine, const exec_launch *launch, timing_policy policy,
               exec_stats *stats, exec_fault *fault, char **printf_out, timing_stats *ts,
               timing_insn_stalls *insn_stalls);

#endif

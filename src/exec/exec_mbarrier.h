/* The mbarrier family in the executor (exec_mbarrier.c; docs/semantics.md, "mbarrier"): the
 * handler of IR_MBARRIER, and the helpers through which other instructions' asynchronous
 * completions reach a barrier: cp.async.mbarrier.arrive, and the complete_tx of a bulk copy.
 * Every helper works on the executing warp's CTA's shared memory, changes the 64-bit word only
 * through src/exec/mbarrier_word.h, wakes the warps whose try_wait the change completes, and on
 * an error faults the warp with an EXEC-MBAR-* rule (docs/faults.md, "mbarrier") and returns -1.
 * The helpers count no shared-memory request: the instruction that calls them counts its own
 * accesses (docs/statistics.md). Not a public header: only src/exec/ includes it. */
#ifndef GMS_EXEC_EXEC_MBARRIER_H
#define GMS_EXEC_EXEC_MBARRIER_H

#include <stdint.h>

#include "exec/exec_internal.h"

/* The IR_MBARRIER handler (ir_ops.def): init, inval, arrive{.noComplete}, arrive_drop,
 * expect_tx, complete_tx, test_wait, try_wait (the .parity forms too) and pending_count, for the
 * lanes in `mask`. It sets the warp's next pc itself (flow WAIT). */
void exec_h_mbarrier(exec_warp *w, const exec_xinsn *x, uint32_t mask);

/* The shared-memory offsets of the mbarrier that address operand `a` (an IR_OPND_ADDR of
 * instruction x) names in each lane of `mask`, `written` being the state space the instruction
 * wrote for it: IR_SPACE_SHARED (a window offset), IR_SPACE_SHARED_CLUSTER (the executing CTA's
 * own window: a cluster is one CTA in this model) or IR_SPACE_GENERIC (a generic address, which
 * must fall in the CTA's shared window). offsets: 32 entries (OUT; lanes outside mask are left
 * alone), each a byte offset in the CTA's shared memory, 8-byte aligned, whose 8 bytes lie
 * inside it. Returns 0, or -1 after faulting the warp with EXEC-MBAR-002 (not in the CTA's
 * shared memory) or EXEC-MBAR-003 (not 8-byte aligned) at the first bad lane. */
int exec_mbarrier_offsets(exec_warp *w, const exec_xinsn *x, const ir_operand *a,
                          ir_space written, uint32_t mask, uint32_t *offsets);

/* complete_tx of `bytes` (0 .. 2^20-1) on the mbarrier at shared offset `shared_offset` of the
 * warp's CTA (as exec_mbarrier_offsets gives it): what a bulk copy with
 * .mbarrier::complete_tx::bytes does when its data has landed (PTX ISA 9.1 "mbarrier",
 * "cp.async.bulk"). x is the instruction charged with a fault and `lane` the thread named in
 * it. Completing the phase wakes its waiters. Returns 0, or -1 after faulting the warp:
 * EXEC-MBAR-002/003 (the offset), EXEC-MBAR-001 (not an initialized mbarrier), EXEC-MBAR-006
 * (the tx-count would leave -(2^20-1) .. 2^20-1). */
int exec_mbarrier_complete_tx(exec_warp *w, const exec_xinsn *x, uint32_t lane,
                              uint32_t shared_offset, uint32_t bytes);

/* An arrive-on operation of `count` (1 .. 2^20-1) arrivals on the mbarrier at `shared_offset`
 * by thread `lane` of the warp: what cp.async.mbarrier.arrive triggers once the thread's earlier
 * cp.async copies have completed (PTX ISA 9.1 "cp.async.mbarrier.arrive"). Completing the phase
 * wakes its waiters. Returns 0, or -1 after faulting the warp: EXEC-MBAR-002/003, EXEC-MBAR-001,
 * EXEC-MBAR-004 (a count outside 1 .. 2^20-1), EXEC-MBAR-005 (more arrivals than the phase has
 * pending). */
int exec_mbarrier_arrive(exec_warp *w, const exec_xinsn *x, uint32_t lane,
                         uint32_t shared_offset, uint32_t count);

/* The pending arrivals of the current phase of the mbarrier at `shared_offset` rise by `count`
 * (1 .. 2^20-1): what cp.async.mbarrier.arrive without .noinc does when it is issued, so that
 * the arrival it will trigger (exec_mbarrier_arrive, later) is not one of the arrivals the
 * barrier was initialized to expect. Never completes a phase. Returns 0, or -1 after faulting
 * the warp: EXEC-MBAR-002/003, EXEC-MBAR-001, EXEC-MBAR-004 (the pending count would exceed
 * 2^20-1). */
int exec_mbarrier_pending_add(exec_warp *w, const exec_xinsn *x, uint32_t lane,
                              uint32_t shared_offset, uint32_t count);

/* Scheduling rounds in a row in which every warp that ran only polled an mbarrier phase that
 * stayed open, after which the scheduler reports a deadlock (exec_device.c). */
enum { EXEC_MBAR_POLLING_ROUNDS = 1000 };

/* For the scheduler's deadlock report (exec_device.c): faults warp w with EXEC-MBAR-008, naming
 * the barrier and its state: w sleeps in a try_wait (WARP_MBARRIER) when no warp can run, or
 * last polled an open phase (WARP_YIELD) after EXEC_MBAR_POLLING_ROUNDS rounds in which every
 * warp only polled. */
void exec_mbarrier_report_deadlock(exec_warp *w);

#endif

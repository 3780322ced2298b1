/* The stores' logged L2 writes (and the parked loads' logged reads: "The parked loads by SMs"
 * below) applied on several host threads (docs/architecture.md, "SMs on several host threads",
 * "The store logs by sets"): each thread's part applies, in log order,
 * the entries of every log whose L2 line lies in the part's share of the sets, through its own
 * view of the L2 (cache_view.h) and its own counters; the parts are then merged. The L2, the
 * counters and the backing store end as memsys_store_log_apply of each log in turn leaves
 * them. Used by the executor's phases (src/exec/exec_window.c) only. */
#ifndef GMS_MEM_MEMSYS_L2LOG_H
#define GMS_MEM_MEMSYS_L2LOG_H

#include "mem/memsys.h"

typedef struct memsys_l2_part memsys_l2_part;

/* Below this many entries in all the logs, memsys_store_logs_begin declines: waking the
 * threads would cost more than the writes. */
enum { MEMSYS_L2_PART_MIN_WRITES = 64 };

/* One part of the logs' application for ms's L2, counting into `view` unless
 * memsys_store_logs_apply_part is given another (borrowed: a thread's memsys_tally_view of
 * ms). Returns NULL when out of host memory. */
memsys_l2_part *memsys_l2_part_create(memsys *ms, memsys *view);
void memsys_l2_part_destroy(memsys_l2_part *p);
/* Prepares parts[0 .. nparts) for the logs logs[0 .. nlogs) (borrowed; in the order their
 * writes are to be applied: SM order) and returns 1, or returns 0 having changed nothing when
 * the logs are to be applied one after the other (memsys_store_log_apply) instead: fewer than
 * two parts, fewer than MEMSYS_L2_PART_MIN_WRITES entries, an L2 whose sets are coupled
 * (evict-last lines or a persisting set-aside: cache_view_ready), or a read entry that grants
 * evict-last or fills wider than a line. The answer does not depend on
 * nparts once it is 2 or more, and either way the results are the same. */
int memsys_store_logs_begin(memsys *ms, memsys_l2_part *const *parts, uint32_t nparts,
                            memsys_store_log *const *logs, uint32_t nlogs);
/* Part `part` of `nparts` (parts[part] of memsys_store_logs_begin, after it returned 1; the
 * parts on any threads, all at once, each part on one): applies its share of the entries. Its
 * counters go to `view` (borrowed: the applying thread's memsys_tally_view; NULL: the view the
 * part was created with, or last given); which thread applies which part changes no result,
 * the counters being sums. No errors here (memsys_store_logs_finish reports them). */
void memsys_store_logs_apply_part(memsys_l2_part *p, memsys_store_log *const *logs,
                                  uint32_t nlogs, uint32_t part, uint32_t nparts, memsys *view);
/* After every part: merges them into ms, makes their writes to the backing store, empties the
 * logs. Returns 0, or -1 with *failed_log (OUT) the lowest log whose application failed (host
 * memory: the log could not grow, or a write to the backing store failed). */
int memsys_store_logs_finish(memsys *ms, memsys_l2_part *const *parts, uint32_t nparts,
                             memsys_store_log *const *logs, uint32_t nlogs,
                             uint32_t *failed_log);

/* The parked loads run by SMs (docs/architecture.md, "The parked loads by SMs";
 * memsys_pload.c). With two host threads or more, the loads that a serial phase would run one
 * after the other (plain loads only: memsys_ploads_plain) may run SM by SM on every thread
 * instead: each SM's in the serial order, their L1
 * victims' write-backs and L2 reads logged in the SM's log (in order), each read taking at once
 * the bytes the read made in the serial order would return. Applying the logs SM by SM
 * afterwards (memsys_store_log_apply) leaves everything as the serial order does. */
/* Whether a load with attributes `a` is plain: it reaches the L2 only by reading it (not a
 * volatile refetch, which invalidates the line there; no Intel LSC cache control; no fill wider
 * than a line; not the uniform hint). Only plain loads may run by SMs. */
int memsys_ploads_plain(const memsys *ms, const ir_mem_attrs *a);
/* Makes ms note the L1 stores that may leave a line dirty from now on, for nsm SMs. Returns 0,
 * or -1 when out of host memory (nothing changed). */
int memsys_ploads_prepare(memsys *ms, uint32_t nsm);
/* Stops noting (after the launch). */
void memsys_ploads_unprepare(memsys *ms);
/* From now on ms's loads (on any thread, through ms or its views) log their L2 reads and their
 * L1 victims' write-backs in logs[sm] (borrowed; one per SM, empty) of their SM. Each SM's
 * loads must run in the serial order on one thread, which calls memsys_ploads_sm_done after its
 * last; any SM's loads may wait for those of every SM before it. */
void memsys_ploads_begin(memsys *ms, memsys_store_log *const *logs);
void memsys_ploads_sm_done(memsys *ms, uint32_t sm);
/* After every SM is done: the L2 is read and written at once again. */
void memsys_ploads_end(memsys *ms);

#endif

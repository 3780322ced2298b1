/* The parts of the path through the cache hierarchy (mem_hier.c) that live in their own files
 * (mem_hier_served.c: the access's served records; mem_hier_store.c: a store's lines through
 * the L1 and the L2), and what they share with mem_hier.c. Not part of the memory system's
 * interface. */
#ifndef GMS_MEM_MEM_HIER_H
#define GMS_MEM_MEM_HIER_H

#include "mem/memsys_internal.h"

/* line_req.l2_slice of a line whose slice hier_report_levels must look up (cache_slice_of). */
enum { HIER_SLICE_UNKNOWN = UINT16_MAX };

/* Fills acc->served (appending from acc->nserved, at most MEM_MAX_SERVED) and acc->levels
 * with every touched sector of the line requests in ms's scratch and the level that served
 * it: a line's line_level when set (its slice from line_req.l2_slice unless
 * HIER_SLICE_UNKNOWN), else its level[] per sector; lines [0, l1_lines) are all L1 whatever
 * their line_level says. Sector addresses are line address + sector x the L1 sector size;
 * the L2 slice of an L1 entry is 0. */
void hier_report_levels(memsys *ms, mem_access *acc, uint32_t l1_lines);
/* Counts a surface access (docs/images.md) in rq's counters: one request, and its served
 * sectors by level (L2, DRAM). */
void hier_count_surface(mem_request *rq, const mem_access *acc);

/* Whether an access with attributes `a` is a surface access (an image op's: docs/images.md). */
static inline int hier_is_surface(const ir_mem_attrs *a)
{
    return a->image_dim != IR_IMAGE_NONE;
}

/* Charges one line of a global or local load or store to the LSU split of the l1 counters: the
 * sectors and hits the L1 counted for it since `sectors0` and `hits0` (the l1 counters before
 * the line), and the request itself with its first line (`first`). */
static inline void hier_count_lsu_line(mem_request *rq, const line_req *r, int store, int first,
                                       uint64_t sectors0, uint64_t hits0)
{
    if (r->kind != LINE_KIND_LOCAL) {
        count_lsu_global(rq->counters, store, first, sectors0, hits0);
        return;
    }
    mem_lsu_counters *u = &rq->counters->lsu;
    uint64_t sectors = rq->counters->l1.sector_accesses - sectors0;
    uint64_t hits = rq->counters->l1.sector_hits - hits0;
    u->local_store_requests += store && first;
    u->local_load_requests += !store && first;
    *(store ? &u->local_store_sectors : &u->local_load_sectors) += sectors;
    u->local_load_sector_hits += store ? 0 : hits;
}

/* mem_hier.c: a write of `bytes` bytes at `addr` (data, and byte_mask: NULL for every byte, else
 * 1 for each byte written) to the L2 on behalf of rq, as the L1's next level makes it: into the
 * store log when rq has one that is not immediate (or a parked load's log), else through the
 * L2 at once, counted in rq's counters and the levels of rq->line recorded. Returns the L2's or
 * the log's status. */
mem_status hier_l2_write(memsys *ms, mem_request *rq, uint64_t addr, uint32_t bytes,
                         const uint8_t *data, const uint8_t *byte_mask);

/* mem_hier_store.c: hier_global_local's lines for a store (ms->reqs[0 .. nreqs), made by the
 * coalescer) in order, with acc's L2 hints (policy) into rq->l2 and each line's level and slice
 * for hier_report_levels. `global`: every line is global and not a surface's (runs of lines
 * through cache_write_lines_below may take them); `served`: the access wants its served
 * records; `l2_hints_per_line`: the L2 hints depend on the line's address; `surface`: a surface
 * access (no LSU counts). Returns MEM_OK, or the status of the first line that failed
 * (MEM_ERR_NOMEM: the backing store could not grow). */
mem_status hier_store_lines(memsys *ms, mem_request *rq, cache *l1, const mem_access *acc,
                            int global, int served, int l2_hints_per_line, int surface);

#endif

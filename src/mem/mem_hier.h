/* The parts of the path through the cache hierarchy (mem_hier.c) that live in their own files
 * (mem_hier_served.c: the access's served records). Not part of the memory system's
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

#endif

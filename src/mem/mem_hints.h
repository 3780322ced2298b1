/* The cache hints that follow from a global or local access's own attributes (eviction
 * priorities, write modes, Intel LSC per-level cache controls), for the hierarchy's paths in
 * mem_hier.c: the L1 allocation class and write mode of a line, and the L2 side of the LSC
 * controls. hier_set_l2_hints (mem_hier.c) combines them with policy descriptors, windows and
 * the preset (docs/architecture.md, "The memory hierarchy": behaviours, not special cases).
 * Pure functions of the attributes, inline because every line of an access asks. */
#ifndef GMS_MEM_MEM_HINTS_H
#define GMS_MEM_MEM_HINTS_H

#include <stdint.h>

#include "ir/ir.h"
#include "mem/cache.h"

/* The L1 allocation class of a read or a store: the class the access names; otherwise evict-first
 * for a streaming store, the line's own class (a new line: normal) for the rest. */
static inline uint8_t l1_alloc_for(const ir_mem_attrs *a, int store)
{
    if (a->l1_ctl == IR_CC_STREAMING) /* Intel LSC streaming at L1 */
        return CACHE_ALLOC_FIRST;
    switch (a->l1_alloc) {
    case IR_EVICT_FIRST: return CACHE_ALLOC_FIRST;
    case IR_EVICT_LAST: return CACHE_ALLOC_LAST;
    case IR_EVICT_NO_ALLOCATE: return CACHE_ALLOC_NONE;
    case IR_EVICT_NORMAL: return CACHE_ALLOC_NORMAL;
    default: break;
    }
    return store && a->write_mode == IR_WRITE_STREAMING ? CACHE_ALLOC_FIRST : CACHE_ALLOC_UNCHANGED;
}

/* The cache's allocation class for an eviction-priority attribute (ir.h IR_EVICT_*), `fallback`
 * for any other value. */
static inline uint8_t alloc_of_evict(uint8_t evict, uint8_t fallback)
{
    switch (evict) {
    case IR_EVICT_FIRST: return CACHE_ALLOC_FIRST;
    case IR_EVICT_LAST: return CACHE_ALLOC_LAST;
    case IR_EVICT_NORMAL: return CACHE_ALLOC_NORMAL;
    case IR_EVICT_UNCHANGED: return CACHE_ALLOC_UNCHANGED;
    default: return fallback;
    }
}

/* The cache's write mode for the access's write attribute (ir.h IR_WRITE_*); the level's own
 * policy (CACHE_WRITE_DEFAULT) for the rest. */
static inline uint8_t cache_write_mode_of(const ir_mem_attrs *a)
{
    switch (a->write_mode) {
    case IR_WRITE_THROUGH: return CACHE_WRITE_THROUGH;
    case IR_WRITE_BACK: return CACHE_WRITE_BACK;
    default: return CACHE_WRITE_DEFAULT;
    }
}

/* ---- Intel LSC per-level cache controls (ir.h ir_cache_ctl; docs/visa.md, "Fences and cache
 * controls"): l1_ctl for the SM's L1, l2_ctl for the L2. DEFAULT leaves the GPU's policy. ---- */

/* The L2 side: uncached and read-invalidate neither allocate nor keep written bytes (write-
 * through; a resident copy is updated, and dropped around reads: lsc_uncached_read,
 * lsc_read_invalidate); streaming allocates evict-first; write-back, cached and streaming keep
 * stores dirty; write-through writes through. */
static inline void lsc_l2_hints(const ir_mem_attrs *a, cache_hints *h)
{
    switch (a->l2_ctl) {
    case IR_CC_UNCACHED: case IR_CC_READ_INVALIDATE:
        h->alloc = CACHE_ALLOC_NONE;
        h->write_mode = CACHE_WRITE_THROUGH;
        break;
    case IR_CC_STREAMING: h->alloc = CACHE_ALLOC_FIRST; h->write_mode = CACHE_WRITE_BACK; break;
    case IR_CC_CACHED: case IR_CC_WRITE_BACK: h->write_mode = CACHE_WRITE_BACK; break;
    case IR_CC_WRITE_THROUGH: h->write_mode = CACHE_WRITE_THROUGH; break;
    default: break;
    }
}

/* A store's L1 side (uncached and read-invalidate go around the L1, store_line): write-back
 * and cached allocate and keep the bytes dirty, streaming too but evict-first, write-through
 * updates a resident copy and writes through without allocating. */
static inline void lsc_l1_store_hints(const ir_mem_attrs *a, cache_hints *h)
{
    switch (a->l1_ctl) {
    case IR_CC_CACHED: case IR_CC_WRITE_BACK:
        h->alloc = CACHE_ALLOC_UNCHANGED;
        h->write_mode = CACHE_WRITE_BACK;
        break;
    case IR_CC_STREAMING: h->alloc = CACHE_ALLOC_FIRST; h->write_mode = CACHE_WRITE_BACK; break;
    case IR_CC_WRITE_THROUGH:
        h->alloc = CACHE_ALLOC_NONE;
        h->write_mode = CACHE_WRITE_THROUGH;
        break;
    default: break;
    }
}

#endif

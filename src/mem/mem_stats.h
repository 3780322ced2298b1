/* Memory-hierarchy counters: what the memory system counts per launch, in total and per static
 * instruction, with the same fields everywhere (docs/statistics.md defines each one). Plain data:
 * the report layer formats it, the memory system fills it. */
#ifndef GMS_MEM_MEM_STATS_H
#define GMS_MEM_MEM_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mem_l1_counters {
    uint64_t requests;        /* warp-level requests to the L1 data cache (global and local) */
    uint64_t sector_accesses; /* 32-byte sectors those requests touched */
    uint64_t sector_hits;
    uint64_t sector_misses;
    uint64_t evictions;       /* valid lines replaced */
    uint64_t writeback_bytes; /* dirty bytes written to L2 on eviction or flush */
} mem_l1_counters;

typedef struct mem_l2_counters {
    uint64_t sector_accesses; /* sectors requested from L2 by all SMs (reads, writes, atomics) */
    uint64_t sector_hits;
    uint64_t sector_misses;
    uint64_t evictions;
    uint64_t writeback_bytes; /* dirty bytes written back to DRAM */
    /* lines resident at the end of the launch by eviction class (report only, not per insn) */
    uint64_t lines_evict_first, lines_evict_normal, lines_evict_last;
    uint64_t peak_evict_last_lines; /* most evict-last lines held at once */
} mem_l2_counters;

typedef struct mem_dram_counters {
    uint64_t read_bytes;
    uint64_t write_bytes;
} mem_dram_counters;

typedef struct mem_shared_counters {
    uint64_t requests;       /* warp-level shared-memory instructions (ld/st/atom) */
    uint64_t wavefronts;     /* bank passes needed to serve them */
    uint64_t bank_conflicts; /* wavefronts beyond one per request phase */
    uint64_t uniform_hinted; /* accesses carrying the uniform-address hint (SASS LDS.U) */
    uint64_t uniform_unmet;  /* of those, the ones whose active lanes neither all shared one
                                address nor shared it in lane pairs t, t^1 */
} mem_shared_counters;

typedef struct mem_const_counters {
    uint64_t requests;       /* warp-level constant-space reads (incl. kernel parameters) */
    uint64_t serialized;     /* extra passes for distinct addresses within one request */
    uint64_t hits, misses;   /* constant-cache line lookups */
} mem_const_counters;

typedef struct mem_icache_counters {
    uint64_t fetches, hits, misses;
} mem_icache_counters;

/* Surface accesses (image loads, stores, reductions and atomics: docs/images.md) go around the
 * L1: they count here instead of as L1 requests, and in the L2 and DRAM counters as usual. */
typedef struct mem_surface_counters {
    uint64_t requests;     /* warp-level surface accesses that reached memory */
    uint64_t sectors_l2;   /* 32-byte sectors of them the L2 served (reads) or accepted (writes) */
    uint64_t sectors_dram; /* sectors of them DRAM served (reads that missed in the L2) */
} mem_surface_counters;

/* Texture fetches (tex, tld4: docs/images.md, "The texture path") read through the L1's
 * read-only path: they count as L1 requests too, and here by the level of each sector. */
typedef struct mem_texture_counters {
    uint64_t requests;     /* warp-level texture fetches that read some texel */
    uint64_t sectors_l1, sectors_l2, sectors_dram; /* their 32-byte sectors by serving level */
} mem_texture_counters;

/* The L1 requests and sectors of global and local loads and stores (not atomics, surface or
 * texture accesses), by state space and direction: the part of the l1 counters that Nsight
 * Compute splits as l1tex__t_*_pipe_lsu_mem_{global,local}_op_{ld,st} (docs/statistics.md). A
 * line's space is the state space its address resolved to. */
typedef struct mem_lsu_counters {
    uint64_t global_load_requests, global_load_sectors, global_load_sector_hits;
    uint64_t global_store_requests, global_store_sectors;
    uint64_t local_load_requests, local_load_sectors, local_load_sector_hits;
    uint64_t local_store_requests, local_store_sectors;
} mem_lsu_counters;

typedef struct mem_counters {
    mem_l1_counters l1;
    mem_l2_counters l2;
    mem_dram_counters dram;
    mem_shared_counters shared;
    mem_const_counters constant;
    mem_icache_counters icache;
    mem_surface_counters surface;
    mem_texture_counters texture;
    mem_lsu_counters lsu;
} mem_counters;

/* Every field of mem_counters is a uint64_t counter: they add and subtract as an array. */
static inline void mem_counters_add(mem_counters *a, const mem_counters *b)
{
    uint64_t *x = (uint64_t *)a;
    const uint64_t *y = (const uint64_t *)b;
    for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++) x[i] += y[i];
}

/* *d = *a - *b, field by field. */
static inline void mem_counters_sub(mem_counters *d, const mem_counters *a, const mem_counters *b)
{
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    uint64_t *z = (uint64_t *)d;
    for (size_t i = 0; i < sizeof *d / sizeof(uint64_t); i++) z[i] = x[i] - y[i];
}

#endif

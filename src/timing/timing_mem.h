/* The memory side of the timing model (docs/timing.md, "Memory"): how many cycles one warp-level
 * access takes, from the levels the memory system says served each sector (mem_access.served,
 * .levels and the other result fields of mem/mem.h), with per-resource calendars: the L1/shared
 * pipeline's tag and wavefront throughput, MSHRs per L1 with merging, L2 slices with per-slice
 * bandwidth and near/far partition latencies, DRAM channels with bandwidth, latency and row-buffer
 * locality. Values are functional-first: the memory system has already moved the data when this
 * is asked; this only says when.
 *
 * Owner: timing_mem.c. Callers: the timing core (timing.c). Every latency and bandwidth comes
 * from the gpu_config (docs/presets.md traces each to ../reference/gpu-figures.md or marks it an
 * assumption). Deterministic: the reply depends only on the sequence of calls. */
#ifndef GMS_TIMING_TIMING_MEM_H
#define GMS_TIMING_TIMING_MEM_H

#include <stdint.h>

#include "config/gpu_config.h"
#include "mem/mem.h"

typedef struct timing_mem timing_mem;

/* When an access is accepted and done, in SM clock cycles. */
typedef struct timing_mem_reply {
    uint64_t accept;      /* cycle the SM's memory pipeline took the access, >= now; the warp
                             could not issue before it (MEMORY_THROTTLE for the cycles after
                             now) */
    uint64_t ready;       /* loads and atomics with a result: cycle the data is in the
                             destination registers; stores, reductions, cache controls: cycle
                             the access is performed at the level that accepted it (what a fence
                             waits for) */
    uint8_t long_latency; /* 1: went through L1TEX to global/local/texture/surface data
                             (a dependent instruction waits as LONG_SCOREBOARD); 0: shared,
                             constant or param (SHORT_SCOREBOARD) */
} timing_mem_reply;

/* Creates the model for the GPU `cfg` (borrowed for the call; the model copies what it needs).
 * Returns NULL when host memory ran out. */
timing_mem *timing_mem_create(const gpu_config *cfg);
void timing_mem_destroy(timing_mem *tm);

/* Starts a launch at cycle 0: every calendar empty, no access outstanding. */
void timing_mem_launch_begin(timing_mem *tm);

/* One warp-level access `a` (after memsys_access filled its results) issued by SM `sm` at cycle
 * `now`. */
timing_mem_reply timing_mem_access(timing_mem *tm, uint32_t sm, uint64_t now, const mem_access *a);

/* The accesses of one instruction, as timing_mem_on_access adds them up. The caller sets tm,
 * sm and at, and before each instruction naccess = 0, accept = ready = its issue cycle,
 * long_latency = 0. */
typedef struct timing_mem_issue {
    timing_mem *tm;       /* borrowed */
    uint32_t sm;          /* the issuing SM */
    uint32_t naccess;     /* accesses timed so far */
    uint64_t at;          /* cycle the accesses reach the memory side (timing_mem_access's now) */
    uint64_t accept;      /* the latest timing_mem_reply.accept so far, and the caller's start */
    uint64_t ready;       /* the latest .ready so far, and the caller's start */
    uint8_t long_latency; /* any .long_latency so far */
} timing_mem_issue;

/* The executor's access hook (exec_access_fn, with `user` a timing_mem_issue): times access `a`
 * as timing_mem_access does and adds its reply to the instruction's. */
void timing_mem_on_access(const mem_access *a, void *user);

#endif

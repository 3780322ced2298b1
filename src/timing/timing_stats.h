/* Counters of the timing model for one launch (docs/timing.md; reported as docs/statistics.md
 * "Timing"). Plain data: the timing model fills it, the sim layer copies it into the public
 * gms_timing_stats and the report layer prints it. All zero in functional mode (--no-timing). */
#ifndef GMS_TIMING_TIMING_STATS_H
#define GMS_TIMING_TIMING_STATS_H

#include <stdint.h>

typedef enum timing_stall {
#define TIMING_STALL(id, name, ncu, meaning) TIMING_STALL_##id,
#include "timing/timing_stalls.def"
#undef TIMING_STALL
    TIMING_STALL_COUNT
} timing_stall;

typedef struct timing_stats {
    uint8_t enabled;               /* 1: the launch ran under the timing model */
    uint64_t cycles;               /* SM clock cycles from the launch to the retirement of its
                                      last CTA (ncu sm__cycles_elapsed.max) */
    uint64_t sm_active_cycles;     /* summed over SMs: cycles with at least one resident warp
                                      (ncu sm__cycles_active.sum) */
    uint64_t warp_resident_cycles; /* summed over SMs and cycles: the resident warps; achieved
                                      occupancy = warp_resident_cycles / sm_active_cycles /
                                      max_warps_per_sm (ncu sm__warps_active.avg.pct_of_peak) */
    uint32_t max_warps_per_sm;     /* the preset's warp slots per SM */
    uint32_t sm_count;             /* SMs of the preset */
    double clock_mhz;              /* SM clock of the preset, for GB/s and seconds */
    uint64_t stalls[TIMING_STALL_COUNT]; /* warp-cycles charged to each reason; they sum to
                                            warp_resident_cycles */
} timing_stats;

/* Name of stall reason `s` as reports print it ("long_scoreboard"), "?" out of range. */
const char *timing_stall_name(timing_stall s);
/* Nsight Compute reason suffix of `s` ("lg_throttle"), "?" out of range. */
const char *timing_stall_ncu_reason(timing_stall s);
/* One-line meaning of `s`, "?" out of range. */
const char *timing_stall_meaning(timing_stall s);

#endif

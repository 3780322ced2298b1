/* The SM's memory-issue resource (docs/timing.md, "Scheduling", "The memory-issue resource"):
 * how many memory instructions an SM's warp schedulers may hand to its memory pipeline per
 * cycle, shared by all of them. One per SM, counted in ticks of 1/schedulers cycle, so that the
 * preset's pipe.mem_interval_cycles (cycles per memory instruction of one scheduler when all of
 * them take turns) is exact as an SM-wide rate: each instruction holds the resource for
 * mem_interval_cycles ticks. Requests are served in the order they are made; each scheduler
 * makes its next one only after its last was taken (timing_issue.c), so schedulers that wait
 * take turns in rotation and none can starve another.
 *
 * Owner: timing_pipe.c. Caller: timing.c (per launch), timing_issue.c (per memory
 * instruction). */
#ifndef GMS_TIMING_TIMING_PIPE_H
#define GMS_TIMING_TIMING_PIPE_H

#include <stdint.h>

#include "config/gpu_config.h"

typedef struct timing_mio {
    uint64_t *free;     /* per SM: the first tick it takes its next memory instruction */
    uint32_t nsm;
    uint32_t ticks;     /* ticks per cycle: cfg->sm.schedulers (at least 1) */
    uint32_t occupancy; /* ticks one memory instruction holds it: cfg->pipe.mem_interval_cycles */
} timing_mio;

/* Sets up `m` for a launch on `nsm` SMs of GPU `cfg` (borrowed), every SM free from cycle 0.
 * Returns 0, or -1 when host memory ran out (m holds nothing then). */
int timing_mio_init(timing_mio *m, const gpu_config *cfg, uint32_t nsm);
/* Frees what timing_mio_init allocated; a zeroed or finished `m` is allowed. */
void timing_mio_fini(timing_mio *m);
/* A scheduler of SM `sm` (< nsm) hands it a memory instruction at cycle `t`. Returns the cycle
 * (>= t) at which the SM takes it: the later of t and the end of the instruction taken before
 * it, rounded down to whole cycles (several instructions may start in one cycle when an
 * instruction holds it for less than one). */
static inline uint64_t timing_mio_take(timing_mio *m, uint32_t sm, uint64_t t)
{
    /* Inline: one call per memory instruction, whose call cost about as much as its work. */
    uint64_t start = t * m->ticks;
    if (m->free[sm] > start)
        start = m->free[sm];
    m->free[sm] = start + m->occupancy;
    return start / m->ticks;
}

#endif

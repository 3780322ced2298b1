/* The SM's memory-issue resource (timing_pipe.h; docs/timing.md, "The memory-issue
 * resource"). */
#include "timing/timing_pipe.h"

#include <stdlib.h>

int timing_mio_init(timing_mio *m, const gpu_config *cfg, uint32_t nsm)
{
    m->free = calloc(nsm ? nsm : 1, sizeof *m->free);
    if (!m->free)
        return -1;
    m->nsm = nsm;
    m->ticks = cfg->sm.schedulers ? cfg->sm.schedulers : 1;
    m->occupancy = cfg->pipe.mem_interval_cycles;
    return 0;
}

void timing_mio_fini(timing_mio *m)
{
    free(m->free);
    m->free = NULL;
    m->nsm = 0;
}

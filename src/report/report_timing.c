/* The figures the reports derive from the timing model's counters of a launch: IPC, achieved
 * occupancy, time at the preset's clock, achieved bandwidth per level and the share of each
 * stall reason (docs/statistics.md, "Timing"). */
#include <math.h>

#include "report/report.h"

/* Bytes of one shared-memory wavefront: a pass over 32 banks of 4 bytes. */
#define SHARED_WAVEFRONT_BYTES 128

static double ratio(double num, double den)
{
    return den != 0.0 ? num / den : NAN;
}

/* GB/s = bytes / (cycles / (clock_mhz * 1e6)) / 1e9, computed as bytes per cycle * clock_mhz /
 * 1000 so that round figures stay round. */
static void bandwidth(report_bandwidth *b, uint64_t bytes, const timing_stats *t)
{
    b->bytes = bytes;
    b->bytes_per_cycle = ratio((double)bytes, (double)t->cycles);
    b->gb_per_s = t->clock_mhz > 0.0 ? b->bytes_per_cycle * t->clock_mhz / 1000.0 : NAN;
}

void report_timing_derive(const report_model *m, const timing_stats *t, const mem_counters *c,
                          uint64_t warp_instructions, report_timing *out)
{
    uint64_t l1_sector = m && m->l1_sector_bytes ? m->l1_sector_bytes : 32;
    uint64_t l2_sector = m && m->l2_sector_bytes ? m->l2_sector_bytes : 32;
    out->ipc = ratio((double)warp_instructions, (double)t->sm_active_cycles);
    out->achieved_occupancy = ratio((double)t->warp_resident_cycles,
                                    (double)t->sm_active_cycles * t->max_warps_per_sm);
    out->seconds_at_clock = ratio((double)t->cycles, t->clock_mhz * 1e6);
    bandwidth(&out->l1, c->l1.sector_accesses * l1_sector, t);
    bandwidth(&out->l2, c->l2.sector_accesses * l2_sector, t);
    bandwidth(&out->dram, c->dram.read_bytes + c->dram.write_bytes, t);
    bandwidth(&out->shared, c->shared.wavefronts * SHARED_WAVEFRONT_BYTES, t);
    out->stall_total = 0;
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
        out->stall_total += t->stalls[r];
    for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
        out->stall_shares[r] = ratio((double)t->stalls[r], (double)out->stall_total);
}

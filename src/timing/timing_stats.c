/* Names of the stall reasons (timing_stalls.def). */
#include "timing/timing_stats.h"

static const char *const stall_names[] = {
#define TIMING_STALL(id, name, ncu, meaning) name,
#include "timing/timing_stalls.def"
#undef TIMING_STALL
};
static const char *const stall_ncu[] = {
#define TIMING_STALL(id, name, ncu, meaning) ncu,
#include "timing/timing_stalls.def"
#undef TIMING_STALL
};
static const char *const stall_meanings[] = {
#define TIMING_STALL(id, name, ncu, meaning) meaning,
#include "timing/timing_stalls.def"
#undef TIMING_STALL
};

const char *timing_stall_name(timing_stall s)
{
    return (unsigned)s < TIMING_STALL_COUNT ? stall_names[s] : "?";
}

const char *timing_stall_ncu_reason(timing_stall s)
{
    return (unsigned)s < TIMING_STALL_COUNT ? stall_ncu[s] : "?";
}

const char *timing_stall_meaning(timing_stall s)
{
    return (unsigned)s < TIMING_STALL_COUNT ? stall_meanings[s] : "?";
}

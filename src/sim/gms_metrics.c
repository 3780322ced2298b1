/* The Nsight Compute metric mapping of the public API (gpumemsim.h; docs/statistics.md,
 * "Nsight Compute metrics"): the rows of the report layer's table (src/report/report_ncu.def),
 * for programs such as `gpumemsim metrics` that list them. */
#include "report/report.h"
#include "sim/gms_internal.h"

size_t gms_metric_count(void)
{
    return report_ncu_count();
}

gms_status gms_metric_get(size_t i, gms_metric_info *out)
{
    const report_ncu_metric *m = report_ncu_metric_at(i);
    if (!m || !out)
        return GMS_ERR_ARGUMENT;
    out->name = m->name;
    out->unit = m->unit;
    out->how = m->how;
    out->needs_timing = m->needs_timing;
    return GMS_OK;
}

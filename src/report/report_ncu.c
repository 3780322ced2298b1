/* The Nsight Compute metric mapping: the rows of report_ncu.def, then one
 * smsp__warp_issue_stalled_<reason>_per_warp_active.pct row per stall reason of
 * timing/timing_stalls.def, and their evaluation for one launch.
 *
 * The table is the only list of metrics: the JSON report's "ncu" objects, `gpumemsim metrics`
 * and the table in docs/statistics.md ("Nsight Compute metrics") all come from it; a unit test
 * checks that the documentation lists every row. */
#include <string.h>

#include "report/report.h"

/* What the expressions of report_ncu.def read. */
typedef struct report_ncu_ctx {
    const report_launch *l;
    const mem_counters *c;
    const timing_stats *t;
    uint64_t l1_sector_bytes, l2_sector_bytes;
} report_ncu_ctx;

enum {
#define REPORT_NCU_COUNT(id, name, unit, timing, how, count) NCU_##id,
#define REPORT_NCU_RATIO(id, name, unit, timing, how, num, den, scale) NCU_##id,
#include "report/report_ncu.def"
#undef REPORT_NCU_COUNT
#undef REPORT_NCU_RATIO
    NCU_TABLE_ROWS, /* the stall-reason rows follow */
    NCU_ROWS = NCU_TABLE_ROWS + TIMING_STALL_COUNT
};

static const report_ncu_metric metrics[NCU_ROWS] = {
#define REPORT_NCU_COUNT(id, name, unit, timing, how, count) {name, unit, how, timing},
#define REPORT_NCU_RATIO(id, name, unit, timing, how, num, den, scale) {name, unit, how, timing},
#include "report/report_ncu.def"
#undef REPORT_NCU_COUNT
#undef REPORT_NCU_RATIO
/* The stall reasons: the share of resident warp-cycles charged to the reason, which is what
 * ncu's per_warp_active.pct ratio of the reason measures. */
#define TIMING_STALL(id, name, ncu, meaning)                                                  \
    {"smsp__warp_issue_stalled_" ncu "_per_warp_active.pct", "%",                             \
     "100 * timing.stalls." name " / the sum of timing.stalls (warp_resident_cycles). " name  \
     ": " meaning, 1},
#include "timing/timing_stalls.def"
#undef TIMING_STALL
};

size_t report_ncu_count(void)
{
    return NCU_ROWS;
}

const report_ncu_metric *report_ncu_metric_at(size_t i)
{
    return i < NCU_ROWS ? &metrics[i] : NULL;
}

size_t report_ncu_find(const char *name)
{
    for (size_t i = 0; name && i < NCU_ROWS; i++)
        if (strcmp(metrics[i].name, name) == 0)
            return i;
    return (size_t)-1;
}

static report_ncu_kind set_count(report_ncu_value *out, uint64_t count)
{
    out->kind = REPORT_NCU_INTEGER;
    out->count = count;
    return out->kind;
}

static report_ncu_kind set_ratio(report_ncu_value *out, double num, double den, double scale)
{
    if (den == 0.0) {
        out->kind = REPORT_NCU_UNDEFINED;
        return out->kind;
    }
    out->kind = REPORT_NCU_REAL;
    out->real = num / den * scale;
    return out->kind;
}

/* Row i of the table (i < NCU_TABLE_ROWS). */
static report_ncu_kind evaluate_row(const report_ncu_ctx *x, size_t i, report_ncu_value *out)
{
    switch (i) {
#define REPORT_NCU_COUNT(id, name, unit, timing, how, count)                                  \
    case NCU_##id:                                                                            \
        return set_count(out, (uint64_t)(count));
#define REPORT_NCU_RATIO(id, name, unit, timing, how, num, den, scale)                        \
    case NCU_##id:                                                                            \
        return set_ratio(out, (double)(num), (double)(den), scale);
#include "report/report_ncu.def"
#undef REPORT_NCU_COUNT
#undef REPORT_NCU_RATIO
    default:
        out->kind = REPORT_NCU_ABSENT;
        return out->kind;
    }
}

report_ncu_kind report_ncu_evaluate(const report_model *m, const report_launch *l, size_t i,
                                    report_ncu_value *out)
{
    report_ncu_value ignored;
    if (!out)
        out = &ignored;
    memset(out, 0, sizeof *out);
    if (i >= NCU_ROWS || !l || (metrics[i].needs_timing && !l->timing.enabled))
        return REPORT_NCU_ABSENT;
    report_ncu_ctx x = {.l = l, .c = &l->counters, .t = &l->timing, .l1_sector_bytes = 32,
                        .l2_sector_bytes = 32};
    if (m && m->l1_sector_bytes)
        x.l1_sector_bytes = m->l1_sector_bytes;
    if (m && m->l2_sector_bytes)
        x.l2_sector_bytes = m->l2_sector_bytes;
    if (i >= NCU_TABLE_ROWS) {
        uint64_t total = 0;
        for (size_t r = 0; r < TIMING_STALL_COUNT; r++)
            total += l->timing.stalls[r];
        return set_ratio(out, (double)l->timing.stalls[i - NCU_TABLE_ROWS], (double)total,
                         100.0);
    }
    return evaluate_row(&x, i, out);
}

/* `gpumemsim metrics`: prints the Nsight Compute metric mapping from the public API
 * (gms_metric_count, gms_metric_get), as an aligned table a person can read and a script can
 * split on runs of two spaces. The command takes no option but --help. */
#include <stdio.h>
#include <string.h>

#include "gpumemsim/gpumemsim.h"
#include "metrics.h"

static const char usage[] =
    "usage: gpumemsim metrics [NAME...] [options]\n"
    "list the Nsight Compute metrics the JSON report gives per launch (its \"ncu\" objects) and\n"
    "how gpumemsim computes each; with NAMEs, only those (docs/statistics.md)\n"
    "\n"
    "options:\n"
    "  --help                 print this help and exit\n"
    "\n"
    "exit status: 0 success, 2 bad input (an unknown option or metric name)\n";

/* The index of the metric named `name`, or -1. */
static long find_metric(const char *name)
{
    gms_metric_info info;
    for (size_t i = 0; gms_metric_get(i, &info) == GMS_OK; i++)
        if (strcmp(info.name, name) == 0)
            return (long)i;
    return -1;
}

static void print_row(const gms_metric_info *m, int name_width, int unit_width)
{
    printf("%-*s  %-*s  %-6s  %s\n", name_width, m->name, unit_width, m->unit,
           m->needs_timing ? "timing" : "always", m->how);
}

/* Checks every argument before printing anything: a mistake prints no partial table. */
static int check_arguments(int argc, char **argv)
{
    int status = 0;
    for (int a = 1; a < argc; a++) {
        if (argv[a][0] == '-') {
            fprintf(stderr, "gpumemsim: error: metrics: unknown option '%s'; `gpumemsim metrics "
                            "--help` shows the usage [CLI-METRICS-002]\n", argv[a]);
            status = 2;
        } else if (find_metric(argv[a]) < 0) {
            fprintf(stderr, "gpumemsim: error: metrics: no metric '%s' in the mapping; "
                            "`gpumemsim metrics` lists them [CLI-METRICS-001]\n", argv[a]);
            status = 2;
        }
    }
    return status;
}

int metrics_command(int argc, char **argv)
{
    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    int status = check_arguments(argc, argv);
    if (status)
        return status;
    size_t n = gms_metric_count();
    int name_width = (int)strlen("# metric"), unit_width = (int)strlen("unit");
    gms_metric_info info;
    for (size_t i = 0; i < n && gms_metric_get(i, &info) == GMS_OK; i++) {
        if ((int)strlen(info.name) > name_width)
            name_width = (int)strlen(info.name);
        if ((int)strlen(info.unit) > unit_width)
            unit_width = (int)strlen(info.unit);
    }
    printf("%-*s  %-*s  %-6s  %s\n", name_width, "# metric", unit_width, "unit", "when",
           "how gpumemsim computes it");
    if (argc > 1) {
        for (int a = 1; a < argc; a++)
            if (gms_metric_get((size_t)find_metric(argv[a]), &info) == GMS_OK)
                print_row(&info, name_width, unit_width);
    } else {
        for (size_t i = 0; i < n && gms_metric_get(i, &info) == GMS_OK; i++)
            print_row(&info, name_width, unit_width);
    }
    return fflush(stdout) == 0 ? 0 : 2;
}

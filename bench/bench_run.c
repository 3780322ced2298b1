/* Throughput benchmark: runs launch files through the simulator and reports simulated warp
 * instructions per second of executor time (host time inside the launches, excluding parsing,
 * buffer set-up and output checks), in the functional mode (--no-timing) and under the timing
 * model, side by side. Each file runs `reps` times in each mode; the best run counts. The
 * functional runs use one host thread unless -t says more (the issues' targets are per core;
 * bench/scaling.sh measures the threads).
 *
 * usage: bench_run [-r REPS] [-t THREADS] LAUNCH.json...   (prints one table row per file) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumemsim/run.h"

/* The fastest of `reps` runs of `path` (timing off or on) into *best seconds and its totals into
 * *t. Returns 0, or 1 after printing why a run failed. */
static int best_run(const char *path, int no_timing, int reps, uint32_t threads, double *best,
                    gms_totals *t)
{
    *best = 0;
    for (int r = 0; r < reps; r++) {
        gms_diag_list *dl = gms_diag_list_create();
        gms_run_options opt = {.no_timing = no_timing, .threads = no_timing ? threads : 1};
        gms_run *res = NULL;
        gms_status st = gms_run_file(path, &opt, &res, dl);
        gms_fault f;
        if (st != GMS_OK || gms_device_totals(gms_run_device(res), t) != GMS_OK) {
            int faulted = res && gms_device_fault(gms_run_device(res), &f) == GMS_OK;
            gms_diag_list_print(dl, stderr);
            fprintf(stderr, "%s: run failed (%s)%s%s\n", path, gms_status_name(st),
                    faulted ? ": " : "", faulted ? f.message : "");
            gms_run_destroy(res);
            gms_diag_list_destroy(dl);
            return 1;
        }
        if (*best == 0 || t->seconds < *best)
            *best = t->seconds;
        gms_run_destroy(res);
        gms_diag_list_destroy(dl);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int reps = 3, first = 1, threads = 1;
    while (first + 1 < argc && (strcmp(argv[first], "-r") == 0 || strcmp(argv[first], "-t") == 0)) {
        *(argv[first][1] == 'r' ? &reps : &threads) = atoi(argv[first + 1]);
        first += 2;
    }
    if (first >= argc || reps < 1 || threads < 1 || threads > 1024) {
        fprintf(stderr, "usage: bench_run [-r REPS] [-t THREADS] LAUNCH.json...\n");
        return 2;
    }
    printf("%-28s %12s %12s %9s %9s %9s %9s %7s\n", "launch file", "warp insts", "cycles",
           "off s", "off M/s", "on s", "on M/s", "on/off");
    int status = 0;
    for (int i = first; i < argc; i++) {
        double off, on;
        gms_totals toff, ton;
        if (best_run(argv[i], 1, reps, (uint32_t)threads, &off, &toff) ||
            best_run(argv[i], 0, reps, 1, &on, &ton)) {
            status = 1;
            continue;
        }
        const char *name = strrchr(argv[i], '/');
        name = name ? name + 1 : argv[i];
        if (off > 0 && on > 0)
            printf("%-28s %12llu %12llu %9.4f %9.2f %9.4f %9.2f %7.2f\n", name,
                   (unsigned long long)ton.warp_instructions, (unsigned long long)ton.cycles, off,
                   toff.warp_instructions / off / 1e6, on, ton.warp_instructions / on / 1e6,
                   on / off);
    }
    return status;
}

/* Throughput benchmark: runs launch files through the simulator and reports simulated warp and
 * thread instructions per second of executor time (host time inside the launches, excluding
 * parsing, buffer set-up and output checks). Each file runs `reps` times; the best run counts.
 *
 * usage: bench_run [-r REPS] LAUNCH.json...   (prints one table row per file) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumemsim/run.h"

int main(int argc, char **argv)
{
    int reps = 3, first = 1;
    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        reps = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || reps < 1) {
        fprintf(stderr, "usage: bench_run [-r REPS] LAUNCH.json...\n");
        return 2;
    }
    printf("%-28s %14s %14s %10s %12s %12s\n", "launch file", "warp insts", "thread insts",
           "best s", "M warp/s", "M thread/s");
    int status = 0;
    for (int i = first; i < argc; i++) {
        double best = 0;
        uint64_t winst = 0, tinst = 0;
        for (int r = 0; r < reps; r++) {
            gms_diag_list *dl = gms_diag_list_create();
            gms_run_options opt = {0};
            gms_run *res = NULL;
            gms_status st = gms_run_file(argv[i], &opt, &res, dl);
            gms_fault f;
            gms_totals t;
            if (st != GMS_OK || gms_device_totals(gms_run_device(res), &t) != GMS_OK) {
                int faulted = res && gms_device_fault(gms_run_device(res), &f) == GMS_OK;
                gms_diag_list_print(dl, stderr);
                fprintf(stderr, "%s: run failed (%s)%s%s\n", argv[i], gms_status_name(st),
                        faulted ? ": " : "", faulted ? f.message : "");
                status = 1;
                gms_run_destroy(res);
                gms_diag_list_destroy(dl);
                break;
            }
            if (best == 0 || t.seconds < best)
                best = t.seconds;
            winst = t.warp_instructions;
            tinst = t.thread_instructions;
            gms_run_destroy(res);
            gms_diag_list_destroy(dl);
        }
        const char *name = strrchr(argv[i], '/');
        name = name ? name + 1 : argv[i];
        if (best > 0)
            printf("%-28s %14llu %14llu %10.4f %12.2f %12.2f\n", name, (unsigned long long)winst,
                   (unsigned long long)tinst, best, winst / best / 1e6, tinst / best / 1e6);
    }
    return status;
}

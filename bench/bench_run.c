/* Throughput benchmark: runs launch files through the simulator and reports simulated warp
 * instructions per second of executor time (host time inside the launches, excluding parsing,
 * buffer set-up and output checks), in the functional mode (--no-timing) and under the timing
 * model, side by side. Each file runs `reps` times in each mode, the modes alternated (off, on,
 * off, on, ...) so that a change of the host's speed during the file's runs touches both; the
 * best run of each mode counts. The functional runs use one host thread unless -t says more
 * (the issues' targets are per core; bench/scaling.sh measures the threads).
 *
 * The host's own speed is probed before each file and at the end (a fixed chain of integer
 * multiplies, timed by the wall clock): on a shared or virtual machine it can move by 2x from
 * minute to minute, and one CPU can run at a third of another's (bench/README.md, "Session
 * 21"). With one thread, each file's runs are pinned to the CPU on which the probe ran fastest
 * just before (every CPU the process may use is probed, up to 16): the figures are per core,
 * and a core that the host lends to someone else at the time is not one. A footer says how far
 * the fastest CPU's probe moved during the run, with a warning when that is more than 20%.
 *
 * usage: bench_run [-r REPS] [-t THREADS] LAUNCH.json...   (prints one table row per file, then
 * the speed targets of issues 12 and 13 for the files that have one, each marked met or not,
 * then the host-speed footer) */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumemsim/run.h"
#include "host_probe.h"

/* A speed target of the issues (M warp instructions per second on one core; 0: none): issue 13
 * items 1 and 2 for the functional mode, issue 12 item 5 for the timing model, which must also
 * stay within `max_ratio` of the functional mode's time (bench/README.md, "Reading the
 * table"). */
typedef struct speed_target {
    const char *file;
    double off_min, on_min, max_ratio;
} speed_target;

static const speed_target targets[] = {
    {"saxpy_1m.json", 10, 5, 2},   {"stencil_512.json", 10, 5, 2},
    {"transpose_1k.json", 10, 5, 2}, {"matmul_256.json", 10, 5, 2},
    {"matvec_cols_4k.json", 2, 0, 0}, {"aos_update_1m.json", 2, 0, 0},
};
enum { TARGET_COUNT = sizeof targets / sizeof targets[0] };

/* One measured row, kept for the targets' summary. */
typedef struct measured {
    double off_mps, on_mps, ratio;
    int have;
} measured;

/* The target of launch file `name` (its base name), or NULL. */
static const speed_target *target_of(const char *name)
{
    for (unsigned i = 0; i < TARGET_COUNT; i++)
        if (strcmp(targets[i].file, name) == 0)
            return &targets[i];
    return NULL;
}

/* Prints one line per measured file that has a target: the figure against each target and
 * whether it is met. */
static void print_targets(const measured *m)
{
    int any = 0;
    for (unsigned i = 0; i < TARGET_COUNT; i++)
        any |= m[i].have;
    if (!any)
        return;
    printf("\nspeed targets (one core): functional M/s (issue 13 items 1, 2), timing on M/s and "
           "on/off (issue 12 item 5)\n");
    for (unsigned i = 0; i < TARGET_COUNT; i++) {
        const speed_target *t = &targets[i];
        if (!m[i].have)
            continue;
        printf("%-28s off %6.2f >= %4.1f %-7s", t->file, m[i].off_mps, t->off_min,
               m[i].off_mps >= t->off_min ? "met" : "not met");
        if (t->on_min > 0)
            printf("  on %6.2f >= %4.1f %-7s  on/off %5.2f <= %3.1f %s", m[i].on_mps, t->on_min,
                   m[i].on_mps >= t->on_min ? "met" : "not met", m[i].ratio, t->max_ratio,
                   m[i].ratio <= t->max_ratio ? "met" : "not met");
        printf("\n");
    }
}

/* One run of `path` (timing off or on): its seconds inside the launches into *seconds and its
 * totals into *t. Returns 0, or 1 after printing why the run failed. */
static int one_run(const char *path, int no_timing, uint32_t threads, double *seconds,
                   gms_totals *t)
{
    gms_diag_list *dl = gms_diag_list_create();
    gms_run_options opt = {.no_timing = no_timing, .threads = no_timing ? threads : 1};
    gms_run *res = NULL;
    gms_status st = gms_run_file(path, &opt, &res, dl);
    gms_fault f;
    int failed = st != GMS_OK || gms_device_totals(gms_run_device(res), t) != GMS_OK;
    if (failed) {
        int faulted = res && gms_device_fault(gms_run_device(res), &f) == GMS_OK;
        gms_diag_list_print(dl, stderr);
        fprintf(stderr, "%s: run failed (%s)%s%s\n", path, gms_status_name(st),
                faulted ? ": " : "", faulted ? f.message : "");
    } else {
        *seconds = t->seconds;
    }
    gms_run_destroy(res);
    gms_diag_list_destroy(dl);
    return failed;
}

/* The fastest of `reps` runs of `path` in each mode, alternated, into *off and *on (seconds)
 * and their totals into *toff and *ton. Returns 0, or 1 when a run failed. */
static int best_runs(const char *path, int reps, uint32_t threads, double *off, gms_totals *toff,
                     double *on, gms_totals *ton)
{
    *off = *on = 0;
    for (int r = 0; r < reps; r++) {
        double s;
        gms_totals t;
        if (one_run(path, 1, threads, &s, &t))
            return 1;
        if (*off == 0 || s < *off) {
            *off = s;
            *toff = t;
        }
        if (one_run(path, 0, 1, &s, &t))
            return 1;
        if (*on == 0 || s < *on) {
            *on = s;
            *ton = t;
        }
    }
    return 0;
}

/* The probes' range so far, and the CPUs to choose from (pin_fastest). */
typedef struct probes {
    double min_ms, max_ms;
    unsigned n;
    cpu_set_t allowed;  /* the CPUs the process may use, as it started */
    int pin;            /* 1: pin each file's runs to the fastest CPU (one thread) */
} probes;

static void probe_take(probes *p)
{
    double ms;
    if (p->pin)
        pin_fastest(&p->allowed, &ms); /* the fastest CPU's probe (or, unpinned, any one's) */
    else
        ms = probe_ms();
    if (p->n == 0 || ms < p->min_ms)
        p->min_ms = ms;
    if (p->n == 0 || ms > p->max_ms)
        p->max_ms = ms;
    p->n++;
}

/* The footer: how far the host's speed moved during the run, and a warning past 20%. */
static void print_probes(const probes *p)
{
    if (p->n == 0 || p->min_ms <= 0)
        return;
    double spread = p->max_ms / p->min_ms;
    printf("\nhost speed probe%s: %.1f to %.1f ms over %u probes (x%.2f)%s\n",
           p->pin ? " (each file pinned to the CPU fastest just before it)" : "", p->min_ms,
           p->max_ms, p->n, spread,
           spread > 1.2 ? ": the host's speed moved by more than 20% during the run, so rows "
                          "taken at different moments do not compare; rerun for figures"
                        : "");
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
    measured seen[TARGET_COUNT] = {{0}};
    probes host = {0};
    /* several threads need several CPUs: pinned runs only with one */
    host.pin = threads == 1 && sched_getaffinity(0, sizeof host.allowed, &host.allowed) == 0;
    for (int i = first; i < argc; i++) {
        double off, on;
        gms_totals toff = {0}, ton = {0};
        probe_take(&host);
        if (best_runs(argv[i], reps, (uint32_t)threads, &off, &toff, &on, &ton)) {
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
        const speed_target *t = target_of(name);
        if (t && off > 0 && on > 0 && threads == 1)
            seen[t - targets] = (measured){toff.warp_instructions / off / 1e6,
                                           ton.warp_instructions / on / 1e6, on / off, 1};
    }
    probe_take(&host);
    print_targets(seen);
    print_probes(&host);
    return status;
}

/* The host's speed at the moment, per CPU, for the benchmark tools (bench_run.c,
 * bench_core_latency.c; bench/README.md, "Session 21"): on a shared or virtual machine one CPU
 * can run at a third of another's for minutes, and the whole machine can slow down.
 * Static functions: each tool is one file with its own main. The includer defines _GNU_SOURCE
 * before its first include (sched_setaffinity, CPU_SET). */
#ifndef GMS_BENCH_HOST_PROBE_H
#define GMS_BENCH_HOST_PROBE_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/* CPUs probed at most: the first this many that the process may use. */
enum { HOST_PROBE_CPUS = 16 };

/* Wall milliseconds that a fixed chain of 20 million dependent multiply-adds takes on the
 * calling thread (about 20 ms on a 4 GHz core). */
static double probe_ms(void)
{
    struct timespec a, b;
    uint64_t x = 1;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (uint32_t i = 0; i < 20000000u; i++) {
        x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        __asm__ volatile("" : "+r"(x)); /* one step after the other, none folded away */
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

/* Pins the calling thread to CPU `cpu`. Returns 0, or -1 (sched_setaffinity's failure). */
static int pin_thread_to(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

/* Probes each of the first HOST_PROBE_CPUS CPUs of `allowed` with the calling thread pinned to
 * it: their numbers into cpus[] and their probe_ms into ms[] (room for HOST_PROBE_CPUS each).
 * Returns how many; a CPU that cannot be pinned is left out. The thread stays pinned to the
 * last one probed. */
static int probe_cpus(const cpu_set_t *allowed, int *cpus, double *ms)
{
    int n = 0, seen = 0;
    for (int c = 0; c < CPU_SETSIZE && seen < HOST_PROBE_CPUS; c++) {
        if (!CPU_ISSET(c, allowed))
            continue;
        seen++;
        if (pin_thread_to(c) != 0)
            continue;
        cpus[n] = c;
        ms[n++] = probe_ms();
    }
    return n;
}

/* Pins the calling thread to the CPU of `allowed` whose probe is the fastest now and returns
 * it, with that probe's milliseconds in *ms; -1 when no CPU could be pinned (then *ms is the
 * probe of wherever the thread runs). */
static int pin_fastest(const cpu_set_t *allowed, double *ms)
{
    int cpus[HOST_PROBE_CPUS];
    double each[HOST_PROBE_CPUS];
    int n = probe_cpus(allowed, cpus, each), best = -1;
    for (int i = 0; i < n; i++)
        if (best < 0 || each[i] < each[best])
            best = i;
    if (best < 0 || pin_thread_to(cpus[best]) != 0) {
        *ms = probe_ms();
        return -1;
    }
    *ms = each[best];
    return cpus[best];
}

#endif

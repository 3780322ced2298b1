/* How long two host CPUs take to pass one cache line back and forth: the first CPU the process
 * may run on against each other one (up to 8), two threads pinned to the pair, the line's
 * owner changed 100,000 times each way; prints the best of three round trips in nanoseconds.
 *
 * Why it matters: with --threads above 1 the SMs' store logs, parked loads and phase hand-overs
 * move between threads (docs/architecture.md, "SMs on several host threads"), so the speed-up
 * depends on this latency as much as on the cores' number. Two cores of one die exchange a
 * line in well under 100 ns (round trip); session 21's virtual machine took 430 to 470 ns, the
 * latency across dies, and its two threads were slower than one on the memory-bound files
 * (bench/README.md, "Session 21"). bench/scaling.sh prints this before its table.
 *
 * With --speeds it prints instead each CPU's probe (host_probe.h: a fixed chain of 20 million
 * multiply-adds, the thread pinned to the CPU), "cpuN MS" a line, for the CPUs the process may
 * use (up to 16); with --fastest, the number of the CPU whose probe is the fastest now. Both are
 * for bench/scaling.sh: on a virtual machine one CPU can run at a third of another's for
 * minutes, so it prints the CPUs' speeds and pins its one-thread runs to the faster core.
 *
 * usage: bench_core_latency [--speeds | --fastest]   (exit status 0; 1 when a thread cannot be
 * started or pinned; 2 bad usage) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "host_probe.h"

enum { TRIPS = 100000, TRIES = 3, MAX_PEERS = 8 };

/* The line passed between the two threads: odd values are the first thread's moves, even
 * values the second's. */
static _Alignas(64) _Atomic uint64_t baton;

static void *answer(void *arg)
{
    if (pin_thread_to(*(int *)arg) != 0)
        return (void *)1;
    for (uint64_t i = 0; i < TRIPS; i++) {
        while (atomic_load_explicit(&baton, memory_order_acquire) != 2 * i + 1) {
        }
        atomic_store_explicit(&baton, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

/* Nanoseconds of one round trip between CPUs `first` and `peer`, or -1. */
static double round_trip_ns(int first, int peer)
{
    atomic_store(&baton, 0);
    pthread_t t;
    if (pin_thread_to(first) != 0 || pthread_create(&t, NULL, answer, &peer) != 0)
        return -1;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (uint64_t i = 0; i < TRIPS; i++) {
        atomic_store_explicit(&baton, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&baton, memory_order_acquire) != 2 * i + 2) {
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    void *failed = NULL;
    pthread_join(t, &failed);
    if (failed)
        return -1;
    return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / TRIPS;
}

/* --speeds: each probed CPU's milliseconds, a line each; --fastest: the fastest CPU. */
static int print_probes(const cpu_set_t *allowed, int fastest)
{
    if (fastest) {
        double ms;
        int cpu = pin_fastest(allowed, &ms);
        if (cpu < 0)
            return 1;
        printf("%d\n", cpu);
        return 0;
    }
    int cpus[HOST_PROBE_CPUS];
    double ms[HOST_PROBE_CPUS];
    int n = probe_cpus(allowed, cpus, ms);
    for (int i = 0; i < n; i++) printf("cpu%d %.3f\n", cpus[i], ms[i]);
    return n ? 0 : 1;
}

int main(int argc, char **argv)
{
    int fastest = argc == 2 && strcmp(argv[1], "--fastest") == 0;
    int speeds = argc == 2 && strcmp(argv[1], "--speeds") == 0;
    if (argc > 1 && !fastest && !speeds) {
        fprintf(stderr, "usage: bench_core_latency [--speeds | --fastest]\n");
        return 2;
    }
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return 1;
    if (fastest || speeds)
        return print_probes(&allowed, fastest);
    int cpus[MAX_PEERS + 1], n = 0;
    for (int c = 0; c < CPU_SETSIZE && n <= MAX_PEERS; c++)
        if (CPU_ISSET(c, &allowed))
            cpus[n++] = c;
    if (n < 2) {
        printf("core latency: one CPU, nothing to measure\n");
        return 0;
    }
    for (int k = 1; k < n; k++) {
        double best = -1;
        for (int r = 0; r < TRIES; r++) {
            double ns = round_trip_ns(cpus[0], cpus[k]);
            if (ns < 0)
                return 1;
            if (best < 0 || ns < best)
                best = ns;
        }
        printf("core latency: cpu%d <-> cpu%d, one cache line's round trip %.0f ns\n", cpus[0],
               cpus[k], best);
    }
    return 0;
}

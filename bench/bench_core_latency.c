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
 * With --fastest it prints instead the number of the CPU (of those the process may use, up to
 * 16) on which a fixed chain of 20 million multiply-adds runs fastest now, for bench/scaling.sh
 * to pin its one-thread runs there: on a virtual machine one CPU can run at a third of another's
 * for minutes, and a speed-up is then measured against the better core.
 *
 * usage: bench_core_latency [--fastest]   (exit status 0; 1 when a thread cannot be started or
 * pinned; 2 bad usage) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { TRIPS = 100000, TRIES = 3, MAX_PEERS = 8 };

/* The line passed between the two threads: odd values are the first thread's moves, even
 * values the second's. */
static _Alignas(64) _Atomic uint64_t baton;

static int pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *answer(void *arg)
{
    if (pin_to(*(int *)arg) != 0)
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
    if (pin_to(first) != 0 || pthread_create(&t, NULL, answer, &peer) != 0)
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

/* Milliseconds of a fixed chain of 20 million dependent multiply-adds on the calling thread. */
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

/* --fastest: prints the CPU of `allowed` (the first 16) whose probe is the fastest. */
static int print_fastest(const cpu_set_t *allowed)
{
    int best_cpu = -1, seen = 0;
    double best = 0;
    for (int c = 0; c < CPU_SETSIZE && seen < 16; c++) {
        if (!CPU_ISSET(c, allowed))
            continue;
        seen++;
        if (pin_to(c) != 0)
            continue;
        double ms = probe_ms();
        if (best_cpu < 0 || ms < best) {
            best = ms;
            best_cpu = c;
        }
    }
    if (best_cpu < 0)
        return 1;
    printf("%d\n", best_cpu);
    return 0;
}

int main(int argc, char **argv)
{
    int fastest = argc == 2 && strcmp(argv[1], "--fastest") == 0;
    if (argc > 1 && !fastest) {
        fprintf(stderr, "usage: bench_core_latency [--fastest]\n");
        return 2;
    }
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return 1;
    if (fastest)
        return print_fastest(&allowed);
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

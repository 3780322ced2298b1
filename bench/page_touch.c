/* The host's cost of first touches: maps MIB MiB at a 2 MiB boundary, advises it to take 4 KiB
 * pages (HUGE 0) or 2 MiB pages (HUGE 1), writes one byte every 4 KiB and prints the best of
 * seven times, in all and per 4 KiB. The figures behind src/base/pages.h's choices (bench/README.md,
 * "Session 17: lead"). Not part of the build:
 *   cc -O2 -o /tmp/page_touch bench/page_touch.c && /tmp/page_touch 16 0 && /tmp/page_touch 16 1 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: page_touch MIB HUGE\n");
        return 2;
    }
    const size_t huge_bytes = (size_t)2 << 20, small = 4096;
    size_t bytes = (size_t)atoi(argv[1]) << 20;
    int huge = atoi(argv[2]);
    double best = 1e9;
    for (int r = 0; r < 7; r++) {
        uint8_t *m = mmap(NULL, bytes + huge_bytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return 1;
        uint8_t *p = (uint8_t *)(((uintptr_t)m + huge_bytes - 1) & ~(uintptr_t)(huge_bytes - 1));
        madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        double t = seconds();
        for (size_t o = 0; o < bytes; o += small) p[o] = 1;
        t = seconds() - t;
        if (t < best)
            best = t;
        munmap(m, bytes + huge_bytes);
    }
    printf("%zu MiB, %s pages: %.2f ms, %.2f us per 4 KiB\n", bytes >> 20, huge ? "2 MiB" : "4 KiB",
           best * 1e3, best * 1e6 / (double)(bytes / small));
    return 0;
}

/* Scans of a warp scheduler's ready cycles (docs/timing.md, "Model"): which of its entries
 * are ready by a cycle, and the earliest of them. Each event of the timing model asks both, over
 * the scheduler's 16 or so entries, so they have an AVX2 version, chosen once per launch after a
 * CPU check (timing_scan_has_avx2), beside a plain one; both give the same answers.
 *
 * Owner: timing_scan.c. Caller: timing_issue.c. */
#ifndef GMS_TIMING_TIMING_SCAN_H
#define GMS_TIMING_TIMING_SCAN_H

#include <stdint.h>

/* 1 when this CPU runs the AVX2 versions. */
int timing_scan_has_avx2(void);

/* A bit mask of the entries of ready[0 .. n) (n <= 64; cycles) that are <= t: bit k for
 * ready[k]. The plain versions are inline: they serve the schedulers with few entries, where a
 * call cost as much as the loop. */
static inline uint64_t timing_scan_ready_plain(const uint64_t *ready, uint32_t n, uint64_t t)
{
    uint64_t m = 0;
    for (uint32_t k = 0; k < n; k++) m |= (uint64_t)(ready[k] <= t) << k;
    return m;
}
uint64_t timing_scan_ready_avx2(const uint64_t *ready, uint32_t n, uint64_t t);

/* The least of ready[0 .. n) (cycles), UINT64_MAX when n is 0; when that is <= `enough`, any
 * entry <= `enough` may be returned instead (the plain version stops at the first). */
static inline uint64_t timing_scan_min_plain(const uint64_t *ready, uint32_t n, uint64_t enough)
{
    uint64_t least = UINT64_MAX;
    for (uint32_t k = 0; k < n && least > enough; k++)
        if (ready[k] < least)
            least = ready[k];
    return least;
}
uint64_t timing_scan_min_avx2(const uint64_t *ready, uint32_t n, uint64_t enough);

/* The least of ready[0 .. 4) (cycles), without a loop: for schedulers with at most four entries
 * in use whose others (up to four) are never ready (UINT64_MAX), where it is the least of the
 * entries in use. */
static inline uint64_t timing_scan_min4(const uint64_t *ready)
{
    uint64_t a = ready[0] < ready[1] ? ready[0] : ready[1];
    uint64_t b = ready[2] < ready[3] ? ready[2] : ready[3];
    return a < b ? a : b;
}

/* A scheduler's next cycle, and the entries ready by t1, in one pass over ready[0 .. n) (n <=
 * 64; cycles): returns next = max(least of them, t1), UINT64_MAX when n is 0 or every entry is,
 * and sets *early (OUT) to the mask of the entries <= t1 (bit k for ready[k]). When that is not
 * 0, next is t1 and the mask is that of the entries ready by next; else those are the entries
 * equal to next (timing_scan_equal). */
static inline uint64_t timing_scan_next_plain(const uint64_t *ready, uint32_t n, uint64_t t1,
                                              uint64_t *early)
{
    uint64_t least = UINT64_MAX, m = 0;
    for (uint32_t k = 0; k < n; k++) {
        m |= (uint64_t)(ready[k] <= t1) << k;
        if (ready[k] < least)
            least = ready[k];
    }
    *early = m;
    return least > t1 ? least : t1;
}
uint64_t timing_scan_next_avx2(const uint64_t *ready, uint32_t n, uint64_t t1, uint64_t *early);

/* The mask of the entries of ready[0 .. n) (n <= 64; cycles) equal to v: bit k for ready[k]. */
static inline uint64_t timing_scan_equal_plain(const uint64_t *ready, uint32_t n, uint64_t v)
{
    uint64_t m = 0;
    for (uint32_t k = 0; k < n; k++) m |= (uint64_t)(ready[k] == v) << k;
    return m;
}
uint64_t timing_scan_equal_avx2(const uint64_t *ready, uint32_t n, uint64_t v);

/* Entries from which the AVX2 versions are used: fewer are faster plain. */
enum { TIMING_SCAN_AVX2_FROM = 8 };

static inline uint64_t timing_scan_ready(int avx2, const uint64_t *ready, uint32_t n, uint64_t t)
{
    return avx2 && n >= TIMING_SCAN_AVX2_FROM ? timing_scan_ready_avx2(ready, n, t)
                                               : timing_scan_ready_plain(ready, n, t);
}

static inline uint64_t timing_scan_min(int avx2, const uint64_t *ready, uint32_t n,
                                       uint64_t enough)
{
    return avx2 && n >= TIMING_SCAN_AVX2_FROM ? timing_scan_min_avx2(ready, n, enough)
                                               : timing_scan_min_plain(ready, n, enough);
}

static inline uint64_t timing_scan_next(int avx2, const uint64_t *ready, uint32_t n, uint64_t t1,
                                        uint64_t *early)
{
    return avx2 && n >= TIMING_SCAN_AVX2_FROM ? timing_scan_next_avx2(ready, n, t1, early)
                                               : timing_scan_next_plain(ready, n, t1, early);
}

static inline uint64_t timing_scan_equal(int avx2, const uint64_t *ready, uint32_t n, uint64_t v)
{
    return avx2 && n >= TIMING_SCAN_AVX2_FROM ? timing_scan_equal_avx2(ready, n, v)
                                               : timing_scan_equal_plain(ready, n, v);
}

#endif

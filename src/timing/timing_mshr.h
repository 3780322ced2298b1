/* An SM's MSHRs in the timing model's memory side (docs/timing.md, "Memory"; timing_mem.c): the
 * release cycles of the entries in use, taken out earliest first. A queue kept sorted in one
 * block of `cap` entries, live in [lo, lo + n), instead of a binary min-heap: a line's release is
 * its issue cycle plus a latency of a few hundred cycles, so most releases come in rising order
 * and go in at the end (one compare), the others after a few steps back or by a binary
 * search and a move of the later ones, and the earliest is the first (no sift-down: the heap's pop was about 100 host
 * instructions for the 256 MSHRs of the presets). The values taken out,
 * and when, are the heap's: only the order of equal values inside the block differs, which no
 * caller can see.
 *
 * Owner: timing_mem.c (one queue per SM, in its block of every SM's entries). The twin test
 * against a plain binary heap is in tests/unit/test_timing_mem.c. */
#ifndef GMS_TIMING_TIMING_MSHR_H
#define GMS_TIMING_TIMING_MSHR_H

#include <stdint.h>
#include <string.h>

typedef struct timing_mshr {
    uint64_t *rel; /* borrowed: cap entries; rel[lo .. lo + n) ascending */
    uint32_t lo;   /* first live entry */
    uint32_t n;    /* entries in use */
} timing_mshr;

/* Empties q (its block stays). */
static inline void timing_mshr_clear(timing_mshr *q)
{
    q->lo = q->n = 0;
}

/* Adds release cycle v; ignored when all `cap` entries are in use (as the heap did). */
static inline void timing_mshr_push(timing_mshr *q, uint32_t cap, uint64_t v)
{
    if (q->n >= cap)
        return;
    if (q->lo + q->n == cap) {
        /* The live entries reached the block's end: move them to its start, at most once per
         * cap - n pops, so a byte moved costs less than a pop of the heap. */
        memmove(q->rel, q->rel + q->lo, (size_t)q->n * sizeof *q->rel);
        q->lo = 0;
    }
    uint64_t *r = q->rel;
    uint32_t lo = q->lo, j = lo + q->n++;
    /* Up to 8 later releases moved up one by one (most pushes stop at the first compare)... */
    for (unsigned step = 0; step < 8; step++, j--) {
        if (j == lo || r[j - 1] <= v) {
            r[j] = v;
            return;
        }
        r[j] = r[j - 1];
    }
    /* ... then the first entry above v by halves, and those from it to r[j] moved up together
     * (a kernel whose L2 hits and DRAM fills alternate puts tens of entries after it). */
    uint32_t hi = j;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r[mid] > v)
            hi = mid;
        else
            lo = mid + 1;
    }
    memmove(r + lo + 1, r + lo, (size_t)(j - lo) * sizeof *r);
    r[lo] = v;
}

/* The earliest release cycle (n > 0). */
static inline uint64_t timing_mshr_first(const timing_mshr *q)
{
    return q->rel[q->lo];
}

/* Takes out the earliest release cycle (n > 0) and returns it. */
static inline uint64_t timing_mshr_pop(timing_mshr *q)
{
    q->n--;
    return q->rel[q->lo++];
}

#endif

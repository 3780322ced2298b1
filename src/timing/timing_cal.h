/* The timing core's calendar (docs/timing.md, "Model"): which warp scheduler runs next and at
 * which cycle. A timing wheel of TIMING_CAL_SLOTS cycles from the current one, each slot a list
 * of schedulers due then, and beyond the wheel a binary heap; entries whose scheduler was
 * rescheduled meanwhile are dropped when reached (the scheduler's key, kept by the caller, says
 * which entry is current). Within one cycle, schedulers run in the order they were put in:
 * deterministic, and O(1) per event instead of a heap's O(log n). A slot's list is an array
 * of 16 x 2^k entries carved from blocks the calendar owns; a slot gives its array back when it
 * is served, and arrays are reused by size, so the storage follows the slots in use and the
 * entries in flight rather than every slot's busiest cycle (a realloc per slot and doubling
 * cost thousands of calls and megabytes of first-touched pages on long launches). */
#ifndef GMS_TIMING_TIMING_CAL_H
#define GMS_TIMING_TIMING_CAL_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

enum { TIMING_CAL_SLOTS = 4096 }; /* a power of two */
enum { TIMING_CAL_CLASSES = 24 };  /* array sizes 16 x 2^k entries, k < TIMING_CAL_CLASSES */

typedef struct timing_cal_far {
    uint64_t key;
    uint32_t s;
} timing_cal_far;

typedef struct timing_cal {
    uint64_t now;            /* the cycle being served */
    const uint32_t *cur, *end; /* the current slot's entries not yet taken; set when its
                                serving starts (the slot neither grows nor moves after that:
                                no caller adds the current cycle while it is served) */
    uint8_t serving;         /* 0 after a reset, until the first take starts cycle 0's slot */
    uint64_t count;          /* entries in the wheel, stale ones included; the current slot's
                                are taken off when it is done (timing_cal_take_slow) */
    uint32_t *items[TIMING_CAL_SLOTS];
    uint32_t n[TIMING_CAL_SLOTS], cap[TIMING_CAL_SLOTS];
    uint32_t first_cap;      /* the size a slot's first array gets: what the last slot served
                                needed, rounded up to a size (16 at least) */
    void *spare[TIMING_CAL_CLASSES]; /* arrays given back, by size, linked through their first
                                        pointer */
    void *blocks;            /* owned: the blocks the arrays are carved from, linked through
                                their first pointer */
    char *carve_at;          /* the unused rest of the newest block: carve_left bytes */
    size_t carve_left;
    timing_cal_far *far;     /* heap by key of the entries beyond the wheel */
    uint32_t nfar, capfar;
} timing_cal;

/* 0 (the default): a cycle's schedulers are served in the order they were put in; 1: in the
 * reverse order. For the test that what the SMs share does not depend on that order
 * (tests/unit/test_timing_core.c); nothing else sets it. */
extern int timing_cal_reverse;
/* Empties the calendar, starting at cycle 0 (storage kept). */
void timing_cal_reset(timing_cal *c);
/* The schedulers of the entries after the one timing_cal_next returned last that are due in
 * the same cycle, in order: *n (OUT) of them (0: none). They may be stale. For prefetching
 * only. */
static inline const uint32_t *timing_cal_due(const timing_cal *c, uint32_t *n)
{
    *n = (uint32_t)(c->end - c->cur);
    return *n ? c->cur : NULL;
}
/* Frees its storage (the struct itself is the caller's). */
void timing_cal_free(timing_cal *c);
/* timing_cal_add when the entry does not fit the wheel's slot as it is: grows the slot or puts
 * the entry beyond the wheel. */
int timing_cal_add_slow(timing_cal *c, uint32_t s, uint64_t key);
/* Puts scheduler s in at cycle key (>= c->now; callers never add the current cycle while it is
 * served). Returns 0, or -1 when host memory ran out. */
static inline int timing_cal_add(timing_cal *c, uint32_t s, uint64_t key)
{
    assert(key != c->now || !c->serving); /* the served slot must not grow (cur, end) */
    uint32_t b = (uint32_t)(key & (TIMING_CAL_SLOTS - 1));
    if (key - c->now >= TIMING_CAL_SLOTS || c->n[b] == c->cap[b])
        return timing_cal_add_slow(c, s, key);
    c->items[b][c->n[b]++] = s;
    c->count++;
    return 0;
}
/* What timing_cal_take returns when the calendar is empty, and when host memory ran out. */
enum { TIMING_CAL_EMPTY = UINT32_MAX, TIMING_CAL_OOM = UINT32_MAX - 1 };
/* timing_cal_take past the entries of the cycle being served: moves on to the next cycle. */
uint32_t timing_cal_take_slow(timing_cal *c, const uint64_t *keys);
/* The scheduler of the next entry of the cycle being served (c->now) whose key still matches,
 * or TIMING_CAL_EMPTY when none is left in it; unlike timing_cal_take, never moves on to a
 * later cycle, so that the caller may finish the cycle (timing_issue.c: the instructions run
 * at a cycle's end) and still add entries for the cycles after it. */
static inline uint32_t timing_cal_take_current(timing_cal *c, const uint64_t *keys)
{
    const uint32_t *p = c->cur, *end = c->end;
    uint64_t now = c->now;
    while (p < end) {
        uint32_t e = *p++;
        if (keys[e] == now) {
            c->cur = p;
            return e;
        }
    }
    c->cur = p;
    return TIMING_CAL_EMPTY;
}
/* The scheduler of the next entry whose key still matches keys[s] (the caller's current key of
 * each scheduler), due at cycle c->now; TIMING_CAL_EMPTY or TIMING_CAL_OOM. A value, not
 * out-parameters: the event loop keeps it in a register (an address passed to the slow part
 * would put the caller's variables in memory). */
static inline uint32_t timing_cal_take(timing_cal *c, const uint64_t *keys)
{
    uint32_t e = timing_cal_take_current(c, keys); /* the current cycle's entries first */
    return e != TIMING_CAL_EMPTY ? e : timing_cal_take_slow(c, keys);
}
/* timing_cal_take as *s and *t (OUT, the cycle). Returns 1; 0 when the calendar is empty; -1
 * when host memory ran out. */
static inline int timing_cal_next(timing_cal *c, const uint64_t *keys, uint32_t *s, uint64_t *t)
{
    uint32_t e = timing_cal_take(c, keys);
    if (e >= TIMING_CAL_OOM)
        return e == TIMING_CAL_OOM ? -1 : 0;
    *s = e;
    *t = c->now;
    return 1;
}

#endif

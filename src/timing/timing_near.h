/* The near-partition copies of the L2 (docs/timing.md, "Memory"): with several L2 partitions,
 * each keeps a tag-only copy of the lines its SMs read, one partition's share of the L2 in
 * lines, set-associative, sectored, least recently used replaced. An L2 hit on a sector the
 * reading SM's partition holds is near, any other far (timing_mem.c).
 *
 * Layout, for the host's caches: each set's ways are kept in recency order, the most recent
 * first, as {line + 1, sectors} pairs, so that a look-up that finds its line where it usually
 * is (the line read last in the set: the other sectors of a line just read) touches one host
 * line, and no per-way use stamps are needed. A way with line 0 is empty; empty ways only
 * follow full ones. A bit per set says whether the set was ever written: a fresh set is filled
 * without being read, so that its page is faulted in once, by the write (a read first would map
 * the kernel's zero page there and fault again at the write).
 *
 * The victim is the least recently used line of a full set, as a directory of use stamps (the
 * least stamp) chooses it: the order of the ways is the order of the stamps.
 *
 * Owner: timing_near.c (creation, the moves), the look-up inline here for timing_mem.c. */
#ifndef GMS_TIMING_TIMING_NEAR_H
#define GMS_TIMING_TIMING_NEAR_H

#include <stddef.h>
#include <stdint.h>

/* One way: line index + 1 (0: empty) and the line's sectors the copy holds (bit per sector). */
typedef struct near_way {
    uint64_t line1;
    uint64_t sectors;
} near_way;

typedef struct near_dir {
    near_way *ways;     /* partitions x sets x nways, each set in recency order */
    uint64_t *written;  /* bit per (partition, set): the set was written */
    uint64_t sets;      /* sets per partition (at least 1) */
    uint32_t nways;     /* ways per set (at least 1) */
    uint32_t partitions;
} near_dir;

/* Sets up `d` with `partitions` copies of `sets` sets (at least 1) of `nways` ways (at least
 * 1), every set empty. Returns 0, or -1 when host memory ran out (d holds nothing then). */
int near_dir_init(near_dir *d, uint32_t partitions, uint64_t sets, uint32_t nways);
/* Frees what near_dir_init allocated; a zeroed or finished `d` is allowed. */
void near_dir_fini(near_dir *d);

/* The rest of near_dir_line when the line is not the most recent of its set `s` (ways of a
 * written set): found, it moves to the front; absent, it takes the first empty way or evicts the
 * last (least recent) one, and comes in at the front with no sectors. Returns s. */
near_way *near_dir_move(near_dir *d, near_way *s, uint64_t line1);

/* The first way of the set of line `line` in partition `part`'s copy (for a host prefetch). */
static inline const near_way *near_dir_set(const near_dir *d, uint32_t part, uint64_t line)
{
    return d->ways + (size_t)(part * d->sets + line % d->sets) * d->nways;
}

/* The way of line `line` (index of its l2 line) in partition `part`'s copy (< partitions),
 * made the most recent of its set; a line not there comes in (no sectors yet), evicting the
 * least recent of a full set. The pointer stays valid, and the line the most recent, until the
 * next call. */
static inline near_way *near_dir_line(near_dir *d, uint32_t part, uint64_t line)
{
    size_t set = (size_t)(part * d->sets + line % d->sets);
    near_way *s = d->ways + set * d->nways;
    uint64_t *word = &d->written[set / 64], bit = UINT64_C(1) << (set % 64);
    if (!(*word & bit)) {
        *word |= bit;
        s->line1 = line + 1;
        s->sectors = 0;
        return s;
    }
    if (s->line1 == line + 1)
        return s;
    return near_dir_move(d, s, line + 1);
}

#endif

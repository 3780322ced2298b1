/* Tags-only probes of one sector (cache.h: cache_probe_hit; docs/cache-model.md, "Reads and
 * fills"): the instruction cache's fetches and the constant cache's look-ups, a few lines read
 * again and again by an SM's warps in turn. cache_read_hit's single memo of the last hit misses
 * whenever two warps alternate between lines, so the probe looks first where held_memo last
 * found the line (find_slot_memo), and does only what cache_read_hit does for one sector
 * without data or hint. Not a general read: the other hit paths are in cache_hits.c. */
#include "mem/cache.h"

#include "mem/cache_ops.h"

/* cache_read_hit's read_hit_line for one run of one sector under CACHE_ALLOC_UNCHANGED, on
 * line slot `line`, which holds the sector: one read that hits, no class change
 * (apply_alloc_hint leaves it) and one stamp (touch; last, so that its rare call to
 * cache_touch_last ends the probe). */
static inline __attribute__((always_inline)) bool probe_read(cache *c, uint32_t line)
{
    c->stats.reads++;
    c->stats.read_sector_hits++;
    c->stats.sector_accesses++;
    c->stats.sector_hits++;
    touch(c, line);
    return true;
}

/* cache_probe_hit when the memo's guess fails: find_slot_memo's look-up of the set, out of line
 * so that the usual probe saves no registers. */
static __attribute__((noinline)) bool probe_set(cache *c, uint64_t line_number, uint64_t sector,
                                                uint32_t *memo)
{
    const line_meta *m;
    uint32_t line = find_slot(c, set_index(c, line_number), line_number, &m);
    if (line == NO_INDEX)
        return false;
    *memo = line;
    if (!sector || (sector & ~m->valid_sectors))
        return false;
    return probe_read(c, line);
}

bool cache_probe_hit(cache *c, uint64_t line_addr, uint64_t sector)
{
    uint64_t line_number = line_addr >> c->line_shift;
    uint32_t *memo = &c->held_memo[held_memo_index(line_number)];
    uint32_t line = *memo;
    if (line == NO_INDEX) /* a tags-only cache's memo before its first find (cache_internal.h) */
        return probe_set(c, line_number, sector, memo);
    const line_meta *m = &c->meta[line];
    if (m->tag != TAG_OF(line_number))
        return probe_set(c, line_number, sector, memo);
    if (!sector || (sector & ~m->valid_sectors))
        return false;
    return probe_read(c, line);
}

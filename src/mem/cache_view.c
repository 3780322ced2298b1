/* Views of a cache for several host threads (cache_view.h): a copy of the cache's bookkeeping
 * that shares its line storage, with its own counters, clock, scratch and copy of the used-group bits. */
#include "mem/cache_view.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache_internal.h"

/* The words of used_groups: one bit per group of 16 line slots (cache_internal.h). */
static size_t used_group_words(const cache *c)
{
    size_t groups = ((size_t)c->slot_count + GROUP_LINES - 1) / GROUP_LINES;
    return ((groups ? groups : 1) + 63) / 64;
}

bool cache_view_ready(const cache *c)
{
    /* A LAST line keeps its place on the list of the whole cache (cache.c): touching, granting
     * or evicting one would couple sets. */
    return c->last_count == 0 && c->config.persisting_limit_lines == 0;
}

cache *cache_view_create(const cache *c, const cache_next_level *next)
{
    /* used_groups is the struct's flexible tail (cache_internal.h): allocated with it. */
    cache *v = calloc(1, sizeof *v + used_group_words(c) * sizeof(uint64_t));
    uint8_t *scratch = malloc(2 * (size_t)c->config.line_bytes);
    if (!v || !scratch) {
        free(v);
        free(scratch);
        return NULL;
    }
    v->next = *next;
    v->scratch = scratch;
    return v;
}

void cache_view_destroy(cache *v)
{
    if (!v)
        return;
    free(v->scratch);
    free(v);
}

void cache_view_begin(cache *v, cache *c)
{
    cache_next_level next = v->next;
    uint8_t *scratch = v->scratch;
    *v = *c; /* geometry, storage pointers, clock, resident lines, memos (not the tail) */
    v->next = next;
    v->scratch = scratch;
    /* Look-ups skip the blocks that never held a line, so the view starts from the cache's
     * record; the blocks it fills are set in its own copy and ORed back by the merge. */
    memcpy(v->used_groups, c->used_groups, used_group_words(c) * sizeof(uint64_t));
    memset(&v->stats, 0, sizeof v->stats);
    v->resident_lines = 0; /* a difference from here on (only allocation and drops change it) */
    v->slots_from = &c->slots_used; /* changed only atomically until the merge */
    v->storage_mapped = v->storage_lent = 0;
}

void cache_view_set_clock(cache *v, uint64_t clock) { v->clock = clock; }

uint64_t cache_clock(const cache *c) { return c->clock; }

void cache_view_merge(cache *c, const cache *v, uint64_t clock)
{
    /* Every counter is a sum (lines_by_priority counts up and down: the view holds the
     * differences, modulo 2^64) but the peak of LAST lines, which views never change. */
    enum { WORDS = sizeof(cache_stats) / sizeof(uint64_t) };
    _Static_assert(sizeof(cache_stats) % sizeof(uint64_t) == 0, "cache_stats: uint64_t only");
    uint64_t *to = (uint64_t *)(void *)&c->stats;
    const uint64_t *from = (const uint64_t *)(const void *)&v->stats;
    uint64_t peak = c->stats.peak_last_lines;
    for (size_t k = 0; k < WORDS; k++) to[k] += from[k];
    c->stats.peak_last_lines = peak;
    c->resident_lines += v->resident_lines;
    size_t words = used_group_words(c);
    for (size_t k = 0; k < words; k++) c->used_groups[k] |= v->used_groups[k];
    assert(v->clock <= clock);
    if (clock > c->clock)
        c->clock = clock;
}

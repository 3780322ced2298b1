/* Views of a cache for several host threads: each view applies accesses to its own share of
 * the cache's sets, on its own thread, with the cache's lines, data and tags (shared) and its
 * own counters, clock and scratch, and the views are merged into the cache afterwards
 * (docs/architecture.md, "SMs on several host threads", "The store logs by sets").
 *
 * Equivalence: with no evict-last line in the cache and no persisting set-aside (nothing can
 * become LAST: cache_view_ready), nothing an access does reaches beyond its line's set except
 * the counters, the clock, the data-slot allocation and the used-group bits, which the views
 * keep apart (or, for data slots, take atomically). So when every access of one set is made in
 * the order a single thread would make it, by one view, with clock stamps that keep that
 * order (cache_view_set_clock), the merged cache makes the same decisions, holds the same lines
 * and bytes and counts the same as if one thread had made them all. Only the host memory a
 * line's data lands in may differ. */
#ifndef GMS_MEM_CACHE_VIEW_H
#define GMS_MEM_CACHE_VIEW_H

#include "mem/cache.h"

/* Whether views of `c` may apply accesses now (no LAST line, persisting limit 0). */
bool cache_view_ready(const cache *c);
/* A view of `c` whose next level is `next` (copied; its ctx stays borrowed). The view is
 * empty until cache_view_begin. Returns NULL when out of host memory. Free with
 * cache_view_destroy (never cache_destroy). */
cache *cache_view_create(const cache *c, const cache_next_level *next);
void cache_view_destroy(cache *v);
/* Takes the state of `c` (borrowed) into view v with zeroed counters. Call while no view of c
 * is in use; from then until cache_view_merge, c may only be changed through its views (which
 * take its data slots atomically). */
void cache_view_begin(cache *v, cache *c);
/* The clock the view's next access stamps after: an access of v touches at most one line
 * once, stamping clock + 1 (accesses that are stores; reads fill and stamp too, but are not
 * made through views). */
void cache_view_set_clock(cache *v, uint64_t clock);
/* Adds view v's counters, resident lines and used groups to c (v must have been begun on c;
 * merge each view once), and sets c's clock to `clock` (at or above every stamp the views
 * gave) when that is later. */
void cache_view_merge(cache *c, const cache *v, uint64_t clock);
/* The clock of c (the stamp of its most recent touch). */
uint64_t cache_clock(const cache *c);

#endif

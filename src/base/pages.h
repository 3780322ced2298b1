/* Anonymous mappings whose parts take the host page size their use suits.
 *
 * A first touch of a 4 KiB page costs a fault (about 3.4 us on the development machine, a
 * virtual machine); a 2 MiB page costs one fault and a 2 MiB clear (about 0.5 us per 4 KiB of it,
 * bench/README.md, "Session 17: lead"). Memory a run touches all over (a large cache's line
 * records) or from its start (data in fill order) is cheaper on 2 MiB pages; memory touched
 * sparsely is cheaper on 4 KiB pages, because a 2 MiB page commits and clears all of itself. */
#ifndef GMS_BASE_PAGES_H
#define GMS_BASE_PAGES_H

#include <stddef.h>

enum { PAGES_SMALL_BYTES = 4096, PAGES_HUGE_BYTES = 2 << 20 };

/* `bytes` rounded up to a whole number of 4 KiB pages. */
static inline size_t pages_round_up(size_t bytes)
{
    return (bytes + PAGES_SMALL_BYTES - 1) & ~(size_t)(PAGES_SMALL_BYTES - 1);
}

/* A zero-filled anonymous mapping of `bytes` (a multiple of 4 KiB) starting at a 2 MiB boundary,
 * so that parts advised to use 2 MiB pages can have them from their start; NULL when mmap fails.
 * Free it with munmap(p, bytes). */
void *pages_map_aligned(size_t bytes);

/* Advises `bytes` from `p` (4 KiB aligned; the length is rounded up to whole pages) to use 2 MiB
 * pages (huge != 0) or 4 KiB pages. Advice only: where the host lacks it nothing changes but
 * the cost of the first touches. */
void pages_advise(void *p, size_t bytes, int huge);

/* The length of the mapping behind pages_alloc_dense(bytes): whole 2 MiB pages from 2 MiB on (so
 * that the last part takes one too), whole 4 KiB pages below. */
static inline size_t pages_dense_bytes(size_t bytes)
{
    return bytes >= PAGES_HUGE_BYTES
               ? (bytes + PAGES_HUGE_BYTES - 1) & ~(size_t)(PAGES_HUGE_BYTES - 1)
               : pages_round_up(bytes ? bytes : 1);
}

/* A zero-filled block of `bytes` for memory a run touches all over, in no order (hash tables,
 * arrays indexed by set or by warp): on 2 MiB pages when it is at least 2 MiB, else 4 KiB ones.
 * NULL when mmap fails. Free it with pages_free(p, bytes), with the same `bytes`. */
void *pages_alloc_dense(size_t bytes);

/* Frees a block of pages_alloc_dense(bytes); NULL is ignored. */
void pages_free(void *p, size_t bytes);

#endif

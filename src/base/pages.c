/* Anonymous mappings and page-size advice (pages.h). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include "base/pages.h"

#include <stdint.h>
#include <sys/mman.h>

void *pages_map_aligned(size_t bytes)
{
    size_t map_bytes = bytes + PAGES_HUGE_BYTES;
    void *m = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *start = m;
    size_t head = (PAGES_HUGE_BYTES - (uintptr_t)start % PAGES_HUGE_BYTES) % PAGES_HUGE_BYTES;
    if (head)
        munmap(start, head);
    if (map_bytes - head - bytes)
        munmap(start + head + bytes, map_bytes - head - bytes);
    return start + head;
}

void pages_advise(void *p, size_t bytes, int huge)
{
#if defined MADV_HUGEPAGE && defined MADV_NOHUGEPAGE
    if (bytes)
        madvise(p, pages_round_up(bytes), huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
    (void)p;
    (void)bytes;
    (void)huge;
#endif
}

void *pages_alloc_dense(size_t bytes)
{
    size_t n = pages_dense_bytes(bytes);
    void *p = pages_map_aligned(n);
    if (p && n >= PAGES_HUGE_BYTES)
        pages_advise(p, n, 1);
    return p;
}

void pages_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, pages_dense_bytes(bytes));
}

/* Zeroed storage for the timing model's large tables (timing_alloc.h). */
#define _DEFAULT_SOURCE 1 /* mmap flags (MAP_ANONYMOUS), madvise */
#include <stdlib.h>
#include <sys/mman.h>

#include "timing/timing_alloc.h"

void *timing_zalloc(size_t bytes)
{
    if (bytes < TIMING_HUGE_FROM)
        return calloc(1, bytes);
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(m, bytes, MADV_HUGEPAGE); /* a hint: without it the pages are 4 KiB ones */
#endif
    return m;
}

void timing_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < TIMING_HUGE_FROM)
        free(p);
    else
        munmap(p, bytes);
}

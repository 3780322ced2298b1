/* Zeroed host memory for the timing model's large tables (the state of a launch, the
 * near-partition directories, the SMs' in-flight line tables): the model's events visit them
 * in no order, a few bytes here and there, so with 4 KiB pages most visits were also host TLB
 * misses. From TIMING_HUGE_FROM bytes on the storage is a mapping that asks the host for
 * transparent huge pages (where it has them; madvise); below that it comes from calloc. Host
 * memory only: nothing the model computes depends on it.
 *
 * Owner: timing_alloc.c. Callers: timing.c, timing_mem.c. */
#ifndef GMS_TIMING_TIMING_ALLOC_H
#define GMS_TIMING_TIMING_ALLOC_H

#include <stddef.h>

enum { TIMING_HUGE_FROM = 2 << 20 }; /* bytes: one huge page of x86-64 */

/* `bytes` (> 0) of zeroed storage, or NULL when host memory ran out. Free it with timing_free
 * and the same `bytes`. */
void *timing_zalloc(size_t bytes);
/* Frees what timing_zalloc(bytes) returned (NULL: nothing). */
void timing_free(void *p, size_t bytes);

#endif

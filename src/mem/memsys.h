/* The memory system: device allocations, the generic address map, the per-space windows and the
 * backing store, behind the warp-level access contract of mem.h.
 *
 * This layer resolves every lane's address to a space and a backing location, checks bounds and
 * alignment (faults are reported, never performed), moves the data, and performs atomics in lane
 * order. The cache hierarchy sits between this layer and the backing store. It is not an
 * executor: it knows nothing of registers, warps' control flow or instructions beyond mem_access. */
#ifndef GMS_MEM_MEMSYS_H
#define GMS_MEM_MEMSYS_H

#include <stddef.h>
#include <stdint.h>

#include "mem/mem.h"

typedef struct memsys memsys;

/* Creates an empty memory system. Returns NULL when out of memory. */
memsys *memsys_create(void);
void memsys_destroy(memsys *ms);

/* Allocates `bytes` (> 0) of device memory aligned to `align` (a power of two, >= 256 is used
 * whatever is asked) and returns its global address in *addr. Consecutive allocations are
 * separated by an unmapped gap so that overruns fault. The memory reads as zero.
 * Returns 0, or -1 when the address space or host memory is exhausted. */
int memsys_alloc(memsys *ms, uint64_t bytes, uint64_t align, uint64_t *addr);

/* Host-side copies into and out of device memory (no statistics, no caches: like cudaMemcpy
 * after a device synchronise). [addr, addr+bytes) must lie inside one allocation. Returns 0 or -1
 * when the range is not allocated or host memory is exhausted. */
int memsys_host_write(memsys *ms, uint64_t addr, const void *src, uint64_t bytes);
int memsys_host_read(memsys *ms, uint64_t addr, void *dst, uint64_t bytes);

/* Installs the read-only constant bank (module .const data; copied) and the kernel parameter block
 * (borrowed until the next call). Returns 0 or -1 when out of memory. */
int memsys_set_const_bank(memsys *ms, const uint8_t *data, uint32_t bytes);
void memsys_set_params(memsys *ms, const uint8_t *params, uint32_t bytes);

/* Performs one warp-level access for the lanes in acc->active (mem.h). Loads and atomics fill
 * acc->data for their lanes. Returns 0, or -1 with *fault describing the first faulting lane; in
 * that case no lane's store or atomic has been performed. */
int memsys_access(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault);

/* Reads `bytes` at a generic address as lane `lane` of the warp described by ctx sees it, without
 * statistics or cache effects (device printf and assertion messages). Returns 0, or -1 when
 * the range is not readable. */
int memsys_peek(memsys *ms, const mem_ctx *ctx, uint32_t lane, uint64_t generic, void *out,
                uint32_t bytes);

/* Resolves a generic address to (space, window offset); global addresses stay as they are. */
ir_space memsys_resolve_generic(uint64_t generic, uint64_t *offset);

/* Bytes of backing store currently allocated (grows with memory touched). */
uint64_t memsys_backing_bytes(const memsys *ms);

#endif

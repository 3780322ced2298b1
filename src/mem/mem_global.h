/* The direct path of the commonest global access: a load or store of a warp's active lanes,
 * each of one aligned 4-, 8- or 16-byte piece, the lanes in a few runs one after another in
 * memory inside one allocation (streaming kernels: saxpy, the rows of stencil and transpose
 * tiles, a tile's halo), with the plain attributes most such accesses carry. It does what
 * memsys_access (and memsys_load_if_local, memsys_store_deferred) does for such an access
 * (docs/architecture.md, "Fast paths beside the general ones"): the same cache operations
 * on the same lines in the same order, the same counters, served sectors and results, the same
 * data, without access()'s per-lane bounds scan, the coalescer and the general line loop of
 * mem_hier.c. Anything else is declined before anything changes, and the caller takes the
 * general path. */
#ifndef GMS_MEM_MEM_GLOBAL_H
#define GMS_MEM_MEM_GLOBAL_H

#include <stdint.h>

#include "mem/memsys.h"

/* Which entry of memsys.h the direct path stands in for. */
typedef enum mem_global_mode {
    MEM_GLOBAL_ACCESS = 0, /* memsys_access */
    MEM_GLOBAL_IF_LOCAL,   /* memsys_load_if_local: a load some of whose lines are not all
                              valid in the SM's L1 would reach the L2 (returns 2) */
    MEM_GLOBAL_DEFERRED,   /* memsys_store_deferred: a store's writes to the L2 go to
                              ctx->store_log (a load, or no log: as MEM_GLOBAL_ACCESS) */
} mem_global_mode;

/* The access `acc` as the entry `mode` names would make it, when it is a load or store
 * (acc->op) in IR_SPACE_GLOBAL or IR_SPACE_GENERIC of elem_bytes x vec = 4, 8 or 16 bytes a
 * lane whose active lanes (acc->active, not 0) form at most four runs (a run: consecutive
 * active lanes, each lane's address that size above the one before; each run starting on a
 * line above the previous run's last line; a full warp in one run has lane l at
 * acc->addr[0] + l x size), every address aligned to the size and all of them inside one
 * allocation, with attributes that the direct path covers: no uniform hint, no surface, no
 * Intel LSC cache control, no --strip-hints; a load that may hit in the L1 (no bypass, no
 * volatile or strong load wider than the CTA, a fill size of at most a line); a store that
 * does not bypass the L1; and L1 and L2 sectors of one size. Then it returns 0 having done
 * what that entry does: the lines' reads or writes through the SM's L1 and below, charged to
 * acc->insn_id (L1 request, sectors, hits and LSU counts, and whatever the L2 and DRAM did),
 * the data, and, with `results` (for an observer such as the timing model; 0 leaves them as
 * they were), acc's results (levels, served[] with each sector's level and L2 slice, l1_tags,
 * dram_read_bytes and dram_write_bytes, the others 0). `out` and `in` are NULL, or, for one
 * 4- or 8-byte element a lane (acc->vec 1), 32 values, lane l's at [l]: a load fills the
 * active lanes' out[] (4 bytes zero-extended to 64 bits, or the 8 bytes) instead of
 * acc->data; a store takes its bytes from in[] (each value's low 4 bytes, or its 8) instead of
 * from acc->data; either leaves acc->data as it was.
 * Returns 1 having changed nothing for any other access (also when out is given for a store,
 * in for a load, or either for another shape): the caller makes it with the entry `mode`
 * names, which reports faults. Returns 2 (MEM_GLOBAL_IF_LOCAL, or a store in that mode) having
 * changed nothing where memsys_load_if_local returns 1: the load would reach the L2. Returns
 * -1 with *fault (MEM_FAULT_NOMEM, as memsys_access, with acc's results as that leaves them)
 * when the backing store could not grow. */
int mem_global_warp(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_global_mode mode,
                    int results, uint64_t *out, const uint64_t *in, mem_fault *fault);

/* A test that mem_global_warp would decline `acc` for its lanes alone, cheap enough to make
 * before every global access (most scattered ones end here; mem_global_warp does not make it
 * again): 0 when lanes 0 to 4 are active and no one of them is elem_bytes x vec above the one
 * before (five runs already), else 1 (mem_global_warp may take it). Reads acc->active,
 * elem_bytes, vec and addr[0..4]; changes nothing. */
static inline int mem_global_may_take(const mem_access *acc)
{
    uint64_t bytes = (uint64_t)acc->elem_bytes * acc->vec;
    const uint64_t *a = acc->addr;
    return (acc->active & 0x1F) != 0x1F || a[1] - a[0] == bytes || a[2] - a[1] == bytes ||
           a[3] - a[2] == bytes || a[4] - a[3] == bytes;
}

#endif

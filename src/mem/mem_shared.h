/* The direct path of the commonest shared-memory access: a load or store by all 32 lanes of a
 * warp, each of one aligned 4-, 8- or 16-byte piece inside the CTA's shared memory (tiles of
 * matrix products, stencils and transposes). It does what memsys_access does for such an
 * access (docs/statistics.md, "Shared memory": requests, wavefronts, bank conflicts; the
 * results the timing model reads; the data) without access()'s general steps: one pass over
 * the addresses for alignment and bounds, the wavefronts from short cuts for the usual
 * patterns (one aligned block of banks x width bytes per phase, or single words a few rows of
 * banks apart) and the exact per-bank count otherwise, and the words moved directly. */
#ifndef GMS_MEM_MEM_SHARED_H
#define GMS_MEM_MEM_SHARED_H

#include <stdint.h>

#include "mem/memsys.h"

/* memsys_access (and memsys_load_if_local, memsys_store_deferred: neither parks or logs such an
 * access) for `acc` when it is a load or store (acc->op) in IR_SPACE_SHARED of every lane
 * (acc->active all 32) of elem_bytes x vec = 4, 8 or 16 bytes, without the uniform hint, whose
 * lanes' window offsets acc->addr are all aligned to that size and inside ctx->shared_bytes,
 * with power-of-two banks and bank width in ms's configuration. Then returns 0 having done what
 * memsys_access does: the instruction's shared counters (one request, its wavefronts and bank
 * conflicts), acc's results (levels MEM_LEVEL_SHARED, shared_wavefronts, the others 0), and the
 * data. `out` and `in` are NULL, or, for an access of one 4- or 8-byte element per lane
 * (acc->vec 1), 32 values, lane l's at [l]: a load fills out[] (4 bytes zero-extended to 64
 * bits, or the 8 bytes) instead of acc->data; a store takes its bytes from in[] (each value's
 * low 4 bytes, or its 8) instead of from acc->data; either leaves acc->data as it was. A store
 * writes lane by lane in lane order (the highest of several lanes on one address last).
 * Otherwise (also when out is given for a store, in for a load, or either for another shape)
 * returns 1 having changed nothing: the caller makes the access with memsys_access, which
 * reports faults and window errors (a misaligned or out-of-window lane always returns 1).
 * No errors of its own. */
int mem_shared_warp(memsys *ms, const mem_ctx *ctx, mem_access *acc, uint64_t *out,
                    const uint64_t *in);

/* mem_shared_warp for a load into out[] (not NULL) whose caller has already made sure of its
 * shape (acc->op MEM_OP_LOAD in IR_SPACE_SHARED, acc->active all 32 lanes, one element of 4 or 8
 * bytes, without the uniform hint; another shape is not allowed) and whose lanes' window offsets
 * are a row of 32 values (`row`, borrowed, lane l's at [l]) plus `base` (64-bit address
 * arithmetic): it first writes acc->addr[l] = row[l] + base (modulo 2^64) for every lane,
 * whatever it returns, then checks only the configuration (power-of-two banks), the alignment
 * and the window bounds, and does what mem_shared_warp does for acc (out may be row itself: it
 * is written after all the offsets are made). Returns 0 when done, 1 when the caller
 * must make the access with memsys_access (acc->addr then holds the offsets and nothing else
 * changed). No errors of its own. */
int mem_shared_load_reg(memsys *ms, const mem_ctx *ctx, mem_access *acc, const uint64_t *row,
                        uint64_t base, uint64_t *out);

/* mem_shared_load_reg with 32-bit address arithmetic (a 32-bit register plus an offset, the
 * usual shared-memory address): acc->addr[l] = (row[l] + base) modulo 2^32, the upper halves of
 * the row's values ignored. The same returns. */
int mem_shared_load_reg32(memsys *ms, const mem_ctx *ctx, mem_access *acc, const uint64_t *row,
                          uint64_t base, uint64_t *out);

/* mem_shared_load_reg32 for a load whose access record nobody reads afterwards (no observer):
 * of acc it reads only op (MEM_OP_LOAD), insn_id, elem_bytes (4 or 8) and vec (1), the caller
 * vouching for the rest of the shape (IR_SPACE_SHARED, all 32 lanes, no uniform hint), and it
 * writes no result field. acc->addr is its scratch: on 1 it holds the offsets, as mem_shared_load_reg32
 * leaves them, for the caller's memsys_access (once the caller has written the rest of acc);
 * on 0 it is unspecified. Otherwise the same returns, counts and values in out[] as
 * mem_shared_load_reg32 (tests/unit/test_mem_shared.c holds the two to memsys_access). No errors
 * of its own. */
int mem_shared_load_reg32_quiet(memsys *ms, const mem_ctx *ctx, mem_access *acc,
                                const uint64_t *row, uint64_t base, uint64_t *out);

/* mem_shared_load_reg32_quiet for the lanes in `mask` only (any nonzero mask, the whole warp
 * too; the caller vouches for the rest of the shape as there): lanes outside it neither read
 * nor count nor are written in out[] or acc->addr, and the wavefronts are counted over the
 * active lanes as memsys_access counts them. Returns 1 having counted and loaded nothing (a
 * misaligned or out-of-window active lane, a configuration without the direct path, or mask
 * 0): the caller makes the offsets afresh for memsys_access. acc->addr is unspecified
 * afterwards either way. Otherwise the same returns and counts. No errors of its own. */
int mem_shared_load_reg32_quiet_mask(memsys *ms, const mem_ctx *ctx, mem_access *acc,
                                     const uint64_t *row, uint64_t base, uint32_t mask,
                                     uint64_t *out);

#endif

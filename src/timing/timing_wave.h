/* Data-bank wavefronts of a warp's global and local lanes (docs/timing.md, "Memory"): the most
 * distinct bank-width words any one of the L1's data banks must deliver for an access, the
 * count the L1/shared pipeline charges beside its tag lookups and sectors (timing_mem.c,
 * pipe_slots). Lanes reading one word share it, as for shared memory.
 *
 * Owner: timing_wave.c. Callers: timing_mem.c, and the twin test of the shortcuts in
 * tests/unit/test_timing_mem.c. Pure functions of the access's lanes and the bank shape. */
#ifndef GMS_TIMING_TIMING_WAVE_H
#define GMS_TIMING_TIMING_WAVE_H

#include <stdint.h>

#include "mem/mem.h"

enum { TIMING_MAX_BANKS = 64 }; /* data banks the count handles */

/* The data banks' shape, set by timing_banks_init. */
typedef struct timing_banks {
    uint32_t banks;       /* data banks, 1 to TIMING_MAX_BANKS */
    uint32_t width;       /* bytes per bank word */
    uint32_t block_shift; /* log2(banks x width) when both are powers of two, else 0 */
    uint32_t word_shift;  /* log2(width) when block_shift is set */
    uint8_t avx2;         /* 1: the host runs AVX2 (the full-warp scan's second build) */
} timing_banks;

/* Sets *bk for `banks` banks (0 or more than TIMING_MAX_BANKS: 32) of `width` bytes (0: 4). */
void timing_banks_init(timing_banks *bk, uint32_t banks, uint32_t width);

/* The data-bank wavefronts of access `a`'s global and local lanes (its active lanes less its
 * window_lanes; 1 when none and its lanes are no wider than a bank), as the pipeline charges
 * them: the shapes one aligned block of banks holds, lanes ascending through the words (counted
 * by runs of consecutive words) and one word per bank answered without gathering the words. */
static inline uint32_t timing_wavefronts(const timing_banks *bk, const mem_access *a);

/* timing_wavefronts past its first shortcut: the count from the lanes. */
uint32_t timing_wavefronts_lanes(const timing_banks *bk, const mem_access *a);

/* Inline, the first shortcut: a plain global load or store that touched one 128-byte line by
 * the memory system's count (mem.h: l1_tags, the lines its global lanes touched), with lanes no
 * wider than a bank, is one wavefront when a block of banks is 128 bytes or more: an aligned line
 * lies in one aligned block, whose words are distinct banks or the same word. Answered without
 * a call or a read of the 32 lanes (saxpy's loads and stores, one line each). */
static inline uint32_t timing_wavefronts(const timing_banks *bk, const mem_access *a)
{
    if (a->l1_tags == 1 && a->space == IR_SPACE_GLOBAL && a->op <= MEM_OP_STORE &&
        bk->block_shift >= 7 && (uint32_t)a->elem_bytes * a->vec <= bk->width)
        return 1;
    return timing_wavefronts_lanes(bk, a);
}

/* The same count by the general way alone: every word of every lane gathered and counted on its
 * bank. Equal to timing_wavefronts for every access with a global or local lane (the twin
 * test); for tests. */
uint32_t timing_wavefronts_gathered(const timing_banks *bk, const mem_access *a);

#endif

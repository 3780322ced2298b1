/* Bank-conflict counts over words of shared memory, shared by the general count
 * (mem_count.c, shared_count) and the full-warp paths (mem_shared.c), inline in both: the
 * full-warp paths call them on loads whose words span more than one row of banks. A word is
 * an offset shifted right by log2 of the bank width; banks are a power of two (mem_shared.c's
 * header describes wavefronts and conflicts). */
#ifndef GMS_MEM_MEM_SHARED_WORDS_H
#define GMS_MEM_MEM_SHARED_WORDS_H

#include <stdint.h>

enum { MAX_BANKS = 64 };

/* conflict_free over n words already computed (power-of-two banks): 1 if no bank is asked for
 * two different words, else 0. */
static inline uint32_t words_conflict_free(const uint64_t *w, uint32_t n, uint32_t banks)
{
    uint64_t first_word[MAX_BANKS], used = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = (uint32_t)(w[i] & (banks - 1));
        if (!((used >> b) & 1u)) {
            used |= 1ull << b;
            first_word[b] = w[i];
        } else if (first_word[b] != w[i]) {
            return 0;
        }
    }
    return 1;
}

/* The wavefronts of single words given as bits of one mask relative to the lowest word (bit j:
 * word lo + j is asked for), whose highest is `span` < 64 words above the lowest, on `banks`
 * banks (a power of two, fewer than 64): bits j and j + banks share a bank, so the answer is the
 * most set bits in one column of the mask cut into rows of `banks` bits (phase_wavefronts'
 * count for a broadcast phase). */
static inline uint32_t column_depth(uint64_t bits, uint64_t span, uint32_t banks)
{
    /* ge[k]: the columns with at least k + 1 rows' bits set. */
    uint64_t ge[64], column = (1ull << banks) - 1;
    uint32_t rows = (uint32_t)(span / banks) + 1, deepest = 0;
    for (uint32_t r = 0; r < rows; r++) {
        uint64_t x = (bits >> (r * banks)) & column;
        ge[r] = 0;
        for (uint32_t k = r; k >= 1; k--)
            ge[k] |= ge[k - 1] & x;
        ge[0] |= x;
    }
    while (deepest < rows && ge[deepest])
        deepest++;
    return deepest;
}

/* Wavefronts of a one-phase broadcast request of single words, from its n > 0 words w (offsets
 * >> log2 of the bank width; power-of-two banks and width): 1 when they lie within `banks`
 * words; column_depth when they span fewer than 64; when wider, 1 if conflict-free, else 0
 * (phase_wavefronts must count). */
static inline uint32_t words_wavefronts(const uint64_t *w, uint32_t n, uint32_t banks)
{
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    for (uint32_t i = 0; i < n; i++) {
        lo = w[i] < lo ? w[i] : lo;
        hi = w[i] > hi ? w[i] : hi;
    }
    if (hi - lo < banks)
        return 1;
    if (hi - lo >= 64)
        return words_conflict_free(w, n, banks);
    for (uint32_t i = 0; i < n; i++)
        bits |= 1ull << (w[i] - lo);
    return column_depth(bits, hi - lo, banks);
}


#endif

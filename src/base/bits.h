/* Small integer helpers shared by the parts (cache geometry, page sizes). */
#ifndef GMS_BASE_BITS_H
#define GMS_BASE_BITS_H

#include <stdint.h>

/* 1 when v is a power of two (v > 0). */
static inline int bits_is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* floor(log2(v)) for v >= 1; 0 for v <= 1. Exact for powers of two. */
static inline unsigned bits_log2_floor(uint64_t v)
{
    return v > 1 ? 63u - (unsigned)__builtin_clzll(v) : 0u;
}

/* The number of set bits of v, by the SWAR sum: a build without POPCNT would make
 * __builtin_popcount a library call on the simulator's hot paths (lane masks, sector masks). */
static inline unsigned bits_popcount32(uint32_t v)
{
    v -= (v >> 1) & 0x55555555u;
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    return (v * 0x01010101u) >> 24;
}

static inline unsigned bits_popcount64(uint64_t v)
{
    v -= (v >> 1) & UINT64_C(0x5555555555555555);
    v = (v & UINT64_C(0x3333333333333333)) + ((v >> 2) & UINT64_C(0x3333333333333333));
    v = (v + (v >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (unsigned)((v * UINT64_C(0x0101010101010101)) >> 56);
}

#endif

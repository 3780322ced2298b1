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

#endif

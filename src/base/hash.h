/* Hashing of short byte strings (names, mnemonics) for the hash tables of the front-ends. */
#ifndef GMS_BASE_HASH_H
#define GMS_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a over `len` bytes of `s`: cheap, and spreads short identifiers well enough for tables of
 * a few thousand entries. Tables take the low bits. */
static inline uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

#endif

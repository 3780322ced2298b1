/* Reference for bits64: the CUDA integer intrinsics written out in portable C (bit reversal,
 * population count, leading zeros, find-first-set, byte permute with 3-bit selectors, funnel
 * shifts in wrap and clamp mode, 64x64 -> 128-bit high halves) plus the kernel's 128-bit add,
 * rotate and 64-bit division. */
#include "ref_common.h"

#include <stdlib.h>

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

static uint64_t brev64(uint64_t x)
{
    return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32));
}

static uint32_t popc64(uint64_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        ++n;
    return n;
}

static uint32_t clz64(uint64_t x, int width)
{
    uint32_t n = 0;
    for (int i = width - 1; i >= 0 && !((x >> i) & 1); --i)
        ++n;
    return n;
}

static uint32_t ffs64(uint64_t x)
{
    if (x == 0)
        return 0;
    uint32_t i = 1;
    for (; !(x & 1); x >>= 1)
        ++i;
    return i;
}

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t selector)
{
    uint64_t bytes = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int k = 0; k < 4; ++k) {
        uint32_t pick = (selector >> (4 * k)) & 7;
        r |= (uint32_t)((bytes >> (8 * pick)) & 0xff) << (8 * k);
    }
    return r;
}

static uint32_t funnel_left(uint32_t lo, uint32_t hi, uint32_t shift)
{
    uint64_t both = ((uint64_t)hi << 32) | lo;
    return (uint32_t)((both << shift) >> 32);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: bits64 LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 6);
    uint32_t *a = ref_input("a", "u32", n), *b = ref_input("b", "u32", n);
    uint64_t *c = ref_input("c", "i64", n), *d = ref_input("d", "i64", n);
    uint32_t *out32 = ref_input("out32", "u32", 9 * n);
    uint64_t *out64 = ref_input("out64", "u64", 8 * n);
    for (size_t i = 0; i < n; ++i) {
        uint32_t ai = a[i], bi = b[i], *o32 = out32 + 9 * i;
        uint64_t ci = c[i], di = d[i], *o64 = out64 + 8 * i;
        uint32_t clamp_shift = (uint32_t)(ci >> 58) < 32 ? (uint32_t)(ci >> 58) : 32;
        o32[0] = brev32(ai);
        o32[1] = popc64(ai);
        o32[2] = clz64(ai, 32);
        o32[3] = ffs64(ai);
        o32[4] = byte_perm(ai, bi, 0x7531);
        o32[5] = byte_perm(ai, bi, bi & 0x7777);
        o32[6] = funnel_left(ai, bi, (uint32_t)ci & 31);
        o32[7] = (uint32_t)(((((uint64_t)bi) << 32) | ai) >> ((uint32_t)di & 31));
        o32[8] = funnel_left(ai, bi, clamp_shift);

        uint64_t low = ci + di, carry = low < ci, high = (uint64_t)ai + bi + carry;
        uint32_t rot = ai & 63;
        o64[0] = ci * di;
        o64[1] = (uint64_t)(((u128)ci * di) >> 64);
        o64[2] = (uint64_t)(((i128)(int64_t)ci * (int64_t)di) >> 64);
        o64[3] = low ^ (high << 40);
        o64[4] = brev64(ci);
        o64[5] = popc64(ci) | ((uint64_t)clz64(di, 64) << 8) | ((uint64_t)ffs64(ci) << 16);
        o64[6] = (ci << rot) | (ci >> ((64 - rot) & 63));
        o64[7] = ci / ((di >> 40) | 1) + ci % ((di >> 20) | 3);
    }
    ref_write_expected("out32", out32, 9 * n * sizeof *out32);
    ref_write_expected("out64", out64, 8 * n * sizeof *out64);
    free(a), free(b), free(c), free(d), free(out32), free(out64);
    return 0;
}

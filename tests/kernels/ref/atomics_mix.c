/* Reference for atomics_mix. Generates bits.in.bin (the starting words for atomicAnd, atomicOr
 * and atomicXor). Every final value is independent of thread order: maxima and minima, counts,
 * bitwise folds, the wrapping counters (replayed one operation at a time; any order gives the
 * same result), and a double sum whose terms are multiples of 0.25 so every partial sum is
 * exact. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: atomics_mix LAUNCH.json");
    uint32_t bits_start[3] = {0xffffffffu, 0x0u, 0x12345678u};
    ref_write_file("bits.in.bin", bits_start, sizeof bits_start);

    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 13), threads = ref_launch_threads(0), blocks = threads / 128;
    float *values = ref_input("values", "f32", n);
    int32_t *ints = ref_input("ints", "i32", n);
    float *float_max = ref_input("float_max", "f32", 1);
    int32_t *flags = ref_input("block_flags", "i32", blocks);
    uint32_t *winners = ref_input("winners", "u32", 1);
    uint32_t *inc = ref_input("inc_counter", "u32", 1), *dec = ref_input("dec_counter", "u32", 1);
    int32_t *smin = ref_input("smin", "i32", 1), *smax = ref_input("smax", "i32", 1);
    uint32_t *umin = ref_input("umin", "u32", 1), *umax = ref_input("umax", "u32", 1);
    uint32_t *bits = ref_input("bits", "u32", 3);
    double *dsum = ref_input("dsum", "f64", 1);
    for (size_t i = 0; i < n; ++i) {
        int32_t v = ints[i];
        if (values[i] > float_max[0])
            float_max[0] = values[i];
        if (flags[i / 128] == 0)
            winners[0]++;
        flags[i / 128] = 1;
        inc[0] = inc[0] >= 100u ? 0u : inc[0] + 1u;
        dec[0] = (dec[0] == 0u || dec[0] > 50u) ? 50u : dec[0] - 1u;
        smin[0] = v < smin[0] ? v : smin[0];
        smax[0] = v > smax[0] ? v : smax[0];
        umin[0] = (uint32_t)v < umin[0] ? (uint32_t)v : umin[0];
        umax[0] = (uint32_t)v > umax[0] ? (uint32_t)v : umax[0];
        if (v % 41 == 0)
            bits[0] &= ~(1u << ((v >> 6) & 31));
        if (v % 37 == 0)
            bits[1] |= 1u << ((v >> 6) & 31);
        bits[2] ^= (uint32_t)v;
        dsum[0] += (double)(v % 64) * 0.25;
    }
    ref_require(winners[0] == blocks, "every block has a thread in range");
    ref_require(bits[0] != 0xffffffffu && bits[0] != 0 && bits[1] != 0 && bits[1] != 0xffffffffu, "bit folds stay informative");
    ref_write_expected("float_max", float_max, sizeof *float_max);
    ref_write_expected("block_flags", flags, blocks * sizeof *flags);
    ref_write_expected("winners", winners, sizeof *winners);
    ref_write_expected("inc_counter", inc, sizeof *inc);
    ref_write_expected("dec_counter", dec, sizeof *dec);
    ref_write_expected("smin", smin, sizeof *smin);
    ref_write_expected("smax", smax, sizeof *smax);
    ref_write_expected("umin", umin, sizeof *umin);
    ref_write_expected("umax", umax, sizeof *umax);
    ref_write_expected("bits", bits, sizeof(uint32_t) * 3);
    ref_write_expected("dsum", dsum, sizeof *dsum);
    free(values), free(ints), free(float_max), free(flags), free(winners), free(inc), free(dec);
    free(smin), free(smax), free(umin), free(umax), free(bits), free(dsum);
    return 0;
}

/* Reference for warp_vote: evaluates each warp-wide vote, match and reduce over the 32 lanes of
 * each warp (lanes are consecutive linear thread ids of the 8x4x2 block). */
#include "ref_common.h"

#include <stdlib.h>

#define FULL 0xffffffffu

static uint32_t popc(uint32_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        ++n;
    return n;
}

static void warp_results(const int32_t v[32], uint32_t out[32][12])
{
    uint32_t ballot = 0, any7 = 0, all_positive = 1, odd_low20 = 0, add = 0, min = FULL;
    uint32_t or_bits = 0, and_bits = FULL, xor_bits = 0;
    int32_t max = INT32_MIN;
    for (uint32_t lane = 0; lane < 32; ++lane) {
        ballot |= (uint32_t)(v[lane] > 3) << lane;
        any7 |= v[lane] == 7;
        all_positive &= v[lane] > 0;
        if (lane < 20)
            odd_low20 |= (uint32_t)(v[lane] & 1) << lane;
        add += (uint32_t)v[lane];
        min = (uint32_t)v[lane] < min ? (uint32_t)v[lane] : min;
        max = v[lane] - 4 > max ? v[lane] - 4 : max;
        or_bits |= 1u << v[lane];
        and_bits &= (uint32_t)v[lane] | 0x10u;
        xor_bits ^= lane * (uint32_t)v[lane];
    }
    int all_same = 1;
    for (uint32_t lane = 1; lane < 32; ++lane)
        all_same &= v[lane] == v[0];
    for (uint32_t lane = 0; lane < 32; ++lane) {
        uint32_t match = 0, below = 0;
        for (uint32_t other = 0; other < 32; ++other) {
            match |= (uint32_t)(v[other] == v[lane]) << other;
            below |= (uint32_t)(other < (uint32_t)v[other]) << other;
        }
        uint32_t *o = out[lane];
        o[0] = ballot;
        o[1] = any7;
        o[2] = 1u | (all_positive << 1);
        o[3] = match;
        o[4] = 1u | (1u << 1) | ((uint32_t)all_same << 2) | ((uint32_t)all_same << 3);
        o[5] = add;
        o[6] = min;
        o[7] = (uint32_t)max;
        o[8] = or_bits;
        o[9] = and_bits ^ xor_bits;
        o[10] = lane < 20 ? odd_low20 ^ (0x000fffffu << 1) : 0;
        o[11] = popc(below);
    }
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: warp_vote LAUNCH.json");
    ref_open(argv[1]);
    size_t threads = ref_launch_threads(0);
    int32_t *in = ref_input("in", "i32", threads);
    uint32_t *out = ref_input("out", "u32", 12 * threads);
    for (size_t w = 0; w < threads / 32; ++w) {
        for (size_t lane = 0; lane < 32; ++lane)
            ref_require(in[32 * w + lane] >= 0 && in[32 * w + lane] < 8, "inputs in 0..7");
        warp_results(in + 32 * w, (uint32_t(*)[12])(out + 12 * 32 * w));
    }
    ref_write_expected("out", out, 12 * threads * sizeof *out);
    free(in), free(out);
    return 0;
}

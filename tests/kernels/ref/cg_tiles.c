/* Reference for cg_tiles: sums over aligned groups of 16 and 8 consecutive threads (by linear
 * thread rank within the block), maxima over groups of 8, and each thread's rank encoding
 * (16-tile index * 100 + rank within its 8-tile). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: cg_tiles LAUNCH.json");
    ref_open(argv[1]);
    size_t threads = ref_launch_threads(0), block_size = 96;
    int32_t *in = ref_input("in", "i32", threads);
    int32_t *sum16 = ref_input("sum16", "i32", threads / 16);
    int32_t *sum8 = ref_input("sum8", "i32", threads / 8);
    int32_t *max8 = ref_input("max8", "i32", threads / 8);
    int32_t *ranks = ref_input("ranks", "i32", threads);
    for (size_t g = 0; g < threads; ++g) {
        size_t rank = g % block_size;
        sum16[g / 16] += in[g];
        sum8[g / 8] += in[g];
        if (g % 8 == 0 || in[g] > max8[g / 8])
            max8[g / 8] = in[g];
        ranks[g] = (int32_t)((rank / 16) * 100 + rank % 8);
    }
    ref_write_expected("sum16", sum16, threads / 16 * sizeof(int32_t));
    ref_write_expected("sum8", sum8, threads / 8 * sizeof(int32_t));
    ref_write_expected("max8", max8, threads / 8 * sizeof(int32_t));
    ref_write_expected("ranks", ranks, threads * sizeof(int32_t));
    free(in), free(sum16), free(sum8), free(max8), free(ranks);
    return 0;
}

/* Reference for reduce_shfl: replays the kernel's exact float summation order (per-thread
 * grid-stride sums, then the __shfl_down_sync tree, whose lanes past 31 read their own value) so
 * each block's partial is bit-exact; the atomically accumulated total depends on block order and
 * is compared with a tolerance. */
#include "ref_common.h"

#include <stdlib.h>

static float warp_sum(float lanes[32])
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        float next[32];
        for (int lane = 0; lane < 32; ++lane)
            next[lane] = lanes[lane] + (lane + offset < 32 ? lanes[lane + offset] : lanes[lane]);
        for (int lane = 0; lane < 32; ++lane)
            lanes[lane] = next[lane];
    }
    return lanes[0];
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: reduce_shfl LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 3);
    size_t threads = ref_launch_threads(0), block_dim = 256, blocks = threads / block_dim;
    float *in = ref_input("in", "f32", n);
    float *block_sums = ref_input("block_sums", "f32", blocks);
    float *total = ref_input("total", "f32", 1);
    double grand = 0.0;
    for (size_t b = 0; b < blocks; ++b) {
        float warp_sums[32] = {0};
        for (size_t w = 0; w < block_dim / 32; ++w) {
            float lanes[32];
            for (size_t lane = 0; lane < 32; ++lane) {
                float sum = 0.0f;
                for (size_t i = b * block_dim + w * 32 + lane; i < n; i += threads)
                    sum += in[i];
                lanes[lane] = sum;
            }
            warp_sums[w] = warp_sum(lanes);
        }
        block_sums[b] = warp_sum(warp_sums);
        grand += block_sums[b];
    }
    total[0] = (float)grand;
    ref_write_expected("block_sums", block_sums, blocks * sizeof(float));
    ref_write_expected("total", total, sizeof(float));
    free(in);
    free(block_sums);
    free(total);
    return 0;
}

/* Reference for fence_reduce: replays the kernel's float summation order exactly (per-thread
 * grid-stride sums, the shared-memory halving tree, and the last block's tree over the partials),
 * for both launches (16 and 8 blocks over the same input). */
#include "ref_common.h"

#include <stdlib.h>

#define BLOCK 256

static float tree_sum(float values[BLOCK])
{
    for (int s = BLOCK / 2; s > 0; s >>= 1)
        for (int t = 0; t < s; ++t)
            values[t] += values[t + s];
    return values[0];
}

static float reduce_launch(const float *in, size_t n, size_t blocks, float *partials)
{
    float values[BLOCK];
    for (size_t b = 0; b < blocks; ++b) {
        for (size_t t = 0; t < BLOCK; ++t) {
            float sum = 0.0f;
            for (size_t i = b * BLOCK + t; i < n; i += blocks * BLOCK)
                sum += in[i];
            values[t] = sum;
        }
        partials[b] = tree_sum(values);
    }
    for (size_t t = 0; t < BLOCK; ++t)
        values[t] = t < blocks ? partials[t] : 0.0f;
    return tree_sum(values);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: fence_reduce LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 3);
    ref_require(ref_arg_int(1, 3) == (int64_t)n, "both launches reduce the same input");
    size_t blocks_a = ref_launch_threads(0) / BLOCK, blocks_b = ref_launch_threads(1) / BLOCK;
    float *in = ref_input("in", "f32", n);
    float *partials = ref_input("partials", "f32", blocks_a);
    float *partials_b = ref_input("partials_b", "f32", blocks_b);
    float *result = ref_input("result", "f32", 2);
    result[0] = reduce_launch(in, n, blocks_a, partials);
    result[1] = reduce_launch(in, n, blocks_b, partials_b);
    ref_write_expected("partials", partials, blocks_a * sizeof(float));
    ref_write_expected("partials_b", partials_b, blocks_b * sizeof(float));
    ref_write_expected("result", result, 2 * sizeof(float));
    free(in), free(partials), free(partials_b), free(result);
    return 0;
}

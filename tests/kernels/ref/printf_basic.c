/* Reference for printf_basic: the warp sums and expected_stdout.txt, the device printf output in
 * the simulator's documented order (block by block, warp by warp, each warp's printf calls in
 * program order, each call's active lanes in lane order). */
#include "ref_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: printf_basic LAUNCH.json");
    ref_open(argv[1]);
    size_t threads = ref_launch_threads(0), block_dim = 64, blocks = threads / block_dim;
    int32_t *data = ref_input("data", "i32", threads);
    int32_t *warp_sums = ref_input("warp_sums", "i32", threads / 32);
    static char text[16384];
    size_t used = 0;
    for (size_t b = 0; b < blocks; ++b)
        for (size_t w = 0; w < block_dim / 32; ++w) {
            int32_t sum = 0;
            for (size_t lane = 0; lane < 32; ++lane) {
                size_t tid = w * 32 + lane;
                int32_t value = data[b * block_dim + tid];
                sum += value;
                if (tid % 20 == 0)
                    used += (size_t)snprintf(text + used, sizeof text - used,
                                             "block %d thread %d value %d\n", (int)b, (int)tid,
                                             value);
            }
            warp_sums[b * (block_dim / 32) + w] = sum;
            float mean = (float)sum * 0.03125f;
            used += (size_t)snprintf(text + used, sizeof text - used,
                                     "block %u warp %u sum %d hex %08x mean %.3f scaled %lld\n",
                                     (unsigned)b, (unsigned)w, sum, (unsigned)sum, (double)mean,
                                     (long long)sum * 1000000007LL);
            ref_require(used < sizeof text, "output fits");
        }
    ref_write_file("expected_stdout.txt", text, strlen(text));
    ref_write_expected("warp_sums", warp_sums, threads / 32 * sizeof(int32_t));
    free(data), free(warp_sums);
    return 0;
}

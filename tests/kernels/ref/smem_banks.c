/* Reference for smem_banks: launch k writes, for block b and thread t, the neighbour's stored
 * value ((t + 1) mod blockDim) * 1000 + b plus the stride. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: smem_banks LAUNCH.json");
    ref_open(argv[1]);
    size_t launches = ref_launch_count(), threads = ref_launch_threads(0), block_dim = 128;
    uint32_t *out = ref_input("out", "u32", launches * threads);
    for (size_t k = 0; k < launches; ++k) {
        uint32_t stride = (uint32_t)ref_arg_int(k, 1);
        ref_require(stride >= 1 && stride <= 32, "stride within the shared array");
        for (size_t i = 0; i < threads; ++i) {
            uint32_t block = (uint32_t)(i / block_dim), t = (uint32_t)(i % block_dim);
            uint32_t neighbour = (t + 1) % (uint32_t)block_dim;
            out[k * threads + i] = neighbour * 1000u + block + stride;
        }
    }
    ref_write_expected("out", out, launches * threads * sizeof *out);
    free(out);
    return 0;
}

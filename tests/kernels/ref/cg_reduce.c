/* Reference for cg_reduce: sums over each warp (32 consecutive threads), sums and maxima over each
 * group of 128, each block's total, and the reserved-region registers the reserved_regs kernel
 * reads. The region follows the kernel's 128 bytes of static shared memory (aligned to 128) and
 * is the h100 preset's 1 KiB; %reserved_smem_offset_1 is its second half (docs/semantics.md,
 * "Reserved shared memory"). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: cg_reduce LAUNCH.json");
    ref_open(argv[1]);
    size_t threads = ref_launch_threads(0), block_size = 256;
    ref_require(threads == 3 * block_size, "cg_reduce expects 3 blocks of 256 threads");
    int32_t *in = ref_input("in", "i32", threads);
    int32_t *sum32 = ref_input("sum32", "i32", threads / 32);
    int32_t *sum128 = ref_input("sum128", "i32", threads / 128);
    int32_t *max128 = ref_input("max128", "i32", threads / 128);
    int32_t *block_sum = ref_input("block_sum", "i32", threads / block_size);
    for (size_t g = 0; g < threads; ++g) {
        sum32[g / 32] += in[g];
        sum128[g / 128] += in[g];
        if (g % 128 == 0 || in[g] > max128[g / 128])
            max128[g / 128] = in[g];
        block_sum[g / block_size] += in[g];
    }
    const uint32_t static_shared = 128, reserved = 1024, begin = static_shared;
    uint32_t regs[5] = {begin, begin + reserved, reserved, begin, begin + reserved / 2};
    ref_write_expected("sum32", sum32, threads / 32 * sizeof(int32_t));
    ref_write_expected("sum128", sum128, threads / 128 * sizeof(int32_t));
    ref_write_expected("max128", max128, threads / 128 * sizeof(int32_t));
    ref_write_expected("block_sum", block_sum, threads / block_size * sizeof(int32_t));
    ref_write_expected("regs", regs, sizeof regs);
    free(in), free(sum32), free(sum128), free(max128), free(block_sum);
    return 0;
}

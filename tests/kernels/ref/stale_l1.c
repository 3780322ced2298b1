/* Reference for stale_l1: CTA 1 reads the value (initially 1) twice, around CTA 0's store of 2.
 * Launch 0 has no fence, so the second read hits CTA 1's stale L1 copy: seen_a = {1, 1}.
 * Launch 1 fences first, so the second read refetches from L2: seen_b = {1, 2}. This is what the
 * simulator's model of non-coherent L1s defines, not a guarantee of every GPU. */
#include "ref_common.h"

#include <stdint.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: stale_l1 LAUNCH.json");
    ref_open(argv[1]);
    ref_require(ref_arg_int(0, 3) == 0 && ref_arg_int(1, 3) == 1,
                "launch 0 runs without the fence, launch 1 with it");
    int32_t seen_a[2] = {1, 1}, seen_b[2] = {1, 2};
    ref_write_expected("seen_a", seen_a, sizeof seen_a);
    ref_write_expected("seen_b", seen_b, sizeof seen_b);
    return 0;
}

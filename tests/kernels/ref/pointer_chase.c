/* Reference for pointer_chase: for each (build_chain, chase) launch pair, the index reached after
 * `steps` hops around the cycle i -> (i + stride) mod footprint from 0, and the 32-bit sum of the
 * indices visited. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: pointer_chase LAUNCH.json");
    ref_open(argv[1]);
    size_t pairs = ref_launch_count() / 2;
    uint32_t *result = ref_input("result", "u32", 2 * pairs);
    for (size_t k = 0; k < pairs; ++k) {
        uint32_t footprint = (uint32_t)ref_arg_int(2 * k, 1), stride = (uint32_t)ref_arg_int(2 * k, 2);
        uint32_t steps = (uint32_t)ref_arg_int(2 * k + 1, 2), p = 0, checksum = 0;
        for (uint32_t s = 0; s < steps; ++s) {
            p = (p + stride) % footprint;
            checksum += p;
        }
        result[2 * k] = p;
        result[2 * k + 1] = checksum;
    }
    ref_write_expected("result", result, 2 * pairs * sizeof *result);
    free(result);
    return 0;
}

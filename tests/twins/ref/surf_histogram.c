/* Reference for the surface histogram twin: texel in[i] & 63 of image bins counts the i < n. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: surf_histogram LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 2), count = 4096;
    ref_require(n < count && n % 32 != 0 && ref_launch_threads(0) == count,
                "the launch must cover the buffer and leave a partial warp");
    uint32_t *in = ref_input("in", "u32", count), *bins = ref_input("bins", "u32", 64);
    for (size_t i = 0; i < n; i++)
        bins[in[i] & 63]++;
    ref_write_expected("bins", bins, sizeof *bins * 64);
    free(in);
    free(bins);
    return 0;
}

/* Reference for stream_dram: out[i] = in[i] * 2 + 1 for every i < n; in is an iota of small
 * integers, so the product and the sum are exact whether or not they are fused. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: stream_dram LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 2);
    ref_require(n * 4 % 128 == 0, "n * 4 must be a multiple of the 128-byte line");
    ref_require(ref_launch_threads(0) == n, "one thread per element");
    float *in = ref_input("in", "f32", n);
    float *out = ref_input("out", "f32", n);
    for (size_t i = 0; i < n; ++i)
        out[i] = in[i] * 2.0f + 1.0f;
    ref_write_expected("out", out, n * sizeof *out);
    free(in), free(out);
    return 0;
}

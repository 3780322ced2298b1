/* Reference for strided_access: launch k writes out[k * threads + i] = in[(i * stride_k) mod n]
 * + 0.5, with in = iota, so every value is exact. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: strided_access LAUNCH.json");
    ref_open(argv[1]);
    size_t launches = ref_launch_count(), threads = ref_launch_threads(0);
    size_t n = (size_t)ref_arg_int(0, 2);
    float *in = ref_input("in", "f32", n);
    float *out = ref_input("out", "f32", launches * threads);
    for (size_t k = 0; k < launches; ++k) {
        size_t stride = (size_t)ref_arg_int(k, 3);
        for (size_t i = 0; i < threads; ++i)
            out[k * threads + i] = in[(i * stride) % n] + 0.5f;
    }
    ref_write_expected("out", out, launches * threads * sizeof *out);
    free(in), free(out);
    return 0;
}

/* CPU reference for the saxpy example: rebuilds x and y from saxpy.json's random init (the
 * launch-file reader is the one the end-to-end kernel tests use, tests/kernels/ref/) and writes
 * y.expected.bin = a * x + y, computed with one fused multiply-add as the PTX does. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: ref saxpy.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 0);
    float a = (float)ref_arg_float(0, 1);
    float *x = ref_input("x", "f32", n);
    float *y = ref_input("y", "f32", n);
    for (size_t i = 0; i < n; ++i)
        y[i] = fmaf(a, x[i], y[i]);
    ref_write_expected("y", y, n * sizeof *y);
    free(x);
    free(y);
    return 0;
}

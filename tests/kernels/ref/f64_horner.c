/* Reference for f64_horner: Horner's rule with fma over the kernel's constant coefficients, and
 * each block's dot-product partial summed in the kernel's halving-tree order (threads past n
 * contribute zero). */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

#define BLOCK 128

static const double coefficients[8] = {1.0, -0.5, 0.25, -0.125, 0.0625, 0.3, -0.7, 0.011};

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: f64_horner LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 4), blocks = ref_launch_threads(0) / BLOCK;
    double *x = ref_input("x", "f64", n);
    double *w = ref_input("w", "f64", n);
    double *poly = ref_input("poly", "f64", n);
    double *dots = ref_input("block_dots", "f64", blocks);
    for (size_t b = 0; b < blocks; ++b) {
        double shared[BLOCK];
        for (size_t t = 0; t < BLOCK; ++t) {
            size_t i = b * BLOCK + t;
            shared[t] = 0.0;
            if (i < n) {
                double p = coefficients[7];
                for (int k = 6; k >= 0; --k)
                    p = fma(p, x[i], coefficients[k]);
                poly[i] = p;
                shared[t] = p * w[i];
            }
        }
        for (size_t s = BLOCK / 2; s > 0; s >>= 1)
            for (size_t t = 0; t < s; ++t)
                shared[t] += shared[t + s];
        dots[b] = shared[0];
    }
    ref_write_expected("poly", poly, n * sizeof *poly);
    ref_write_expected("block_dots", dots, blocks * sizeof *dots);
    free(x), free(w), free(poly), free(dots);
    return 0;
}

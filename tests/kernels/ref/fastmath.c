/* Reference for fastmath: the exact functions in double, rounded to float. The kernel's
 * hardware approximations differ by a few units in the last place, which the launch file's
 * rtol/atol (4e-6) allow. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: fastmath LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 9);
    float *x = ref_input("x", "f32", n), *y = ref_input("y", "f32", n);
    const char *names[7] = {"e", "l", "s", "c", "q", "r", "e2"};
    float *out[7];
    for (int k = 0; k < 7; ++k)
        out[k] = ref_input(names[k], "f32", n);
    for (size_t i = 0; i < n; ++i) {
        double xi = x[i], yi = y[i];
        out[0][i] = (float)exp(xi);
        out[1][i] = (float)log(yi);
        out[2][i] = (float)sin(xi);
        out[3][i] = (float)cos(xi);
        out[4][i] = (float)(xi / yi);
        out[5][i] = (float)(1.0 / sqrt(yi));
        out[6][i] = (float)exp(0.5 * xi);
    }
    for (int k = 0; k < 7; ++k) {
        ref_write_expected(names[k], out[k], n * sizeof(float));
        free(out[k]);
    }
    free(x), free(y);
    return 0;
}

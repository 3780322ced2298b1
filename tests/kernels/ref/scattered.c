/* Reference for scattered: launch 0 computes y[j] = sum over i of a[j * n + i] * x[i] (one fused
 * multiply-add per term, in i order, as the kernel's fma.rn.f32 chain); launch 1 moves each
 * 8-float particle one step: s = dt * q / m, v += s * e (fused), position += dt * v (fused). */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: scattered LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 3);
    ref_require(ref_launch_threads(0) >= n, "matvec_cols: fewer threads than columns");
    float *a = ref_input("a", "f32", n * n);
    float *x = ref_input("x", "f32", n);
    float *y = ref_input("y", "f32", n);
    for (size_t j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (size_t i = 0; i < n; ++i)
            acc = fmaf(a[j * n + i], x[i], acc);
        y[j] = acc;
    }
    size_t np = (size_t)ref_arg_int(1, 1);
    ref_require(ref_launch_threads(1) >= np, "aos_update: fewer threads than particles");
    float dt = (float)ref_arg_float(1, 2);
    float e[3] = {(float)ref_arg_float(1, 3), (float)ref_arg_float(1, 4),
                  (float)ref_arg_float(1, 5)};
    float *p = ref_input("p", "f32", np * 8);
    for (size_t i = 0; i < np; ++i) {
        float *q = p + i * 8; /* x, y, z, vx, vy, vz, m, q */
        float s = dt * q[7] / q[6];
        for (int k = 0; k < 3; ++k) {
            q[3 + k] = fmaf(s, e[k], q[3 + k]);
            q[k] = fmaf(dt, q[3 + k], q[k]);
        }
    }
    ref_write_expected("y", y, n * sizeof *y);
    ref_write_expected("p", p, np * 8 * sizeof *p);
    free(a), free(x), free(y), free(p);
    return 0;
}

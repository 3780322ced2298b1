/* Reference for stencil2d: out = c0 * center + c1 * (((up + down) + left) + right) with clamped
 * edges, evaluated in the kernel's order (the PTX sums the neighbours left to right, multiplies
 * by c1, then fuses c0 * center into the final add). */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: stencil2d LAUNCH.json");
    ref_open(argv[1]);
    int width = (int)ref_arg_int(0, 2), height = (int)ref_arg_int(0, 3);
    float c0 = (float)ref_arg_float(0, 4), c1 = (float)ref_arg_float(0, 5);
    float *in = ref_input("in", "f32", (size_t)width * height);
    float *out = ref_input("out", "f32", (size_t)width * height);
#define AT(x, y) in[clamp(y, 0, height - 1) * width + clamp(x, 0, width - 1)]
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float around = AT(x, y - 1) + AT(x, y + 1);
            around += AT(x - 1, y);
            around += AT(x + 1, y);
            out[y * width + x] = fmaf(c0, AT(x, y), c1 * around);
        }
    ref_write_expected("out", out, sizeof(float) * (size_t)width * height);
    free(in);
    free(out);
    return 0;
}

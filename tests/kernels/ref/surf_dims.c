/* Reference for surf_dims: launch 0 writes line_out[n - 1 - i] = 3 line_in[i] - 7 (32-bit
 * wrapping), launch 1 volume(x, y, z) = (x + 64 y + 1024 z) mod 2^16, launch 2
 * layered(x, y, l) = 0.5 x - 0.25 y + 100 l (each step exact in f32). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: surf_dims LAUNCH.json");
    ref_open(argv[1]);
    ref_require(ref_launch_count() == 3, "three launches");

    size_t n = (size_t)ref_arg_int(0, 2);
    int32_t *in = ref_input("line_in", "i32", n);
    int32_t *out = ref_input("line_out", "i32", n);
    for (size_t i = 0; i < n; ++i)
        out[n - 1 - i] = (int32_t)((uint32_t)in[i] * 3u - 7u);
    ref_write_expected("line_out", out, n * sizeof *out);

    size_t w = (size_t)ref_arg_int(1, 1), h = (size_t)ref_arg_int(1, 2), d = (size_t)ref_arg_int(1, 3);
    uint16_t *volume = ref_input("volume", "u16", w * h * d);
    for (size_t z = 0; z < d; ++z)
        for (size_t y = 0; y < h; ++y)
            for (size_t x = 0; x < w; ++x)
                volume[(z * h + y) * w + x] = (uint16_t)(x + 64 * y + 1024 * z);
    ref_write_expected("volume", volume, w * h * d * sizeof *volume);

    size_t lw = (size_t)ref_arg_int(2, 1), lh = (size_t)ref_arg_int(2, 2), layers = 3;
    float *layered = ref_input("layered", "f32", lw * lh * layers);
    for (size_t l = 0; l < layers; ++l)
        for (size_t y = 0; y < lh; ++y)
            for (size_t x = 0; x < lw; ++x)
                layered[(l * lh + y) * lw + x] =
                    0.5f * (float)x - 0.25f * (float)y + 100.0f * (float)l;
    ref_write_expected("layered", layered, lw * lh * layers * sizeof *layered);
    free(in);
    free(out);
    free(volume);
    free(layered);
    return 0;
}

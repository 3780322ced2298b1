/* Reference for cp_async_pipeline: pipeline_fma accumulates, per thread and component, the
 * neighbour's ((t + 1) mod 64) element of every tile in order with fmaf; zfill gives the first
 * n floats and zeros after them, then the second 64 vectors with every fourth one zero
 * (ignore-src); copy_twice the first 32 vectors twice; hinted, per lane t, the pair of floats
 * at 128 t; half_wait the first 16 vectors, then zeros. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: cp_async_pipeline LAUNCH.json");
    ref_open(argv[1]);
    float *in = ref_input("in", "f32", 8192);
    float fma_out[1024], zfill_out[512], twice_out[256], hinted_out[64], half_out[128];
    int tiles = (int)ref_arg_int(0, 2), n = (int)ref_arg_int(1, 2);
    float a = (float)ref_arg_float(0, 3);
    ref_require(4 * tiles * 256 == 8192, "four blocks of `tiles` tiles cover the input");
    ref_require(n > 248 && n < 252, "n ends inside thread 62's vector (a partial source)");
    for (int b = 0; b < 4; b++)
        for (int t = 0; t < 64; t++)
            for (int c = 0; c < 4; c++) {
                float acc = 0.f;
                for (int i = 0; i < tiles; i++)
                    acc = fmaf(a, in[b * tiles * 256 + i * 256 + ((t + 1) % 64) * 4 + c], acc);
                fma_out[(b * 64 + t) * 4 + c] = acc;
            }
    for (int i = 0; i < 256; i++) {
        zfill_out[i] = i < n ? in[i] : 0.f;
        zfill_out[256 + i] = (i / 4) % 4 == 3 ? 0.f : in[256 + i];
    }
    for (int i = 0; i < 128; i++) twice_out[i] = twice_out[128 + i] = in[i];
    for (int t = 0; t < 32; t++) {
        hinted_out[2 * t] = in[128 * t];
        hinted_out[2 * t + 1] = in[128 * t + 1];
    }
    for (int i = 0; i < 128; i++) half_out[i] = i < 64 ? in[i] : 0.f;
    ref_write_expected("out_half", half_out, sizeof half_out);
    ref_write_expected("out_hinted", hinted_out, sizeof hinted_out);
    ref_write_expected("out_fma", fma_out, sizeof fma_out);
    ref_write_expected("out_zfill", zfill_out, sizeof zfill_out);
    ref_write_expected("out_twice", twice_out, sizeof twice_out);
    free(in);
    return 0;
}

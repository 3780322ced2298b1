/* Reference for wmma_types: each product in long double from the inputs as the kernel reads
 * them (bf16 and f16 exactly, tf32 after __float_to_tf32's round to nearest, ties away from zero,
 * to 10 fraction bits), summed with c and rounded once to the result type; integers exactly. The
 * f16 result (rounded to f16, where the simulator's double sum and this sum may round
 * differently at a tie) is compared within half an f16 ulp of numbers below 2 (rtol = atol =
 * 1e-3); f32 within 1e-6, f64 as in mma_sync (docs/semantics.md, "Matrix instructions"). The
 * stmatrix tile is the layout of the PTX ISA: register i of lane l holds row l / 4, columns
 * 2 (l % 4) and 2 (l % 4) + 1 of matrix i (.trans: column l / 4, rows 2 (l % 4) and + 1). */
#include "ref_common.h"

#include <stdlib.h>
#include <string.h>

static float tf32_rna(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u = (u + 0x1000u) & 0xFFFFE000u;
    memcpy(&f, &u, 4);
    return f;
}

static void wmma_h(void)
{
    /* d (32x8, column-major, ld 32) = a (32x16, column-major, ld 32) * b (16x8, row-major) + c
     * (32x8, row-major) */
    uint16_t *a = ref_input("ha", "f16", 512), *b = ref_input("hb", "f16", 128);
    uint16_t *c = ref_input("hc", "f16", 256), d[256];
    for (int m = 0; m < 32; m++)
        for (int n = 0; n < 8; n++) {
            long double acc = ref_f16_to_double(c[m * 8 + n]);
            for (int k = 0; k < 16; k++)
                acc += (long double)ref_f16_to_double(a[k * 32 + m]) * ref_f16_to_double(b[k * 8 + n]);
            d[n * 32 + m] = ref_f16_from_double((double)acc);
        }
    ref_write_expected("hd", d, sizeof d);
    free(a), free(b), free(c);
}

static void wmma_bf(void)
{
    uint16_t *a = ref_input("ba", "bf16", 256), *b = ref_input("bb", "bf16", 256);
    float d[256];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            long double acc = 0.5L;
            for (int k = 0; k < 16; k++)
                acc += (long double)ref_bf16_to_double(a[m * 16 + k]) * ref_bf16_to_double(b[k * 16 + n]);
            d[m * 16 + n] = (float)acc;
        }
    ref_write_expected("bd", d, sizeof d);
    free(a), free(b);
}

static void wmma_tf(void)
{
    float *a = ref_input("ta", "f32", 128), *b = ref_input("tb", "f32", 128), d[256];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            long double acc = 0;
            for (int k = 0; k < 8; k++) /* a row-major (16x8), b column-major (8x16) */
                acc += (long double)tf32_rna(a[m * 8 + k]) * tf32_rna(b[n * 8 + k]);
            d[m * 16 + n] = (float)acc;
        }
    ref_write_expected("td", d, sizeof d);
    free(a), free(b);
}

static void wmma_d(void)
{
    double *a = ref_input("da", "f64", 32), *b = ref_input("db", "f64", 32), d[64];
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 8; n++) {
            long double acc = 1.0L;
            for (int k = 0; k < 4; k++)
                acc += (long double)a[m * 4 + k] * b[k * 8 + n];
            d[m * 8 + n] = (double)acc;
        }
    ref_write_expected("dd", d, sizeof d);
    free(a), free(b);
}

static void wmma_s8(void)
{
    int8_t *a = ref_input("ia", "i8", 256), *b = ref_input("ib", "i8", 256);
    int32_t d[256];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            int32_t acc = -7;
            for (int k = 0; k < 16; k++) /* b column-major */
                acc += (int32_t)a[m * 16 + k] * b[n * 16 + k];
            d[m * 16 + n] = acc;
        }
    ref_write_expected("id", d, sizeof d);
    free(a), free(b);
}

static void stmatrix_tile(void)
{
    uint16_t tile[2][32 * 8];
    memset(tile, 0, sizeof tile);
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            uint32_t v = (uint32_t)(lane * 4 + i + 1), r = v | ((v + 0x100) << 16);
            for (int h = 0; h < 2; h++) {
                tile[0][(8 * i + lane / 4) * 8 + 2 * (lane % 4) + h] = (uint16_t)(r >> (16 * h));
                if (i < 2)
                    tile[1][(8 * i + 2 * (lane % 4) + h) * 8 + lane / 4] = (uint16_t)(r >> (16 * h));
            }
        }
    ref_write_expected("st", tile, sizeof tile);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: wmma_types LAUNCH.json");
    ref_open(argv[1]);
    wmma_h();
    wmma_bf();
    wmma_tf();
    wmma_d();
    wmma_s8();
    stmatrix_tile();
    return 0;
}

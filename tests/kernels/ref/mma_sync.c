/* Reference for mma_sync: every product of a matrix multiply-accumulate in long double from the
 * inputs as the kernel reads them (f16 exactly, tf32 after cvt.rna's rounding of the f32 inputs to
 * 10 fraction bits, ties away from zero), summed with c and rounded once to the result type; the
 * integer case is the exact sum clamped to the s32 range (.satfinite). The launch file compares
 * the float results with the tolerances of docs/semantics.md ("Matrix instructions"): the
 * simulator's sums are in double (f32 results: rtol/atol 1e-6) and its f64 results a chain of
 * fused multiply-adds (rtol 1e-14, atol 1e-13; 1e-12 for the 16-term sums of m16n8k16). */
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

static void wmma_gemm(void)
{
    uint16_t *A = ref_input("A", "f16", 1024), *B = ref_input("B", "f16", 1024);
    float C[1024];
    for (int m = 0; m < 32; m++)
        for (int n = 0; n < 32; n++) {
            long double acc = 0;
            for (int k = 0; k < 32; k++) /* A row-major, B column-major */
                acc += (long double)ref_f16_to_double(A[m * 32 + k]) *
                       ref_f16_to_double(B[n * 32 + k]);
            C[m * 32 + n] = (float)acc;
        }
    ref_write_expected("C", C, sizeof C);
    free(A);
    free(B);
}

static void mma_f16(void)
{
    uint16_t *A = ref_input("hA", "f16", 256), *B = ref_input("hB", "f16", 128);
    float *C = ref_input("hC", "f32", 128), D[128];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            long double acc = C[m * 8 + n];
            for (int k = 0; k < 16; k++) /* B stored k-major: B[k][n] */
                acc += (long double)ref_f16_to_double(A[m * 16 + k]) *
                       ref_f16_to_double(B[k * 8 + n]);
            D[m * 8 + n] = (float)acc;
        }
    ref_write_expected("hD", D, sizeof D);
    free(A);
    free(B);
    free(C);
}

static void mma_tf32(void)
{
    float *A = ref_input("tA", "f32", 128), *B = ref_input("tB", "f32", 64);
    float *C = ref_input("tC", "f32", 128), D[128];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            long double acc = C[m * 8 + n];
            for (int k = 0; k < 8; k++)
                acc += (long double)tf32_rna(A[m * 8 + k]) * tf32_rna(B[k * 8 + n]);
            D[m * 8 + n] = (float)acc;
        }
    ref_write_expected("tD", D, sizeof D);
    free(A);
    free(B);
    free(C);
}

static void mma_f64(void)
{
    double *A = ref_input("dA", "f64", 32), *B = ref_input("dB", "f64", 32);
    double *C = ref_input("dC", "f64", 64), D[64];
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 8; n++) {
            long double acc = C[m * 8 + n];
            for (int k = 0; k < 4; k++)
                acc += (long double)A[m * 4 + k] * B[k * 8 + n];
            D[m * 8 + n] = (double)acc;
        }
    ref_write_expected("dD", D, sizeof D);
    free(A);
    free(B);
    free(C);
}

static void mma_s8(void)
{
    int8_t *A = ref_input("iA", "i8", 512);
    uint8_t *B = ref_input("iB", "u8", 256);
    int32_t *C = ref_input("iC", "i32", 128), D[128];
    int saturated = 0;
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            int64_t acc = C[m * 8 + n];
            for (int k = 0; k < 32; k++)
                acc += (int64_t)A[m * 32 + k] * B[k * 8 + n];
            saturated += acc > INT32_MAX || acc < INT32_MIN;
            D[m * 8 + n] = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : (int32_t)acc;
        }
    ref_require(saturated > 0, "mma_s8: no result saturates; .satfinite is not exercised");
    ref_write_expected("iD", D, sizeof D);
    free(A);
    free(B);
    free(C);
}

static void mma_f64_k16(void)
{
    double *A = ref_input("eA", "f64", 256), *B = ref_input("eB", "f64", 128);
    double *C = ref_input("eC", "f64", 128), D[128];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            long double acc = C[m * 8 + n];
            for (int k = 0; k < 16; k++)
                acc += (long double)A[m * 16 + k] * B[k * 8 + n];
            D[m * 8 + n] = (double)acc;
        }
    ref_write_expected("eD", D, sizeof D);
    free(A);
    free(B);
    free(C);
}

/* Four MMAs of m8n8k4: D_q = A_q B_q + C_q (f32), H_q = A_q B_q rounded to f16 (compared within
 * half an f16 ulp of values below 4, rtol = atol = 1e-3). */
static void mma_m8n8k4_f16(void)
{
    uint16_t *A = ref_input("qA", "f16", 128), *B = ref_input("qB", "f16", 128), H[256];
    float *C = ref_input("qC", "f32", 256), D[256];
    for (int q = 0; q < 4; q++)
        for (int m = 0; m < 8; m++)
            for (int n = 0; n < 8; n++) {
                long double acc = 0;
                for (int k = 0; k < 4; k++)
                    acc += (long double)ref_f16_to_double(A[q * 32 + m * 4 + k]) *
                           ref_f16_to_double(B[q * 32 + k * 8 + n]);
                D[q * 64 + m * 8 + n] = (float)(acc + C[q * 64 + m * 8 + n]);
                H[q * 64 + m * 8 + n] = ref_f16_from_double((double)acc);
            }
    ref_write_expected("qD", D, sizeof D);
    ref_write_expected("qH", H, sizeof H);
    free(A);
    free(B);
    free(C);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: mma_sync LAUNCH.json");
    ref_open(argv[1]);
    wmma_gemm();
    mma_f16();
    mma_tf32();
    mma_f64();
    mma_s8();
    mma_f64_k16();
    mma_m8n8k4_f16();
    return 0;
}

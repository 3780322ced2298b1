/* Reference for half_bf16. Generates f.in.bin, floats chosen to exercise the conversions: values
 * in the f16 subnormal range, values around the f16 maximum (some round to infinity), exact ties
 * for f16 and for bf16 rounding, and ordinary values. Half and bfloat16 results are the exact sum,
 * product or fused result (exact in double for these inputs, which is checked) rounded once to
 * nearest even. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

/* Sum of two doubles, requiring it to be exact (Knuth's two-sum error term is zero). */
static double exact_sum(double p, double q)
{
    double s = p + q;
    double q_part = s - p, p_part = s - q_part;
    ref_require((p - p_part) + (q - q_part) == 0.0, "double sum is exact");
    return s;
}

static float special_value(size_t i, uint64_t *state)
{
    double u = (double)(ref_random_next(state) >> 11) * 0x1.0p-53;
    double sign = (i & 16) ? -1.0 : 1.0;
    switch (i % 8) {
    case 0: return (float)(sign * u * 0x1.0p-14); /* f16 subnormals */
    case 1: return (float)(sign * (65504.0 + floor(u * 40.0) - 8.0)); /* near the f16 maximum */
    case 2: return (float)(sign * (1.0 + (2.0 * floor(u * 512.0) + 1.0) * 0x1.0p-11)); /* f16 tie */
    case 3: return (float)(sign * (1.0 + (2.0 * floor(u * 64.0) + 1.0) * 0x1.0p-8)); /* bf16 tie */
    default: return (float)(sign * u * 1000.0);
    }
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: half_bf16 LAUNCH.json");
    size_t n2 = 512, n = 2 * n2;
    float f_values[512];
    uint64_t state = 2201;
    for (size_t i = 0; i < n2; ++i)
        f_values[i] = special_value(i, &state);
    ref_write_file("f.in.bin", f_values, sizeof f_values);

    ref_open(argv[1]);
    ref_require((size_t)ref_arg_int(0, 15) == n2, "pair count argument");
    uint16_t *a = ref_input("a", "f16", n), *b = ref_input("b", "f16", n);
    uint16_t *c = ref_input("c", "f16", n);
    uint16_t *ba = ref_input("ba", "bf16", n), *bb = ref_input("bb", "bf16", n);
    float *f = ref_input("f", "f32", n2);
    uint16_t *h_sum = ref_input("h_sum", "f16", n), *h_prod = ref_input("h_prod", "f16", n);
    uint16_t *h_fma = ref_input("h_fma", "f16", n), *h_scalar = ref_input("h_scalar", "f16", n2);
    uint16_t *b_sum = ref_input("b_sum", "bf16", n), *b_fma = ref_input("b_fma", "bf16", n);
    uint16_t *f_to_h = ref_input("f_to_h", "f16", n2), *f_to_b = ref_input("f_to_b", "bf16", n2);
    float *widened = ref_input("widened", "f32", n2);
#define H(x) ref_f16_to_double(x)
#define BF(x) ref_bf16_to_double(x)
    for (size_t j = 0; j < n; ++j) {
        h_sum[j] = ref_f16_from_double(exact_sum(H(a[j]), H(b[j])));
        h_prod[j] = ref_f16_from_double(H(a[j]) * H(b[j]));
        h_fma[j] = ref_f16_from_double(exact_sum(H(a[j]) * H(b[j]), H(c[j])));
        b_sum[j] = ref_bf16_from_double(exact_sum(BF(ba[j]), BF(bb[j])));
        b_fma[j] = ref_bf16_from_double(exact_sum(BF(ba[j]) * BF(bb[j]), BF(ba[j])));
    }
    for (size_t i = 0; i < n2; ++i) {
        h_scalar[i] = ref_f16_from_double(exact_sum(H(a[2 * i]) * H(b[2 * i + 1]), H(c[2 * i + 1])));
        f_to_h[i] = ref_f16_from_f32(f[i]);
        f_to_b[i] = ref_bf16_from_f32(f[i]);
        widened[i] = (float)H(a[2 * i + 1]) + (float)BF(bb[2 * i]);
    }
    ref_write_expected("h_sum", h_sum, n * 2);
    ref_write_expected("h_prod", h_prod, n * 2);
    ref_write_expected("h_fma", h_fma, n * 2);
    ref_write_expected("h_scalar", h_scalar, n2 * 2);
    ref_write_expected("b_sum", b_sum, n * 2);
    ref_write_expected("b_fma", b_fma, n * 2);
    ref_write_expected("f_to_h", f_to_h, n2 * 2);
    ref_write_expected("f_to_b", f_to_b, n2 * 2);
    ref_write_expected("widened", widened, n2 * sizeof(float));
    free(a), free(b), free(c), free(ba), free(bb), free(f), free(h_sum), free(h_prod);
    free(h_fma), free(h_scalar), free(b_sum), free(b_fma), free(f_to_h), free(f_to_b);
    free(widened);
    return 0;
}

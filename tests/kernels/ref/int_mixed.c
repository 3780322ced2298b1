/* Reference for int_mixed: C integer division and remainder truncate toward zero like PTX
 * div/rem; the float-to-integer conversions saturate (NaN gives 0) and round as their suffix
 * says; narrowing stores keep the low bits. */
#include "ref_common.h"

#include <math.h>
#include <stdlib.h>

static int64_t saturate(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    return v < lo ? (int64_t)lo : v > hi ? (int64_t)hi : (int64_t)v;
}

static void one_element(size_t i, const int32_t *a, const int32_t *b, const int8_t *s8,
                        const uint8_t *u8, const int16_t *s16, const uint64_t *u64,
                        const float *f, int32_t *o, uint8_t *r8, int16_t *r16, uint64_t *r64,
                        float *rf)
{
    int32_t ai = a[i], bi = b[i] == 0 ? 7 : b[i];
    float fi = f[i];
    o[0] = ai / bi;
    o[1] = ai % bi;
    o[2] = (int32_t)((uint32_t)ai / (uint32_t)((bi & 0xff) | 1));
    o[3] = (int32_t)s8[i] * 3 + (int32_t)u8[i] - (int32_t)s16[i] % 1000;
    o[4] = (int32_t)saturate(rint(fi), INT32_MIN, INT32_MAX);
    o[5] = (int32_t)(uint32_t)saturate(rint(fi), 0, UINT32_MAX);
    o[6] = (int32_t)(saturate(rint(fi), -0x1p63, 0x1p63 - 1024) >> 8);
    float scaled = fi * 2e-10f;
    float saturated = isnan(scaled) ? 0.0f : scaled < 0.0f ? 0.0f : scaled > 1.0f ? 1.0f : scaled;
    o[7] = (int32_t)truncf(saturated * 1000.0f);

    int32_t sum = (int32_t)u8[i] + (int32_t)s8[i] * 2;
    r8[i] = (uint8_t)(sum < 0 ? 0 : sum > 255 ? 255 : sum);
    r16[i] = (int16_t)(uint16_t)(uint32_t)(s16[i] * 3 - ai);
    int64_t wide = (int64_t)ai * bi;
    r64[i] = u64[i] / (u8[i] + 1ull) + u64[i] % 1000003ull + (uint64_t)(wide / -7 % 13);
    rf[i] = (float)u64[i] + (float)ai;
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: int_mixed LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 12);
    int32_t *a = ref_input("a", "i32", n), *b = ref_input("b", "i32", n);
    int8_t *s8 = ref_input("s8", "i8", n);
    uint8_t *u8 = ref_input("u8", "u8", n);
    int16_t *s16 = ref_input("s16", "i16", n);
    uint64_t *u64 = ref_input("u64", "i64", n);
    float *f = ref_input("f", "f32", n);
    int32_t *r32 = ref_input("r32", "i32", 8 * n);
    uint8_t *r8 = ref_input("r8", "u8", n);
    int16_t *r16 = ref_input("r16", "i16", n);
    uint64_t *r64 = ref_input("r64", "u64", n);
    float *rf = ref_input("rf", "f32", n);
    int saturated_high = 0, saturated_low = 0, zero_divisors = 0;
    for (size_t i = 0; i < n; ++i) {
        one_element(i, a, b, s8, u8, s16, u64, f, r32 + 8 * i, r8, r16, r64, rf);
        saturated_high += f[i] > 2147483647.0f;
        saturated_low += f[i] < -2147483648.0f;
        zero_divisors += b[i] == 0;
    }
    ref_require(saturated_high && saturated_low && zero_divisors, "input covers saturation");
    ref_write_expected("r32", r32, 8 * n * sizeof *r32);
    ref_write_expected("r8", r8, n);
    ref_write_expected("r16", r16, n * sizeof *r16);
    ref_write_expected("r64", r64, n * sizeof *r64);
    ref_write_expected("rf", rf, n * sizeof *rf);
    free(a), free(b), free(s8), free(u8), free(s16), free(u64), free(f);
    free(r32), free(r8), free(r16), free(r64), free(rf);
    return 0;
}

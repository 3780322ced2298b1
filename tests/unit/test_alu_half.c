/* Unit tests for f16 / f16x2 / bf16 / bf16x2 arithmetic (src/exec/alu_half.c) and the public
 * half conversion helpers: rounding ties and directed modes, overflow to infinity, subnormals with
 * and without .ftz, .sat, .relu, canonical NaNs, and single rounding of fused and wide sums. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "exec/alu.h"

#include "alu_cases.h"

#define CHECK(op, type, mods, rnd, ...)                                                       \
    do {                                                                                      \
        const lane_case cases_[] = {__VA_ARGS__};                                             \
        ir_insn in_ = make(op, type, mods, rnd);                                              \
        check_cases(&in_, cases_, sizeof cases_ / sizeof cases_[0]);                          \
    } while (0)

#define H_ONE 0x3C00u
#define H_NEG_ONE 0xBC00u
#define H_HALF_ULP 0x1000u /* 2^-11 */
#define H_MAX 0x7BFFu
#define H_INF 0x7C00u
#define H_NAN 0x7FFFu
#define B_ONE 0x3F80u
#define B_NAN 0x7FFFu

static void test_f16_rounding(void **state)
{
    (void)state;
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RN, {H_ONE, H_HALF_ULP, 0, H_ONE}, {0x3C01, H_HALF_ULP, 0, 0x3C02},
          {H_NEG_ONE, 0x9000, 0, H_NEG_ONE}, {H_ONE, 0x1001, 0, 0x3C01});
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_NONE, {H_ONE, H_HALF_ULP, 0, H_ONE});
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RP, {H_ONE, H_HALF_ULP, 0, 0x3C01}, {H_NEG_ONE, 0x9000, 0, H_NEG_ONE});
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RM, {H_ONE, H_HALF_ULP, 0, H_ONE}, {H_NEG_ONE, 0x9000, 0, 0xBC01});
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RZ, {H_ONE, 0x1001, 0, H_ONE});
    /* 65504 + 16 is the tie between the largest finite value and 65536: to even (infinity) */
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RN, {H_MAX, 0x4C00, 0, H_INF}, {H_MAX, 0x4800, 0, H_MAX},
          {H_MAX, H_MAX, 0, H_INF}, {H_MAX | 0x8000, H_MAX | 0x8000, 0, 0xFC00});
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RZ, {H_MAX, H_MAX, 0, H_MAX});
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RM, {H_MAX, H_MAX, 0, H_MAX}, {H_MAX | 0x8000, H_MAX | 0x8000, 0, 0xFC00});
    CHECK(IR_SUB, IR_T_F16, 0, IR_RND_RN, {H_ONE, H_ONE, 0, 0}, {0x4200, H_ONE, 0, 0x4000});
    CHECK(IR_SUB, IR_T_F16, 0, IR_RND_RM, {H_ONE, H_ONE, 0, 0x8000});
    CHECK(IR_MUL, IR_T_F16, 0, IR_RND_RN, {0x3C01, 0x3C01, 0, 0x3C02}, {0x4000, 0x4200, 0, 0x4600});
}

static void test_f16_specials(void **state)
{
    (void)state;
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RN, {0x7E01, H_ONE, 0, H_NAN}, {H_ONE, 0x7C01, 0, H_NAN},
          {H_INF, 0xFC00, 0, H_NAN}, {0xFE00, H_ONE, 0, H_NAN}, {H_INF, H_ONE, 0, H_INF});
    /* subnormals: 2^-24 + 2^-24, and 2^-12 * 2^-12 = 2^-24 */
    CHECK(IR_ADD, IR_T_F16, 0, IR_RND_RN, {1, 1, 0, 2}, {0x8001, 0x8000, 0, 0x8001});
    CHECK(IR_MUL, IR_T_F16, 0, IR_RND_RN, {0x0C00, 0x0C00, 0, 1}, {0x0C00, 0x0800, 0, 0});
    CHECK(IR_MUL, IR_T_F16, 0, IR_RND_RP, {0x0C00, 0x0800, 0, 1});
    CHECK(IR_ADD, IR_T_F16, IR_MOD_FTZ, IR_RND_RN, {1, 1, 0, 0}, {0x8001, 0x8000, 0, 0x8000},
          {0x0200, H_ONE, 0, H_ONE});
    CHECK(IR_MUL, IR_T_F16, IR_MOD_FTZ, IR_RND_RN, {0x0C00, 0x0C00, 0, 0}, {0x8C00, 0x0C00, 0, 0x8000});
    CHECK(IR_ADD, IR_T_F16, IR_MOD_SAT, IR_RND_RN, {H_ONE, H_ONE, 0, H_ONE}, {H_NEG_ONE, 0, 0, 0},
          {0x7E00, H_ONE, 0, 0}, {0x3800, 0, 0, 0x3800}, {0x8000, 0x8000, 0, 0});
}

static void test_f16_fma(void **state)
{
    (void)state;
    /* (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20, a subnormal f16 */
    CHECK(IR_FMA, IR_T_F16, 0, IR_RND_RN, {0x3C01, 0x3C01, 0xBC02, 0x0010}, {H_ONE, H_ONE, H_ONE, 0x4000},
          {H_INF, 0, H_ONE, H_NAN}, {1, 1, H_ONE, H_ONE});
    /* 1 + 2^-48: only sticky bits below the ulp; directed modes must see them */
    CHECK(IR_FMA, IR_T_F16, 0, IR_RND_RP, {1, 1, H_ONE, 0x3C01});
    CHECK(IR_FMA, IR_T_F16, 0, IR_RND_RZ, {1, 1, H_ONE, H_ONE});
    CHECK(IR_FMA, IR_T_F16, IR_MOD_RELU, IR_RND_RN, {H_NEG_ONE, H_ONE, 0, 0}, {H_ONE, H_ONE, H_ONE, 0x4000},
          {0x7E00, H_ONE, 0, H_NAN}, {0x8000, H_ONE, 0x8000, 0});
    CHECK(IR_FMA, IR_T_F16, IR_MOD_SAT, IR_RND_RN, {0x4000, 0x4000, 0, H_ONE}, {H_NEG_ONE, H_ONE, 0, 0});
    CHECK(IR_FMA, IR_T_F16, IR_MOD_FTZ, IR_RND_RN, {0x3C01, 0x3C01, 0xBC02, 0});
}

static void test_bf16(void **state)
{
    (void)state;
    /* ties to even: 1 + 2^-8 and (1 + 2^-7) + 2^-8 */
    CHECK(IR_ADD, IR_T_BF16, 0, IR_RND_RN, {B_ONE, 0x3B80, 0, B_ONE}, {0x3F81, 0x3B80, 0, 0x3F82},
          {B_ONE, 0x3B81, 0, 0x3F81}, {0x7F80, 0xFF80, 0, B_NAN}, {0x7F7F, 0x7F7F, 0, 0x7F80});
    /* 1 + 2^-133 needs 134 bits: .rp must still round up, .rn must not */
    CHECK(IR_ADD, IR_T_BF16, 0, IR_RND_RP, {B_ONE, 1, 0, 0x3F81});
    CHECK(IR_ADD, IR_T_BF16, 0, IR_RND_RN, {B_ONE, 1, 0, B_ONE});
    CHECK(IR_SUB, IR_T_BF16, 0, IR_RND_RZ, {B_ONE, 1, 0, 0x3F7F});
    CHECK(IR_MUL, IR_T_BF16, 0, IR_RND_RN, {0x3F81, 0x3F81, 0, 0x3F82}, {1, 0x3F00, 0, 0});
    CHECK(IR_FMA, IR_T_BF16, 0, IR_RND_RN, {0x3F81, 0x3F81, 0xBF80, 0x3C80}, {0x3F81, 0x3F81, 0xBF82, 0x3880}, {1, 1, B_ONE, B_ONE});
    CHECK(IR_FMA, IR_T_BF16, IR_MOD_RELU, IR_RND_RN, {0xBF80, B_ONE, 0, 0}, {0x7FC0, B_ONE, 0, B_NAN});
}

static void test_pairs_and_signs(void **state)
{
    (void)state;
    CHECK(IR_ADD, IR_T_F16X2, 0, IR_RND_RN, {0x3C003C00, 0x3C004000, 0, 0x40004200},
          {0x7C00FC00, 0x3C007C00, 0, 0x7C007FFF});
    CHECK(IR_MUL, IR_T_BF16X2, 0, IR_RND_RN, {0x3F813F80, 0x3F814000, 0, 0x3F824000});
    CHECK(IR_FMA, IR_T_F16X2, IR_MOD_RELU, IR_RND_RN, {0xBC003C00, 0x3C003C00, 0, 0x00003C00});
    CHECK(IR_NEG, IR_T_F16, 0, IR_RND_NONE, {0x7E00, 0, 0, 0xFE00}, {0, 0, 0, 0x8000});
    CHECK(IR_ABS, IR_T_F16X2, 0, IR_RND_NONE, {0x8001BC00, 0, 0, 0x00013C00});
    CHECK(IR_NEG, IR_T_F16, IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0, 0x8000});
    CHECK(IR_NEG, IR_T_BF16X2, 0, IR_RND_NONE, {0x3F80BF80, 0, 0, 0xBF803F80});
}

static void test_half_approx(void **state)
{
    (void)state;
    CHECK(IR_EX2, IR_T_F16, IR_MOD_APPROX, IR_RND_NONE, {0x4200, 0, 0, 0x4800}, {0xFC00, 0, 0, 0},
          {0x4C80, 0, 0, H_INF}, {0x7E00, 0, 0, H_NAN});
    CHECK(IR_EX2, IR_T_F16X2, IR_MOD_APPROX, IR_RND_NONE, {0x42000000, 0, 0, 0x48003C00});
    CHECK(IR_EX2, IR_T_BF16, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {0x4040, 0, 0, 0x4100}, {1, 0, 0, B_ONE});
    CHECK(IR_TANH, IR_T_F16, IR_MOD_APPROX, IR_RND_NONE, {H_INF, 0, 0, H_ONE}, {0xFC00, 0, 0, H_NEG_ONE},
          {0x8000, 0, 0, 0x8000});
    CHECK(IR_TANH, IR_T_BF16X2, IR_MOD_APPROX, IR_RND_NONE, {0x7F800000, 0, 0, 0x3F800000});
    /* tanh(0.5) = 0.46211715726: nearest f16 is 0x3765 (0.462158203125) */
    CHECK(IR_TANH, IR_T_F16, IR_MOD_APPROX, IR_RND_NONE, {0x3800, 0, 0, 0x3765});
}

static void test_conversion_helpers(void **state)
{
    (void)state;
    assert_true(alu_f16_to_f32(0x3C00) == 1.0f);
    assert_true(alu_f16_to_f32(0x0001) == 0x1p-24f);
    assert_true(alu_f16_to_f32(0xFBFF) == -65504.0f);
    assert_true(isinf(alu_f16_to_f32(H_INF)));
    assert_true(isnan(alu_f16_to_f32(0x7E00)));
    assert_int_equal(alu_f32_to_f16_rn(65520.0f), H_INF);
    assert_int_equal(alu_f32_to_f16_rn(65519.0f), H_MAX);
    assert_int_equal(alu_f32_to_f16_rn(1.0f + 0x1p-11f), H_ONE);
    assert_int_equal(alu_f32_to_f16_rn(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
    assert_int_equal(alu_f32_to_f16_rn(0x1p-25f), 0);
    assert_int_equal(alu_f32_to_f16_rn(0x1.8p-25f), 1);
    assert_int_equal(alu_f32_to_f16_rn(-0x1p-30f), 0x8000);
    assert_int_equal(alu_f32_to_f16_rn(NAN), H_NAN);
    assert_int_equal(alu_f32_to_f16_rn(-INFINITY), 0xFC00);
    assert_true(alu_bf16_to_f32(B_ONE) == 1.0f);
    assert_true(isnan(alu_bf16_to_f32(0xFFC1)));
    assert_int_equal(alu_f32_to_bf16_rn(1.0f + 0x1p-8f), B_ONE);
    assert_int_equal(alu_f32_to_bf16_rn(1.0f + 0x1p-7f + 0x1p-8f), 0x3F82);
    assert_int_equal(alu_f32_to_bf16_rn(1.0f + 0x1p-8f + 0x1p-20f), 0x3F81);
    assert_int_equal(alu_f32_to_bf16_rn(0x1.fffffep127f), 0x7F80);
    assert_int_equal(alu_f32_to_bf16_rn(NAN), B_NAN);
    assert_int_equal(alu_f32_to_bf16_rn(0x1p-133f), 1);
    /* every f16 value survives f16 -> f32 -> f16 */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7FFF) > 0x7C00)
            continue;
        assert_int_equal(alu_f32_to_f16_rn(alu_f16_to_f32((uint16_t)h)), h);
    }
}

static void test_lookup_rejects(void **state)
{
    (void)state;
    ir_insn in = make(IR_ADD, IR_T_BF16, IR_MOD_FTZ, IR_RND_RN);
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_F16, IR_MOD_RELU, IR_RND_RN); /* .relu belongs to fma */
    assert_null(alu_lookup(&in));
    in = make(IR_FMA, IR_T_F16, IR_MOD_RELU | IR_MOD_SAT, IR_RND_RN);
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_F16, 0, IR_RND_RNI);
    assert_null(alu_lookup(&in));
    in = make(IR_SIN, IR_T_F16, IR_MOD_APPROX, IR_RND_NONE);
    assert_null(alu_lookup(&in));
    in = make(IR_EX2, IR_T_F16, 0, IR_RND_NONE);
    assert_null(alu_lookup(&in));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_rounding),    cmocka_unit_test(test_f16_specials),
        cmocka_unit_test(test_f16_fma),         cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_pairs_and_signs), cmocka_unit_test(test_half_approx),
        cmocka_unit_test(test_conversion_helpers), cmocka_unit_test(test_lookup_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

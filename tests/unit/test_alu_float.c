/* Unit tests for f32/f64 arithmetic and special functions (src/exec/alu_float.c,
 * src/exec/alu_approx.c): exact bits for every rounding mode where they differ, NaN operands in
 * both positions (quiet and signalling), infinities, subnormals with and without .ftz, .sat, and
 * the .approx functions against libm within PTX's bounds on a sweep of inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fenv.h>
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

/* f32 bit patterns used below */
#define ONE 0x3F800000u
#define NEG_ONE 0xBF800000u
#define TWO_M24 0x33800000u   /* 2^-24: half an ulp of 1.0 */
#define THREE_M25 0x33C00000u /* 1.5 * 2^-24 */
#define QNAN 0x7FC00001u
#define SNAN 0x7F800001u
#define NEG_QNAN 0xFFC00000u
#define CNAN 0x7FFFFFFFu
#define INF 0x7F800000u
#define NEG_INF 0xFF800000u
#define NEG_ZERO 0x80000000u
#define D_ONE UINT64_C(0x3FF0000000000000)
#define D_CNAN UINT64_C(0x7FFFFFFFFFFFFFFF)

static void test_f32_add_rounding(void **state)
{
    (void)state;
    /* 1 + 2^-24 is a tie; 1 + 1.5 * 2^-24 is above it; negatives mirror them */
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RN, {ONE, TWO_M24, 0, ONE}, {ONE, THREE_M25, 0, 0x3F800001},
          {NEG_ONE, TWO_M24 | NEG_ZERO, 0, NEG_ONE}, {0x3F800001, TWO_M24, 0, 0x3F800002});
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_NONE, {ONE, TWO_M24, 0, ONE});
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RZ, {ONE, TWO_M24, 0, ONE}, {ONE, THREE_M25, 0, ONE},
          {NEG_ONE, TWO_M24 | NEG_ZERO, 0, NEG_ONE});
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RM, {ONE, TWO_M24, 0, ONE},
          {NEG_ONE, TWO_M24 | NEG_ZERO, 0, 0xBF800001}, {ONE, NEG_ONE, 0, NEG_ZERO});
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RP, {ONE, TWO_M24, 0, 0x3F800001},
          {NEG_ONE, TWO_M24 | NEG_ZERO, 0, NEG_ONE}, {ONE, NEG_ONE, 0, 0});
    CHECK(IR_SUB, IR_T_F32, 0, IR_RND_RM, {ONE, TWO_M24, 0, 0x3F7FFFFF});
    CHECK(IR_SUB, IR_T_F32, 0, IR_RND_RN, {ONE, TWO_M24, 0, 0x3F800000 - 1}, {ONE, ONE, 0, 0});
    /* the host rounding mode is restored after a directed operation */
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RN, {ONE, TWO_M24, 0, ONE});
    /* 0x7F7FFFFF (max) + max overflows: rn -> inf, rz -> max */
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RN, {0x7F7FFFFF, 0x7F7FFFFF, 0, INF});
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RZ, {0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F7FFFFF});
}

static void test_f32_nan_inf(void **state)
{
    (void)state;
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RN, {QNAN, ONE, 0, CNAN}, {ONE, QNAN, 0, CNAN},
          {SNAN, ONE, 0, CNAN}, {ONE, SNAN, 0, CNAN}, {NEG_QNAN, ONE, 0, CNAN},
          {INF, NEG_INF, 0, CNAN}, {INF, ONE, 0, INF}, {NEG_INF, NEG_INF, 0, NEG_INF});
    CHECK(IR_MUL, IR_T_F32, 0, IR_RND_RN, {INF, 0, 0, CNAN}, {0, NEG_INF, 0, CNAN},
          {SNAN, 0, 0, CNAN}, {NEG_ZERO, ONE, 0, NEG_ZERO}, {0x40000000, 0x40400000, 0, 0x40C00000});
    CHECK(IR_MUL, IR_T_F32, 0, IR_RND_RZ, {QNAN, ONE, 0, CNAN});
    CHECK(IR_DIV, IR_T_F32, 0, IR_RND_RN, {ONE, 0, 0, INF}, {0, 0, 0, CNAN}, {NEG_ONE, 0, 0, NEG_INF},
          {INF, INF, 0, CNAN}, {ONE, QNAN, 0, CNAN});
}

static void test_f32_ftz_sat(void **state)
{
    (void)state;
    /* 2^-100 * 2^-30 = 2^-130 is subnormal */
    CHECK(IR_MUL, IR_T_F32, 0, IR_RND_RN, {0x0D800000, 0x30800000, 0, 0x00080000},
          {0x8D800000, 0x30800000, 0, 0x80080000});
    CHECK(IR_MUL, IR_T_F32, IR_MOD_FTZ, IR_RND_RN, {0x0D800000, 0x30800000, 0, 0},
          {0x8D800000, 0x30800000, 0, NEG_ZERO});
    CHECK(IR_ADD, IR_T_F32, 0, IR_RND_RN, {1, 0, 0, 1}, {0x80000001, NEG_ZERO, 0, 0x80000001});
    CHECK(IR_ADD, IR_T_F32, IR_MOD_FTZ, IR_RND_RN, {1, 0, 0, 0}, {0x80000001, NEG_ZERO, 0, NEG_ZERO},
          {0x00400000, ONE, 0, ONE});
    CHECK(IR_ADD, IR_T_F32, IR_MOD_FTZ, IR_RND_RP, {1, 0, 0, 0});
    CHECK(IR_ADD, IR_T_F32, IR_MOD_SAT, IR_RND_RN, {0x3F000000, 0x3F400000, 0, ONE},
          {0xC0000000, ONE, 0, 0}, {QNAN, ONE, 0, 0}, {0x3E800000, 0x3E800000, 0, 0x3F000000},
          {NEG_ZERO, NEG_ZERO, 0, 0}, {INF, ONE, 0, ONE});
    CHECK(IR_FMA, IR_T_F32, IR_MOD_SAT | IR_MOD_FTZ, IR_RND_RZ, {ONE, ONE, ONE, ONE}, {1, ONE, 0, 0});
}

static void test_f32_fma_div(void **state)
{
    (void)state;
    /* (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly: only a fused operation gets it */
    CHECK(IR_FMA, IR_T_F32, 0, IR_RND_RN, {0x3F800001, 0x3F800001, 0xBF800002, 0x28800000},
          {INF, 0, ONE, CNAN}, {ONE, ONE, QNAN, CNAN});
    CHECK(IR_MAD, IR_T_F32, 0, IR_RND_RN, {0x3F800001, 0x3F800001, 0xBF800002, 0x28800000});
    /* 1 * 1 + 2^-24: rounding modes of the fused sum */
    CHECK(IR_FMA, IR_T_F32, 0, IR_RND_RP, {ONE, ONE, TWO_M24, 0x3F800001});
    CHECK(IR_FMA, IR_T_F32, 0, IR_RND_RM, {NEG_ONE, ONE, TWO_M24 | NEG_ZERO, 0xBF800001});
    CHECK(IR_DIV, IR_T_F32, 0, IR_RND_RN, {ONE, 0x40400000, 0, 0x3EAAAAAB}, {NEG_ONE, 0x40400000, 0, 0xBEAAAAAB});
    CHECK(IR_DIV, IR_T_F32, 0, IR_RND_RZ, {ONE, 0x40400000, 0, 0x3EAAAAAA}, {NEG_ONE, 0x40400000, 0, 0xBEAAAAAA});
    CHECK(IR_DIV, IR_T_F32, 0, IR_RND_RM, {ONE, 0x40400000, 0, 0x3EAAAAAA}, {NEG_ONE, 0x40400000, 0, 0xBEAAAAAB});
    CHECK(IR_DIV, IR_T_F32, 0, IR_RND_RP, {ONE, 0x40400000, 0, 0x3EAAAAAB}, {NEG_ONE, 0x40400000, 0, 0xBEAAAAAA});
    CHECK(IR_DIV, IR_T_F32, IR_MOD_FULL, IR_RND_NONE, {ONE, 0x40400000, 0, 0x3EAAAAAB});
    CHECK(IR_DIV, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {ONE, 0x40000000, 0, 0x3F000000},
          {ONE, 0x7F000000, 0, 0}, {INF, 0x7F000000, 0, CNAN}, {NEG_ONE, 0x7F000000, 0, NEG_ZERO},
          {ONE, 0x7E800000, 0, 0x00800000}, {ONE, 0x7EC00000, 0, 0},
          {0x00400000, ONE, 0, 0x00400000});
    CHECK(IR_DIV, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {ONE, 0x7EC00000, 0, 0}, {ONE, 0x7E800000, 0, 0x00800000},
          {0x00400000, ONE, 0, 0});
}

static void test_f64(void **state)
{
    (void)state;
    const uint64_t tie = UINT64_C(0x3CA0000000000000); /* 2^-53 */
    CHECK(IR_ADD, IR_T_F64, 0, IR_RND_RN, {D_ONE, tie, 0, D_ONE}, {UINT64_C(0x7FF0000000000001), D_ONE, 0, D_CNAN},
          {D_ONE, UINT64_C(0xFFF8000000000000), 0, D_CNAN});
    CHECK(IR_ADD, IR_T_F64, 0, IR_RND_RP, {D_ONE, tie, 0, D_ONE + 1});
    CHECK(IR_ADD, IR_T_F64, 0, IR_RND_RZ, {D_ONE, tie, 0, D_ONE});
    CHECK(IR_SUB, IR_T_F64, 0, IR_RND_RM, {D_ONE, tie, 0, UINT64_C(0x3FEFFFFFFFFFFFFF)});
    CHECK(IR_MUL, IR_T_F64, 0, IR_RND_RN, {UINT64_C(0x7FF0000000000000), 0, 0, D_CNAN});
    /* (1 + 2^-52)^2 - (1 + 2^-51) = 2^-104 */
    CHECK(IR_FMA, IR_T_F64, 0, IR_RND_RN, {D_ONE + 1, D_ONE + 1, UINT64_C(0xBFF0000000000002),
                                           UINT64_C(0x3970000000000000)});
    const uint64_t three = UINT64_C(0x4008000000000000);
    CHECK(IR_DIV, IR_T_F64, 0, IR_RND_RN, {D_ONE, three, 0, UINT64_C(0x3FD5555555555555)});
    CHECK(IR_DIV, IR_T_F64, 0, IR_RND_RP, {D_ONE, three, 0, UINT64_C(0x3FD5555555555556)});
    CHECK(IR_DIV, IR_T_F64, 0, IR_RND_RZ, {D_ONE, three, 0, UINT64_C(0x3FD5555555555555)});
    /* subnormals are kept for f64 */
    CHECK(IR_MUL, IR_T_F64, 0, IR_RND_RN, {1, D_ONE, 0, 1});
}

static void test_sign_ops(void **state)
{
    (void)state;
    CHECK(IR_NEG, IR_T_F32, 0, IR_RND_NONE, {QNAN, 0, 0, 0xFFC00001}, {0, 0, 0, NEG_ZERO});
    CHECK(IR_ABS, IR_T_F32, 0, IR_RND_NONE, {0xFFC00001, 0, 0, QNAN}, {NEG_INF, 0, 0, INF});
    CHECK(IR_NEG, IR_T_F32, IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0, NEG_ZERO});
    CHECK(IR_ABS, IR_T_F32, IR_MOD_FTZ, IR_RND_NONE, {0x80000001, 0, 0, 0});
    CHECK(IR_NEG, IR_T_F64, 0, IR_RND_NONE, {0, 0, 0, UINT64_C(0x8000000000000000)});
    CHECK(IR_ABS, IR_T_F64, 0, IR_RND_NONE, {UINT64_C(0xFFF8000000000001), 0, 0, UINT64_C(0x7FF8000000000001)});
    CHECK(IR_COPYSIGN, IR_T_F32, 0, IR_RND_NONE, {NEG_ZERO, ONE, 0, NEG_ONE}, {ONE, NEG_QNAN, 0, 0x7FC00000});
    CHECK(IR_COPYSIGN, IR_T_F64, 0, IR_RND_NONE, {UINT64_C(0x8000000000000000), D_ONE, 0, D_ONE | UINT64_C(0x8000000000000000)});
}

static void test_rcp_sqrt(void **state)
{
    (void)state;
    const uint64_t three = 0x40400000;
    CHECK(IR_RCP, IR_T_F32, 0, IR_RND_RN, {three, 0, 0, 0x3EAAAAAB}, {0, 0, 0, INF}, {NEG_ZERO, 0, 0, NEG_INF},
          {NEG_INF, 0, 0, NEG_ZERO}, {SNAN, 0, 0, CNAN});
    CHECK(IR_RCP, IR_T_F32, 0, IR_RND_RZ, {three, 0, 0, 0x3EAAAAAA});
    CHECK(IR_RCP, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0, INF}, {0x80000001, 0, 0, NEG_INF});
    CHECK(IR_SQRT, IR_T_F32, 0, IR_RND_RN, {0x40000000, 0, 0, 0x3FB504F3}, {NEG_ONE, 0, 0, CNAN},
          {NEG_ZERO, 0, 0, NEG_ZERO}, {INF, 0, 0, INF});
    CHECK(IR_SQRT, IR_T_F32, 0, IR_RND_RP, {0x40000000, 0, 0, 0x3FB504F4});
    CHECK(IR_SQRT, IR_T_F32, 0, IR_RND_RM, {0x40000000, 0, 0, 0x3FB504F3});
    CHECK(IR_SQRT, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {0x80000001, 0, 0, NEG_ZERO});
    CHECK(IR_RSQRT, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {NEG_ZERO, 0, 0, NEG_INF}, {0, 0, 0, INF},
          {INF, 0, 0, 0}, {0x40800000, 0, 0, 0x3F000000}, {NEG_ONE, 0, 0, CNAN});
    CHECK(IR_RCP, IR_T_F64, 0, IR_RND_RN, {UINT64_C(0x4008000000000000), 0, 0, UINT64_C(0x3FD5555555555555)});
    CHECK(IR_RCP, IR_T_F64, 0, IR_RND_RP, {UINT64_C(0x4008000000000000), 0, 0, UINT64_C(0x3FD5555555555556)});
    CHECK(IR_SQRT, IR_T_F64, 0, IR_RND_RN, {UINT64_C(0x4010000000000000), 0, 0, UINT64_C(0x4000000000000000)});
    /* rcp.approx.ftz.f64: reciprocal of the upper 32 bits, low 32 result bits zero */
    CHECK(IR_RCP, IR_T_F64, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE,
          {UINT64_C(0x4000000000000000), 0, 0, UINT64_C(0x3FE0000000000000)},
          {UINT64_C(0x4008000000000000), 0, 0, UINT64_C(0x3FD5555500000000)},
          {UINT64_C(0x3FF0000012345678), 0, 0, D_ONE}, {0, 0, 0, UINT64_C(0x7FF0000000000000)},
          {UINT64_C(0x8000000000000001), 0, 0, UINT64_C(0xFFF0000000000000)},
          {UINT64_C(0x7FF0000000000000), 0, 0, 0}, {UINT64_C(0x7FF4000000000000), 0, 0, D_CNAN});
    CHECK(IR_RSQRT, IR_T_F64, IR_MOD_APPROX, IR_RND_NONE, {UINT64_C(0x4010000000000000), 0, 0, UINT64_C(0x3FE0000000000000)});
}

static void test_approx_specials(void **state)
{
    (void)state;
    CHECK(IR_LG2, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {NEG_ONE, 0, 0, CNAN}, {0, 0, 0, NEG_INF},
          {NEG_ZERO, 0, 0, NEG_INF}, {INF, 0, 0, INF}, {0x41000000, 0, 0, 0x40400000},
          {1, 0, 0, 0xC3150000}, {NEG_INF, 0, 0, CNAN}, {QNAN, 0, 0, CNAN});
    CHECK(IR_LG2, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0, NEG_INF}, {0x80000001, 0, 0, NEG_INF});
    CHECK(IR_EX2, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {NEG_INF, 0, 0, 0}, {INF, 0, 0, INF},
          {0x40400000, 0, 0, 0x41000000}, {NEG_ZERO, 0, 0, ONE}, {0xC30C0000, 0, 0, 0x00000200});
    CHECK(IR_EX2, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {0xC30C0000, 0, 0, 0}, {0x80000001, 0, 0, ONE});
    CHECK(IR_SIN, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {INF, 0, 0, CNAN}, {NEG_ZERO, 0, 0, NEG_ZERO},
          {0, 0, 0, 0}, {NEG_INF, 0, 0, CNAN});
    CHECK(IR_SIN, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {0x80000001, 0, 0, NEG_ZERO});
    CHECK(IR_COS, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {INF, 0, 0, CNAN}, {0, 0, 0, ONE}, {NEG_ZERO, 0, 0, ONE});
    CHECK(IR_COS, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0, ONE});
    CHECK(IR_TANH, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE, {INF, 0, 0, ONE}, {NEG_INF, 0, 0, NEG_ONE},
          {NEG_ZERO, 0, 0, NEG_ZERO}, {1, 0, 0, 1});
}

static float f32_of(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Runs a unary .approx f32 instruction on 32 inputs and returns the results as floats. */
static void run_unary(ir_opcode op, const float *x, float *out)
{
    uint64_t src[ALU_LANES], dst[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        uint32_t u;
        memcpy(&u, &x[l], sizeof u);
        src[l] = u;
    }
    ir_insn in = make(op, IR_T_F32, IR_MOD_APPROX, IR_RND_NONE);
    alu_fn fn = alu_lookup(&in);
    assert_non_null(fn);
    alu_args args = {{src, NULL, NULL, NULL}, dst, NULL, NULL, NULL};
    fn(&in, &args);
    for (int l = 0; l < ALU_LANES; l++)
        out[l] = f32_of(dst[l]);
}

/* The documented bounds: sin/cos absolute 2^-20.5 on [-100pi, 100pi]; lg2 absolute 2^-22 near
 * 1 and relative 2^-22 elsewhere; ex2 2 ulp; rsqrt relative 2^-22.9; rcp 1 ulp; sqrt relative
 * 2^-23; tanh relative 2^-11. The sweep checks each against libm in double. */
static void test_approx_sweep(void **state)
{
    (void)state;
    float x[ALU_LANES], r[ALU_LANES];
    for (int block = 0; block < 64; block++) {
        for (int l = 0; l < ALU_LANES; l++) /* spread over [-314, 314] */
            x[l] = (float)((block * ALU_LANES + l) * 0.3067 - 314.0);
        run_unary(IR_SIN, x, r);
        for (int l = 0; l < ALU_LANES; l++)
            assert_true(fabs(r[l] - sin((double)x[l])) <= exp2(-20.5));
        run_unary(IR_COS, x, r);
        for (int l = 0; l < ALU_LANES; l++)
            assert_true(fabs(r[l] - cos((double)x[l])) <= exp2(-20.5));
        run_unary(IR_TANH, x, r);
        for (int l = 0; l < ALU_LANES; l++)
            assert_true(fabs(r[l] - tanh((double)x[l])) <= 0x1p-11 * fabs(tanh((double)x[l])));
        for (int l = 0; l < ALU_LANES; l++) /* ex2 over [-126, 127] */
            x[l] = (float)((block * ALU_LANES + l) * 0.1233 - 126.0);
        run_unary(IR_EX2, x, r);
        for (int l = 0; l < ALU_LANES; l++) {
            double ref = exp2((double)x[l]);
            assert_true(fabs(r[l] - ref) <= 2.0 * ref * 0x1p-23);
        }
        for (int l = 0; l < ALU_LANES; l++) /* positive arguments over many binades */
            x[l] = (float)ldexp(1.0 + (l * 0.0311), block * 3 - 100);
        run_unary(IR_LG2, x, r);
        for (int l = 0; l < ALU_LANES; l++) {
            double ref = log2((double)x[l]);
            assert_true(fabs(r[l] - ref) <= fmax(0x1p-22, 0x1p-22 * fabs(ref)));
        }
        run_unary(IR_RSQRT, x, r);
        for (int l = 0; l < ALU_LANES; l++) {
            double ref = 1.0 / sqrt((double)x[l]);
            assert_true(fabs(r[l] - ref) <= exp2(-22.9) * ref);
        }
        run_unary(IR_SQRT, x, r);
        for (int l = 0; l < ALU_LANES; l++) {
            double ref = sqrt((double)x[l]);
            assert_true(fabs(r[l] - ref) <= 0x1p-23 * ref);
        }
        run_unary(IR_RCP, x, r);
        for (int l = 0; l < ALU_LANES; l++) {
            double ref = 1.0 / (double)x[l];
            assert_true(fabs(r[l] - ref) <= ldexp(1.0, ilogb(ref) - 23));
        }
    }
}

static void test_lookup_rejects(void **state)
{
    (void)state;
    ir_insn in = make(IR_SIN, IR_T_F32, 0, IR_RND_RN); /* sin exists only as .approx */
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_F64, IR_MOD_FTZ, IR_RND_RN);
    assert_null(alu_lookup(&in));
    in = make(IR_DIV, IR_T_F64, IR_MOD_APPROX, IR_RND_NONE);
    assert_null(alu_lookup(&in));
    in = make(IR_RCP, IR_T_F64, IR_MOD_APPROX, IR_RND_NONE); /* needs .ftz */
    assert_null(alu_lookup(&in));
    in = make(IR_SQRT, IR_T_F32, 0, IR_RND_NONE); /* IEEE sqrt needs a rounding modifier */
    assert_null(alu_lookup(&in));
    in = make(IR_TANH, IR_T_F32, IR_MOD_APPROX | IR_MOD_FTZ, IR_RND_NONE);
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_F32, 0, IR_RND_RNI);
    assert_null(alu_lookup(&in));
    in = make(IR_DIV, IR_T_F32, IR_MOD_APPROX, IR_RND_RZ);
    assert_null(alu_lookup(&in));
}

/* ---- fma against libm, bit for bit ----
 * On a host with the FMA extension the executor runs fma with the fused instruction inline
 * (alu_float.c, ALU_FMA_VARIANTS); these sweeps hold it to libm's fmaf/fma (called through
 * volatile pointers, so that the compiler cannot replace them) with the operand flushing, .sat,
 * result flushing and NaN canonicalisation of docs/semantics.md, in every rounding mode. */
static float (*volatile libm_fmaf)(float, float, float) = fmaf;
static double (*volatile libm_fma)(double, double, double) = fma;

static uint64_t sweep_state = 0x9E3779B97F4A7C15ull;

static uint64_t sweep_next(void)
{
    sweep_state ^= sweep_state << 13;
    sweep_state ^= sweep_state >> 7;
    sweep_state ^= sweep_state << 17;
    return sweep_state;
}

/* An f32 pattern: mostly exponents near 127 (products that cancel against the addend or land
 * between subnormals), some anywhere (overflow, subnormals), some special. */
static uint32_t sweep_f32(void)
{
    static const uint32_t special[] = {0, NEG_ZERO, INF, NEG_INF, QNAN, SNAN, NEG_QNAN, 1,
                                       0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu, ONE};
    uint64_t r = sweep_next();
    switch (r & 7u) {
    case 0: return special[(r >> 8) % (sizeof special / sizeof special[0])];
    case 1: case 2: return (uint32_t)(r >> 32);
    case 3: return (uint32_t)(r >> 32) & 0x80FFFFFFu; /* subnormal or tiny */
    default: return ((uint32_t)(r >> 32) & 0x807FFFFFu) | (uint32_t)(110 + (r >> 8) % 34) << 23;
    }
}

static uint32_t flush32(uint32_t u)
{
    return (u & 0x7F800000u) == 0 ? u & 0x80000000u : u;
}

/* The four IEEE rounding modes: the IR's and the host's names. */
static const struct {
    ir_round rnd;
    int mode;
} round_modes[] = {{IR_RND_RN, FE_TONEAREST}, {IR_RND_RZ, FE_TOWARDZERO},
                   {IR_RND_RM, FE_DOWNWARD}, {IR_RND_RP, FE_UPWARD}};

/* The bits a lane's f32 result `r` ends as: clamped to [0, 1] with .sat (NaN to 0), flushed
 * with .ftz, NaN canonical (docs/semantics.md). */
static uint64_t f32_result_bits(float r, int ftz, int sat)
{
    if (sat) {
        r = r > 0.0f ? r : 0.0f;
        r = r < 1.0f ? r : 1.0f;
    }
    uint32_t u;
    memcpy(&u, &r, 4);
    u = ftz ? flush32(u) : u;
    return isnan(r) ? CNAN : u;
}

static uint64_t want_fma32(uint32_t a, uint32_t b, uint32_t c, int ftz, int sat, int mode)
{
    float x, y, z;
    a = ftz ? flush32(a) : a;
    b = ftz ? flush32(b) : b;
    c = ftz ? flush32(c) : c;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    memcpy(&z, &c, 4);
    fesetround(mode);
    float r = libm_fmaf(x, y, z);
    fesetround(FE_TONEAREST);
    return f32_result_bits(r, ftz, sat);
}

static void test_fma_matches_libm(void **state)
{
    (void)state;
    uint64_t src[3][ALU_LANES], dst[ALU_LANES];
    for (int round = 0; round < 256; round++) {
        for (int l = 0; l < ALU_LANES; l++)
            for (int i = 0; i < 3; i++) src[i][l] = sweep_f32();
        for (unsigned m = 0; m < 4; m++) {
            for (unsigned v = 0; v < 4; v++) {
                int ftz = v & 1, sat = v >> 1;
                ir_insn in = make(round & 1 ? IR_MAD : IR_FMA, IR_T_F32,
                                  (ftz ? IR_MOD_FTZ : 0) | (sat ? IR_MOD_SAT : 0),
                                  round_modes[m].rnd);
                alu_fn fn = alu_lookup(&in);
                assert_non_null(fn);
                alu_args args = {{src[0], src[1], src[2], NULL}, dst, NULL, NULL, NULL};
                fn(&in, &args);
                for (int l = 0; l < ALU_LANES; l++)
                    assert_int_equal(dst[l], want_fma32((uint32_t)src[0][l], (uint32_t)src[1][l],
                                                        (uint32_t)src[2][l], ftz, sat,
                                                        round_modes[m].mode));
            }
            /* f64: the same patterns widened into the high word, low word random */
            uint64_t d[3][ALU_LANES];
            for (int l = 0; l < ALU_LANES; l++)
                for (int i = 0; i < 3; i++) d[i][l] = src[i][l] << 32 | (sweep_next() >> 32);
            ir_insn in = make(IR_FMA, IR_T_F64, 0, round_modes[m].rnd);
            alu_fn fn = alu_lookup(&in);
            assert_non_null(fn);
            alu_args args = {{d[0], d[1], d[2], NULL}, dst, NULL, NULL, NULL};
            fn(&in, &args);
            for (int l = 0; l < ALU_LANES; l++) {
                double x, y, z;
                memcpy(&x, &d[0][l], 8);
                memcpy(&y, &d[1][l], 8);
                memcpy(&z, &d[2][l], 8);
                fesetround(round_modes[m].mode);
                double r = libm_fma(x, y, z);
                fesetround(FE_TONEAREST);
                uint64_t want;
                memcpy(&want, &r, 8);
                assert_int_equal(dst[l], isnan(r) ? D_CNAN : want);
            }
        }
    }
    assert_int_equal(fegetround(), FE_TONEAREST);
}

/* ---- f32 add, sub and mul against one C operation per lane ----
 * On hosts with AVX2 the executor runs their AVX2 builds (alu_float.c, ALU_AVX2_VARIANTS); the
 * sweep holds whichever build the lookup picks to one float operation per lane, called through
 * volatile pointers in the rounding mode, with the operand flushing, .sat, result flushing and
 * NaN canonicalisation of docs/semantics.md. */
static float f32_add_c(float x, float y) { return x + y; }
static float f32_sub_c(float x, float y) { return x - y; }
static float f32_mul_c(float x, float y) { return x * y; }
static float (*volatile f32_ops_c[3])(float, float) = {f32_add_c, f32_sub_c, f32_mul_c};

static uint64_t want_arith32(int op, uint32_t a, uint32_t b, int ftz, int sat, int mode)
{
    float x, y;
    a = ftz ? flush32(a) : a;
    b = ftz ? flush32(b) : b;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    fesetround(mode);
    float r = f32_ops_c[op](x, y);
    fesetround(FE_TONEAREST);
    return f32_result_bits(r, ftz, sat);
}

static void test_f32_arith_matches_scalar(void **state)
{
    (void)state;
    static const ir_opcode ops[3] = {IR_ADD, IR_SUB, IR_MUL};
    uint64_t src[2][ALU_LANES], dst[ALU_LANES];
    for (int round = 0; round < 128; round++) {
        for (int l = 0; l < ALU_LANES; l++)
            for (int i = 0; i < 2; i++) /* high words set: only the low 32 bits are the f32 */
                src[i][l] = sweep_f32() | (uint64_t)(l & 1) << 40;
        for (int op = 0; op < 3; op++)
            for (unsigned m = 0; m < 4; m++)
                for (unsigned v = 0; v < 4; v++) {
                    int ftz = v & 1, sat = v >> 1;
                    ir_insn in = make(ops[op], IR_T_F32,
                                      (ftz ? IR_MOD_FTZ : 0) | (sat ? IR_MOD_SAT : 0),
                                      round_modes[m].rnd);
                    alu_fn fn = alu_lookup(&in);
                    assert_non_null(fn);
                    alu_args args = {{src[0], src[1], NULL, NULL}, dst, NULL, NULL, NULL};
                    fn(&in, &args);
                    for (int l = 0; l < ALU_LANES; l++)
                        assert_int_equal(dst[l], want_arith32(op, (uint32_t)src[0][l],
                                                              (uint32_t)src[1][l], ftz, sat,
                                                              round_modes[m].mode));
                }
    }
    assert_int_equal(fegetround(), FE_TONEAREST);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_add_rounding), cmocka_unit_test(test_f32_nan_inf),
        cmocka_unit_test(test_f32_ftz_sat),      cmocka_unit_test(test_f32_fma_div),
        cmocka_unit_test(test_f64),              cmocka_unit_test(test_sign_ops),
        cmocka_unit_test(test_rcp_sqrt),         cmocka_unit_test(test_approx_specials),
        cmocka_unit_test(test_approx_sweep),     cmocka_unit_test(test_lookup_rejects),
        cmocka_unit_test(test_fma_matches_libm),
        cmocka_unit_test(test_f32_arith_matches_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

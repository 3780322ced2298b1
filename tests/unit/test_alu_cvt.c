/* Unit tests for cvt (src/exec/alu_cvt.c): float -> int rounding and saturation (NaN -> 0),
 * int -> float rounding in every mode, int -> int truncation, extension and .sat, float -> float
 * narrowing, .ftz, .sat, .relu, .satfinite, tf32 and the f16x2/bf16x2 packing forms, and the
 * modifier combinations alu_lookup rejects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "exec/alu.h"

typedef struct lane_case {
    uint64_t a, b, want;
} lane_case;

static ir_insn make_cvt(ir_type dst, ir_type src, uint32_t mods, ir_round rnd)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = IR_CVT;
    in.type = (uint8_t)dst;
    in.type2 = (uint8_t)src;
    in.mods = mods;
    in.rnd = (uint8_t)rnd;
    in.nsrc = 1;
    return in;
}

static void check_cases(const ir_insn *in, const lane_case *cases, size_t n)
{
    uint64_t src[2][ALU_LANES], dst[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        src[0][l] = cases[(size_t)l % n].a;
        src[1][l] = cases[(size_t)l % n].b;
    }
    alu_fn fn = alu_lookup(in);
    assert_non_null(fn);
    alu_args args = {{src[0], src[1], NULL, NULL}, dst, NULL, NULL, NULL};
    fn(in, &args);
    for (int l = 0; l < ALU_LANES; l++) {
        const lane_case *c = &cases[(size_t)l % n];
        if (dst[l] != c->want)
            print_error("cvt.%s.%s rnd %d lane %d: a=%#llx got %#llx want %#llx\n",
                        ir_type_name((ir_type)in->type), ir_type_name((ir_type)in->type2), in->rnd,
                        l, (unsigned long long)c->a, (unsigned long long)dst[l],
                        (unsigned long long)c->want);
        assert_int_equal(dst[l], c->want);
    }
}

#define CHECK(dst, src, mods, rnd, ...)                                                       \
    do {                                                                                      \
        const lane_case cases_[] = {__VA_ARGS__};                                             \
        ir_insn in_ = make_cvt(dst, src, mods, rnd);                                          \
        check_cases(&in_, cases_, sizeof cases_ / sizeof cases_[0]);                          \
    } while (0)

#define F_2_7 0x402CCCCDu   /* 2.7f */
#define F_2_5 0x40200000u   /* 2.5f */
#define F_3_5 0x40600000u   /* 3.5f */
#define F_HALF 0x3F000000u  /* 0.5f */
#define F_3E9 0x4F32D05Eu   /* 3e9f */
#define F_5E9 0x4F9502F9u   /* 5e9f */
#define F_NAN 0x7FC00000u
#define F_INF 0x7F800000u
#define NEG 0x80000000u
#define ONES64 UINT64_C(0xFFFFFFFFFFFFFFFF)

static void test_float_to_int(void **state)
{
    (void)state;
    CHECK(IR_T_S32, IR_T_F32, 0, IR_RND_RZI, {F_2_7, 0, 2}, {F_2_7 | NEG, 0, 0xFFFFFFFE}, {F_NAN, 0, 0},
          {F_3E9, 0, 0x7FFFFFFF}, {F_3E9 | NEG, 0, 0x80000000}, {F_INF, 0, 0x7FFFFFFF},
          {F_INF | NEG, 0, 0x80000000}, {0xCF000000, 0, 0x80000000});
    CHECK(IR_T_S32, IR_T_F32, 0, IR_RND_RNI, {F_2_5, 0, 2}, {F_3_5, 0, 4}, {F_2_5 | NEG, 0, 0xFFFFFFFE},
          {F_2_7, 0, 3});
    CHECK(IR_T_S32, IR_T_F32, 0, IR_RND_RMI, {F_HALF | NEG, 0, 0xFFFFFFFF}, {F_2_7, 0, 2});
    CHECK(IR_T_S32, IR_T_F32, 0, IR_RND_RPI, {F_HALF, 0, 1}, {1, 0, 1}, {F_2_7 | NEG, 0, 0xFFFFFFFE});
    CHECK(IR_T_S32, IR_T_F32, IR_MOD_FTZ, IR_RND_RPI, {1, 0, 0}, {F_HALF, 0, 1});
    CHECK(IR_T_U32, IR_T_F32, 0, IR_RND_RZI, {0xBF800000, 0, 0}, {F_5E9, 0, 0xFFFFFFFF}, {F_NAN, 0, 0},
          {F_3E9, 0, 3000000000u});
    CHECK(IR_T_U8, IR_T_F32, 0, IR_RND_RZI, {0x43960000, 0, 255}, {0xC3960000, 0, 0});
    CHECK(IR_T_S8, IR_T_F32, 0, IR_RND_RZI, {0xC3480000, 0, 0x80}, {0x43480000, 0, 0x7F}, {0xC0000000, 0, 0xFE});
    CHECK(IR_T_S64, IR_T_F64, 0, IR_RND_RZI, {UINT64_C(0x43E158E460913D00), 0, 0x7FFFFFFFFFFFFFFF},
          {UINT64_C(0xC3E158E460913D00), 0, UINT64_C(0x8000000000000000)},
          {UINT64_C(0xC3E0000000000000), 0, UINT64_C(0x8000000000000000)},
          {UINT64_C(0x7FF8000000000000), 0, 0});
    CHECK(IR_T_U64, IR_T_F64, 0, IR_RND_RZI, {UINT64_C(0x43F0000000000000), 0, ONES64},
          {UINT64_C(0x43E0000000000000), 0, UINT64_C(0x8000000000000000)},
          {UINT64_C(0x43EFFFFFFFFFFFFF), 0, UINT64_C(0xFFFFFFFFFFFFF800)});
    CHECK(IR_T_S32, IR_T_F16, 0, IR_RND_RNI, {0x4100, 0, 2}, {0xFC00, 0, 0x80000000}, {0x7E00, 0, 0});
    CHECK(IR_T_U16, IR_T_BF16, 0, IR_RND_RZI, {0x4780, 0, 0xFFFF}, {0x4280, 0, 64});
}

static void test_int_to_float(void **state)
{
    (void)state;
    const uint64_t p2_24_1 = 16777217, m2_24_1 = 0xFEFFFFFF; /* +-(2^24 + 1) */
    CHECK(IR_T_F32, IR_T_S32, 0, IR_RND_RN, {p2_24_1, 0, 0x4B800000}, {m2_24_1, 0, 0xCB800000},
          {0, 0, 0}, {0x80000000, 0, 0xCF000000});
    CHECK(IR_T_F32, IR_T_S32, 0, IR_RND_RZ, {p2_24_1, 0, 0x4B800000});
    CHECK(IR_T_F32, IR_T_S32, 0, IR_RND_RP, {p2_24_1, 0, 0x4B800001}, {m2_24_1, 0, 0xCB800000});
    CHECK(IR_T_F32, IR_T_S32, 0, IR_RND_RM, {p2_24_1, 0, 0x4B800000}, {m2_24_1, 0, 0xCB800001});
    CHECK(IR_T_F32, IR_T_U64, 0, IR_RND_RN, {ONES64, 0, 0x5F800000});
    CHECK(IR_T_F32, IR_T_U64, 0, IR_RND_RZ, {ONES64, 0, 0x5F7FFFFF});
    CHECK(IR_T_F32, IR_T_S64, 0, IR_RND_RN, {UINT64_C(0x8000000000000000), 0, 0xDF000000});
    CHECK(IR_T_F64, IR_T_S64, 0, IR_RND_RN, {(UINT64_C(1) << 53) + 1, 0, UINT64_C(0x4340000000000000)},
          {ONES64, 0, UINT64_C(0xBFF0000000000000)});
    CHECK(IR_T_F64, IR_T_S64, 0, IR_RND_RP, {(UINT64_C(1) << 53) + 1, 0, UINT64_C(0x4340000000000001)});
    CHECK(IR_T_F64, IR_T_U64, 0, IR_RND_RZ, {ONES64, 0, UINT64_C(0x43EFFFFFFFFFFFFF)});
    CHECK(IR_T_F64, IR_T_U64, 0, IR_RND_RN, {ONES64, 0, UINT64_C(0x43F0000000000000)});
    CHECK(IR_T_F16, IR_T_S32, 0, IR_RND_RN, {65520, 0, 0x7C00}, {2049, 0, 0x6800}, {2051, 0, 0x6802},
          {0xFFFFFFFF, 0, 0xBC00});
    CHECK(IR_T_F16, IR_T_S32, 0, IR_RND_RZ, {65520, 0, 0x7BFF});
    CHECK(IR_T_F16, IR_T_S32, 0, IR_RND_RP, {2049, 0, 0x6801});
    CHECK(IR_T_F16, IR_T_U64, 0, IR_RND_RZ, {(UINT64_C(1) << 63) + 1, 0, 0x7BFF});
    /* 2^60 + 2^52 + 1: a bf16 tie plus a sticky bit beyond double precision rounds up */
    CHECK(IR_T_BF16, IR_T_U64, 0, IR_RND_RN, {ONES64, 0, 0x5F80},
          {(UINT64_C(1) << 60) + (UINT64_C(1) << 52) + 1, 0, 0x5D81});
    CHECK(IR_T_F32, IR_T_U8, IR_MOD_SAT, IR_RND_RN, {200, 0, 0x3F800000}, {0, 0, 0});
}

static void test_int_to_int(void **state)
{
    (void)state;
    CHECK(IR_T_U64, IR_T_U32, 0, IR_RND_NONE, {0xFFFFFFFF, 0, 0xFFFFFFFF}, {0x1FFFFFFFF, 0, 0xFFFFFFFF});
    CHECK(IR_T_S64, IR_T_S32, 0, IR_RND_NONE, {0xFFFFFFFF, 0, ONES64}, {0x7FFFFFFF, 0, 0x7FFFFFFF});
    CHECK(IR_T_U32, IR_T_S64, 0, IR_RND_NONE, {0x123456789, 0, 0x23456789});
    CHECK(IR_T_S32, IR_T_S8, 0, IR_RND_NONE, {0x80, 0, 0xFFFFFF80}, {0x17F, 0, 0x7F});
    CHECK(IR_T_U32, IR_T_S8, 0, IR_RND_NONE, {0x80, 0, 0xFFFFFF80});
    CHECK(IR_T_S32, IR_T_U8, 0, IR_RND_NONE, {0x80, 0, 0x80});
    CHECK(IR_T_U16, IR_T_U32, 0, IR_RND_NONE, {0x12345, 0, 0x2345});
    CHECK(IR_T_U8, IR_T_S32, IR_MOD_SAT, IR_RND_NONE, {0xFFFFFFFB, 0, 0}, {300, 0, 255}, {7, 0, 7});
    CHECK(IR_T_S8, IR_T_U32, IR_MOD_SAT, IR_RND_NONE, {200, 0, 0x7F}, {5, 0, 5});
    CHECK(IR_T_S32, IR_T_U32, IR_MOD_SAT, IR_RND_NONE, {0x80000000, 0, 0x7FFFFFFF});
    CHECK(IR_T_U32, IR_T_S32, IR_MOD_SAT, IR_RND_NONE, {0xFFFFFFFF, 0, 0}, {0x7FFFFFFF, 0, 0x7FFFFFFF});
    CHECK(IR_T_S16, IR_T_S64, IR_MOD_SAT, IR_RND_NONE, {(uint64_t)-100000, 0, 0x8000}, {100000, 0, 0x7FFF});
    CHECK(IR_T_U64, IR_T_S64, IR_MOD_SAT, IR_RND_NONE, {ONES64, 0, 0});
    CHECK(IR_T_S64, IR_T_U64, IR_MOD_SAT, IR_RND_NONE, {ONES64, 0, 0x7FFFFFFFFFFFFFFF});
}

static void test_float_to_float(void **state)
{
    (void)state;
    CHECK(IR_T_F64, IR_T_F32, 0, IR_RND_NONE, {0x3FC00000, 0, UINT64_C(0x3FF8000000000000)},
          {F_NAN, 0, UINT64_C(0x7FFFFFFFFFFFFFFF)}, {1, 0, UINT64_C(0x36A0000000000000)});
    CHECK(IR_T_F64, IR_T_F32, IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0}, {0x80000001, 0, UINT64_C(0x8000000000000000)});
    CHECK(IR_T_F64, IR_T_F32, 0, IR_RND_RN, {0x3FC00000, 0, UINT64_C(0x3FF8000000000000)});
    const uint64_t one_tie = UINT64_C(0x3FF0000010000000);   /* 1 + 2^-24 */
    const uint64_t one_above = UINT64_C(0x3FF0000010001000); /* 1 + 2^-24 + 2^-40 */
    const uint64_t one_bit = UINT64_C(0x3FF0000000400000);   /* 1 + 2^-30 */
    CHECK(IR_T_F32, IR_T_F64, 0, IR_RND_RN, {one_tie, 0, 0x3F800000}, {one_above, 0, 0x3F800001},
          {UINT64_C(0x7FEFFFFFFFFFFFFF), 0, F_INF}, {UINT64_C(0x358BF7D8C1E9F7A4), 0, 0},
          {UINT64_C(0x7FF0000000000001), 0, 0x7FFFFFFF});
    CHECK(IR_T_F32, IR_T_F64, 0, IR_RND_RP, {one_bit, 0, 0x3F800001}, {UINT64_C(0x358BF7D8C1E9F7A4), 0, 1});
    CHECK(IR_T_F32, IR_T_F64, 0, IR_RND_RM, {one_bit, 0, 0x3F800000});
    CHECK(IR_T_F32, IR_T_F64, 0, IR_RND_RZ, {UINT64_C(0x7FEFFFFFFFFFFFFF), 0, 0x7F7FFFFF});
    CHECK(IR_T_F32, IR_T_F64, IR_MOD_FTZ, IR_RND_RN, {UINT64_C(0x3730000000000000), 0, 0});
    CHECK(IR_T_F16, IR_T_F32, 0, IR_RND_RN, {0x477FF000, 0, 0x7C00}, {F_NAN, 0, 0x7FFF}, {0x3F800000, 0, 0x3C00},
          {0x33000000, 0, 0});
    CHECK(IR_T_F16, IR_T_F32, 0, IR_RND_RZ, {0x477FF000, 0, 0x7BFF});
    CHECK(IR_T_F16, IR_T_F32, IR_MOD_RELU, IR_RND_RN, {0xBF800000, 0, 0}, {F_NAN, 0, 0x7FFF}, {0x3F800000, 0, 0x3C00});
    CHECK(IR_T_F16, IR_T_F32, IR_MOD_SATFINITE, IR_RND_RN, {0x49742400, 0, 0x7BFF}, {F_INF | NEG, 0, 0xFBFF},
          {F_NAN, 0, 0x7FFF});
    CHECK(IR_T_BF16, IR_T_F32, 0, IR_RND_RN, {0x3F808000, 0, 0x3F80}, {0x3F818000, 0, 0x3F82}, {0x3F808001, 0, 0x3F81});
    CHECK(IR_T_BF16, IR_T_F32, 0, IR_RND_RZ, {0x3F81FFFF, 0, 0x3F81});
    CHECK(IR_T_F32, IR_T_F16, 0, IR_RND_NONE, {0x3C00, 0, 0x3F800000}, {0x0001, 0, 0x33800000},
          {0x7E00, 0, 0x7FFFFFFF}, {0xFC00, 0, 0xFF800000});
    CHECK(IR_T_F32, IR_T_BF16, 0, IR_RND_NONE, {0x3F80, 0, 0x3F800000}, {0x0001, 0, 0x00010000});
    CHECK(IR_T_F32, IR_T_F32, 0, IR_RND_RNI, {F_2_5, 0, 0x40000000}, {F_HALF | NEG, 0, NEG}, {F_3_5, 0, 0x40800000});
    CHECK(IR_T_F32, IR_T_F32, 0, IR_RND_RMI, {F_HALF, 0, 0}, {F_HALF | NEG, 0, 0xBF800000});
    CHECK(IR_T_F32, IR_T_F32, 0, IR_RND_RZI, {0xBFC00000, 0, 0xBF800000}, {F_NAN, 0, 0x7FFFFFFF});
    CHECK(IR_T_F64, IR_T_F64, 0, IR_RND_RPI, {UINT64_C(0x4004000000000000), 0, UINT64_C(0x4008000000000000)});
    CHECK(IR_T_F32, IR_T_F32, IR_MOD_SAT, IR_RND_NONE, {0x3FC00000, 0, 0x3F800000}, {0xC0000000, 0, 0},
          {F_NAN, 0, 0}, {F_HALF, 0, F_HALF});
    CHECK(IR_T_F32, IR_T_F32, IR_MOD_FTZ, IR_RND_NONE, {1, 0, 0}, {0x80000001, 0, NEG}, {F_2_5, 0, F_2_5});
    CHECK(IR_T_F16, IR_T_F16, 0, IR_RND_RNI, {0x4100, 0, 0x4000});
}

static void test_tf32_and_pack(void **state)
{
    (void)state;
    CHECK(IR_T_TF32, IR_T_F32, 0, IR_RND_RNA, {0x3F801000, 0, 0x3F802000}, {0x3F800FFF, 0, 0x3F800000},
          {0xBF801000, 0, 0xBF802000}, {F_NAN, 0, 0x7FFFE000}, {0x7F7FFFFF, 0, F_INF});
    CHECK(IR_T_TF32, IR_T_F32, 0, IR_RND_RN, {0x3F801000, 0, 0x3F800000}, {0x3F803000, 0, 0x3F804000});
    CHECK(IR_T_TF32, IR_T_F32, IR_MOD_SATFINITE, IR_RND_RNA, {0x7F7FFFFF, 0, 0x7F7FE000});
    CHECK(IR_T_F16X2, IR_T_F32, 0, IR_RND_RN, {0x3F800000, 0x40000000, 0x3C004000},
          {0x477FF000, F_NAN, 0x7C007FFF});
    CHECK(IR_T_F16X2, IR_T_F32, 0, IR_RND_RZ, {0x477FF000, 0x3F800000, 0x7BFF3C00});
    CHECK(IR_T_BF16X2, IR_T_F32, IR_MOD_RELU, IR_RND_RN, {0xBF800000, F_NAN, 0x00007FFF},
          {0x3F808001, 0x40000000, 0x3F814000});
    CHECK(IR_T_BF16X2, IR_T_F32, IR_MOD_SATFINITE, IR_RND_RN, {F_INF, 0x3F800000, 0x7F7F3F80});
}

static void test_lookup_rejects(void **state)
{
    (void)state;
    static const struct { ir_type dst, src; uint32_t mods; ir_round rnd; } bad[] = {
        {IR_T_S32, IR_T_F32, 0, IR_RND_NONE},  /* float -> int needs an integer rounding */
        {IR_T_S32, IR_T_F32, 0, IR_RND_RN},
        {IR_T_F32, IR_T_S32, 0, IR_RND_NONE},  /* int -> float needs a float rounding */
        {IR_T_F32, IR_T_S32, 0, IR_RND_RNI},
        {IR_T_F16, IR_T_F32, 0, IR_RND_NONE},  /* narrowing needs a float rounding */
        {IR_T_F32, IR_T_F64, 0, IR_RND_NONE},
        {IR_T_S32, IR_T_S16, 0, IR_RND_RNI},   /* int -> int takes no rounding */
        {IR_T_F64, IR_T_F64, IR_MOD_FTZ, IR_RND_NONE},
        {IR_T_F16, IR_T_F64, IR_MOD_RELU, IR_RND_RN},
        {IR_T_TF32, IR_T_F64, 0, IR_RND_RNA},
        {IR_T_F16, IR_T_F32, 0, IR_RND_RNA},
        {IR_T_F16X2, IR_T_F64, 0, IR_RND_RN},
        {IR_T_PRED, IR_T_U32, 0, IR_RND_NONE},
        {IR_T_B128, IR_T_U64, 0, IR_RND_NONE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ir_insn in = make_cvt(bad[i].dst, bad[i].src, bad[i].mods, bad[i].rnd);
        if (alu_lookup(&in) != NULL)
            print_error("case %zu accepted\n", i);
        assert_null(alu_lookup(&in));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_to_int),   cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_int_to_int),     cmocka_unit_test(test_float_to_float),
        cmocka_unit_test(test_tf32_and_pack),  cmocka_unit_test(test_lookup_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

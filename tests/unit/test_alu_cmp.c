/* Unit tests for comparison and selection (src/exec/alu_cmp.c): all 18 setp operators on ordered
 * and unordered float inputs, signed/unsigned integer compares, the boolean combination with c and
 * the complement predicate, set, selp, slct, testp, and integer/float min/max (NaN rules, -0 < +0,
 * .NaN, .xorsign.abs, .ftz, .relu, three inputs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "exec/alu.h"

typedef struct lane_case {
    uint64_t a, b, c, want;
} lane_case;

static ir_insn make(ir_opcode op, ir_type type, uint32_t mods)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.type = (uint8_t)type;
    in.mods = mods;
    in.nsrc = 2;
    return in;
}

/* Runs `in` over the cases; dst2 (when want2 is given) receives the second predicate. */
static void run_cases(const ir_insn *in, const lane_case *cases, size_t n, const uint64_t *want2)
{
    uint64_t src[3][ALU_LANES], dst[ALU_LANES], dst2[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        src[0][l] = cases[(size_t)l % n].a;
        src[1][l] = cases[(size_t)l % n].b;
        src[2][l] = cases[(size_t)l % n].c;
    }
    alu_fn fn = alu_lookup(in);
    assert_non_null(fn);
    alu_args args = {{src[0], src[1], src[2], NULL}, dst, want2 ? dst2 : NULL, NULL, NULL};
    fn(in, &args);
    for (int l = 0; l < ALU_LANES; l++) {
        const lane_case *c = &cases[(size_t)l % n];
        if (dst[l] != c->want)
            print_error("%s cmp %d lane %d: a=%#llx b=%#llx got %#llx want %#llx\n",
                        ir_opcode_name((ir_opcode)in->op), in->cmp, l, (unsigned long long)c->a,
                        (unsigned long long)c->b, (unsigned long long)dst[l],
                        (unsigned long long)c->want);
        assert_int_equal(dst[l], c->want);
        if (want2)
            assert_int_equal(dst2[l], want2[(size_t)l % n]);
    }
}

#define CHECK(in, ...)                                                                        \
    do {                                                                                      \
        const lane_case cases_[] = {__VA_ARGS__};                                             \
        run_cases(&(in), cases_, sizeof cases_ / sizeof cases_[0], NULL);                     \
    } while (0)

#define ONE 0x3F800000u
#define TWO 0x40000000u
#define QNAN 0x7FC00000u
#define SNAN 0x7F800001u
#define CNAN 0x7FFFFFFFu
#define NEG_ZERO 0x80000000u

static ir_insn setp(ir_type t, ir_cmp cmp, uint32_t mods)
{
    ir_insn in = make(IR_SETP, t, mods);
    in.cmp = (uint8_t)cmp;
    return in;
}

/* Every operator on (1, 2), (2, 1), (1, 1), (1, NaN), (NaN, 1) and (-0, +0). */
static void test_setp_float_operators(void **state)
{
    (void)state;
    static const struct { ir_cmp cmp; uint8_t r[6]; } table[] = {
        {IR_CMP_EQ, {0, 0, 1, 0, 0, 1}},  {IR_CMP_NE, {1, 1, 0, 0, 0, 0}},
        {IR_CMP_LT, {1, 0, 0, 0, 0, 0}},  {IR_CMP_LE, {1, 0, 1, 0, 0, 1}},
        {IR_CMP_GT, {0, 1, 0, 0, 0, 0}},  {IR_CMP_GE, {0, 1, 1, 0, 0, 1}},
        {IR_CMP_EQU, {0, 0, 1, 1, 1, 1}}, {IR_CMP_NEU, {1, 1, 0, 1, 1, 0}},
        {IR_CMP_LTU, {1, 0, 0, 1, 1, 0}}, {IR_CMP_LEU, {1, 0, 1, 1, 1, 1}},
        {IR_CMP_GTU, {0, 1, 0, 1, 1, 0}}, {IR_CMP_GEU, {0, 1, 1, 1, 1, 1}},
        {IR_CMP_NUM, {1, 1, 1, 0, 0, 1}}, {IR_CMP_NAN, {0, 0, 0, 1, 1, 0}},
    };
    const uint64_t a32[6] = {ONE, TWO, ONE, ONE, SNAN, NEG_ZERO}, b32[6] = {TWO, ONE, ONE, QNAN, ONE, 0};
    const uint64_t d1 = UINT64_C(0x3FF0000000000000), d2 = UINT64_C(0x4000000000000000);
    const uint64_t dn = UINT64_C(0x7FF8000000000000), dz = UINT64_C(0x8000000000000000);
    const uint64_t a64[6] = {d1, d2, d1, d1, dn, dz}, b64[6] = {d2, d1, d1, dn, d1, 0};
    const uint64_t a16[6] = {0x3C00, 0x4000, 0x3C00, 0x3C00, 0x7C01, 0x8000};
    const uint64_t b16[6] = {0x4000, 0x3C00, 0x3C00, 0x7E00, 0x3C00, 0};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        lane_case c32[6], c64[6], c16[6];
        uint64_t complement[6];
        for (int k = 0; k < 6; k++) {
            c32[k] = (lane_case){a32[k], b32[k], 0, table[i].r[k]};
            c64[k] = (lane_case){a64[k], b64[k], 0, table[i].r[k]};
            c16[k] = (lane_case){a16[k], b16[k], 0, table[i].r[k]};
            complement[k] = !table[i].r[k];
        }
        ir_insn in = setp(IR_T_F32, table[i].cmp, 0);
        run_cases(&in, c32, 6, complement);
        in = setp(IR_T_F64, table[i].cmp, 0);
        run_cases(&in, c64, 6, complement);
        in = setp(IR_T_F16, table[i].cmp, 0);
        run_cases(&in, c16, 6, NULL);
    }
}

static void test_setp_integer_and_boolop(void **state)
{
    (void)state;
    ir_insn in = setp(IR_T_S32, IR_CMP_LT, 0);
    CHECK(in, {0xFFFFFFFF, 1, 0, 1}, {1, 0xFFFFFFFF, 0, 0}, {0x80000000, 0x7FFFFFFF, 0, 1});
    in = setp(IR_T_U32, IR_CMP_LT, 0);
    CHECK(in, {0xFFFFFFFF, 1, 0, 0}, {1, 0xFFFFFFFF, 0, 1});
    in = setp(IR_T_S32, IR_CMP_LO, 0); /* lo is unsigned whatever the type */
    CHECK(in, {0xFFFFFFFF, 1, 0, 0});
    in = setp(IR_T_U16, IR_CMP_HS, 0);
    CHECK(in, {0x1FFFF, 0xFFFF, 0, 1}, {0, 1, 0, 0});
    in = setp(IR_T_S64, IR_CMP_GE, 0);
    CHECK(in, {UINT64_C(0x8000000000000000), 0, 0, 0}, {5, 5, 0, 1});
    in = setp(IR_T_B32, IR_CMP_NE, 0);
    CHECK(in, {5, 5, 0, 0}, {5, 6, 0, 1});
    in = setp(IR_T_S16, IR_CMP_LE, 0);
    CHECK(in, {0x8000, 0x7FFF, 0, 1});
    /* boolop: p = (a < b) OP c, q = !(a < b) OP c */
    static const struct { ir_boolop op; uint64_t p[4], q[4]; } ops[] = {
        {IR_BOOL_AND, {0, 1, 0, 0}, {0, 0, 0, 1}},
        {IR_BOOL_OR, {1, 1, 0, 1}, {0, 1, 1, 1}},
        {IR_BOOL_XOR, {1, 0, 0, 1}, {0, 1, 1, 0}},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        in = setp(IR_T_S32, IR_CMP_LT, 0);
        in.boolop = (uint8_t)ops[i].op;
        in.nsrc = 3;
        const lane_case cases[4] = {{1, 2, 0, ops[i].p[0]}, {1, 2, 1, ops[i].p[1]},
                                    {2, 1, 0, ops[i].p[2]}, {2, 1, 1, ops[i].p[3]}};
        run_cases(&in, cases, 4, ops[i].q);
    }
    /* .ftz: a subnormal equals zero */
    in = setp(IR_T_F32, IR_CMP_EQ, IR_MOD_FTZ);
    CHECK(in, {1, 0, 0, 1}, {0x80000001, 0, 0, 1});
    in = setp(IR_T_F32, IR_CMP_EQ, 0);
    CHECK(in, {1, 0, 0, 0});
    /* f16x2: the low halves go to p, the high halves to q */
    in = setp(IR_T_F16X2, IR_CMP_LT, 0);
    const lane_case pair[2] = {{0x3C004000, 0x40003C00, 0, 0}, {0x7E003C00, 0x3C004000, 0, 1}};
    const uint64_t high[2] = {1, 0};
    run_cases(&in, pair, 2, high);
}

static void test_set_selp_slct(void **state)
{
    (void)state;
    ir_insn in = make(IR_SET, IR_T_U32, 0);
    in.type2 = IR_T_F32;
    in.cmp = IR_CMP_LT;
    CHECK(in, {ONE, TWO, 0, 0xFFFFFFFF}, {TWO, ONE, 0, 0}, {QNAN, ONE, 0, 0});
    in.type = IR_T_F32;
    CHECK(in, {ONE, TWO, 0, ONE}, {TWO, ONE, 0, 0});
    in.type = IR_T_F16X2;
    in.type2 = IR_T_F16X2;
    CHECK(in, {0x3C004000, 0x40003C00, 0, 0x3C000000});
    in.type = IR_T_S32;
    in.type2 = IR_T_S32;
    in.cmp = IR_CMP_EQ;
    in.boolop = IR_BOOL_AND;
    in.nsrc = 3;
    CHECK(in, {3, 3, 1, 0xFFFFFFFF}, {3, 3, 0, 0});
    in = make(IR_SELP, IR_T_B32, 0);
    CHECK(in, {0x111111111, 0x22, 1, 0x11111111}, {0x11, 0x22, 0, 0x22});
    in = make(IR_SELP, IR_T_U16, 0);
    CHECK(in, {0x12345, 0x22, 1, 0x2345});
    in = make(IR_SELP, IR_T_F64, 0);
    CHECK(in, {UINT64_C(0xFFF8000000000001), 0, 1, UINT64_C(0xFFF8000000000001)});
    in = make(IR_SLCT, IR_T_S32, 0);
    in.type2 = IR_T_F32;
    CHECK(in, {1, 2, NEG_ZERO, 1}, {1, 2, QNAN, 2}, {1, 2, 0x80000001, 2}, {1, 2, 0xBF800000, 2},
          {1, 2, ONE, 1});
    in.mods = IR_MOD_FTZ;
    CHECK(in, {1, 2, 0x80000001, 1});
    in = make(IR_SLCT, IR_T_B64, 0);
    in.type2 = IR_T_S32;
    CHECK(in, {UINT64_C(0x100000000), 2, 0xFFFFFFFF, 2}, {UINT64_C(0x100000000), 2, 0, UINT64_C(0x100000000)});
}

static void test_testp(void **state)
{
    (void)state;
    static const struct { int sub; uint8_t r[7]; } table[] = {
        {IR_TESTP_FINITE, {1, 1, 1, 0, 0, 0, 1}},    {IR_TESTP_INFINITE, {0, 0, 0, 1, 1, 0, 0}},
        {IR_TESTP_NUMBER, {1, 1, 1, 1, 1, 0, 1}},    {IR_TESTP_NOTANUMBER, {0, 0, 0, 0, 0, 1, 0}},
        {IR_TESTP_NORMAL, {1, 0, 0, 0, 0, 0, 1}},    {IR_TESTP_SUBNORMAL, {0, 0, 1, 0, 0, 0, 0}},
    };
    const uint64_t f32[7] = {ONE, 0, 1, 0x7F800000, 0xFF800000, SNAN, 0x80800000};
    const uint64_t f64[7] = {UINT64_C(0x3FF0000000000000), UINT64_C(0x8000000000000000), 1,
                             UINT64_C(0x7FF0000000000000), UINT64_C(0xFFF0000000000000),
                             UINT64_C(0x7FF0000000000001), UINT64_C(0x0010000000000000)};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        lane_case c32[7], c64[7];
        for (int k = 0; k < 7; k++) {
            c32[k] = (lane_case){f32[k], 0, 0, table[i].r[k]};
            c64[k] = (lane_case){f64[k], 0, 0, table[i].r[k]};
        }
        ir_insn in = make(IR_TESTP, IR_T_F32, 0);
        in.sub = (uint8_t)table[i].sub;
        run_cases(&in, c32, 7, NULL);
        in.type = IR_T_F64;
        run_cases(&in, c64, 7, NULL);
    }
}

static void test_float_min_max(void **state)
{
    (void)state;
    ir_insn in = make(IR_MIN, IR_T_F32, 0);
    CHECK(in, {ONE, QNAN, 0, ONE}, {QNAN, ONE, 0, ONE}, {QNAN, SNAN, 0, CNAN}, {NEG_ZERO, 0, 0, NEG_ZERO},
          {0, NEG_ZERO, 0, NEG_ZERO}, {TWO, ONE, 0, ONE}, {0xC0000000, ONE, 0, 0xC0000000},
          {0x80000001, 0, 0, 0x80000001}, {0xFF800000, SNAN, 0, 0xFF800000});
    in.op = IR_MAX;
    CHECK(in, {ONE, QNAN, 0, ONE}, {NEG_ZERO, 0, 0, 0}, {0, NEG_ZERO, 0, 0}, {TWO, ONE, 0, TWO},
          {QNAN, QNAN, 0, CNAN});
    in = make(IR_MIN, IR_T_F32, IR_MOD_NAN);
    CHECK(in, {ONE, QNAN, 0, CNAN}, {SNAN, ONE, 0, CNAN}, {TWO, ONE, 0, ONE});
    in = make(IR_MIN, IR_T_F32, IR_MOD_FTZ);
    CHECK(in, {0x80000001, 0, 0, NEG_ZERO}, {1, 0x40000000, 0, 0});
    in = make(IR_MIN, IR_T_F32, IR_MOD_XORSIGN_ABS);
    CHECK(in, {0xC0000000, 0x40400000, 0, 0xC0000000}, {0x40000000, 0x40400000, 0, 0x40000000});
    in.op = IR_MAX;
    CHECK(in, {0xC0000000, 0xC0400000, 0, 0x40400000}, {0xC0000000, 0x40400000, 0, 0xC0400000});
    in = make(IR_MIN, IR_T_F32, 0);
    in.nsrc = 3;
    CHECK(in, {0x40400000, ONE, TWO, ONE}, {QNAN, QNAN, 0x40A00000, 0x40A00000}, {QNAN, QNAN, QNAN, CNAN});
    in.mods = IR_MOD_NAN;
    CHECK(in, {ONE, TWO, QNAN, CNAN}, {ONE, TWO, 0x40400000, ONE});
    in = make(IR_MAX, IR_T_F64, 0);
    CHECK(in, {UINT64_C(0x3FF0000000000000), UINT64_C(0x7FF8000000000000), 0, UINT64_C(0x3FF0000000000000)},
          {UINT64_C(0x7FF8000000000000), UINT64_C(0xFFF8000000000000), 0, UINT64_C(0x7FFFFFFFFFFFFFFF)},
          {UINT64_C(0x8000000000000000), 0, 0, 0});
    in = make(IR_MIN, IR_T_F16X2, 0);
    CHECK(in, {0x3C007E00, 0x40003C00, 0, 0x3C003C00}, {0x80000000, 0x00008000, 0, 0x80008000});
    in = make(IR_MAX, IR_T_BF16, IR_MOD_NAN);
    CHECK(in, {0x3F80, 0x7FC0, 0, 0x7FFF}, {0x3F80, 0x4000, 0, 0x4000});
    in = make(IR_MAX, IR_T_F16, IR_MOD_FTZ);
    CHECK(in, {0x8001, 0x0000, 0, 0});
}

static void test_int_min_max(void **state)
{
    (void)state;
    ir_insn in = make(IR_MIN, IR_T_S32, 0);
    CHECK(in, {0xFFFFFFFF, 1, 0, 0xFFFFFFFF}, {0x80000000, 0x7FFFFFFF, 0, 0x80000000});
    in.type = IR_T_U32;
    CHECK(in, {0xFFFFFFFF, 1, 0, 1});
    in = make(IR_MAX, IR_T_S64, 0);
    CHECK(in, {UINT64_C(0xFFFFFFFFFFFFFFFF), 1, 0, 1});
    in = make(IR_MIN, IR_T_S16, 0);
    CHECK(in, {0x8000, 1, 0, 0x8000});
    in = make(IR_MIN, IR_T_S32, IR_MOD_RELU);
    CHECK(in, {0xFFFFFFFB, 3, 0, 0}, {5, 3, 0, 3});
    in.op = IR_MAX;
    CHECK(in, {0xFFFFFFFB, 0xFFFFFFFD, 0, 0}, {5, 0xFFFFFFFD, 0, 5});
}

/* min/max.u16x2/.s16x2: each 16-bit half compared alone; .relu clamps negative halves. */
static void test_int_min_max_x2(void **state)
{
    (void)state;
    ir_insn in = make(IR_MIN, IR_T_U16X2, 0);
    CHECK(in, {0xFFFF0001, 0x0002FFFF, 0, 0x00020001}, {0x80007FFF, 0x7FFF8000, 0, 0x7FFF7FFF});
    in.op = IR_MAX;
    CHECK(in, {0xFFFF0001, 0x0002FFFF, 0, 0xFFFFFFFF}, {0x80007FFF, 0x7FFF8000, 0, 0x80008000});
    in = make(IR_MIN, IR_T_S16X2, 0);
    CHECK(in, {0xFFFF0001, 0x0002FFFF, 0, 0xFFFFFFFF}, {0x80007FFF, 0x7FFF8000, 0, 0x80008000});
    in.op = IR_MAX;
    CHECK(in, {0xFFFF0001, 0x0002FFFF, 0, 0x00020001}, {0x80007FFF, 0x7FFF8000, 0, 0x7FFF7FFF});
    in = make(IR_MAX, IR_T_S16X2, IR_MOD_RELU);
    CHECK(in, {0xFFFB0003, 0xFFFD0005, 0, 0x00000005}, {0x0004FFF0, 0x8000FFF1, 0, 0x00040000});
    in.op = IR_MIN;
    CHECK(in, {0xFFFB0003, 0x0001FFFE, 0, 0x00000000}, {0x00040007, 0x00050006, 0, 0x00040006});
    in = make(IR_MIN, IR_T_U16X2, IR_MOD_RELU); /* .relu is s16x2/s32 only */
    assert_null(alu_lookup(&in));
    in = make(IR_MAX, IR_T_S16X2, IR_MOD_NAN);
    assert_null(alu_lookup(&in));
    in = make(IR_MAX, IR_T_S16X2, 0);
    in.nsrc = 3;
    assert_null(alu_lookup(&in));
}

static void test_lookup_rejects(void **state)
{
    (void)state;
    ir_insn in = setp(IR_T_F32, IR_CMP_LO, 0); /* unsigned operators are integer only */
    assert_null(alu_lookup(&in));
    in = setp(IR_T_S32, IR_CMP_LTU, 0); /* unordered operators are float only */
    assert_null(alu_lookup(&in));
    in = setp(IR_T_S32, IR_CMP_NONE, 0);
    assert_null(alu_lookup(&in));
    in = setp(IR_T_F64, IR_CMP_EQ, IR_MOD_FTZ);
    assert_null(alu_lookup(&in));
    in = make(IR_MIN, IR_T_U32, IR_MOD_RELU);
    assert_null(alu_lookup(&in));
    in = make(IR_MIN, IR_T_F32, IR_MOD_XORSIGN_ABS);
    in.nsrc = 3;
    assert_null(alu_lookup(&in));
    in = make(IR_TESTP, IR_T_F16, 0);
    in.sub = IR_TESTP_FINITE;
    assert_null(alu_lookup(&in));
    in = make(IR_SLCT, IR_T_B32, 0);
    in.type2 = IR_T_U32;
    assert_null(alu_lookup(&in));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setp_float_operators), cmocka_unit_test(test_setp_integer_and_boolop),
        cmocka_unit_test(test_set_selp_slct),        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_float_min_max),        cmocka_unit_test(test_int_min_max),
        cmocka_unit_test(test_int_min_max_x2),
        cmocka_unit_test(test_lookup_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

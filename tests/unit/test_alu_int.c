/* Unit tests for the integer and bit-manipulation lane functions (src/exec/alu_int.c,
 * src/exec/alu_bits.c): exact results on 32 lanes of different inputs, carry chains checked against
 * a multi-word reference, and the combinations alu_lookup must reject. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "exec/alu.h"

/* One case per lane: operands a, b, c, d and the expected result. */
typedef struct lane_case {
    uint64_t a, b, c, d, want;
} lane_case;

static ir_insn make(ir_opcode op, ir_type type, uint32_t mods)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.type = (uint8_t)type;
    in.mods = mods;
    in.nsrc = 3;
    /* PTX's carry spelling names the flag, as the front-end lowers it */
    in.flag_out = (mods & IR_MOD_CC) ? IR_FLAG_CARRY : IR_FLAG_NONE;
    in.flag_in = (mods & IR_MOD_CARRY_IN) ? IR_FLAG_CARRY : IR_FLAG_NONE;
    return in;
}

/* Runs `in` with case i in lane i (cases repeat to fill 32 lanes) and checks every lane. */
static void check_cases(const ir_insn *in, const lane_case *cases, size_t n)
{
    uint64_t src[4][ALU_LANES], dst[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        const lane_case *c = &cases[(size_t)l % n];
        src[0][l] = c->a;
        src[1][l] = c->b;
        src[2][l] = c->c;
        src[3][l] = c->d;
        dst[l] = 0xDEADBEEF;
    }
    alu_fn fn = alu_lookup(in);
    assert_non_null(fn);
    alu_args args = {{src[0], src[1], src[2], src[3]}, dst, NULL, NULL, NULL};
    fn(in, &args);
    for (int l = 0; l < ALU_LANES; l++) {
        if (dst[l] != cases[(size_t)l % n].want)
            print_error("%s lane %d: a=%#llx b=%#llx c=%#llx got %#llx want %#llx\n",
                        ir_opcode_name((ir_opcode)in->op), l,
                        (unsigned long long)cases[(size_t)l % n].a,
                        (unsigned long long)cases[(size_t)l % n].b,
                        (unsigned long long)cases[(size_t)l % n].c, (unsigned long long)dst[l],
                        (unsigned long long)cases[(size_t)l % n].want);
        assert_int_equal(dst[l], cases[(size_t)l % n].want);
    }
}

#define CHECK(op, type, mods, ...)                                                            \
    do {                                                                                      \
        const lane_case cases_[] = {__VA_ARGS__};                                             \
        ir_insn in_ = make(op, type, mods);                                                   \
        check_cases(&in_, cases_, sizeof cases_ / sizeof cases_[0]);                          \
    } while (0)

#define I32_MIN 0x80000000u
#define I64_MIN UINT64_C(0x8000000000000000)
#define ONES64 UINT64_C(0xFFFFFFFFFFFFFFFF)

static void test_add_sub(void **state)
{
    (void)state;
    CHECK(IR_ADD, IR_T_U32, 0, {0xFFFFFFFF, 1, 0, 0, 0}, {0x7FFFFFFF, 1, 0, 0, 0x80000000},
          {5, 7, 0, 0, 12});
    CHECK(IR_ADD, IR_T_U16, 0, {0xFFFF, 2, 0, 0, 1});
    CHECK(IR_ADD, IR_T_S64, 0, {0x7FFFFFFFFFFFFFFF, 1, 0, 0, I64_MIN});
    CHECK(IR_SUB, IR_T_S32, 0, {0, 1, 0, 0, 0xFFFFFFFF}, {I32_MIN, 1, 0, 0, 0x7FFFFFFF});
    CHECK(IR_ADD, IR_T_S32, IR_MOD_SAT, {0x7FFFFFFF, 1, 0, 0, 0x7FFFFFFF},
          {I32_MIN, 0xFFFFFFFF, 0, 0, I32_MIN}, {5, 0xFFFFFFFD, 0, 0, 2});
    CHECK(IR_SUB, IR_T_S32, IR_MOD_SAT, {I32_MIN, 1, 0, 0, I32_MIN},
          {0x7FFFFFFF, 0xFFFFFFFF, 0, 0, 0x7FFFFFFF}, {3, 5, 0, 0, 0xFFFFFFFE});
}

/* add.u16x2/.s16x2: each half wraps alone, no carry crosses bit 16 (PTX has no packed sub). */
static void test_add_x2(void **state)
{
    (void)state;
    CHECK(IR_ADD, IR_T_U16X2, 0, {0x0001FFFF, 0x00010001, 0, 0, 0x00020000},
          {0xFFFF7FFF, 0x00020001, 0, 0, 0x00018000}, {0x12345678, 0x11111111, 0, 0, 0x23456789});
    CHECK(IR_ADD, IR_T_S16X2, 0, {0x7FFF8000, 0x0001FFFF, 0, 0, 0x80007FFF});
    ir_insn in = make(IR_ADD, IR_T_S16X2, IR_MOD_SAT); /* PTX has no .sat on the packed types */
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_U16X2, IR_MOD_CC);
    assert_null(alu_lookup(&in));
    in = make(IR_MUL, IR_T_U16X2, 0);
    assert_null(alu_lookup(&in));
    in = make(IR_SUB, IR_T_S16X2, 0);
    assert_null(alu_lookup(&in));
}

static void test_mul_mad(void **state)
{
    (void)state;
    CHECK(IR_MUL, IR_T_U32, IR_MOD_LO, {0x10000, 0x10000, 0, 0, 0}, {3, 0xFFFFFFFF, 0, 0, 0xFFFFFFFD});
    CHECK(IR_MUL, IR_T_U32, IR_MOD_HI, {0x10000, 0x10000, 0, 0, 1}, {0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0xFFFFFFFE});
    CHECK(IR_MUL, IR_T_S32, IR_MOD_HI, {0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0},
          {I32_MIN, I32_MIN, 0, 0, 0x40000000}, {0xFFFFFFFF, 5, 0, 0, 0xFFFFFFFF});
    CHECK(IR_MUL, IR_T_S32, IR_MOD_WIDE, {0xFFFFFFFF, 2, 0, 0, UINT64_C(0xFFFFFFFFFFFFFFFE)});
    CHECK(IR_MUL, IR_T_U32, IR_MOD_WIDE, {0xFFFFFFFF, 0xFFFFFFFF, 0, 0, UINT64_C(0xFFFFFFFE00000001)});
    CHECK(IR_MUL, IR_T_S16, IR_MOD_WIDE, {0x8000, 0x8000, 0, 0, 0x40000000}, {0xFFFF, 3, 0, 0, 0xFFFFFFFD});
    CHECK(IR_MUL, IR_T_U64, IR_MOD_HI, {ONES64, ONES64, 0, 0, UINT64_C(0xFFFFFFFFFFFFFFFE)},
          {UINT64_C(1) << 40, UINT64_C(1) << 40, 0, 0, UINT64_C(1) << 16});
    CHECK(IR_MUL, IR_T_S64, IR_MOD_HI, {ONES64, ONES64, 0, 0, 0},
          {I64_MIN, I64_MIN, 0, 0, UINT64_C(0x4000000000000000)}, {I64_MIN, 1, 0, 0, ONES64},
          {ONES64, 5, 0, 0, ONES64}, {0x7FFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 0, 0, 0x3FFFFFFFFFFFFFFF});
    CHECK(IR_MUL, IR_T_U64, IR_MOD_LO, {ONES64, ONES64, 0, 0, 1});
    CHECK(IR_MAD, IR_T_S32, IR_MOD_LO, {3, 4, 0xFFFFFFFF, 0, 11});
    CHECK(IR_MAD, IR_T_S32, IR_MOD_HI | IR_MOD_SAT, {0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 0, 0x7FFFFFFF},
          {I32_MIN, 0x7FFFFFFF, I32_MIN, 0, I32_MIN}, {0x10000, 0x10000, 5, 0, 6});
    CHECK(IR_MAD, IR_T_U32, IR_MOD_WIDE, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0, UINT64_C(0xFFFFFFFF00000000)});
    CHECK(IR_MAD, IR_T_U64, IR_MOD_HI, {ONES64, ONES64, 2, 0, 0});
}

static void test_mul24_sad(void **state)
{
    (void)state;
    CHECK(IR_MUL24, IR_T_U32, IR_MOD_LO, {0x01000003, 5, 0, 0, 15});
    CHECK(IR_MUL24, IR_T_U32, IR_MOD_HI, {0xFFFFFF, 0xFFFFFF, 0, 0, 0xFFFFFE00});
    CHECK(IR_MUL24, IR_T_S32, IR_MOD_LO, {0x00FFFFFF, 2, 0, 0, 0xFFFFFFFE});
    CHECK(IR_MUL24, IR_T_S32, IR_MOD_HI, {0x800000, 0x800000, 0, 0, 0x40000000},
          {0x800000, 1, 0, 0, 0xFFFFFF80});
    CHECK(IR_MAD24, IR_T_U32, IR_MOD_LO, {2, 3, 4, 0, 10});
    CHECK(IR_MAD24, IR_T_S32, IR_MOD_HI | IR_MOD_SAT, {0x800000, 0x800000, 0x7FFFFFFF, 0, 0x7FFFFFFF});
    CHECK(IR_SAD, IR_T_U32, 0, {3, 10, 100, 0, 107}, {10, 3, 0, 0, 7});
    CHECK(IR_SAD, IR_T_S32, 0, {0xFFFFFFFF, 1, 0, 0, 2}, {I32_MIN, 0x7FFFFFFF, 0, 0, 0xFFFFFFFF});
    CHECK(IR_SAD, IR_T_S16, 0, {0x8000, 0x7FFF, 1, 0, 0});
}

static void test_div_rem_abs_neg(void **state)
{
    (void)state;
    CHECK(IR_DIV, IR_T_U32, 0, {7, 0, 0, 0, 0xFFFFFFFF}, {7, 2, 0, 0, 3}, {0, 0, 0, 0, 0xFFFFFFFF});
    CHECK(IR_REM, IR_T_U32, 0, {7, 0, 0, 0, 7}, {7, 2, 0, 0, 1});
    CHECK(IR_DIV, IR_T_S32, 0, {I32_MIN, 0xFFFFFFFF, 0, 0, I32_MIN}, {5, 0, 0, 0, 0xFFFFFFFF},
          {0xFFFFFFFB, 0, 0, 0, 1}, {0xFFFFFFF9, 2, 0, 0, 0xFFFFFFFD}, {0, 0, 0, 0, 0xFFFFFFFF});
    CHECK(IR_REM, IR_T_S32, 0, {I32_MIN, 0xFFFFFFFF, 0, 0, 0}, {0xFFFFFFFB, 0, 0, 0, 0xFFFFFFFB},
          {0xFFFFFFF9, 2, 0, 0, 0xFFFFFFFF}, {7, 0xFFFFFFFE, 0, 0, 1});
    CHECK(IR_DIV, IR_T_S64, 0, {I64_MIN, ONES64, 0, 0, I64_MIN}, {5, 0, 0, 0, ONES64}, {I64_MIN, 0, 0, 0, 1});
    CHECK(IR_REM, IR_T_S64, 0, {I64_MIN, ONES64, 0, 0, 0});
    CHECK(IR_DIV, IR_T_U64, 0, {12, 0, 0, 0, ONES64}, {ONES64, 2, 0, 0, 0x7FFFFFFFFFFFFFFF});
    CHECK(IR_DIV, IR_T_S16, 0, {0x8000, 0xFFFF, 0, 0, 0x8000}, {3, 0, 0, 0, 0xFFFF});
    CHECK(IR_ABS, IR_T_S32, 0, {I32_MIN, 0, 0, 0, I32_MIN}, {0xFFFFFFFB, 0, 0, 0, 5}, {7, 0, 0, 0, 7});
    CHECK(IR_ABS, IR_T_S16, 0, {0xFFFF, 0, 0, 0, 1});
    CHECK(IR_NEG, IR_T_S32, 0, {1, 0, 0, 0, 0xFFFFFFFF}, {I32_MIN, 0, 0, 0, I32_MIN});
    CHECK(IR_NEG, IR_T_S64, 0, {I64_MIN, 0, 0, 0, I64_MIN}, {2, 0, 0, 0, UINT64_C(0xFFFFFFFFFFFFFFFE)});
}

/* A deterministic pseudo-random sequence for the multi-word references. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Runs one word step of a carry chain: dst = op(a, b) using and producing carries. */
static void run_carry(ir_opcode op, ir_type type, uint32_t mods, uint64_t *a, uint64_t *b,
                      uint64_t *c, uint64_t *d, const uint64_t *cin, uint64_t *cout)
{
    ir_insn in = make(op, type, mods);
    alu_fn fn = alu_lookup(&in);
    assert_non_null(fn);
    alu_args args = {{a, b, c, NULL}, d, NULL, cin, cout};
    fn(&in, &args);
}

/* 128-bit add and subtract built from four 32-bit add.cc/addc.cc/addc.cc/addc (and the sub
 * forms), against a two-uint64 reference, on 32 lanes of random operands plus edge cases. */
static void test_carry_chain_128(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15u, x[2][ALU_LANES], y[2][ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++)
        for (int w = 0; w < 2; w++) {
            x[w][l] = next_random(&seed);
            y[w][l] = next_random(&seed);
        }
    x[0][0] = x[1][0] = ONES64; /* all carries ripple */
    y[0][0] = 1;
    y[1][0] = 0;
    x[0][1] = x[1][1] = 0; /* all borrows ripple */
    y[0][1] = 1;
    y[1][1] = 0;
    for (int sub = 0; sub < 2; sub++) {
        uint64_t word[4][ALU_LANES], carry[2][ALU_LANES];
        for (int k = 0; k < 4; k++) {
            uint64_t a[ALU_LANES], b[ALU_LANES];
            for (int l = 0; l < ALU_LANES; l++) {
                a[l] = (x[k / 2][l] >> (32 * (k % 2))) & 0xFFFFFFFFu;
                b[l] = (y[k / 2][l] >> (32 * (k % 2))) & 0xFFFFFFFFu;
            }
            uint32_t mods = (k > 0 ? IR_MOD_CARRY_IN : 0) | (k < 3 ? IR_MOD_CC : 0);
            run_carry(sub ? IR_SUB : IR_ADD, IR_T_U32, mods, a, b, NULL, word[k],
                      carry[(k + 1) % 2], carry[k % 2]);
        }
        for (int l = 0; l < ALU_LANES; l++) {
            uint64_t lo = sub ? x[0][l] - y[0][l] : x[0][l] + y[0][l];
            uint64_t c = sub ? (x[0][l] < y[0][l]) : (lo < x[0][l]);
            uint64_t hi = sub ? x[1][l] - y[1][l] - c : x[1][l] + y[1][l] + c;
            assert_int_equal(word[0][l] | (word[1][l] << 32), lo);
            assert_int_equal(word[2][l] | (word[3][l] << 32), hi);
        }
    }
}

/* Two-word 64-bit chains and the carry out of the last step. */
static void test_carry_chain_64(void **state)
{
    (void)state;
    uint64_t a0[ALU_LANES], b0[ALU_LANES], a1[ALU_LANES], b1[ALU_LANES], d0[ALU_LANES],
        d1[ALU_LANES], c0[ALU_LANES], c1[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        a0[l] = ONES64 - (uint64_t)l;
        b0[l] = (uint64_t)l + (l & 1); /* odd lanes carry */
        a1[l] = (l & 2) ? ONES64 : 0;
        b1[l] = 0;
    }
    run_carry(IR_ADD, IR_T_U64, IR_MOD_CC, a0, b0, NULL, d0, NULL, c0);
    run_carry(IR_ADD, IR_T_U64, IR_MOD_CARRY_IN | IR_MOD_CC, a1, b1, NULL, d1, c0, c1);
    for (int l = 0; l < ALU_LANES; l++) {
        int carry = l & 1;
        assert_int_equal(c0[l], (uint64_t)carry);
        assert_int_equal(d0[l], carry ? 0 : ONES64);
        assert_int_equal(d1[l], a1[l] + (uint64_t)carry);
        assert_int_equal(c1[l], (uint64_t)(carry && (l & 2)));
    }
    run_carry(IR_SUB, IR_T_S64, IR_MOD_CC, b1, b0, NULL, d0, NULL, c0); /* 0 - b0 */
    run_carry(IR_SUB, IR_T_S64, IR_MOD_CARRY_IN, b1, b1, NULL, d1, c0, NULL);
    for (int l = 0; l < ALU_LANES; l++) {
        assert_int_equal(c0[l], b0[l] != 0);
        assert_int_equal(d1[l], b0[l] != 0 ? ONES64 : 0);
    }
}

static void test_mad_carry(void **state)
{
    (void)state;
    uint64_t a[ALU_LANES], b[ALU_LANES], c[ALU_LANES], d[ALU_LANES], cin[ALU_LANES],
        cout[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        a[l] = 0xFFFFFFFFu;
        b[l] = (l & 1) ? 0xFFFFFFFFu : 1;
        c[l] = (uint64_t)(l & 2) >> 1;
        cin[l] = (uint64_t)(l & 4) >> 2;
    }
    /* mad.lo.cc.u32: a*b low word + c */
    run_carry(IR_MAD, IR_T_U32, IR_MOD_LO | IR_MOD_CC, a, b, c, d, NULL, cout);
    for (int l = 0; l < ALU_LANES; l++) {
        uint64_t full = (a[l] * b[l] & 0xFFFFFFFFu) + c[l];
        assert_int_equal(d[l], full & 0xFFFFFFFFu);
        assert_int_equal(cout[l], full >> 32);
    }
    /* madc.hi.cc.u32: a*b high word + c + carry in */
    run_carry(IR_MAD, IR_T_U32, IR_MOD_HI | IR_MOD_CC | IR_MOD_CARRY_IN, a, b, c, d, cin, cout);
    for (int l = 0; l < ALU_LANES; l++) {
        uint64_t full = ((a[l] * b[l]) >> 32) + c[l] + cin[l];
        assert_int_equal(d[l], full & 0xFFFFFFFFu);
        assert_int_equal(cout[l], full >> 32);
    }
    /* 64-bit: lo(MAX*MAX) = 1, + MAX = 0 with carry; hi = MAX-1, + 0 + carry = MAX */
    for (int l = 0; l < ALU_LANES; l++) {
        a[l] = b[l] = ONES64;
        c[l] = ONES64;
    }
    run_carry(IR_MAD, IR_T_U64, IR_MOD_LO | IR_MOD_CC, a, b, c, d, NULL, cout);
    assert_int_equal(d[5], 0);
    assert_int_equal(cout[5], 1);
    for (int l = 0; l < ALU_LANES; l++)
        c[l] = 0;
    run_carry(IR_MAD, IR_T_U64, IR_MOD_HI | IR_MOD_CARRY_IN, a, b, c, d, cout, NULL);
    assert_int_equal(d[7], ONES64);
}

/* The carry is a condition flag the instruction names (ir_insn.flag_in / flag_out): the flags
 * alone select the carrying forms; PTX's .cc/addc spelling without its flag, and a flag on an
 * operation that has no carry, are refused rather than run without it. */
static void test_flags_select_the_carry(void **state)
{
    (void)state;
    ir_insn in = make(IR_ADD, IR_T_U32, 0);
    in.flag_out = 2;
    alu_fn fn = alu_lookup(&in);
    assert_non_null(fn);
    uint64_t a[ALU_LANES], b[ALU_LANES], d[ALU_LANES], cout[ALU_LANES];
    for (int l = 0; l < ALU_LANES; l++) {
        a[l] = 0xFFFFFFE0u + (uint64_t)l; /* lanes 16 and up carry */
        b[l] = 0x10;
    }
    alu_args args = {{a, b, NULL, NULL}, d, NULL, NULL, cout};
    fn(&in, &args);
    for (int l = 0; l < ALU_LANES; l++) {
        assert_int_equal(d[l], (0xFFFFFFF0u + (uint64_t)l) & 0xFFFFFFFFu);
        assert_int_equal(cout[l], l >= 16);
    }
    in.flag_out = IR_FLAG_NONE;
    in.flag_in = 1;
    assert_non_null(alu_lookup(&in)); /* addc without .cc */
    in.flag_in = IR_FLAG_NONE;
    in.mods = IR_MOD_CC; /* .cc naming no flag */
    assert_null(alu_lookup(&in));
    in.mods = IR_MOD_CARRY_IN;
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_F32, 0);
    in.flag_out = 1;
    assert_null(alu_lookup(&in));
    in = make(IR_MUL, IR_T_U32, IR_MOD_LO);
    in.flag_in = 1;
    assert_null(alu_lookup(&in));
}

static void test_shifts(void **state)
{
    (void)state;
    CHECK(IR_SHL, IR_T_B32, 0, {1, 31, 0, 0, 0x80000000}, {1, 32, 0, 0, 0}, {1, 0xFFFFFFFF, 0, 0, 0},
          {3, 0x100000001, 0, 0, 6});
    CHECK(IR_SHL, IR_T_B16, 0, {1, 16, 0, 0, 0}, {0x8001, 1, 0, 0, 2});
    CHECK(IR_SHL, IR_T_B64, 0, {1, 63, 0, 0, I64_MIN}, {1, 64, 0, 0, 0});
    CHECK(IR_SHR, IR_T_U32, 0, {I32_MIN, 31, 0, 0, 1}, {I32_MIN, 32, 0, 0, 0});
    CHECK(IR_SHR, IR_T_B32, 0, {I32_MIN, 4, 0, 0, 0x08000000});
    CHECK(IR_SHR, IR_T_S32, 0, {I32_MIN, 31, 0, 0, 0xFFFFFFFF}, {I32_MIN, 40, 0, 0, 0xFFFFFFFF},
          {0x40000000, 40, 0, 0, 0}, {0xFFFFFF00, 4, 0, 0, 0xFFFFFFF0});
    CHECK(IR_SHR, IR_T_S16, 0, {0x8000, 3, 0, 0, 0xF000});
    CHECK(IR_SHR, IR_T_S64, 0, {I64_MIN, 100, 0, 0, ONES64}, {I64_MIN, 63, 0, 0, ONES64});
    CHECK(IR_SHF, IR_T_B32, IR_MOD_LEFT, {0x89ABCDEF, 0x01234567, 8, 0, 0x23456789},
          {0x89ABCDEF, 0x01234567, 40, 0, 0x23456789});
    CHECK(IR_SHF, IR_T_B32, IR_MOD_LEFT | IR_MOD_CLAMP, {0x89ABCDEF, 0x01234567, 40, 0, 0x89ABCDEF});
    CHECK(IR_SHF, IR_T_B32, 0, {0x89ABCDEF, 0x01234567, 8, 0, 0x6789ABCD},
          {0x89ABCDEF, 0x01234567, 32, 0, 0x89ABCDEF});
    CHECK(IR_SHF, IR_T_B32, IR_MOD_CLAMP, {0x89ABCDEF, 0x01234567, 32, 0, 0x01234567},
          {0x89ABCDEF, 0x81234567, 99, 0, 0x81234567});
}

/* shl and shr by an immediate count (alu_bits.c shl_imm, shr_u_imm, shr_s_imm) give, in every
 * lane, what the register-count forms give for the same count: every width, signed and
 * unsigned, counts from 0 past the width and with bits above the low 32 (the count is a u32). */
static void test_shift_immediates_match_registers(void **state)
{
    (void)state;
    static const ir_type types[] = {IR_T_B16, IR_T_U16, IR_T_S16, IR_T_B32, IR_T_U32,
                                    IR_T_S32, IR_T_B64, IR_T_U64, IR_T_S64};
    static const uint64_t counts[] = {0, 1, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200,
                                      0xFFFFFFFFu, UINT64_C(0x100000004)};
    uint64_t v[ALU_LANES], cnt[ALU_LANES], want[ALU_LANES], got[ALU_LANES];
    uint64_t x = UINT64_C(0x9E3779B97F4A7C15);
    for (int l = 0; l < ALU_LANES; l++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v[l] = l < 4 ? (uint64_t[]){0, ONES64, I64_MIN | I32_MIN | 0x8000u, 0x7FFF7FFF7FFF}[l] : x;
    }
    for (unsigned t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int op = 0; op < 2; op++)
            for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                ir_insn in = make(op ? IR_SHR : IR_SHL, types[t], 0);
                in.nsrc = 2;
                in.src[0].kind = IR_OPND_REG;
                in.src[1].kind = IR_OPND_REG;
                for (int l = 0; l < ALU_LANES; l++) cnt[l] = counts[c] & 0xFFFFFFFFu;
                alu_args a = {{v, cnt, NULL, NULL}, want, NULL, NULL, NULL};
                alu_fn by_reg = alu_lookup(&in);
                assert_non_null(by_reg);
                by_reg(&in, &a);
                in.src[1].kind = IR_OPND_IMM;
                in.src[1].imm = (int64_t)counts[c];
                alu_fn by_imm = alu_lookup(&in);
                assert_non_null(by_imm);
                assert_true(by_imm != by_reg);
                a.dst = got;
                by_imm(&in, &a);
                for (int l = 0; l < ALU_LANES; l++) {
                    if (got[l] != want[l])
                        print_error("%s.%s by %#llx lane %d: %#llx, want %#llx\n",
                                    op ? "shr" : "shl", ir_type_name(types[t]),
                                    (unsigned long long)counts[c], l,
                                    (unsigned long long)got[l], (unsigned long long)want[l]);
                    assert_int_equal(got[l], want[l]);
                }
            }
}

static void test_bit_fields(void **state)
{
    (void)state;
    CHECK(IR_BFE, IR_T_U32, 0, {0x12345678, 8, 8, 0, 0x56}, {0x12345678, 40, 5, 0, 0},
          {0x12345678, 8, 0, 0, 0}, {0x12345678, 0x108, 0x208, 0, 0x56}, {0x80000000, 28, 8, 0, 8});
    CHECK(IR_BFE, IR_T_S32, 0, {0x0000F000, 12, 4, 0, 0xFFFFFFFF}, {0x80000000, 28, 8, 0, 0xFFFFFFF8},
          {0x80000000, 40, 5, 0, 0xFFFFFFFF}, {0x00007000, 12, 4, 0, 7}, {0xFFFFFFFF, 4, 0, 0, 0});
    CHECK(IR_BFE, IR_T_U64, 0, {UINT64_C(0xF000000000000000), 60, 4, 0, 0xF});
    CHECK(IR_BFE, IR_T_S64, 0, {UINT64_C(0x0000000800000000), 32, 4, 0, UINT64_C(0xFFFFFFFFFFFFFFF8)});
    CHECK(IR_BFI, IR_T_B32, 0, {0xFF, 0x12345678, 8, 4, 0x12345F78}, {0xFF, 0, 30, 8, 0xC0000000},
          {0xFF, 0x1234, 8, 0, 0x1234}, {0xFF, 0x1234, 32, 4, 0x1234});
    CHECK(IR_BFI, IR_T_B64, 0, {1, 0, 63, 1, I64_MIN});
    CHECK(IR_BMSK, IR_T_B32, 0, {4, 8, 0, 0, 0xFF0}, {0, 32, 0, 0, 0}, {28, 8, 0, 0, 0xF0000000},
          {36, 4, 0, 0, 0xF0});
    CHECK(IR_BMSK, IR_T_B32, IR_MOD_CLAMP, {0, 40, 0, 0, 0xFFFFFFFF}, {32, 5, 0, 0, 0},
          {28, 8, 0, 0, 0xF0000000});
    CHECK(IR_SZEXT, IR_T_S32, 0, {0x80, 8, 0, 0, 0xFFFFFF80}, {0x7F, 8, 0, 0, 0x7F}, {0x12345678, 32, 0, 0, 0});
    CHECK(IR_SZEXT, IR_T_U32, IR_MOD_CLAMP, {0xFFFFFFFF, 40, 0, 0, 0xFFFFFFFF}, {0xFFFFFFFF, 4, 0, 0, 0xF});
    CHECK(IR_SZEXT, IR_T_S32, IR_MOD_CLAMP, {0x1FF, 9, 0, 0, 0xFFFFFFFF}, {0x1FF, 0, 0, 0, 0});
}

static void test_counts(void **state)
{
    (void)state;
    CHECK(IR_BREV, IR_T_B32, 0, {1, 0, 0, 0, 0x80000000}, {0x12345678, 0, 0, 0, 0x1E6A2C48});
    CHECK(IR_BREV, IR_T_B64, 0, {1, 0, 0, 0, I64_MIN});
    CHECK(IR_POPC, IR_T_B32, 0, {0xFFFFFFFF, 0, 0, 0, 32}, {0x100000001, 0, 0, 0, 1});
    CHECK(IR_POPC, IR_T_B64, 0, {ONES64, 0, 0, 0, 64});
    CHECK(IR_CLZ, IR_T_B32, 0, {0, 0, 0, 0, 32}, {1, 0, 0, 0, 31}, {I32_MIN, 0, 0, 0, 0});
    CHECK(IR_CLZ, IR_T_B64, 0, {1, 0, 0, 0, 63}, {0, 0, 0, 0, 64});
    CHECK(IR_BFIND, IR_T_U32, 0, {0, 0, 0, 0, 0xFFFFFFFF}, {I32_MIN, 0, 0, 0, 31}, {1, 0, 0, 0, 0});
    CHECK(IR_BFIND, IR_T_S32, 0, {0xFFFFFFFF, 0, 0, 0, 0xFFFFFFFF}, {0xFFFF0000, 0, 0, 0, 15},
          {0x7FFFFFFF, 0, 0, 0, 30}, {0, 0, 0, 0, 0xFFFFFFFF});
    CHECK(IR_BFIND, IR_T_U32, IR_MOD_SHIFTAMT, {1, 0, 0, 0, 31}, {0, 0, 0, 0, 0xFFFFFFFF});
    CHECK(IR_BFIND, IR_T_S64, 0, {1, 0, 0, 0, 0}, {ONES64 - 1, 0, 0, 0, 0});
    CHECK(IR_FNS, IR_T_B32, 0, {0x16, 0, 1, 0, 1}, {0x16, 0, 2, 0, 2}, {0x16, 0, 3, 0, 4},
          {0x16, 0, 4, 0, 0xFFFFFFFF}, {0x16, 4, 0xFFFFFFFF, 0, 4}, {0x16, 4, 0xFFFFFFFE, 0, 2},
          {0x16, 1, 0, 0, 1}, {0x16, 0, 0, 0, 0xFFFFFFFF}, {0x16, 32, 1, 0, 0xFFFFFFFF},
          {0x80000000, 0, 1, 0, 31});
}

static void test_prmt_lop3_dp(void **state)
{
    (void)state;
    const uint64_t a = 0x44332211, b = 0x88776655;
    CHECK(IR_PRMT, IR_T_B32, 0, {a, b, 0x3210, 0, a}, {a, b, 0x7654, 0, b}, {a, b, 0, 0, 0x11111111},
          {a, b, 0x8, 0, 0x11111100}, {a, b, 0xF, 0, 0x111111FF}, {a, b, 0x4567, 0, 0x55667788});
    ir_insn in = make(IR_PRMT, IR_T_B32, 0);
    static const struct { uint8_t mode; uint64_t c, want; } modes[] = {
        {IR_PRMT_F4E, 1, 0x55443322}, {IR_PRMT_B4E, 0, 0x66778811}, {IR_PRMT_RC8, 2, 0x33333333},
        {IR_PRMT_ECL, 1, 0x44332222}, {IR_PRMT_ECR, 2, 0x33332211}, {IR_PRMT_RC16, 1, 0x44334433},
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        lane_case one = {a, b, modes[i].c, 0, modes[i].want};
        in.sub = modes[i].mode;
        check_cases(&in, &one, 1);
    }
    in = make(IR_LOP3, IR_T_B32, 0);
    in.src[3].kind = IR_OPND_IMM;
    for (unsigned lut = 0; lut < 256; lut += 15) {
        in.src[3].imm = lut;
        lane_case one = {0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0, lut * 0x01010101u};
        check_cases(&in, &one, 1);
    }
    in.src[3].imm = 0x96;
    lane_case x3 = {0x12345678, 0xFFFF0000, 0x0F0F0F0F, 0, 0x12345678u ^ 0xFFFF0000u ^ 0x0F0F0F0Fu};
    check_cases(&in, &x3, 1);
    in = make(IR_DP4A, IR_T_U32, 0);
    in.type2 = IR_T_U32;
    lane_case dp_uu = {0x01020304, 0x01010101, 10, 0, 20};
    check_cases(&in, &dp_uu, 1);
    in.type = IR_T_S32;
    in.type2 = IR_T_S32;
    lane_case dp_ss = {0xFFFFFFFF, 0x01010101, 0, 0, 0xFFFFFFFC};
    check_cases(&in, &dp_ss, 1);
    in.type2 = IR_T_U32;
    lane_case dp_su = {0xFFFFFFFF, 0xFFFFFFFF, 0, 0, 0xFFFFFC04};
    check_cases(&in, &dp_su, 1);
    in = make(IR_DP2A, IR_T_U32, IR_MOD_LO);
    in.type2 = IR_T_U32;
    lane_case dp2_lo = {0x00020003, 0x00000504, 1, 0, 23};
    check_cases(&in, &dp2_lo, 1);
    in.mods = IR_MOD_HI;
    lane_case dp2_hi = {0x00020003, 0x05040000, 1, 0, 23};
    check_cases(&in, &dp2_hi, 1);
}

static void test_logic(void **state)
{
    (void)state;
    CHECK(IR_AND, IR_T_B32, 0, {0xF0F0, 0xFF00, 0, 0, 0xF000});
    CHECK(IR_OR, IR_T_B64, 0, {I64_MIN, 1, 0, 0, I64_MIN | 1});
    CHECK(IR_XOR, IR_T_B16, 0, {0xFFFF, 0x0F0F, 0, 0, 0xF0F0});
    CHECK(IR_NOT, IR_T_B16, 0, {0x00FF, 0, 0, 0, 0xFF00});
    CHECK(IR_NOT, IR_T_B32, 0, {0, 0, 0, 0, 0xFFFFFFFF});
    CHECK(IR_CNOT, IR_T_B32, 0, {0, 0, 0, 0, 1}, {5, 0, 0, 0, 0}, {0x100000000, 0, 0, 0, 1});
    CHECK(IR_NOT, IR_T_PRED, 0, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0});
    CHECK(IR_AND, IR_T_PRED, 0, {1, 1, 0, 0, 1}, {1, 0, 0, 0, 0});
    CHECK(IR_XOR, IR_T_PRED, 0, {1, 1, 0, 0, 0}, {0, 1, 0, 0, 1});
}

static void test_lookup_rejects(void **state)
{
    (void)state;
    ir_insn in = make(IR_ADD, IR_T_U32, IR_MOD_SAT); /* .sat is s32 only */
    assert_null(alu_lookup(&in));
    in = make(IR_MUL, IR_T_U64, IR_MOD_WIDE); /* no 128-bit result */
    assert_null(alu_lookup(&in));
    in = make(IR_ABS, IR_T_U32, 0);
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_U16, IR_MOD_CC);
    assert_null(alu_lookup(&in));
    in = make(IR_MAD, IR_T_U32, IR_MOD_WIDE | IR_MOD_CC);
    assert_null(alu_lookup(&in));
    in = make(IR_CVTA, IR_T_U64, 0);
    assert_null(alu_lookup(&in));
    in = make(IR_CREATEPOLICY, IR_T_B64, 0);
    assert_null(alu_lookup(&in));
    in = make(IR_LD, IR_T_U32, 0); /* not an ALU op */
    assert_null(alu_lookup(&in));
    in = make(IR_MOV, IR_T_B128, 0);
    assert_null(alu_lookup(&in));
    in = make(IR_MOV, IR_T_B32, 0);
    in.dst[0].kind = IR_OPND_VEC;
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_U32, IR_MOD_FTZ); /* modifiers of other types are not ignored */
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_U32, 0);
    in.rnd = IR_RND_RN;
    assert_null(alu_lookup(&in));
    in = make(IR_SHL, IR_T_B32, IR_MOD_CLAMP);
    assert_null(alu_lookup(&in));
    in = make(IR_ADD, IR_T_U32, 0);
    in.op = IR_OP_COUNT + 5;
    assert_null(alu_lookup(&in));
}

static void test_mov(void **state)
{
    (void)state;
    CHECK(IR_MOV, IR_T_B16, 0, {0x12345678, 0, 0, 0, 0x5678});
    CHECK(IR_MOV, IR_T_U64, 0, {ONES64, 0, 0, 0, ONES64});
    CHECK(IR_MOV, IR_T_F32, 0, {0x1FFC00000, 0, 0, 0, 0xFFC00000});
    CHECK(IR_MOV, IR_T_PRED, 0, {1, 0, 0, 0, 1}, {2, 0, 0, 0, 0});
}

/* The lane functions that have AVX2 builds (alu_internal.h ALU_AVX2_VARIANTS: add, sub, mul and
 * mad .lo and .wide of 32-bit types, and, or, xor, shl and shr by an immediate, mov, min and
 * max of 32-bit types), which
 * alu_lookup chooses on hosts with AVX2, against each operation's formula on 32 lanes of random
 * 64-bit values: the bits above a 32-bit operand's width are set in most lanes and must not
 * reach the result (except mad .wide's 64-bit c). */
static void test_simd_builds_match_formulas(void **state)
{
    (void)state;
    enum { ADD32, ADD64, SUB32, SUB64, MULLO_U, MULLO_S, MADLO_S, WIDE_U, WIDE_S, MADW_U, MADW_S,
           AND32, OR64, XOR32, SHL32, SHRU32, SHRS32, SHRS64, MOV32, MOV64, MINS32, MAXS32,
           MINU32, MAXU32, NOPS };
    static const struct {
        ir_opcode op;
        ir_type type;
        uint32_t mods;
    } ops[NOPS] = {
        [ADD32] = {IR_ADD, IR_T_U32, 0},      [ADD64] = {IR_ADD, IR_T_S64, 0},
        [SUB32] = {IR_SUB, IR_T_S32, 0},      [SUB64] = {IR_SUB, IR_T_U64, 0},
        [MULLO_U] = {IR_MUL, IR_T_U32, IR_MOD_LO}, [MULLO_S] = {IR_MUL, IR_T_S32, IR_MOD_LO},
        [MADLO_S] = {IR_MAD, IR_T_S32, IR_MOD_LO}, [WIDE_U] = {IR_MUL, IR_T_U32, IR_MOD_WIDE},
        [WIDE_S] = {IR_MUL, IR_T_S32, IR_MOD_WIDE}, [MADW_U] = {IR_MAD, IR_T_U32, IR_MOD_WIDE},
        [MADW_S] = {IR_MAD, IR_T_S32, IR_MOD_WIDE}, [AND32] = {IR_AND, IR_T_B32, 0},
        [OR64] = {IR_OR, IR_T_B64, 0},        [XOR32] = {IR_XOR, IR_T_B32, 0},
        [SHL32] = {IR_SHL, IR_T_B32, 0},      [SHRU32] = {IR_SHR, IR_T_U32, 0},
        [SHRS32] = {IR_SHR, IR_T_S32, 0},     [SHRS64] = {IR_SHR, IR_T_S64, 0},
        [MOV32] = {IR_MOV, IR_T_B32, 0},      [MOV64] = {IR_MOV, IR_T_U64, 0},
        [MINS32] = {IR_MIN, IR_T_S32, 0},     [MAXS32] = {IR_MAX, IR_T_S32, 0},
        [MINU32] = {IR_MIN, IR_T_U32, 0},     [MAXU32] = {IR_MAX, IR_T_U32, 0},
    };
    uint64_t src[3][ALU_LANES], dst[ALU_LANES];
    uint64_t x = UINT64_C(0x2545F4914F6CDD1D);
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < ALU_LANES; l++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                src[i][l] = l % 4 == 0 ? x & 0xFFFFFFFFu : x; /* some lanes clean */
            }
        const int64_t count = round % 3 == 0 ? 31 : round % 3 == 1 ? 7 : 1;
        for (int k = 0; k < NOPS; k++) {
            ir_insn in = make(ops[k].op, ops[k].type, ops[k].mods);
            if (k >= SHL32 && k <= SHRS64) {
                in.nsrc = 2;
                in.src[1].kind = IR_OPND_IMM;
                in.src[1].imm = k == SHRS64 ? count + 32 : count;
            }
            if (k >= MINS32)
                in.nsrc = 2; /* three sources would be the three-way form */
            alu_fn fn = alu_lookup(&in);
            assert_non_null(fn);
            alu_args a = {{src[0], src[1], src[2], NULL}, dst, NULL, NULL, NULL};
            fn(&in, &a);
            for (int l = 0; l < ALU_LANES; l++) {
                uint64_t p = src[0][l], q = src[1][l], c = src[2][l], w;
                uint64_t p32 = p & 0xFFFFFFFFu, q32 = q & 0xFFFFFFFFu;
                int64_t ps = (int32_t)(uint32_t)p, qs = (int32_t)(uint32_t)q;
                switch (k) {
                case ADD32: w = (p + q) & 0xFFFFFFFFu; break;
                case ADD64: w = p + q; break;
                case SUB32: w = (p - q) & 0xFFFFFFFFu; break;
                case SUB64: w = p - q; break;
                case MULLO_U: case MULLO_S: w = (p32 * q32) & 0xFFFFFFFFu; break;
                case MADLO_S: w = (p32 * q32 + c) & 0xFFFFFFFFu; break;
                case WIDE_U: w = p32 * q32; break;
                case WIDE_S: w = (uint64_t)(ps * qs); break;
                case MADW_U: w = p32 * q32 + c; break;
                case MADW_S: w = (uint64_t)(ps * qs) + c; break;
                case AND32: w = p & q & 0xFFFFFFFFu; break;
                case OR64: w = p | q; break;
                case XOR32: w = (p ^ q) & 0xFFFFFFFFu; break;
                case SHL32: w = (p << count) & 0xFFFFFFFFu; break;
                case SHRU32: w = p32 >> count; break;
                case SHRS32: w = (uint64_t)(ps >> count) & 0xFFFFFFFFu; break;
                case SHRS64: w = (uint64_t)((int64_t)p >> (count + 32)); break;
                case MOV32: w = p32; break;
                case MINS32: w = (uint32_t)(ps < qs ? ps : qs); break;
                case MAXS32: w = (uint32_t)(ps > qs ? ps : qs); break;
                case MINU32: w = p32 < q32 ? p32 : q32; break;
                case MAXU32: w = p32 > q32 ? p32 : q32; break;
                default: w = p; break;
                }
                if (dst[l] != w)
                    print_error("op %d lane %d: a=%#llx b=%#llx c=%#llx got %#llx want %#llx\n",
                                k, l, (unsigned long long)p, (unsigned long long)q,
                                (unsigned long long)c, (unsigned long long)dst[l],
                                (unsigned long long)w);
                assert_int_equal(dst[l], w);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub),         cmocka_unit_test(test_add_x2),
        cmocka_unit_test(test_mul_mad),
        cmocka_unit_test(test_mul24_sad),       cmocka_unit_test(test_div_rem_abs_neg),
        cmocka_unit_test(test_carry_chain_128), cmocka_unit_test(test_carry_chain_64),
        cmocka_unit_test(test_mad_carry),       cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_bit_fields),      cmocka_unit_test(test_counts),
        cmocka_unit_test(test_prmt_lop3_dp),    cmocka_unit_test(test_logic),
        cmocka_unit_test(test_lookup_rejects),  cmocka_unit_test(test_mov),
        cmocka_unit_test(test_flags_select_the_carry),
        cmocka_unit_test(test_shift_immediates_match_registers),
        cmocka_unit_test(test_simd_builds_match_formulas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

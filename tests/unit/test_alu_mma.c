/* Unit tests of alu_mma.c: the fragment layouts (every mma and wmma fragment covers its matrix,
 * mma's exactly once, at the positions the PTX ISA gives for a few spot elements), element reads
 * and writes (f16 packing, tf32 truncation, s32 wrap and .satfinite) and the product's order of
 * sums. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "exec/alu.h"

static ir_insn insn(ir_opcode op, unsigned shape, ir_type d, ir_type a, ir_type b, ir_type c)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.sub = (uint8_t)shape;
    in.type = (uint8_t)d;
    in.type2 = (uint8_t)a;
    in.type_b = (uint8_t)b;
    in.type_c = (uint8_t)c;
    return in;
}

/* How many times each element of fragment frag's matrix is held, over the 32 lanes. */
static void coverage(const ir_insn *in, unsigned frag, ir_type t, unsigned *min, unsigned *max)
{
    unsigned rows, cols, counts[1024];
    alu_mma_dims(in, frag, &rows, &cols);
    memset(counts, 0, sizeof counts);
    unsigned per_lane = alu_mma_elements(in, frag, t);
    assert_true(per_lane > 0);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned e = 0; e < per_lane; e++) {
            unsigned r, col;
            alu_mma_coord(in, frag, t, l, e, &r, &col);
            assert_true(r < rows && col < cols);
            counts[r * cols + col]++;
        }
    *min = ~0u;
    *max = 0;
    for (unsigned i = 0; i < rows * cols; i++) {
        *min = counts[i] < *min ? counts[i] : *min;
        *max = counts[i] > *max ? counts[i] : *max;
    }
}

static void test_mma_layouts_cover_once(void **state)
{
    (void)state;
    static const struct { unsigned shape; ir_type d, a; } forms[] = {
        {IR_MATRIX_M16N8K16, IR_T_F32, IR_T_F16}, {IR_MATRIX_M16N8K16, IR_T_F16, IR_T_F16},
        {IR_MATRIX_M16N8K16, IR_T_F32, IR_T_BF16}, {IR_MATRIX_M16N8K16, IR_T_S32, IR_T_S8},
        {IR_MATRIX_M16N8K8, IR_T_F32, IR_T_F16},  {IR_MATRIX_M16N8K8, IR_T_F32, IR_T_TF32},
        {IR_MATRIX_M16N8K4, IR_T_F32, IR_T_TF32}, {IR_MATRIX_M8N8K4, IR_T_F64, IR_T_F64},
        {IR_MATRIX_M16N8K32, IR_T_S32, IR_T_U8},  {IR_MATRIX_M8N8K16, IR_T_S32, IR_T_S8},
        {IR_MATRIX_M16N8K16, IR_T_F64, IR_T_F64}, {IR_MATRIX_M16N8K8, IR_T_F64, IR_T_F64},
        {IR_MATRIX_M16N8K4, IR_T_F64, IR_T_F64},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        ir_insn in = insn(IR_MMA, forms[i].shape, forms[i].d, forms[i].a, forms[i].a, forms[i].d);
        unsigned lo, hi;
        coverage(&in, IR_FRAG_A, forms[i].a, &lo, &hi);
        assert_int_equal(lo, 1);
        assert_int_equal(hi, 1);
        coverage(&in, IR_FRAG_B, forms[i].a, &lo, &hi);
        assert_int_equal(lo, 1);
        assert_int_equal(hi, 1);
        coverage(&in, IR_FRAG_D, forms[i].d, &lo, &hi);
        assert_int_equal(lo, 1);
        assert_int_equal(hi, 1);
    }
}

/* mma.m8n8k4 with f16: four MMAs side by side, each element of each held once, in every layout
 * of a and b and with f16 or f32 accumulators. */
static void test_quadpair_layouts_cover_once(void **state)
{
    (void)state;
    static const uint32_t mods[] = {0, IR_MOD_ACOL, IR_MOD_BROW, IR_MOD_ACOL | IR_MOD_BROW};
    static const ir_type acc[] = {IR_T_F16, IR_T_F32};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 2; j++) {
            ir_insn in = insn(IR_MMA, IR_MATRIX_M8N8K4, acc[j], IR_T_F16, IR_T_F16, acc[j]);
            in.mods = mods[i];
            unsigned lo, hi, rows, cols;
            alu_mma_dims(&in, IR_FRAG_B, &rows, &cols);
            assert_int_equal(rows, 4);
            assert_int_equal(cols, 32);
            coverage(&in, IR_FRAG_A, IR_T_F16, &lo, &hi);
            assert_true(lo == 1 && hi == 1);
            coverage(&in, IR_FRAG_B, IR_T_F16, &lo, &hi);
            assert_true(lo == 1 && hi == 1);
            coverage(&in, IR_FRAG_D, acc[j], &lo, &hi);
            assert_true(lo == 1 && hi == 1);
        }
    /* lane 21 (quadpair 1, high group, thread 1): row-major a's a2 is row 1 + 4 of block 1 */
    ir_insn in = insn(IR_MMA, IR_MATRIX_M8N8K4, IR_T_F32, IR_T_F16, IR_T_F16, IR_T_F32);
    unsigned r, c;
    alu_mma_coord(&in, IR_FRAG_A, IR_T_F16, 21, 2, &r, &c);
    assert_int_equal(r, 8 + 5);
    assert_int_equal(c, 2);
}

/* wmma: the model's layout covers every element; f16 a of m8n32k16 (8 x 16, 16 elements a lane)
 * holds each element four times. */
static void test_wmma_layouts_cover(void **state)
{
    (void)state;
    unsigned lo, hi;
    ir_insn in = insn(IR_WMMA_MMA, IR_MATRIX_M8N32K16, IR_T_F32, IR_T_F16, IR_T_F16, IR_T_F32);
    coverage(&in, IR_FRAG_A, IR_T_F16, &lo, &hi);
    assert_int_equal(lo, 4);
    assert_int_equal(hi, 4);
    coverage(&in, IR_FRAG_D, IR_T_F32, &lo, &hi);
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 1);
    in = insn(IR_WMMA_MMA, IR_MATRIX_M16N16K8, IR_T_F32, IR_T_TF32, IR_T_TF32, IR_T_F32);
    coverage(&in, IR_FRAG_B, IR_T_TF32, &lo, &hi);
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 1);
}

/* Spot elements of the PTX ISA's figures: lane 5 is group 1, thread 1 of its group. */
static void test_mma_spot_positions(void **state)
{
    (void)state;
    unsigned r, c;
    ir_insn f16 = insn(IR_MMA, IR_MATRIX_M16N8K16, IR_T_F32, IR_T_F16, IR_T_F16, IR_T_F32);
    alu_mma_coord(&f16, IR_FRAG_A, IR_T_F16, 5, 7, &r, &c); /* a7: row g+8, col 2t+1+8 */
    assert_int_equal(r, 9);
    assert_int_equal(c, 11);
    alu_mma_coord(&f16, IR_FRAG_B, IR_T_F16, 5, 2, &r, &c); /* b2: row 2t+8, col g */
    assert_int_equal(r, 10);
    assert_int_equal(c, 1);
    alu_mma_coord(&f16, IR_FRAG_D, IR_T_F32, 5, 3, &r, &c); /* c3: row g+8, col 2t+1 */
    assert_int_equal(r, 9);
    assert_int_equal(c, 3);
    ir_insn tf = insn(IR_MMA, IR_MATRIX_M16N8K8, IR_T_F32, IR_T_TF32, IR_T_TF32, IR_T_F32);
    alu_mma_coord(&tf, IR_FRAG_A, IR_T_TF32, 5, 1, &r, &c); /* a1: row g+8, col t */
    assert_int_equal(r, 9);
    assert_int_equal(c, 1);
    alu_mma_coord(&tf, IR_FRAG_B, IR_T_TF32, 5, 1, &r, &c); /* b1: row t+4, col g */
    assert_int_equal(r, 5);
    assert_int_equal(c, 1);
    ir_insn f64 = insn(IR_MMA, IR_MATRIX_M16N8K16, IR_T_F64, IR_T_F64, IR_T_F64, IR_T_F64);
    alu_mma_coord(&f64, IR_FRAG_A, IR_T_F64, 5, 7, &r, &c); /* a7: row g+8, col 12+t */
    assert_int_equal(r, 9);
    assert_int_equal(c, 13);
    alu_mma_coord(&f64, IR_FRAG_B, IR_T_F64, 5, 3, &r, &c); /* b3: row t+12, col g */
    assert_int_equal(r, 13);
    assert_int_equal(c, 1);
    ir_insn s8 = insn(IR_MMA, IR_MATRIX_M16N8K32, IR_T_S32, IR_T_S8, IR_T_S8, IR_T_S32);
    alu_mma_coord(&s8, IR_FRAG_A, IR_T_S8, 5, 13, &r, &c); /* a13: row g+8, col 4t+1+16 */
    assert_int_equal(r, 9);
    assert_int_equal(c, 21);
}

static void test_read_write(void **state)
{
    (void)state;
    uint64_t regs[2] = {0x3C00C000u, 0}; /* f16x2: element 0 = -2.0, element 1 = 1.0 */
    assert_true(alu_mma_read(IR_T_F16, regs, 0) == -2.0);
    assert_true(alu_mma_read(IR_T_F16, regs, 1) == 1.0);
    alu_mma_write(IR_T_F16, regs, 1, 0.5, 0);
    assert_int_equal(regs[0], 0x3800C000u);
    uint64_t tf[1] = {0x3F801FFFu}; /* 1 + 0x1FFF * 2^-23: the low 13 bits are ignored */
    assert_true(alu_mma_read(IR_T_TF32, tf, 0) == 1.0);
    uint64_t s[1] = {0};
    alu_mma_write(IR_T_S32, s, 0, 2147483648.0, 0);
    assert_int_equal(s[0], 0x80000000u);
    alu_mma_write(IR_T_S32, s, 0, 2147483648.0, 1);
    assert_int_equal(s[0], 0x7FFFFFFFu);
    alu_mma_write(IR_T_S32, s, 0, -2147483649.0, 1);
    assert_int_equal(s[0], 0x80000000u);
    uint64_t b[1] = {0xFF80u}; /* s8 elements 0x80 (-128), 0xFF (-1) */
    assert_true(alu_mma_read(IR_T_S8, b, 0) == -128.0);
    assert_true(alu_mma_read(IR_T_S8, b, 1) == -1.0);
    assert_true(alu_mma_read(IR_T_U8, b, 1) == 255.0);
}

/* The sum is formed in double and rounded once: 1 + 2^-24 + 2^-24 is 1 + 2^-23 in f32, where
 * summing in f32 would lose both halves. */
static void test_single_rounding(void **state)
{
    (void)state;
    ir_insn in = insn(IR_MMA, IR_MATRIX_M16N8K8, IR_T_F32, IR_T_F16, IR_T_F16, IR_T_F32);
    double a[16 * 8], b[8 * 8], c[16 * 8], d[16 * 8];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (unsigned i = 0; i < 16 * 8; i++) c[i] = 1.0;
    a[0] = a[1] = 1.0 / 4096; /* row 0, k 0 and 1 */
    b[0] = b[8] = 1.0 / 4096; /* k 0 and 1, column 0 */
    alu_mma_multiply(&in, a, b, c, d);
    uint64_t r[1] = {0};
    alu_mma_write(IR_T_F32, r, 0, d[0], 0);
    assert_int_equal(r[0], 0x3F800001u);
    alu_mma_write(IR_T_F32, r, 0, d[1], 0);
    assert_int_equal(r[0], 0x3F800000u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mma_layouts_cover_once),
        cmocka_unit_test(test_quadpair_layouts_cover_once),
        cmocka_unit_test(test_wmma_layouts_cover),
        cmocka_unit_test(test_mma_spot_positions),
        cmocka_unit_test(test_read_write),
        cmocka_unit_test(test_single_rounding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

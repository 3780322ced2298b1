/* Unit tests for the atom/red arithmetic (src/exec/alu_atom.c): bitwise, cas, exch, wrapping
 * inc/dec, integer and float add/min/max with the f32 flush-to-zero rule, and the unsupported
 * combinations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exec/alu.h"

/* Applies an operation that must be supported and returns the new value. */
static uint64_t apply(uint8_t op, ir_type type, uint32_t mods, uint64_t old, uint64_t b, uint64_t c)
{
    int ok = -1;
    assert_true(alu_atom_supported(op, type));
    uint64_t r = alu_atom_apply(op, type, mods, old, b, c, &ok);
    assert_int_equal(ok, 1);
    return r;
}

static void test_bitwise_cas_exch(void **state)
{
    (void)state;
    assert_int_equal(apply(IR_ATOM_AND, IR_T_B32, 0, 0xF0F0, 0xFF00, 0), 0xF000);
    assert_int_equal(apply(IR_ATOM_OR, IR_T_B64, 0, UINT64_C(1) << 63, 1, 0), (UINT64_C(1) << 63) | 1);
    assert_int_equal(apply(IR_ATOM_XOR, IR_T_B32, 0, 0xFFFFFFFF, 0x0F0F0F0F, 0), 0xF0F0F0F0);
    assert_int_equal(apply(IR_ATOM_CAS, IR_T_B32, 0, 5, 5, 9), 9);
    assert_int_equal(apply(IR_ATOM_CAS, IR_T_B32, 0, 5, 6, 9), 5);
    assert_int_equal(apply(IR_ATOM_CAS, IR_T_B16, 0, 0x1234, 0x1234, 0xABCD), 0xABCD);
    assert_int_equal(apply(IR_ATOM_CAS, IR_T_B64, 0, UINT64_C(0x100000005), 5, 9), UINT64_C(0x100000005));
    assert_int_equal(apply(IR_ATOM_EXCH, IR_T_B32, 0, 5, 7, 0), 7);
    assert_int_equal(apply(IR_ATOM_EXCH, IR_T_B64, 0, 5, UINT64_C(0xFFFFFFFFFFFFFFFF), 0),
                     UINT64_C(0xFFFFFFFFFFFFFFFF));
}

static void test_inc_dec(void **state)
{
    (void)state;
    assert_int_equal(apply(IR_ATOM_INC, IR_T_U32, 0, 5, 5, 0), 0);
    assert_int_equal(apply(IR_ATOM_INC, IR_T_U32, 0, 3, 5, 0), 4);
    assert_int_equal(apply(IR_ATOM_INC, IR_T_U32, 0, 7, 5, 0), 0);
    assert_int_equal(apply(IR_ATOM_INC, IR_T_U32, 0, 0xFFFFFFFE, 0xFFFFFFFF, 0), 0xFFFFFFFF);
    assert_int_equal(apply(IR_ATOM_DEC, IR_T_U32, 0, 0, 5, 0), 5);
    assert_int_equal(apply(IR_ATOM_DEC, IR_T_U32, 0, 7, 5, 0), 5);
    assert_int_equal(apply(IR_ATOM_DEC, IR_T_U32, 0, 3, 5, 0), 2);
}

static void test_add(void **state)
{
    (void)state;
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_U32, 0, 0xFFFFFFFF, 1, 0), 0);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_S32, 0, 0x7FFFFFFF, 1, 0), 0x80000000);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_U64, 0, UINT64_C(0xFFFFFFFFFFFFFFFF), 2, 0), 1);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F32, 0, 0x3F800000, 0x40000000, 0), 0x40400000);
    /* atom.add.f32 flushes subnormal operands and results */
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F32, 0, 1, 0, 0), 0);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F32, 0, 0x00800000, 0x80400000, 0), 0x00800000);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F32, 0, 0x00C00000, 0x80800000, 0), 0);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F32, IR_MOD_NOFTZ, 1, 0, 0), 1);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F32, 0, 0x7F800000, 0xFF800000, 0), 0x7FFFFFFF);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F64, 0, 1, 1, 0), 2);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F16, IR_MOD_NOFTZ, 0x0001, 0x0001, 0), 0x0002);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F16, IR_MOD_NOFTZ, 0x3C00, 0x1000, 0), 0x3C00);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_F16X2, IR_MOD_NOFTZ, 0x3C004000, 0x3C003C00, 0), 0x40004200);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_BF16, 0, 0x3F81, 0x3B80, 0), 0x3F82);
    assert_int_equal(apply(IR_ATOM_ADD, IR_T_BF16X2, 0, 0x3F803F80, 0x3F803F80, 0), 0x40004000);
}

static void test_min_max(void **state)
{
    (void)state;
    assert_int_equal(apply(IR_ATOM_MIN, IR_T_S32, 0, 0xFFFFFFFF, 1, 0), 0xFFFFFFFF);
    assert_int_equal(apply(IR_ATOM_MIN, IR_T_U32, 0, 0xFFFFFFFF, 1, 0), 1);
    assert_int_equal(apply(IR_ATOM_MAX, IR_T_S64, 0, UINT64_C(0x8000000000000000), 0, 0), 0);
    assert_int_equal(apply(IR_ATOM_MAX, IR_T_U64, 0, UINT64_C(0x8000000000000000), 0, 0),
                     UINT64_C(0x8000000000000000));
    assert_int_equal(apply(IR_ATOM_MIN, IR_T_F16, 0, 0x7E00, 0x3C00, 0), 0x3C00);
    assert_int_equal(apply(IR_ATOM_MIN, IR_T_F16, 0, 0x3C00, 0x7E00, 0), 0x3C00);
    assert_int_equal(apply(IR_ATOM_MIN, IR_T_F16, 0, 0x7E00, 0x7E01, 0), 0x7FFF);
    assert_int_equal(apply(IR_ATOM_MAX, IR_T_BF16, 0, 0x8000, 0x0000, 0), 0x0000);
    assert_int_equal(apply(IR_ATOM_MIN, IR_T_BF16, 0, 0x0000, 0x8000, 0), 0x8000);
    assert_int_equal(apply(IR_ATOM_MAX, IR_T_F16X2, 0, 0x3C00C000, 0x40004000, 0), 0x40004000);
}

static void test_unsupported(void **state)
{
    (void)state;
    static const struct { uint8_t op; ir_type type; } bad[] = {
        {IR_ATOM_INC, IR_T_U64}, {IR_ATOM_DEC, IR_T_S32}, {IR_ATOM_AND, IR_T_F32},
        {IR_ATOM_EXCH, IR_T_B16}, {IR_ATOM_ADD, IR_T_U16}, {IR_ATOM_MIN, IR_T_F32},
        {IR_ATOM_ADD, IR_T_B128}, {0, IR_T_U32}, {99, IR_T_U32},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int ok = -1;
        assert_false(alu_atom_supported(bad[i].op, bad[i].type));
        assert_int_equal(alu_atom_apply(bad[i].op, bad[i].type, 0, 1234, 5, 6, &ok), 1234);
        assert_int_equal(ok, 0);
        assert_int_equal(alu_atom_apply(bad[i].op, bad[i].type, 0, 1234, 5, 6, NULL), 1234);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitwise_cas_exch), cmocka_unit_test(test_inc_dec),
        cmocka_unit_test(test_add),              cmocka_unit_test(test_min_max),
        cmocka_unit_test(test_unsupported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

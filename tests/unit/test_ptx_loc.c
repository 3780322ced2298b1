/* .loc source attribution: instructions carry the line of the user's source that they came from,
 * including code inlined from headers (attributed to the inlining call site). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ptx/ptx.h"

static const char text[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"k.cu\"\n.file 2 \"hdr.hpp\"\n"
    ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
    ".loc 1 3 5\nmov.u32 %r1, 1;\n"
    ".loc 2 270 49, function_name $L__info_string0, inlined_at 1 7 9\nmov.u32 %r2, 2;\n"
    "mov.u32 %r3, 3;\n"
    ".loc 1 8 1\nret;\n}\n";

static void test_loc_and_inlined_at(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module("k.ptx", text, strlen(text), &dl);
    assert_non_null(m);
    const ir_func *f = &m->funcs[ir_module_find_func(m, "k")];
    assert_int_equal(f->ninsns, 4);
    assert_int_equal(f->insns[0].loc_file, 1);
    assert_int_equal(f->insns[0].loc_line, 3);
    /* inlined from hdr.hpp:270 at k.cu:7: the user's line wins, and stays until the next .loc */
    assert_int_equal(f->insns[1].loc_file, 1);
    assert_int_equal(f->insns[1].loc_line, 7);
    assert_int_equal(f->insns[2].loc_line, 7);
    assert_int_equal(f->insns[3].loc_line, 8);
    assert_string_equal(m->files[1], "k.cu");
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_loc_and_inlined_at)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

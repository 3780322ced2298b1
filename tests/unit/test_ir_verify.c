/* Unit tests for the IR verifier (src/ir/ir_verify.c): a hand-built module verifies clean, and
 * one precise corruption of it makes each rule IR-VERIFY-001..012 fire once, at the instruction's
 * line and column. Then every committed PTX file of the project (tests/, examples/, bench/) that
 * the front-end accepts verifies clean and prints, in every build (the front-end itself runs the
 * verifier only when NDEBUG is not defined). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "ir/ir_print.h"
#include "ir/ir_verify.h"
#include "ir_build.h"
#include "ptx/ptx.h"

/* The module every test corrupts:
 *   function 0 callee(.param b32 x) -> (.param b32 y): ret
 *   entry 1 k(.param u64 out):
 *     0 ld.param.u64 %rd0, [out]        4 add.u32 %r1, %r0, 100
 *     1 mov.u32 %r0, %tid.x             5 st.global.u32 [%rd0], %r1
 *     2 setp.lt.u32 %p0, %r0, 8         6 call.uni callee (%r0) -> (%r1)
 *     3 @%p0 bra 5                      7 ret
 * Instruction i of k is at line 10 + i, column 3 + i (ir_build.h). */
static ir_module *base_module(void)
{
    const ir_operand none = irb_opnd(IR_OPND_NONE);
    irb b;
    irb_module(&b);
    irb_func(&b, "callee", 0);
    irb_param_or_ret(&b, "x", IR_T_B32, 0);
    irb_param_or_ret(&b, "y", IR_T_B32, 1);
    irb_op(&b, IR_RET, IR_T_NONE);
    ir_func *k = irb_func(&b, "k", 1);
    uint32_t out = irb_param(&b, "out", IR_T_U64);
    uint32_t rd0 = irb_reg(&b, IR_T_U64, "%rd0"), r0 = irb_reg(&b, IR_T_U32, "%r0");
    uint32_t r1 = irb_reg(&b, IR_T_U32, "%r1"), p0 = irb_pred(&b, "%p0");
    irb_ld(&b, IR_SPACE_PARAM, IR_T_U64, irb_r(rd0), irb_addr_sym(out, 0));
    irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r0), irb_sreg(IR_SREG_TID_X), none, none);
    irb_alu(&b, IR_SETP, IR_T_U32, irb_p(p0), irb_r(r0), irb_imm(8), none)->cmp = IR_CMP_LT;
    irb_guard(irb_bra(&b, 5), p0, 0);
    irb_alu(&b, IR_ADD, IR_T_U32, irb_r(r1), irb_r(r0), irb_imm(100), none);
    irb_st(&b, IR_SPACE_GLOBAL, IR_T_U32, irb_addr_reg(rd0, 0), irb_r(r1));
    ir_insn *call = irb_src(irb_op(&b, IR_CALL, IR_T_NONE), 0, irb_func_ref(0));
    call->mods = IR_MOD_UNI;
    k->xops[0] = irb_r(r0);
    k->xops[1] = irb_r(r1);
    k->nxops = 2;
    call->xops_count = 1;
    call->xrets_first = 1;
    call->xrets_count = 1;
    irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    return b.m;
}

static ir_insn *insn_of_k(ir_module *m, uint32_t i) { return &m->funcs[1].insns[i]; }

/* ir_verify(m) reports exactly one problem: `rule` at (line, col), with `message` when given. */
static void expect_one(ir_module *m, const char *rule, unsigned line, unsigned col,
                       const char *message)
{
    diag_list dl;
    diag_list_init(&dl);
    size_t n = ir_verify(m, &dl);
    if (n != 1 || dl.count != 1 || strcmp(dl.items[0].rule, rule)) {
        diag_list_print(&dl, stderr);
        fail_msg("expected exactly one %s, got %zu problems", rule, n);
    }
    assert_string_equal(dl.items[0].file, "built.ir");
    assert_int_equal(dl.items[0].line, line);
    assert_int_equal(dl.items[0].col, col);
    if (message)
        assert_string_equal(dl.items[0].message, message);
    diag_list_fini(&dl);
    ir_module_destroy(m);
}

static void test_base_module_is_clean(void **state)
{
    (void)state;
    ir_module *m = base_module();
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(ir_verify(m, &dl), 0);
    assert_int_equal(dl.count, 0);
    diag_list_fini(&dl);
    ir_module_destroy(m);
}

static void test_001_encoding(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 4)->op = IR_OP_COUNT;
    expect_one(m, "IR-VERIFY-001", 14, 7, NULL);
    m = base_module();
    insn_of_k(m, 2)->cmp = IR_CMP_NAN + 1;
    expect_one(m, "IR-VERIFY-001", 12, 5, NULL);
    m = base_module();
    insn_of_k(m, 4)->type = IR_T_COUNT;
    expect_one(m, "IR-VERIFY-001", 14, 7, NULL);
}

static void test_002_operand_count(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 4)->src[1].kind = IR_OPND_NONE;
    expect_one(m, "IR-VERIFY-002", 14, 7,
               "IR of function 'k', instruction 4 (add): src[1] is missing: it must be register "
               "or immediate");
    m = base_module();
    insn_of_k(m, 4)->nsrc = 1; /* src[1] still set */
    expect_one(m, "IR-VERIFY-002", 14, 7, NULL);
    m = base_module();
    insn_of_k(m, 4)->nsrc = 3;
    insn_of_k(m, 4)->src[2] = irb_imm(1);
    expect_one(m, "IR-VERIFY-002", 14, 7,
               "IR of function 'k', instruction 4 (add): ndst 1 and nsrc 3; add has 1 destination "
               "and 2 source slots");
    m = base_module();
    insn_of_k(m, 5)->xops_count = 1; /* an operand list on st */
    expect_one(m, "IR-VERIFY-002", 15, 8, NULL);
}

static void test_003_operand_kind(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 4)->src[1] = irb_label(0);
    expect_one(m, "IR-VERIFY-003", 14, 7,
               "IR of function 'k', instruction 4 (add): src[1] is a label; it must be register "
               "or immediate");
    m = base_module();
    insn_of_k(m, 5)->src[0] = irb_r(0); /* st needs an address */
    expect_one(m, "IR-VERIFY-003", 15, 8, NULL);
}

static void test_004_register_numbers(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 4)->src[0].reg = 3;
    expect_one(m, "IR-VERIFY-004", 14, 7,
               "IR of function 'k', instruction 4 (add): src[0] uses register 3; the function "
               "has 3");
    m = base_module();
    insn_of_k(m, 3)->guard = 1;
    expect_one(m, "IR-VERIFY-004", 13, 6, NULL);
    m = base_module();
    insn_of_k(m, 5)->src[0].reg = 7; /* the address base */
    expect_one(m, "IR-VERIFY-004", 15, 8, NULL);
    m = base_module();
    m->funcs[1].reg_types[2] = IR_T_PRED;
    expect_one(m, "IR-VERIFY-004", 3, 1, NULL); /* the function's line */
}

static void test_005_branch_targets(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 3)->src[0].imm = 8;
    expect_one(m, "IR-VERIFY-005", 13, 6,
               "IR of function 'k', instruction 3 (bra): src[0] branches to instruction 8; the "
               "function has 8");
    m = base_module();
    insn_of_k(m, 3)->src[0].imm = -1;
    expect_one(m, "IR-VERIFY-005", 13, 6, NULL);
}

static void test_006_modifiers(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 4)->mods = IR_MOD_UNI;
    expect_one(m, "IR-VERIFY-006", 14, 7,
               "IR of function 'k', instruction 4 (add): modifier .uni is not one add may carry");
    m = base_module();
    insn_of_k(m, 5)->mods = IR_MOD_NOFTZ; /* atom's, not st's */
    expect_one(m, "IR-VERIFY-006", 15, 8, NULL);
}

static void test_007_sub_operations(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 4)->sub = IR_ATOM_ADD;
    expect_one(m, "IR-VERIFY-007", 14, 7,
               "IR of function 'k', instruction 4 (add): sub-operation 6 is not one of add's");
}

static void test_008_memory_attributes(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 5)->mem.space = IR_SPACE_NONE;
    expect_one(m, "IR-VERIFY-008", 15, 8, NULL);
    m = base_module();
    insn_of_k(m, 4)->mem.space = IR_SPACE_GLOBAL;
    expect_one(m, "IR-VERIFY-008", 14, 7,
               "IR of function 'k', instruction 4 (add): add has no memory attributes, but space "
               "is 2");
    m = base_module();
    insn_of_k(m, 0)->mem.has_policy = 1; /* no policy operand */
    expect_one(m, "IR-VERIFY-008", 10, 3, NULL);
    m = base_module();
    insn_of_k(m, 5)->mem.vec = 2; /* the value is a scalar */
    expect_one(m, "IR-VERIFY-008", 15, 8,
               "IR of function 'k', instruction 5 (st): vector width 2, but the data operand has "
               "1 element");
    m = base_module();
    insn_of_k(m, 5)->mem.elem_bytes = 8;
    expect_one(m, "IR-VERIFY-008", 15, 8, NULL);
    m = base_module();
    insn_of_k(m, 5)->mem.scope = 99;
    expect_one(m, "IR-VERIFY-008", 15, 8, NULL);
    /* Intel LSC attributes: cache controls only on an LSC memory instruction, a fence operation
     * only on an LSC fence */
    m = base_module();
    insn_of_k(m, 5)->mem.l1_ctl = IR_CC_WRITE_THROUGH; /* st without an SFID */
    expect_one(m, "IR-VERIFY-008", 15, 8,
               "IR of function 'k', instruction 5 (st): l1_ctl/l2_ctl are set, but st is not an "
               "LSC memory instruction");
    m = base_module();
    insn_of_k(m, 5)->mem.sfid = IR_SFID_UGM;
    insn_of_k(m, 5)->mem.fence_op = IR_FENCE_OP_CLEAN; /* on a store */
    expect_one(m, "IR-VERIFY-008", 15, 8,
               "IR of function 'k', instruction 5 (st): fence_op is set, but st is not an LSC "
               "fence (fence with sfid)");
    /* instruction 4 made an LSC fence: clean with its scope, flagged without one */
    m = base_module();
    ir_insn *f = insn_of_k(m, 4);
    uint32_t line = f->line, col = f->col, id = f->id;
    *f = (ir_insn){.op = IR_FENCE, .line = line, .col = col, .id = id,
                   .mem = {.sfid = IR_SFID_UGM, .fence_op = IR_FENCE_OP_EVICT,
                           .scope = IR_SCOPE_TILE}};
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(ir_verify(m, &dl), 0);
    diag_list_fini(&dl);
    f->mem.scope = IR_SCOPE_NONE;
    expect_one(m, "IR-VERIFY-008", 14, 7,
               "IR of function 'k', instruction 4 (fence): an LSC fence needs fence_op and scope");
}

static void test_009_calls(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 6)->xops_count = 0;
    expect_one(m, "IR-VERIFY-009", 16, 9,
               "IR of function 'k', instruction 6 (call): 0 arguments, the callee declares 1");
    m = base_module();
    m->funcs[0].has_callprototype = 1; /* a direct call to a prototype */
    m->funcs[0].ninsns = 0;
    m->ninsns_total = 8;
    for (uint32_t i = 0; i < 8; i++) insn_of_k(m, i)->id = i;
    expect_one(m, "IR-VERIFY-009", 16, 9, NULL);
    m = base_module();
    insn_of_k(m, 6)->xrets_first = 2; /* past the function's operand lists */
    expect_one(m, "IR-VERIFY-009", 16, 9, NULL);
    m = base_module();
    m->funcs[1].xops[0] = irb_label(0);
    expect_one(m, "IR-VERIFY-009", 16, 9, NULL);
}

static void test_010_symbols(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 0)->src[0].sym = IR_SYM_PARAM_BASE + 1; /* k has one parameter */
    expect_one(m, "IR-VERIFY-010", 10, 3, NULL);
    m = base_module();
    insn_of_k(m, 6)->src[0].sym = 2;
    expect_one(m, "IR-VERIFY-010", 16, 9,
               "IR of function 'k', instruction 6 (call): src[0] refers to function 2; the "
               "module has 2");
}

static void test_011_falls_off_the_end(void **state)
{
    (void)state;
    ir_module *m = base_module();
    irb_guard(insn_of_k(m, 7), 0, 1);
    expect_one(m, "IR-VERIFY-011", 17, 10, NULL);
}

static void test_012_instruction_ids(void **state)
{
    (void)state;
    ir_module *m = base_module();
    insn_of_k(m, 7)->id = insn_of_k(m, 6)->id;
    expect_one(m, "IR-VERIFY-012", 3, 1, NULL); /* at the function */
    m = base_module();
    m->ninsns_total++;
    expect_one(m, "IR-VERIFY-012", 0, 0,
               "IR of the module: the functions have 9 instructions besides glue, "
               "ninsns_total says 10");
    m = base_module();
    insn_of_k(m, 0)->id = 0; /* callee's ret has id 0 too: k's ids stop being consecutive */
    expect_one(m, "IR-VERIFY-012", 3, 1, NULL);
}

/* PTX lets control reach a body's closing brace (ptxas accepts a label at the brace and no
 * ret). The front-end used to lower such a body so that the executor read past the function's
 * code (a crash in release builds, IR-VERIFY-005/011 in debug builds); it now ends the body with
 * an explicit exit (entry) or ret (function) at the brace, and the result verifies clean. */
static void test_front_end_ends_bodies_explicitly(void **state)
{
    (void)state;
    static const char text[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                               ".visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n"
                               "mov.u32 %r1, 1;\nsetp.eq.u32 %p1, %r1, 1;\n@%p1 bra $END;\n"
                               "add.u32 %r1, %r1, 1;\n$END:\n}\n"
                               ".func f()\n{\n}\n";
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module("noret.ptx", text, sizeof text - 1, &dl);
    assert_non_null(m);
    assert_int_equal(dl.count, 0);
    int k = ir_module_find_func(m, "k"), f = ir_module_find_func(m, "f");
    assert_true(k >= 0 && f >= 0);
    const ir_func *fk = &m->funcs[k], *ff = &m->funcs[f];
    assert_int_equal(fk->ninsns, 5);
    assert_int_equal(fk->insns[4].op, IR_EXIT);
    assert_int_equal(fk->insns[4].line, 13);
    assert_int_equal(fk->insns[4].col, 1);
    assert_int_equal(fk->insns[2].src[0].imm, 4); /* bra $END reaches the exit */
    assert_int_equal(ff->ninsns, 1);
    assert_int_equal(ff->insns[0].op, IR_RET);
    assert_int_equal(ir_verify(m, &dl), 0);
    assert_int_equal(dl.count, 0);
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

/* ---- every committed kernel ---- */
typedef struct corpus {
    unsigned files, accepted, shipped, shipped_accepted;
} corpus;

static int is_shipped(const char *path)
{
    static const char *const dirs[] = {"/tests/kernels/", "/tests/hints/", "/examples/",
                                       "/bench/kernels/"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (strstr(path + strlen(GMS_SOURCE_DIR), dirs[i]) == path + strlen(GMS_SOURCE_DIR))
            return 1;
    return 0;
}

static void check_file(corpus *c, const char *path)
{
    size_t len;
    file_error e;
    char *text = file_read_all(path, 64u << 20, &len, &e);
    assert_non_null(text);
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module(path, text, len, &dl);
    for (size_t i = 0; i < dl.count; i++)
        if (!strncmp(dl.items[i].rule, "IR-VERIFY-", 10)) {
            diag_list_print(&dl, stderr);
            fail_msg("%s: the front-end produced IR that does not verify", path);
        }
    c->files++;
    c->shipped += is_shipped(path);
    if (m) {
        c->accepted++;
        c->shipped_accepted += is_shipped(path);
        if (ir_verify(m, &dl) != 0) {
            diag_list_print(&dl, stderr);
            fail_msg("%s does not verify", path);
        }
        FILE *null = fopen("/dev/null", "w");
        assert_non_null(null);
        assert_int_equal(ir_print_module(null, m), 0);
        fclose(null);
    } else if (is_shipped(path)) {
        diag_list_print(&dl, stderr);
        fail_msg("%s is shipped but does not parse", path);
    }
    ir_module_destroy(m);
    diag_list_fini(&dl);
    free(text);
}

static void walk(corpus *c, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        size_t n = strlen(e->d_name);
        if (S_ISDIR(st.st_mode))
            walk(c, path);
        else if (S_ISREG(st.st_mode) && n > 4 && !strcmp(e->d_name + n - 4, ".ptx"))
            check_file(c, path);
    }
    closedir(d);
}

static void test_every_committed_kernel_verifies(void **state)
{
    (void)state;
    corpus c = {0, 0, 0, 0};
    walk(&c, GMS_SOURCE_DIR "/tests");
    walk(&c, GMS_SOURCE_DIR "/examples");
    walk(&c, GMS_SOURCE_DIR "/bench");
    /* the shipped kernels all parse (tests/kernels, tests/hints, examples, bench), and they are
     * many: a walk that found nothing must not pass */
    assert_int_equal(c.shipped_accepted, c.shipped);
    assert_true(c.shipped >= 79);
    assert_true(c.accepted > c.shipped);
    printf("verified %u of %u PTX files (%u shipped kernels)\n", c.accepted, c.files, c.shipped);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_module_is_clean),
        cmocka_unit_test(test_001_encoding),
        cmocka_unit_test(test_002_operand_count),
        cmocka_unit_test(test_003_operand_kind),
        cmocka_unit_test(test_004_register_numbers),
        cmocka_unit_test(test_005_branch_targets),
        cmocka_unit_test(test_006_modifiers),
        cmocka_unit_test(test_007_sub_operations),
        cmocka_unit_test(test_008_memory_attributes),
        cmocka_unit_test(test_009_calls),
        cmocka_unit_test(test_010_symbols),
        cmocka_unit_test(test_011_falls_off_the_end),
        cmocka_unit_test(test_012_instruction_ids),
        cmocka_unit_test(test_front_end_ends_bodies_explicitly),
        cmocka_unit_test(test_every_committed_kernel_verifies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

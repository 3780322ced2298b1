/* Diagnostics of the PTX front-end: every module in tests/ptx_bad/ must fail with the rule and
 * position its first line names; every rule of the table has such a module; a module with several
 * errors reports all of them; and chosen messages read exactly as documented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void check_bad_module(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    char rule[64];
    unsigned line, col;
    assert_int_equal(sscanf(text, "// expect: %63s %u:%u", rule, &line, &col), 3);
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module(path, text, len, &dl);
    assert_null(m);
    const diag *d = diag_find(&dl, rule);
    if (!d || d->line != line || d->col != col) {
        fprintf(stderr, "%s: expected %s at %u:%u\n", path, rule, line, col);
        diag_list_print(&dl, stderr);
    }
    assert_non_null(d);
    assert_int_equal(d->line, line);
    assert_int_equal(d->col, col);
    assert_int_equal(d->severity, DIAG_ERROR);
    diag_list_fini(&dl);
    free(text);
}

static void test_every_bad_module(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/ptx_bad", GMS_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int seen = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx"))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        check_bad_module(path);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 40);
}

static void test_every_rule_has_a_bad_module(void **state)
{
    (void)state;
    const frontend_rule *rules = ptx_dialect.rules;
    assert_true(ptx_dialect.nrules > 30);
    for (size_t i = 0; i < ptx_dialect.nrules; i++) {
        const char *id = rules[i].id;
        assert_non_null(rules[i].summary);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(id, rules[j].id);
        if (!strcmp(id, "PTX-LIMIT-002"))
            continue; /* out of memory cannot be provoked by a module */
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/ptx_bad/%s.ptx", GMS_SOURCE_DIR, id);
        FILE *f = fopen(path, "rb");
        if (!f)
            fprintf(stderr, "missing %s\n", path);
        assert_non_null(f);
        fclose(f);
    }
}

static void test_recovery_reports_all_errors(void **state)
{
    (void)state;
    const char *text = ".version 9.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
                       " add.s32 %r1, %r2;\n"
                       " frob.b32 %r1;\n"
                       " mov.b32 %r1, %q7;\n"
                       " mov.b32 %r1 %r2;\n"
                       " ret;\n}\n"
                       ".global .align 3 .u32 g;\n";
    diag_list dl;
    diag_list_init(&dl);
    assert_null(ptx_parse_module("r.ptx", text, strlen(text), &dl));
    assert_int_equal(dl.errors, 5);
    assert_string_equal(dl.items[0].rule, "PTX-OPND-001");
    assert_int_equal(dl.items[0].line, 7);
    assert_string_equal(dl.items[1].rule, "PTX-INSN-001");
    assert_string_equal(dl.items[2].rule, "PTX-SYM-001");
    assert_int_equal(dl.items[2].col, 15);
    assert_string_equal(dl.items[3].rule, "PTX-PARSE-001");
    assert_string_equal(dl.items[4].rule, "PTX-DECL-001");
    diag_list_fini(&dl);
}

/* Parses a module and requires exactly the given diagnostics, as "RULE line:col" strings. */
static void expect_only(const char *text, size_t n, const char *const *want)
{
    diag_list dl;
    diag_list_init(&dl);
    assert_null(ptx_parse_module("l.ptx", text, strlen(text), &dl));
    if (dl.count != n)
        diag_list_print(&dl, stderr);
    assert_int_equal(dl.count, n);
    for (size_t i = 0; i < n; i++) {
        char got[96];
        snprintf(got, sizeof got, "%s %u:%u", dl.items[i].rule, dl.items[i].line,
                 dl.items[i].col);
        assert_string_equal(got, want[i]);
    }
    diag_list_fini(&dl);
}

/* A limit error ends its function body or module-level statement without follow-on errors;
 * the next function is checked again (its undeclared %x is reported). */
static void test_limit_error_has_no_follow_on_errors(void **state)
{
    (void)state;
    static const char next[] = ".visible .entry k2()\n{\n .reg .b32 %r<3>;\n"
                               " mov.u32 %r1, %x;\n ret;\n}\n";
    char text[4096];
    /* in a kernel's parameter list: the body of k is skipped */
    snprintf(text, sizeof text, ".version 9.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u32 p[1][1][1][1][1][1][1][1][1], .param .u32 q)\n"
             "{\n .reg .b32 %%r<3>;\n ld.param.u32 %%r1, [q];\n ret;\n}\n%s", next);
    expect_only(text, 2, (const char *const[]){"PTX-LIMIT-001 4:56", "PTX-SYM-001 13:15"});
    /* 205 nested blocks (the 200th in column 200 opens depth 201) and an undeclared %y after
     * them in the same body */
    int at = snprintf(text, sizeof text, ".version 9.0\n.target sm_80\n.address_size 64\n"
                      ".visible .entry k()\n{\n .reg .b32 %%r<3>;\n");
    for (int i = 0; i < 205; i++) at += snprintf(text + at, sizeof text - (size_t)at, "{");
    at += snprintf(text + at, sizeof text - (size_t)at, "\n mov.u32 %%r1, 1;\n");
    for (int i = 0; i < 205; i++) at += snprintf(text + at, sizeof text - (size_t)at, "}");
    snprintf(text + at, sizeof text - (size_t)at, "\n mov.u32 %%r1, %%y;\n ret;\n}\n%s", next);
    expect_only(text, 2, (const char *const[]){"PTX-LIMIT-001 7:200", "PTX-SYM-001 16:15"});
    /* a declaration-only function and a module variable used later */
    snprintf(text, sizeof text, ".version 9.0\n.target sm_80\n.address_size 64\n"
             ".func f(.param .u32 p[1][1][1][1][1][1][1][1][1]);\n"
             ".global .u32 g[1][1][1][1][1][1][1][1][1] = {1};\n"
             ".visible .entry k()\n{\n .reg .b64 %%rd<3>;\n mov.u64 %%rd1, g;\n ret;\n}\n%s",
             next);
    expect_only(text, 3, (const char *const[]){"PTX-LIMIT-001 4:46", "PTX-LIMIT-001 5:39",
                                               "PTX-SYM-001 15:15"});
}

static void expect_message(const char *body, const char *target, const char *rule,
                           const char *message)
{
    char text[2048];
    snprintf(text, sizeof text,
             ".version 9.0\n.target %s\n.address_size 64\n.visible .entry k()\n{\n"
             " .reg .b32 %%r<3>;\n .reg .b64 %%rd<3>;\n%s\n ret;\n}\n",
             target, body);
    diag_list dl;
    diag_list_init(&dl);
    assert_null(ptx_parse_module("m.ptx", text, strlen(text), &dl));
    const diag *d = diag_find(&dl, rule);
    if (!d)
        diag_list_print(&dl, stderr);
    assert_non_null(d);
    assert_string_equal(d->message, message);
    diag_list_fini(&dl);
}

static void test_message_texts(void **state)
{
    (void)state;
    expect_message(" wgmma.fence.sync.aligned;", "sm_90", "PTX-UNSUP-001",
                   "'wgmma.fence.sync.aligned': the wgmma family is not modelled by gpumemsim");
    expect_message(" wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1];", "sm_80",
                   "PTX-MMA-003",
                   "'wmma.load.a.sync.aligned.row.m16n16k16.f16': a vector of 8 32-bit registers "
                   "is expected here");
    expect_message(" mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1}, {%r1}, {%r1}, "
                   "{%r1}, %r1, 0;", "sm_80", "PTX-UNSUP-002",
                   "'mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32': sparse mma (mma.sp) "
                   "is not modelled by gpumemsim");
    expect_message(" ld.global.L2::evict_last.u32 %r1, [%rd1];", "sm_90", "PTX-ARCH-011",
                   ".L2::evict_last requires sm_100 or later (target is sm_90)");
    expect_message(" ld.relaxed.gpu.global.cg.u32 %r1, [%rd1];", "sm_80", "PTX-CACHEOP-001",
                   "'ld.relaxed.gpu.global.cg.u32': a cache operator cannot be combined with "
                   ".relaxed, .acquire, .release, .volatile or .mmio");
    expect_message(" add.f32 %r1, %rd1, %r2;", "sm_80", "PTX-TYPE-002",
                   "register '%rd1' of type .b64 does not fit instruction type .f32");
    expect_message(" mbarrier.arrive.acquire.cta.shared.b64 %rd1, [%rd2];", "sm_90",
                   "PTX-MBAR-001", "'mbarrier.arrive.acquire.cta.shared.b64': this ordering does "
                   "not apply to this mbarrier operation (arrivals: .release or .relaxed; waits: "
                   ".acquire or .relaxed; expect_tx and complete_tx: .relaxed)");
    expect_message(" mbarrier.arrive.shared::cluster.b64 %rd1, [%r1];", "sm_90", "PTX-MBAR-002",
                   "'mbarrier.arrive.shared::cluster.b64': the .shared::cluster form returns no "
                   "state: its destination must be '_'");
    expect_message(" .reg .pred %p<2>;\n mbarrier.try_wait.shared.b64 %p1, [%rd1], %rd2;",
                   "sm_80", "PTX-ARCH-001",
                   "mbarrier.try_wait requires sm_90 or later (target is sm_80)");
    expect_message(" cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%r1], [%rd1, {%r1, %r2}], [%r2];", "sm_90", "PTX-BULK-001",
                   "'cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::"
                   "bytes': .im2col is not modelled by gpumemsim (only the .tile mode is)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bad_module),
        cmocka_unit_test(test_every_rule_has_a_bad_module),
        cmocka_unit_test(test_recovery_reports_all_errors),
        cmocka_unit_test(test_limit_error_has_no_follow_on_errors),
        cmocka_unit_test(test_message_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

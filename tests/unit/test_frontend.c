/* Unit tests for the dialect registry (src/frontend/frontend.h): lookups by suffix and by name,
 * registration and its errors, the descriptions used in messages, every built-in dialect's rule
 * table (well-formed, unique, documented in its page) and listing; and, with a second, fake
 * dialect registered here, that the simulation layer chooses front-ends only through the
 * registry (sim_parse_module_in): a `.fake` file is parsed by the fake dialect's parser, a
 * dialect name overrides the suffix, and unknown suffixes and names get SIM-DIALECT-001 and
 * SIM-DIALECT-002 naming the registered dialects. A launch file's "dialect" is tested through
 * the command line (tests/cli.cmake, module_named_dialect). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/frontend.h"
#include "ptx/ptx.h"
#include "sass/sass.h"
#include "visa/visa.h"
#include "sim/sim.h"

/* ---- a fake dialect: PTX text under another name, counting its calls ---- */
typedef struct fake_log {
    int parses;
    char last_path[512];
} fake_log;

/* The parse function has no user pointer (a dialect keeps no state), so the test's log is the
 * one mutable global of this file. */
static fake_log fake_calls;

static ir_module *fake_parse(const char *path, const char *text, size_t len, diag_list *dl)
{
    fake_calls.parses++;
    snprintf(fake_calls.last_path, sizeof fake_calls.last_path, "%s", path);
    if (len >= 5 && memcmp(text, "BAD\n", 4) == 0) {
        diag_add(dl, DIAG_ERROR, "FAKE-PARSE-001", path, 1, 1, "the fake dialect refuses this");
        return NULL;
    }
    return ptx_parse_module(path, text, len, dl);
}

static void fake_list_ops(frontend_line_fn emit, void *user)
{
    emit(user, "NOP  does nothing");
    emit(user, "LD   loads");
}

static const frontend_rule fake_rules[] = {{"FAKE-PARSE-001", "the fake dialect refuses a file"}};
static const char *const fake_suffixes[] = {".fake", ".fk", NULL};
static const frontend_dialect fake_dialect = {
    .name = "fake",
    .title = "FAKE",
    .suffixes = fake_suffixes,
    .doc = NULL,
    .parse = fake_parse,
    .list_ops = fake_list_ops,
    .rules = fake_rules,
    .nrules = 1,
};

static frontend_registry with_fake(void)
{
    frontend_registry r = *frontend_builtin();
    assert_int_equal(frontend_register(&r, &fake_dialect), FRONTEND_OK);
    return r;
}

/* ---- lookups ---- */
static void test_builtin_lookup(void **state)
{
    (void)state;
    const frontend_registry *r = frontend_builtin();
    assert_true(r->count >= 1);
    assert_ptr_equal(frontend_find(r, "ptx"), &ptx_dialect);
    assert_null(frontend_find(r, "PTX")); /* names are exact */
    assert_null(frontend_find(r, "fake"));
    assert_null(frontend_find(r, NULL));
    assert_ptr_equal(frontend_for_path(r, "k.ptx"), &ptx_dialect);
    assert_ptr_equal(frontend_for_path(r, "dir.x/saxpy.sm_80.ptx"), &ptx_dialect);
    assert_ptr_equal(frontend_for_path(r, ".ptx"), &ptx_dialect);
    assert_null(frontend_for_path(r, "k.PTX")); /* suffixes are case-sensitive */
    assert_null(frontend_for_path(r, "k.ptx.bak"));
    assert_null(frontend_for_path(r, "kptx"));
    assert_null(frontend_for_path(r, "k.cu"));
    assert_null(frontend_for_path(r, ""));
    /* a name decides alone: the suffix is not looked at */
    assert_ptr_equal(frontend_choose(r, "k.cu", "ptx"), &ptx_dialect);
    assert_ptr_equal(frontend_choose(r, "k.ptx", "sass"), &sass_dialect);
    assert_ptr_equal(frontend_choose(r, "k.ptx", "visa"), &visa_dialect);
    assert_ptr_equal(frontend_for_path(r, "k.visaasm"), &visa_dialect);
    assert_null(frontend_choose(r, "k.ptx", "vISA")); /* names are case-sensitive */
    assert_ptr_equal(frontend_for_path(r, "k.sass"), &sass_dialect);
    assert_ptr_equal(frontend_find(r, "sass"), &sass_dialect);
    assert_ptr_equal(frontend_choose(r, "k.ptx", NULL), &ptx_dialect);
    assert_null(frontend_choose(r, "k.fake", NULL));
}

static void test_register_and_its_errors(void **state)
{
    (void)state;
    frontend_registry r = with_fake();
    assert_int_equal(r.count, frontend_builtin()->count + 1);
    assert_ptr_equal(frontend_find(&r, "fake"), &fake_dialect);
    assert_ptr_equal(frontend_for_path(&r, "a/b.fk"), &fake_dialect);
    assert_ptr_equal(frontend_for_path(&r, "b.ptx"), &ptx_dialect);
    assert_null(frontend_find(frontend_builtin(), "fake")); /* the built-in one is untouched */

    frontend_registry before = r;
    assert_int_equal(frontend_register(&r, &fake_dialect), FRONTEND_DUPLICATE);
    static const char *const clash_suffixes[] = {".x", ".ptx", NULL};
    frontend_dialect clash = fake_dialect;
    clash.name = "other";
    clash.suffixes = clash_suffixes;
    assert_int_equal(frontend_register(&r, &clash), FRONTEND_DUPLICATE);
    static const char *const no_dot[] = {"fake2", NULL};
    static const char *const only_dot[] = {".", NULL};
    static const char *const none[] = {NULL};
    frontend_dialect bad = fake_dialect;
    bad.name = "bad";
    bad.suffixes = no_dot;
    assert_int_equal(frontend_register(&r, &bad), FRONTEND_INVALID);
    bad.suffixes = only_dot;
    assert_int_equal(frontend_register(&r, &bad), FRONTEND_INVALID);
    bad.suffixes = none;
    assert_int_equal(frontend_register(&r, &bad), FRONTEND_INVALID);
    bad = fake_dialect;
    bad.name = "bad";
    bad.parse = NULL;
    assert_int_equal(frontend_register(&r, &bad), FRONTEND_INVALID);
    bad.parse = fake_parse;
    bad.name = "";
    assert_int_equal(frontend_register(&r, &bad), FRONTEND_INVALID);
    assert_int_equal(frontend_register(&r, NULL), FRONTEND_INVALID);
    assert_memory_equal(&r, &before, sizeof r); /* errors change nothing */

    /* fill the registry: one more is FRONTEND_FULL */
    static char names[FRONTEND_MAX_DIALECTS][8], suffixes[FRONTEND_MAX_DIALECTS][8];
    static const char *lists[FRONTEND_MAX_DIALECTS][2];
    static frontend_dialect more[FRONTEND_MAX_DIALECTS];
    for (size_t i = 0; i < FRONTEND_MAX_DIALECTS; i++) {
        snprintf(names[i], sizeof names[i], "d%zu", i);
        snprintf(suffixes[i], sizeof suffixes[i], ".d%zu", i);
        lists[i][0] = suffixes[i];
        lists[i][1] = NULL;
        more[i] = fake_dialect;
        more[i].name = names[i];
        more[i].suffixes = lists[i];
        frontend_status want = r.count < FRONTEND_MAX_DIALECTS ? FRONTEND_OK : FRONTEND_FULL;
        assert_int_equal(frontend_register(&r, &more[i]), want);
    }
    assert_int_equal(r.count, FRONTEND_MAX_DIALECTS);
}

static void test_longest_suffix_wins(void **state)
{
    (void)state;
    static const char *const sfx[] = {".fake.ptx", NULL};
    frontend_dialect longer = fake_dialect;
    longer.name = "fakeptx";
    longer.suffixes = sfx;
    frontend_registry r = *frontend_builtin();
    assert_int_equal(frontend_register(&r, &longer), FRONTEND_OK);
    assert_ptr_equal(frontend_for_path(&r, "k.fake.ptx"), &longer);
    assert_ptr_equal(frontend_for_path(&r, "k.ptx"), &ptx_dialect);
}

static void test_descriptions(void **state)
{
    (void)state;
    char buf[256];
    assert_string_equal(frontend_describe_files(frontend_builtin(), buf, sizeof buf),
                        "PTX files (.ptx), SASS files (.sass), vISA files (.visaasm)");
    assert_string_equal(frontend_describe_names(frontend_builtin(), buf, sizeof buf),
                        "ptx, sass, visa");
    frontend_registry r = with_fake();
    assert_string_equal(frontend_describe_files(&r, buf, sizeof buf),
                        "PTX files (.ptx), SASS files (.sass), vISA files (.visaasm), FAKE files (.fake, .fk)");
    assert_string_equal(frontend_describe_names(&r, buf, sizeof buf), "ptx, sass, visa, fake");
    char small[10];
    assert_string_equal(frontend_describe_files(&r, small, sizeof small), "PTX files");
    frontend_registry empty = {{NULL}, 0};
    assert_string_equal(frontend_describe_names(&empty, buf, sizeof buf), "");
}

/* ---- the built-in dialects' tables ---- */
static int well_formed_rule_id(const char *id)
{
    /* FAMILY-GROUP-NNN: capitals, capitals and digits, three digits */
    const char *p = id;
    while (isupper((unsigned char)*p))
        p++;
    if (p == id || *p++ != '-')
        return 0;
    const char *g = p;
    while (isupper((unsigned char)*p) || isdigit((unsigned char)*p))
        p++;
    if (p == g || *p++ != '-')
        return 0;
    return isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) &&
           isdigit((unsigned char)p[2]) && !p[3];
}

static char *read_doc(const char *doc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", GMS_SOURCE_DIR, doc);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc((size_t)n + 1, 1);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return text;
}

static void count_line(void *user, const char *line)
{
    size_t *n = user;
    assert_null(strchr(line, '\n'));
    assert_true(line[0] != '\0');
    (*n)++;
}

static void test_builtin_rules_are_documented(void **state)
{
    (void)state;
    const frontend_registry *r = frontend_builtin();
    for (size_t i = 0; i < r->count; i++) {
        const frontend_dialect *d = r->dialects[i];
        assert_non_null(d->doc);
        assert_true(d->nrules > 0);
        char *doc = read_doc(d->doc);
        char prefix[16];
        snprintf(prefix, sizeof prefix, "%s-", d->name);
        for (char *c = prefix; *c; c++)
            *c = (char)toupper((unsigned char)*c);
        for (size_t k = 0; k < d->nrules; k++) {
            const char *id = d->rules[k].id;
            assert_true(well_formed_rule_id(id));
            assert_true(strncmp(id, prefix, strlen(prefix)) == 0); /* PTX-*: the dialect's own */
            assert_non_null(d->rules[k].summary);
            assert_true(d->rules[k].summary[0] != '\0');
            assert_null(strchr(d->rules[k].summary, '\n')); /* one line */
            for (size_t j = 0; j < k; j++)
                assert_string_not_equal(id, d->rules[j].id);
            char quoted[64];
            snprintf(quoted, sizeof quoted, "`%s`", id);
            if (!strstr(doc, quoted))
                fprintf(stderr, "%s does not document %s\n", d->doc, id);
            assert_non_null(strstr(doc, quoted));
        }
        free(doc);
        size_t lines = 0;
        d->list_ops(count_line, &lines);
        /* every instruction row at least; vISA lists its ALU table (LSC rows come later) */
        assert_true(lines > (strcmp(d->name, "visa") == 0 ? 40u : 100u));
    }
}

/* ---- the simulator chooses through the registry ---- */
static char scratch[512];

static void scratch_file(char *path, size_t size, const char *name, const char *text, size_t len)
{
    snprintf(path, size, "%s/%s", scratch, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static char *saxpy_text(size_t *len)
{
    char *text = read_doc("examples/saxpy/saxpy.ptx");
    *len = strlen(text);
    return text;
}

static const char *only_diag(const diag_list *dl, char *buf, size_t size)
{
    if (dl->count != 1)
        diag_list_print(dl, stderr);
    assert_int_equal(dl->count, 1);
    diag_format(&dl->items[0], buf, size);
    return buf;
}

/* Reads `path` and parses it as the simulation layer does, choosing the front-end from `reg`
 * (NULL: the built-in dialects) by `dialect` or by the suffix. Returns 0 when a module came out. */
static int check_with(const frontend_registry *reg, const char *path, const char *dialect,
                      diag_list *dl)
{
    size_t len;
    char *text = sim_read_module(path, NULL, &len, dl);
    if (!text)
        return 1;
    ir_module *m = sim_parse_module_in(reg, path, text, len, dialect, dl);
    free(text);
    if (!m)
        return 1;
    ir_module_destroy(m);
    return 0;
}

static void test_check_chooses_by_suffix_and_name(void **state)
{
    (void)state;
    size_t len;
    char *text = saxpy_text(&len);
    char fake_path[600], ptx_path[600], cu_path[600], buf[1024];
    scratch_file(fake_path, sizeof fake_path, "k.fake", text, len);
    scratch_file(ptx_path, sizeof ptx_path, "k.ptx", text, len);
    scratch_file(cu_path, sizeof cu_path, "k.cu", text, len);
    frontend_registry reg = with_fake();
    const char *dialect = NULL;
    diag_list dl;

    memset(&fake_calls, 0, sizeof fake_calls);
    diag_list_init(&dl);
    assert_int_equal(check_with(&reg, fake_path, dialect, &dl), 0);
    assert_int_equal(dl.count, 0);
    assert_int_equal(fake_calls.parses, 1);
    assert_string_equal(fake_calls.last_path, fake_path);
    assert_int_equal(check_with(&reg, ptx_path, dialect, &dl), 0); /* PTX: not the fake */
    assert_int_equal(fake_calls.parses, 1);
    dialect = "fake"; /* a name beats the suffix */
    assert_int_equal(check_with(&reg, ptx_path, dialect, &dl), 0);
    assert_int_equal(fake_calls.parses, 2);
    dialect = "ptx";
    assert_int_equal(check_with(&reg, fake_path, dialect, &dl), 0);
    assert_int_equal(fake_calls.parses, 2);
    diag_list_fini(&dl);

    /* unknown suffix: the message lists every registered dialect */
    dialect = NULL;
    diag_list_init(&dl);
    assert_int_equal(check_with(&reg, cu_path, dialect, &dl), 1);
    char want[1024];
    snprintf(want, sizeof want, "%s: error: unknown kernel dialect: gpumemsim reads PTX files "
             "(.ptx), SASS files (.sass), vISA files (.visaasm), FAKE files (.fake, .fk) [SIM-DIALECT-001]", cu_path);
    assert_string_equal(only_diag(&dl, buf, sizeof buf), want);
    diag_list_fini(&dl);
    /* the built-in registry does not know .fake */
    diag_list_init(&dl);
    assert_int_equal(check_with(NULL, fake_path, NULL, &dl), 1);
    snprintf(want, sizeof want, "%s: error: unknown kernel dialect: gpumemsim reads PTX files "
             "(.ptx), SASS files (.sass), vISA files (.visaasm) [SIM-DIALECT-001]", fake_path);
    assert_string_equal(only_diag(&dl, buf, sizeof buf), want);
    diag_list_fini(&dl);
    /* unknown name */
    dialect = "spirv";
    diag_list_init(&dl);
    assert_int_equal(check_with(&reg, ptx_path, dialect, &dl), 1);
    snprintf(want, sizeof want, "%s: error: unknown kernel dialect \"spirv\"; the dialects are: "
             "ptx, sass, visa, fake [SIM-DIALECT-002]", ptx_path);
    assert_string_equal(only_diag(&dl, buf, sizeof buf), want);
    diag_list_fini(&dl);
    /* the dialect's own diagnostics come through */
    char bad_path[600];
    scratch_file(bad_path, sizeof bad_path, "bad.fk", "BAD\nx\n", 6);
    dialect = NULL;
    diag_list_init(&dl);
    assert_int_equal(check_with(&reg, bad_path, dialect, &dl), 1);
    snprintf(want, sizeof want, "%s:1:1: error: the fake dialect refuses this [FAKE-PARSE-001]",
             bad_path);
    assert_string_equal(only_diag(&dl, buf, sizeof buf), want);
    diag_list_fini(&dl);
    free(text);
}

static int make_scratch(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/gms_frontend_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(scratch) ? 0 : -1;
}

static int remove_scratch(void **state)
{
    (void)state;
    static const char *const names[] = {"k.fake", "k.ptx", "k.cu", "bad.fk", "s.fake", "s.ptx",
                                        "s.txt", "ptx.json", "fake.json", "named.json",
                                        "bad.json"};
    char path[600];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", scratch, names[i]);
        unlink(path);
    }
    return rmdir(scratch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_lookup),
        cmocka_unit_test(test_register_and_its_errors),
        cmocka_unit_test(test_longest_suffix_wins),
        cmocka_unit_test(test_descriptions),
        cmocka_unit_test(test_builtin_rules_are_documented),
        cmocka_unit_test(test_check_chooses_by_suffix_and_name),
    };
    return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}

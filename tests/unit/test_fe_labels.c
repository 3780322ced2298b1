/* Unit tests for the front-ends' labels (src/frontend/fe_labels.h): labels used before they are
 * defined, resolution at the end of a function, "undefined label" reported once at the first
 * mention, redefinition, label lists (jump tables), excused references, and a new function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "frontend/fe_labels.h"

/* What the resolver wrote: target per (instruction, slot), slot -1..3 of up to 8 instructions. */
typedef struct patched {
    int64_t target[8][5];
    int calls;
} patched;

static void patch(void *user, const fe_label_ref *r, uint32_t target)
{
    patched *p = user;
    p->target[r->insn][r->slot + 1] = target;
    p->calls++;
}

static bool excuse_lists(void *user, const fe_label *l, const fe_label_ref *r)
{
    (void)user;
    return l->list_first >= 0 && r->slot < 0;
}

static int32_t get(fe_labels *ls, const char *name, uint32_t line, uint32_t col)
{
    return fe_labels_get(ls, name, (uint32_t)strlen(name), line, col);
}

typedef struct fixture {
    fe_token eof;
    diag_list dl;
    fe_cursor c;
    fe_labels ls;
    patched p;
} fixture;

static void setup(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->eof.kind = FE_TOK_EOF;
    diag_list_init(&f->dl);
    fe_cursor_init(&f->c, &f->eof, 1, "k.s", &f->dl, "TST-SYNTAX-001");
    fe_labels_init(&f->ls);
    memset(f->p.target, 0xFF, sizeof f->p.target);
}

static void teardown(fixture *f)
{
    fe_labels_fini(&f->ls);
    diag_list_fini(&f->dl);
}

static void resolve(fixture *f, bool with_excuse)
{
    fe_label_resolver r = {patch, with_excuse ? excuse_lists : NULL, &f->p};
    fe_labels_resolve(&f->ls, &f->c, "TST-LABEL-001", &r);
}

static void test_forward_references_resolve(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    int32_t done = get(&f.ls, "$done", 3, 9); /* `bra $done;` at instruction 0 */
    assert_int_equal(fe_labels_add_ref(&f.ls, done, 0, -1), 0);
    int32_t top = get(&f.ls, "top", 4, 1);
    assert_int_equal(fe_labels_define(&f.ls, top, 1, 4, 1), 0);
    assert_int_equal(fe_labels_add_ref(&f.ls, top, 2, 0), 0); /* backward */
    assert_int_equal(get(&f.ls, "$done", 9, 1), done);        /* the same label */
    assert_int_equal(fe_labels_define(&f.ls, done, 3, 9, 1), 0);
    assert_int_equal(fe_labels_at(&f.ls, done)->line, 9); /* now where it is defined */
    resolve(&f, false);
    assert_int_equal(f.dl.count, 0);
    assert_int_equal(f.p.calls, 2);
    assert_int_equal(f.p.target[0][0], 3);
    assert_int_equal(f.p.target[2][1], 1);
    teardown(&f);
}

static void test_undefined_label_reported_once_at_first_mention(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    int32_t miss = get(&f.ls, "$L__BB0_7", 12, 13);
    fe_labels_add_ref(&f.ls, miss, 0, -1);
    int32_t ok = get(&f.ls, "ok", 13, 1);
    fe_labels_define(&f.ls, ok, 1, 13, 1);
    fe_labels_add_ref(&f.ls, ok, 1, -1);
    fe_labels_add_ref(&f.ls, get(&f.ls, "$L__BB0_7", 20, 5), 4, 2);
    fe_labels_add_ref(&f.ls, get(&f.ls, "other", 21, 8), 5, -1);
    resolve(&f, false);
    assert_int_equal(f.dl.count, 2);
    char buf[256];
    diag_format(&f.dl.items[0], buf, sizeof buf);
    assert_string_equal(buf, "k.s:12:13: error: undefined label '$L__BB0_7' [TST-LABEL-001]");
    diag_format(&f.dl.items[1], buf, sizeof buf);
    assert_string_equal(buf, "k.s:21:8: error: undefined label 'other' [TST-LABEL-001]");
    assert_int_equal(f.p.calls, 1); /* only the defined label was patched */
    assert_int_equal(f.p.target[1][0], 1);
    teardown(&f);
}

static void test_redefinition_is_refused(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    int32_t l = get(&f.ls, "L", 1, 1);
    assert_int_equal(fe_labels_define(&f.ls, l, 4, 1, 1), 0);
    assert_int_equal(fe_labels_define(&f.ls, l, 9, 7, 1), -1);
    assert_int_equal(fe_labels_at(&f.ls, l)->target, 4);
    assert_int_equal(fe_labels_at(&f.ls, l)->line, 1);
    teardown(&f);
}

static void test_label_lists_and_excuses(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    int32_t table = get(&f.ls, "ts", 5, 1); /* ts: .branchtargets A, B; */
    size_t first = f.ls.lists.count;
    int32_t a = get(&f.ls, "A", 5, 20), b = get(&f.ls, "B", 5, 23);
    assert_int_equal(fe_labels_list_add(&f.ls, a), 0);
    assert_int_equal(fe_labels_list_add(&f.ls, b), 0);
    fe_labels_at(&f.ls, table)->list_first = (int32_t)first;
    fe_labels_at(&f.ls, table)->list_count = 2;
    assert_int_equal(fe_labels_list_entry(&f.ls, first + 1), (uint32_t)b);
    fe_labels_add_ref(&f.ls, a, 0, 0); /* brx: one extra operand per entry */
    fe_labels_add_ref(&f.ls, b, 0, 1);
    fe_labels_add_ref(&f.ls, table, 1, -1); /* excused: the table itself */
    fe_labels_define(&f.ls, a, 2, 6, 1);
    resolve(&f, true);
    assert_int_equal(f.dl.count, 1);
    assert_int_equal(f.dl.items[0].line, 5);
    assert_int_equal(f.dl.items[0].col, 23);
    assert_string_equal(f.dl.items[0].message, "undefined label 'B'");
    assert_int_equal(f.p.target[0][1], 2);
    teardown(&f);
}

static void test_muted_cursor_and_reset(void **state)
{
    (void)state;
    fixture f;
    setup(&f);
    fe_labels_add_ref(&f.ls, get(&f.ls, "nowhere", 2, 2), 0, -1);
    f.c.muted = true;
    resolve(&f, false);
    assert_int_equal(f.dl.count, 0);
    fe_labels_reset(&f.ls); /* the next function */
    assert_int_equal(f.ls.labels.count, 0);
    assert_int_equal(f.ls.refs.count, 0);
    int32_t l = get(&f.ls, "nowhere", 30, 4);
    assert_int_equal(l, 0);
    assert_int_equal(fe_labels_at(&f.ls, l)->target, -1);
    assert_int_equal(fe_labels_at(&f.ls, l)->line, 30);
    f.c.muted = false;
    fe_labels_add_ref(&f.ls, l, 0, -1);
    resolve(&f, false);
    assert_int_equal(f.dl.count, 1);
    assert_int_equal(f.dl.items[0].line, 30);
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_references_resolve),
        cmocka_unit_test(test_undefined_label_reported_once_at_first_mention),
        cmocka_unit_test(test_redefinition_is_refused),
        cmocka_unit_test(test_label_lists_and_excuses),
        cmocka_unit_test(test_muted_cursor_and_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

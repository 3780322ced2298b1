/* Unit tests for the front-ends' scope stack (src/frontend/fe_scope.h): declaration and lookup
 * of names, shadowing in nested scopes, forgetting a scope's names when it closes, clashes in
 * one scope, separate name spaces, and many names in one chain-hashed table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "frontend/fe_scope.h"

static fe_symbol *declare(fe_scope *s, const char *name, uint8_t ns, uint32_t line, uint32_t index)
{
    const fe_symbol *previous = (const fe_symbol *)1;
    fe_symbol *sym = fe_scope_declare(s, name, (uint32_t)strlen(name), ns, line, 1, &previous);
    if (sym) {
        assert_null(previous);
        sym->index = index;
    }
    return sym;
}

static const fe_symbol *find(const fe_scope *s, const char *name, uint8_t ns)
{
    return fe_scope_find(s, name, (uint32_t)strlen(name), ns);
}

static void test_nested_scopes_shadow_and_forget(void **state)
{
    (void)state;
    fe_scope s;
    assert_int_equal(fe_scope_init(&s), 0);
    assert_int_equal(fe_scope_depth(&s), 0);
    assert_int_equal(fe_scope_push(&s), 0); /* module */
    assert_non_null(declare(&s, "g", 0, 1, 10));
    assert_non_null(declare(&s, "x", 0, 2, 11));
    assert_int_equal(fe_scope_push(&s), 0); /* function */
    assert_non_null(declare(&s, "x", 0, 5, 20));
    assert_non_null(declare(&s, "y", 0, 6, 21));
    assert_int_equal(fe_scope_depth(&s), 2);
    assert_int_equal(find(&s, "x", 0)->index, 20); /* the inner x hides the outer one */
    assert_int_equal(find(&s, "x", 0)->line, 5);
    assert_int_equal(find(&s, "g", 0)->index, 10); /* outer names stay visible */
    fe_scope_pop(&s);
    assert_int_equal(find(&s, "x", 0)->index, 11);
    assert_null(find(&s, "y", 0)); /* forgotten with its scope */
    assert_null(find(&s, "xx", 0));
    fe_scope_pop(&s);
    fe_scope_pop(&s); /* no scope open: nothing happens */
    assert_int_equal(fe_scope_depth(&s), 0);
    assert_null(find(&s, "g", 0));
    fe_scope_fini(&s);
}

static void test_clash_in_one_scope_names_the_previous(void **state)
{
    (void)state;
    fe_scope s;
    assert_int_equal(fe_scope_init(&s), 0);
    fe_scope_push(&s);
    fe_symbol *first = fe_scope_declare(&s, "%rd", 3, 0, 4, 9, &(const fe_symbol *){NULL});
    assert_non_null(first);
    const fe_symbol *previous = NULL;
    assert_null(fe_scope_declare(&s, "%rd", 3, 0, 8, 2, &previous));
    assert_non_null(previous);
    assert_int_equal(previous->line, 4);
    assert_int_equal(previous->col, 9);
    /* the same spelling in another name space is another name */
    assert_non_null(fe_scope_declare(&s, "%rd", 3, 1, 8, 2, &previous));
    assert_null(previous);
    assert_int_equal(find(&s, "%rd", 1)->line, 8);
    assert_int_equal(find(&s, "%rd", 0)->line, 4);
    /* and an inner scope may declare it again */
    fe_scope_push(&s);
    assert_non_null(fe_scope_declare(&s, "%rd", 3, 0, 12, 3, &previous));
    assert_int_equal(find(&s, "%rd", 0)->line, 12);
    fe_scope_fini(&s);
}

static void test_names_need_not_be_terminated(void **state)
{
    (void)state;
    fe_scope s;
    assert_int_equal(fe_scope_init(&s), 0);
    const char *text = "alphabet";
    const fe_symbol *previous;
    assert_non_null(fe_scope_declare(&s, text, 5, 0, 1, 1, &previous)); /* "alpha" */
    assert_non_null(fe_scope_find(&s, "alpha", 5, 0));
    assert_null(fe_scope_find(&s, text, 8, 0));
    assert_null(fe_scope_find(&s, "alph", 4, 0));
    fe_scope_fini(&s);
}

static void test_many_names(void **state)
{
    (void)state;
    enum { N = 20000 }; /* more names than buckets: long chains */
    static char names[N][12];
    fe_scope s;
    assert_int_equal(fe_scope_init(&s), 0);
    fe_scope_push(&s);
    for (uint32_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "%%r%u", i);
        assert_non_null(declare(&s, names[i], 0, i + 1, i));
    }
    fe_scope_push(&s);
    for (uint32_t i = 0; i < N; i += 2)
        assert_non_null(declare(&s, names[i], 0, 0, N + i));
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(find(&s, names[i], 0)->index, i % 2 ? i : N + i);
    fe_scope_pop(&s);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(find(&s, names[i], 0)->index, i);
    fe_scope_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_scopes_shadow_and_forget),
        cmocka_unit_test(test_clash_in_one_scope_names_the_previous),
        cmocka_unit_test(test_names_need_not_be_terminated),
        cmocka_unit_test(test_many_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

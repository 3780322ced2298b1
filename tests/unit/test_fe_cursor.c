/* Unit tests for the front-ends' token cursor (src/frontend/fe_cursor.h): reading, exact
 * positions of "expected" errors, muting, out of memory, and recovery to a synchronising token.
 * The tokens come from the small test lexer of fe_tokens.h, in a made-up dialect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "fe_tokens.h"
#include "frontend/fe_cursor.h"

typedef struct fixture {
    fe_token *toks;
    diag_list dl;
    fe_cursor c;
} fixture;

static void open_text(fixture *f, const char *text)
{
    size_t n;
    f->toks = fe_test_lex(text, &n);
    diag_list_init(&f->dl);
    fe_cursor_init(&f->c, f->toks, n, "t.s", &f->dl, "TST-SYNTAX-001");
}

static void close_text(fixture *f)
{
    diag_list_fini(&f->dl);
    free(f->toks);
}

/* The i-th diagnostic in compiler form. */
static const char *diag_text(const fixture *f, size_t i, char *buf, size_t size)
{
    assert_true(i < f->dl.count);
    diag_format(&f->dl.items[i], buf, size);
    return buf;
}

/* The text of the current token ("" at EOF). */
static const char *current(const fixture *f, char *buf)
{
    const fe_token *t = fe_cursor_peek(&f->c, 0);
    snprintf(buf, 64, "%.*s", (int)t->len, t->text);
    return buf;
}

static void test_reading_stops_at_eof(void **state)
{
    (void)state;
    fixture f;
    open_text(&f, "LDG.E R0 ,\n  [R2] ;");
    assert_null(fe_cursor_previous(&f.c));
    const fe_token *t = fe_cursor_next(&f.c);
    assert_int_equal(t->kind, FE_TOK_IDENT);
    assert_true(fe_token_is(fe_cursor_peek(&f.c, 0), FE_TOK_DOTNAME, ".E"));
    assert_false(fe_token_is(fe_cursor_peek(&f.c, 0), FE_TOK_DOTNAME, ".EF"));
    assert_ptr_equal(fe_cursor_previous(&f.c), t);
    const fe_token *bracket = fe_cursor_peek(&f.c, 3);
    assert_true(fe_token_is_punct(bracket, '['));
    assert_int_equal(bracket->line, 2);
    assert_int_equal(bracket->col, 3);
    assert_int_equal(fe_cursor_peek(&f.c, 1000)->kind, FE_TOK_EOF);
    for (int i = 0; i < 20; i++)
        fe_cursor_next(&f.c);
    assert_int_equal(fe_cursor_peek(&f.c, 0)->kind, FE_TOK_EOF);
    assert_int_equal(f.c.pos, f.c.ntok - 1);
    assert_true(fe_token_is_punct(fe_cursor_previous(&f.c), ';'));
    assert_int_equal(f.dl.count, 0);
    close_text(&f);
}

static void test_expect_reports_exact_position(void **state)
{
    (void)state;
    fixture f;
    char buf[256];
    open_text(&f, "add r1 r2 ;\nmov r3");
    fe_cursor_next(&f.c);
    fe_cursor_next(&f.c);
    assert_true(fe_cursor_accept_punct(&f.c, ',') == false);
    assert_false(fe_cursor_expect_punct(&f.c, ',', "between operands"));
    assert_string_equal(diag_text(&f, 0, buf, sizeof buf),
                        "t.s:1:8: error: expected ',' between operands, found 'r2' "
                        "[TST-SYNTAX-001]");
    assert_string_equal(current(&f, buf), "r2"); /* nothing consumed */
    fe_cursor_next(&f.c);
    assert_true(fe_cursor_expect_punct(&f.c, ';', "after an instruction"));
    fe_cursor_next(&f.c);
    fe_cursor_next(&f.c);
    assert_false(fe_cursor_expect_punct(&f.c, ';', "after an instruction"));
    assert_string_equal(diag_text(&f, 1, buf, sizeof buf),
                        "t.s:2:7: error: expected ';' after an instruction, found end of file "
                        "[TST-SYNTAX-001]");
    assert_int_equal(f.dl.errors, 2);
    close_text(&f);
}

static void test_long_tokens_and_messages_are_cut(void **state)
{
    (void)state;
    fixture f;
    char buf[1024], name[80];
    memset(name, 'x', 60);
    name[60] = '\0';
    open_text(&f, name);
    fe_cursor_expect_punct(&f.c, '(', "here");
    char want[200];
    snprintf(want, sizeof want, "t.s:1:1: error: expected '(' here, found '%.40s' [TST-SYNTAX-001]",
             name);
    assert_string_equal(diag_text(&f, 0, buf, sizeof buf), want);
    char longer[700];
    memset(longer, 'm', 699);
    longer[699] = '\0';
    fe_cursor_error_at(&f.c, 3, 4, "TST-LONG-001", "%s", longer);
    assert_int_equal(strlen(f.dl.items[1].message), 511);
    close_text(&f);
}

static void test_muted_cursor_drops_errors(void **state)
{
    (void)state;
    fixture f;
    char buf[256];
    open_text(&f, "a b");
    f.c.muted = true;
    fe_cursor_error_at(&f.c, 1, 1, "TST-X-001", "dropped");
    assert_false(fe_cursor_expect_punct(&f.c, ';', "x"));
    assert_int_equal(f.dl.count, 0);
    f.c.muted = false;
    fe_cursor_error_at(&f.c, 7, 9, "TST-X-002", "kept %d", 42);
    assert_string_equal(diag_text(&f, 0, buf, sizeof buf), "t.s:7:9: error: kept 42 [TST-X-002]");
    close_text(&f);
}

static void test_out_of_memory_is_reported_once(void **state)
{
    (void)state;
    fixture f;
    char buf[256];
    open_text(&f, "a\nb c");
    fe_cursor_next(&f.c);
    f.c.muted = true; /* out of memory is never a follow-on: it is reported even when muted */
    fe_cursor_oom(&f.c, "TST-LIMIT-002");
    fe_cursor_oom(&f.c, "TST-LIMIT-002");
    assert_true(f.c.oom);
    assert_int_equal(f.dl.count, 1);
    assert_string_equal(diag_text(&f, 0, buf, sizeof buf),
                        "t.s:2: error: out of memory [TST-LIMIT-002]");
    close_text(&f);
}

static void test_recover_to_statement_end(void **state)
{
    (void)state;
    fixture f;
    char buf[64];
    open_text(&f, "a b c ; d } e { f");
    fe_cursor_recover(&f.c, ';', "{}");
    assert_string_equal(current(&f, buf), "d"); /* just after the ';' */
    fe_cursor_recover(&f.c, ';', "{}");
    assert_string_equal(current(&f, buf), "}"); /* a brace is not consumed */
    fe_cursor_recover(&f.c, ';', "{}");
    assert_string_equal(current(&f, buf), "}"); /* and recovery does not pass it */
    fe_cursor_next(&f.c);
    fe_cursor_recover(&f.c, ';', "{}");
    assert_string_equal(current(&f, buf), "{");
    fe_cursor_next(&f.c);
    fe_cursor_recover(&f.c, ';', "{}");
    assert_int_equal(fe_cursor_peek(&f.c, 0)->kind, FE_TOK_EOF);
    assert_int_equal(f.dl.count, 0);
    close_text(&f);
}

static void test_recover_from_rewinds_and_skips_groups(void **state)
{
    (void)state;
    fixture f;
    char buf[64];
    open_text(&f, "st [a] , { b , c } ; next { x } ; y }");
    for (int i = 0; i < 5; i++)
        fe_cursor_next(&f.c);
    assert_string_equal(current(&f, buf), "{");
    fe_cursor_recover_from(&f.c, 0, ';', '{', '}');
    assert_string_equal(current(&f, buf), "next");
    size_t start = f.c.pos;
    fe_cursor_recover_from(&f.c, start, ';', '{', '}');
    assert_string_equal(current(&f, buf), "y"); /* the group { x } is skipped whole */
    fe_cursor_recover_from(&f.c, 0, ';', '{', '}'); /* a start behind... */
    assert_string_equal(current(&f, buf), "next"); /* ...rewinds */
    fe_cursor_recover_from(&f.c, f.c.pos + 3, ';', '{', '}'); /* a start ahead is ignored */
    assert_string_equal(current(&f, buf), "y");
    fe_cursor_recover_from(&f.c, f.c.pos, ';', '{', '}');
    assert_string_equal(current(&f, buf), "}"); /* a '}' that closes no group of its own stops */
    close_text(&f);
}

static void test_recover_from_ends_inside_open_group(void **state)
{
    (void)state;
    fixture f;
    char buf[64];
    open_text(&f, "v { a ; b } c");
    fe_cursor_recover_from(&f.c, 0, ';', '{', '}');
    assert_string_equal(current(&f, buf), "b"); /* a ';' ends the statement at any depth */
    close_text(&f);
}

static void test_skip_groups(void **state)
{
    (void)state;
    fixture f;
    char buf[64];
    open_text(&f, "{ a { b } c } d } e");
    fe_cursor_next(&f.c);
    fe_cursor_skip_groups(&f.c, '{', '}', 1);
    assert_string_equal(current(&f, buf), "d");
    fe_cursor_skip_groups(&f.c, '{', '}', 1);
    assert_string_equal(current(&f, buf), "e");
    fe_cursor_skip_groups(&f.c, '{', '}', 3); /* unbalanced: stops at EOF */
    assert_int_equal(fe_cursor_peek(&f.c, 0)->kind, FE_TOK_EOF);
    close_text(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reading_stops_at_eof),
        cmocka_unit_test(test_expect_reports_exact_position),
        cmocka_unit_test(test_long_tokens_and_messages_are_cut),
        cmocka_unit_test(test_muted_cursor_drops_errors),
        cmocka_unit_test(test_out_of_memory_is_reported_once),
        cmocka_unit_test(test_recover_to_statement_end),
        cmocka_unit_test(test_recover_from_rewinds_and_skips_groups),
        cmocka_unit_test(test_recover_from_ends_inside_open_group),
        cmocka_unit_test(test_skip_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

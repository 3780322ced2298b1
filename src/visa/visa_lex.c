/* The vISA lexer: one pass over a .visaasm text into the front-ends' shared tokens (fe_token.h).
 * vISA text is case-sensitive and line-oriented (the parser uses each token's line to find the
 * end of a statement). Names start with a letter, '_' or '%' (`%null`, `%r0`) and go on with
 * letters, digits and '_'; a dotted name is '.' and the letters and digits after it (`.decl`,
 * `.ugm`, `.x56`, `.0`); integers are decimal or 0x hexadecimal (a sign is a '-' token); a
 * decimal number with a fraction is a float; strings are "..." on one line. Comments: `//` to
 * the end of the line (IGC's `///` instruction numbers and its commented predefined-variable
 * block included) and block comments. Columns count bytes from 1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe_lex.h"
#include "visa/visa.h"
#include "visa/visa_internal.h"

static const fe_lex_rules rules = {"VISA-LEX-003", "VISA-LEX-002", "VISA-LIMIT-001"};

static int is_word(int c) { return fe_is_alpha(c) || fe_is_digit(c) || c == '_'; }

static void lex_number(fe_lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos;
    uint64_t value;
    int overflow;
    size_t digits = fe_lex_uint(lx, &value, &overflow);
    int hex = lx->pos - start != digits; /* a 0x prefix was read */
    if (!hex && fe_lex_peek(lx, 0) == '.' && fe_is_digit(fe_lex_peek(lx, 1))) {
        lx->pos++;
        while (fe_is_digit(fe_lex_peek(lx, 0)))
            lx->pos++;
        fe_token *f = fe_lex_push(lx, FE_TOK_FLOAT, start, line, col);
        if (f)
            f->fvalue = strtod(lx->text + start, NULL);
        return;
    }
    /* A number glued to letters (`32x`) is malformed; `:` after it (an immediate's type) is not. */
    int bad = digits == 0 || is_word(fe_lex_peek(lx, 0)) || overflow;
    while (is_word(fe_lex_peek(lx, 0)))
        lx->pos++;
    fe_lex_push_int(lx, start, line, col, value, overflow, bad);
}

static void lex_string(fe_lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos++;
    while (fe_lex_peek(lx, 0) != '"' && fe_lex_peek(lx, 0) != '\n' && fe_lex_peek(lx, 0) != -1)
        lx->pos++;
    if (fe_lex_peek(lx, 0) != '"') {
        diag_add(lx->dl, DIAG_ERROR, "VISA-LEX-003", lx->path, line, col,
                 "unterminated string");
        return;
    }
    lx->pos++;
    fe_lex_push(lx, FE_TOK_STRING, start, line, col);
}

static void lex_token(fe_lexer *lx)
{
    uint32_t line = lx->line, col = fe_lex_col(lx);
    size_t start = lx->pos;
    int c = fe_lex_peek(lx, 0);
    if (fe_is_alpha(c) || c == '_' || (c == '%' && is_word(fe_lex_peek(lx, 1)))) {
        lx->pos++;
        while (is_word(fe_lex_peek(lx, 0)))
            lx->pos++;
        fe_lex_push(lx, FE_TOK_IDENT, start, line, col);
    } else if (c == '.' && is_word(fe_lex_peek(lx, 1))) {
        lx->pos++;
        while (is_word(fe_lex_peek(lx, 0)))
            lx->pos++;
        fe_lex_push(lx, FE_TOK_DOTNAME, start, line, col);
    } else if (fe_is_digit(c)) {
        lex_number(lx, line, col);
    } else if (c == '"') {
        lex_string(lx, line, col);
    } else if (c >= 0 && c != 0 && strchr("(),;:<>[]{}+-*!=|~", c)) {
        lx->pos++;
        fe_token *t = fe_lex_push(lx, FE_TOK_PUNCT, start, line, col);
        if (t)
            t->punct = (char)c;
    } else {
        lx->pos++;
        diag_add(lx->dl, DIAG_ERROR, "VISA-LEX-001", lx->path, line, col,
                 "unexpected character '%c'", c >= 32 && c < 127 ? c : '?');
    }
}

int visa_lex(const char *path, const char *text, size_t len, fe_token_list *out, diag_list *dl)
{
    fe_lexer lx = {.path = path, .text = text, .len = len, .line = 1, .out = out, .dl = dl,
                   .rules = rules};
    return fe_lex_run(&lx, lex_token, "out of memory");
}

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

#include "frontend/fe_text.h"
#include "visa/visa.h"
#include "visa/visa_internal.h"

typedef struct lexer {
    const char *path;
    const char *text;
    size_t len, pos;
    uint32_t line, line_start;
    fe_token_list *out;
    diag_list *dl;
    int oom;
} lexer;

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_word(int c) { return is_alpha(c) || is_digit(c) || c == '_'; }
static int is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static int peek(const lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->text[lx->pos + ahead] : -1;
}

static fe_token *push(lexer *lx, uint8_t kind, size_t start, uint32_t line, uint32_t col)
{
    fe_token *t = fe_token_list_push(lx->out, kind, lx->text, start, lx->pos, line, col);
    if (!t)
        lx->oom = 1;
    return t;
}

static void skip_space(lexer *lx)
{
    fe_text_pos p = {lx->pos, lx->line, lx->line_start};
    uint32_t line = 0, col = 0;
    int unclosed = fe_skip_blanks(lx->text, lx->len, &p, &line, &col);
    lx->pos = p.pos;
    lx->line = p.line;
    lx->line_start = p.line_start;
    if (unclosed)
        diag_add(lx->dl, DIAG_ERROR, "VISA-LEX-003", lx->path, line, col,
                 "unterminated block comment");
}

static void lex_number(lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos;
    uint64_t value = 0;
    int overflow = 0;
    size_t digits = 0;
    if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
        lx->pos += 2;
        for (int c; is_hex(c = peek(lx, 0)); lx->pos++, digits++) {
            unsigned v = (unsigned)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
            overflow |= value >> 60 != 0;
            value = value << 4 | v;
        }
    } else {
        for (int c; is_digit(c = peek(lx, 0)); lx->pos++, digits++) {
            unsigned v = (unsigned)(c - '0');
            overflow |= value > (UINT64_MAX - v) / 10;
            value = value * 10 + v;
        }
        if (peek(lx, 0) == '.' && is_digit(peek(lx, 1))) {
            lx->pos++;
            while (is_digit(peek(lx, 0)))
                lx->pos++;
            fe_token *f = push(lx, FE_TOK_FLOAT, start, line, col);
            if (f)
                f->fvalue = strtod(lx->text + start, NULL);
            return;
        }
    }
    /* A number glued to letters (`32x`) is malformed; `:` after it (an immediate's type) is not. */
    int bad = digits == 0 || is_word(peek(lx, 0)) || overflow;
    while (is_word(peek(lx, 0)))
        lx->pos++;
    fe_token *t = push(lx, FE_TOK_INT, start, line, col);
    if (!t)
        return;
    t->ivalue = value;
    t->overflow = (uint8_t)overflow;
    if (bad)
        diag_add(lx->dl, DIAG_ERROR, "VISA-LEX-002", lx->path, line, col,
                 "malformed number '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
}

static void lex_string(lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos++;
    while (peek(lx, 0) != '"' && peek(lx, 0) != '\n' && peek(lx, 0) != -1)
        lx->pos++;
    if (peek(lx, 0) != '"') {
        diag_add(lx->dl, DIAG_ERROR, "VISA-LEX-003", lx->path, line, col,
                 "unterminated string");
        return;
    }
    lx->pos++;
    push(lx, FE_TOK_STRING, start, line, col);
}

static void lex_token(lexer *lx)
{
    uint32_t line = lx->line, col = (uint32_t)(lx->pos - lx->line_start + 1);
    size_t start = lx->pos;
    int c = peek(lx, 0);
    if (is_alpha(c) || c == '_' || (c == '%' && is_word(peek(lx, 1)))) {
        lx->pos++;
        while (is_word(peek(lx, 0)))
            lx->pos++;
        push(lx, FE_TOK_IDENT, start, line, col);
    } else if (c == '.' && is_word(peek(lx, 1))) {
        lx->pos++;
        while (is_word(peek(lx, 0)))
            lx->pos++;
        push(lx, FE_TOK_DOTNAME, start, line, col);
    } else if (is_digit(c)) {
        lex_number(lx, line, col);
    } else if (c == '"') {
        lex_string(lx, line, col);
    } else if (c >= 0 && c != 0 && strchr("(),;:<>[]{}+-*!=|~", c)) {
        lx->pos++;
        fe_token *t = push(lx, FE_TOK_PUNCT, start, line, col);
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
    lexer lx = {.path = path, .text = text, .len = len, .line = 1, .out = out, .dl = dl};
    out->items = NULL;
    out->count = 0;
    out->capacity = 0;
    for (;;) {
        skip_space(&lx);
        if (lx.pos >= lx.len || lx.oom)
            break;
        lex_token(&lx);
    }
    uint32_t col = (uint32_t)(lx.pos - lx.line_start + 1);
    if (!lx.oom)
        push(&lx, FE_TOK_EOF, lx.pos, lx.line, col);
    if (lx.oom) {
        diag_add(dl, DIAG_ERROR, "VISA-LIMIT-001", path, lx.line, 0, "out of memory");
        fe_token_list_free(out);
        return -1;
    }
    return 0;
}

/* PTX lexer (see ptx_lex.h). One pass over the bytes, no regular expressions, no allocation per
 * token beyond the growing token array. Columns count bytes from 1. */
#include "ptx/ptx_lex.h"
#include "frontend/fe_lex.h"

#include <stdlib.h>
#include <string.h>

static const fe_lex_rules rules = {"PTX-LEX-003", "PTX-LEX-002", "PTX-LIMIT-002"};

static int is_ident_start(int c) { return fe_is_alpha(c) || c == '_' || c == '$' || c == '%'; }
static int is_ident_char(int c) { return fe_is_alpha(c) || fe_is_digit(c) || c == '_' || c == '$'; }
static int hex_value(int c)
{
    if (fe_is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void lex_error(fe_lexer *lx, const char *rule, uint32_t line, uint32_t col, const char *msg,
                      const char *text, size_t n)
{
    diag_add(lx->dl, DIAG_ERROR, rule, lx->path, line, col, "%s '%.*s'", msg, (int)(n > 40 ? 40 : n),
             text);
}

/* Accumulates digits of `base` into *value; returns digits read, sets *overflow. */
static size_t read_digits(fe_lexer *lx, unsigned base, uint64_t *value, int *overflow)
{
    size_t n = 0;
    for (;;) {
        int c = fe_lex_peek(lx, 0);
        int v = hex_value(c);
        if (v < 0 || (unsigned)v >= base) {
            if (base < 10 && fe_is_digit(c))
                *overflow = 2; /* digit not valid in this base */
            else
                break;
        }
        if (v >= 0 && (unsigned)v < base) {
            if (*value > (UINT64_MAX - (uint64_t)v) / base)
                *overflow = 1;
            *value = *value * base + (uint64_t)v;
        }
        lx->pos++;
        n++;
    }
    return n;
}

static void lex_float_decimal(fe_lexer *lx, size_t start, uint32_t line, uint32_t col)
{
    while (fe_is_digit(fe_lex_peek(lx, 0)) || fe_lex_peek(lx, 0) == '.')
        lx->pos++;
    if (fe_lex_peek(lx, 0) == 'e' || fe_lex_peek(lx, 0) == 'E') {
        lx->pos++;
        if (fe_lex_peek(lx, 0) == '+' || fe_lex_peek(lx, 0) == '-')
            lx->pos++;
        while (fe_is_digit(fe_lex_peek(lx, 0)))
            lx->pos++;
    }
    char buf[64];
    size_t n = lx->pos - start;
    int bad = n >= sizeof buf || is_ident_char(fe_lex_peek(lx, 0));
    while (is_ident_char(fe_lex_peek(lx, 0)))
        lx->pos++;
    ptx_token *t = fe_lex_push(lx, PTX_TOK_FLOAT, start, line, col);
    if (!t)
        return;
    if (!bad) {
        memcpy(buf, lx->text + start, n);
        buf[n] = 0;
        char *end = NULL;
        t->fvalue = strtod(buf, &end);
        bad = end != buf + n;
    }
    if (bad)
        lex_error(lx, "PTX-LEX-002", line, col, "malformed number", t->text, t->len);
}

/* 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX: IEEE bits written in hex. */
static void lex_float_bits(fe_lexer *lx, size_t start, uint32_t line, uint32_t col, int is_double)
{
    lx->pos += 2;
    uint64_t value = 0;
    int overflow = 0;
    size_t n = read_digits(lx, 16, &value, &overflow);
    int bad = n != (is_double ? 16u : 8u) || is_ident_char(fe_lex_peek(lx, 0));
    while (is_ident_char(fe_lex_peek(lx, 0)))
        lx->pos++;
    uint8_t kind = is_double ? PTX_TOK_F64BITS : PTX_TOK_F32BITS;
    ptx_token *t = fe_lex_push(lx, kind, start, line, col);
    if (!t)
        return;
    t->ivalue = value;
    if (bad)
        lex_error(lx, "PTX-LEX-002", line, col, "malformed float literal", t->text, t->len);
}

static void lex_number(fe_lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos;
    int c1 = fe_lex_peek(lx, 1);
    if (fe_lex_peek(lx, 0) == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        lex_float_bits(lx, start, line, col, c1 == 'd' || c1 == 'D');
        return;
    }
    size_t p = lx->pos;
    while (p < lx->len && fe_is_digit((unsigned char)lx->text[p]))
        p++;
    if (fe_lex_peek(lx, 0) != '0' || (c1 != 'x' && c1 != 'X' && c1 != 'b' && c1 != 'B')) {
        int nx = p < lx->len ? (unsigned char)lx->text[p] : -1;
        int nx2 = p + 1 < lx->len ? (unsigned char)lx->text[p + 1] : -1;
        if ((nx == '.' && fe_is_digit(nx2)) || nx == 'e' || nx == 'E') {
            lex_float_decimal(lx, start, line, col);
            return;
        }
    }
    unsigned base = 10;
    if (fe_lex_peek(lx, 0) == '0' && (c1 == 'x' || c1 == 'X')) {
        base = 16;
        lx->pos += 2;
    } else if (fe_lex_peek(lx, 0) == '0' && (c1 == 'b' || c1 == 'B')) {
        base = 2;
        lx->pos += 2;
    } else if (fe_lex_peek(lx, 0) == '0' && fe_is_digit(c1)) {
        base = 8;
        lx->pos++;
    }
    uint64_t value = 0;
    int overflow = 0;
    size_t n = read_digits(lx, base, &value, &overflow);
    int is_unsigned = 0;
    if (fe_lex_peek(lx, 0) == 'U') {
        is_unsigned = 1;
        lx->pos++;
    }
    int bad = (n == 0 && base != 10) || overflow == 2 || is_ident_char(fe_lex_peek(lx, 0));
    while (is_ident_char(fe_lex_peek(lx, 0)))
        lx->pos++;
    ptx_token *t = fe_lex_push(lx, PTX_TOK_INT, start, line, col);
    if (!t)
        return;
    t->ivalue = value;
    t->is_unsigned = (uint8_t)is_unsigned;
    t->overflow = overflow == 1;
    if (bad)
        lex_error(lx, "PTX-LEX-002", line, col, "malformed number", t->text, t->len);
    else if (overflow == 1)
        lex_error(lx, "PTX-LEX-002", line, col, "integer literal does not fit in 64 bits", t->text,
                  t->len);
}

static void lex_string(fe_lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos++;
    for (;;) {
        int c = fe_lex_peek(lx, 0);
        if (c < 0 || c == '\n') {
            diag_add(lx->dl, DIAG_ERROR, "PTX-LEX-004", lx->path, line, col,
                     "unterminated string literal");
            fe_lex_push(lx, PTX_TOK_STRING, start, line, col);
            return;
        }
        lx->pos++;
        if (c == '\\' && fe_lex_peek(lx, 0) >= 0 && fe_lex_peek(lx, 0) != '\n')
            lx->pos++;
        else if (c == '"')
            break;
    }
    fe_lex_push(lx, PTX_TOK_STRING, start, line, col);
}

/* A '.' that directly follows a word (no space) starts a modifier even before a digit: the
 * geometries .1d, .2d, .3d of the surface instructions. */
static bool follows_word(const fe_lexer *lx, size_t start)
{
    if (lx->out->count == 0)
        return false;
    const ptx_token *t = &lx->out->items[lx->out->count - 1];
    return (t->kind == PTX_TOK_IDENT || t->kind == PTX_TOK_DOTNAME) && t->offset + t->len == start;
}

static void lex_one(fe_lexer *lx)
{
    int c = fe_lex_peek(lx, 0);
    size_t start = lx->pos;
    uint32_t line = lx->line, col = fe_lex_col(lx);
    if (is_ident_start(c) && (c != '%' || is_ident_char(fe_lex_peek(lx, 1)))) {
        lx->pos++;
        while (is_ident_char(fe_lex_peek(lx, 0)))
            lx->pos++;
        fe_lex_push(lx, PTX_TOK_IDENT, start, line, col);
    } else if (c == '.' && ((is_ident_start(fe_lex_peek(lx, 1)) && fe_lex_peek(lx, 1) != '%') ||
                            (fe_is_digit(fe_lex_peek(lx, 1)) && follows_word(lx, start)))) {
        lx->pos++;
        for (;;) {
            if (is_ident_char(fe_lex_peek(lx, 0)))
                lx->pos++;
            else if (fe_lex_peek(lx, 0) == ':' && fe_lex_peek(lx, 1) == ':' &&
                     is_ident_char(fe_lex_peek(lx, 2)))
                lx->pos += 2;
            else
                break;
        }
        fe_lex_push(lx, PTX_TOK_DOTNAME, start, line, col);
    } else if (fe_is_digit(c) || (c == '.' && fe_is_digit(fe_lex_peek(lx, 1)))) {
        if (c == '.')
            lex_float_decimal(lx, start, line, col);
        else
            lex_number(lx, line, col);
    } else if (c == '"') {
        lex_string(lx, line, col);
    } else if (c > 0 && strchr(",;:{}[]()<>+-*/~!@|=&^%?", c)) {
        lx->pos++;
        ptx_token *t = fe_lex_push(lx, PTX_TOK_PUNCT, start, line, col);
        if (t)
            t->punct = (char)c;
    } else {
        lx->pos++;
        if (c == '#')
            diag_add(lx->dl, DIAG_ERROR, "PTX-LEX-001", lx->path, line, col,
                     "preprocessor lines are not supported; run the C preprocessor first");
        else
            diag_add(lx->dl, DIAG_ERROR, "PTX-LEX-001", lx->path, line, col,
                     "unexpected character (byte 0x%02x)", (unsigned)c & 0xFF);
        if (c == '#')
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
                lx->pos++;
    }
}

int ptx_lex(const char *path, const char *text, size_t len, ptx_token_list *out, diag_list *dl)
{
    if (len > UINT32_MAX / 2) {
        out->items = NULL;
        out->count = 0;
        out->capacity = 0;
        diag_add(dl, DIAG_ERROR, "PTX-LIMIT-002", path, 0, 0, "module text is too large");
        return -1;
    }
    fe_lexer lx = {.path = path, .text = text, .len = len, .line = 1, .out = out, .dl = dl,
                   .rules = rules};
    return fe_lex_run(&lx, lex_one, "out of memory while lexing");
}

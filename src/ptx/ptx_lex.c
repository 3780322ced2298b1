/* PTX lexer (see ptx_lex.h). One pass over the bytes, no regular expressions, no allocation per
 * token beyond the growing token array. Columns count bytes from 1. */
#include "ptx/ptx_lex.h"
#include "frontend/fe_text.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    const char *path;
    const char *text;
    size_t len, pos;
    uint32_t line, line_start;
    ptx_token_list *out;
    diag_list *dl;
    int oom;
} lexer;

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_ident_start(int c) { return is_alpha(c) || c == '_' || c == '$' || c == '%'; }
static int is_ident_char(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }
static int hex_value(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int peek(const lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->text[lx->pos + ahead] : -1;
}

static ptx_token *push(lexer *lx, ptx_tok_kind kind, size_t start, uint32_t line, uint32_t col)
{
    ptx_token *t = fe_token_list_push(lx->out, (uint8_t)kind, lx->text, start, lx->pos, line, col);
    if (!t)
        lx->oom = 1;
    return t;
}

static void lex_error(lexer *lx, const char *rule, uint32_t line, uint32_t col, const char *msg,
                      const char *text, size_t n)
{
    diag_add(lx->dl, DIAG_ERROR, rule, lx->path, line, col, "%s '%.*s'", msg, (int)(n > 40 ? 40 : n),
             text);
}

/* Skips blanks and comments; reports an unterminated block comment. */
static void skip_space(lexer *lx)
{
    fe_text_pos p = {lx->pos, lx->line, lx->line_start};
    uint32_t line = 0, col = 0;
    int unclosed = fe_skip_blanks(lx->text, lx->len, &p, &line, &col);
    lx->pos = p.pos;
    lx->line = p.line;
    lx->line_start = p.line_start;
    if (unclosed)
        diag_add(lx->dl, DIAG_ERROR, "PTX-LEX-003", lx->path, line, col, "unterminated block comment");
}

/* Accumulates digits of `base` into *value; returns digits read, sets *overflow. */
static size_t read_digits(lexer *lx, unsigned base, uint64_t *value, int *overflow)
{
    size_t n = 0;
    for (;;) {
        int c = peek(lx, 0);
        int v = hex_value(c);
        if (v < 0 || (unsigned)v >= base) {
            if (base < 10 && is_digit(c))
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

static void lex_float_decimal(lexer *lx, size_t start, uint32_t line, uint32_t col)
{
    while (is_digit(peek(lx, 0)) || peek(lx, 0) == '.')
        lx->pos++;
    if (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') {
        lx->pos++;
        if (peek(lx, 0) == '+' || peek(lx, 0) == '-')
            lx->pos++;
        while (is_digit(peek(lx, 0)))
            lx->pos++;
    }
    char buf[64];
    size_t n = lx->pos - start;
    int bad = n >= sizeof buf || is_ident_char(peek(lx, 0));
    while (is_ident_char(peek(lx, 0)))
        lx->pos++;
    ptx_token *t = push(lx, PTX_TOK_FLOAT, start, line, col);
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
static void lex_float_bits(lexer *lx, size_t start, uint32_t line, uint32_t col, int is_double)
{
    lx->pos += 2;
    uint64_t value = 0;
    int overflow = 0;
    size_t n = read_digits(lx, 16, &value, &overflow);
    int bad = n != (is_double ? 16u : 8u) || is_ident_char(peek(lx, 0));
    while (is_ident_char(peek(lx, 0)))
        lx->pos++;
    ptx_token *t = push(lx, is_double ? PTX_TOK_F64BITS : PTX_TOK_F32BITS, start, line, col);
    if (!t)
        return;
    t->ivalue = value;
    if (bad)
        lex_error(lx, "PTX-LEX-002", line, col, "malformed float literal", t->text, t->len);
}

static void lex_number(lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos;
    int c1 = peek(lx, 1);
    if (peek(lx, 0) == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        lex_float_bits(lx, start, line, col, c1 == 'd' || c1 == 'D');
        return;
    }
    size_t p = lx->pos;
    while (p < lx->len && is_digit((unsigned char)lx->text[p]))
        p++;
    if (peek(lx, 0) != '0' || (c1 != 'x' && c1 != 'X' && c1 != 'b' && c1 != 'B')) {
        int nx = p < lx->len ? (unsigned char)lx->text[p] : -1;
        int nx2 = p + 1 < lx->len ? (unsigned char)lx->text[p + 1] : -1;
        if ((nx == '.' && is_digit(nx2)) || nx == 'e' || nx == 'E') {
            lex_float_decimal(lx, start, line, col);
            return;
        }
    }
    unsigned base = 10;
    if (peek(lx, 0) == '0' && (c1 == 'x' || c1 == 'X')) {
        base = 16;
        lx->pos += 2;
    } else if (peek(lx, 0) == '0' && (c1 == 'b' || c1 == 'B')) {
        base = 2;
        lx->pos += 2;
    } else if (peek(lx, 0) == '0' && is_digit(c1)) {
        base = 8;
        lx->pos++;
    }
    uint64_t value = 0;
    int overflow = 0;
    size_t n = read_digits(lx, base, &value, &overflow);
    int is_unsigned = 0;
    if (peek(lx, 0) == 'U') {
        is_unsigned = 1;
        lx->pos++;
    }
    int bad = (n == 0 && base != 10) || overflow == 2 || is_ident_char(peek(lx, 0));
    while (is_ident_char(peek(lx, 0)))
        lx->pos++;
    ptx_token *t = push(lx, PTX_TOK_INT, start, line, col);
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

static void lex_string(lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos++;
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0 || c == '\n') {
            diag_add(lx->dl, DIAG_ERROR, "PTX-LEX-004", lx->path, line, col,
                     "unterminated string literal");
            push(lx, PTX_TOK_STRING, start, line, col);
            return;
        }
        lx->pos++;
        if (c == '\\' && peek(lx, 0) >= 0 && peek(lx, 0) != '\n')
            lx->pos++;
        else if (c == '"')
            break;
    }
    push(lx, PTX_TOK_STRING, start, line, col);
}

/* A '.' that directly follows a word (no space) starts a modifier even before a digit: the
 * geometries .1d, .2d, .3d of the surface instructions. */
static bool follows_word(const lexer *lx, size_t start)
{
    if (lx->out->count == 0)
        return false;
    const ptx_token *t = &lx->out->items[lx->out->count - 1];
    return (t->kind == PTX_TOK_IDENT || t->kind == PTX_TOK_DOTNAME) && t->offset + t->len == start;
}

static void lex_one(lexer *lx)
{
    int c = peek(lx, 0);
    size_t start = lx->pos;
    uint32_t line = lx->line, col = (uint32_t)(lx->pos - lx->line_start + 1);
    if (is_ident_start(c) && (c != '%' || is_ident_char(peek(lx, 1)))) {
        lx->pos++;
        while (is_ident_char(peek(lx, 0)))
            lx->pos++;
        push(lx, PTX_TOK_IDENT, start, line, col);
    } else if (c == '.' && ((is_ident_start(peek(lx, 1)) && peek(lx, 1) != '%') ||
                            (is_digit(peek(lx, 1)) && follows_word(lx, start)))) {
        lx->pos++;
        for (;;) {
            if (is_ident_char(peek(lx, 0)))
                lx->pos++;
            else if (peek(lx, 0) == ':' && peek(lx, 1) == ':' && is_ident_char(peek(lx, 2)))
                lx->pos += 2;
            else
                break;
        }
        push(lx, PTX_TOK_DOTNAME, start, line, col);
    } else if (is_digit(c) || (c == '.' && is_digit(peek(lx, 1)))) {
        if (c == '.')
            lex_float_decimal(lx, start, line, col);
        else
            lex_number(lx, line, col);
    } else if (c == '"') {
        lex_string(lx, line, col);
    } else if (c > 0 && strchr(",;:{}[]()<>+-*/~!@|=&^%?", c)) {
        lx->pos++;
        ptx_token *t = push(lx, PTX_TOK_PUNCT, start, line, col);
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
    lexer lx = {.path = path, .text = text, .len = len, .line = 1, .out = out, .dl = dl};
    out->items = NULL;
    out->count = 0;
    out->capacity = 0;
    if (len > UINT32_MAX / 2) {
        diag_add(dl, DIAG_ERROR, "PTX-LIMIT-002", path, 0, 0, "module text is too large");
        return -1;
    }
    for (;;) {
        skip_space(&lx);
        if (lx.pos >= lx.len || lx.oom)
            break;
        lex_one(&lx);
    }
    if (!lx.oom)
        push(&lx, PTX_TOK_EOF, lx.pos, lx.line, (uint32_t)(lx.pos - lx.line_start + 1));
    if (lx.oom) {
        diag_add(dl, DIAG_ERROR, "PTX-LIMIT-002", path, lx.line, 0, "out of memory while lexing");
        ptx_tokens_free(out);
        return -1;
    }
    return 0;
}

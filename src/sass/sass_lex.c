/* The SASS-style lexer (sass_internal.h): one pass over the bytes into the front-ends' shared
 * tokens (fe_token.h). Names (R0, SR_TID, labels), dotted names (.E, .PF1, .32: the dot and the
 * letters and digits after it), decimal and 0x integers, punctuation, and two tokens of its own:
 * the maxas control prefix `ww:r:w:y:s` and the CuAssembler prefix `[B......:R.:W.:.:S..]`,
 * recognised only where an instruction may start (the first token of a line, or right after a
 * label's ':'), so that they never shadow an operand. Comments: `//` to the end of the line and
 * `/ * ... * /` blocks (disassembly prints addresses and encodings in them). Columns count bytes
 * from 1. */
#include "sass/sass_internal.h"
#include "frontend/fe_text.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    const char *path;
    const char *text;
    size_t len, pos;
    uint32_t line, line_start;
    fe_token_list *out;
    diag_list *dl;
    uint32_t last_line; /* line of the last token pushed; 0 before the first */
    int oom;
} lexer;

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_word(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }
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
    else
        lx->last_line = line;
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
        diag_add(lx->dl, DIAG_ERROR, "SASS-LEX-003", lx->path, line, col, "unterminated block comment");
}

/* Length of a maxas prefix `ww:r:w:y:s` at the current position (followed by a blank), or 0.
 * The fields are checked loosely here (hex digits, '-', letters); the parser decodes them and
 * reports a malformed one. */
static size_t maxas_length(const lexer *lx)
{
    static const unsigned widths[] = {2, 1, 1, 1, 1};
    size_t p = 0;
    for (unsigned f = 0; f < 5; f++) {
        for (unsigned i = 0; i < widths[f]; i++, p++) {
            int c = peek(lx, p);
            if (!is_hex(c) && c != '-' && c != 'Y' && c != 'y')
                return 0;
        }
        if (f < 4 && peek(lx, p++) != ':')
            return 0;
    }
    int after = peek(lx, p);
    return after == ' ' || after == '\t' ? p : 0;
}

/* Length of a CuAssembler prefix `[B...:R.:W.:.:S..]` at the current position, or 0. */
static size_t cuas_length(const lexer *lx)
{
    if (peek(lx, 0) != '[' || peek(lx, 1) != 'B')
        return 0;
    size_t p = 2;
    unsigned colons = 0;
    for (;; p++) {
        int c = peek(lx, p);
        if (c == ']')
            return colons == 4 ? p + 1 : 0;
        if (c == ':')
            colons++;
        else if (!is_word(c) && c != '-')
            return 0;
        if (p > 40)
            return 0;
    }
}

static void lex_number(lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos;
    uint64_t value = 0;
    int bad = 0, overflow = 0;
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
    }
    bad = digits == 0 || is_word(peek(lx, 0)) || overflow;
    while (is_word(peek(lx, 0)))
        lx->pos++;
    fe_token *t = push(lx, FE_TOK_INT, start, line, col);
    if (!t)
        return;
    t->ivalue = value;
    t->overflow = (uint8_t)overflow;
    if (bad)
        diag_add(lx->dl, DIAG_ERROR, "SASS-LEX-002", lx->path, line, col, "malformed number '%.*s'",
                 (int)(t->len > 40 ? 40 : t->len), t->text);
}

/* Whether an instruction may start here: first token of its line, or right after a label. */
static int at_insn_start(const lexer *lx)
{
    const fe_token_list *o = lx->out;
    if (o->count == 0 || lx->last_line != lx->line)
        return 1;
    const fe_token *t = &o->items[o->count - 1];
    return t->kind == FE_TOK_PUNCT && t->punct == ':' && o->count >= 2 &&
           o->items[o->count - 2].kind == FE_TOK_IDENT;
}

static void lex_token(lexer *lx)
{
    uint32_t line = lx->line, col = (uint32_t)(lx->pos - lx->line_start + 1);
    size_t start = lx->pos;
    int c = peek(lx, 0);
    size_t n;
    if (at_insn_start(lx) && ((n = maxas_length(lx)) || (n = cuas_length(lx)))) {
        uint8_t kind = c == '[' ? SASS_TOK_CUAS : SASS_TOK_MAXAS;
        lx->pos += n;
        push(lx, kind, start, line, col);
    } else if (is_alpha(c) || c == '_' || c == '$') {
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
    } else if (c >= 0 && strchr(",;:{}[]+-~!@&=?()", c)) {
        lx->pos++;
        fe_token *t = push(lx, FE_TOK_PUNCT, start, line, col);
        if (t)
            t->punct = (char)c;
    } else {
        lx->pos++;
        diag_add(lx->dl, DIAG_ERROR, "SASS-LEX-001", lx->path, line, col,
                 "unexpected character '%c'", c >= 32 && c < 127 ? c : '?');
    }
}

int sass_lex(const char *path, const char *text, size_t len, fe_token_list *out, diag_list *dl)
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
        diag_add(dl, DIAG_ERROR, "SASS-LIMIT-001", path, lx.line, 0, "out of memory");
        fe_token_list_free(out);
        return -1;
    }
    return 0;
}

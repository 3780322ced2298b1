/* The SASS-style lexer (sass_internal.h): one pass over the bytes into the front-ends' shared
 * tokens (fe_token.h). Names (R0, SR_TID, labels), dotted names (.E, .PF1, .32: the dot and the
 * letters and digits after it), decimal and 0x integers, punctuation, and two tokens of its own:
 * the maxas control prefix `ww:r:w:y:s` and the CuAssembler prefix `[B......:R.:W.:.:S..]`,
 * recognised only where an instruction may start (the first token of a line, or right after a
 * label's ':'), so that they never shadow an operand. Comments: `//` to the end of the line and
 * `/ * ... * /` blocks (disassembly prints addresses and encodings in them). Columns count bytes
 * from 1. */
#include "sass/sass_internal.h"
#include "frontend/fe_lex.h"

#include <stdlib.h>
#include <string.h>

static const fe_lex_rules rules = {"SASS-LEX-003", "SASS-LEX-002", "SASS-LIMIT-001"};

static int is_word(int c) { return fe_is_alpha(c) || fe_is_digit(c) || c == '_' || c == '$'; }

/* Length of a maxas prefix `ww:r:w:y:s` at the current position (followed by a blank), or 0.
 * The fields are checked loosely here (hex digits, '-', letters); the parser decodes them and
 * reports a malformed one. */
static size_t maxas_length(const fe_lexer *lx)
{
    static const unsigned widths[] = {2, 1, 1, 1, 1};
    size_t p = 0;
    for (unsigned f = 0; f < 5; f++) {
        for (unsigned i = 0; i < widths[f]; i++, p++) {
            int c = fe_lex_peek(lx, p);
            if (!fe_is_hex(c) && c != '-' && c != 'Y' && c != 'y')
                return 0;
        }
        if (f < 4 && fe_lex_peek(lx, p++) != ':')
            return 0;
    }
    int after = fe_lex_peek(lx, p);
    return after == ' ' || after == '\t' ? p : 0;
}

/* Length of a CuAssembler prefix `[B...:R.:W.:.:S..]` at the current position, or 0. */
static size_t cuas_length(const fe_lexer *lx)
{
    if (fe_lex_peek(lx, 0) != '[' || fe_lex_peek(lx, 1) != 'B')
        return 0;
    size_t p = 2;
    unsigned colons = 0;
    for (;; p++) {
        int c = fe_lex_peek(lx, p);
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

static void lex_number(fe_lexer *lx, uint32_t line, uint32_t col)
{
    size_t start = lx->pos;
    uint64_t value;
    int overflow;
    size_t digits = fe_lex_uint(lx, &value, &overflow);
    int bad = digits == 0 || is_word(fe_lex_peek(lx, 0)) || overflow;
    while (is_word(fe_lex_peek(lx, 0)))
        lx->pos++;
    fe_lex_push_int(lx, start, line, col, value, overflow, bad);
}

/* Whether an instruction may start here: first token of its line, or right after a label. */
static int at_insn_start(const fe_lexer *lx)
{
    const fe_token_list *o = lx->out;
    if (o->count == 0 || lx->last_line != lx->line)
        return 1;
    const fe_token *t = &o->items[o->count - 1];
    return t->kind == FE_TOK_PUNCT && t->punct == ':' && o->count >= 2 &&
           o->items[o->count - 2].kind == FE_TOK_IDENT;
}

static void lex_token(fe_lexer *lx)
{
    uint32_t line = lx->line, col = fe_lex_col(lx);
    size_t start = lx->pos;
    int c = fe_lex_peek(lx, 0);
    size_t n;
    if (at_insn_start(lx) && ((n = maxas_length(lx)) || (n = cuas_length(lx)))) {
        uint8_t kind = c == '[' ? SASS_TOK_CUAS : SASS_TOK_MAXAS;
        lx->pos += n;
        fe_lex_push(lx, kind, start, line, col);
    } else if (fe_is_alpha(c) || c == '_' || c == '$') {
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
    } else if (c >= 0 && strchr(",;:{}[]+-~!@&=?()", c)) {
        lx->pos++;
        fe_token *t = fe_lex_push(lx, FE_TOK_PUNCT, start, line, col);
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
    fe_lexer lx = {.path = path, .text = text, .len = len, .line = 1, .out = out, .dl = dl,
                   .rules = rules};
    return fe_lex_run(&lx, lex_token, "out of memory");
}

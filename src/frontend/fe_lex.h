/* The lexer machinery the dialects' lexers share (docs/architecture.md, "The front-end layer").
 *
 * A dialect's lexer decides what its tokens are; what every dialect does the same way lives here:
 * the lexer's place in its text, the character classes, pushing a token, skipping blanks and
 * comments, scanning a decimal or 0x integer, and the driver that alternates blanks and tokens,
 * appends the end-of-file token and turns an allocation failure into one diagnostic. Each
 * dialect passes its own rule ids, so that its diagnostics keep their names. */
#ifndef GMS_FRONTEND_FE_LEX_H
#define GMS_FRONTEND_FE_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontend/fe_token.h"

/* A lexer's place in its text: the byte offset, the line (from 1) and the offset where that line
 * starts (columns are pos - line_start + 1). */
typedef struct fe_text_pos {
    size_t pos;
    uint32_t line, line_start;
} fe_text_pos;

/* Rule ids a dialect reports its lexing problems under. */
typedef struct fe_lex_rules {
    const char *comment; /* a block comment not closed before the end of the text */
    const char *number;  /* a malformed integer literal (fe_lex_push_int) */
    const char *limit;   /* host memory ran out (fe_lex_run) */
} fe_lex_rules;

/* One pass over one text. Set path, text, len, out, dl and rules, line = 1, the rest zero. */
typedef struct fe_lexer {
    const char *path;     /* for diagnostics */
    const char *text;     /* borrowed; not NUL-terminated */
    size_t len, pos;
    uint32_t line, line_start;
    fe_token_list *out;   /* the tokens so far */
    diag_list *dl;
    fe_lex_rules rules;
    uint32_t last_line;   /* line of the last token pushed; 0 before the first */
    int oom;              /* a push failed: the driver stops and reports rules.limit */
} fe_lexer;

static inline int fe_is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline int fe_is_digit(int c) { return c >= '0' && c <= '9'; }
static inline int fe_is_hex(int c)
{
    return fe_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The byte `ahead` bytes after the current position (0..255), or -1 past the end. */
static inline int fe_lex_peek(const fe_lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->text[lx->pos + ahead] : -1;
}

/* The current position's column (1-based, in bytes). */
static inline uint32_t fe_lex_col(const fe_lexer *lx)
{
    return (uint32_t)(lx->pos - lx->line_start + 1);
}

/* Appends a token of `kind` covering text[start, pos) that starts at line:col. Returns it, or
 * NULL when host memory ran out (lx->oom is then set and the list is unchanged). */
fe_token *fe_lex_push(fe_lexer *lx, uint8_t kind, size_t start, uint32_t line, uint32_t col);

/* Skips blanks (space, tab, CR, FF, VT), newlines, `//` comments to the end of the line and
 * `/ * ... * /` block comments in text[0, len) from p->pos, keeping p's line and line start up to
 * date. Stops at the first other byte or at the end. Returns 0, or -1 when a block comment is not
 * closed before the end: *open_line and *open_col (1-based) are then where it starts and p is at
 * the end of the text. */
int fe_skip_blanks(const char *text, size_t len, fe_text_pos *p, uint32_t *open_line,
                   uint32_t *open_col);

/* fe_skip_blanks from the lexer's position; an unclosed block comment is reported as
 * rules.comment at its start. */
void fe_lex_skip_space(fe_lexer *lx);

/* Scans an unsigned integer at the current position: `0x`/`0X` and hex digits, or decimal
 * digits, and moves past them. Returns how many digits it read (0: none after a `0x`, or no
 * digit at all); *value is the value modulo 2^64 and *overflow 1 when it did not fit. */
size_t fe_lex_uint(fe_lexer *lx, uint64_t *value, int *overflow);

/* Pushes FE_TOK_INT for text[start, pos) with `value` and `overflow` (fe_lex_uint's); `bad`:
 * the literal is malformed, reported as rules.number ("malformed number 'TEXT'", TEXT cut at 40
 * bytes). Returns the token, or NULL when host memory ran out. */
fe_token *fe_lex_push_int(fe_lexer *lx, size_t start, uint32_t line, uint32_t col, uint64_t value,
                          int overflow, int bad);

/* The driver: starts lx->out empty, then alternates fe_lex_skip_space and `token` (which must
 * consume at least one byte, pushing tokens and reporting its own diagnostics) up to the end of
 * the text, and appends FE_TOK_EOF at the end position. Returns 0; or -1 when host memory ran
 * out: rules.limit is reported with `oom_message`, and lx->out is freed. */
int fe_lex_run(fe_lexer *lx, void (*token)(fe_lexer *lx), const char *oom_message);

#endif

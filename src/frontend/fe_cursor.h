/* The token cursor of the front-ends' recursive-descent parsers: where the parser is in the token
 * list, the one way to report an error at a position, and recovery after an error.
 *
 * A parser reads tokens with peek/next/accept/expect; the cursor never moves past the EOF token,
 * so a parser that keeps asking for tokens at the end of the text sees EOF again and again and
 * needs no bounds checks. Errors go to the caller's diagnostics list as
 * `file:line:col: error: message [RULE]`; after a limit error (a size the simulator cannot hold)
 * a parser mutes the cursor so that the follow-on errors of what the limit left half-read are
 * dropped. Recovery skips to a synchronising token: the end of a statement, or the brace that
 * closes the block, so that one bad statement costs one diagnostic and parsing goes on.
 *
 * What the cursor does not know: the dialect's grammar, its keywords and its rule ids (the parser
 * passes them in). It does not allocate. */
#ifndef GMS_FRONTEND_FE_CURSOR_H
#define GMS_FRONTEND_FE_CURSOR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontend/fe_token.h"

typedef struct fe_cursor {
    const fe_token *tok;     /* borrowed: ntok >= 1 tokens, the last one FE_TOK_EOF */
    size_t ntok;
    size_t pos;              /* index of the current token; never beyond the EOF token */
    diag_list *dl;           /* borrowed: receives every diagnostic */
    const char *path;        /* borrowed: the file the diagnostics name */
    const char *syntax_rule; /* the dialect's rule for "expected X, found Y" (PTX-PARSE-001) */
    bool muted;              /* errors are dropped (the follow-ons of a limit error) */
    bool oom;                /* out of memory was reported; the parser should stop */
} fe_cursor;

/* Starts a cursor at the first of `ntok` tokens (borrowed; ntok >= 1 and the last is FE_TOK_EOF).
 * `path`, `dl` and `syntax_rule` are borrowed for the cursor's life. Not muted. */
void fe_cursor_init(fe_cursor *c, const fe_token *tok, size_t ntok, const char *path,
                    diag_list *dl, const char *syntax_rule);

/* The token `ahead` places after the current one (0: the current token); the EOF token for any
 * position past the end. */
static inline const fe_token *fe_cursor_peek(const fe_cursor *c, size_t ahead)
{
    size_t i = c->pos + ahead;
    return &c->tok[i < c->ntok ? i : c->ntok - 1];
}

/* Returns the current token and moves past it, except past the EOF token. */
static inline const fe_token *fe_cursor_next(fe_cursor *c)
{
    const fe_token *t = fe_cursor_peek(c, 0);
    if (c->pos + 1 < c->ntok)
        c->pos++;
    return t;
}

/* The token before the current one, or NULL at the start. */
const fe_token *fe_cursor_previous(const fe_cursor *c);

/* Consumes the current token when it is the punctuation `ch`; returns whether it did. */
bool fe_cursor_accept_punct(fe_cursor *c, char ch);

/* Consumes the punctuation `ch`, or reports c->syntax_rule "expected 'ch' <what>, found <token>"
 * at the current token and consumes nothing. Returns whether `ch` was there. */
bool fe_cursor_expect_punct(fe_cursor *c, char ch, const char *what);

/* Reports an error with rule id `rule` at line:col of c->path (1-based; 0 when unknown) with a
 * printf-style message of at most 511 bytes. Dropped while the cursor is muted. */
void fe_cursor_error_at(fe_cursor *c, uint32_t line, uint32_t col, const char *rule,
                        const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void fe_cursor_verror_at(fe_cursor *c, uint32_t line, uint32_t col, const char *rule,
                         const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* Reports out of memory once (rule id `rule`, at the current token's line) and sets c->oom. */
void fe_cursor_oom(fe_cursor *c, const char *rule);

/* Recovery after an error in a statement: skips tokens up to and including the next `end`
 * (';'), but stops before any character of `stops` ("{}": the braces of blocks) and at EOF. */
void fe_cursor_recover(fe_cursor *c, char end, const char *stops);

/* Recovery that rewinds first: goes back to token index `start` (the statement's first token;
 * ignored when it is ahead of the cursor) and skips the whole statement, groups opened by `open`
 * and closed by `close` included (a vector operand `{a, b}`): it stops after the next `end`, or
 * before a `close` that closes no group it opened, or at EOF. */
void fe_cursor_recover_from(fe_cursor *c, size_t start, char end, char open, char close);

/* Skips tokens until `depth` groups opened by `open` are closed by `close` (the closing token is
 * consumed) or EOF. With the cursor just past a '{', depth 1 skips the rest of that block. */
void fe_cursor_skip_groups(fe_cursor *c, char open, char close, int depth);

#endif

/* Tokens as the front-ends' lexers produce them and their parsers read them (fe_cursor.h).
 *
 * Every dialect's text is made of the same few token shapes: names, dotted names (PTX's `.global`,
 * SASS modifiers such as `.E`), integer and floating-point literals, strings and one-character
 * punctuation. Each token keeps its exact position for diagnostics. A dialect may add token kinds
 * of its own from FE_TOK_DIALECT on (PTX: the 0f/0d float-bit literals); the shared helpers
 * treat those as plain words. A lexer is dialect code: this header only fixes the shape. */
#ifndef GMS_FRONTEND_FE_TOKEN_H
#define GMS_FRONTEND_FE_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum fe_token_kind {
    FE_TOK_EOF = 0,     /* the end of the text: always the last token of a list */
    FE_TOK_IDENT,       /* a name: foo, %r1, $L__BB0_2, R0 */
    FE_TOK_DOTNAME,     /* a dotted name; the text includes the dot: .global, .L2::cache_hint */
    FE_TOK_INT,         /* an integer literal: value in ivalue */
    FE_TOK_FLOAT,       /* a decimal floating-point literal: value in fvalue */
    FE_TOK_STRING,      /* "text": text/len include the quotes */
    FE_TOK_PUNCT,       /* one punctuation character, in punct */
    FE_TOK_DIALECT = 16 /* the first kind a dialect may define for itself */
} fe_token_kind;

typedef struct fe_token {
    uint8_t kind;        /* fe_token_kind, or a dialect's own kind >= FE_TOK_DIALECT */
    uint8_t is_unsigned; /* INT with an unsigned suffix */
    uint8_t overflow;    /* INT did not fit in 64 bits */
    char punct;          /* PUNCT: the character */
    uint32_t line, col;  /* 1-based; col counts bytes */
    uint32_t offset;     /* byte offset of the first character in the text */
    uint32_t len;        /* bytes of text */
    const char *text;    /* borrowed pointer into the module text (not NUL-terminated) */
    uint64_t ivalue;     /* INT value, or a dialect's bit-pattern literal */
    double fvalue;       /* FLOAT value */
} fe_token;

typedef struct fe_token_list {
    fe_token *items; /* owned (malloc); the last item is always FE_TOK_EOF */
    size_t count;
    size_t capacity; /* items allocated; start from an all-zero list */
} fe_token_list;

/* Whether `t` is the punctuation character `c`. */
static inline bool fe_token_is_punct(const fe_token *t, char c)
{
    return t->kind == FE_TOK_PUNCT && t->punct == c;
}

/* Whether `t` is of `kind` and spelled exactly `text` (NUL-terminated, compared byte for byte). */
static inline bool fe_token_is(const fe_token *t, uint8_t kind, const char *text)
{
    return t->kind == kind && strlen(text) == t->len && memcmp(t->text, text, t->len) == 0;
}

/* Names a token for a message: "end of file", or its text in single quotes, cut at 40 bytes.
 * Writes into buf (size bytes, NUL-terminated) unless it returns a constant; returns the text. */
const char *fe_token_describe(const fe_token *t, char *buf, size_t size);

/* Appends a token of `kind` that covers text[start, end) and starts at line:col, its other fields
 * zero, growing the array by doubling. Returns the new token, or NULL when out of memory (the
 * list is unchanged). */
fe_token *fe_token_list_push(fe_token_list *list, uint8_t kind, const char *text, size_t start,
                             size_t end, uint32_t line, uint32_t col);

/* Frees the token array of a list; the list is empty afterwards. */
void fe_token_list_free(fe_token_list *list);

#endif

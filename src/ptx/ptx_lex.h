/* PTX lexer: turns module text into a flat token array with exact line/column positions.
 *
 * It knows PTX's token shapes (identifiers with % and $, dotted directive and modifier names such as
 * `.L2::cache_hint`, the integer and float literal forms, strings, punctuation) but nothing about
 * grammar; the parser (ptx_parse.c) gives tokens meaning. It is not a preprocessor: PTX's optional
 * C-style #include/#define lines are rejected with a diagnostic. */
#ifndef GMS_PTX_PTX_LEX_H
#define GMS_PTX_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

typedef enum ptx_tok_kind {
    PTX_TOK_EOF = 0,
    PTX_TOK_IDENT,   /* foo, %r1, $L__BB0_2, __$1, _Z3fooi */
    PTX_TOK_DOTNAME, /* .global, .L2::cache_hint, .v4, .x (the text includes the dot) */
    PTX_TOK_INT,     /* decimal, 0x.., 0.. (octal), 0b..; optional U suffix */
    PTX_TOK_FLOAT,   /* decimal float 1.0, 0.5, 1e-3: value in fvalue */
    PTX_TOK_F32BITS, /* 0f3F800000: the 32 IEEE bits in ivalue */
    PTX_TOK_F64BITS, /* 0d3FF0000000000000: the 64 IEEE bits in ivalue */
    PTX_TOK_STRING,  /* "text" (text/len include the quotes) */
    PTX_TOK_PUNCT    /* one character: , ; : { } [ ] ( ) < > + - * / ~ ! @ | = & ^ % ? */
} ptx_tok_kind;

typedef struct ptx_token {
    uint8_t kind;        /* ptx_tok_kind */
    uint8_t is_unsigned; /* INT with a U suffix */
    uint8_t overflow;    /* INT did not fit in 64 bits */
    char punct;          /* PUNCT: the character */
    uint32_t line, col;  /* 1-based; col counts bytes */
    uint32_t offset;     /* byte offset of the first character */
    uint32_t len;        /* bytes of text */
    const char *text;    /* borrowed pointer into the module text (not NUL-terminated) */
    uint64_t ivalue;     /* INT value / F32BITS / F64BITS bits */
    double fvalue;       /* FLOAT value */
} ptx_token;

typedef struct ptx_token_list {
    ptx_token *items; /* owned (malloc); the last item is always PTX_TOK_EOF */
    size_t count;
} ptx_token_list;

/* Lexes `len` bytes of `text` (need not be NUL-terminated) into `out`. Lexical errors (stray
 * characters, bad literals, unterminated strings or comments) are reported to `dl` under
 * PTX-LEX-001..PTX-LEX-004 and skipped, so the parser still sees the rest of the file.
 * Returns 0, or -1 when out of memory (PTX-LIMIT-002 is reported). Free with ptx_tokens_free. */
int ptx_lex(const char *path, const char *text, size_t len, ptx_token_list *out, diag_list *dl);
void ptx_tokens_free(ptx_token_list *list);

#endif

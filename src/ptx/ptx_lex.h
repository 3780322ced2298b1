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
#include "frontend/fe_token.h"

/* PTX's tokens are the front-ends' shared tokens (fe_token.h) plus two literal kinds of its own. */
typedef enum ptx_tok_kind {
    PTX_TOK_EOF = FE_TOK_EOF,
    PTX_TOK_IDENT = FE_TOK_IDENT,     /* foo, %r1, $L__BB0_2, __$1, _Z3fooi */
    PTX_TOK_DOTNAME = FE_TOK_DOTNAME, /* .global, .L2::cache_hint, .v4, .x (with the dot) */
    PTX_TOK_INT = FE_TOK_INT,         /* decimal, 0x.., 0.. (octal), 0b..; optional U suffix */
    PTX_TOK_FLOAT = FE_TOK_FLOAT,     /* decimal float 1.0, 0.5, 1e-3: value in fvalue */
    PTX_TOK_STRING = FE_TOK_STRING,   /* "text" (text/len include the quotes) */
    PTX_TOK_PUNCT = FE_TOK_PUNCT,     /* one of , ; : { } [ ] ( ) < > + - * / ~ ! @ | = & ^ % ? */
    PTX_TOK_F32BITS = FE_TOK_DIALECT, /* 0f3F800000: the 32 IEEE bits in ivalue */
    PTX_TOK_F64BITS                   /* 0d3FF0000000000000: the 64 IEEE bits in ivalue */
} ptx_tok_kind;

typedef fe_token ptx_token;           /* is_unsigned: an INT with a U suffix */
typedef fe_token_list ptx_token_list;

/* Lexes `len` bytes of `text` (need not be NUL-terminated) into `out`. Lexical errors (stray
 * characters, bad literals, unterminated strings or comments) are reported to `dl` under
 * PTX-LEX-001..PTX-LEX-004 and skipped, so the parser still sees the rest of the file.
 * Returns 0, or -1 when out of memory (PTX-LIMIT-002 is reported). Free with ptx_tokens_free. */
int ptx_lex(const char *path, const char *text, size_t len, ptx_token_list *out, diag_list *dl);
static inline void ptx_tokens_free(ptx_token_list *list) { fe_token_list_free(list); }

#endif

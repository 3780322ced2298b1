/* A tiny lexer for the front-end helper tests: names (letters, digits, '_', '%', '$'), dotted
 * names, decimal integers and one-character punctuation, separated by blanks and newlines, with
 * exact 1-based lines and columns. It stands for a dialect's lexer so that the shared cursor,
 * scopes and labels are tested without the PTX front-end. */
#ifndef GMS_TESTS_FE_TOKENS_H
#define GMS_TESTS_FE_TOKENS_H

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe_token.h"

static int fe_test_word_char(int c) { return isalnum(c) || c == '_' || c == '%' || c == '$'; }

/* Lexes `text` into a malloc'd token array ending with FE_TOK_EOF; *count receives its length. */
static fe_token *fe_test_lex(const char *text, size_t *count)
{
    size_t n = strlen(text), cap = n + 1, k = 0;
    fe_token *toks = calloc(cap, sizeof *toks);
    uint32_t line = 1, line_start = 0;
    for (size_t i = 0; i < n;) {
        int c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            line_start = (uint32_t)++i;
            continue;
        }
        if (c == ' ' || c == '\t') {
            i++;
            continue;
        }
        fe_token *t = &toks[k++];
        size_t start = i;
        if (c == '.' && i + 1 < n && fe_test_word_char((unsigned char)text[i + 1])) {
            t->kind = FE_TOK_DOTNAME;
            for (i++; i < n && fe_test_word_char((unsigned char)text[i]); i++) {
            }
        } else if (isdigit(c)) {
            t->kind = FE_TOK_INT;
            for (; i < n && isdigit((unsigned char)text[i]); i++)
                t->ivalue = t->ivalue * 10 + (uint64_t)(text[i] - '0');
        } else if (fe_test_word_char(c)) {
            t->kind = FE_TOK_IDENT;
            for (; i < n && fe_test_word_char((unsigned char)text[i]); i++) {
            }
        } else {
            t->kind = FE_TOK_PUNCT;
            t->punct = (char)c;
            i++;
        }
        t->line = line;
        t->col = (uint32_t)(start - line_start) + 1;
        t->offset = (uint32_t)start;
        t->text = text + start;
        t->len = (uint32_t)(i - start);
    }
    toks[k].kind = FE_TOK_EOF;
    toks[k].line = line;
    toks[k].col = (uint32_t)(n - line_start) + 1;
    toks[k].text = text + n;
    *count = k + 1;
    return toks;
}

#endif

/* The lexer machinery the dialects share (fe_lex.h). */
#include "frontend/fe_lex.h"

int fe_skip_blanks(const char *text, size_t len, fe_text_pos *p, uint32_t *open_line,
                   uint32_t *open_col)
{
    while (p->pos < len) {
        char c = text[p->pos];
        char next = p->pos + 1 < len ? text[p->pos + 1] : '\0';
        if (c == '\n') {
            p->pos++;
            p->line++;
            p->line_start = (uint32_t)p->pos;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p->pos++;
        } else if (c == '/' && next == '/') {
            while (p->pos < len && text[p->pos] != '\n')
                p->pos++;
        } else if (c == '/' && next == '*') {
            *open_line = p->line;
            *open_col = (uint32_t)(p->pos - p->line_start + 1);
            p->pos += 2;
            for (;;) {
                if (p->pos >= len)
                    return -1;
                if (text[p->pos] == '*' && p->pos + 1 < len && text[p->pos + 1] == '/') {
                    p->pos += 2;
                    break;
                }
                if (text[p->pos] == '\n') {
                    p->line++;
                    p->line_start = (uint32_t)p->pos + 1;
                }
                p->pos++;
            }
        } else {
            return 0;
        }
    }
    return 0;
}

fe_token *fe_lex_push(fe_lexer *lx, uint8_t kind, size_t start, uint32_t line, uint32_t col)
{
    fe_token *t = fe_token_list_push(lx->out, kind, lx->text, start, lx->pos, line, col);
    if (!t)
        lx->oom = 1;
    else
        lx->last_line = line;
    return t;
}

void fe_lex_skip_space(fe_lexer *lx)
{
    fe_text_pos p = {lx->pos, lx->line, lx->line_start};
    uint32_t line = 0, col = 0;
    int unclosed = fe_skip_blanks(lx->text, lx->len, &p, &line, &col);
    lx->pos = p.pos;
    lx->line = p.line;
    lx->line_start = p.line_start;
    if (unclosed)
        diag_add(lx->dl, DIAG_ERROR, lx->rules.comment, lx->path, line, col,
                 "unterminated block comment");
}

size_t fe_lex_uint(fe_lexer *lx, uint64_t *value, int *overflow)
{
    size_t digits = 0;
    *value = 0;
    *overflow = 0;
    if (fe_lex_peek(lx, 0) == '0' && (fe_lex_peek(lx, 1) == 'x' || fe_lex_peek(lx, 1) == 'X')) {
        lx->pos += 2;
        for (int c; fe_is_hex(c = fe_lex_peek(lx, 0)); lx->pos++, digits++) {
            unsigned v = (unsigned)(fe_is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
            *overflow |= *value >> 60 != 0;
            *value = *value << 4 | v;
        }
        return digits;
    }
    for (int c; fe_is_digit(c = fe_lex_peek(lx, 0)); lx->pos++, digits++) {
        unsigned v = (unsigned)(c - '0');
        *overflow |= *value > (UINT64_MAX - v) / 10;
        *value = *value * 10 + v;
    }
    return digits;
}

fe_token *fe_lex_push_int(fe_lexer *lx, size_t start, uint32_t line, uint32_t col, uint64_t value,
                          int overflow, int bad)
{
    fe_token *t = fe_lex_push(lx, FE_TOK_INT, start, line, col);
    if (!t)
        return NULL;
    t->ivalue = value;
    t->overflow = (uint8_t)overflow;
    if (bad)
        diag_add(lx->dl, DIAG_ERROR, lx->rules.number, lx->path, line, col,
                 "malformed number '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
    return t;
}

int fe_lex_run(fe_lexer *lx, void (*token)(fe_lexer *lx), const char *oom_message)
{
    lx->out->items = NULL;
    lx->out->count = 0;
    lx->out->capacity = 0;
    for (;;) {
        fe_lex_skip_space(lx);
        if (lx->pos >= lx->len || lx->oom)
            break;
        token(lx);
    }
    if (!lx->oom)
        fe_lex_push(lx, FE_TOK_EOF, lx->pos, lx->line, fe_lex_col(lx));
    if (!lx->oom)
        return 0;
    diag_add(lx->dl, DIAG_ERROR, lx->rules.limit, lx->path, lx->line, 0, "%s", oom_message);
    fe_token_list_free(lx->out);
    return -1;
}

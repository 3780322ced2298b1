/* The front-ends' token cursor (fe_cursor.h) and token helpers (fe_token.h). */
#include "frontend/fe_cursor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fe_token_describe(const fe_token *t, char *buf, size_t size)
{
    if (t->kind == FE_TOK_EOF)
        return "end of file";
    snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
    return buf;
}

fe_token *fe_token_list_push(fe_token_list *list, uint8_t kind, const char *text, size_t start,
                             size_t end, uint32_t line, uint32_t col)
{
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 1024;
        fe_token *grown = realloc(list->items, cap * sizeof *grown);
        if (!grown)
            return NULL;
        list->items = grown;
        list->capacity = cap;
    }
    fe_token *t = &list->items[list->count++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->line = line;
    t->col = col;
    t->offset = (uint32_t)start;
    t->text = text + start;
    t->len = (uint32_t)(end - start);
    return t;
}

void fe_token_list_free(fe_token_list *list)
{
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

void fe_cursor_init(fe_cursor *c, const fe_token *tok, size_t ntok, const char *path,
                    diag_list *dl, const char *syntax_rule)
{
    c->tok = tok;
    c->ntok = ntok;
    c->pos = 0;
    c->dl = dl;
    c->path = path;
    c->syntax_rule = syntax_rule;
    c->muted = false;
    c->oom = false;
}

const fe_token *fe_cursor_previous(const fe_cursor *c)
{
    return c->pos > 0 ? &c->tok[c->pos - 1] : NULL;
}

bool fe_cursor_accept_punct(fe_cursor *c, char ch)
{
    if (!fe_token_is_punct(fe_cursor_peek(c, 0), ch))
        return false;
    fe_cursor_next(c);
    return true;
}

bool fe_cursor_expect_punct(fe_cursor *c, char ch, const char *what)
{
    if (fe_cursor_accept_punct(c, ch))
        return true;
    char buf[64];
    const fe_token *t = fe_cursor_peek(c, 0);
    fe_cursor_error_at(c, t->line, t->col, c->syntax_rule, "expected '%c' %s, found %s", ch, what,
                       fe_token_describe(t, buf, sizeof buf));
    return false;
}

void fe_cursor_verror_at(fe_cursor *c, uint32_t line, uint32_t col, const char *rule,
                         const char *fmt, va_list ap)
{
    if (c->muted)
        return;
    /* Formatted here, not by diag_add, so that every dialect cuts long messages the same way. */
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    diag_add(c->dl, DIAG_ERROR, rule, c->path, line, col, "%s", msg);
}

void fe_cursor_error_at(fe_cursor *c, uint32_t line, uint32_t col, const char *rule,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fe_cursor_verror_at(c, line, col, rule, fmt, ap);
    va_end(ap);
}

void fe_cursor_oom(fe_cursor *c, const char *rule)
{
    if (!c->oom)
        diag_add(c->dl, DIAG_ERROR, rule, c->path, fe_cursor_peek(c, 0)->line, 0,
                 "out of memory");
    c->oom = true;
}

void fe_cursor_recover(fe_cursor *c, char end, const char *stops)
{
    for (;;) {
        const fe_token *t = fe_cursor_peek(c, 0);
        bool stop = t->kind == FE_TOK_PUNCT && t->punct && strchr(stops, t->punct);
        if (t->kind == FE_TOK_EOF || stop)
            return;
        fe_cursor_next(c);
        if (fe_token_is_punct(t, end))
            return;
    }
}

void fe_cursor_recover_from(fe_cursor *c, size_t start, char end, char open, char close)
{
    if (start < c->pos)
        c->pos = start;
    int depth = 0;
    for (;;) {
        const fe_token *t = fe_cursor_peek(c, 0);
        if (t->kind == FE_TOK_EOF || (depth == 0 && fe_token_is_punct(t, close)))
            return;
        fe_cursor_next(c);
        if (fe_token_is_punct(t, open))
            depth++;
        else if (fe_token_is_punct(t, close))
            depth--;
        else if (fe_token_is_punct(t, end))
            return;
    }
}

void fe_cursor_skip_groups(fe_cursor *c, char open, char close, int depth)
{
    while (depth > 0 && fe_cursor_peek(c, 0)->kind != FE_TOK_EOF) {
        const fe_token *t = fe_cursor_next(c);
        depth += fe_token_is_punct(t, open) - fe_token_is_punct(t, close);
    }
}

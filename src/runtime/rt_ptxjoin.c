/* Joining the PTX of several translation units (rt_ptxjoin.h). A text scan, not a parse: it
 * relies on how nvcc lays out module-scope declarations, one per line starting with its
 * directives, and leaves everything else to the PTX front-end's diagnostics. */
#include "runtime/rt_ptxjoin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing output buffer; `failed` after an allocation failure. */
typedef struct buf {
    char *data;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '%';
}

static const char *skip_blank(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    return s;
}

/* Whether the line [s, end) starts with directive `d` (with its dot) as a whole word. */
static int starts_with(const char *s, const char *end, const char *d)
{
    size_t n = strlen(d);
    s = skip_blank(s, end);
    return (size_t)(end - s) >= n && memcmp(s, d, n) == 0 && (s + n == end || !ident_char(s[n]));
}

/* The name a module-scope declaration line [s, end) declares into name (size bytes), or "" when
 * the line is no declaration this scan understands. */
static void declared_name(const char *s, const char *end, char *name, size_t size)
{
    name[0] = '\0';
    const char *p = skip_blank(s, end);
    int is_func = starts_with(p, end, ".func") || starts_with(p, end, ".entry");
    const char *stop = end;
    if (is_func) {
        p = skip_blank(p + 5 + (p[1] == 'e'), end);
        if (p < end && *p == '(') { /* the return parameter */
            while (p < end && *p != ')')
                p++;
            p = skip_blank(p + (p < end), end);
        }
        stop = p;
        while (stop < end && ident_char(*stop))
            stop++;
    } else {
        for (const char *q = p; q < end; q++)
            if (*q == '[' || *q == '=' || *q == ';') {
                stop = q;
                break;
            }
        while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t'))
            stop--;
        p = stop;
        while (p > s && ident_char(p[-1]))
            p--;
    }
    size_t n = (size_t)(stop - p);
    if (n && n < size && !(n == 1 && *p == '%')) {
        memcpy(name, p, n);
        name[n] = '\0';
    }
}

/* A list of names. */
typedef struct names {
    char **items;
    size_t count;
} names;

static int names_has(const names *ns, const char *s)
{
    for (size_t i = 0; i < ns->count; i++)
        if (strcmp(ns->items[i], s) == 0)
            return 1;
    return 0;
}

static void names_add(names *ns, const char *s)
{
    char **items = realloc(ns->items, (ns->count + 1) * sizeof *items);
    if (!items)
        return;
    ns->items = items;
    if ((items[ns->count] = strdup(s)) != NULL)
        ns->count++;
}

static void names_free(names *ns)
{
    for (size_t i = 0; i < ns->count; i++)
        free(ns->items[i]);
    free(ns->items);
}

/* The module-scope lines of text [s, end) one at a time: calls fn on each line with depth 0 at
 * its start (brace depth counted over the text). */
typedef void (*line_fn)(const char *line, const char *eol, int depth, void *user);

static void each_line(const char *s, const char *end, line_fn fn, void *user)
{
    int depth = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *eol = nl ? nl : end;
        fn(s, eol, depth, user);
        for (const char *q = s; q < eol; q++)
            depth += (*q == '{') - (*q == '}');
        s = nl ? nl + 1 : end;
    }
}

static int internal_decl(const char *s, const char *eol)
{
    return starts_with(s, eol, ".global") || starts_with(s, eol, ".const") ||
           starts_with(s, eol, ".func") || starts_with(s, eol, ".shared");
}

/* What collect_decls gathers from one text: its internal declarations that an earlier text
 * also declared (to be renamed), and every name it declares (to remember). */
typedef struct decls {
    const names *seen; /* declared by the earlier texts */
    names clash, declared;
} decls;

static void collect_decls(const char *s, const char *eol, int depth, void *user)
{
    decls *d = user;
    char name[256];
    const char *p = skip_blank(s, eol);
    int visible = starts_with(p, eol, ".visible") || starts_with(p, eol, ".weak");
    if (visible)
        p = skip_blank(p + (p[1] == 'v' ? 8 : 5), eol);
    if (depth != 0 || !internal_decl(p, eol))
        return;
    declared_name(p, eol, name, sizeof name);
    if (!name[0])
        return;
    if (!visible && names_has(d->seen, name))
        names_add(&d->clash, name);
    names_add(&d->declared, name);
}

/* Appends text i to b: header lines dropped (i >= 1), internal names renamed, repeated .extern
 * declarations dropped, `.attribute(.managed)` removed. */
typedef struct join {
    buf *b;
    size_t index;
    names internal, *externs; /* internal: the names to rename */
    int skipping; /* inside a dropped multi-line .extern declaration */
} join;

static void put_renamed(join *j, const char *s, const char *eol)
{
    static const char managed[] = ".attribute(.managed) ";
    while (s < eol) {
        if ((size_t)(eol - s) >= sizeof managed - 1 && memcmp(s, managed, sizeof managed - 1) == 0) {
            s += sizeof managed - 1;
            continue;
        }
        if (!ident_char(*s)) {
            put(j->b, s++, 1);
            continue;
        }
        const char *t = s;
        while (t < eol && ident_char(*t))
            t++;
        char name[256];
        size_t n = (size_t)(t - s) < sizeof name - 1 ? (size_t)(t - s) : sizeof name - 1;
        memcpy(name, s, n);
        name[n] = '\0';
        put(j->b, s, (size_t)(t - s));
        if (j->index && names_has(&j->internal, name)) {
            char suffix[32];
            snprintf(suffix, sizeof suffix, "_tu%zu", j->index);
            put(j->b, suffix, strlen(suffix));
        }
        s = t;
    }
}

static void join_line(const char *s, const char *eol, int depth, void *user)
{
    join *j = user;
    int header = starts_with(s, eol, ".version") || starts_with(s, eol, ".target") ||
                 starts_with(s, eol, ".address_size");
    if (j->skipping) {
        j->skipping = memchr(s, ';', (size_t)(eol - s)) == NULL;
        return;
    }
    if (depth == 0 && starts_with(s, eol, ".extern")) {
        char name[256];
        const char *p = skip_blank(s, eol) + 7;
        declared_name(p, eol, name, sizeof name);
        if (name[0] && names_has(j->externs, name) && j->index) {
            j->skipping = memchr(s, ';', (size_t)(eol - s)) == NULL;
            return;
        }
        if (name[0])
            names_add(j->externs, name);
    }
    if (j->index && depth == 0 && header)
        return;
    put_renamed(j, s, eol);
    put(j->b, "\n", 1);
}

char *rt_ptx_join(const char *const *texts, const size_t *lens, size_t n, size_t *len)
{
    buf b = {0};
    names externs = {0};
    put(&b, "", 0);
    names seen = {0};
    for (size_t i = 0; i < n; i++) {
        decls d = {&seen, {0}, {0}};
        each_line(texts[i], texts[i] + lens[i], collect_decls, &d);
        join j = {&b, i, d.clash, &externs, 0};
        each_line(texts[i], texts[i] + lens[i], join_line, &j);
        for (size_t k = 0; k < d.declared.count; k++) {
            char renamed[300];
            int clash = names_has(&d.clash, d.declared.items[k]);
            snprintf(renamed, sizeof renamed, clash ? "%s_tu%zu" : "%s", d.declared.items[k], i);
            names_add(&seen, renamed);
        }
        names_free(&d.clash);
        names_free(&d.declared);
    }
    names_free(&seen);
    names_free(&externs);
    if (b.failed || !b.data) {
        free(b.data);
        return NULL;
    }
    *len = b.len;
    return b.data;
}

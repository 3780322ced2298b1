/* Lexical scopes (fe_scope.h): one chained hash table over a stack of symbols. A name's chain
 * holds its bindings newest first, so the first match is the innermost one; closing a scope pops
 * the symbols declared since it opened and unlinks each from the head of its chain, which is
 * where a newer binding always sits. */
#include "frontend/fe_scope.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

/* Each name space gets its own spread of buckets so that a range prefix and a plain name with the
 * same spelling do not share a chain. */
static uint32_t bucket_of(const char *name, uint32_t len, uint8_t ns)
{
    return (hash_bytes(name, len) + ns * 7919u) & (FE_SCOPE_BUCKETS - 1);
}

int fe_scope_init(fe_scope *s)
{
    dynarray_init(&s->symbols, sizeof(fe_symbol));
    dynarray_init(&s->marks, sizeof(size_t));
    s->bucket = malloc(FE_SCOPE_BUCKETS * sizeof *s->bucket);
    if (!s->bucket)
        return -1;
    memset(s->bucket, 0xFF, FE_SCOPE_BUCKETS * sizeof *s->bucket);
    return 0;
}

void fe_scope_fini(fe_scope *s)
{
    dynarray_free(&s->symbols);
    dynarray_free(&s->marks);
    free(s->bucket);
    s->bucket = NULL;
}

int fe_scope_push(fe_scope *s)
{
    size_t *mark = dynarray_push(&s->marks);
    if (!mark)
        return -1;
    *mark = s->symbols.count;
    return 0;
}

void fe_scope_pop(fe_scope *s)
{
    if (!s->marks.count)
        return;
    size_t start = ((size_t *)s->marks.data)[--s->marks.count];
    fe_symbol *all = s->symbols.data;
    while (s->symbols.count > start) {
        fe_symbol *top = &all[s->symbols.count - 1];
        s->bucket[bucket_of(top->name, top->len, top->ns)] = top->next;
        s->symbols.count--;
    }
}

size_t fe_scope_depth(const fe_scope *s) { return s->marks.count; }

fe_symbol *fe_scope_declare(fe_scope *s, const char *name, uint32_t len, uint8_t ns,
                            uint32_t line, uint32_t col, const fe_symbol **previous)
{
    uint32_t h = bucket_of(name, len, ns);
    size_t scope_start = s->marks.count ? ((size_t *)s->marks.data)[s->marks.count - 1] : 0;
    fe_symbol *all = s->symbols.data;
    *previous = NULL;
    for (int32_t i = s->bucket[h]; i >= 0 && (size_t)i >= scope_start; i = all[i].next) {
        if (all[i].len == len && all[i].ns == ns && memcmp(all[i].name, name, len) == 0) {
            *previous = &all[i];
            return NULL;
        }
    }
    fe_symbol *sym = dynarray_push(&s->symbols);
    if (!sym)
        return NULL;
    sym->name = name;
    sym->len = len;
    sym->ns = ns;
    sym->line = line;
    sym->col = col;
    sym->next = s->bucket[h];
    s->bucket[h] = (int32_t)(s->symbols.count - 1);
    return sym;
}

const fe_symbol *fe_scope_find(const fe_scope *s, const char *name, uint32_t len, uint8_t ns)
{
    const fe_symbol *all = s->symbols.data;
    for (int32_t i = s->bucket[bucket_of(name, len, ns)]; i >= 0; i = all[i].next)
        if (all[i].len == len && all[i].ns == ns && memcmp(all[i].name, name, len) == 0)
            return &all[i];
    return NULL;
}

/* Labels of a function body (fe_labels.h): a small chained hash table (a function has at most a
 * few hundred labels) over an array that keeps the order of first mention. */
#include "frontend/fe_labels.h"

#include <string.h>

#include "base/hash.h"

void fe_labels_init(fe_labels *ls)
{
    dynarray_init(&ls->labels, sizeof(fe_label));
    dynarray_init(&ls->refs, sizeof(fe_label_ref));
    dynarray_init(&ls->lists, sizeof(uint32_t));
    memset(ls->bucket, 0xFF, sizeof ls->bucket);
}

void fe_labels_fini(fe_labels *ls)
{
    dynarray_free(&ls->labels);
    dynarray_free(&ls->refs);
    dynarray_free(&ls->lists);
}

void fe_labels_reset(fe_labels *ls)
{
    ls->labels.count = ls->refs.count = ls->lists.count = 0;
    memset(ls->bucket, 0xFF, sizeof ls->bucket);
}

int32_t fe_labels_get(fe_labels *ls, const char *name, uint32_t len, uint32_t line, uint32_t col)
{
    uint32_t h = hash_bytes(name, len) & (FE_LABEL_BUCKETS - 1);
    fe_label *all = ls->labels.data;
    for (int32_t i = ls->bucket[h]; i >= 0; i = all[i].next)
        if (all[i].len == len && memcmp(all[i].name, name, len) == 0)
            return i;
    fe_label *l = dynarray_push(&ls->labels);
    if (!l)
        return -1;
    l->name = name;
    l->len = len;
    l->target = -1;
    l->line = line;
    l->col = col;
    l->list_first = -1;
    l->next = ls->bucket[h];
    ls->bucket[h] = (int32_t)(ls->labels.count - 1);
    return ls->bucket[h];
}

fe_label *fe_labels_at(const fe_labels *ls, int32_t index)
{
    return &((fe_label *)ls->labels.data)[index];
}

int fe_labels_define(fe_labels *ls, int32_t index, uint32_t target, uint32_t line, uint32_t col)
{
    fe_label *l = fe_labels_at(ls, index);
    if (l->target >= 0)
        return -1;
    l->target = (int32_t)target;
    l->line = line;
    l->col = col;
    return 0;
}

int fe_labels_add_ref(fe_labels *ls, int32_t index, uint32_t insn, int32_t slot)
{
    fe_label_ref *r = dynarray_push(&ls->refs);
    if (!r)
        return -1;
    r->insn = insn;
    r->slot = slot;
    r->label = (uint32_t)index;
    return 0;
}

int fe_labels_list_add(fe_labels *ls, int32_t entry)
{
    uint32_t *e = dynarray_push(&ls->lists);
    if (!e)
        return -1;
    *e = (uint32_t)entry;
    return 0;
}

uint32_t fe_labels_list_entry(const fe_labels *ls, size_t i)
{
    return ((const uint32_t *)ls->lists.data)[i];
}

void fe_labels_resolve(fe_labels *ls, fe_cursor *c, const char *rule, const fe_label_resolver *r)
{
    const fe_label_ref *refs = ls->refs.data;
    for (size_t i = 0; i < ls->refs.count; i++) {
        fe_label *l = fe_labels_at(ls, (int32_t)refs[i].label);
        if (l->target >= 0) {
            r->patch(r->user, &refs[i], (uint32_t)l->target);
            continue;
        }
        if (l->reported || (r->excuse && r->excuse(r->user, l, &refs[i])))
            continue;
        fe_cursor_error_at(c, l->line, l->col, rule, "undefined label '%.*s'", (int)l->len,
                           l->name);
        l->reported = 1;
    }
}

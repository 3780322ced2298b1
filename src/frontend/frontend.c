/* The dialect registry (frontend.h): lookups over a handful of entries, so plain loops. */
#include "frontend/frontend.h"

#include "ir/ir_verify.h"

#include <stdio.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int valid(const frontend_dialect *d)
{
    if (!d || !d->name || !*d->name || !d->title || !d->parse || !d->suffixes ||
        !d->suffixes[0])
        return 0;
    for (const char *const *s = d->suffixes; *s; s++)
        if ((*s)[0] != '.' || !(*s)[1])
            return 0;
    return 1;
}

static int claims_suffix(const frontend_registry *r, const char *suffix)
{
    for (size_t i = 0; i < r->count; i++)
        for (const char *const *s = r->dialects[i]->suffixes; *s; s++)
            if (strcmp(*s, suffix) == 0)
                return 1;
    return 0;
}

frontend_status frontend_register(frontend_registry *r, const frontend_dialect *d)
{
    if (!valid(d))
        return FRONTEND_INVALID;
    if (frontend_find(r, d->name))
        return FRONTEND_DUPLICATE;
    for (const char *const *s = d->suffixes; *s; s++)
        if (claims_suffix(r, *s))
            return FRONTEND_DUPLICATE;
    if (r->count >= FRONTEND_MAX_DIALECTS)
        return FRONTEND_FULL;
    r->dialects[r->count++] = d;
    return FRONTEND_OK;
}

const frontend_dialect *frontend_find(const frontend_registry *r, const char *name)
{
    for (size_t i = 0; name && i < r->count; i++)
        if (strcmp(r->dialects[i]->name, name) == 0)
            return r->dialects[i];
    return NULL;
}

const frontend_dialect *frontend_for_path(const frontend_registry *r, const char *path)
{
    const frontend_dialect *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; path && i < r->count; i++)
        for (const char *const *s = r->dialects[i]->suffixes; *s; s++)
            if (ends_with(path, *s) && strlen(*s) > best_len) {
                best = r->dialects[i];
                best_len = strlen(*s);
            }
    return best;
}

const frontend_dialect *frontend_choose(const frontend_registry *r, const char *path,
                                        const char *name)
{
    return name ? frontend_find(r, name) : frontend_for_path(r, path);
}

/* Appends to a NUL-terminated buffer, cutting what does not fit. */
static void append(char *buf, size_t size, size_t *used, const char *text)
{
    if (*used + 1 >= size)
        return;
    int n = snprintf(buf + *used, size - *used, "%s", text);
    *used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

const char *frontend_describe_files(const frontend_registry *r, char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < r->count; i++) {
        const frontend_dialect *d = r->dialects[i];
        append(buf, size, &used, i ? ", " : "");
        append(buf, size, &used, d->title);
        append(buf, size, &used, " files (");
        for (const char *const *s = d->suffixes; *s; s++) {
            append(buf, size, &used, s == d->suffixes ? "" : ", ");
            append(buf, size, &used, *s);
        }
        append(buf, size, &used, ")");
    }
    return buf;
}

const char *frontend_describe_names(const frontend_registry *r, char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (size_t i = 0; i < r->count; i++) {
        append(buf, size, &used, i ? ", " : "");
        append(buf, size, &used, r->dialects[i]->name);
    }
    return buf;
}

ir_module *frontend_finish_module(ir_module *m, diag_list *dl, size_t errors_before, int oom)
{
#ifndef NDEBUG
    if (m && dl->errors == errors_before && !oom)
        ir_verify(m, dl);
#endif
    if (dl->errors != errors_before || oom) {
        ir_module_destroy(m);
        return NULL;
    }
    return m;
}

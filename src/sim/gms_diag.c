/* The public API's diagnostics list, statuses and small helpers (gpumemsim.h; docs/api.md,
 * "Statuses" and "Diagnostics"). The list wraps the library's own diag_list (base/diag.h), so
 * every layer below reports into it unchanged. */
#include <stdlib.h>
#include <string.h>

#include "sim/gms_internal.h"

const char *gms_status_name(gms_status s)
{
    static const char *const names[GMS_STATUS_COUNT] = {
        [GMS_OK] = "GMS_OK",
        [GMS_ERR_ARGUMENT] = "GMS_ERR_ARGUMENT",
        [GMS_ERR_NOMEM] = "GMS_ERR_NOMEM",
        [GMS_ERR_IO] = "GMS_ERR_IO",
        [GMS_ERR_CONFIG] = "GMS_ERR_CONFIG",
        [GMS_ERR_MODULE] = "GMS_ERR_MODULE",
        [GMS_ERR_NOT_FOUND] = "GMS_ERR_NOT_FOUND",
        [GMS_ERR_ARGS] = "GMS_ERR_ARGS",
        [GMS_ERR_LAUNCH] = "GMS_ERR_LAUNCH",
        [GMS_ERR_RANGE] = "GMS_ERR_RANGE",
        [GMS_ERR_STATE] = "GMS_ERR_STATE",
        [GMS_ERR_FAULT] = "GMS_ERR_FAULT",
        [GMS_ERR_INPUT] = "GMS_ERR_INPUT",
        [GMS_ERR_EXPECT] = "GMS_ERR_EXPECT",
        [GMS_ERR_KERNEL] = "GMS_ERR_KERNEL",
    };
    return (unsigned)s < GMS_STATUS_COUNT ? names[s] : "GMS_ERR_?";
}

void gms_free(void *p)
{
    free(p);
}

const char *gms_type_name(gms_type t)
{
    static const char *const names[GMS_TYPE_COUNT] = {
        "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
        "f16", "bf16", "f32", "f64", "address", "bytes",
    };
    return (unsigned)t < GMS_TYPE_COUNT ? names[t] : "?";
}

diag_list *gms_sink_open(gms_sink *s, gms_diag_list *caller)
{
    if (caller)
        return s->dl = &caller->dl;
    diag_list_init(&s->scratch);
    return s->dl = &s->scratch;
}

void gms_sink_close(gms_sink *s)
{
    if (s->dl == &s->scratch)
        diag_list_fini(&s->scratch);
}

gms_status gms_bad_argument(diag_list *dl, const char *call, const char *what)
{
    diag_add(dl, DIAG_ERROR, "API-ARG-001", "", 0, 0, "%s: %s", call, what);
    return GMS_ERR_ARGUMENT;
}

gms_diag_list *gms_diag_list_create(void)
{
    gms_diag_list *l = malloc(sizeof *l);
    if (l)
        diag_list_init(&l->dl);
    return l;
}

void gms_diag_list_destroy(gms_diag_list *l)
{
    if (!l)
        return;
    diag_list_fini(&l->dl);
    free(l);
}

void gms_diag_list_clear(gms_diag_list *l)
{
    if (!l)
        return;
    size_t max = l->dl.max_errors;
    diag_list_fini(&l->dl);
    diag_list_init(&l->dl);
    l->dl.max_errors = max;
}

void gms_diag_list_set_max_errors(gms_diag_list *l, size_t max_errors)
{
    if (l)
        l->dl.max_errors = max_errors;
}

size_t gms_diag_list_count(const gms_diag_list *l)
{
    return l ? l->dl.count : 0;
}

size_t gms_diag_list_errors(const gms_diag_list *l)
{
    return l ? l->dl.errors : 0;
}

gms_status gms_diag_list_get(const gms_diag_list *l, size_t i, gms_diag *out)
{
    if (!l || !out || i >= l->dl.count)
        return GMS_ERR_ARGUMENT;
    const diag *d = &l->dl.items[i];
    out->severity = d->severity == DIAG_ERROR     ? GMS_ERROR
                    : d->severity == DIAG_WARNING ? GMS_WARNING
                                                  : GMS_NOTE;
    out->rule = d->rule;
    out->file = d->file ? d->file : "";
    out->line = d->line;
    out->col = d->col;
    out->message = d->message;
    out->note = d->note;
    out->note_file = d->note_file;
    out->note_line = d->note_line;
    out->note_col = d->note_col;
    return GMS_OK;
}

long gms_diag_list_find(const gms_diag_list *l, const char *rule)
{
    if (!l || !rule)
        return -1;
    for (size_t i = 0; i < l->dl.count; i++)
        if (strcmp(l->dl.items[i].rule, rule) == 0)
            return (long)i;
    return -1;
}

gms_status gms_diag_list_print(const gms_diag_list *l, FILE *out)
{
    if (!l || !out)
        return GMS_ERR_ARGUMENT;
    diag_list_print(&l->dl, out);
    return GMS_OK;
}

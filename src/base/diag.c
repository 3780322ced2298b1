/* Diagnostics list: growable array of owned strings. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return dup_str("(unformattable message)");
    char *p = malloc((size_t)n + 1);
    if (p)
        vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

void diag_list_init(diag_list *dl) { memset(dl, 0, sizeof *dl); }

static void diag_free(diag *d)
{
    free((void *)d->rule);
    free((void *)d->file);
    free((void *)d->message);
    free((void *)d->note_file);
    free((void *)d->note);
}

void diag_list_fini(diag_list *dl)
{
    for (size_t i = 0; i < dl->count; i++)
        diag_free(&dl->items[i]);
    free(dl->items);
    memset(dl, 0, sizeof *dl);
}

void diag_add(diag_list *dl, diag_severity sev, const char *rule, const char *file, unsigned line,
              unsigned col, const char *fmt, ...)
{
    if (sev == DIAG_ERROR && dl->max_errors && dl->errors >= dl->max_errors) {
        dl->errors++;
        return;
    }
    if (dl->count == dl->capacity) {
        size_t cap = dl->capacity ? dl->capacity * 2 : 16;
        diag *items = realloc(dl->items, cap * sizeof *items);
        if (!items) {
            dl->oom = 1;
            return;
        }
        dl->items = items;
        dl->capacity = cap;
    }
    diag *d = &dl->items[dl->count];
    memset(d, 0, sizeof *d);
    va_list ap;
    va_start(ap, fmt);
    d->message = vformat(fmt, ap);
    va_end(ap);
    d->severity = sev;
    d->rule = dup_str(rule);
    d->file = dup_str(file);
    d->line = line;
    d->col = col;
    if (!d->message || !d->rule || !d->file) {
        diag_free(d);
        dl->oom = 1;
        return;
    }
    dl->count++;
    if (sev == DIAG_ERROR)
        dl->errors++;
    else if (sev == DIAG_WARNING)
        dl->warnings++;
}

void diag_add_note(diag_list *dl, const char *file, unsigned line, unsigned col, const char *fmt,
                   ...)
{
    if (!dl->count)
        return;
    diag *d = &dl->items[dl->count - 1];
    if (d->note)
        return;
    va_list ap;
    va_start(ap, fmt);
    d->note = vformat(fmt, ap);
    va_end(ap);
    d->note_file = dup_str(file);
    d->note_line = line;
    d->note_col = col;
}

static const char *severity_name(diag_severity s)
{
    return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

static int format_loc(char *buf, size_t size, const char *file, unsigned line, unsigned col)
{
    if (line && col)
        return snprintf(buf, size, "%s:%u:%u: ", file, line, col);
    if (line)
        return snprintf(buf, size, "%s:%u: ", file, line);
    if (file && *file)
        return snprintf(buf, size, "%s: ", file);
    return snprintf(buf, size, "%s", "");
}

int diag_format(const diag *d, char *buf, size_t size)
{
    char loc[512];
    format_loc(loc, sizeof loc, d->file, d->line, d->col);
    return snprintf(buf, size, "%s%s: %s [%s]", loc, severity_name(d->severity), d->message,
                    d->rule);
}

void diag_list_print(const diag_list *dl, FILE *out)
{
    char buf[4096];
    for (size_t i = 0; i < dl->count; i++) {
        const diag *d = &dl->items[i];
        diag_format(d, buf, sizeof buf);
        fprintf(out, "%s\n", buf);
        if (d->note) {
            format_loc(buf, sizeof buf, d->note_file, d->note_line, d->note_col);
            fprintf(out, "%snote: %s\n", buf, d->note);
        }
    }
    if (dl->max_errors && dl->errors > dl->max_errors)
        fprintf(out, "(%zu further errors not shown)\n", dl->errors - dl->max_errors);
    if (dl->oom)
        fprintf(out, "(some diagnostics were lost: out of memory)\n");
}

const diag *diag_find(const diag_list *dl, const char *rule)
{
    for (size_t i = 0; i < dl->count; i++)
        if (strcmp(dl->items[i].rule, rule) == 0)
            return &dl->items[i];
    return NULL;
}

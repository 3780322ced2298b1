/* Diagnostics: the caller-owned list that every library call fills instead of printing.
 *
 * A diagnostic has a severity, a stable rule id (for example "PTX-PARSE-001"; ids are never
 * reused), a location (file, 1-based line and column; 0 when unknown), a message and an optional
 * note at a second location. diag_format() renders the one compiler form of STYLE.md:
 *     k.ptx:12:7: error: message [RULE-ID]
 * The list owns copies of every string it is given. */
#ifndef GMS_BASE_DIAG_H
#define GMS_BASE_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef enum diag_severity { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_severity;

typedef struct diag {
    diag_severity severity;
    const char *rule;    /* owned copy, e.g. "PTX-TYPE-003" */
    const char *file;    /* owned copy; may be "" */
    unsigned line, col;  /* 1-based; 0 when not applicable */
    const char *message; /* owned copy */
    const char *note_file;
    unsigned note_line, note_col;
    const char *note; /* NULL when there is no note */
} diag;

typedef struct diag_list {
    diag *items; /* owned */
    size_t count, capacity;
    size_t errors, warnings;
    size_t max_errors; /* 0: unlimited; after this many errors further errors are dropped */
    int oom;           /* set when an allocation failed: some diagnostics were lost */
} diag_list;

void diag_list_init(diag_list *dl);
void diag_list_fini(diag_list *dl);
/* Appends a diagnostic with a printf-style message. Never fails visibly: on out-of-memory the
 * list's oom flag is set. */
void diag_add(diag_list *dl, diag_severity sev, const char *rule, const char *file, unsigned line,
              unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Attaches a note at a second location to the most recent diagnostic. */
void diag_add_note(diag_list *dl, const char *file, unsigned line, unsigned col, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));
/* Writes every diagnostic in compiler form, one per line (notes on their own line). */
void diag_list_print(const diag_list *dl, FILE *out);
/* Formats one diagnostic into buf (NUL-terminated, truncated to size). Returns chars needed. */
int diag_format(const diag *d, char *buf, size_t size);
/* Returns the first diagnostic whose rule equals `rule`, or NULL. For tests. */
const diag *diag_find(const diag_list *dl, const char *rule);

#endif

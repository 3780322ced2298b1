/* The registry of kernel dialects: how the simulator finds the front-end that reads a kernel
 * file, without naming any front-end itself.
 *
 * Each dialect (PTX today; the SASS-style assembly and Intel vISA LSC to come) describes itself
 * with one constant frontend_dialect: its name, the file suffixes it claims, its parse function,
 * a function that lists the instructions it accepts, and its table of diagnostic rules. A
 * registry is a small array of such descriptions. frontend_builtin() is the constant registry of
 * every dialect built into gpumemsim; a caller that wants another set (a test with a fake
 * dialect, a tool with an extension) copies it into its own frontend_registry and adds dialects
 * with frontend_register. The simulator (src/sim) and the command line choose a dialect only
 * through a registry, by the file's suffix or by name (docs/launch-files.md, "Kernel dialects").
 *
 * Nothing here reads files, allocates or reports: lookups return NULL and the caller reports
 * (SIM-DIALECT-001, SIM-DIALECT-002). Not thread-safe to modify; a registry that is no longer
 * modified may be read from any thread. */
#ifndef GMS_FRONTEND_FRONTEND_H
#define GMS_FRONTEND_FRONTEND_H

#include <stddef.h>

#include "base/diag.h"
#include "ir/ir.h"

/* One diagnostic rule of a dialect: its stable id ("PTX-PARSE-001") and what it means, in one
 * line. */
typedef struct frontend_rule {
    const char *id;
    const char *summary;
} frontend_rule;

/* Parses, checks and lowers one kernel module.
 *   path  borrowed; the file name for diagnostics (copied into the module).
 *   text  borrowed; `len` bytes of module text, need not be NUL-terminated; NULL reads as empty.
 *   dl    borrowed, caller-owned; receives every diagnostic (the dialect's rules).
 * Returns the module, owned by the caller (free with ir_module_destroy), or NULL when at least one
 * error was reported to dl (out of memory included). */
typedef ir_module *(*frontend_parse_fn)(const char *path, const char *text, size_t len,
                                        diag_list *dl);

/* Receives one line of a listing: `line` is NUL-terminated, has no newline and is borrowed for
 * the call only. */
typedef void (*frontend_line_fn)(void *user, const char *line);

/* Writes what the dialect accepts, one line per call of `emit`: each instruction with its
 * modifiers, types and minimum version/target, then what else the dialect documents (PTX: every
 * modifier spelling with its requirement). `user` is passed to `emit`. */
typedef void (*frontend_list_ops_fn)(frontend_line_fn emit, void *user);

typedef struct frontend_dialect {
    const char *name;            /* "ptx": lower case, what a launch file's "dialect" and
                                    `check --dialect` name */
    const char *title;           /* "PTX": how messages name its files ("PTX files (.ptx)") */
    const char *const *suffixes; /* NULL-terminated; each starts with '.'; at least one */
    const char *doc;             /* its documentation page, from the source tree: "docs/ptx.md" */
    frontend_parse_fn parse;
    frontend_list_ops_fn list_ops;
    const frontend_rule *rules;  /* every rule id its diagnostics use, each once */
    size_t nrules;
} frontend_dialect;

enum { FRONTEND_MAX_DIALECTS = 8 };

typedef struct frontend_registry {
    const frontend_dialect *dialects[FRONTEND_MAX_DIALECTS]; /* borrowed; first `count` used */
    size_t count;
} frontend_registry;

/* Errors of frontend_register. */
typedef enum frontend_status {
    FRONTEND_OK = 0,
    FRONTEND_FULL,      /* the registry already holds FRONTEND_MAX_DIALECTS dialects */
    FRONTEND_INVALID,   /* no name, title or parse function, no suffix, or a suffix without '.' */
    FRONTEND_DUPLICATE  /* the name or one of the suffixes is already registered */
} frontend_status;

/* The dialects built into gpumemsim, in a constant registry (never NULL, never modified). */
const frontend_registry *frontend_builtin(void);

/* Adds `d` (borrowed: it must outlive the registry) to `r`, which the caller owns (zeroed for an
 * empty registry, or a copy of *frontend_builtin()). Returns FRONTEND_OK or the error above;
 * on error `r` is unchanged. */
frontend_status frontend_register(frontend_registry *r, const frontend_dialect *d);

/* The dialect named exactly `name`, or NULL. */
const frontend_dialect *frontend_find(const frontend_registry *r, const char *name);

/* The dialect whose suffix ends `path` (case-sensitive; the longest matching suffix wins), or
 * NULL when none does. */
const frontend_dialect *frontend_for_path(const frontend_registry *r, const char *path);

/* Picks the dialect of the kernel file `path`: the one named `name` when `name` is not NULL
 * (the suffix is then not looked at), else frontend_for_path. Returns NULL when there is none:
 * the caller reports SIM-DIALECT-002 for an unknown name and SIM-DIALECT-001 for an unknown
 * suffix (docs/launch-files.md, "Kernel dialects"). */
const frontend_dialect *frontend_choose(const frontend_registry *r, const char *path,
                                        const char *name);

/* Describes the registry for messages, into buf (size bytes, NUL-terminated, cut to fit):
 * frontend_describe_files writes "PTX files (.ptx)", one entry per dialect joined by ", ";
 * frontend_describe_names writes the names: "ptx". Both return buf. */
/* What a front-end's parse function returns at its end: `m`, or NULL after freeing it when the
 * parse added errors to `dl` since it held `errors_before` of them, or ran out of memory (`oom`).
 * Debug builds (no NDEBUG) first run ir_verify on a clean module, whose violations are the
 * front-end's bugs (docs/architecture.md, "The IR verifier"). m may be NULL. */
ir_module *frontend_finish_module(ir_module *m, diag_list *dl, size_t errors_before, int oom);

const char *frontend_describe_files(const frontend_registry *r, char *buf, size_t size);
const char *frontend_describe_names(const frontend_registry *r, char *buf, size_t size);

#endif

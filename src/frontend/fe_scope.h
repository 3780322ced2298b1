/* Lexical scopes of a front-end: a stack of nested scopes that binds names to what they stand
 * for, with the innermost binding of a name found first.
 *
 * A parser opens a scope where the dialect's language opens one (PTX: the module, each function
 * body, each `{ }` block inside it), declares names in the innermost scope, and closes the scope
 * at its end, which forgets every name declared in it. A name may be declared again in an inner
 * scope (it hides the outer one) but not twice in the same scope. Names live in separate name
 * spaces (`ns`): names of different spaces never clash or hide each other (PTX keeps the prefix
 * of a `%r<100>` register range apart from a plain register named `%r`).
 *
 * A symbol's payload (kind, type, index, count) is the dialect's to fill and read; the scope only
 * stores it. Names are borrowed: they must outlive the scope (usually they point into the module
 * text). Not thread-safe. */
#ifndef GMS_FRONTEND_FE_SCOPE_H
#define GMS_FRONTEND_FE_SCOPE_H

#include <stddef.h>
#include <stdint.h>

#include "base/dynarray.h"

typedef struct fe_symbol {
    const char *name; /* borrowed, `len` bytes, not NUL-terminated */
    uint32_t len;
    uint8_t ns;       /* name space */
    uint8_t kind;     /* the dialect's symbol kind (register, variable, function, ...) */
    uint8_t type;     /* the dialect's type of the symbol, e.g. an ir_type */
    uint32_t index;   /* what the name stands for: a register slot, variable or function index */
    uint32_t count;   /* ids from `index` on that the name covers (a register range) */
    int32_t next;     /* the next symbol in the same hash chain (private to the scope) */
    uint32_t line, col; /* where it was declared */
} fe_symbol;

enum { FE_SCOPE_BUCKETS = 8192 };

typedef struct fe_scope {
    dynarray symbols; /* fe_symbol, in declaration order; the open scopes' symbols only */
    dynarray marks;   /* size_t: symbols.count when each open scope began, outermost first */
    int32_t *bucket;  /* FE_SCOPE_BUCKETS hash chain heads (malloc); -1: empty */
} fe_scope;

/* Initialises an empty scope stack (no scope open) in caller storage. Returns 0, or -1 when out of
 * memory (then fe_scope_fini is still safe to call). */
int fe_scope_init(fe_scope *s);
/* Frees everything; the names were borrowed and are untouched. */
void fe_scope_fini(fe_scope *s);

/* Opens a scope inside the current one. Returns 0, or -1 when out of memory (nothing opened). */
int fe_scope_push(fe_scope *s);
/* Closes the innermost scope and forgets its names; does nothing when no scope is open. */
void fe_scope_pop(fe_scope *s);
/* How many scopes are open. */
size_t fe_scope_depth(const fe_scope *s);

/* Declares `name` (len bytes) in name space `ns` of the innermost open scope, declared at
 * line:col. Returns the new symbol, its payload zeroed for the caller to fill; the pointer is valid
 * until the next declaration. Returns NULL when the name is already declared in the innermost
 * scope in the same name space (*previous, which may not be NULL, then points to that symbol, for
 * a "previous declaration" note) or when out of memory (*previous is NULL). */
fe_symbol *fe_scope_declare(fe_scope *s, const char *name, uint32_t len, uint8_t ns,
                            uint32_t line, uint32_t col, const fe_symbol **previous);

/* The innermost visible symbol named `name` in name space `ns`, or NULL. */
const fe_symbol *fe_scope_find(const fe_scope *s, const char *name, uint32_t len, uint8_t ns);

#endif

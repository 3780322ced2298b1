/* The labels of one function body, which branches may name before the label is defined.
 *
 * A parser asks for a label by name wherever it meets one (fe_labels_get creates it on first
 * mention), defines it where the label statement stands (fe_labels_define, with the index of the
 * instruction it labels), and records every operand that names a label as a reference
 * (fe_labels_add_ref). When the function ends, fe_labels_resolve hands each reference its
 * label's instruction index and reports each label that was used but never defined, once, at its
 * first mention. A label may also stand for a list of labels (a jump table such as PTX's
 * `.branchtargets`); the list's entries are label indices in `lists`.
 *
 * Names are borrowed from the module text. Not thread-safe. */
#ifndef GMS_FRONTEND_FE_LABELS_H
#define GMS_FRONTEND_FE_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dynarray.h"
#include "frontend/fe_cursor.h"

typedef struct fe_label {
    const char *name;   /* borrowed, `len` bytes */
    uint32_t len;
    int32_t target;     /* index of the instruction it labels; -1 until defined */
    int32_t next;       /* hash chain (private) */
    uint32_t line, col; /* the first mention; the definition once it is defined */
    int32_t list_first; /* a label that names a list: its first entry in `lists`; -1: none */
    uint32_t list_count;
    uint8_t reported;   /* "undefined label" was reported (private) */
} fe_label;

/* An operand that names a label: `slot` says which operand of instruction `insn`, in the
 * dialect's own numbering (PTX: -1 for the first source, else an index into the extra operands). */
typedef struct fe_label_ref {
    uint32_t insn;
    int32_t slot;
    uint32_t label; /* index of the fe_label */
} fe_label_ref;

enum { FE_LABEL_BUCKETS = 256 };

typedef struct fe_labels {
    dynarray labels; /* fe_label, in order of first mention */
    dynarray refs;   /* fe_label_ref, in order of appearance */
    dynarray lists;  /* uint32_t label indices: the entries of every label list */
    int32_t bucket[FE_LABEL_BUCKETS];
} fe_labels;

/* Initialises an empty label table in caller storage (allocates nothing). */
void fe_labels_init(fe_labels *ls);
/* Frees everything. */
void fe_labels_fini(fe_labels *ls);
/* Forgets every label, reference and list (a new function body begins); keeps the storage. */
void fe_labels_reset(fe_labels *ls);

/* The index of the label `name` (len bytes), created undefined at line:col on its first mention.
 * Returns -1 when out of memory. */
int32_t fe_labels_get(fe_labels *ls, const char *name, uint32_t len, uint32_t line, uint32_t col);
/* The label at `index` (from fe_labels_get); valid until the next fe_labels_get. */
fe_label *fe_labels_at(const fe_labels *ls, int32_t index);
/* Defines label `index` as instruction `target`, declared at line:col. Returns 0, or -1 when the
 * label is already defined (nothing changes). */
int fe_labels_define(fe_labels *ls, int32_t index, uint32_t target, uint32_t line, uint32_t col);
/* Records that operand `slot` of instruction `insn` names label `index`. Returns 0, or -1 when
 * out of memory. */
int fe_labels_add_ref(fe_labels *ls, int32_t index, uint32_t insn, int32_t slot);
/* Appends label `entry` to `lists` (a parser appends the entries of one list in a row, then sets
 * the owning label's list_first/list_count). Returns 0, or -1 when out of memory. */
int fe_labels_list_add(fe_labels *ls, int32_t entry);
/* Entry `i` of `lists`: a label index. */
uint32_t fe_labels_list_entry(const fe_labels *ls, size_t i);

/* How a dialect takes resolved references: patch() stores `target` (an instruction index) in the
 * operand that `ref` names. excuse() (may be NULL) says whether a reference to a label that no
 * instruction defines is nevertheless fine; such a reference is neither patched nor reported. */
typedef struct fe_label_resolver {
    void (*patch)(void *user, const fe_label_ref *ref, uint32_t target);
    bool (*excuse)(void *user, const fe_label *label, const fe_label_ref *ref);
    void *user;
} fe_label_resolver;

/* Resolves every reference in order: a reference to a defined label is patched; a reference to
 * an undefined label, unless excused, is reported once per label as error `rule`
 * "undefined label 'NAME'" at the label's first mention (through the cursor `c`, so a muted
 * cursor drops it). */
void fe_labels_resolve(fe_labels *ls, fe_cursor *c, const char *rule, const fe_label_resolver *r);

#endif

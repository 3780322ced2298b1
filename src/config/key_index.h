/* Where the keys of a JSON override file stand: the line and column of every key at the top
 * level and inside a section object, so that the configuration loader can point its diagnostics
 * at the key they concern (jansson keeps no positions for values). Internal to src/config; it
 * knows nothing of the keys' meaning. */
#ifndef GMS_CONFIG_KEY_INDEX_H
#define GMS_CONFIG_KEY_INDEX_H

#include <stdbool.h>
#include <stddef.h>

/* One key as written: `section` is the raw text of the enclosing top-level key (NULL at the top
 * level), `key` the raw text between the quotes; both point into the indexed text. */
typedef struct key_position {
    const char *section;
    size_t section_length;
    const char *key;
    size_t key_length;
    unsigned line, col; /* 1-based; columns count characters, as jansson's do */
} key_position;

typedef struct key_index {
    key_position *items; /* owned */
    size_t count, capacity;
} key_index;

/* Indexes `text` (borrowed, `length` bytes, JSON that jansson has already accepted; it must
 * outlive the index) into `ix` (caller storage, zero-initialised). Returns false only when out
 * of memory. Release with key_index_fini. */
bool key_index_build(key_index *ix, const char *text, size_t length);

/* Line and column of key `section.key` (section NULL: top level), written to *line and *col;
 * 0 and 0 when the key is not in the text or `ix` is NULL. */
void key_index_find(const key_index *ix, const char *section, const char *key, unsigned *line,
                    unsigned *col);

void key_index_fini(key_index *ix);

#endif

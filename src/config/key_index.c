/* Key positions in override text: a small scanner over JSON that jansson has already accepted,
 * recording where each key of depth 1 and 2 starts. See key_index.h. */
#include "config/key_index.h"

#include <stdlib.h>
#include <string.h>

#define INDEX_MAX_DEPTH 64 /* deeper nesting is not indexed (no key of ours lives there) */

typedef struct text_cursor {
    const char *text;
    size_t length, at;
    unsigned line, col;
} text_cursor;

static void cursor_advance(text_cursor *t)
{
    unsigned char ch = (unsigned char)t->text[t->at++];
    if (ch == '\n') {
        t->line++;
        t->col = 1;
    } else if ((ch & 0xc0) != 0x80) { /* columns count characters, as jansson's do */
        t->col++;
    }
}

static bool index_add(key_index *ix, const key_position *kp)
{
    if (ix->count == ix->capacity) {
        size_t capacity = ix->capacity ? ix->capacity * 2 : 64;
        key_position *items = realloc(ix->items, capacity * sizeof *items);
        if (!items)
            return false;
        ix->items = items;
        ix->capacity = capacity;
    }
    ix->items[ix->count++] = *kp;
    return true;
}

bool key_index_build(key_index *ix, const char *text, size_t length)
{
    text_cursor t = {text, length, 0, 1, 1};
    bool is_object[INDEX_MAX_DEPTH + 1] = {false};
    size_t depth = 0;
    bool expect_key = false;
    const char *section = NULL;
    size_t section_length = 0;
    while (t.at < t.length) {
        char ch = t.text[t.at];
        if (ch == '"') {
            key_position kp = {NULL, 0, t.text + t.at + 1, 0, t.line, t.col};
            cursor_advance(&t);
            while (t.at < t.length && t.text[t.at] != '"') {
                if (t.text[t.at] == '\\' && t.at + 1 < t.length)
                    cursor_advance(&t);
                cursor_advance(&t);
            }
            kp.key_length = (size_t)(t.text + t.at - kp.key);
            if (t.at < t.length)
                cursor_advance(&t);
            if (expect_key && depth == 1) {
                section = kp.key;
                section_length = kp.key_length;
            } else if (expect_key && depth == 2) {
                kp.section = section;
                kp.section_length = section_length;
            }
            if (expect_key && depth >= 1 && depth <= 2 && !index_add(ix, &kp))
                return false;
            expect_key = false;
            continue;
        }
        if (ch == '{' || ch == '[') {
            if (++depth > INDEX_MAX_DEPTH)
                return true;
            is_object[depth] = ch == '{';
            expect_key = ch == '{';
        } else if (ch == '}' || ch == ']') {
            depth = depth ? depth - 1 : 0;
            expect_key = false;
        } else if (ch == ',') {
            expect_key = depth > 0 && is_object[depth];
        } else if (ch == ':') {
            expect_key = false;
        }
        cursor_advance(&t);
    }
    return true;
}

static bool raw_equals(const char *raw, size_t raw_length, const char *s)
{
    return raw && strlen(s) == raw_length && memcmp(raw, s, raw_length) == 0;
}

void key_index_find(const key_index *ix, const char *section, const char *key, unsigned *line,
                    unsigned *col)
{
    *line = *col = 0;
    if (!ix)
        return;
    for (size_t i = 0; i < ix->count; i++) {
        const key_position *kp = &ix->items[i];
        bool same_section = section ? raw_equals(kp->section, kp->section_length, section)
                                    : kp->section == NULL;
        if (same_section && raw_equals(kp->key, kp->key_length, key)) {
            *line = kp->line;
            *col = kp->col;
            return;
        }
    }
}

void key_index_fini(key_index *ix)
{
    free(ix->items);
    ix->items = NULL;
    ix->count = ix->capacity = 0;
}

/* Arena allocator: bump allocation in blocks of at least 64 KiB. */
#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
    arena_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    _Alignas(16) unsigned char data[];
};

enum { ARENA_MIN_BLOCK = 64 * 1024 };

void arena_init(arena *a)
{
    a->head = NULL;
    a->bytes_used = 0;
}

void arena_fini(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->bytes_used = 0;
}

void *arena_alloc(arena *a, size_t bytes)
{
    size_t need = (bytes + 15) & ~(size_t)15;
    if (need < bytes)
        return NULL; /* overflow */
    arena_block *b = a->head;
    if (!b || b->size - b->used < need) {
        size_t size = need > ARENA_MIN_BLOCK ? need : ARENA_MIN_BLOCK;
        if (size > SIZE_MAX - sizeof(arena_block))
            return NULL;
        b = malloc(sizeof(arena_block) + size);
        if (!b)
            return NULL;
        b->next = a->head;
        b->size = size;
        b->used = 0;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->bytes_used += need;
    memset(p, 0, need);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t len)
{
    char *p = arena_alloc(a, len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void *arena_grow(arena *a, void *old, size_t old_count, size_t new_count, size_t elem_bytes)
{
    if (new_count && elem_bytes > SIZE_MAX / new_count)
        return NULL;
    void *p = arena_alloc(a, new_count * elem_bytes);
    if (!p)
        return NULL;
    if (old && old_count)
        memcpy(p, old, (old_count < new_count ? old_count : new_count) * elem_bytes);
    return p;
}

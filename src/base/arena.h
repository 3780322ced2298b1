/* Arena allocator: many small allocations freed together by one call.
 *
 * A parsed module, a launch description and other long-lived structures own one arena each.
 * Not thread-safe. Allocations are 16-byte aligned and zero-filled. Out of memory returns NULL;
 * callers turn that into GMS_ERR_NOMEM. */
#ifndef GMS_BASE_ARENA_H
#define GMS_BASE_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena {
    arena_block *head; /* owned: newest block first */
    size_t bytes_used; /* total bytes handed out, for statistics */
} arena;

/* Initialises an empty arena in caller storage. */
void arena_init(arena *a);
/* Frees every block; the arena may be reused after arena_init. */
void arena_fini(arena *a);
/* Returns `bytes` zeroed bytes aligned to 16, or NULL when out of memory. */
void *arena_alloc(arena *a, size_t bytes);
/* Copies `len` bytes of `s` and appends a NUL. Returns NULL when out of memory. */
char *arena_strndup(arena *a, const char *s, size_t len);
/* Grows an arena array: returns a copy of `old` (old_count elements of elem_bytes) with room for
 * new_count elements, or NULL when out of memory. The old storage stays valid until arena_fini. */
void *arena_grow(arena *a, void *old, size_t old_count, size_t new_count, size_t elem_bytes);

#endif

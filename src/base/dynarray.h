/* Growable arrays of fixed-size elements in malloc'd storage: the scratch lists a parser fills
 * while it reads (tokens, symbols, instructions) before it copies the finished result into an
 * arena. Not thread-safe; no allocation until the first push. */
#ifndef GMS_BASE_DYNARRAY_H
#define GMS_BASE_DYNARRAY_H

#include <stddef.h>

typedef struct dynarray {
    void *data;      /* owned (malloc): `count` elements of `elem` bytes, room for `capacity` */
    size_t count, capacity;
    size_t elem;     /* bytes per element; set by the caller before the first push */
} dynarray;

/* Initialises an empty array of `elem`-byte elements in caller storage. */
void dynarray_init(dynarray *v, size_t elem);
/* Appends one zeroed element and returns it (valid until the next push), or NULL when out of
 * memory (the array is unchanged). */
void *dynarray_push(dynarray *v);
/* Frees the storage; the array is empty afterwards and keeps its element size. */
void dynarray_free(dynarray *v);

#endif

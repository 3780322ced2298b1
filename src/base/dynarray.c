/* Growable arrays (dynarray.h). Capacity doubles from 16, so a push is amortised O(1). */
#include "base/dynarray.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void dynarray_init(dynarray *v, size_t elem)
{
    v->data = NULL;
    v->count = v->capacity = 0;
    v->elem = elem;
}

void *dynarray_push(dynarray *v)
{
    if (v->count == v->capacity) {
        size_t cap = v->capacity ? v->capacity * 2 : 16;
        if (v->elem && cap > SIZE_MAX / v->elem)
            return NULL;
        void *grown = realloc(v->data, cap * v->elem);
        if (!grown)
            return NULL;
        v->data = grown;
        v->capacity = cap;
    }
    void *e = (char *)v->data + v->count * v->elem;
    memset(e, 0, v->elem);
    v->count++;
    return e;
}

void dynarray_free(dynarray *v)
{
    free(v->data);
    v->data = NULL;
    v->count = v->capacity = 0;
}

/* The timing core's calendar (timing_cal.h). */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_cal.h"

#define MASK ((uint64_t)TIMING_CAL_SLOTS - 1)

void timing_cal_reset(timing_cal *c)
{
    c->now = 0;
    c->cur = c->end = NULL;
    c->serving = 0;
    c->count = 0;
    memset(c->n, 0, sizeof c->n);
    c->nfar = 0;
}

void timing_cal_free(timing_cal *c)
{
    for (void *b = c->blocks; b;) {
        void *next = *(void **)b;
        free(b);
        b = next;
    }
    free(c->far);
    memset(c, 0, sizeof *c);
}

/* Bytes of a block the arrays are carved from (more when one array needs more). */
enum { CARVE_BLOCK_BYTES = 64 * 1024, MIN_CAP = 16 };

/* The size class of an array of cap (16 x 2^k) entries: k. */
static uint32_t class_of(uint32_t cap)
{
    return (uint32_t)__builtin_ctz(cap / MIN_CAP);
}

/* An array of `cap` (16 x 2^k) entries: one given back, or carved from the newest block or a
 * new one; NULL when host memory ran out. */
static uint32_t *array_take(timing_cal *c, uint32_t cap)
{
    uint32_t k = class_of(cap);
    if (c->spare[k]) {
        void *p = c->spare[k];
        c->spare[k] = *(void **)p;
        return p;
    }
    size_t bytes = (size_t)cap * sizeof(uint32_t); /* 64 bytes at least: room for a link */
    if (c->carve_left < bytes) {
        size_t head = 64; /* the block's link, and the arrays 64-byte aligned after it */
        size_t size = head + bytes > CARVE_BLOCK_BYTES ? head + bytes : CARVE_BLOCK_BYTES;
        void *b = malloc(size);
        if (!b)
            return NULL;
        *(void **)b = c->blocks;
        c->blocks = b;
        c->carve_at = (char *)b + head;
        c->carve_left = size - head;
    }
    void *p = c->carve_at;
    c->carve_at += bytes;
    c->carve_left -= bytes;
    return p;
}

/* Gives slot b's array back (the slot is empty). */
static void array_give(timing_cal *c, uint32_t b)
{
    if (!c->cap[b])
        return;
    uint32_t k = class_of(c->cap[b]);
    *(void **)c->items[b] = c->spare[k];
    c->spare[k] = c->items[b];
    c->items[b] = NULL;
    c->cap[b] = 0;
}

static int wheel_add(timing_cal *c, uint32_t s, uint64_t key)
{
    uint32_t b = (uint32_t)(key & MASK);
    if (c->n[b] == c->cap[b]) {
        uint32_t cap = c->cap[b] ? 2 * c->cap[b] : c->first_cap ? c->first_cap : MIN_CAP;
        if (class_of(cap) >= TIMING_CAL_CLASSES)
            return -1;
        uint32_t *p = array_take(c, cap);
        if (!p)
            return -1;
        if (c->n[b])
            memcpy(p, c->items[b], c->n[b] * sizeof *p);
        array_give(c, b);
        c->items[b] = p;
        c->cap[b] = cap;
    }
    c->items[b][c->n[b]++] = s;
    c->count++;
    return 0;
}

static int far_less(const timing_cal_far *a, const timing_cal_far *b)
{
    return a->key < b->key || (a->key == b->key && a->s < b->s);
}

static int far_add(timing_cal *c, uint32_t s, uint64_t key)
{
    if (c->nfar == c->capfar) {
        uint32_t cap = c->capfar ? 2 * c->capfar : 64;
        timing_cal_far *p = realloc(c->far, cap * sizeof *p);
        if (!p)
            return -1;
        c->far = p;
        c->capfar = cap;
    }
    uint32_t i = c->nfar++;
    c->far[i] = (timing_cal_far){.key = key, .s = s};
    while (i > 0 && far_less(&c->far[i], &c->far[(i - 1) / 2])) {
        timing_cal_far t = c->far[i];
        c->far[i] = c->far[(i - 1) / 2];
        c->far[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    return 0;
}

static timing_cal_far far_pop(timing_cal *c)
{
    timing_cal_far top = c->far[0];
    c->far[0] = c->far[--c->nfar];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < c->nfar && far_less(&c->far[l], &c->far[m]))
            m = l;
        if (r < c->nfar && far_less(&c->far[r], &c->far[m]))
            m = r;
        if (m == i)
            break;
        timing_cal_far t = c->far[i];
        c->far[i] = c->far[m];
        c->far[m] = t;
        i = m;
    }
    return top;
}

int timing_cal_add_slow(timing_cal *c, uint32_t s, uint64_t key)
{
    return key - c->now < TIMING_CAL_SLOTS ? wheel_add(c, s, key) : far_add(c, s, key);
}

int timing_cal_reverse;

/* Starts serving the current cycle's slot: its entries from the first (under
 * timing_cal_reverse, from the last). */
static void serve(timing_cal *c)
{
    uint32_t b = (uint32_t)(c->now & MASK);
    if (timing_cal_reverse)
        for (uint32_t i = 0, j = c->n[b]; i + 1 < j; i++, j--) {
            uint32_t e = c->items[b][i];
            c->items[b][i] = c->items[b][j - 1];
            c->items[b][j - 1] = e;
        }
    c->serving = 1;
    c->cur = c->items[b];
    c->end = c->n[b] ? c->cur + c->n[b] : c->cur;
}

uint32_t timing_cal_take_slow(timing_cal *c, const uint64_t *keys)
{
    if (!c->serving)
        serve(c);
    for (;;) {
        while (c->cur < c->end) {
            uint32_t e = *c->cur++;
            if (keys[e] == c->now)
                return e;
        }
        uint32_t b = (uint32_t)(c->now & MASK);
        c->count -= c->n[b]; /* the slot's entries, taken off once it is done */
        if (c->cap[b]) {
            /* The next slot's first array is as large as this one needed. */
            uint32_t need = MIN_CAP;
            while (need < c->n[b]) need *= 2;
            c->first_cap = need;
            c->n[b] = 0;
            array_give(c, b);
        }
        c->cur = c->end = NULL;
        c->serving = 0; /* while the far entries move in, the new cycle's slot may grow */
        if (c->count)
            c->now++;
        else if (c->nfar)
            c->now = c->far[0].key;
        else
            return TIMING_CAL_EMPTY;
        /* Entries that came within the wheel's reach move onto it. */
        while (c->nfar && c->far[0].key - c->now < TIMING_CAL_SLOTS) {
            timing_cal_far f = far_pop(c);
            if (keys[f.s] == f.key && wheel_add(c, f.s, f.key))
                return TIMING_CAL_OOM;
        }
        serve(c);
    }
}

/* The timing core's calendar (timing_cal.h). */
#include <stdlib.h>
#include <string.h>

#include "timing/timing_cal.h"

#define MASK ((uint64_t)TIMING_CAL_SLOTS - 1)

void timing_cal_reset(timing_cal *c)
{
    c->now = 0;
    c->pos = 0;
    c->count = 0;
    memset(c->n, 0, sizeof c->n);
    c->nfar = 0;
}

void timing_cal_free(timing_cal *c)
{
    for (uint32_t i = 0; i < TIMING_CAL_SLOTS; i++) free(c->items[i]);
    free(c->far);
    memset(c, 0, sizeof *c);
}

static int wheel_add(timing_cal *c, uint32_t s, uint64_t key)
{
    uint32_t b = (uint32_t)(key & MASK);
    if (c->n[b] == c->cap[b]) {
        uint32_t cap = c->cap[b] ? 2 * c->cap[b] : 16;
        uint32_t *p = realloc(c->items[b], cap * sizeof *p);
        if (!p)
            return -1;
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

int timing_cal_next_slow(timing_cal *c, const uint64_t *keys, uint32_t *s, uint64_t *t)
{
    for (;;) {
        uint32_t b = (uint32_t)(c->now & MASK);
        while (c->pos < c->n[b]) {
            uint32_t e = c->items[b][c->pos++];
            if (keys[e] == c->now) {
                *s = e;
                *t = c->now;
                return 1;
            }
        }
        c->count -= c->n[b]; /* the slot's entries, taken off once it is done */
        c->n[b] = 0;
        c->pos = 0;
        if (c->count)
            c->now++;
        else if (c->nfar)
            c->now = c->far[0].key;
        else
            return 0;
        /* Entries that came within the wheel's reach move onto it. */
        while (c->nfar && c->far[0].key - c->now < TIMING_CAL_SLOTS) {
            timing_cal_far f = far_pop(c);
            if (keys[f.s] == f.key && wheel_add(c, f.s, f.key))
                return -1;
        }
    }
}

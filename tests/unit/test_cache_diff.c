/* Differential test of src/mem/cache against a deliberately naive reference model.
 *
 * The reference keeps every line as plain arrays (one flag byte per data byte for valid and dirty),
 * finds lines and victims by linear search, keeps a timestamp per line for LRU, and reads and
 * writes a flat array standing for memory. It follows docs/cache-model.md rule by rule and makes
 * no attempt to be fast. For each geometry and policy combination a fixed-seed random trace of
 * reads, writes (some masked), line and whole-cache control operations runs on both; every
 * operation's counters, every byte read, every line's state and the final memory after a flush
 * must be identical. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/dram.h"

enum { MAX_LINE = 256, MEMORY_BYTES = 8192, OPS_PER_RUN = 8000 };
#define MEMORY_BASE UINT64_C(0x7f0000010000)

/* ---- the reference model ---- */

typedef struct ref_line {
    int present;
    uint64_t line_number;
    uint8_t data[MAX_LINE];
    uint8_t valid[MAX_LINE]; /* one flag per byte */
    uint8_t dirty[MAX_LINE];
    int priority;            /* 0 first, 1 normal, 2 last */
    int kind;
    uint64_t stamp;
} ref_line;

typedef struct ref_cache {
    cache_config config;
    uint32_t sets;
    ref_line *lines; /* sets * ways */
    uint64_t clock;
    uint8_t memory[MEMORY_BYTES];
    cache_result r; /* counters of the current operation */
} ref_cache;

static uint8_t *ref_mem(ref_cache *m, uint64_t addr)
{
    assert_true(addr >= MEMORY_BASE && addr - MEMORY_BASE < MEMORY_BYTES);
    return &m->memory[addr - MEMORY_BASE];
}

static uint32_t ref_set(const ref_cache *m, uint64_t line_number)
{
    if (m->config.index_function == CACHE_INDEX_MODULO)
        return (uint32_t)(line_number % m->sets);
    unsigned bits = 0;
    while ((UINT64_C(1) << bits) < m->sets)
        bits++;
    if (bits == 0)
        return 0;
    uint64_t h = 0;
    for (unsigned shift = 0; shift < 64; shift += bits)
        h ^= (line_number >> shift) & ((UINT64_C(1) << bits) - 1);
    return (uint32_t)(h % m->sets);
}

static ref_line *ref_find(ref_cache *m, uint64_t line_number)
{
    uint32_t set = ref_set(m, line_number);
    for (uint32_t w = 0; w < m->config.ways; w++) {
        ref_line *l = &m->lines[set * m->config.ways + w];
        if (l->present && l->line_number == line_number)
            return l;
    }
    return NULL;
}

static int ref_sector_valid(const ref_cache *m, const ref_line *l, unsigned s)
{
    for (uint32_t i = 0; i < m->config.sector_bytes; i++)
        if (!l->valid[s * m->config.sector_bytes + i])
            return 0;
    return 1;
}

static int ref_sector_dirty(const ref_cache *m, const ref_line *l, unsigned s)
{
    for (uint32_t i = 0; i < m->config.sector_bytes; i++)
        if (l->dirty[s * m->config.sector_bytes + i])
            return 1;
    return 0;
}

static uint32_t ref_line_count(const ref_cache *m)
{
    return m->sets * m->config.ways;
}

static uint64_t ref_count_priority(const ref_cache *m, int priority)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < ref_line_count(m); i++)
        if (m->lines[i].present && m->lines[i].priority == priority)
            n++;
    return n;
}

static void ref_make_last(ref_cache *m, ref_line *l)
{
    if (l->priority == 2)
        return;
    if (m->config.persisting_limit_lines == 0) {
        l->priority = 1;
        return;
    }
    if (ref_count_priority(m, 2) >= m->config.persisting_limit_lines) {
        ref_line *oldest = NULL;
        for (uint32_t i = 0; i < ref_line_count(m); i++) {
            ref_line *o = &m->lines[i];
            if (o->present && o->priority == 2 && (oldest == NULL || o->stamp < oldest->stamp))
                oldest = o;
        }
        oldest->priority = 1;
    }
    l->priority = 2;
}

static void ref_apply_hint(ref_cache *m, ref_line *l, int alloc)
{
    if (alloc == CACHE_ALLOC_NORMAL)
        l->priority = 1;
    else if (alloc == CACHE_ALLOC_FIRST)
        l->priority = 0;
    else if (alloc == CACHE_ALLOC_LAST)
        ref_make_last(m, l);
}

static void ref_writeback(ref_cache *m, ref_line *l)
{
    uint32_t sb = m->config.sector_bytes;
    for (unsigned s = 0; s < m->config.line_bytes / sb; s++) {
        if (!ref_sector_dirty(m, l, s))
            continue;
        for (uint32_t i = s * sb; i < (s + 1) * sb; i++) {
            if (l->dirty[i])
                *ref_mem(m, (l->line_number * m->config.line_bytes) + i) = l->data[i];
            l->dirty[i] = 0;
        }
        m->r.writeback_bytes += sb;
    }
}

static ref_line *ref_allocate(ref_cache *m, uint64_t line_number, int kind)
{
    uint32_t set = ref_set(m, line_number);
    ref_line *victim = NULL;
    for (uint32_t w = 0; w < m->config.ways && victim == NULL; w++)
        if (!m->lines[set * m->config.ways + w].present)
            victim = &m->lines[set * m->config.ways + w];
    for (int p = 0; p < 3 && victim == NULL; p++) {
        for (uint32_t w = 0; w < m->config.ways; w++) {
            ref_line *l = &m->lines[set * m->config.ways + w];
            if (l->priority == p && (victim == NULL || l->stamp < victim->stamp))
                victim = l;
        }
    }
    if (victim->present) {
        ref_writeback(m, victim);
        m->r.evictions++;
    }
    memset(victim, 0, sizeof *victim);
    victim->present = 1;
    victim->line_number = line_number;
    victim->priority = 1;
    victim->kind = kind;
    victim->stamp = ++m->clock;
    return victim;
}

static void ref_fetch_sector(ref_cache *m, ref_line *l, unsigned s)
{
    uint32_t sb = m->config.sector_bytes;
    for (uint32_t i = s * sb; i < (s + 1) * sb; i++) {
        if (!l->valid[i])
            l->data[i] = *ref_mem(m, l->line_number * m->config.line_bytes + i);
        l->valid[i] = 1;
    }
    m->r.fill_bytes += sb;
}

static void ref_neighbours(ref_cache *m, uint64_t line_number, const cache_hints *h,
                           uint32_t fill)
{
    uint64_t count = fill / m->config.line_bytes;
    uint64_t first = line_number - line_number % count;
    for (uint64_t n = first; n < first + count; n++) {
        if (n == line_number)
            continue;
        ref_line *l = ref_find(m, n);
        if (l == NULL) {
            l = ref_allocate(m, n, h->kind);
            ref_apply_hint(m, l, h->alloc);
        }
        for (unsigned s = 0; s < m->config.line_bytes / m->config.sector_bytes; s++)
            if (!ref_sector_valid(m, l, s))
                ref_fetch_sector(m, l, s);
    }
}

static void ref_read(ref_cache *m, uint64_t addr, uint32_t bytes, uint8_t *out,
                     const cache_hints *h)
{
    uint32_t lb = m->config.line_bytes, sb = m->config.sector_bytes;
    uint64_t line_number = addr / lb;
    unsigned first = (unsigned)(addr % lb) / sb, last = (unsigned)((addr % lb) + bytes - 1) / sb;
    memset(&m->r, 0, sizeof m->r);
    ref_line *l = ref_find(m, line_number);
    m->r.sector_accesses = last - first + 1;
    if (l != NULL) {
        m->r.line_hit = true;
        for (unsigned s = first; s <= last; s++)
            m->r.sector_hits += (uint32_t)ref_sector_valid(m, l, s);
        l->stamp = ++m->clock;
    } else if (h->alloc == CACHE_ALLOC_NONE) {
        m->r.sector_misses = m->r.sector_accesses;
        m->r.fill_bytes = m->r.sector_accesses * sb;
        memcpy(out, ref_mem(m, addr), bytes);
        return;
    } else {
        l = ref_allocate(m, line_number, h->kind);
    }
    m->r.sector_misses = m->r.sector_accesses - m->r.sector_hits;
    ref_apply_hint(m, l, h->alloc);
    uint32_t fill = m->config.fill_bytes > h->fill_bytes ? m->config.fill_bytes : h->fill_bytes;
    uint32_t block = fill >= lb ? lb / sb : fill / sb;
    int missed = m->r.sector_misses != 0;
    if (missed) {
        int fetch[64] = {0};
        for (unsigned s = first; s <= last; s++)
            if (!ref_sector_valid(m, l, s))
                for (unsigned t = s - s % block; t < s - s % block + block; t++)
                    fetch[t] = 1;
        for (unsigned s = 0; s < lb / sb; s++)
            if (fetch[s] && !ref_sector_valid(m, l, s))
                ref_fetch_sector(m, l, s);
    }
    memcpy(out, &l->data[addr % lb], bytes);
    if (missed && fill > lb)
        ref_neighbours(m, line_number, h, fill);
}

static void ref_write(ref_cache *m, uint64_t addr, uint32_t bytes, const uint8_t *data,
                      const uint8_t *mask, const cache_hints *h)
{
    uint32_t lb = m->config.line_bytes, sb = m->config.sector_bytes;
    uint64_t line_number = addr / lb;
    int touched[64] = {0};
    uint32_t stored = 0;
    memset(&m->r, 0, sizeof m->r);
    for (uint32_t i = 0; i < bytes; i++)
        if (mask == NULL || mask[i]) {
            touched[(addr % lb + i) / sb] = 1;
            stored++;
        }
    if (stored == 0)
        return;
    int through = h->write_mode == CACHE_WRITE_THROUGH ||
                  (h->write_mode == CACHE_WRITE_DEFAULT &&
                   ((m->config.write_through_kinds >> h->kind) & 1));
    ref_line *l = ref_find(m, line_number);
    for (unsigned s = 0; s < lb / sb; s++)
        m->r.sector_accesses += (uint32_t)touched[s];
    if (l != NULL) {
        m->r.line_hit = true;
        for (unsigned s = 0; s < lb / sb; s++)
            m->r.sector_hits += (uint32_t)(touched[s] && ref_sector_valid(m, l, s));
        l->stamp = ++m->clock;
    }
    m->r.sector_misses = m->r.sector_accesses - m->r.sector_hits;
    if (l == NULL && (!m->config.write_allocate || h->alloc == CACHE_ALLOC_NONE)) {
        through = 1;
    } else {
        if (l == NULL)
            l = ref_allocate(m, line_number, h->kind);
        ref_apply_hint(m, l, h->alloc);
        for (uint32_t i = 0; i < bytes; i++) {
            if (mask != NULL && !mask[i])
                continue;
            uint32_t at = (uint32_t)(addr % lb) + i;
            l->data[at] = data[i];
            l->valid[at] = 1;
            l->dirty[at] = (uint8_t)!through;
        }
    }
    if (through) {
        for (uint32_t i = 0; i < bytes; i++)
            if (mask == NULL || mask[i])
                *ref_mem(m, addr + i) = data[i];
        m->r.write_through_bytes = stored;
    }
}

static void ref_control_line(ref_cache *m, uint64_t addr, int writeback, int drop)
{
    memset(&m->r, 0, sizeof m->r);
    ref_line *l = ref_find(m, addr / m->config.line_bytes);
    if (l == NULL)
        return;
    m->r.line_hit = true;
    if (writeback)
        ref_writeback(m, l);
    if (drop)
        l->present = 0;
}

static void ref_control_all(ref_cache *m, uint32_t filter, int writeback, int drop)
{
    memset(&m->r, 0, sizeof m->r);
    for (uint32_t i = 0; i < ref_line_count(m); i++) {
        ref_line *l = &m->lines[i];
        if (!l->present || !((filter >> l->kind) & 1))
            continue;
        if (writeback)
            ref_writeback(m, l);
        if (drop)
            l->present = 0;
    }
}

/* ---- comparison ---- */

typedef struct harness {
    ref_cache *ref;
    cache *c;
    dram *d;
    uint64_t rng;
    const char *label;
    int op_index;
    uint64_t recent[8]; /* recently used line addresses, for locality */
    unsigned recent_next;
} harness;

static uint64_t next_random(harness *t)
{
    /* xorshift64*: fixed seed, deterministic everywhere */
    t->rng ^= t->rng >> 12;
    t->rng ^= t->rng << 25;
    t->rng ^= t->rng >> 27;
    return t->rng * UINT64_C(2685821657736338717);
}

static uint32_t random_below(harness *t, uint32_t n)
{
    return (uint32_t)(next_random(t) % n);
}

static void fail_at(const harness *t, const char *what)
{
    fail_msg("%s: operation %d: %s differs", t->label, t->op_index, what);
}

static void compare_result(const harness *t, const cache_result *r)
{
    const cache_result *e = &t->ref->r;
    if (r->sector_accesses != e->sector_accesses) fail_at(t, "sector_accesses");
    if (r->sector_hits != e->sector_hits) fail_at(t, "sector_hits");
    if (r->sector_misses != e->sector_misses) fail_at(t, "sector_misses");
    if (r->evictions != e->evictions) fail_at(t, "evictions");
    if (r->writeback_bytes != e->writeback_bytes) fail_at(t, "writeback_bytes");
    if (r->fill_bytes != e->fill_bytes) fail_at(t, "fill_bytes");
    if (r->write_through_bytes != e->write_through_bytes) fail_at(t, "write_through_bytes");
    if (r->line_hit != e->line_hit) fail_at(t, "line_hit");
}

static void compare_line(const harness *t, uint64_t line_number)
{
    ref_cache *m = t->ref;
    const ref_line *l = ref_find(m, line_number);
    cache_line_info info;
    bool present = cache_lookup(t->c, line_number * m->config.line_bytes, &info);
    if (present != (l != NULL))
        fail_at(t, "line presence");
    if (l == NULL)
        return;
    uint64_t valid = 0, partial = 0, dirty = 0;
    for (unsigned s = 0; s < m->config.line_bytes / m->config.sector_bytes; s++) {
        int any = 0;
        for (uint32_t i = 0; i < m->config.sector_bytes; i++)
            any |= l->valid[s * m->config.sector_bytes + i];
        if (ref_sector_valid(m, l, s))
            valid |= UINT64_C(1) << s;
        else if (any)
            partial |= UINT64_C(1) << s;
        if (ref_sector_dirty(m, l, s))
            dirty |= UINT64_C(1) << s;
    }
    if (info.valid_sectors != valid) fail_at(t, "valid sectors");
    if (info.partial_sectors != partial) fail_at(t, "partial sectors");
    if (info.dirty_sectors != dirty) fail_at(t, "dirty sectors");
    if (info.priority != l->priority) fail_at(t, "priority");
    if (info.kind != l->kind) fail_at(t, "kind");
}

static void compare_state(const harness *t)
{
    ref_cache *m = t->ref;
    for (uint64_t a = MEMORY_BASE; a < MEMORY_BASE + MEMORY_BYTES; a += m->config.line_bytes)
        compare_line(t, a / m->config.line_bytes);
    const cache_stats *s = cache_get_stats(t->c);
    for (int p = 0; p < 3; p++)
        if (s->lines_by_priority[p] != ref_count_priority(m, p))
            fail_at(t, "lines_by_priority");
    uint8_t memory[MEMORY_BYTES];
    assert_int_equal(dram_peek(t->d, MEMORY_BASE, MEMORY_BYTES, memory), MEM_OK);
    if (memcmp(memory, m->memory, MEMORY_BYTES) != 0)
        fail_at(t, "next-level memory");
}

/* ---- random operations ---- */

/* Half the addresses reuse one of the last 8 lines, so that traces hit, merge partial sectors and
 * exercise LRU order instead of only missing; the rest are uniform over the memory. */
static uint64_t random_address(harness *t)
{
    uint32_t line_bytes = t->ref->config.line_bytes;
    uint64_t addr;
    if (random_below(t, 2) == 0)
        addr = t->recent[random_below(t, 8)] + random_below(t, line_bytes);
    else
        addr = MEMORY_BASE + random_below(t, MEMORY_BYTES);
    t->recent[t->recent_next++ % 8] = addr - addr % line_bytes;
    return addr;
}

static void random_hints(harness *t, cache_hints *h)
{
    static const uint8_t allocs[] = {CACHE_ALLOC_UNCHANGED, CACHE_ALLOC_UNCHANGED,
                                     CACHE_ALLOC_UNCHANGED, CACHE_ALLOC_NORMAL, CACHE_ALLOC_FIRST,
                                     CACHE_ALLOC_LAST, CACHE_ALLOC_LAST, CACHE_ALLOC_NONE};
    static const uint16_t fills[] = {0, 0, 0, 64, 128, 256};
    memset(h, 0, sizeof *h);
    h->alloc = allocs[random_below(t, sizeof allocs)];
    h->kind = (uint8_t)random_below(t, 3);
    h->write_mode = (uint8_t)(random_below(t, 4) == 0 ? 1 + random_below(t, 2) : 0);
    uint16_t fill = fills[random_below(t, sizeof fills / sizeof fills[0])];
    h->fill_bytes = fill >= t->ref->config.sector_bytes ? fill : 0;
}

/* A range within one line: random start, random length to at most the line's end. */
static void random_range(harness *t, uint64_t *addr, uint32_t *bytes)
{
    uint32_t lb = t->ref->config.line_bytes;
    *addr = random_address(t);
    uint32_t room = lb - (uint32_t)(*addr % lb);
    uint32_t pick = random_below(t, 4);
    *bytes = pick == 0 ? room : pick == 1 ? 1 + random_below(t, room) : (room < 4 ? room : 4);
    if (pick == 3)
        *bytes = 1;
}

static void do_read(harness *t)
{
    uint64_t addr;
    uint32_t bytes;
    cache_hints h;
    random_range(t, &addr, &bytes);
    random_hints(t, &h);
    uint8_t got[MAX_LINE], want[MAX_LINE];
    cache_result r;
    assert_int_equal(cache_read(t->c, addr, bytes, got, &h, &r), MEM_OK);
    ref_read(t->ref, addr, bytes, want, &h);
    compare_result(t, &r);
    if (memcmp(got, want, bytes) != 0)
        fail_at(t, "read data");
}

static void do_write(harness *t)
{
    uint64_t addr;
    uint32_t bytes;
    cache_hints h;
    random_range(t, &addr, &bytes);
    random_hints(t, &h);
    uint8_t data[MAX_LINE], mask[MAX_LINE];
    for (uint32_t i = 0; i < bytes; i++) {
        data[i] = (uint8_t)next_random(t);
        mask[i] = (uint8_t)(random_below(t, 3) != 0);
    }
    int masked = random_below(t, 4) == 0;
    cache_result r;
    assert_int_equal(cache_write_masked(t->c, addr, bytes, data, masked ? mask : NULL, &h, &r),
                     MEM_OK);
    ref_write(t->ref, addr, bytes, data, masked ? mask : NULL, &h);
    compare_result(t, &r);
}

static void do_control(harness *t)
{
    uint64_t addr = random_address(t);
    uint32_t filter = random_below(t, 8);
    cache_result r;
    switch (random_below(t, 7)) {
    case 0:
        assert_int_equal(cache_invalidate_line(t->c, addr, true, NULL, &r), MEM_OK);
        ref_control_line(t->ref, addr, 1, 1);
        break;
    case 1:
        assert_int_equal(cache_discard_line(t->c, addr, &r), MEM_OK);
        ref_control_line(t->ref, addr, 0, 1);
        break;
    case 2:
        assert_int_equal(cache_writeback_line(t->c, addr, NULL, &r), MEM_OK);
        ref_control_line(t->ref, addr, 1, 0);
        break;
    case 3: {
        int priority = (int)random_below(t, 3);
        assert_int_equal(cache_set_line_priority(t->c, addr, (cache_priority)priority), MEM_OK);
        ref_line *l = ref_find(t->ref, addr / t->ref->config.line_bytes);
        if (l != NULL)
            ref_apply_hint(t->ref, l, priority == 0 ? CACHE_ALLOC_FIRST
                                      : priority == 1 ? CACHE_ALLOC_NORMAL : CACHE_ALLOC_LAST);
        return;
    }
    case 4: {
        int writeback = (int)random_below(t, 2);
        assert_int_equal(cache_invalidate_all(t->c, filter, writeback != 0, NULL, &r), MEM_OK);
        ref_control_all(t->ref, filter, writeback, 1);
        break;
    }
    case 5:
        assert_int_equal(cache_writeback_all(t->c, filter, NULL, &r), MEM_OK);
        ref_control_all(t->ref, filter, 1, 0);
        break;
    default:
        assert_int_equal(cache_invalidate_line(t->c, addr, false, NULL, &r), MEM_OK);
        ref_control_line(t->ref, addr, 0, 1);
        break;
    }
    compare_result(t, &r);
}

typedef struct geometry {
    uint64_t size_bytes;
    uint32_t line_bytes, sector_bytes, ways;
    uint8_t index_function;
} geometry;

static const geometry geometries[] = {
    {64, 16, 4, 2, CACHE_INDEX_MODULO},        /* 2 sets of 2 tiny lines: thrashes */
    {256, 128, 32, 1, CACHE_INDEX_MODULO},     /* 2 direct-mapped lines */
    {2048, 128, 32, 4, CACHE_INDEX_MODULO},    /* 4 sets of 4 */
    {960, 64, 8, 3, CACHE_INDEX_XOR_FOLD},     /* 5 sets (not a power of two), hashed */
    {2048, 128, 32, 16, CACHE_INDEX_MODULO},   /* fully associative */
    {4096, 256, 32, 2, CACHE_INDEX_XOR_FOLD},  /* 8 sectors per line, hashed */
    {4096, 128, 128, 2, CACHE_INDEX_MODULO},   /* unsectored: one 128 B sector per line */
    {8192, 256, 4, 2, CACHE_INDEX_MODULO},     /* 64 sectors per line: whole 64-bit masks */
    {8192, 128, 32, 32, CACHE_INDEX_MODULO},   /* 32 ways: a set spans two groups of slots */
};

typedef struct policy {
    uint32_t write_through_kinds;
    bool write_allocate;
    uint32_t fill_bytes; /* 0: sector */
    uint64_t persisting_limit_lines;
} policy;

static void run_one(const geometry *g, const policy *p, uint64_t seed, char *label)
{
    cache_config config;
    cache_config_default(&config, g->size_bytes, g->ways);
    config.line_bytes = g->line_bytes;
    config.sector_bytes = g->sector_bytes;
    config.index_function = g->index_function;
    config.write_through_kinds = p->write_through_kinds;
    config.write_allocate = p->write_allocate;
    config.fill_bytes = p->fill_bytes > g->sector_bytes ? p->fill_bytes : g->sector_bytes;
    config.persisting_limit_lines = p->persisting_limit_lines;

    diag_list dl;
    diag_list_init(&dl);
    harness t = {0};
    t.label = label;
    t.rng = seed;
    for (unsigned i = 0; i < 8; i++)
        t.recent[i] = MEMORY_BASE;
    assert_int_equal(dram_create(NULL, &dl, &t.d), MEM_OK);
    cache_next_level next = cache_next_level_dram(t.d);
    assert_int_equal(cache_create(&config, &next, &dl, &t.c), MEM_OK);
    t.ref = calloc(1, sizeof *t.ref);
    assert_non_null(t.ref);
    t.ref->config = *cache_get_config(t.c);
    t.ref->sets = (uint32_t)(g->size_bytes / g->line_bytes / g->ways);
    assert_int_equal(t.ref->sets, cache_set_count(t.c));
    t.ref->lines = calloc(ref_line_count(t.ref), sizeof(ref_line));
    assert_non_null(t.ref->lines);
    for (uint32_t i = 0; i < MEMORY_BYTES; i++)
        t.ref->memory[i] = (uint8_t)next_random(&t);
    assert_int_equal(dram_poke(t.d, MEMORY_BASE, MEMORY_BYTES, t.ref->memory), MEM_OK);

    for (t.op_index = 0; t.op_index < OPS_PER_RUN; t.op_index++) {
        uint32_t pick = random_below(&t, 100);
        if (pick < 50)
            do_read(&t);
        else if (pick < 92)
            do_write(&t);
        else
            do_control(&t);
        if (t.op_index % 97 == 0)
            compare_state(&t);
    }
    cache_result r;
    assert_int_equal(cache_flush(t.c, &r), MEM_OK);
    ref_control_all(t.ref, CACHE_KIND_ALL, 1, 0);
    compare_result(&t, &r);
    compare_state(&t);
    assert_int_equal(cache_get_stats(t.c)->peak_last_lines <=
                         (p->persisting_limit_lines ? p->persisting_limit_lines : 0), 1);

    cache_destroy(t.c);
    dram_destroy(t.d);
    free(t.ref->lines);
    free(t.ref);
    diag_list_fini(&dl);
}

static void test_random_traces_match_reference(void **state)
{
    (void)state;
    static const policy policies[] = {
        {0, true, 0, 0},            /* write-back, write-allocate */
        {0, false, 0, 2},           /* write-back, no write-allocate */
        {UINT32_MAX, true, 64, 1},  /* write-through, allocate, 64 B fills */
        {UINT32_MAX, false, 0, 3},  /* write-through, no allocate */
        {0x2, true, 128, 100},      /* kind 1 write-through, whole-line fills */
        {0x5, false, 256, 4},       /* kinds 0, 2 write-through, two-line fills */
    };
    uint64_t seed = UINT64_C(0x243F6A8885A308D3);
    char label[128];
    for (size_t gi = 0; gi < sizeof geometries / sizeof geometries[0]; gi++) {
        for (size_t pi = 0; pi < sizeof policies / sizeof policies[0]; pi++) {
            snprintf(label, sizeof label, "geometry %zu policy %zu", gi, pi);
            run_one(&geometries[gi], &policies[pi], seed + gi * 31 + pi, label);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_traces_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

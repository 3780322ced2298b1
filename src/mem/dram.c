/* DRAM backing store: pages in an open-addressing hash table keyed by page number.
 *
 * A table slot exists for every page that was written or poisoned; its data is allocated only when
 * a byte of the page must differ from the page's single fill byte. Slots are never removed (pages
 * are only released back to "fill byte only"), so linear probing needs no tombstones.
 *
 * Page data comes from slabs (anonymous mappings, 64 KiB for the first, 2 MiB after) carved in the
 * order pages are first written, so input buffers fill whole slabs, page-aligned, without a
 * malloc and a free per page; a released page goes to a free list for the next one. A slab's
 * memory is zero until written, so a new page whose fill byte is 0 needs no clearing: an upload
 * writes its bytes once. At most the last slab is partly unused (untouched, so not resident). */
#include "mem/dram.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/bits.h"
#include "base/pages.h"

enum { DRAM_DEFAULT_PAGE_BYTES = 64 * 1024, DRAM_INITIAL_SLOTS = 64 };

#define SLAB_FIRST_BYTES ((size_t)64 << 10)
#define SLAB_MAX_BYTES ((size_t)2 << 20)

typedef struct dram_slab {
    uint8_t *base; /* owned block of pages_alloc_dense(bytes) */
    size_t bytes;
} dram_slab;

typedef struct dram_page {
    uint64_t key;  /* page number + 1; 0 marks an empty slot */
    uint8_t *data; /* owned, page_bytes long; NULL while every byte equals `fill` */
    uint8_t fill;  /* value of every byte while data is NULL */
} dram_page;

struct dram {
    dram_page *slots; /* owned, slot_count entries */
    size_t slot_count; /* power of two */
    size_t used_slots;
    uint32_t page_bytes;
    unsigned page_shift;
    uint64_t limit_bytes;
    dram_page *recent; /* the slot dram_read or a one-page store found last (a cache's fills and
                          write-backs walk a page in turns), or NULL; table_grow moves the
                          slots and clears it */
    dram_slab *slabs;  /* owned, nslabs entries (slabs_cap allocated) */
    size_t nslabs, slabs_cap;
    size_t slab_bytes;  /* size of the next slab */
    uint8_t *carve;     /* never used part of the last slab: carve_left bytes, all zero */
    size_t carve_left;
    uint8_t *free_pages; /* released page data, linked through each page's first 8 bytes */
    dram_stats stats;
};

/* True when [addr, addr + bytes) wraps past the top of the address space. */
static int range_wraps(uint64_t addr, uint64_t bytes)
{
    return bytes != 0 && addr + (bytes - 1) < addr;
}

static size_t slot_of(uint64_t key, size_t slot_count)
{
    /* Fibonacci hashing: consecutive page numbers spread over the table. */
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (slot_count - 1);
}

static dram_page *page_find(const dram *d, uint64_t page_number)
{
    uint64_t key = page_number + 1;
    size_t i = slot_of(key, d->slot_count);
    while (d->slots[i].key != 0) {
        if (d->slots[i].key == key)
            return &d->slots[i];
        i = (i + 1) & (d->slot_count - 1);
    }
    return NULL;
}

static mem_status table_grow(dram *d)
{
    size_t new_count = d->slot_count * 2;
    dram_page *slots = calloc(new_count, sizeof *slots);
    if (slots == NULL)
        return MEM_ERR_NOMEM;
    for (size_t i = 0; i < d->slot_count; i++) {
        if (d->slots[i].key == 0)
            continue;
        size_t j = slot_of(d->slots[i].key, new_count);
        while (slots[j].key != 0)
            j = (j + 1) & (new_count - 1);
        slots[j] = d->slots[i];
    }
    free(d->slots);
    d->slots = slots;
    d->slot_count = new_count;
    d->recent = NULL;
    return MEM_OK;
}

/* Finds or creates the slot of a page. The pointer is valid until the next insertion. */
static mem_status page_insert(dram *d, uint64_t page_number, dram_page **out)
{
    dram_page *p = page_find(d, page_number);
    if (p != NULL) {
        *out = p;
        return MEM_OK;
    }
    if ((d->used_slots + 1) * 2 > d->slot_count && table_grow(d) != MEM_OK)
        return MEM_ERR_NOMEM;
    uint64_t key = page_number + 1;
    size_t i = slot_of(key, d->slot_count);
    while (d->slots[i].key != 0)
        i = (i + 1) & (d->slot_count - 1);
    d->slots[i].key = key;
    d->slots[i].data = NULL;
    d->slots[i].fill = 0;
    d->used_slots++;
    *out = &d->slots[i];
    return MEM_OK;
}

/* A new slab of d->slab_bytes (at least a page); the next one is 2 MiB. Returns 0,
 * or -1 when mapping fails. A slab is carved from its start in the order pages are first
 * written, so one of 2 MiB or more takes 2 MiB pages (pages_alloc_dense): an upload of an input
 * buffer faults once per 2 MiB instead of 512 times, and at most the last slab's rest is
 * committed unused. */
static int slab_add(dram *d)
{
    size_t bytes = d->slab_bytes < d->page_bytes ? d->page_bytes : d->slab_bytes;
    if (d->nslabs == d->slabs_cap) {
        size_t cap = d->slabs_cap ? d->slabs_cap * 2 : 16;
        dram_slab *s = realloc(d->slabs, cap * sizeof *s);
        if (s == NULL)
            return -1;
        d->slabs = s;
        d->slabs_cap = cap;
    }
    void *m = pages_alloc_dense(bytes);
    if (m == NULL)
        return -1;
    d->slabs[d->nslabs++] = (dram_slab){m, bytes};
    d->carve = m;
    d->carve_left = bytes;
    /* The first slab is small (a kernel with little data commits little); the next ones are
     * 2 MiB, on 2 MiB pages: slabs doubling through 128 KiB .. 1 MiB on 4 KiB pages faulted
     * 480 times more for an upload of a few MiB. */
    d->slab_bytes = SLAB_MAX_BYTES;
    return 0;
}

/* Page data: a released page's (stale bytes), else the next never used part of a slab (zeros,
 * *zero set). NULL when no slab can be mapped. */
static uint8_t *page_data_take(dram *d, int *zero)
{
    uint8_t *data = d->free_pages;
    *zero = 0;
    if (data != NULL) {
        memcpy(&d->free_pages, data, sizeof d->free_pages);
        return data;
    }
    if (d->carve_left < d->page_bytes && slab_add(d) != 0)
        return NULL;
    data = d->carve;
    d->carve += d->page_bytes;
    d->carve_left -= d->page_bytes;
    *zero = 1;
    return data;
}

/* Gives a page its own data, initialised to the page's fill byte (a slab's zeros already are
 * the usual fill). */
static mem_status page_materialise(dram *d, dram_page *p)
{
    if (p->data != NULL)
        return MEM_OK;
    if (d->limit_bytes != 0 && d->stats.bytes_allocated + d->page_bytes > d->limit_bytes)
        return MEM_ERR_NOMEM;
    int zero;
    p->data = page_data_take(d, &zero);
    if (p->data == NULL)
        return MEM_ERR_NOMEM;
    if (!(zero && p->fill == 0))
        memset(p->data, p->fill, d->page_bytes);
    d->stats.pages_allocated++;
    d->stats.bytes_allocated += d->page_bytes;
    return MEM_OK;
}

static void page_release(dram *d, dram_page *p, uint8_t fill)
{
    if (p->data != NULL) {
        memcpy(p->data, &d->free_pages, sizeof d->free_pages);
        d->free_pages = p->data;
        p->data = NULL;
        d->stats.pages_allocated--;
        d->stats.bytes_allocated -= d->page_bytes;
    }
    p->fill = fill;
}

/* Bytes of [addr, addr + remaining) that lie in addr's page. */
static uint64_t chunk_bytes(const dram *d, uint64_t addr, uint64_t remaining)
{
    uint64_t offset = addr & (d->page_bytes - 1);
    uint64_t room = d->page_bytes - offset;
    return remaining < room ? remaining : room;
}

static int mask_all_zero(const uint8_t *mask, size_t bytes)
{
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) { /* eight mask bytes at a time */
        uint64_t v;
        memcpy(&v, mask + i, sizeof v);
        if (v != 0)
            return 0;
    }
    for (; i < bytes; i++)
        if (mask[i] != 0)
            return 0;
    return 1;
}

/* dst[i] = src[i] where mask[i] is nonzero, i < n: eight bytes at a time, each nonzero mask
 * byte's top bit set (no carry crosses a byte) and spread to 0xFF, the bytes blended under it
 * (the others are written back unchanged). */
static void copy_masked(uint8_t *dst, const uint8_t *src, const uint8_t *mask, uint64_t n)
{
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m, from, to;
        memcpy(&m, mask + i, sizeof m);
        if (m == 0)
            continue;
        m = (((((m & low7) + low7) | m) & ~low7) >> 7) * 0xFF;
        memcpy(&from, src + i, sizeof from);
        memcpy(&to, dst + i, sizeof to);
        to = (to & ~m) | (from & m);
        memcpy(dst + i, &to, sizeof to);
    }
    for (; i < n; i++)
        if (mask[i] != 0)
            dst[i] = src[i];
}

mem_status dram_create(const dram_config *config, diag_list *dl, dram **out)
{
    *out = NULL;
    uint32_t page_bytes = config != NULL ? config->page_bytes : 0;
    if (page_bytes == 0)
        page_bytes = DRAM_DEFAULT_PAGE_BYTES;
    if (!bits_is_power_of_two(page_bytes) || page_bytes < 4096 || page_bytes > (16u << 20)) {
        diag_add(dl, DIAG_ERROR, "MEM-DRAM-001", "", 0, 0,
                 "DRAM page size %u is not a power of two between 4096 and 16777216 bytes",
                 (unsigned)page_bytes);
        return MEM_ERR_CONFIG;
    }
    dram *d = calloc(1, sizeof *d);
    dram_page *slots = calloc(DRAM_INITIAL_SLOTS, sizeof *slots);
    if (d == NULL || slots == NULL) {
        free(d);
        free(slots);
        diag_add(dl, DIAG_ERROR, "MEM-DRAM-002", "", 0, 0, "out of memory creating the DRAM store");
        return MEM_ERR_NOMEM;
    }
    d->slots = slots;
    d->slot_count = DRAM_INITIAL_SLOTS;
    d->page_bytes = page_bytes;
    d->page_shift = bits_log2_floor(page_bytes);
    d->limit_bytes = config != NULL ? config->limit_bytes : 0;
    d->slab_bytes = SLAB_FIRST_BYTES;
    *out = d;
    return MEM_OK;
}

void dram_destroy(dram *d)
{
    if (d == NULL)
        return;
    for (size_t i = 0; i < d->nslabs; i++)
        pages_free(d->slabs[i].base, d->slabs[i].bytes);
    free(d->slabs);
    free(d->slots);
    free(d);
}

mem_status dram_peek(const dram *d, uint64_t addr, size_t bytes, void *out)
{
    if (range_wraps(addr, bytes))
        return MEM_ERR_ARGUMENT;
    uint8_t *dst = out;
    while (bytes > 0) {
        uint64_t n = chunk_bytes(d, addr, bytes);
        const dram_page *p = page_find(d, addr >> d->page_shift);
        if (p != NULL && p->data != NULL)
            memcpy(dst, p->data + (addr & (d->page_bytes - 1)), (size_t)n);
        else
            memset(dst, p != NULL ? p->fill : 0, (size_t)n);
        dst += n;
        addr += n;
        bytes -= (size_t)n;
    }
    return MEM_OK;
}

/* Allocates every page of the range that the write will change, so that the copy cannot fail. */
static mem_status prepare_pages(dram *d, uint64_t addr, size_t bytes, const uint8_t *mask)
{
    while (bytes > 0) {
        uint64_t n = chunk_bytes(d, addr, bytes);
        if (mask == NULL || !mask_all_zero(mask, (size_t)n)) {
            dram_page *p;
            mem_status st = page_insert(d, addr >> d->page_shift, &p);
            if (st == MEM_OK)
                st = page_materialise(d, p);
            if (st != MEM_OK)
                return st;
        }
        if (mask != NULL)
            mask += n;
        addr += n;
        bytes -= (size_t)n;
    }
    return MEM_OK;
}

/* store_bytes of a nonempty range inside one page (every cache write-back): one look-up, the
 * page dram_read or the last such store found first, and the mask scanned for zeros only when
 * the page has no data yet (an all-zero mask must not allocate it). */
static mem_status store_in_page(dram *d, uint64_t addr, size_t bytes, const uint8_t *src,
                                const uint8_t *mask)
{
    uint64_t page_number = addr >> d->page_shift;
    dram_page *p = d->recent;
    if (p == NULL || p->key != page_number + 1)
        p = page_find(d, page_number);
    if (p == NULL || p->data == NULL) {
        if (mask != NULL && mask_all_zero(mask, bytes))
            return MEM_OK;
        mem_status st = p != NULL ? MEM_OK : page_insert(d, page_number, &p);
        if (st == MEM_OK)
            st = page_materialise(d, p);
        if (st != MEM_OK)
            return st;
    }
    d->recent = p;
    uint8_t *dst = p->data + (addr & (d->page_bytes - 1));
    if (mask == NULL)
        memcpy(dst, src, bytes);
    else
        copy_masked(dst, src, mask, bytes);
    return MEM_OK;
}

static mem_status store_bytes(dram *d, uint64_t addr, size_t bytes, const void *data,
                              const uint8_t *mask)
{
    if (range_wraps(addr, bytes))
        return MEM_ERR_ARGUMENT;
    if (bytes != 0 && (addr & (d->page_bytes - 1)) + bytes <= d->page_bytes)
        return store_in_page(d, addr, bytes, data, mask);
    mem_status st = prepare_pages(d, addr, bytes, mask);
    if (st != MEM_OK)
        return st;
    const uint8_t *src = data;
    while (bytes > 0) {
        uint64_t n = chunk_bytes(d, addr, bytes);
        dram_page *p = page_find(d, addr >> d->page_shift);
        if (p != NULL && p->data != NULL) {
            uint8_t *dst = p->data + (addr & (d->page_bytes - 1));
            if (mask == NULL)
                memcpy(dst, src, (size_t)n);
            else
                copy_masked(dst, src, mask, n);
        }
        /* A page without data here had an all-zero mask chunk: nothing to store. */
        if (mask != NULL)
            mask += n;
        src += n;
        addr += n;
        bytes -= (size_t)n;
    }
    return MEM_OK;
}

mem_status dram_poke(dram *d, uint64_t addr, size_t bytes, const void *data)
{
    return store_bytes(d, addr, bytes, data, NULL);
}

void dram_prefetch(const dram *d, uint64_t addr)
{
    const dram_page *p = page_find(d, addr >> d->page_shift);
    if (p != NULL && p->data != NULL) {
        const uint8_t *at = p->data + (addr & (d->page_bytes - 1) & ~(uint64_t)127);
        __builtin_prefetch(at);
        __builtin_prefetch(at + 64);
    }
}

/* memcpy of a page's bytes, a 128-byte line fill (the caches' usual read) with eight 16-byte
 * moves instead of the library call. */
static inline void read_bytes(void *out, const uint8_t *from, size_t bytes)
{
#ifdef __SSE2__
    if (bytes == 128) {
#pragma GCC unroll 8
        for (uint32_t k = 0; k < 128; k += 16)
            _mm_storeu_si128((__m128i *)(void *)((uint8_t *)out + k),
                             _mm_loadu_si128((const __m128i *)(const void *)(from + k)));
        return;
    }
#endif
    memcpy(out, from, bytes);
}

mem_status dram_read(dram *d, uint64_t addr, size_t bytes, void *out)
{
    uint64_t offset = addr & (d->page_bytes - 1);
    if (bytes != 0 && offset + bytes <= d->page_bytes) {
        /* Within one page (every cache fill): the page of the last read first. */
        uint64_t page_number = addr >> d->page_shift;
        dram_page *p = d->recent;
        if (p == NULL || p->key != page_number + 1) {
            p = page_find(d, page_number);
            if (p != NULL)
                d->recent = p;
        }
        if (p != NULL && p->data != NULL)
            read_bytes(out, p->data + offset, bytes);
        else
            memset(out, p != NULL ? p->fill : 0, bytes);
        d->stats.reads++;
        d->stats.read_bytes += bytes;
        return MEM_OK;
    }
    mem_status st = dram_peek(d, addr, bytes, out);
    if (st == MEM_OK) {
        d->stats.reads++;
        d->stats.read_bytes += bytes;
    }
    return st;
}

mem_status dram_write(dram *d, uint64_t addr, size_t bytes, const void *data,
                      const uint8_t *byte_mask)
{
    mem_status st = store_bytes(d, addr, bytes, data, byte_mask);
    if (st == MEM_OK) {
        d->stats.writes++;
        d->stats.write_bytes += bytes;
    }
    return st;
}

/* Poisons the part [addr, addr + n) of one page. */
static mem_status fill_chunk(dram *d, uint64_t addr, uint64_t n, uint8_t byte)
{
    uint64_t page_number = addr >> d->page_shift;
    dram_page *p = page_find(d, page_number);
    if (n == d->page_bytes) {
        if (p == NULL && byte == 0)
            return MEM_OK; /* an absent page already reads as 0 */
        if (p == NULL && page_insert(d, page_number, &p) != MEM_OK)
            return MEM_ERR_NOMEM;
        page_release(d, p, byte);
        return MEM_OK;
    }
    if (p == NULL ? byte == 0 : (p->data == NULL && p->fill == byte))
        return MEM_OK;
    if (p == NULL && page_insert(d, page_number, &p) != MEM_OK)
        return MEM_ERR_NOMEM;
    mem_status st = page_materialise(d, p);
    if (st != MEM_OK)
        return st;
    memset(p->data + (addr & (d->page_bytes - 1)), byte, (size_t)n);
    return MEM_OK;
}

mem_status dram_fill_pattern(dram *d, uint64_t addr, uint64_t bytes, uint8_t byte)
{
    if (range_wraps(addr, bytes))
        return MEM_ERR_ARGUMENT;
    while (bytes > 0) {
        uint64_t n = chunk_bytes(d, addr, bytes);
        mem_status st = fill_chunk(d, addr, n, byte);
        if (st != MEM_OK)
            return st;
        addr += n;
        bytes -= n;
    }
    return MEM_OK;
}

void dram_count_reads(dram *d, uint64_t calls, uint64_t bytes)
{
    d->stats.reads += calls;
    d->stats.read_bytes += bytes;
}

const dram_stats *dram_get_stats(const dram *d)
{
    return &d->stats;
}

void dram_reset_stats(dram *d)
{
    d->stats.reads = d->stats.writes = 0;
    d->stats.read_bytes = d->stats.write_bytes = 0;
}

uint32_t dram_page_bytes(const dram *d)
{
    return d->page_bytes;
}

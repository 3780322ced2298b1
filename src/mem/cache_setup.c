/* Creating and destroying caches (geometry checks, one storage block per cache, optionally lent
 * by the caller or mapped with huge pages) and the adapters that make a DRAM store or another
 * cache the next level of a cache. See cache.h and docs/cache-model.md. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/bits.h"
#include "base/cpu.h"
#include "base/pages.h"
#include "mem/cache_internal.h"

/* ---- creation ---- */

void cache_config_default(cache_config *config, uint64_t size_bytes, uint32_t ways)
{
    memset(config, 0, sizeof *config);
    config->size_bytes = size_bytes;
    config->line_bytes = 128;
    config->sector_bytes = 32;
    config->ways = ways;
    config->index_function = CACHE_INDEX_MODULO;
    config->write_allocate = true;
    config->fill_bytes = 32;
}

/* Line slots per set: a set of 16 ways or fewer fits in one group of 16 slots, one of more ways
 * starts its own (cache_internal.h). */
static uint32_t set_stride_of(uint32_t ways)
{
    if (ways >= GROUP_LINES || GROUP_LINES % ways)
        return (ways + GROUP_LINES - 1) & ~(uint32_t)(GROUP_LINES - 1);
    return ways;
}

/* Line slots of the geometry (sets * set_stride), or 0 when they would not fit NO_INDEX. */
static uint64_t slot_count_of(const cache_config *k)
{
    uint64_t sets = k->size_bytes / k->line_bytes / k->ways;
    uint64_t slots = sets * set_stride_of(k->ways);
    return slots >= UINT32_MAX ? 0 : slots;
}

/* ceil(2^64 / d), with which n / d and n mod d take multiplies for every n below 2^n_bits
 * (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019: exact when
 * n_bits + ceil(log2 d) <= 64); 0 when that does not hold, d < 2, or there is no 128-bit
 * product (cache.c, set_index, then divides). */
static uint64_t fast_reciprocal(uint32_t d, unsigned n_bits)
{
#ifdef __SIZEOF_INT128__
    unsigned log2_ceil = bits_log2_floor(d) + (bits_is_power_of_two(d) ? 0 : 1);
    if (d >= 2 && n_bits + log2_ceil <= 64)
        return UINT64_MAX / d + 1;
#endif
    (void)d, (void)n_bits;
    return 0;
}

/* Applies defaults and checks the geometry; adds one diagnostic per problem found. */
static mem_status config_check(cache_config *k, const cache_next_level *next, diag_list *dl)
{
    mem_status st = MEM_OK;
    if (k->line_bytes == 0)
        k->line_bytes = 128;
    if (k->sector_bytes == 0)
        k->sector_bytes = 32;
    if (k->fill_bytes == 0)
        k->fill_bytes = k->sector_bytes;
    if (!bits_is_power_of_two(k->line_bytes) || k->line_bytes < 4 || k->line_bytes > 4096) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-001", "", 0, 0,
                 "cache line size %u is not a power of two between 4 and 4096 bytes",
                 (unsigned)k->line_bytes);
        return MEM_ERR_CONFIG; /* the checks below divide by it */
    }
    if (!bits_is_power_of_two(k->sector_bytes) || k->sector_bytes > k->line_bytes ||
        k->line_bytes / k->sector_bytes > CACHE_MAX_SECTORS_PER_LINE) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-002", "", 0, 0,
                 "cache sector size %u must be a power of two dividing the %u-byte line into at "
                 "most 64 sectors", (unsigned)k->sector_bytes, (unsigned)k->line_bytes);
        return MEM_ERR_CONFIG;
    }
    uint64_t set_bytes = (uint64_t)k->line_bytes * k->ways;
    if (k->ways == 0 || k->size_bytes == 0 || k->size_bytes % set_bytes != 0 ||
        k->size_bytes / k->line_bytes >= UINT32_MAX || slot_count_of(k) == 0) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-003", "", 0, 0,
                 "cache size %llu bytes is not a nonzero multiple of %u ways of %u-byte lines "
                 "(or holds 2^32 lines or more)", (unsigned long long)k->size_bytes,
                 (unsigned)k->ways, (unsigned)k->line_bytes);
        st = MEM_ERR_CONFIG;
    }
    if (!bits_is_power_of_two(k->fill_bytes) || k->fill_bytes < k->sector_bytes ||
        k->fill_bytes > CACHE_MAX_FILL_BYTES) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-004", "", 0, 0,
                 "cache fill size %u is not a power of two between the sector size %u and %u",
                 (unsigned)k->fill_bytes, (unsigned)k->sector_bytes, CACHE_MAX_FILL_BYTES);
        st = MEM_ERR_CONFIG;
    }
    if (k->index_function > CACHE_INDEX_XOR_FOLD) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-005", "", 0, 0, "unknown cache set-index function %u",
                 (unsigned)k->index_function);
        st = MEM_ERR_CONFIG;
    }
    if (k->slices > 1 && k->ways && k->line_bytes &&
        (k->size_bytes / k->line_bytes / k->ways) % k->slices) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-008", "", 0, 0,
                 "%llu sets cannot be split into %u equal slices",
                 (unsigned long long)(k->size_bytes / k->line_bytes / k->ways), k->slices);
        st = MEM_ERR_CONFIG;
    }
    if (k->tags_only && k->sector_bytes != k->line_bytes) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-009", "", 0, 0,
                 "a tags-only cache needs one sector a line (%u-byte sectors in %u-byte lines)",
                 k->sector_bytes, k->line_bytes);
        st = MEM_ERR_CONFIG;
    }
    if (next == NULL || next->read == NULL || next->write == NULL) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-006", "", 0, 0,
                 "cache has no next level to fill from and write back to");
        st = MEM_ERR_CONFIG;
    }
    return st;
}

/* All per-line arrays live in one block. Line data and byte masks are indexed by a data slot that
 * a line receives when it is first filled (cache.c, data_slot), so the pages a run writes grow
 * with the lines it uses, however they spread over the sets. A large cache (an L2 of tens of
 * MiB) gets its block from an anonymous mapping whose parts take the page size their use suits
 * (advise_storage, base/pages.h). The line records and tag prints, reached by set, are touched
 * all over once a run has filled a few lines a set, and the byte masks and data are written in
 * fill order from their starts: all four take 2 MiB pages, one fault where 4 KiB pages took 512
 * (the h100 L2's records alone were 4,000 faults of a 1 Mi-element saxpy). The LAST list's
 * links, touched only for persisting lines, start at a 2 MiB boundary and keep 4 KiB pages. A
 * kernel that touches a few lines commits a few 2 MiB pages it did not need (issue 13;
 * bench/README.md, "Session 17: lead"). */
static size_t align64(size_t v) { return (v + 63) & ~(size_t)63; }

enum { STORAGE_ARRAYS = 7 };

static void storage_sizes(const cache_config *k, size_t sizes[STORAGE_ARRAYS])
{
    size_t lines = k->size_bytes / k->line_bytes, slots = (size_t)slot_count_of(k);
    size_t groups = (slots + GROUP_LINES - 1) / GROUP_LINES;
    size_t padded = (groups ? groups : 1) * GROUP_LINES; /* slots, whole groups */
    size_t data_slots = k->tags_only ? 1 : lines; /* cache_new_data_slot */
    size_t words = (size_t)((k->line_bytes + 63) / 64) * 2 * data_slots;
    /* The line records, the tag prints (16 bytes more, read 16 at a time: cache_ops.h,
     * print_matches), the byte masks, the data, the LAST list's links, the scratch line. A
     * tags-only cache's one data slot then sits right after its prints, on the host page that
     * its first lines' prints are written to. */
    size_t list[STORAGE_ARRAYS] = {
        padded * sizeof(line_meta), padded + GROUP_LINES,    words * sizeof(uint64_t),
        data_slots * k->line_bytes, slots * sizeof(uint32_t), slots * sizeof(uint32_t),
        2 * (size_t)k->line_bytes};
    memcpy(sizes, list, sizeof list);
}

enum { META, PRINTS, MASKS, DATA, LAST_PREV, LAST_NEXT, SCRATCH };

/* The offsets of the arrays in one block (at[STORAGE_ARRAYS]: its size) for a cache of this
 * configuration, each at a multiple of 64 bytes; with `mapped`, the arrays after the data start
 * at a 2 MiB boundary (advise_storage). sizes (OUT, may be NULL): each array's own bytes.
 * Returns the size; 0 (and all zeros) when the geometry is invalid. */
static size_t storage_offsets(const cache_config *config, int mapped,
                              size_t at[STORAGE_ARRAYS + 1], size_t *sizes_out)
{
    cache_config k = *config;
    if (!k.line_bytes)
        k.line_bytes = 128;
    size_t sizes[STORAGE_ARRAYS] = {0};
    memset(at, 0, (STORAGE_ARRAYS + 1) * sizeof *at);
    if (sizes_out)
        memset(sizes_out, 0, sizeof sizes);
    if (!k.ways || k.size_bytes < k.line_bytes)
        return 0;
    storage_sizes(&k, sizes);
    if (sizes_out)
        memcpy(sizes_out, sizes, sizeof sizes);
    for (int i = 0; i < STORAGE_ARRAYS; i++) {
        at[i + 1] = at[i] + align64(sizes[i]);
        if (mapped && i + 1 == LAST_PREV)
            at[i + 1] = (at[i + 1] + PAGES_HUGE_BYTES - 1) & ~(size_t)(PAGES_HUGE_BYTES - 1);
    }
    return at[STORAGE_ARRAYS];
}

size_t cache_storage_bytes(const cache_config *config)
{
    size_t at[STORAGE_ARRAYS + 1];
    return storage_offsets(config, 0, at, NULL);
}

size_t cache_index_storage_bytes(const cache_config *config)
{
    size_t at[STORAGE_ARRAYS + 1];
    storage_offsets(config, 0, at, NULL);
    return at[MASKS];
}

/* The byte masks' and the data's bytes in a data block shared by n caches (the masks of every
 * slot, then the data of every slot); *masks_bytes (OUT, may be NULL): the first part's. */
static size_t data_block_bytes(const cache_config *config, uint32_t n, size_t *masks_bytes)
{
    size_t at[STORAGE_ARRAYS + 1], sizes[STORAGE_ARRAYS];
    storage_offsets(config, 0, at, sizes);
    size_t masks = align64(sizes[MASKS] * n);
    if (masks_bytes)
        *masks_bytes = masks;
    return masks + align64(sizes[DATA] * n);
}

size_t cache_data_storage_bytes(const cache_config *config, uint32_t n)
{
    return data_block_bytes(config, n, NULL);
}

/* Advises a mapped storage block (offsets `at` from storage_offsets with `mapped`, the last the
 * block's end) to use the page sizes the comment above storage_sizes gives. */
static void advise_storage(uint8_t *block, const size_t at[STORAGE_ARRAYS + 1])
{
    pages_advise(block, at[LAST_PREV], 1);
    pages_advise(block + at[LAST_PREV], at[STORAGE_ARRAYS] - at[LAST_PREV], 0);
}

/* The cache's arrays: from config.index_storage (the arrays reached by set), config.data_storage
 * (masks and data, interleaved with other caches' slots) and config.storage (the rest) as far
 * as they are lent, else from a mapping (large caches) or calloc. Sets the data slots'
 * numbering (data_stride, data_index, data_pair_shift). Returns MEM_OK or MEM_ERR_NOMEM. */
static mem_status allocate_storage(cache *c)
{
    const cache_config *k = &c->config;
    size_t at[STORAGE_ARRAYS + 1];
    size_t total = storage_offsets(k, 0, at, NULL);
    int index_lent = k->index_storage && k->index_storage_bytes >= at[MASKS];
    size_t masks_bytes = 0;
    int data_lent = index_lent && k->data_storage && k->data_index < k->data_stride &&
                    k->data_storage_bytes >= data_block_bytes(k, k->data_stride, &masks_bytes);
    c->data_stride = data_lent ? k->data_stride : 1;
    c->data_index = data_lent ? k->data_index : 0;
    /* pairs (cache_slot_number) where the block has room for them: an even slot count */
    c->data_pair_shift = data_lent && k->data_stride > 1 && c->line_count % 2 == 0;
    /* Arrays before `from` are lent; the rest come from the block, at their offsets less
     * `from`. */
    size_t from = data_lent ? at[LAST_PREV] : index_lent ? at[MASKS] : 0;
    size_t need = total - from;
    uint8_t *block = NULL;
    if (k->storage && k->storage_bytes >= need) {
        block = k->storage; /* lent by the caller, zero-filled */
        c->storage_lent = 1;
    } else if (!from && total >= (size_t)4 << 20) {
        need = pages_round_up(storage_offsets(k, 1, at, NULL));
        block = pages_map_aligned(need);
        if (block) {
            advise_storage(block, at);
            c->storage_mapped = 1;
        }
    }
    c->storage = block;
    if (!block) {
        /* 63 bytes more, so that the line records start a host cache line as mapped storage
         * does (cache_internal.h). */
        c->storage = calloc(1, need + 63);
        if (!c->storage)
            return MEM_ERR_NOMEM;
        block = c->storage + (-(uintptr_t)c->storage & 63);
    }
    c->storage_bytes = need;
    void **ptrs[STORAGE_ARRAYS] = {(void **)&c->meta,      (void **)&c->prints,
                                   (void **)&c->byte_masks, (void **)&c->data,
                                   (void **)&c->last_prev,  (void **)&c->last_next,
                                   (void **)&c->scratch};
    for (int i = 0; i < STORAGE_ARRAYS; i++)
        *ptrs[i] = at[i] >= from ? block + at[i] - from
                   : i < MASKS   ? (uint8_t *)k->index_storage + at[i]
                   : i == MASKS  ? (uint8_t *)k->data_storage
                                 : (uint8_t *)k->data_storage + masks_bytes;
    return MEM_OK;
}

mem_status cache_create(const cache_config *config, const cache_next_level *next, diag_list *dl,
                        cache **out)
{
    *out = NULL;
    cache_config k = *config;
    mem_status st = config_check(&k, next, dl);
    if (st != MEM_OK)
        return st;
    size_t groups = ((size_t)slot_count_of(&k) + GROUP_LINES - 1) / GROUP_LINES;
    cache *c = calloc(1, sizeof *c + (groups + 63) / 64 * sizeof(uint64_t));
    if (c == NULL) {
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-007", "", 0, 0, "out of memory creating a cache");
        return MEM_ERR_NOMEM;
    }
    c->config = k;
    c->next = *next;
    c->ways = k.ways;
    c->line_count = (uint32_t)(k.size_bytes / k.line_bytes);
    c->sets = c->line_count / k.ways;
    c->set_stride = set_stride_of(k.ways);
    c->slot_count = c->sets * c->set_stride;
    c->line_shift = bits_log2_floor(k.line_bytes);
    c->sector_shift = bits_log2_floor(k.sector_bytes);
    c->sectors_per_line = k.line_bytes / k.sector_bytes;
    c->bitmap_words = (k.line_bytes + 63) / 64;
    c->fold_bits = bits_log2_floor(c->sets) + (bits_is_power_of_two(c->sets) ? 0 : 1);
    c->host_avx2 = cpu_has_avx2();
    c->plain_index = k.slices <= 1 && k.index_function == CACHE_INDEX_MODULO;
    c->slice_sets = k.slices > 1 ? c->sets / k.slices : c->sets;
    unsigned number_bits = 64 - c->line_shift; /* of a line number */
    c->recip_sets = fast_reciprocal(c->sets, number_bits);
    if (k.tags_only)
        memset(c->held_memo, 0xff, sizeof c->held_memo); /* NO_INDEX */
    if (k.slices > 1) {
        c->recip_slices = fast_reciprocal(k.slices, number_bits);
        /* a group number is a line number divided by slices >= 2 */
        c->recip_slice_sets = fast_reciprocal(c->slice_sets, number_bits - 1);
    }
    c->last_head = c->last_tail = NO_INDEX;
    if (allocate_storage(c) != MEM_OK) {
        cache_destroy(c);
        diag_add(dl, DIAG_ERROR, "MEM-CACHE-007", "", 0, 0,
                 "out of memory allocating a %llu-byte cache", (unsigned long long)k.size_bytes);
        return MEM_ERR_NOMEM;
    }
    *out = c;
    return MEM_OK;
}

void cache_destroy(cache *c)
{
    if (c == NULL)
        return;
    if (c->storage_lent)
        ;
    else if (c->storage_mapped)
        munmap(c->storage, c->storage_bytes);
    else
        free(c->storage);
    free(c);
}

/* ---- next-level adapters ---- */

static mem_status dram_level_read(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                  uint8_t *out)
{
    (void)request;
    return dram_read(ctx, addr, bytes, out);
}

static mem_status dram_level_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                   const uint8_t *data, const uint8_t *byte_mask)
{
    (void)request;
    return dram_write(ctx, addr, bytes, data, byte_mask);
}

cache_next_level cache_next_level_dram(dram *d)
{
    cache_next_level level = {d, dram_level_read, dram_level_write, true};
    return level;
}

/* Bytes of [addr, addr + bytes) that lie in addr's line of cache `c`. */
static uint32_t within_line(const cache *c, uint64_t addr, uint32_t bytes)
{
    uint32_t room = c->config.line_bytes - (uint32_t)(addr & (c->config.line_bytes - 1));
    return bytes < room ? bytes : room;
}

/* The request travels on to the cache below, with default hints. */
static mem_status cache_level_read(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                   uint8_t *out)
{
    cache *below = ctx;
    cache_hints h = {.request = request};
    while (bytes > 0) {
        uint32_t n = within_line(below, addr, bytes);
        mem_status st = cache_read(below, addr, n, out, &h, NULL);
        if (st != MEM_OK)
            return st;
        addr += n;
        out += n;
        bytes -= n;
    }
    return MEM_OK;
}

static mem_status cache_level_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                    const uint8_t *data, const uint8_t *byte_mask)
{
    cache *below = ctx;
    cache_hints h = {.request = request};
    while (bytes > 0) {
        uint32_t n = within_line(below, addr, bytes);
        mem_status st = cache_write_masked(below, addr, n, data, byte_mask, &h, NULL);
        if (st != MEM_OK)
            return st;
        addr += n;
        data += n;
        if (byte_mask != NULL)
            byte_mask += n;
        bytes -= n;
    }
    return MEM_OK;
}

cache_next_level cache_next_level_cache(cache *below)
{
    cache_next_level level = {below, cache_level_read, cache_level_write, false};
    return level;
}

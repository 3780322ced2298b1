/* Private to the cache module (cache.c: lookups, reads, fills, allocation; cache_hits.c: the
 * warp's hit paths; cache_write.c: the store path; cache_control.c: line and whole-cache
 * operations; cache_setup.c: creation, storage, statistics and the next-level adapters): the
 * cache's storage layout. The helpers the access files share are in cache_ops.h. */
#ifndef GMS_MEM_CACHE_INTERNAL_H
#define GMS_MEM_CACHE_INTERNAL_H

#include "mem/cache.h"

/* Tags hold line number + 1, so that zero-filled storage is an empty cache and creating a
 * cache touches none of its memory. */
#define NO_LINE 0
#define TAG_OF(line_number) ((line_number) + 1)
#define NO_INDEX UINT32_MAX  /* end of the LAST list / way not found */
/* One byte of a tag (NO_LINE: 0, as zero-filled storage has it): the top byte of a
 * multiplicative hash, since the low bits of the line numbers in one set are often equal. */
#define TAG_PRINT(tag) ((uint8_t)(((tag) * UINT64_C(0x9E3779B97F4A7C15)) >> 56))

/* The per-line metadata, by line slot (set * set_stride + way): one 40-byte record a slot, so
 * that a hit (tag, valid sectors, stamp, data slot), a store (and its dirty sectors) and a fill
 * of one line read and write one record instead of a host cache line per field. Sector masks
 * keep 64 bits, as a line may have 64 sectors (CACHE_MAX_SECTORS_PER_LINE). Records of 40
 * bytes make a 16-way set 640 bytes, 10 host lines: sets a power of two apart then spread over
 * the host cache's sets (records of 32 bytes, 512 a set, put the sets a large power of two apart
 * into one host set), and a record's address is one multiply by 5 (a lea); the cost is that
 * three records in eight cross a host line within their first 28 bytes. The tag prints are an
 * array of their own, one byte a slot, because a look-up compares a set's 16 at once. A set's
 * slots are consecutive: 16 ways fill a group of 16 slots (GROUP_LINES), 1, 2, 4 or 8 ways share
 * one, more ways fill several (ways rounded up to a multiple of 16, the unused slots staying
 * empty): set_stride. used_groups keeps a bit per group. */
enum { GROUP_LINES = 16, GROUP_SHIFT = 4 };
typedef struct line_meta {
    uint64_t tag;           /* TAG_OF(line number), or NO_LINE */
    uint64_t valid_sectors; /* bit s: sector s fully valid */
    uint64_t stamp;         /* recency: larger is more recent */
    uint32_t data_slot;     /* 1 + the line's slot in data and byte_masks; 0 until the line is
                               first allocated (in fill order) */
    uint8_t priority;       /* cache_priority */
    uint8_t kind;
    uint8_t pad[2];
    uint64_t dirty_sectors; /* bit s: sector s holds a dirty byte */
} line_meta;
_Static_assert(sizeof(line_meta) == 40, "line_meta: a 16-way set in 10 host cache lines");

enum { HELD_MEMO_SLOTS = 256, HELD_MEMO_SHIFT = 56 }; /* 2^(64 - HELD_MEMO_SHIFT) slots */

/* A field of line slot `line`, as an lvalue, by the names the fields had when each was an array:
 * tags, valid_sectors, stamps, data_slots, priorities, kinds, dirty_sectors (the slot's record)
 * and prints (an array of its own). */
#define LINE_FIELD(c, line, field) LINE_FIELD_##field(c, line)
#define LINE_FIELD_tags(c, line) ((c)->meta[line].tag)
#define LINE_FIELD_valid_sectors(c, line) ((c)->meta[line].valid_sectors)
#define LINE_FIELD_stamps(c, line) ((c)->meta[line].stamp)
#define LINE_FIELD_data_slots(c, line) ((c)->meta[line].data_slot)
#define LINE_FIELD_priorities(c, line) ((c)->meta[line].priority)
#define LINE_FIELD_kinds(c, line) ((c)->meta[line].kind)
#define LINE_FIELD_prints(c, line) ((c)->prints[line])
#define LINE_FIELD_dirty_sectors(c, line) ((c)->meta[line].dirty_sectors)

struct cache {
    cache_config config; /* with defaults applied */
    cache_next_level next;
    /* cache_set_read_deferral: where cache_read_line_miss hands its read of this cache when
     * this cache is the level below (NULL: it reads here) */
    cache_deferred_read defer_read;
    void *defer_ctx;
    uint32_t sets, ways, line_count;
    uint32_t set_stride;     /* line slots per set: ways, or ways rounded up as line_meta says */
    uint32_t slot_count;     /* sets * set_stride */
    uint32_t sectors_per_line, bitmap_words;
    unsigned line_shift, sector_shift, fold_bits;
    int host_avx2;           /* the host executes AVX2 (base/cpu.h), for merge_line128 */
    int plain_index;         /* not sliced, modulo index: the set is line number mod sets */
    uint32_t slice_sets;     /* sets per slice (sets when not sliced) */
    /* Reciprocals for the set index without a divide instruction (cache.c, set_index), or 0
     * where a numerator could be too wide for them to be exact (fast_reciprocal): */
    uint64_t recip_sets;       /* of sets, for line numbers (plain_index) */
    uint64_t recip_slices;     /* of config.slices, for line numbers */
    uint64_t recip_slice_sets; /* of slice_sets, for group numbers (line number / slices) */
    line_meta *meta;         /* slot_count records (whole groups), 64-byte aligned when the
                                storage is (cache_setup.c aligns what it allocates) */
    uint8_t *prints;         /* TAG_PRINT of each slot's tag, so that a look-up compares one byte
                                a way (16 ways at once) before the full tags; padded so that 16
                                bytes can be read from any slot on */
    uint64_t *byte_masks;    /* per data slot: bitmap_words of valid bits (all ones over valid
                                sectors), then bitmap_words of dirty bits */
    uint8_t *data;           /* line_bytes per data slot */
    uint32_t slots_used;     /* data slots handed out */
    uint32_t data_stride, data_index; /* the k-th slot handed out (k from 0) is numbered
                                         (1 + its index in data and byte_masks) as
                                         cache_slot_number says: k + 1 unless data storage is
                                         lent to several caches (cache_config.data_storage) */
    uint32_t data_pair_shift; /* 1: those caches' slots interleave in pairs (slot_number) */
    uint32_t *slots_from;    /* a view (cache_view.c): the origin's slots_used, taken atomically
                                because views on several threads allocate data slots at once;
                                NULL in a cache itself */
    uint32_t *last_prev, *last_next; /* LAST list, least recent at last_head */
    uint32_t last_head, last_tail;
    uint64_t last_count;
    uint64_t clock;
    uint64_t resident_lines;
    uint64_t memo_tag;       /* cache_read_hit: the tag of its last hit (0: none) and its slot */
    uint32_t memo_line;
    /* cache_lines_held (16-way caches): the slot where a line was last found, by a hash of its
     * line number; a guess only, taken when that slot's tag is still the line's (a line has
     * one slot at most), so that a warp's lines looked up again and again skip the set look-up.
     * Zero-filled at creation (slot 0 is as good a guess as any), but NO_INDEX in a tags-only
     * cache, whose only reader of it is cache_probe_hit (the other readers, on the paths of
     * bytes read out and writes, assert that the cache is not one): its first probe reads no line
     * record, where reading slot 0's would map the host's zero page there and the first
     * allocation's write would fault a second time (a fault per SM and cache a run). */
    uint32_t held_memo[HELD_MEMO_SLOTS];
    uint8_t *scratch;        /* line_bytes of data fetched from the next level, then
                                line_bytes for the byte mask of a partial write-back */
    cache_stats stats;
    uint8_t *storage;        /* one block holding every per-line array above */
    size_t storage_bytes;
    int storage_mapped;      /* storage came from mmap */
    int storage_lent;        /* storage belongs to the caller (config.storage) */
    /* Bit b: a line was ever allocated in group b (slots 16b to 16b + 15), so that the
     * whole-cache operations visit only those groups and look-ups skip the others unread
     * (cache_ops.h, group_used).
     * Allocated with the struct, not in storage: every look-up reads it, and a first read of
     * an untouched page of storage would map the zero page, to be faulted again by the first
     * allocation's write. */
    uint64_t used_groups[];
};

/* The number (1 + index in data and byte_masks) of the k-th data slot the cache hands out (k
 * from 0). Caches that share a data block (data_stride of them) take its slots by turns, in
 * pairs when data_pair_shift is 1: cache i's slots 2j and 2j + 1 are the block's slots
 * 2 (j x data_stride + i) and the one after, so that their byte masks (32 bytes each for
 * 128-byte lines) fill one 64-byte host line of their own. Single slots would put two caches'
 * masks in one host line, which SMs on two host threads then write by turns (a host line that
 * moves between the threads' caches at every fill). Rising with k. */
static inline uint32_t cache_slot_number(const cache *c, uint32_t k)
{
    uint32_t s = c->data_pair_shift;
    return (((k >> s) * c->data_stride + c->data_index) << s) + (k & s) + 1;
}

/* The number (1 + index) of the data slot handed out last, 0 before the first: a slot numbered
 * above it is handed out later, and its line bytes are still the storage's zeros. */
static inline uint32_t cache_slots_now(const cache *c)
{
    uint32_t n = c->slots_from ? __atomic_load_n(c->slots_from, __ATOMIC_RELAXED) : c->slots_used;
    return n ? cache_slot_number(c, n - 1) : 0;
}

/* The next free data slot (1 + its index), in fill order; slot 1 for every line of a tags-only
 * cache (cache_config.tags_only), whose bytes nobody reads. */
static inline uint32_t cache_new_data_slot(cache *c)
{
    if (c->config.tags_only)
        return 1;
    uint32_t n = c->slots_from ? __atomic_add_fetch(c->slots_from, 1, __ATOMIC_RELAXED)
                               : ++c->slots_used;
    return cache_slot_number(c, n - 1);
}

#endif

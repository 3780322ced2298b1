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

/* The per-line metadata of 16 consecutive line slots, in one 640-byte block: a lookup, a hit,
 * a victim choice and a fill of a set touch one block (10 host cache lines, usually 2 to 4 of
 * them) instead of one line in each of eight arrays spread over the cache's storage. A set's
 * slots start a block (16 ways), share one (1, 2, 4 or 8 ways), or fill several (ways rounded
 * up to a multiple of 16, the unused slots staying empty): set_stride. */
enum { GROUP_LINES = 16, GROUP_SHIFT = 4 };
typedef struct line_group {
    uint8_t prints[GROUP_LINES];     /* TAG_PRINT of each tag, so that a lookup compares one byte
                                        per way (16 ways at once) before the full tags */
    uint8_t priorities[GROUP_LINES]; /* cache_priority */
    uint8_t kinds[GROUP_LINES];
    uint8_t pad[GROUP_LINES];
    uint64_t tags[GROUP_LINES];          /* TAG_OF(line number), or NO_LINE */
    uint64_t valid_sectors[GROUP_LINES]; /* bit s: sector s fully valid */
    uint64_t stamps[GROUP_LINES];        /* recency: larger is more recent */
    uint64_t dirty_sectors[GROUP_LINES]; /* bit s: sector s holds a dirty byte */
    uint32_t data_slots[GROUP_LINES];    /* 1 + the line's slot in data and byte_masks; 0 until
                                            the line is first allocated (in fill order) */
} line_group;

enum { HELD_MEMO_SLOTS = 256, HELD_MEMO_SHIFT = 56 }; /* 2^(64 - HELD_MEMO_SHIFT) slots */

/* A field of line slot `line` (set * set_stride + way), as an lvalue. */
#define LINE_FIELD(c, line, field) \
    ((c)->groups[(line) >> GROUP_SHIFT].field[(line) & (GROUP_LINES - 1)])

struct cache {
    cache_config config; /* with defaults applied */
    cache_next_level next;
    /* cache_set_read_deferral: where cache_read_line_miss hands its read of this cache when
     * this cache is the level below (NULL: it reads here) */
    cache_deferred_read defer_read;
    void *defer_ctx;
    uint32_t sets, ways, line_count;
    uint32_t set_stride;     /* line slots per set: ways, or ways rounded up as line_group says */
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
    line_group *groups;      /* slot_count / GROUP_LINES blocks (at least one) */
    uint64_t *byte_masks;    /* per data slot: bitmap_words of valid bits (all ones over valid
                                sectors), then bitmap_words of dirty bits */
    uint8_t *data;           /* line_bytes per data slot */
    uint32_t slots_used;
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
     * Zero-filled at creation (slot 0 is as good a guess as any). */
    uint32_t held_memo[HELD_MEMO_SLOTS];
    uint8_t *scratch;        /* line_bytes of data fetched from the next level, then
                                line_bytes for the byte mask of a partial write-back */
    cache_stats stats;
    uint8_t *storage;        /* one block holding every per-line array above */
    size_t storage_bytes;
    int storage_mapped;      /* storage came from mmap */
    int storage_lent;        /* storage belongs to the caller (config.storage) */
    /* Bit b: a line was ever allocated in line_group b, so that the whole-cache operations
     * visit only those blocks and look-ups skip the others unread (cache_ops.h, group_used).
     * Allocated with the struct, not in storage: every look-up reads it, and a first read of
     * an untouched page of storage would map the zero page, to be faulted again by the first
     * allocation's write. */
    uint64_t used_groups[];
};

/* The data slots handed out so far: a slot numbered above it (1 + index) is handed out later,
 * and its line bytes are still the storage's zeros. */
static inline uint32_t cache_slots_now(const cache *c)
{
    return c->slots_from ? __atomic_load_n(c->slots_from, __ATOMIC_RELAXED) : c->slots_used;
}

/* The next free data slot (1 + its index), in fill order. */
static inline uint32_t cache_new_data_slot(cache *c)
{
    return c->slots_from ? __atomic_add_fetch(c->slots_from, 1, __ATOMIC_RELAXED)
                         : ++c->slots_used;
}

#endif

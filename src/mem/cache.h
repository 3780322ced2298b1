/* One level of a data-carrying, sectored, set-associative cache.
 *
 * The cache holds real bytes. Each line has per-sector valid and dirty bits and per-byte valid and
 * dirty masks, so a store that writes part of a sector without fetching it keeps exactly the bytes
 * it wrote, and a write-back sends only dirty bytes. It talks to the level below through a small
 * vtable (cache_next_level), so an L1 can sit on an L2 slice and an L2 slice on DRAM.
 *
 * Replacement is LRU inside three eviction-priority classes (first, normal, last) with a global
 * limit on evict-last (persisting) lines. Every rule, and every counter, is defined in
 * docs/cache-model.md; the section names below refer to it.
 *
 * This module is not the hierarchy: it does not split warp accesses into lines, choose L2 slices,
 * model latency or bandwidth, or decode cache-policy descriptors. An access handed to it lies
 * within one line. Not thread-safe. */
#ifndef GMS_MEM_CACHE_H
#define GMS_MEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "mem/dram.h"

typedef struct cache cache;

/* Eviction-priority class of a resident line (docs/cache-model.md §"Replacement"). */
typedef enum cache_priority {
    CACHE_PRIORITY_FIRST = 0, /* evicted before any other line of its set (streaming) */
    CACHE_PRIORITY_NORMAL,
    CACHE_PRIORITY_LAST,      /* persisting: evicted only when the set holds nothing else */
} cache_priority;

/* What an access does to allocation and to the line's class (§"Allocation hints"). */
typedef enum cache_alloc {
    CACHE_ALLOC_UNCHANGED = 0, /* the default (evict_unchanged, and L1 evict_normal on a miss):
                                  a new line is NORMAL, a resident line keeps its class */
    CACHE_ALLOC_NORMAL,        /* evict_normal / demote: the line becomes NORMAL */
    CACHE_ALLOC_FIRST,         /* evict_first: the line becomes FIRST */
    CACHE_ALLOC_LAST,          /* evict_last: the line becomes LAST within the persisting limit */
    CACHE_ALLOC_NONE,          /* no_allocate: a miss does not allocate; a hit keeps the class */
} cache_alloc;

/* Write policy of one store (§"Writes"). */
typedef enum cache_write_mode {
    CACHE_WRITE_DEFAULT = 0, /* the configured policy for the access's line kind */
    CACHE_WRITE_BACK,
    CACHE_WRITE_THROUGH,
} cache_write_mode;

/* How the set of a line address is chosen (§"Set index"). */
typedef enum cache_index_function {
    CACHE_INDEX_MODULO = 0, /* line number mod sets */
    CACHE_INDEX_XOR_FOLD,   /* xor of the line number's ceil(log2 sets)-bit chunks, mod sets */
} cache_index_function;

enum {
    CACHE_KIND_COUNT = 32, /* line kinds are 0..31 */
    CACHE_MAX_SECTORS_PER_LINE = 64,
    CACHE_MAX_FILL_BYTES = 4096,
};
/* Kind filter selecting every line kind. */
#define CACHE_KIND_ALL UINT32_C(0xFFFFFFFF)

/* Per-access hints. A NULL hints pointer means all fields zero. */
typedef struct cache_hints {
    uint8_t alloc;       /* cache_alloc */
    uint8_t write_mode;  /* cache_write_mode; ignored by reads */
    uint8_t kind;        /* caller's line tag, 0..31 (e.g. global vs local); set on allocation */
    uint16_t fill_bytes; /* 0, or a power of two >= sector_bytes and <= CACHE_MAX_FILL_BYTES:
                            promotes this access's fill granularity (a wider fill hint) */
    void *request;       /* borrowed, opaque: the caller's request, handed unchanged to every
                            next-level call this access causes (fills, write-backs) */
} cache_hints;

/* The level below. Both calls get ranges that lie within one line of *this* cache and are whole
 * sectors for fills and write-backs (write-through and bypassing stores pass the store's bytes).
 * `request` is the request of the access or operation that caused the call (cache_hints.request,
 * or the request argument of a control operation; NULL for cache_flush and when none was given).
 * `byte_mask` is NULL or has one byte per data byte; bytes whose mask byte is 0 must be left
 * unchanged. A call returns MEM_OK or an error status that the cache passes to its caller. */
typedef struct cache_next_level {
    void *ctx; /* borrowed */
    mem_status (*read)(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out);
    mem_status (*write)(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                        const uint8_t *data, const uint8_t *byte_mask);
    /* true: a write-back may hand over a run of consecutive dirty sectors in one write call
     * (the level below counts a call's bytes, not its calls: DRAM); false: one call per dirty
     * sector (a cache below counts each call as a write access) */
    bool writeback_runs;
} cache_next_level;

typedef struct cache_config {
    uint64_t size_bytes;     /* total data bytes; a multiple of line_bytes * ways */
    uint32_t line_bytes;     /* power of two in [4, 4096]; 0 means 128 */
    uint32_t sector_bytes;   /* power of two, line_bytes / sector_bytes <= 64; 0 means 32 */
    uint32_t ways;           /* >= 1 */
    uint8_t index_function;  /* cache_index_function */
    bool write_allocate;     /* a store miss allocates the line (without fetching it) */
    uint32_t write_through_kinds; /* bit k: stores to kind k are write-through by default,
                                     otherwise write-back */
    uint32_t fill_bytes;     /* minimum fill granularity (aligned block); 0 means sector_bytes;
                                L2 on DRAM: 64 */
    uint64_t persisting_limit_lines; /* most LAST lines in the whole cache; 0 means evict_last
                                        requests are treated as evict_normal */
    void *storage;           /* optional, borrowed: zero-filled block of at least storage_bytes
                                (see cache_storage_bytes) for the cache's arrays, so that many
                                caches can share one mapping; NULL: the cache allocates */
    size_t storage_bytes;
    void *index_storage;     /* optional, borrowed: zero-filled block of at least
                                index_storage_bytes (see cache_index_storage_bytes) for the arrays
                                a look-up reaches by set (line records, tag prints), so that many
                                caches can keep those in one mapping of 2 MiB pages; with it,
                                storage needs only cache_storage_bytes - cache_index_storage_bytes */
    size_t index_storage_bytes;
    void *data_storage;      /* optional, borrowed, only with index_storage: zero-filled block of
                                at least data_storage_bytes (see cache_data_storage_bytes) that
                                data_stride caches share for their byte masks and line data,
                                their data slots interleaved: this cache's k-th slot is slot
                                k x data_stride + data_index of the block, so that caches that
                                fill at similar rates use a dense prefix of it (which may then
                                take 2 MiB pages); with it, storage needs only cache_storage_bytes
                                - cache_index_storage_bytes - cache_data_storage_bytes(config, 1) */
    size_t data_storage_bytes;
    uint32_t data_stride, data_index; /* data_index < data_stride */
    uint32_t slices;         /* 0 or 1: not sliced; n: the sets form n equal slices; a line's slice
                                is chosen round-robin within aligned groups of n lines (rotated
                                by a fold of the group number) and the index function picks the
                                set within the slice from the group number */
    bool slice_modulo;       /* the slice is the line number mod n, without the rotation */
    bool tags_only;          /* the cache models which lines it holds, not their bytes (the
                                constant and instruction caches: the executor reads those
                                elsewhere): sector_bytes must equal line_bytes (MEM-CACHE-009),
                                and nothing may write it or read bytes out of it, so a resident
                                line is whole once filled and its byte masks are not read after
                                its fill; all its lines share one data slot (one mask and one
                                line of storage) */
} cache_config;

/* What one call did. Every operation zeroes it first; pass NULL when not needed. */
typedef struct cache_result {
    uint32_t sector_accesses; /* sectors the access touched */
    uint32_t sector_hits;     /* of those, sectors fully valid before the access */
    uint32_t sector_misses;   /* sector_accesses - sector_hits */
    uint64_t hit_sectors;     /* bit s: sector s of the line was accessed and was a hit */
    uint32_t evictions;       /* valid lines replaced to make room (including prefetch fills) */
    uint32_t writeback_bytes; /* dirty sectors written to the next level, in whole sectors */
    uint32_t fill_bytes;      /* bytes read from the next level (fills and bypassing reads) */
    uint32_t write_through_bytes; /* stored bytes passed straight to the next level */
    bool line_hit;            /* the line was resident when the access began */
} cache_result;

/* Counters of one cache since creation or cache_reset_stats (§"Counters"). */
typedef struct cache_stats {
    uint64_t reads, writes;                  /* accesses */
    uint64_t sector_accesses, sector_hits, sector_misses;
    uint64_t read_sector_hits, read_sector_misses;
    uint64_t write_sector_hits, write_sector_misses;
    uint64_t evictions, dirty_evictions;     /* replacements, and those that wrote data back */
    uint64_t invalidated_lines;              /* lines dropped by invalidate/discard operations */
    uint64_t writeback_bytes;                /* all write-backs: evictions, cleans, flushes */
    uint64_t fill_bytes;
    uint64_t write_through_bytes;
    uint64_t last_demotions;                 /* LAST lines made NORMAL by the persisting limit */
    uint64_t lines_by_priority[3];           /* resident now, indexed by cache_priority */
    uint64_t peak_last_lines;
} cache_stats;

/* State of one line, for tests and reports. */
typedef struct cache_line_info {
    bool present;
    uint64_t valid_sectors;   /* bit s: sector s fully valid */
    uint64_t partial_sectors; /* bit s: some but not all bytes of sector s valid */
    uint64_t dirty_sectors;   /* bit s: sector s holds a dirty byte */
    uint8_t priority;         /* cache_priority */
    uint8_t kind;
    uint32_t set, way;
} cache_line_info;

/* Fills `config` with the defaults: 128 B lines, 32 B sectors, modulo index, write-back for
 * every kind, write-allocate, fill = one sector, no persisting lines; size and ways from the
 * arguments. */
void cache_config_default(cache_config *config, uint64_t size_bytes, uint32_t ways);

/* Bytes of storage a cache with this configuration needs (for config.storage); 0 when the
 * geometry is invalid. */
size_t cache_storage_bytes(const cache_config *config);
/* The part of cache_storage_bytes that config.index_storage may take instead (a multiple of 64
 * bytes); 0 when the geometry is invalid. */
size_t cache_index_storage_bytes(const cache_config *config);
/* The bytes of a config.data_storage block shared by n caches of this configuration (a multiple
 * of 64); 0 when the geometry is invalid. */
size_t cache_data_storage_bytes(const cache_config *config, uint32_t n);
/* Creates a cache on top of `next` (copied; its ctx stays borrowed and must outlive the cache).
 * Line data and metadata are allocated up front with calloc (pages are touched lazily by the OS).
 * On success *out (OUT) owns the cache; free it with cache_destroy.
 * Returns MEM_OK; MEM_ERR_CONFIG with a diagnostic in `dl` naming the bad field:
 * line size [MEM-CACHE-001], sector size [MEM-CACHE-002], size or ways [MEM-CACHE-003],
 * fill size [MEM-CACHE-004], index function [MEM-CACHE-005], missing next level [MEM-CACHE-006];
 * MEM_ERR_NOMEM [MEM-CACHE-007]. */
mem_status cache_create(const cache_config *config, const cache_next_level *next, diag_list *dl,
                        cache **out);
/* Frees the cache without writing anything back (call cache_flush first to keep dirty data). */
void cache_destroy(cache *c);

/* Reads `bytes` bytes at byte address `addr` into `out` (OUT, may be NULL for a prefetch).
 * [addr, addr + bytes) must lie within one line. Missing sectors are fetched from the next level
 * in aligned fill blocks (§"Reads and fills"); hints may be NULL. `result` (OUT) may be NULL.
 * Returns MEM_OK; MEM_ERR_ARGUMENT for an empty or line-crossing range or a bad hint (nothing
 * changes); a next-level error (the cache stays consistent; the data in `out` is unspecified). */
mem_status cache_read(cache *c, uint64_t addr, uint32_t bytes, void *out, const cache_hints *hints,
                      cache_result *result);
/* cache_read for a caller that knows the line's set: `set` is what cache_set_of gives for
 * `addr`. The same effects, counts, data and status, without working out the set again (the
 * L2's parts applying logged reads, memsys_l2log.c). */
mem_status cache_read_in_set(cache *c, uint32_t set, uint64_t addr, uint32_t bytes, void *out,
                             const cache_hints *hints, cache_result *result);
/* The hit path of a warp's line (docs/cache-model.md, "Reads and fills"): when the line at
 * `line_addr` (line-aligned) is present and every sector of `sectors` (bit s: sector s; not 0)
 * is valid, does exactly what cache_read with hints {alloc, no fill size} would do for each run
 * of consecutive sectors of `sectors` in turn (all hits: recency, class, statistics), copies
 * the requested sectors into `out` (OUT, line_bytes; each sector at its offset in the line, the
 * other bytes unspecified; NULL: no data, as for a tags-only cache), stores the number of runs
 * in *runs (OUT) and returns true. Otherwise changes nothing and returns false (the caller takes cache_read). */
bool cache_read_hit(cache *c, uint64_t line_addr, uint64_t sectors, uint8_t alloc, uint8_t *out,
                    uint32_t *runs);
/* cache_read_hit(c, line_addr, sector, CACHE_ALLOC_UNCHANGED, NULL, &runs) for one sector
 * (`sector`: one bit; 0 is refused), a tags-only probe (the instruction and constant caches,
 * cache_probe.c; docs/cache-model.md, "Reads and fills"): the same result, recency and
 * statistics, found first where the line was last found (cache_lines_held's memo), so that
 * lines visited in turn skip the set's look-up. line_addr: line-aligned byte address. */
bool cache_probe_hit(cache *c, uint64_t line_addr, uint64_t sector);
/* The miss path of a warp's line through two levels (docs/cache-model.md, "Reads and fills",
 * "The miss path of a warp's line"): when the line at `line_addr` (line-aligned) is absent from
 * `c`, `sectors` (bit s: sector s) is one run of consecutive sectors, `h` (borrowed) allocates
 * (alloc below CACHE_ALLOC_NONE) with no fill size, c fills one sector at a time, and `below`
 * has c's line size and accepts `below_hints` (borrowed): does exactly what cache_read of the run
 * with hints `h` would do when c's next level is `below` read with `below_hints` (the victim,
 * written back through c's next level as usual, then the read of the run from `below` straight
 * into the new line, then the line's valid bits), copies the run into `out` (OUT, line_bytes;
 * the run at its offset in the line, the other bytes untouched), fills *r (OUT) as cache_read's
 * result and *below_r (OUT) as below's cache_read result (the caller counts below's read as its
 * next-level adapter would), sets *taken and returns MEM_OK or the first error (as cache_read).
 * Otherwise changes nothing, leaves *r and *below_r alone, clears *taken and returns MEM_OK
 * (the caller takes cache_read). *below_set (in and OUT): CACHE_SET_UNKNOWN, or the set of the
 * line in `below` as cache_set_of (or cache_prefetch_set) gave it, which spares working it out
 * again; when taken, set to that set. */
mem_status cache_read_line_miss(cache *c, cache *below, uint64_t line_addr, uint64_t sectors,
                                const cache_hints *h, const cache_hints *below_hints, uint8_t *out,
                                cache_result *r, cache_result *below_r, uint32_t *below_set,
                                bool *taken);
/* A read that cache_read_line_miss hands over instead of making it in its level below (see
 * cache_set_read_deferral): `ctx` as given there, `h` the below_hints of the call (borrowed,
 * for the call only), the run [addr, addr + bytes) within one line; the callee fills `out`
 * (OUT, bytes) with the run's bytes as the read would have returned them. Returns MEM_OK or an
 * error, which cache_read_line_miss returns. */
typedef mem_status (*cache_deferred_read)(void *ctx, const cache_hints *h, uint64_t addr,
                                          uint32_t bytes, uint8_t *out);
/* From now on (fn not NULL), every cache_read_line_miss whose level below is `c` leaves c
 * alone: its read of the run goes to fn instead (c's lines, statistics and clock do not change
 * and *below_r is all zero), and the caller makes the read later (docs/architecture.md, "The
 * parked loads by SMs"). fn NULL: reads are made in c again. Nothing else of c changes. */
void cache_set_read_deferral(cache *c, cache_deferred_read fn, void *ctx);
/* No set known (cache_read_line_miss). */
#define CACHE_SET_UNKNOWN UINT32_MAX
/* cache_read_hit for lines one after the other, as long as they hit (a scattered warp access:
 * a call per line cost more than the hit itself). Line k's address, sectors and output buffer
 * are at line_addrs, sectors and out advanced by k x `stride` bytes (fields of the caller's
 * records), k < n. Stops at the first line that cache_read_hit would refuse, changing nothing
 * for it. `lines` (may be NULL): the lines' slots as cache_lines_held found them, when nothing
 * has changed the cache since; then no line is looked up again. Returns how many lines hit,
 * and their sectors in all in *sector_count (OUT). */
uint32_t cache_read_hits(cache *c, uint32_t n, const uint64_t *line_addrs,
                         const uint64_t *sectors, uint8_t *out, size_t stride, uint8_t alloc,
                         const uint32_t *lines, uint64_t *sector_count);
/* How many of the lines given as to cache_read_hits, from the first, are present with every
 * sector of their `sectors` (not 0) valid; stores each such line's slot in lines[k] (OUT, at
 * least n entries) for cache_read_hits. Changes nothing the model holds or counts (only a
 * host-speed memo of where lines were found). */
uint32_t cache_lines_held(cache *c, uint32_t n, const uint64_t *line_addrs,
                          const uint64_t *sectors, size_t stride, uint32_t *lines);
/* Writes `bytes` bytes of `data` (borrowed) at `addr`, within one line (§"Writes").
 * Returns as cache_read. */
mem_status cache_write(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                       const cache_hints *hints, cache_result *result);
/* As cache_write, storing only the bytes whose `byte_mask` byte (borrowed, `bytes` long, may be
 * NULL for all) is nonzero: a warp's store to one line with inactive lanes or gaps. Only sectors
 * holding a stored byte count as accessed; an all-zero mask is a write that touches nothing. */
mem_status cache_write_masked(cache *c, uint64_t addr, uint32_t bytes, const void *data,
                              const uint8_t *byte_mask, const cache_hints *hints,
                              cache_result *result);
/* As cache_write_masked for a store of one whole line at `addr` (line-aligned; line_bytes
 * bytes) whose caller already holds the mask as bits: bit b of bits[b / 64] (borrowed, one word
 * per 64 bytes of the line) is set exactly when byte_mask[b] is nonzero (every bit when
 * byte_mask is NULL). Same effects, counts and next-level calls as cache_write_masked; it only
 * skips turning the byte mask into bits (a coalesced warp store's line, docs/cache-model.md
 * "Writes"). Returns as cache_write_masked; MEM_ERR_ARGUMENT also for an unaligned `addr`. */
mem_status cache_write_line_bits(cache *c, uint64_t addr, const void *data,
                                 const uint8_t *byte_mask, const uint64_t *bits,
                                 const cache_hints *hints, cache_result *result);
/* cache_write_line_bits(c, addr, data, byte_mask, bits, hints, result) for a caller that knows
 * the line's set: `set` is what cache_set_of (or cache_prefetch_set) gives for `addr`. The same
 * effects, counts, data and status; a store of some bytes of a line that c holds, into a
 * write-back cache of 128-byte lines and 32-byte sectors, is made without working out the set
 * again (the L2's parts applying logged stores, memsys_l2log.c; docs/cache-model.md,
 * "Writes"). */
mem_status cache_write_line_bits_in_set(cache *c, uint32_t set, uint64_t addr, const void *data,
                                        const uint8_t *byte_mask, const uint64_t *bits,
                                        const cache_hints *hints, cache_result *result);
/* cache_write_line_bits for a cache whose next level is the cache `below` (an L1 on its L2),
 * with the line's write to the next level (write-through, or a store around the cache that
 * does not allocate) made into `below` directly, as cache_write_line_bits(below, addr, data,
 * byte_mask, bits, below_hints, below_result) would make it, instead of through the
 * next-level adapter: the same effects, counts and data in both caches (§"Writes"). The
 * caller does what its adapter does around such a write (the write's statistics are in
 * *below_result when *below_written). *taken (OUT) false: a store the fast line paths of
 * either cache do not take (not a 128-byte line, invalid hints, a partial store into sectors
 * other than 32 bytes): nothing was done, and the caller takes cache_write_line_bits.
 * Otherwise returns as cache_write_line_bits, with *below_written (OUT) whether the write
 * reached `below` (not for an all-zero mask) and then *below_set (OUT) the line's set there
 * (cache_set_of). hints, below_hints, result and below_result: borrowed, not NULL. */
mem_status cache_write_line_below(cache *c, cache *below, uint64_t addr, const void *data,
                                  const uint8_t *byte_mask, const uint64_t *bits,
                                  const cache_hints *hints, const cache_hints *below_hints,
                                  cache_result *result, cache_result *below_result, bool *taken,
                                  bool *below_written, uint32_t *below_set);
/* cache_write_line_below for a run of up to n store lines (a warp's scattered store, a field
 * of each of several structures, or its whole lines) that a write-through cache c (an L1 indexed by line
 * number) and the write-back cache `below` both hold, 128-byte lines of 32-byte sectors and 16
 * ways at both levels, neither with an evict-last line: line k's address, store bits (two
 * words), data and byte mask (128 bytes each) are at byte k * stride from line_addrs, bits,
 * data and masks (borrowed; a coalescer's line records). Line by line, in order, the same
 * effects, counts and data in both caches as cache_write_line_below (which then writes
 * below), without its per-line calls, result records and statistics updates: the statistics
 * once for the run. Stops at the first line that is not of this kind (not held by both, an
 * empty store, an evict-last line appeared), changing nothing of it. Returns how
 * many lines it stored (0 also when the caches or hints do not fit); *sum and *below_sum
 * (OUT) get the sums of those lines' cache_result counts at each level (sector_accesses,
 * sector_hits, sector_misses; write_through_bytes at c; the rest 0), and below_sets[k] (OUT,
 * may be NULL) each line's set in `below`. hints and below_hints as cache_write_line_below's
 * (docs/cache-model.md, "Writes"). */
uint32_t cache_write_lines_below(cache *c, cache *below, uint32_t n, const uint64_t *line_addrs,
                                 const uint64_t *bits, const uint8_t *data, const uint8_t *masks,
                                 size_t stride, const cache_hints *hints,
                                 const cache_hints *below_hints, cache_result *sum,
                                 cache_result *below_sum, uint32_t *below_sets);
/* cache_write_lines_below's steps at c alone, for a run whose writes to the level below are
 * made by the caller (a store whose L2 writes go to a store log, memsys_store_deferred): up to
 * n store lines that the write-through cache c (an L1 indexed by line number, 128-byte lines of
 * 32-byte sectors, 16 ways, under `hints`) holds, laid out as cache_write_lines_below's. Line by
 * line, in order, the same effects, counts and data in c as cache_write_line_bits with c's
 * write-through made to the next level, without calling that level: the caller writes each
 * line's stored bytes below itself. Stops at the first line that c does not hold, an empty
 * store or an evict-last line, changing nothing of it. Returns how many lines it stored (0 also
 * when c or hints do not fit); *sum (OUT) gets the sums of their cache_result counts
 * (sector_accesses, sector_hits, sector_misses, write_through_bytes; the rest 0)
 * (docs/cache-model.md, "Writes"). */
uint32_t cache_write_lines_through(cache *c, uint32_t n, const uint64_t *line_addrs,
                                   const uint64_t *bits, const uint8_t *data, const uint8_t *masks,
                                   size_t stride, const cache_hints *hints, cache_result *sum);
/* Whether cache_write_line_bits on c under `hints` reads no byte of a store's byte mask for any
 * store bits: 128-byte lines of 32-byte sectors, valid hints, and nothing written to the next
 * level (which takes the mask): no write-through, and a store that misses allocates. The caller may then pass a NULL mask with the bits.
 * Without side effects. */
bool cache_takes_store_bits(const cache *c, const cache_hints *hints);

/* A hint without effect on the cache: brings the host memory that a lookup of the line holding
 * `addr` (a byte address) reads first (its set's tag prints and first tags) towards the host's
 * caches, so that the lookups of a warp's lines can overlap their host-cache misses. Never
 * fails. A host-speed aid only: no section of docs/cache-model.md models it. Returns the
 * line's set (cache_set_of), for cache_read_line_miss's below_set. */
uint32_t cache_prefetch_set(const cache *c, uint64_t addr);
/* cache_prefetch_set for a caller that has the set (`set` < cache_set_count, as cache_set_of
 * gives it): the same hint, without the set's hash. */
void cache_prefetch_set_at(const cache *c, uint32_t set);
/* Without side effects: the valid-sector mask of the line holding `addr` (0 when absent). */
uint64_t cache_lookup_sectors(const cache *c, uint64_t addr);
/* Without side effects: fills `info` (OUT) for the line holding `addr`; returns info->present. */
bool cache_lookup(const cache *c, uint64_t addr, cache_line_info *info);

/* Makes every evict-last line normal (cudaCtxResetPersistingL2Cache). Returns how many. */
uint64_t cache_demote_last(cache *c);
/* Changes the persisting limit (config.persisting_limit_lines) for later allocations; lines
 * already evict-last keep their class until they are demoted or evicted. */
void cache_set_persisting_limit(cache *c, uint64_t lines);
/* Without side effects: copies the valid bytes of [addr, addr + bytes) (within one line) into
 * `out` and sets got[i] = 1 for each byte copied; bytes not held are left untouched. Returns
 * whether any byte was copied. For debugger-style reads (device printf arguments). */
bool cache_peek(const cache *c, uint64_t addr, uint32_t bytes, uint8_t *out, uint8_t *got);
/* Without side effects (cache_peek.c): when the line holding [addr, addr + bytes) (within one
 * line) is present with every byte of the range valid, copies them into `out` (OUT) and returns
 * 1; present with some bytes of the range valid and others not: returns 0 (cache_peek then
 * takes the valid ones); absent, or present without a valid byte of the range: -1 (the line
 * has nothing of it). `out` is untouched unless 1 is returned. */
int cache_peek_run(const cache *c, uint64_t addr, uint32_t bytes, uint8_t *out);
/* Line operations on the line holding `addr`; each is a no-op when the line is absent
 * (§"Cache control"). They return MEM_OK or a next-level error from a write-back. `request`
 * (borrowed, may be NULL) is handed to the next level's write calls. */
/* Drops the line, first writing back its dirty bytes when `writeback_first`. */
mem_status cache_invalidate_line(cache *c, uint64_t addr, bool writeback_first, void *request,
                                 cache_result *result);
/* Drops the line and its dirty data without write-back. Never fails. */
mem_status cache_discard_line(cache *c, uint64_t addr, cache_result *result);
/* Writes back the line's dirty bytes and keeps it valid and clean. */
mem_status cache_writeback_line(cache *c, uint64_t addr, void *request, cache_result *result);
/* Drops the line when it holds no dirty byte; a dirty line stays as it is. Never fails. */
mem_status cache_invalidate_clean_line(cache *c, uint64_t addr, cache_result *result);
/* Sets the line's class (FIRST, NORMAL or LAST; LAST within the persisting limit). Recency is
 * not changed. Returns MEM_ERR_ARGUMENT for a value outside cache_priority. */
mem_status cache_set_line_priority(cache *c, uint64_t addr, cache_priority priority);

/* Whole-cache operations over lines whose kind bit is set in `kind_filter`
 * (CACHE_KIND_ALL for every line). */
/* Drops the selected lines, writing back dirty bytes first when `writeback_dirty`. */
mem_status cache_invalidate_all(cache *c, uint32_t kind_filter, bool writeback_dirty,
                                void *request, cache_result *result);
/* Writes back the selected lines' dirty bytes; they stay valid and become clean. */
mem_status cache_writeback_all(cache *c, uint32_t kind_filter, void *request,
                               cache_result *result);
/* Drops the selected lines that hold no dirty byte; dirty lines stay. Never fails. */
mem_status cache_invalidate_clean_all(cache *c, uint32_t kind_filter, cache_result *result);
/* The whole-cache operations as values, for cache_control_slices. */
typedef enum cache_whole_op {
    CACHE_WHOLE_WRITEBACK = 0,    /* as cache_writeback_all */
    CACHE_WHOLE_INVALIDATE,       /* as cache_invalidate_all with write-back first */
    CACHE_WHOLE_DISCARD,          /* as cache_invalidate_all without write-back */
    CACHE_WHOLE_INVALIDATE_CLEAN, /* as cache_invalidate_clean_all */
} cache_whole_op;
/* Runs `op` on the selected lines of slices [first_slice, first_slice + slice_count) only (a
 * cache that is not sliced is slice 0): the part of a sliced L2 one tile owns. Returns as the
 * operation does; MEM_ERR_ARGUMENT for an op outside cache_whole_op (nothing changes). */
mem_status cache_control_slices(cache *c, uint32_t kind_filter, uint32_t first_slice,
                                uint32_t slice_count, cache_whole_op op, void *request,
                                cache_result *result);
/* Writes back every dirty byte (end of a run). Same as cache_writeback_all over every kind. */
mem_status cache_flush(cache *c, cache_result *result);

const cache_stats *cache_get_stats(const cache *c);
/* Zeroes the traffic counters; lines_by_priority stays (it is state, not traffic) and
 * peak_last_lines restarts from the current LAST count. */
void cache_reset_stats(cache *c);
/* Geometry after defaults were applied. */
const cache_config *cache_get_config(const cache *c);
uint32_t cache_set_count(const cache *c);
/* The slice that the line holding `addr` maps to (0 when not sliced). */
uint32_t cache_slice_of(const cache *c, uint64_t addr);
/* The set that the line holding `addr` maps to. */
uint32_t cache_set_of(const cache *c, uint64_t addr);
/* The slice of the lines of set `set` (< cache_set_count; 0 when not sliced): cache_slice_of of
 * any address whose cache_set_of is `set`, without working the set out again. */
uint32_t cache_slice_of_set(const cache *c, uint32_t set);

/* Adapters: a next level that is a DRAM store (counted dram_read/dram_write), or another cache
 * (default hints; requests that span several of its lines are split at its line boundaries).
 * The target is borrowed and must outlive the caches built on it. */
cache_next_level cache_next_level_dram(dram *d);
cache_next_level cache_next_level_cache(cache *below);

#endif

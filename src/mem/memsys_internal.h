/* Memory-system internals shared by memsys.c (windows, dispatch), memsys_setup.c (creation,
 * tallies, allocation, host copies), mem_hier.c (L1/L2/DRAM paths), mem_control.c (cache
 * control, fences) and mem_shared.c (shared-memory banks, constant cache). Not part of the
 * interface. */
#ifndef GMS_MEM_MEMSYS_INTERNAL_H
#define GMS_MEM_MEMSYS_INTERNAL_H

#include <stdatomic.h>
#include <string.h>
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/mem_policy.h"
#include "mem/memsys.h"

enum { LINE_SCRATCH = 256, LINE_BYTES_MAX = 128 };

typedef struct allocation {
    uint64_t base, bytes;
} allocation;

/* Where one lane's bytes live once resolved. */
typedef struct lane_target {
    ir_space space;
    uint64_t offset; /* window offset or global address */
} lane_target;

/* One line (memsys.line_bytes, at most 128 bytes) touched by a warp access: which bytes, the data, and the level that served
 * each of its sectors (L1 sectors: cfg.l1.sector_bytes). */
typedef struct line_req {
    /* What every path reads or writes of each line first, in one host cache line (40 bytes):
     * a warp's 32 scattered lines are 32 requests, and with these fields spread over the
     * record a look-up of the lines touched three host lines of each. */
    uint64_t line_addr;
    uint64_t sectors;      /* bit s: the access touches sector s (set as the lanes are added) */
    uint64_t byte_bits[LINE_BYTES_MAX / 64]; /* bit b: the access touches byte b */
    uint8_t kind;          /* LINE_KIND_* */
    uint8_t line_level;    /* MEM_LEVEL_NONE: each touched sector's level is in level[];
                              otherwise the level of every touched sector (level[] then not
                              written): an L1-hit line, a store line */
    uint16_t l2_slice;     /* with a line_level below the L1: the line's L2 slice, or
                              HIER_SLICE_UNKNOWN (mem_hier.h) */
    uint8_t data[LINE_BYTES_MAX];
    uint8_t mask[LINE_BYTES_MAX]; /* stores only: 1 for each byte stored (loads leave it as is) */
    uint8_t level[LINE_BYTES_MAX / 2]; /* mem_level of each touched sector */
} line_req;

/* The kind of an L1 line (cache_hints.kind): global data, local data, and global data the L1
 * allocated for a read-only-path load (IR_L1_READ_ONLY), which a texture invalidation
 * (IR_FENCE_INVALIDATE_TEX) drops. Line requests (line_req.kind) are GLOBAL or LOCAL only. */
enum { LINE_KIND_GLOBAL = 0, LINE_KIND_LOCAL = 1, LINE_KIND_GLOBAL_READ_ONLY = 2 };
/* Kind filter of every global line of an L1. */
#define LINE_KINDS_GLOBAL (1u << LINE_KIND_GLOBAL | 1u << LINE_KIND_GLOBAL_READ_ONLY)

/* One access on its way through the hierarchy (DESIGN.md, "The memory access contract"): what
 * every level must know travels with it, from memsys_access through the caches' next-level calls
 * (cache_hints.request) down to DRAM, and every level charges its work to `counters`. */
typedef struct mem_request {
    const ir_mem_attrs *attrs; /* the access's attributes; NULL for the memory system's own work */
    struct memsys_store_log *log; /* NULL, or where its writes to the L2 go instead
                                     (memsys_store_deferred) */
    uint32_t insn_id;          /* the instruction charged */
    uint32_t sm;               /* the issuing SM */
    uint64_t time;             /* reserved for the timing model: cycle the request was issued */
    mem_counters *counters;    /* the instruction's counters (or the unattributed ones) */
    cache_hints l2;            /* hints of the L2 operations the line in progress causes */
    line_req *line;            /* the line in progress, whose sector levels are recorded */
} mem_request;

/* A lane's piece of a line: lane bytes [lane_off, lane_off+len) are line bytes [off, off+len). */
typedef struct lane_piece {
    uint16_t req;
    uint8_t lane, lane_off, off, len;
} lane_piece;

struct memsys {
    memsys_config cfg;
    dram *store;
    allocation *allocs; /* sorted by base */
    uint32_t nallocs, allocs_cap;
    uint32_t last_hit;
    uint64_t next_base;
    uint8_t *const_bank[MEM_CONST_BANKS]; /* constant bank b's data; NULL when empty */
    uint32_t const_bytes[MEM_CONST_BANKS];
    const uint8_t *params;
    uint32_t params_bytes;
    /* hierarchy */
    cache **l1;        /* per SM: data cache for global and local lines */
    cache *l2;         /* the L2: one cache whose sets form cfg.l2.slices slices (cache_slice_of
                          says which holds a line) */
    struct load_defer *defer; /* the parked loads by SMs (memsys_pload.c); shared with the
                                 tally views, which copy the pointer */
    cache **constant;  /* per SM: constant cache (tags only; data comes from the bank) */
    cache **icache;    /* per SM */
    void *mappings[8]; /* storage blocks lent to the per-SM caches (two per array of them) */
    size_t mapping_bytes[8];
    uint32_t nmappings;
    mem_counters *insn_all;    /* owned: every loaded module's instructions (insn_total) */
    uint32_t insn_total;
    mem_counters *per_insn;    /* the running module's window into insn_all (insn_base on) */
    uint32_t ninsns, insn_base;
    const void *const_owner;   /* who installed the constant banks (memsys_const_owner) */
    mem_counters unattributed; /* flushes at the end of a run, host-side operations */
    mem_request own_work;      /* the request of work no access caused (charged unattributed) */
    unsigned l1_sector_shift, l2_sector_shift; /* log2 of the sector sizes */
    uint32_t line_bytes;       /* the L1 and L2 line size (<= LINE_BYTES_MAX): the unit a warp
                                  access is split into */
    uint8_t host_avx2;         /* the host executes AVX2: scan_full_warp's AVX2 build */
    /* From the instruction caches' configuration (all SMs alike), for memsys_ifetch: the mask
     * that keeps an address's line and log2 of the sector size */
    uint64_t ifetch_line_mask;
    unsigned ifetch_sector_shift;
    /* From cfg.shared, for mem_shared_warp (mem_shared_setup): whether the banks and their
     * width are powers of two (banks at most 64), then log2 of the width and of banks x width */
    uint8_t shared_direct, shared_width_shift, shared_block_shift;
    uint64_t persisting_lines; /* set-aside in lines */
    int strip_hints, poison_discard;
    policy_window window;     /* bytes 0: none */
    mem_image_table images;   /* the images surface instructions reach (mem_image.h) */
    mem_sampler_table samplers; /* the samplers of texture handles (mem_texture.h) */
    /* scratch for one access */
    line_req reqs[LINE_SCRATCH];
    uint32_t nreqs;
    uint32_t last_req;        /* request the previous piece went to */
    uint32_t recent[4];       /* the last requests req_of found or made, most recent at
                                 recent_at - 1 (mod 4): a local access's lanes each touch the
                                 same few lines one after the other */
    uint32_t recent_at;
    uint32_t nhashed;         /* reqs[0 .. nhashed) are in req_hash; the rest were added in
                                 ascending line order and are found without it */
    uint64_t max_line;        /* the highest line address of reqs[0 .. nreqs) */
    int16_t req_hash[512];    /* -1 when empty; emptied slot by slot after each access */
    uint16_t req_slots[LINE_SCRATCH]; /* hash slot of each line request */
    lane_piece pieces[LINE_SCRATCH * 2];
    uint32_t npieces;
    /* Lanes of a global or local load whose bytes lie in one line (most lanes): their bytes are
     * the access's elem_bytes * vec at lane_src[lane], in a line request's data; the lanes
     * split over several pieces are in pieces[] instead. */
    uint32_t whole_lanes;
    const uint8_t *lane_src[MEM_LANES];
    /* A contiguous load (coalesce_block): lanes block_l0 .. block_l0 + block_lanes - 1 read
     * the bytes from block_base on, in reqs[0 ..) one after the other; block_lanes 0: none. */
    uint32_t block_l0, block_lanes;
    uint64_t block_base;
    /* A store whose line requests reqs[0 .. masks_lazy) have no byte mask written (a field
     * store of 4-byte words, at most 8 a line, which cache_write_lines_below copies by their
     * bits): any other use of those masks takes coalesce_fill_mask first. 0: all written. */
    uint32_t masks_lazy;
    /* Set by memsys_access for the access in progress: the stride lane_stride would find when
     * the bounds scan already saw a full warp of aligned global lanes at one stride (it then
     * needs no scan of its own); UINT64_MAX: not known. */
    uint64_t known_stride;
    /* memsys_load_parks's last answer 0 for a global lowest active lane held in the L1: the
     * access, that lane's address, its instruction, SM and space (acc->space); lead_acc NULL:
     * none. The next access forgets it (access(), lead_known_in_l1). */
    const mem_access *lead_acc;
    uint64_t lead_addr;
    uint32_t lead_insn, lead_sm;
    uint8_t lead_space;
    /* what shared_count and constant_count found for the access in progress (mem_access's
     * shared_wavefronts, const_lookups, const_misses, const_addresses) */
    uint32_t last_const_lookups, last_const_misses, last_const_addresses;
    /* mem_global_warp's last load took its first line by the L1's miss path: the next one
     * tries that path first (host time only: the results are the same either way). */
    bool global_first_missed;
    /* mem_global_warp's L2 hints of a global line for an access with attributes
     * global_hint_key when they do not depend on the line's address (no policy descriptor, no
     * access-policy window: hier_set_l2_hints is then a function of the attributes alone);
     * global_hint_valid 0: none kept yet. */
    bool global_hint_valid;
    ir_mem_attrs global_hint_key;
    cache_hints global_hints;
};

/* memsys.c: the index of the allocation holding [addr, addr + bytes), or -1 (it becomes the
 * first one the next look-up tries, memsys.last_hit). memsys.c's own accesses inline it; the
 * host copies (memsys_setup.c) and mem_global.c call it. */
int mem_find_allocation(memsys *ms, uint64_t addr, uint64_t bytes);
/* memsys.c: fills *f for lane `lane` and returns -1. */
int mem_fail(mem_fault *f, mem_fault_kind kind, uint32_t lane, uint64_t addr, uint32_t bytes,
             ir_space space, const char *what);
/* memsys.c: resolves and checks lane `lane` of `acc` into *t: 0 when it goes on (under
 * IR_WINDOW_ZERO perhaps aligned down, noted in acc->misaligned_lanes); 1 when, under
 * IR_WINDOW_ZERO, it is outside its local or shared window and does nothing (noted in
 * acc->window_lanes, its load data zeroed); -1 with *f on a fault. */
int mem_check_lane(memsys *ms, const mem_ctx *ctx, mem_access *acc, uint32_t lane,
                   lane_target *t, mem_fault *f);
/* memsys.c: a request for `acc` with attributes `attrs` (the access's, or their copy without
 * hints) by the SM of `ctx`; acc NULL: the memory system's own work. */
mem_request mem_request_for(memsys *ms, const mem_ctx *ctx, const mem_access *acc,
                            const ir_mem_attrs *attrs);

/* mem_coalesce.c: a warp access's line requests (memsys.reqs) and its lanes' bytes in them. */
/* The backing address of byte `offset` of lane `lane`'s local window: local memory is
 * interleaved in 4-byte words, lane by lane, from ctx->local_backing. */
uint64_t hier_local_backing(const mem_ctx *ctx, uint32_t lane, uint64_t offset);
/* Empties the line requests and pieces before an access. Never fails. */
void coalesce_begin(memsys *ms);
/* Splits the active lanes `lanes` of `acc` (resolved into t[]) into line requests, in the
 * order the lanes first touch their lines, with each line's touched bytes and L1 sectors and,
 * for a store, its byte mask and data; records where each lane's bytes are for
 * coalesce_copy_out. Returns 1 when every line request is known to be of global data (the
 * lanes took one of the paths for global lanes at one stride), 0 otherwise, or -1 when a
 * scratch array (LINE_SCRATCH lines) is full. */
int coalesce_access(memsys *ms, const mem_ctx *ctx, const mem_access *acc, const lane_target *t,
                    uint32_t lanes, int store);
/* A load's data, from the line requests' data into acc->data's lanes. */
void coalesce_copy_out(const memsys *ms, mem_access *acc);
/* Writes the byte mask of store line request `r` (in ms->reqs) from its byte bits when the
 * coalescer left it unwritten (memsys.masks_lazy); nothing otherwise. */
void coalesce_fill_mask(const memsys *ms, line_req *r);
/* Whether the access touches every byte of line request `r`. */
int coalesce_whole_line(const memsys *ms, const line_req *r);
/* Adds lane `lane`'s texel `slot` (`bytes` at global `addr`) to the line requests, split at
 * lines (a texture fetch's piece at lane offset slot x 16). Returns 0, or -1 when the scratch is
 * full. */
int coalesce_texel(memsys *ms, uint32_t lane, uint32_t slot, uint64_t addr, uint32_t bytes);

/* mem_hier.c */
int hier_create(memsys *ms, diag_list *dl);
void hier_destroy(memsys *ms);
/* mem_hier.c: a write to the L2 that a deferred store's request logged (memsys_store_deferred):
 * the request's attributes, instruction, SM, counters and L2 hints, and the bytes. */
typedef struct logged_store {
    const ir_mem_attrs *attrs;
    uint32_t insn_id, sm, bytes;
    uint8_t has_mask;
    mem_counters *counters;
    cache_hints l2;
    uint64_t addr;
    uint8_t has_bits; /* a whole line with the coalescer's bits of its mask (l2_write_for) */
    uint8_t read;     /* not a write: a parked load's L2 read of [addr, addr + bytes), whose
                         bytes the load took at once (memsys_pload.c); mask unused */
    uint8_t has_data; /* a read whose data holds the bytes the load took, those of memory
                         (the backing store's where the L2 is not valid) at its place in the
                         serial order: its fill takes them instead of reading the store again */
    uint32_t set;     /* the L2 set of the line holding addr (cache_set_of), worked out as the
                         entry is logged, on the SM's thread: its key, and the part's prefetch
                         and write, take it from here */
    /* the fields an entry with bits and no mask is read by come first (four host lines) */
    uint64_t bits[LINE_BYTES_MAX / 64];
    uint8_t data[LINE_BYTES_MAX], mask[LINE_BYTES_MAX];
} logged_store;
struct memsys_store_log {
    logged_store *entries;
    uint8_t *keys;    /* per entry: memsys_l2_key of its line, so that each L2 part finds its
                         entries without working out every entry's set (in the block of
                         entries, after `cap` of them) */
    uint32_t count, cap;
    uint32_t writes;  /* L2 writes of the stores since the last apply, logged or made at once */
    uint32_t reads;   /* logged reads (parked loads by SMs) since the last apply */
    uint64_t written; /* the lines of its write entries, a bit per line-number hash
                         (memsys_log_line_bit): a read whose bit is clear skips the walk over
                         the entries that lays their bytes over its own (memsys_pload.c) */
    uint8_t immediate;/* make the writes at once, only counting them (one host thread) */
    int failed;       /* an entry could not be added (host memory) */
};

/* memsys_pload.c, for mem_hier.c and memsys.c. While the parked loads run by SMs
 * (memsys_ploads_begin), the log that an L2 write of a request without its own log goes to
 * (an L1 victim's write-back: the SM's), else NULL. */
memsys_store_log *hier_deferred_log(const memsys *ms, const mem_request *rq);
/* While the parked loads run by SMs: a read of the L2 for rq (hints h, the run [addr, addr +
 * bytes) within one line) logged in its SM's log and its bytes, as the read made in the serial
 * order would return them, put in `out` (OUT, may be NULL). Returns MEM_OK, or MEM_ERR_NOMEM
 * when the log cannot grow. */
mem_status hier_defer_l2_read(const memsys *ms, const mem_request *rq, const cache_hints *h,
                              uint64_t addr, uint32_t bytes, uint8_t *out);
/* The parked loads by SMs (memsys_pload.c; memsys_l2log.h): shared by ms and its views. */
struct load_defer {
    memsys_store_log *const *logs; /* per SM while the loads run by SMs, else NULL */
    uint32_t nlogs;
    _Atomic uint32_t *done;        /* per SM: 1 once its loads are done (release) */
    _Atomic uint64_t *dirty;       /* lines that may be dirty in some L1, hashed to bits; NULL
                                      while nothing is noted (one host thread) */
    uint32_t dirty_words;          /* a power of two */
    _Atomic uint32_t coupled;      /* 1 once a logged read grants evict-last or fills wider than
                                      a line (its sets are coupled), until
                                      memsys_store_logs_begin reads it for those logs */
};
/* Whether reads are deferred (hier_defer_l2_read applies). */
static inline int hier_reads_deferred(const memsys *ms)
{
    return ms->defer->logs != NULL;
}
/* The bit of the dirty-line filter that line `line_addr` hashes to: word and mask. */
static inline uint32_t pload_dirty_word(const struct load_defer *d, uint64_t line_addr,
                                        uint64_t *bit)
{
    uint64_t h = (line_addr >> 7) * UINT64_C(0x9E3779B97F4A7C15);
    *bit = UINT64_C(1) << (h >> 58);
    return (uint32_t)(h >> 20) & (d->dirty_words - 1);
}
/* A store into an L1 line at `line_addr` with hints h1 (of the L1): when the line may stay
 * dirty there, it is noted for the parked loads' reads (memsys_pload.c). Nothing while the
 * launch runs on one host thread. */
static inline void hier_note_l1_store(const memsys *ms, uint64_t line_addr, const cache_hints *h1)
{
    const struct load_defer *d = ms->defer;
    /* A local line is only ever read by its own warp slot's SM (local backing lies outside
     * every allocation, so no global load reaches it): its SM's own log covers it. */
    if (!d->dirty || h1->write_mode == CACHE_WRITE_THROUGH || h1->kind == LINE_KIND_LOCAL)
        return;
    if (h1->write_mode == CACHE_WRITE_DEFAULT && ms->cfg.l1.global_store_write_through)
        return;
    uint64_t bit;
    uint32_t w = pload_dirty_word(d, line_addr, &bit);
    if (!(atomic_load_explicit(&d->dirty[w], memory_order_relaxed) & bit))
        atomic_fetch_or_explicit(&d->dirty[w], bit, memory_order_relaxed);
}
/* memsys_pload.c: the defer state's life (memsys_create, memsys_destroy). */
int pload_create(memsys *ms);
void pload_destroy(memsys *ms);
/* The bit of memsys_store_log.written for the line holding addr (line_bytes: the L1's and L2's
 * line size). */
static inline uint64_t memsys_log_line_bit(uint64_t addr, uint32_t line_bytes)
{
    return UINT64_C(1) << ((addr / line_bytes) * UINT64_C(0x9E3779B97F4A7C15) >> 58);
}
/* The key that chooses the L2 part of a line whose L2 set is `set` (cache_set_of;
 * memsys_l2log.c), noted in the log with each entry: its block of 16 consecutive sets, 8 bits
 * of it. */
static inline uint8_t memsys_l2_key(uint32_t set)
{
    return (uint8_t)(set >> 4);
}
/* mem_hier.c: appends a write (or, with data NULL, a read) of rq to `log`. */
mem_status hier_log_l2_access(const memsys *ms, memsys_store_log *log, const mem_request *rq,
                              uint64_t addr, uint32_t bytes, const uint8_t *data,
                              const uint8_t *byte_mask);
/* mem_hier.c: appends a write of rq to the whole 128-byte L2 line at `addr` to `log`: the
 * line's data (128 bytes) and store bits (two words: bit b set where byte b is stored), and its
 * byte mask (128 bytes) or NULL. Applying the entry passes the mask to the L2 as given, so NULL
 * only where cache_takes_store_bits holds for the L2 under rq->l2. Returns MEM_OK, or
 * MEM_ERR_NOMEM (the log marked failed) when the log cannot grow. */
mem_status hier_log_l2_line(const memsys *ms, memsys_store_log *log, const mem_request *rq,
                            uint64_t addr, const uint8_t *data, const uint8_t *byte_mask,
                            const uint64_t *bits);

/* Writes the log's entries to the L2 in order, as their stores would have, and empties it.
 * Returns 0, or -1 when a write or an earlier addition to the log failed (host memory). */
int hier_apply_store_log(memsys *ms, memsys_store_log *log);
/* Whether a load with attributes `attrs` may hit a global line in L1 and the sector of global
 * address `addr` is valid in ctx's SM's L1: when not, a load of that lane needs the L2
 * (memsys_load_if_local's early answer, before it coalesces). Changes nothing. */
int hier_global_lane_in_l1(const memsys *ms, const mem_ctx *ctx, const ir_mem_attrs *attrs,
                           uint64_t addr);
/* A load or store of global or local lanes `lanes` through the SM's L1 (memsys_access). With
 * `local_only`, a store, or a load some of whose lines would need more than the L1 (a miss, a
 * kind that may not hit), returns 1 having changed nothing but the coalescer's scratch. */
int hier_global_local(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                      const lane_target *t, uint32_t lanes, int local_only, mem_fault *f);
/* Mask of `count` bits from bit `first` (first + count <= 64). */
static inline uint64_t bit_span(unsigned first, unsigned count)
{
    return (count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1) << first;
}

/* Charges one global line of a load or store to the LSU split of counters c: the sectors and
 * hits the L1 counted for it since `sectors0` and `hits0` (the l1 counters before the line),
 * and the request itself with its first line (`first`). */
static inline void count_lsu_global(mem_counters *c, int store, int first, uint64_t sectors0,
                                    uint64_t hits0)
{
    mem_lsu_counters *u = &c->lsu;
    uint64_t sectors = c->l1.sector_accesses - sectors0, hits = c->l1.sector_hits - hits0;
    if (store) {
        u->global_store_requests += (uint64_t)first;
        u->global_store_sectors += sectors;
    } else {
        u->global_load_requests += (uint64_t)first;
        u->global_load_sectors += sectors;
        u->global_load_sector_hits += hits;
    }
}

/* Clears the results memsys_access reports in acc before an access: levels, served records and
 * the per-access counts (the fault is the caller's to clear). */
static inline void memsys_clear_results(mem_access *acc)
{
    acc->levels = 0;
    acc->nserved = 0;
    acc->window_lanes = acc->misaligned_lanes = 0;
    acc->shared_wavefronts = acc->l1_tags = 0;
    acc->const_lookups = acc->const_misses = acc->const_addresses = 0;
    acc->dram_read_bytes = acc->dram_write_bytes = 0;
}

/* mem_hier.c: memsys_texture_read's path through the L1 and below (rq built by the caller). */
int hier_texture(memsys *ms, const mem_ctx *ctx, mem_tex_access *ta, mem_request *rq,
                 mem_fault *f);
int hier_atomic(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                const lane_target *t, uint32_t lanes, mem_fault *f);
int hier_peek(memsys *ms, const mem_ctx *ctx, uint64_t addr, uint8_t *out, uint32_t bytes);
/* L2 hints of request rq for the line at `line_addr` of kind `kind` (into rq->l2). */
void hier_set_l2_hints(memsys *ms, mem_request *rq, uint8_t kind, uint64_t line_addr,
                       uint64_t policy);
/* Adds what one L1 / L2 operation did to the request's counters. Inline: every line of every
 * access adds one or two results, and the call cost as much as the adds. The two levels'
 * counters are of two types with the same five fields, hence one body for both. */
#define HIER_ADD_RESULT(level, r)                                                                  \
    do {                                                                                           \
        (level).sector_accesses += (r)->sector_accesses;                                           \
        (level).sector_hits += (r)->sector_hits;                                                   \
        (level).sector_misses += (r)->sector_misses;                                               \
        (level).evictions += (r)->evictions;                                                       \
        (level).writeback_bytes += (r)->writeback_bytes;                                           \
    } while (0)
static inline void hier_count_l1(mem_request *rq, const cache_result *r)
{
    HIER_ADD_RESULT(rq->counters->l1, r);
}
/* Reads `bytes` bytes (whole sectors of line r, from address `addr`) through L1 `l1` with hints
 * h1 into `out`, adds what the L1 did to rq's counters, and marks the sectors that hit in
 * r->level as MEM_LEVEL_L1 (the sectors it fetched are the next level's to mark). Returns
 * cache_read's status. */
mem_status hier_l1_read_run(cache *l1, mem_request *rq, line_req *r, uint64_t addr,
                            uint32_t bytes, uint8_t *out, const cache_hints *h1);
static inline void hier_count_l2(mem_request *rq, const cache_result *r)
{
    HIER_ADD_RESULT(rq->counters->l2, r);
}
/* Reads through the L2 on behalf of rq (r: what the L2 did, may be NULL). */
mem_status hier_l2_read(memsys *ms, mem_request *rq, uint64_t addr, uint32_t bytes, uint8_t *out,
                        cache_result *r);

/* mem_control.c: a cache-control access, and a fence, of request rq (0, or -1 with *f). */
int control_access(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                   mem_fault *f);
int control_fence(memsys *ms, const mem_ctx *ctx, mem_request *rq, mem_fault *f);

/* mem_lsc.c: an Intel LSC fence (attrs->sfid set) of request rq by the SM of ctx (0, or -1 with
 * *f); the number of tiles (at least 1) and the tile of SM `sm`. */
int lsc_fence(memsys *ms, const mem_ctx *ctx, mem_request *rq, mem_fault *f);
uint32_t lsc_tiles(const memsys *ms);
uint32_t lsc_tile_of_sm(const memsys *ms, uint32_t sm);

/* mem_shared.c: count the shared-memory banks' and the constant cache's work of the lanes
 * `lanes` into c; shared_count returns the access's wavefronts. */
uint32_t shared_count(const memsys *ms, mem_counters *c, const mem_access *acc,
                      const lane_target *t, uint32_t lanes);
void constant_count(memsys *ms, mem_counters *c, const mem_ctx *ctx, const mem_access *acc,
                    const lane_target *t, uint32_t lanes);
/* Counts an access that carries the uniform-address hint (ir_mem_attrs.uniform) into c, and
 * whether its active lanes' addresses met it: all one address, or each lane t's the same as
 * lane t^1's where both are active (docs/statistics.md, "Shared memory"). */
void uniform_count(mem_counters *c, const mem_access *acc);
/* Sets memsys.shared_direct and the shifts beside it from ms->cfg.shared (memsys_create). */
void mem_shared_setup(memsys *ms);
/* The constant-cache address of a constant or parameter lane. */
uint64_t constant_address(const lane_target *t);

/* Copies a run of `bytes` bytes (at most LINE_BYTES_MAX) within one line: whole sectors of 32
 * bytes, mostly, which fixed-size copies make in a few vector moves, not a library call or a
 * byte loop. */
static inline void memsys_copy_run(uint8_t *dst, const uint8_t *src, uint32_t bytes)
{
    if (bytes == 128)
        memcpy(dst, src, 128);
    else if (bytes == 64)
        memcpy(dst, src, 64);
    else if (bytes == 32)
        memcpy(dst, src, 32);
    else
        memcpy(dst, src, bytes);
}

/* Lays the bytes of a write of `w_bytes` at `w_addr` (w_data; only the bytes whose w_mask byte is
 * non-zero; without a mask, those whose bit of w_bits is set (bit b of w_bits[b / 64] for byte
 * b: a store log's line entry, hier_log_l2_line), or all of them when both are NULL) over out,
 * which holds [addr, addr + bytes); the
 * parts of the write outside that range are left out. The L2 parts' reads and the parked loads
 * read memory through pending writes this way (memsys_l2log.c, memsys_pload.c). */
static inline void memsys_overlay_write(uint64_t w_addr, uint32_t w_bytes, const uint8_t *w_data,
                                        const uint8_t *w_mask, const uint64_t *w_bits,
                                        uint64_t addr, uint32_t bytes, uint8_t *out)
{
    if (w_addr >= addr + bytes || w_addr + w_bytes <= addr)
        return;
    uint64_t lo = w_addr > addr ? w_addr : addr;
    uint64_t hi = w_addr + w_bytes < addr + bytes ? w_addr + w_bytes : addr + bytes;
    for (uint64_t a = lo; a < hi; a++) {
        uint64_t i = a - w_addr;
        if (w_mask ? w_mask[i] != 0 : !w_bits || ((w_bits[i / 64] >> (i % 64)) & 1))
            out[a - addr] = w_data[i];
    }
}

#endif

/* Memory-system internals shared by memsys.c (windows, dispatch), mem_hier.c (L1/L2/DRAM paths)
 * and mem_shared.c (shared-memory banks, constant cache). Not part of the interface. */
#ifndef GMS_MEM_MEMSYS_INTERNAL_H
#define GMS_MEM_MEMSYS_INTERNAL_H

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

/* One 128-byte line touched by a warp access: which bytes, and the data. */
typedef struct line_req {
    uint64_t line_addr;
    uint8_t mask[LINE_BYTES_MAX];
    uint8_t data[LINE_BYTES_MAX];
    uint8_t kind; /* LINE_KIND_* */
} line_req;

enum { LINE_KIND_GLOBAL = 0, LINE_KIND_LOCAL = 1 };

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
    cache **l2;        /* one sliced L2 cache (l2[0]) */
    cache **constant;  /* per SM: constant cache (tags only; data comes from the bank) */
    cache **icache;    /* per SM */
    void *mappings[4]; /* storage blocks lent to the per-SM caches */
    size_t mapping_bytes[4];
    uint32_t nmappings;
    cache_hints l2_hints; /* hints of the access in progress, for L2 operations it causes */
    mem_counters *cur;    /* counters of the access in progress */
    mem_counters *per_insn;
    uint32_t ninsns;
    mem_counters unattributed; /* flushes at the end of a run, host-side operations */
    uint64_t persisting_lines; /* set-aside in lines */
    int strip_hints, poison_discard;
    ir_mem_attrs stripped_attrs; /* the access's attributes without hints (strip_hints) */
    policy_window window;     /* bytes 0: none */
    /* scratch for one access */
    line_req reqs[LINE_SCRATCH];
    uint32_t nreqs;
    uint32_t last_req;        /* request the previous piece went to */
    int16_t req_hash[512];    /* -1 when empty; emptied slot by slot after each access */
    uint16_t req_slots[LINE_SCRATCH]; /* hash slot of each line request */
    lane_piece pieces[LINE_SCRATCH * 2];
    uint32_t npieces;
};

/* memsys.c: fills *f for lane `lane` and returns -1. */
int mem_fail(mem_fault *f, mem_fault_kind kind, uint32_t lane, uint64_t addr, uint32_t bytes,
             ir_space space, const char *what);

/* mem_hier.c */
int hier_create(memsys *ms, diag_list *dl);
void hier_destroy(memsys *ms);
int hier_global_local(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                      uint32_t lanes, mem_fault *f);
int hier_atomic(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                uint32_t lanes, mem_fault *f);
uint64_t hier_local_backing(const mem_ctx *ctx, uint32_t lane, uint64_t offset);
cache *hier_l2_slice(const memsys *ms, uint64_t addr);
int hier_peek(memsys *ms, const mem_ctx *ctx, uint64_t addr, uint8_t *out, uint32_t bytes);
int hier_cache_control(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                       uint32_t lanes, mem_fault *f);

/* mem_shared.c */
void shared_count(memsys *ms, const mem_access *acc, const lane_target *t, uint32_t lanes);
void constant_count(memsys *ms, const mem_ctx *ctx, const mem_access *acc, const lane_target *t,
                    uint32_t lanes);

#endif

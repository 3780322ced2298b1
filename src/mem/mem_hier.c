/* The cache hierarchy: per-SM L1 data caches on a sliced L2 on DRAM, all carrying data, and the
 * path of a warp's global and local accesses through them.
 *
 * A warp access is first split into the lines it touches (coalescing, mem_coalesce.c; 128
 * bytes, or the preset's smaller line); each line is then one L1 request for the sectors it
 * needs. Global loads allocate in L1 unless the access bypasses
 * it (an L1 bypass or volatile read, strong loads at a scope wider than the CTA, or a GPU that
 * does not cache global loads); global stores write through to L2 without allocating; local
 * lines are written back. Atomics are performed at L2. Surface accesses (image ops, whose
 * attributes carry an image_dim) never touch the L1: reads and writes go to the L2, leaving any
 * L1 copy of the line as it was (docs/images.md, "Caching"). The request (memsys_internal.h) travels
 * with every call between levels: the adapters below charge what each level did, including
 * write-backs of evicted lines, to its instruction, and record which level served each sector. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/bits.h"
#include "base/pages.h"
#include "mem/mem_hier.h"
#include "mem/mem_hints.h"
#include "mem/memsys_internal.h"

/* ---- counters and served levels (the access's served records: mem_hier_served.c) ---- */

mem_status hier_l1_read_run(cache *l1, mem_request *rq, line_req *r, uint64_t addr,
                            uint32_t bytes, uint8_t *out, const cache_hints *h1)
{
    cache_result res;
    mem_status st = cache_read(l1, addr, bytes, out, h1, &res);
    hier_count_l1(rq, &res);
    for (uint64_t hit = res.hit_sectors; hit; hit &= hit - 1)
        r->level[__builtin_ctzll(hit)] = MEM_LEVEL_L1;
    return st;
}

/* Sets the level of the touched sectors of the request's line within [addr, addr + bytes): the
 * level that served a read (L2, or DRAM for the sectors `l2_hits` does not cover when reading
 * through L2) or that a write reached. Calls for other lines (write-backs of evicted lines,
 * wider fills) record nothing. A line of one level (line_req.line_level: a store's) stays so
 * when the whole line is written; a part of it turns its levels into per-sector ones first. */
static void record_levels(const memsys *ms, const mem_request *rq, uint64_t addr, uint32_t bytes,
                          uint8_t level, int l2_read, uint64_t l2_hits)
{
    line_req *ln = rq->line;
    if (!ln || addr - ln->line_addr >= ms->line_bytes)
        return;
    if (!l2_read && addr == ln->line_addr && bytes == ms->line_bytes) { /* the whole line */
        if (ln->line_level != MEM_LEVEL_NONE) { /* a store line: still one level */
            ln->line_level = level;
            return;
        }
        for (uint64_t m = ln->sectors; m; m &= m - 1) ln->level[__builtin_ctzll(m)] = level;
        return;
    }
    if (ln->line_level != MEM_LEVEL_NONE) { /* one level so far: per sector from here on */
        for (uint64_t m = ln->sectors; m; m &= m - 1)
            ln->level[__builtin_ctzll(m)] = ln->line_level;
        ln->line_level = MEM_LEVEL_NONE;
    }
    unsigned s1 = ms->l1_sector_shift, s2 = ms->l2_sector_shift;
    uint32_t off = (uint32_t)(addr - ln->line_addr), last = off + bytes - 1;
    for (uint32_t s = off >> s1; s <= last >> s1; s++) {
        if (!((ln->sectors >> s) & 1))
            continue;
        uint8_t lv = level;
        if (l2_read && s1 == s2) { /* equal sectors: the L2 sector of the same number */
            lv = (l2_hits >> s) & 1 ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM;
        } else if (l2_read) {
            uint32_t first2 = (s << s1) >> s2, last2 = (((s + 1) << s1) - 1) >> s2;
            uint64_t need = (last2 - first2 >= 63 ? UINT64_MAX
                                                  : ((UINT64_C(1) << (last2 - first2 + 1)) - 1))
                            << first2;
            lv = (l2_hits & need) == need ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM;
        }
        ln->level[s] = lv;
    }
}

/* ---- adapters between levels ---- */

/* The request a next-level call belongs to: the access's, or the memory system's own work. */
static mem_request *request_of(memsys *ms, void *request)
{
    return request ? request : &ms->own_work;
}

mem_status hier_l2_read(memsys *ms, mem_request *rq, uint64_t addr, uint32_t bytes, uint8_t *out,
                        cache_result *r)
{
    cache_result local;
    cache_result *res = r ? r : &local;
    rq->l2.request = rq;
    if (hier_reads_deferred(ms)) { /* a parked load by SMs: made later (memsys_pload.c) */
        memset(res, 0, sizeof *res);
        return hier_defer_l2_read(ms, rq, &rq->l2, addr, bytes, out);
    }
    mem_status s = cache_read(ms->l2, addr, bytes, out, &rq->l2, res);
    hier_count_l2(rq, res);
    record_levels(ms, rq, addr, bytes, MEM_LEVEL_L2, 1, res->hit_sectors);
    return s;
}

/* The coalescer's bits of the stored bytes when the write is the request's own line with its
 * mask (a store's write-through or a surface store: the bits are the mask's nonzero bytes);
 * NULL otherwise. */
static const uint64_t *own_line_bits(const memsys *ms, const mem_request *rq, uint64_t addr,
                                     uint32_t bytes, const uint8_t *byte_mask)
{
    const line_req *ln = rq->line;
    return ln && byte_mask == ln->mask && addr == ln->line_addr && bytes == ms->line_bytes
               ? ln->byte_bits
               : NULL;
}

/* A new entry at the end of `log` for an access of rq to [addr, addr + bytes) of the L2, its
 * key and request fields filled; NULL (the log marked failed) when the log cannot grow. */
static logged_store *log_entry(const memsys *ms, memsys_store_log *log, const mem_request *rq,
                               uint64_t addr, uint32_t bytes)
{
    if (log->count == log->cap) {
        /* one block: the entries, then their keys (moved up to the new end of the entries) */
        uint32_t cap = log->cap ? log->cap * 2 : 64;
        logged_store *e = realloc(log->entries, cap * (sizeof *e + 1));
        if (!e) {
            log->failed = 1;
            return NULL;
        }
        log->keys = (uint8_t *)(e + cap);
        memmove(log->keys, (uint8_t *)(e + log->cap), log->count);
        log->entries = e;
        log->cap = cap;
    }
    /* here, on the SM's thread, rather than in each part (memsys_store_logs_apply_part) */
    uint32_t set = cache_set_of(ms->l2, addr);
    log->keys[log->count] = memsys_l2_key(set);
    logged_store *e = &log->entries[log->count++];
    e->set = set;
    e->attrs = rq->attrs;
    e->insn_id = rq->insn_id;
    e->sm = rq->sm;
    e->counters = rq->counters;
    e->l2 = rq->l2;
    e->addr = addr;
    e->bytes = bytes;
    e->has_data = 0;
    return e;
}

/* Entry e (of `log`, at its address and size) as a write of `data` under byte_mask (NULL: every
 * byte) with the line's store bits `bits` (NULL: none kept). */
static void entry_write(const memsys *ms, memsys_store_log *log, logged_store *e,
                        const uint8_t *data, const uint8_t *byte_mask, const uint64_t *bits)
{
    e->read = 0;
    log->written |= memsys_log_line_bit(e->addr, ms->line_bytes);
    e->has_bits = bits != NULL;
    if (bits)
        memcpy(e->bits, bits, sizeof e->bits);
    e->has_mask = byte_mask != NULL;
    if (e->bytes == LINE_BYTES_MAX) { /* fixed-size copies: no library call */
        memcpy(e->data, data, LINE_BYTES_MAX);
        if (byte_mask)
            memcpy(e->mask, byte_mask, LINE_BYTES_MAX);
    } else {
        memcpy(e->data, data, e->bytes);
        if (byte_mask)
            memcpy(e->mask, byte_mask, e->bytes);
    }
}

/* Adds a write of rq to the L2 to rq->log (memsys_store_deferred), with its line's bits when
 * own_line_bits has them, so that applying it needs no mask conversion. */
mem_status hier_log_l2_access(const memsys *ms, memsys_store_log *log, const mem_request *rq,
                              uint64_t addr, uint32_t bytes, const uint8_t *data,
                              const uint8_t *byte_mask)
{
    logged_store *e = log_entry(ms, log, rq, addr, bytes);
    if (!e)
        return MEM_ERR_NOMEM;
    if (!data) {
        e->read = 1;
        log->reads++;
        return MEM_OK;
    }
    entry_write(ms, log, e, data, byte_mask, own_line_bits(ms, rq, addr, bytes, byte_mask));
    return MEM_OK;
}

mem_status hier_log_l2_line(const memsys *ms, memsys_store_log *log, const mem_request *rq,
                            uint64_t addr, const uint8_t *data, const uint8_t *byte_mask,
                            const uint64_t *bits)
{
    logged_store *e = log_entry(ms, log, rq, addr, LINE_BYTES_MAX);
    if (!e)
        return MEM_ERR_NOMEM;
    entry_write(ms, log, e, data, byte_mask, bits);
    return MEM_OK;
}

/* A write of rq to the L2; `bits`: own_line_bits of it, or NULL. */
static mem_status l2_write_bits(memsys *ms, mem_request *rq, uint64_t addr, uint32_t bytes,
                                const uint8_t *data, const uint8_t *byte_mask,
                                const uint64_t *bits)
{
    cache_result r;
    rq->l2.request = rq;
    mem_status s = bits ? cache_write_line_bits(ms->l2, addr, data, byte_mask, bits, &rq->l2, &r)
                        : cache_write_masked(ms->l2, addr, bytes, data, byte_mask, &rq->l2, &r);
    hier_count_l2(rq, &r);
    uint8_t level = r.write_through_bytes ? MEM_LEVEL_DRAM : MEM_LEVEL_L2;
    line_req *ln = rq->line;
    if (ln && addr == ln->line_addr && bytes == ms->line_bytes) {
        /* record_levels' whole-line case here, inline: the request's own line written */
        if (ln->line_level != MEM_LEVEL_NONE)
            ln->line_level = level;
        else
            for (uint64_t m = ln->sectors; m; m &= m - 1) ln->level[__builtin_ctzll(m)] = level;
        return s;
    }
    record_levels(ms, rq, addr, bytes, level, 0, 0);
    return s;
}

static mem_status l2_write_for(memsys *ms, mem_request *rq, uint64_t addr, uint32_t bytes,
                               const uint8_t *data, const uint8_t *byte_mask)
{
    if (rq->log) {
        rq->log->writes++;
        if (!rq->log->immediate)
            return hier_log_l2_access(ms, rq->log, rq, addr, bytes, data, byte_mask);
    } else if (ms->defer && hier_reads_deferred(ms)) { /* a parked load's L1 victim */
        memsys_store_log *log = hier_deferred_log(ms, rq);
        log->writes++;
        return hier_log_l2_access(ms, log, rq, addr, bytes, data, byte_mask);
    }
    return l2_write_bits(ms, rq, addr, bytes, data, byte_mask,
                         own_line_bits(ms, rq, addr, bytes, byte_mask));
}

int hier_apply_store_log(memsys *ms, memsys_store_log *log)
{
    mem_status worst = MEM_OK;
    for (uint32_t i = 0; i < log->count; i++) {
        const logged_store *e = &log->entries[i];
        mem_request rq = {.attrs = e->attrs, .insn_id = e->insn_id, .sm = e->sm,
                          .counters = e->counters, .l2 = e->l2};
        if (e->read) { /* a parked load's read, its bytes taken already */
            cache_result r;
            rq.l2.request = &rq;
            mem_status st = cache_read(ms->l2, e->addr, e->bytes, NULL, &rq.l2, &r);
            hier_count_l2(&rq, &r);
            if (st != MEM_OK)
                worst = st;
            continue;
        }
        mem_status st = l2_write_bits(ms, &rq, e->addr, e->bytes, e->data,
                                      e->has_mask ? e->mask : NULL, e->has_bits ? e->bits : NULL);
        if (st != MEM_OK)
            worst = st;
    }
    log->count = 0;
    log->writes = log->reads = 0;
    log->written = 0;
    int failed = log->failed;
    log->failed = 0;
    return worst == MEM_OK && !failed ? 0 : -1;
}

static mem_status l2_read(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    memsys *ms = ctx;
    return hier_l2_read(ms, request_of(ms, request), addr, bytes, out, NULL);
}

static mem_status l2_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                           const uint8_t *data, const uint8_t *byte_mask)
{
    memsys *ms = ctx;
    return l2_write_for(ms, request_of(ms, request), addr, bytes, data, byte_mask);
}

static mem_status dram_fill(void *ctx, void *request, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    memsys *ms = ctx;
    request_of(ms, request)->counters->dram.read_bytes += bytes;
    return dram_read(ms->store, addr, bytes, out);
}

static mem_status dram_writeback(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                 const uint8_t *data, const uint8_t *byte_mask)
{
    memsys *ms = ctx;
    request_of(ms, request)->counters->dram.write_bytes += bytes;
    return dram_write(ms->store, addr, bytes, data, byte_mask);
}

/* The constant and instruction caches keep tags only (cache_config.tags_only): the executor
 * reads their bytes elsewhere, and a fill hands them zeros. */
static mem_status tags_only_read(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                 uint8_t *out)
{
    (void)ctx, (void)request, (void)addr;
    memset(out, 0, bytes);
    return MEM_OK;
}

static mem_status tags_only_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                  const uint8_t *data, const uint8_t *byte_mask)
{
    (void)ctx, (void)request, (void)addr, (void)bytes, (void)data, (void)byte_mask;
    return MEM_OK;
}

mem_status hier_l2_write(memsys *ms, mem_request *rq, uint64_t addr, uint32_t bytes,
                         const uint8_t *data, const uint8_t *byte_mask)
{
    return l2_write_for(ms, rq, addr, bytes, data, byte_mask);
}

/* ---- creation ---- */

/* A mapping of `bytes` (a multiple of 4 KiB) lent to per-SM caches, advised to use 2 MiB pages
 * (huge) or 4 KiB pages and kept in ms->mappings for hier_destroy; NULL when it cannot be made
 * (the caches then allocate their own). */
static uint8_t *lent_mapping(memsys *ms, size_t bytes, int huge)
{
    if (!bytes || ms->nmappings == sizeof ms->mappings / sizeof ms->mappings[0])
        return NULL;
    if (huge) /* its last part may then take a 2 MiB page too */
        bytes = pages_dense_bytes(bytes);
    uint8_t *p = pages_map_aligned(bytes);
    if (p) {
        pages_advise(p, bytes, huge);
        ms->mappings[ms->nmappings] = p;
        ms->mapping_bytes[ms->nmappings++] = bytes;
    }
    return p;
}

/* n caches of one configuration, their arrays carved from one mapping of 4 KiB pages, or, with
 * `huge`, from three (base/pages.h). With it, the arrays a look-up reaches by set (line records,
 * tag prints) of all n share one on 2 MiB pages: each SM's L1 touches its records all over under
 * a data-heavy kernel, and the h100's 132 L1s' 10 MiB of them took 2,700 faults of 4 KiB pages
 * in a 1 Mi-element saxpy. Their byte masks and data share one on 2 MiB pages too, the caches'
 * data slots interleaved (cache_config.data_storage): SMs that fill at similar rates use a
 * dense prefix of it, where each cache's own array in fill order would have had a 2 MiB page
 * span several SMs' arrays and commit them all (2,600 faults of 4 KiB pages in that saxpy).
 * The rest (the persisting-line links, the scratch line) stays on 4 KiB pages. (An instruction
 * cache's few used sets would commit 2 MiB pages for a few 4 KiB ones: huge is 0 for it.) */
static cache **cache_array(memsys *ms, uint32_t n, const cache_config *config,
                           const cache_next_level *next, int huge, diag_list *dl)
{
    cache **a = calloc(n ? n : 1, sizeof *a);
    cache_config cc = *config;
    size_t index_each = cache_index_storage_bytes(config); /* multiples of 64 bytes */
    size_t data_all = cache_data_storage_bytes(config, n);
    int split = huge && n > 1 && index_each * n >= PAGES_HUGE_BYTES;
    size_t each = cache_storage_bytes(config);
    if (split)
        each -= index_each + cache_data_storage_bytes(config, 1);
    each = pages_round_up(each);
    uint8_t *index_block = NULL, *data_block = NULL, *block = NULL;
    if (a && n > 1) {
        if (split) {
            index_block = lent_mapping(ms, pages_round_up(index_each * n), 1);
            data_block = index_block ? lent_mapping(ms, pages_round_up(data_all), 1) : NULL;
        }
        block = lent_mapping(ms, each * n, 0);
    }
    for (uint32_t i = 0; a && i < n; i++) {
        cc.storage = block ? block + each * i : NULL;
        cc.storage_bytes = block ? each : 0;
        cc.index_storage = index_block ? index_block + index_each * i : NULL;
        cc.index_storage_bytes = index_block ? index_each : 0;
        cc.data_storage = data_block;
        cc.data_storage_bytes = data_block ? data_all : 0;
        cc.data_stride = n;
        cc.data_index = i;
        if (cache_create(&cc, next, dl, &a[i]) != MEM_OK) {
            for (uint32_t j = 0; j < i; j++) cache_destroy(a[j]);
            free(a);
            return NULL;
        }
    }
    return a;
}

int hier_create(memsys *ms, diag_list *dl)
{
    const memsys_config *c = &ms->cfg;
    if (!c->l2.slices || !c->l2.line_bytes || !c->l2.ways || c->l1.line_bytes != c->l2.line_bytes ||
        c->l2.line_bytes > LINE_BYTES_MAX ||
        c->l2.bytes % ((uint64_t)c->l2.slices * c->l2.line_bytes * c->l2.ways)) {
        diag_add(dl, DIAG_ERROR, "MEM-SYS-001", "", 0, 0,
                 "the L2 must split into %u equal slices of whole sets, and L1 and L2 lines must "
                 "be equal and at most %d bytes", c->l2.slices, LINE_BYTES_MAX);
        return -1;
    }
    if (c->tiles > 1 && (c->sm_count % c->tiles || c->l2.slices % c->tiles)) {
        diag_add(dl, DIAG_ERROR, "MEM-SYS-001", "", 0, 0,
                 "%u tiles must split the %u SMs and the %u L2 slices evenly", c->tiles,
                 c->sm_count, c->l2.slices);
        return -1;
    }
    cache_config cc;
    cache_next_level to_dram = {ms, dram_fill, dram_writeback, true};
    cache_config_default(&cc, c->l2.bytes, c->l2.ways);
    cc.line_bytes = c->l2.line_bytes;
    cc.sector_bytes = c->l2.sector_bytes;
    cc.fill_bytes = c->l2.dram_fill_bytes;
    cc.slices = c->l2.slices;
    cc.slice_modulo = c->l2.slice_modulo;
    if (c->l2.write_through)
        cc.write_through_kinds = 1u << LINE_KIND_GLOBAL | 1u << LINE_KIND_LOCAL;
    if (cache_create(&cc, &to_dram, dl, &ms->l2) != MEM_OK)
        ms->l2 = NULL;
    cache_next_level to_l2 = {ms, l2_read, l2_write, false};
    cache_config_default(&cc, c->l1.bytes, c->l1.ways);
    cc.line_bytes = c->l1.line_bytes;
    cc.sector_bytes = c->l1.sector_bytes;
    cc.fill_bytes = cc.sector_bytes;
    /* The L1 has no set-aside: an evict-last L1 class may protect any line (only a set full of
     * evict-last lines evicts one of them). */
    cc.persisting_limit_lines = c->l1.bytes / c->l1.line_bytes;
    cc.write_through_kinds = c->l1.global_store_write_through ? 1u << LINE_KIND_GLOBAL : 0;
    if (!c->l1.local_write_back)
        cc.write_through_kinds |= 1u << LINE_KIND_LOCAL;
    ms->l1 = ms->l2 ? cache_array(ms, c->sm_count, &cc, &to_l2, 1, dl) : NULL;
    cache_next_level tags = {ms, tags_only_read, tags_only_write, false};
    cache_config_default(&cc, c->constant.bytes, c->constant.ways);
    cc.line_bytes = c->constant.line_bytes;
    cc.sector_bytes = c->constant.line_bytes;
    cc.fill_bytes = cc.sector_bytes;
    cc.tags_only = true;
    ms->constant = ms->l1 ? cache_array(ms, c->sm_count, &cc, &tags, 0, dl) : NULL;
    cache_config_default(&cc, c->icache.bytes, c->icache.ways);
    cc.line_bytes = c->icache.line_bytes;
    cc.sector_bytes = c->icache.line_bytes;
    cc.fill_bytes = cc.sector_bytes;
    cc.tags_only = true;
    ms->icache = ms->constant ? cache_array(ms, c->sm_count, &cc, &tags, 0, dl) : NULL;
    return ms->icache ? 0 : -1;
}

static void destroy_array(cache **a, uint32_t n)
{
    for (uint32_t i = 0; a && i < n; i++) cache_destroy(a[i]);
    free(a);
}

void hier_destroy(memsys *ms)
{
    destroy_array(ms->l1, ms->cfg.sm_count);
    destroy_array(ms->constant, ms->cfg.sm_count);
    destroy_array(ms->icache, ms->cfg.sm_count);
    cache_destroy(ms->l2);
    for (uint32_t i = 0; i < ms->nmappings; i++) munmap(ms->mappings[i], ms->mapping_bytes[i]);
}

/* ---- Intel LSC reads that go around a level (the hints themselves: mem_hints.h) ---- */

/* Before an uncached read: the level's copy of the line is written back if dirty and dropped, so
 * that the read returns the newest bytes from the level below and leaves nothing behind. */
static void lsc_uncached_read(memsys *ms, mem_request *rq, cache *l1, uint64_t line,
                              const ir_mem_attrs *a)
{
    cache_result res;
    if (a->l1_ctl == IR_CC_UNCACHED) {
        cache_invalidate_line(l1, line, true, rq, &res);
        hier_count_l1(rq, &res);
    }
    if (a->l2_ctl == IR_CC_UNCACHED) {
        cache_invalidate_line(ms->l2, line, true, rq, &res);
        hier_count_l2(rq, &res);
    }
}

/* After a read-invalidate (last-use) read: the line is dropped at the level, its dirty bytes
 * written back first. */
static void lsc_read_invalidate(memsys *ms, mem_request *rq, cache *l1, uint64_t line,
                                const ir_mem_attrs *a)
{
    cache_result res;
    if (a->l1_ctl == IR_CC_READ_INVALIDATE) {
        cache_invalidate_line(l1, line, true, rq, &res);
        hier_count_l1(rq, &res);
    }
    if (a->l2_ctl == IR_CC_READ_INVALIDATE) {
        cache_invalidate_line(ms->l2, line, true, rq, &res);
        hier_count_l2(rq, &res);
    }
}

/* L2 hints of the request for the line at `line_addr`: a policy descriptor decides per address;
 * otherwise the access's L2 class; otherwise evict-first for a streaming store or a last-use read
 * of global data; otherwise, for global data, the launch's access-policy window. */
void hier_set_l2_hints(memsys *ms, mem_request *rq, uint8_t kind, uint64_t line_addr,
                       uint64_t policy)
{
    const ir_mem_attrs *a = rq->attrs;
    cache_hints *h = &rq->l2;
    memset(h, 0, sizeof *h);
    h->kind = kind;
    h->request = rq;
    uint8_t fallback = a->write_mode == IR_WRITE_STREAMING ||
                               ((a->l1 & IR_L1_LAST_USE) && kind == LINE_KIND_GLOBAL)
                           ? CACHE_ALLOC_FIRST
                           : CACHE_ALLOC_UNCHANGED;
    uint8_t evict = a->l2_evict;
    if (a->has_policy) {
        int valid;
        uint8_t p = policy_priority(policy, line_addr, &valid);
        if (p != IR_EVICT_NONE)
            evict = p;
    }
    if (evict == IR_EVICT_NONE && fallback == CACHE_ALLOC_UNCHANGED && kind == LINE_KIND_GLOBAL)
        evict = policy_window_priority(&ms->window, line_addr);
    h->alloc = alloc_of_evict(evict, fallback);
    h->write_mode = cache_write_mode_of(a);
    lsc_l2_hints(a, h);
    if (a->fill_bytes > ms->cfg.l2.dram_fill_bytes)
        h->fill_bytes = a->fill_bytes < ms->line_bytes ? a->fill_bytes : ms->line_bytes;
}

/* Whether a global load skips the L1 (it still counts as an L1 request whose sectors miss):
 * when it asks to, and when its ordering needs data no older than the L2's, i.e. volatile and
 * strong loads at a scope wider than the CTA. */
static int global_load_bypasses_l1(const memsys *ms, const ir_mem_attrs *a)
{
    if (a->l1 & (IR_L1_BYPASS | IR_L1_INVALIDATE))
        return 1;
    if (a->sem == IR_SEM_VOLATILE || a->sem == IR_SEM_MMIO)
        return 1;
    if ((a->sem == IR_SEM_RELAXED || a->sem == IR_SEM_ACQUIRE || a->sem == IR_SEM_SC) &&
        a->scope != IR_SCOPE_CTA)
        return 1;
    if (a->l1_ctl != IR_CC_DEFAULT) /* Intel LSC: every control but uncached caches at L1 */
        return a->l1_ctl == IR_CC_UNCACHED;
    if (!ms->cfg.l1.cache_global_loads && !(a->l1 & (IR_L1_ALLOCATE | IR_L1_READ_ONLY)))
        return 1;
    return 0;
}

/* ---- loads and stores ---- */

/* Reads the requested sectors of one line through the L1 (or around it), in runs of
 * consecutive sectors, into r->data. */
static mem_status load_line(memsys *ms, mem_request *rq, cache *l1, line_req *r, int bypass,
                            cache_hints *h1)
{
    uint32_t sector = ms->cfg.l1.sector_bytes;
    for (uint64_t unread = r->sectors; unread != 0;) {
        unsigned s = (unsigned)__builtin_ctzll(unread);
        uint64_t run = ~(unread >> s);
        unsigned count = run == 0 ? 64 : (unsigned)__builtin_ctzll(run);
        uint64_t run_bits = bit_span(s, count);
        unread &= ~run_bits;
        uint64_t addr = r->line_addr + s * sector;
        uint32_t len = count * sector;
        mem_status st;
        if (bypass) {
            if (!hier_is_surface(rq->attrs)) {
                rq->counters->l1.sector_accesses += count;
                rq->counters->l1.sector_misses += count;
            }
            st = hier_l2_read(ms, rq, addr, len, r->data + s * sector, NULL);
        } else {
            /* A line the read-only path allocates is marked so (IR_FENCE_INVALIDATE_TEX). */
            h1->kind = r->kind == LINE_KIND_GLOBAL && (rq->attrs->l1 & IR_L1_READ_ONLY)
                           ? LINE_KIND_GLOBAL_READ_ONLY
                           : r->kind;
            st = hier_l1_read_run(l1, rq, r, addr, len, r->data + s * sector, h1);
        }
        if (st != MEM_OK)
            return st;
    }
    return MEM_OK;
}

static int nomem(mem_fault *f, const mem_access *acc)
{
    uint32_t lane = (uint32_t)__builtin_ctz(acc->active | 1u);
    return mem_fail(f, MEM_FAULT_NOMEM, lane, acc->addr[lane], (uint32_t)acc->elem_bytes * acc->vec,
                    IR_SPACE_GLOBAL, "the backing store could not grow");
}

/* What a read's hints do after the data arrived: a last-use read of a whole local line ends the
 * line's life (no write-back ever); a fill size above the line brings the other lines of the
 * aligned fill block into L2. */
static mem_status after_load(memsys *ms, mem_request *rq, cache *l1, const line_req *r,
                             const ir_mem_attrs *a)
{
    if (r->kind == LINE_KIND_GLOBAL)
        lsc_read_invalidate(ms, rq, l1, r->line_addr, a);
    if (r->kind == LINE_KIND_LOCAL && (a->l1 & IR_L1_LAST_USE)) {
        if (coalesce_whole_line(ms, r)) {
            cache_result res;
            cache_discard_line(l1, r->line_addr, &res);
            hier_count_l1(rq, &res);
        }
    }
    if (r->kind == LINE_KIND_GLOBAL && a->fill_bytes > ms->line_bytes) {
        /* Wider fills, not accesses: only what they evict and write back is counted (and the
         * DRAM bytes they read, by the DRAM adapter). */
        uint64_t block = a->fill_bytes, first = r->line_addr & ~(block - 1);
        for (uint64_t n = first; n < first + block; n += ms->line_bytes) {
            if (n == r->line_addr)
                continue;
            cache_result res;
            mem_status st = cache_read(ms->l2, n, ms->line_bytes, NULL, &rq->l2, &res);
            rq->counters->l2.evictions += res.evictions;
            rq->counters->l2.writeback_bytes += res.writeback_bytes;
            if (st != MEM_OK)
                return st;
        }
    }
    return MEM_OK;
}

/* Whether the global lines of a load with attributes `a` go around the L1. */
static int global_lines_bypass(const memsys *ms, const ir_mem_attrs *a)
{
    return hier_is_surface(a) || global_load_bypasses_l1(ms, a);
}

/* Reads one line of a load; `global_bypass`: global_lines_bypass of the load's attributes. */
static mem_status read_line(memsys *ms, mem_request *rq, cache *l1, line_req *r, cache_hints *h1,
                            int global_bypass)
{
    const ir_mem_attrs *a = rq->attrs;
    int bypass = r->kind == LINE_KIND_GLOBAL && global_bypass;
    if (bypass && (a->l1 & IR_L1_INVALIDATE)) {
        /* A volatile read: drop the L1 copy and refetch the line from memory (the L2 copy is
         * written back and dropped too). */
        cache_result res;
        cache_invalidate_line(l1, r->line_addr, true, rq, &res);
        hier_count_l1(rq, &res);
        cache_invalidate_line(ms->l2, r->line_addr, true, rq, &res);
        hier_count_l2(rq, &res);
    }
    if (r->kind == LINE_KIND_GLOBAL)
        lsc_uncached_read(ms, rq, l1, r->line_addr, a);
    mem_status st = load_line(ms, rq, l1, r, bypass, h1);
    return st == MEM_OK ? after_load(ms, rq, l1, r, a) : st;
}

/* read_line for a line of a kind that l1_hit_kinds allows (so neither bypass nor LSC control
 * nor a wider fill applies): cache_read_line_miss reads the line's missing run through the L1
 * and the L2 in one call, and the L2's read is counted and its levels recorded here as
 * hier_l2_read (the L1's next level) does; any other line, one whose sectors all hit among
 * them, takes read_line. *taken_out (OUT): whether cache_read_line_miss took the line.
 * `served`: whether the access wants its served records; without, a taken line's levels are
 * left unwritten. */
static mem_status read_missed_line(memsys *ms, mem_request *rq, cache *l1, line_req *r,
                                   cache_hints *h1, int global_bypass, int *taken_out,
                                   uint32_t l2_set, int served)
{
    h1->kind = r->kind == LINE_KIND_GLOBAL && (rq->attrs->l1 & IR_L1_READ_ONLY)
                   ? LINE_KIND_GLOBAL_READ_ONLY
                   : r->kind;
    rq->l2.request = rq;
    cache_result res, res2;
    bool taken;
    mem_status st = cache_read_line_miss(l1, ms->l2, r->line_addr, r->sectors, h1, &rq->l2,
                                         r->data, &res, &res2, &l2_set, &taken);
    *taken_out = taken;
    if (!taken)
        return read_line(ms, rq, l1, r, h1, global_bypass);
    hier_count_l2(rq, &res2);
    if (!served) {
        hier_count_l1(rq, &res);
        return st;
    }
    /* The L2 read was the L1's missing run: its sectors by the L2's hits, as record_levels
     * does; then the L1's hits, as load_line does. */
    uint64_t missing = r->sectors & ~res.hit_sectors;
    uint64_t l2_hit = res2.hit_sectors & missing;
    if (ms->l1_sector_shift == ms->l2_sector_shift && missing == r->sectors &&
        (l2_hit == 0 || l2_hit == missing)) {
        /* every sector missed in the L1 and was served by one level (a scattered load's
         * sector): one level for the line, and its slice from the L2 set of the read */
        r->line_level = l2_hit ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM;
        r->l2_slice = (uint16_t)cache_slice_of_set(ms->l2, l2_set);
    } else if (ms->l1_sector_shift == ms->l2_sector_shift) { /* record_levels' equal sectors */
        for (uint64_t m = missing; m; m &= m - 1) {
            unsigned s = (unsigned)__builtin_ctzll(m);
            r->level[s] = (res2.hit_sectors >> s) & 1 ? MEM_LEVEL_L2 : MEM_LEVEL_DRAM;
        }
    } else {
        unsigned first = (unsigned)__builtin_ctzll(missing);
        unsigned count = (unsigned)__builtin_ctzll(~(missing >> first)); /* one run */
        record_levels(ms, rq, r->line_addr + ((uint64_t)first << ms->l1_sector_shift),
                      count << ms->l1_sector_shift, MEM_LEVEL_L2, 1, res2.hit_sectors);
    }
    for (uint64_t hit = res.hit_sectors; hit; hit &= hit - 1)
        r->level[__builtin_ctzll(hit)] = MEM_LEVEL_L1;
    hier_count_l1(rq, &res);
    return st;
}

/* l1_hit_kinds of a load that is not a surface access, whose global_load_bypasses_l1 is
 * `bypass` (hier_global_local has it already). */
static uint32_t l1_hit_kinds_of(const memsys *ms, const ir_mem_attrs *a, int bypass)
{
    uint32_t kinds = 0;
    if (!bypass && a->l1_ctl == IR_CC_DEFAULT && a->l2_ctl == IR_CC_DEFAULT &&
        a->fill_bytes <= ms->line_bytes)
        kinds |= 1u << LINE_KIND_GLOBAL;
    if (!(a->l1 & IR_L1_LAST_USE))
        kinds |= 1u << LINE_KIND_LOCAL;
    return kinds;
}

/* Which kinds of line (bit LINE_KIND_*) a load with attributes `a` reads exactly as
 * read_line would when every requested sector hits in L1 (read_line's only work is then
 * load_line's L1 reads): not a surface access, no L1 bypass, no LSC cache control, no
 * wider fill, and for local lines no last-use discard. */
static uint32_t l1_hit_kinds(const memsys *ms, const ir_mem_attrs *a)
{
    return hier_is_surface(a) ? 0 : l1_hit_kinds_of(ms, a, global_load_bypasses_l1(ms, a));
}

/* Load lines reqs[i ..) of one kind, up to reqs[end - 1], whose requested sectors all hit in L1
 * (cache_read_hits), one after the other until one does not: the data, counts and served
 * levels as load_line's L1 reads give them (`mark`: in their line_level; otherwise the caller
 * tells hier_report_levels), and the lines' LSU counts as count_lsu_line gives them. Returns how
 * many lines hit (the next one, if any, must go the long way; nothing of it
 * changed). */
static uint32_t read_lines_hit(memsys *ms, mem_request *rq, cache *l1, uint32_t i, uint32_t end,
                               uint8_t alloc, const uint32_t *held, int mark)
{
    line_req *r = &ms->reqs[i];
    uint64_t k;
    uint32_t n = cache_read_hits(l1, end - i, &r->line_addr, &r->sectors, r->data, sizeof *r,
                                 alloc, held ? held + i : NULL, &k);
    if (!n)
        return 0;
    for (uint32_t j = 0; j < n && mark; j++)
        r[j].line_level = MEM_LEVEL_L1; /* hier_report_levels: every sector L1 */
    rq->counters->l1.sector_accesses += k;
    rq->counters->l1.sector_hits += k;
    mem_lsu_counters *u = &rq->counters->lsu;
    if (r->kind == LINE_KIND_LOCAL) {
        u->local_load_requests += (uint64_t)(i == 0);
        u->local_load_sectors += k;
        u->local_load_sector_hits += k;
    } else {
        u->global_load_requests += (uint64_t)(i == 0);
        u->global_load_sectors += k;
        u->global_load_sector_hits += k;
    }
    return n;
}

int hier_global_lane_in_l1(const memsys *ms, const mem_ctx *ctx, const ir_mem_attrs *attrs,
                           uint64_t addr)
{
    /* The sector first: a missing one (a load that parks) needs no look at the attributes. */
    uint64_t line = addr & ~(uint64_t)(ms->line_bytes - 1);
    uint64_t sector = UINT64_C(1) << ((addr - line) >> ms->l1_sector_shift);
    if (!(cache_lookup_sectors(ms->l1[ctx->sm], line) & sector))
        return 0;
    return (l1_hit_kinds(ms, attrs) >> LINE_KIND_GLOBAL) & 1;
}

/* Whether every line of the coalesced load in ms's scratch may hit in L1 (its kind, per
 * hit_kinds) and has all its requested sectors valid there: then the load needs nothing beyond
 * the SM. Changes nothing; each line's L1 slot goes to held[] (cache_lines_held), so that the
 * hits that follow need no second look-up. `all_global`: coalesce_access said every line is
 * global (no kind to look at); *one_kind (OUT): whether the lines are all of one kind. */
static int lines_in_l1(const memsys *ms, cache *l1, uint32_t hit_kinds, uint32_t *held,
                       int all_global, int *one_kind)
{
    const uint32_t nreqs = ms->nreqs;
    uint32_t kinds = all_global ? 1u << LINE_KIND_GLOBAL : 0;
    for (uint32_t i = 0; i < nreqs && !all_global; i++) kinds |= 1u << ms->reqs[i].kind;
    *one_kind = !(kinds & (kinds - 1));
    if (kinds & ~hit_kinds)
        return 0;
    return cache_lines_held(l1, nreqs, &ms->reqs[0].line_addr, &ms->reqs[0].sectors,
                            sizeof ms->reqs[0], held) == nreqs;
}

/* Host prefetches for lines reqs[from ..) of a load that has gone past the L1, when they lie
 * a host page or more apart on average (a scattered access; the host's own prefetchers follow
 * lines in a row): their L2 sets and their bytes in the backing store, so that the host-cache
 * misses of their lookups and fills overlap instead of following one another. Returns the
 * first line whose L2 set is in l2_sets[] (OUT; from on, or none: nreqs). */
static uint32_t prefetch_lines(const memsys *ms, uint32_t from, uint32_t *l2_sets)
{
    uint32_t last = ms->nreqs - 1;
    uint64_t first_addr = ms->reqs[from].line_addr, last_addr = ms->reqs[last].line_addr;
    uint64_t span = last_addr > first_addr ? last_addr - first_addr : first_addr - last_addr;
    if (last <= from || span / (last - from) < 4096)
        return ms->nreqs;
    for (uint32_t j = from; j <= last; j++) {
        l2_sets[j] = cache_prefetch_set(ms->l2, ms->reqs[j].line_addr);
        dram_prefetch(ms->store, ms->reqs[j].line_addr);
    }
    return from;
}

int hier_global_local(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                      const lane_target *t, uint32_t lanes, int local_only, mem_fault *f)
{
    int store = acc->op == MEM_OP_STORE;
    int all_global = coalesce_access(ms, ctx, acc, t, lanes, store);
    if (all_global < 0)
        return nomem(f, acc);
    cache *l1 = ms->l1[ctx->sm];
    /* The attributes' verdicts, once an access (each line and step below asks them) */
    const int surface = hier_is_surface(rq->attrs);
    if (store) { /* its lines: mem_hier_store.c */
        if (local_only)
            return 1;
        if (!surface)
            rq->counters->l1.requests++;
        const int served = !acc->skip_served || surface;
        mem_status st = hier_store_lines(ms, rq, l1, acc, all_global == 1 && !surface, served,
                                         rq->attrs->has_policy || ms->window.bytes, surface);
        rq->line = NULL;
        if (st != MEM_OK)
            return nomem(f, acc);
        if (served)
            hier_report_levels(ms, acc, 0);
        if (surface)
            hier_count_surface(rq, acc);
        return 0;
    }
    const int bypass = !surface && global_load_bypasses_l1(ms, rq->attrs);
    uint32_t hit_kinds = surface ? 0 : l1_hit_kinds_of(ms, rq->attrs, bypass);
    uint32_t held_lines[LINE_SCRATCH];
    const uint32_t *held = NULL; /* every line's L1 slot, when lines_in_l1 found them all */
    int one_kind = 0;
    if (local_only) {
        if (!lines_in_l1(ms, l1, hit_kinds, held_lines, all_global, &one_kind))
            return 1;
        held = held_lines;
    }
    if (!surface)
        rq->counters->l1.requests++;
    /* The served records, unless nobody reads them (a surface's counters are drawn from them) */
    const int served = !acc->skip_served || surface;
    cache_hints h1 = {.alloc = l1_alloc_for(rq->attrs, 0), .request = rq};
    /* The L2 hints depend on the line's address only through a policy descriptor or an
     * access-policy window; otherwise they are set again only when the line kind changes
     * (nothing else writes them: hier_l2_read and l2_write_for only set their request). */
    int l2_hints_per_line = rq->attrs->has_policy || ms->window.bytes;
    int l2_hints_kind = -1;
    int global_bypass = surface || bypass; /* global_lines_bypass */
    uint32_t kind_end = 0; /* the end of the run of lines of reqs[i]'s kind, once needed */
    int prefetched = 0;    /* prefetch_lines done */
    uint32_t l2_sets[LINE_SCRATCH], sets_from = ms->nreqs; /* prefetch_lines' L2 sets */
    /* The previous line missed in the L1 (cache_read_line_miss took it): the next one goes to
     * the miss path without the hit path's look-up first, as the lines of a scattered load
     * tend to miss together; a line that hits there takes read_line, with the same results as
     * read_lines_hit's, and the lines after it try the hit path again. */
    int after_miss = 0;
    /* Every line held, all of one kind (a load that needs nothing beyond the SM): its hits in
     * one call, their levels left to hier_report_levels (lines [0, l1_lines) all L1). */
    uint32_t l1_lines = 0;
    if (held && one_kind) {
        l1_lines = read_lines_hit(ms, rq, l1, 0, ms->nreqs, h1.alloc, held, 0);
        kind_end = ms->nreqs;
    }
    for (uint32_t i = l1_lines; i < ms->nreqs; i++) {
        line_req *r = &ms->reqs[i];
        if (((hit_kinds >> r->kind) & 1) && !after_miss) {
            if (kind_end <= i)
                for (kind_end = i + 1; kind_end < ms->nreqs && ms->reqs[kind_end].kind == r->kind;)
                    kind_end++;
            uint32_t hits = read_lines_hit(ms, rq, l1, i, kind_end, h1.alloc, held, served);
            if (i + hits == kind_end) {
                i = kind_end - 1;
                continue;
            }
            i += hits;
            r = &ms->reqs[i];
        }
        if (!prefetched && ms->nreqs - i > 1) {
            sets_from = prefetch_lines(ms, i + 1, l2_sets);
            prefetched = 1;
        }
        rq->line = r;
        if (l2_hints_per_line || r->kind != l2_hints_kind) {
            hier_set_l2_hints(ms, rq, r->kind, r->line_addr, acc->policy);
            l2_hints_kind = r->kind;
        }
        uint64_t sectors0 = rq->counters->l1.sector_accesses, hits0 = rq->counters->l1.sector_hits;
        int taken = 0;
        mem_status st = ((hit_kinds >> r->kind) & 1)
                            ? read_missed_line(ms, rq, l1, r, &h1, global_bypass, &taken,
                                               i >= sets_from ? l2_sets[i] : CACHE_SET_UNKNOWN,
                                               served)
                            : read_line(ms, rq, l1, r, &h1, global_bypass);
        after_miss = taken;
        if (st != MEM_OK) {
            rq->line = NULL;
            return nomem(f, acc);
        }
        if (!surface)
            hier_count_lsu_line(rq, r, 0, i == 0, sectors0, hits0);
    }
    rq->line = NULL;
    coalesce_copy_out(ms, acc);
    if (served)
        hier_report_levels(ms, acc, l1_lines);
    if (surface)
        hier_count_surface(rq, acc);
    return 0;
}

int hier_texture(memsys *ms, const mem_ctx *ctx, mem_tex_access *ta, mem_request *rq,
                 mem_fault *f)
{
    coalesce_begin(ms);
    for (uint32_t l = 0; l < MEM_LANES; l++)
        for (uint32_t k = 0; k < MEM_TEX_MAX_FETCH; k++)
            if (((ta->slots[l] >> k) & 1u) && coalesce_texel(ms, l, k, ta->addr[l][k], ta->texel_bytes))
                goto nomem;
    if (!ms->nreqs)
        return 0;
    cache *l1 = ms->l1[ctx->sm];
    mem_texture_counters *tc = &rq->counters->texture;
    rq->counters->l1.requests++;
    tc->requests++;
    cache_hints h1 = {.alloc = l1_alloc_for(rq->attrs, 0), .request = rq};
    int bypass = global_lines_bypass(ms, rq->attrs);
    for (uint32_t i = 0; i < ms->nreqs; i++) {
        line_req *r = &ms->reqs[i];
        rq->line = r;
        hier_set_l2_hints(ms, rq, r->kind, r->line_addr, 0);
        if (read_line(ms, rq, l1, r, &h1, bypass) != MEM_OK) {
            rq->line = NULL;
            goto nomem;
        }
        for (uint64_t s = r->sectors; s; s &= s - 1) {
            uint8_t lv = r->level[__builtin_ctzll(s)];
            tc->sectors_l1 += lv == MEM_LEVEL_L1;
            tc->sectors_l2 += lv == MEM_LEVEL_L2;
            tc->sectors_dram += lv == MEM_LEVEL_DRAM;
        }
    }
    rq->line = NULL;
    for (uint32_t p = 0; p < ms->npieces; p++) {
        const lane_piece *pc = &ms->pieces[p];
        memcpy(&ta->data[pc->lane][pc->lane_off / 16][pc->lane_off % 16],
               ms->reqs[pc->req].data + pc->off, pc->len);
    }
    return 0;
nomem:
    return mem_fail(f, MEM_FAULT_NOMEM, 0, 0, ta->texel_bytes, IR_SPACE_GLOBAL,
                    "the backing store could not grow");
}

int hier_atomic(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                const lane_target *t, uint32_t lanes, mem_fault *f)
{
    uint32_t bytes = acc->elem_bytes;
    cache *l1 = ms->l1[ctx->sm];
    int surface = hier_is_surface(rq->attrs);
    if (!surface)
        rq->counters->l1.requests++;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint64_t addr = t[l].offset, old = 0, val;
        cache_result res;
        hier_set_l2_hints(ms, rq, LINE_KIND_GLOBAL, addr & ~(uint64_t)(ms->line_bytes - 1),
                          acc->policy);
        /* Atomics are performed at L2; the SM drops its own stale copy of the line (not for a
         * surface atomic, which never looks at the L1). */
        if (!surface) {
            cache_invalidate_line(l1, addr, true, rq, &res);
            hier_count_l1(rq, &res);
        }
        int ok = 1;
        if (hier_l2_read(ms, rq, addr, bytes, (uint8_t *)&old, &res) != MEM_OK)
            return nomem(f, acc);
        uint8_t level = res.sector_misses ? MEM_LEVEL_DRAM : MEM_LEVEL_L2;
        val = acc->atom_fn(acc->atom_op, (ir_type)acc->atom_type, acc->atom_mods, old,
                           acc->operand_b[l], acc->operand_c[l], &ok);
        if (!ok)
            return mem_fail(f, MEM_FAULT_UNSUPPORTED, l, acc->addr[l], bytes, IR_SPACE_GLOBAL,
                            "atomic operation and type combination is not modelled");
        if (l2_write_for(ms, rq, addr, bytes, (const uint8_t *)&val, NULL) != MEM_OK)
            return nomem(f, acc);
        memcpy(acc->data[l], &old, bytes);
        acc->levels |= (uint8_t)(1u << level);
        if (acc->nserved < MEM_MAX_SERVED)
            acc->served[acc->nserved++] = (mem_served){
                addr & ~(uint64_t)(ms->cfg.l1.sector_bytes - 1), level,
                (uint16_t)cache_slice_of(ms->l2, addr)};
    }
    if (surface)
        hier_count_surface(rq, acc);
    return 0;
}

int hier_peek(memsys *ms, const mem_ctx *ctx, uint64_t addr, uint8_t *out, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; i++) {
        uint8_t got = 0;
        if (ctx && cache_peek(ms->l1[ctx->sm], addr + i, 1, out + i, &got) && got)
            continue;
        if (cache_peek(ms->l2, addr + i, 1, out + i, &got) && got)
            continue;
        if (dram_peek(ms->store, addr + i, 1, out + i) != MEM_OK)
            return -1;
    }
    return 0;
}

/* The cache hierarchy: per-SM L1 data caches on a sliced L2 on DRAM, all carrying data, and the
 * path of a warp's global and local accesses through them.
 *
 * A warp access is first split into the 128-byte lines it touches (coalescing); each line is then
 * one L1 request for the sectors it needs. Global loads allocate in L1 unless the access bypasses
 * it (.cg, .cv, volatile or strong loads at GPU scope, or a preset that does not cache global
 * loads); global stores write through to L2 without allocating; local lines are written back.
 * Atomics are performed at L2. Counters go to the instruction in progress (ms->cur): the adapters
 * between levels add what each level did, including write-backs of evicted lines. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mem/memsys_internal.h"

/* ---- adapters between levels ---- */

static void add_l2(mem_counters *c, const cache_result *r)
{
    c->l2.sector_accesses += r->sector_accesses;
    c->l2.sector_hits += r->sector_hits;
    c->l2.sector_misses += r->sector_misses;
    c->l2.evictions += r->evictions;
    c->l2.writeback_bytes += r->writeback_bytes;
}

static void add_l1(mem_counters *c, const cache_result *r)
{
    c->l1.sector_accesses += r->sector_accesses;
    c->l1.sector_hits += r->sector_hits;
    c->l1.sector_misses += r->sector_misses;
    c->l1.evictions += r->evictions;
    c->l1.writeback_bytes += r->writeback_bytes;
}

/* The L2 is one sliced cache (cache.h, `slices`): each slice receives one line of every aligned
 * group of `slices` lines, so a contiguous footprint fills every set evenly. */
cache *hier_l2_slice(const memsys *ms, uint64_t addr)
{
    (void)addr;
    return ms->l2[0];
}

static mem_status l2_read(void *ctx, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    memsys *ms = ctx;
    cache_result r;
    mem_status s = cache_read(hier_l2_slice(ms, addr), addr, bytes, out, &ms->l2_hints, &r);
    add_l2(ms->cur, &r);
    return s;
}

static mem_status l2_write(void *ctx, uint64_t addr, uint32_t bytes, const uint8_t *data,
                           const uint8_t *byte_mask)
{
    memsys *ms = ctx;
    cache_result r;
    mem_status s = cache_write_masked(hier_l2_slice(ms, addr), addr, bytes, data, byte_mask,
                                      &ms->l2_hints, &r);
    add_l2(ms->cur, &r);
    return s;
}

static mem_status dram_fill(void *ctx, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    memsys *ms = ctx;
    ms->cur->dram.read_bytes += bytes;
    return dram_read(ms->store, addr, bytes, out);
}

static mem_status dram_writeback(void *ctx, uint64_t addr, uint32_t bytes, const uint8_t *data,
                                 const uint8_t *byte_mask)
{
    memsys *ms = ctx;
    ms->cur->dram.write_bytes += bytes;
    return dram_write(ms->store, addr, bytes, data, byte_mask);
}

/* The constant and instruction caches keep tags only: their data comes from elsewhere. */
static mem_status tags_only_read(void *ctx, uint64_t addr, uint32_t bytes, uint8_t *out)
{
    (void)ctx;
    (void)addr;
    memset(out, 0, bytes);
    return MEM_OK;
}

static mem_status tags_only_write(void *ctx, uint64_t addr, uint32_t bytes, const uint8_t *data,
                                  const uint8_t *byte_mask)
{
    (void)ctx, (void)addr, (void)bytes, (void)data, (void)byte_mask;
    return MEM_OK;
}

/* ---- creation ---- */

/* n caches of one configuration, their arrays carved from one huge-page mapping (per-SM caches
 * of a 132-SM GPU would otherwise take thousands of separate first-touch faults). */
static cache **cache_array(memsys *ms, uint32_t n, const cache_config *config,
                           const cache_next_level *next, diag_list *dl)
{
    cache **a = calloc(n ? n : 1, sizeof *a);
    cache_config cc = *config;
    size_t each = (cache_storage_bytes(config) + 4095) & ~(size_t)4095;
    uint8_t *block = NULL;
    if (a && each && n > 1 && ms->nmappings < sizeof ms->mappings / sizeof ms->mappings[0]) {
        size_t total = each * n;
        void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
#ifdef MADV_HUGEPAGE
            madvise(p, total, MADV_HUGEPAGE);
#endif
            block = p;
            ms->mappings[ms->nmappings] = p;
            ms->mapping_bytes[ms->nmappings++] = total;
        }
    }
    for (uint32_t i = 0; a && i < n; i++) {
        cc.storage = block ? block + each * i : NULL;
        cc.storage_bytes = block ? each : 0;
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
    cache_config cc;
    cache_next_level to_dram = {ms, dram_fill, dram_writeback};
    cache_config_default(&cc, c->l2.bytes, c->l2.ways);
    cc.line_bytes = c->l2.line_bytes;
    cc.sector_bytes = c->l2.sector_bytes;
    cc.fill_bytes = c->l2.dram_fill_bytes;
    cc.slices = c->l2.slices;
    cc.slice_modulo = c->l2.slice_modulo;
    if (c->l2.write_through)
        cc.write_through_kinds = 1u << LINE_KIND_GLOBAL | 1u << LINE_KIND_LOCAL;
    ms->l2 = cache_array(ms, 1, &cc, &to_dram, dl);
    cache_next_level to_l2 = {ms, l2_read, l2_write};
    cache_config_default(&cc, c->l1.bytes, c->l1.ways);
    cc.line_bytes = c->l1.line_bytes;
    cc.sector_bytes = c->l1.sector_bytes;
    cc.fill_bytes = cc.sector_bytes;
    /* The L1 has no set-aside: .L1::evict_last may protect any line (only a set full of
     * evict-last lines evicts one of them). */
    cc.persisting_limit_lines = c->l1.bytes / c->l1.line_bytes;
    cc.write_through_kinds = c->l1.global_store_write_through ? 1u << LINE_KIND_GLOBAL : 0;
    if (!c->l1.local_write_back)
        cc.write_through_kinds |= 1u << LINE_KIND_LOCAL;
    ms->l1 = ms->l2 ? cache_array(ms, c->sm_count, &cc, &to_l2, dl) : NULL;
    cache_next_level tags = {ms, tags_only_read, tags_only_write};
    cache_config_default(&cc, c->constant.bytes, c->constant.ways);
    cc.line_bytes = c->constant.line_bytes;
    cc.sector_bytes = c->constant.line_bytes;
    cc.fill_bytes = cc.sector_bytes;
    ms->constant = ms->l1 ? cache_array(ms, c->sm_count, &cc, &tags, dl) : NULL;
    cache_config_default(&cc, c->icache.bytes, c->icache.ways);
    cc.line_bytes = c->icache.line_bytes;
    cc.sector_bytes = c->icache.line_bytes;
    cc.fill_bytes = cc.sector_bytes;
    ms->icache = ms->constant ? cache_array(ms, c->sm_count, &cc, &tags, dl) : NULL;
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
    destroy_array(ms->l2, 1);
    for (uint32_t i = 0; i < ms->nmappings; i++) munmap(ms->mappings[i], ms->mapping_bytes[i]);
}

/* ---- policies from the access's attributes ---- */

static uint8_t l1_alloc_for(const ir_mem_attrs *a)
{
    switch (a->l1_evict) {
    case IR_EVICT_FIRST: return CACHE_ALLOC_FIRST;
    case IR_EVICT_LAST: return CACHE_ALLOC_LAST;
    case IR_EVICT_NO_ALLOCATE: return CACHE_ALLOC_NONE;
    case IR_EVICT_NORMAL: return CACHE_ALLOC_NORMAL;
    default: break;
    }
    return a->cop == IR_COP_CS || a->cop == IR_COP_LU ? CACHE_ALLOC_FIRST : CACHE_ALLOC_UNCHANGED;
}

static uint8_t alloc_of_evict(uint8_t evict, uint8_t fallback)
{
    switch (evict) {
    case IR_EVICT_FIRST: return CACHE_ALLOC_FIRST;
    case IR_EVICT_LAST: return CACHE_ALLOC_LAST;
    case IR_EVICT_NORMAL: return CACHE_ALLOC_NORMAL;
    case IR_EVICT_UNCHANGED: return CACHE_ALLOC_UNCHANGED;
    default: return fallback;
    }
}

/* L2 hints of an access to the line at `line_addr`: a policy descriptor (.L2::cache_hint) decides
 * per address; otherwise .L2::evict_* or .cs; otherwise the launch's access-policy window. */
static void set_l2_hints(memsys *ms, const ir_mem_attrs *a, uint8_t kind, uint64_t line_addr,
                         uint64_t policy)
{
    cache_hints *h = &ms->l2_hints;
    memset(h, 0, sizeof *h);
    h->kind = kind;
    /* .lu on global data behaves as .cs (PTX ISA 9.1 §9.7.9.1). */
    uint8_t fallback = a->cop == IR_COP_CS || (a->cop == IR_COP_LU && kind == LINE_KIND_GLOBAL)
                           ? CACHE_ALLOC_FIRST
                           : CACHE_ALLOC_UNCHANGED;
    uint8_t evict = a->l2_evict;
    if (a->cache_hint) {
        int valid;
        uint8_t p = policy_priority(policy, line_addr, &valid);
        if (p != IR_EVICT_NONE)
            evict = p;
    }
    if (evict == IR_EVICT_NONE && fallback == CACHE_ALLOC_UNCHANGED && kind == LINE_KIND_GLOBAL)
        evict = policy_window_priority(&ms->window, line_addr);
    h->alloc = alloc_of_evict(evict, fallback);
    if (a->cop == IR_COP_WT)
        h->write_mode = CACHE_WRITE_THROUGH;
    if (a->prefetch_bytes > ms->cfg.l2.dram_fill_bytes)
        h->fill_bytes = a->prefetch_bytes < LINE_BYTES_MAX ? a->prefetch_bytes : LINE_BYTES_MAX;
}

/* Whether a global load skips the L1 (it still counts as an L1 request whose sectors miss). */
static int global_load_bypasses_l1(const memsys *ms, const ir_mem_attrs *a)
{
    if (a->cop == IR_COP_CG || a->cop == IR_COP_CV)
        return 1;
    if (a->sem == IR_SEM_VOLATILE || a->sem == IR_SEM_MMIO)
        return 1;
    if ((a->sem == IR_SEM_RELAXED || a->sem == IR_SEM_ACQUIRE || a->sem == IR_SEM_SC) &&
        a->scope != IR_SCOPE_CTA)
        return 1;
    if (!ms->cfg.l1.cache_global_loads && a->cop != IR_COP_CA && !a->nc)
        return 1;
    return 0;
}

/* ---- coalescing ---- */

uint64_t hier_local_backing(const mem_ctx *ctx, uint32_t lane, uint64_t offset)
{
    return ctx->local_backing + (offset / 4) * 128 + lane * 4 + offset % 4;
}

static int find_req(memsys *ms, uint64_t line_addr, uint8_t kind)
{
    uint32_t h = (uint32_t)((line_addr >> 7) * 0x9E3779B1u) >> 23; /* 512 buckets */
    while (ms->req_hash[h] >= 0) {
        if (ms->reqs[ms->req_hash[h]].line_addr == line_addr)
            return ms->req_hash[h];
        h = (h + 1) & 511;
    }
    if (ms->nreqs == LINE_SCRATCH)
        return -1;
    int i = (int)ms->nreqs++;
    line_req *r = &ms->reqs[i];
    r->line_addr = line_addr;
    r->kind = kind;
    memset(r->mask, 0, sizeof r->mask);
    ms->req_hash[h] = (int16_t)i;
    ms->req_slots[i] = (uint16_t)h;
    return i;
}

/* Adds lane bytes [lane_off, lane_off+len) at backing address `addr` (within one line). */
static int add_piece(memsys *ms, uint32_t lane, uint32_t lane_off, uint64_t addr, uint32_t len,
                     uint8_t kind, const uint8_t *store_data)
{
    uint64_t line_addr = addr & ~(uint64_t)(LINE_BYTES_MAX - 1);
    /* Neighbouring lanes usually share a line: try the previous lane's first. */
    int r = ms->nreqs && ms->reqs[ms->last_req].line_addr == line_addr
                ? (int)ms->last_req
                : find_req(ms, line_addr, kind);
    ms->last_req = (uint32_t)(r < 0 ? 0 : r);
    if (r < 0 || ms->npieces == sizeof ms->pieces / sizeof ms->pieces[0])
        return -1;
    uint32_t off = (uint32_t)(addr - line_addr);
    ms->pieces[ms->npieces++] = (lane_piece){(uint16_t)r, (uint8_t)lane, (uint8_t)lane_off,
                                             (uint8_t)off, (uint8_t)len};
    memset(ms->reqs[r].mask + off, 1, len);
    if (store_data)
        memcpy(ms->reqs[r].data + off, store_data, len);
    return 0;
}

static int coalesce(memsys *ms, const mem_ctx *ctx, const mem_access *acc, const lane_target *t,
                    uint32_t lanes, int store)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    for (uint32_t i = 0; i < ms->nreqs; i++) ms->req_hash[ms->req_slots[i]] = -1;
    ms->nreqs = 0;
    ms->npieces = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        const uint8_t *src = store ? acc->data[l] : NULL;
        if (t[l].space == IR_SPACE_GLOBAL) {
            /* Aligned accesses of at most 32 bytes never cross a 128-byte line. */
            if (add_piece(ms, l, 0, t[l].offset, bytes, LINE_KIND_GLOBAL, src))
                return -1;
            continue;
        }
        for (uint32_t done = 0; done < bytes;) {
            uint64_t off = t[l].offset + done;
            uint32_t chunk = 4 - (uint32_t)(off % 4);
            if (chunk > bytes - done)
                chunk = bytes - done;
            if (add_piece(ms, l, done, hier_local_backing(ctx, l, off), chunk, LINE_KIND_LOCAL,
                          src ? src + done : NULL))
                return -1;
            done += chunk;
        }
    }
    return 0;
}

/* ---- loads and stores ---- */

/* Reads the requested sectors of one line through the L1 (or around it), in runs of
 * consecutive sectors, into r->data. */
static mem_status load_line(memsys *ms, cache *l1, line_req *r, int bypass, cache_hints *h1)
{
    uint32_t sector = ms->cfg.l1.sector_bytes, nsect = LINE_BYTES_MAX / sector;
    for (uint32_t s = 0; s < nsect;) {
        int touched = 0;
        for (uint32_t b = 0; b < sector; b++) touched |= r->mask[s * sector + b];
        if (!touched) {
            s++;
            continue;
        }
        uint32_t e = s + 1;
        for (; e < nsect; e++) {
            int t2 = 0;
            for (uint32_t b = 0; b < sector; b++) t2 |= r->mask[e * sector + b];
            if (!t2)
                break;
        }
        uint64_t addr = r->line_addr + s * sector;
        uint32_t len = (e - s) * sector;
        mem_status st;
        if (bypass) {
            ms->cur->l1.sector_accesses += e - s;
            ms->cur->l1.sector_misses += e - s;
            st = l2_read(ms, addr, len, r->data + s * sector);
        } else {
            cache_result res;
            h1->kind = r->kind;
            st = cache_read(l1, addr, len, r->data + s * sector, h1, &res);
            add_l1(ms->cur, &res);
        }
        if (st != MEM_OK)
            return st;
        s = e;
    }
    return MEM_OK;
}

static int nomem(mem_fault *f, const mem_access *acc)
{
    uint32_t lane = (uint32_t)__builtin_ctz(acc->active | 1u);
    return mem_fail(f, MEM_FAULT_NOMEM, lane, acc->addr[lane], (uint32_t)acc->elem_bytes * acc->vec,
                    IR_SPACE_GLOBAL, "the backing store could not grow");
}

/* What a load's hints do after the data arrived: .lu on a fully read local line ends its life
 * (no write-back ever); .L2::256B brings the other half of the aligned 256-byte block into L2. */
static mem_status after_load(memsys *ms, cache *l1, const line_req *r, const ir_mem_attrs *a)
{
    /* On local memory .cs behaves as .lu (PTX ISA 9.1 §9.7.9.1). */
    if (r->kind == LINE_KIND_LOCAL && (a->cop == IR_COP_LU || a->cop == IR_COP_CS)) {
        int full = 1;
        for (uint32_t b = 0; b < LINE_BYTES_MAX && full; b++) full = r->mask[b] != 0;
        if (full) {
            cache_result res;
            cache_discard_line(l1, r->line_addr, &res);
            add_l1(ms->cur, &res);
        }
    }
    if (r->kind == LINE_KIND_GLOBAL && a->prefetch_bytes == 256) {
        /* A wider fill, not an access: only what it evicts and writes back is counted (and the
         * DRAM bytes it reads, by the DRAM adapter). */
        cache_result res;
        mem_status st = cache_read(ms->l2[0], r->line_addr ^ 128, LINE_BYTES_MAX, NULL,
                                   &ms->l2_hints, &res);
        ms->cur->l2.evictions += res.evictions;
        ms->cur->l2.writeback_bytes += res.writeback_bytes;
        return st;
    }
    return MEM_OK;
}

int hier_global_local(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                      uint32_t lanes, mem_fault *f)
{
    int store = acc->op == MEM_OP_STORE;
    if (coalesce(ms, ctx, acc, t, lanes, store))
        return nomem(f, acc);
    const ir_mem_attrs *a = acc->attrs;
    cache *l1 = ms->l1[ctx->sm];
    ms->cur->l1.requests++;
    cache_hints h1 = {.alloc = l1_alloc_for(a)};
    for (uint32_t i = 0; i < ms->nreqs; i++) {
        line_req *r = &ms->reqs[i];
        set_l2_hints(ms, a, r->kind, r->line_addr, acc->policy);
        mem_status st;
        if (store) {
            cache_result res;
            h1.kind = r->kind;
            h1.alloc = r->kind == LINE_KIND_GLOBAL && !ms->cfg.l1.global_store_allocate
                           ? CACHE_ALLOC_NONE
                           : l1_alloc_for(a);
            h1.write_mode = a->cop == IR_COP_WT ? CACHE_WRITE_THROUGH : CACHE_WRITE_DEFAULT;
            if (r->kind == LINE_KIND_GLOBAL && a->cop == IR_COP_CG) {
                /* Cache at L2 only: drop any L1 copy and write to L2. */
                cache_invalidate_line(l1, r->line_addr, true, &res);
                add_l1(ms->cur, &res);
                st = l2_write(ms, r->line_addr, LINE_BYTES_MAX, r->data, r->mask);
            } else {
                st = cache_write_masked(l1, r->line_addr, LINE_BYTES_MAX, r->data, r->mask, &h1,
                                        &res);
                add_l1(ms->cur, &res);
            }
        } else {
            int bypass = r->kind == LINE_KIND_GLOBAL && global_load_bypasses_l1(ms, a);
            if (bypass && a->cop == IR_COP_CV) {
                /* Volatile cache operator: drop the L1 copy and refetch the line from memory
                 * (the L2 copy is written back and dropped too). */
                cache_result res;
                cache_invalidate_line(l1, r->line_addr, true, &res);
                add_l1(ms->cur, &res);
                cache_invalidate_line(ms->l2[0], r->line_addr, true, &res);
                add_l2(ms->cur, &res);
            }
            st = load_line(ms, l1, r, bypass, &h1);
            if (st == MEM_OK)
                st = after_load(ms, l1, r, a);
        }
        if (st != MEM_OK)
            return nomem(f, acc);
    }
    if (!store)
        for (uint32_t p = 0; p < ms->npieces; p++) {
            const lane_piece *pc = &ms->pieces[p];
            memcpy(acc->data[pc->lane] + pc->lane_off, ms->reqs[pc->req].data + pc->off, pc->len);
        }
    return 0;
}

int hier_atomic(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                uint32_t lanes, mem_fault *f)
{
    uint32_t bytes = acc->elem_bytes;
    cache *l1 = ms->l1[ctx->sm];
    ms->cur->l1.requests++;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint64_t addr = t[l].offset, old = 0, val;
        cache_result res;
        set_l2_hints(ms, acc->attrs, LINE_KIND_GLOBAL, addr & ~(uint64_t)(LINE_BYTES_MAX - 1),
                     acc->policy);
        /* Atomics are performed at L2; the SM drops its own stale copy of the line. */
        cache_invalidate_line(l1, addr, true, &res);
        add_l1(ms->cur, &res);
        int ok = 1;
        if (l2_read(ms, addr, bytes, (uint8_t *)&old) != MEM_OK)
            return nomem(f, acc);
        val = acc->atom_fn(acc->atom_op, (ir_type)acc->atom_type, acc->atom_mods, old,
                           acc->operand_b[l], acc->operand_c[l], &ok);
        if (!ok)
            return mem_fail(f, MEM_FAULT_UNSUPPORTED, l, acc->addr[l], bytes, IR_SPACE_GLOBAL,
                            "atomic operation and type combination is not modelled");
        if (l2_write(ms, addr, bytes, (const uint8_t *)&val, NULL) != MEM_OK)
            return nomem(f, acc);
        memcpy(acc->data[l], &old, bytes);
    }
    return 0;
}

/* ---- control ---- */

void memsys_launch_begin(memsys *ms)
{
    ms->cur = &ms->unattributed;
    for (uint32_t s = 0; s < ms->cfg.sm_count; s++)
        cache_invalidate_all(ms->l1[s], 1u << LINE_KIND_GLOBAL, true, NULL);
}

void memsys_fence(memsys *ms, uint32_t sm, ir_scope scope)
{
    if (scope == IR_SCOPE_CTA || sm >= ms->cfg.sm_count)
        return;
    cache_result res;
    cache_invalidate_all(ms->l1[sm], 1u << LINE_KIND_GLOBAL, true, &res);
    add_l1(ms->cur, &res);
}

void memsys_set_hint_mode(memsys *ms, int strip_hints, int poison_discard)
{
    ms->strip_hints = strip_hints;
    ms->poison_discard = poison_discard;
}

void memsys_set_policy_window(memsys *ms, uint64_t base, uint64_t bytes, double hit_ratio,
                              uint8_t hit_prop, uint8_t miss_prop)
{
    ms->window = (policy_window){base, ms->strip_hints ? 0 : bytes, hit_ratio, hit_prop,
                                 miss_prop};
}

uint64_t memsys_reset_persisting(memsys *ms) { return cache_demote_last(ms->l2[0]); }

/* prefetch, prefetchu, applypriority and discard for the lanes in `lanes` (global or local
 * addresses already resolved and checked by the caller). PTX ISA 9.1 §9.7.9.15-17. */
int hier_cache_control(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                       uint32_t lanes, mem_fault *f)
{
    const ir_mem_attrs *a = acc->attrs;
    cache *l1 = ms->l1[ctx->sm];
    uint64_t done[MEM_LANES];
    uint32_t ndone = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint64_t addr = t[l].space == IR_SPACE_LOCAL ? hier_local_backing(ctx, l, t[l].offset)
                                                     : t[l].offset;
        uint64_t line = addr & ~(uint64_t)(LINE_BYTES_MAX - 1);
        /* The lanes of a warp that name one line act on it once. */
        uint32_t k = 0;
        while (k < ndone && done[k] != line) k++;
        if (k < ndone)
            continue;
        done[ndone++] = line;
        uint8_t kind = t[l].space == IR_SPACE_LOCAL ? LINE_KIND_LOCAL : LINE_KIND_GLOBAL;
        cache_result res;
        mem_status st = MEM_OK;
        switch (acc->op) {
        case MEM_OP_PREFETCH:
            if (a->level == IR_LEVEL_L1) {
                cache_hints h = {.alloc = CACHE_ALLOC_UNCHANGED, .kind = kind};
                set_l2_hints(ms, a, kind, line, 0);
                st = cache_read(l1, line, LINE_BYTES_MAX, NULL, &h, &res);
                add_l1(ms->cur, &res);
            } else {
                set_l2_hints(ms, a, kind, line, 0);
                st = l2_read(ms, line, LINE_BYTES_MAX, NULL);
            }
            break;
        case MEM_OP_APPLYPRIORITY:
            cache_set_line_priority(ms->l2[0], line, CACHE_PRIORITY_NORMAL);
            break;
        default: /* MEM_OP_DISCARD: the line's data is gone, dirty or not */
            cache_discard_line(l1, line, &res);
            cache_discard_line(ms->l2[0], line, &res);
            add_l2(ms->cur, &res);
            if (ms->poison_discard)
                st = dram_fill_pattern(ms->store, line, LINE_BYTES_MAX, 0xFF);
            break;
        }
        if (st != MEM_OK)
            return mem_fail(f, MEM_FAULT_NOMEM, l, acc->addr[l], LINE_BYTES_MAX, t[l].space,
                            "the backing store could not grow");
    }
    return 0;
}

void memsys_set_persisting_bytes(memsys *ms, uint64_t bytes)
{
    if (bytes > ms->cfg.l2.persisting_max_bytes)
        bytes = ms->cfg.l2.persisting_max_bytes;
    ms->persisting_lines = bytes / ms->cfg.l2.line_bytes;
    cache_set_persisting_limit(ms->l2[0], ms->persisting_lines);
}

void memsys_ifetch(memsys *ms, uint32_t sm, uint64_t addr, uint32_t insn_id)
{
    mem_counters *c = insn_id < ms->ninsns ? &ms->per_insn[insn_id] : &ms->unattributed;
    cache_result res;
    cache_read(ms->icache[sm], addr, 1, NULL, NULL, &res);
    c->icache.fetches++;
    c->icache.hits += res.sector_hits;
    c->icache.misses += res.sector_misses;
}

int memsys_finish(memsys *ms)
{
    ms->cur = &ms->unattributed;
    memset(&ms->l2_hints, 0, sizeof ms->l2_hints);
    int rc = 0;
    for (uint32_t s = 0; s < ms->cfg.sm_count; s++) {
        cache_result res;
        rc |= cache_flush(ms->l1[s], &res) != MEM_OK;
        add_l1(ms->cur, &res);
    }
    cache_result res;
    rc |= cache_flush(ms->l2[0], &res) != MEM_OK;
    add_l2(ms->cur, &res);
    return rc ? -1 : 0;
}

int hier_peek(memsys *ms, const mem_ctx *ctx, uint64_t addr, uint8_t *out, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; i++) {
        uint8_t got = 0;
        if (ctx && cache_peek(ms->l1[ctx->sm], addr + i, 1, out + i, &got) && got)
            continue;
        if (cache_peek(hier_l2_slice(ms, addr + i), addr + i, 1, out + i, &got) && got)
            continue;
        if (dram_peek(ms->store, addr + i, 1, out + i) != MEM_OK)
            return -1;
    }
    return 0;
}

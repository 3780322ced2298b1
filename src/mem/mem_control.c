/* Cache control and ordering: the cache-control operations and fences of the access contract
 * (mem.h: MEM_OP_CACHE_CONTROL, MEM_OP_FENCE), the kernel boundary, the end of a run, and the
 * settings for hints, persisting lines and access-policy windows.
 *
 * A cache-control operation names the caches it reaches (ir.h IR_LEVEL_*): the data L1 and L2,
 * the constant cache, the instruction cache, or the call-return stack's cache. The last and the
 * levels beyond the constant and instruction caches are not modelled: naming them is a fault
 * that says so, never a silent no-op. Everything an operation makes a cache do (write-backs and
 * the DRAM traffic behind them, fills) is charged to the operation's own instruction. */
#include <string.h>

#include "mem/memsys_internal.h"

/* ---- kernel boundary, settings, end of run ---- */

void memsys_launch_begin(memsys *ms)
{
    for (uint32_t s = 0; s < ms->cfg.sm_count; s++)
        cache_invalidate_all(ms->l1[s], LINE_KINDS_GLOBAL, true, &ms->own_work, NULL);
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

uint64_t memsys_reset_persisting(memsys *ms) { return cache_demote_last(ms->l2); }

void memsys_set_persisting_bytes(memsys *ms, uint64_t bytes)
{
    if (bytes > ms->cfg.l2.persisting_max_bytes)
        bytes = ms->cfg.l2.persisting_max_bytes;
    ms->persisting_lines = bytes / ms->cfg.l2.line_bytes;
    cache_set_persisting_limit(ms->l2, ms->persisting_lines);
}

int memsys_ifetch(memsys *ms, uint32_t sm, uint64_t addr, uint32_t insn_id)
{
    mem_counters *c = insn_id < ms->ninsns ? &ms->per_insn[insn_id] : &ms->unattributed;
    cache *ic = ms->icache[sm];
    uint64_t line = addr & ms->ifetch_line_mask;
    uint64_t sector = UINT64_C(1) << ((addr - line) >> ms->ifetch_sector_shift);
    /* A hit (nearly every fetch) without cache_read's general path: the same recency and
     * statistics (cache_probe_hit, which finds the few lines an SM's warps fetch in turn
     * without the set's look-up). */
    if (cache_probe_hit(ic, line, sector)) {
        c->icache.fetches++;
        c->icache.hits++;
        return 0;
    }
    cache_result res;
    cache_read(ic, addr, 1, NULL, NULL, &res);
    c->icache.fetches++;
    c->icache.hits += res.sector_hits;
    c->icache.misses += res.sector_misses;
    return res.sector_misses != 0;
}

int memsys_finish(memsys *ms)
{
    mem_request *rq = &ms->own_work;
    int rc = 0;
    for (uint32_t s = 0; s < ms->cfg.sm_count; s++) {
        cache_result res;
        rc |= cache_flush(ms->l1[s], &res) != MEM_OK;
        hier_count_l1(rq, &res);
    }
    cache_result res;
    rc |= cache_flush(ms->l2, &res) != MEM_OK;
    hier_count_l2(rq, &res);
    return rc ? -1 : 0;
}

/* Drops cache c's clean copies of the lines of [addr, addr + bytes), every line when the range
 * is larger than the cache (one pass over the tags instead of one lookup per line). */
static void drop_clean_range(cache *c, uint64_t cache_bytes, uint32_t line_bytes, uint64_t addr,
                             uint64_t bytes)
{
    cache_result res;
    if (bytes > cache_bytes) {
        cache_invalidate_clean_all(c, CACHE_KIND_ALL, &res);
        return;
    }
    for (uint64_t a = addr & ~(uint64_t)(line_bytes - 1); a < addr + bytes; a += line_bytes)
        cache_invalidate_clean_line(c, a, &res);
}

int memsys_host_write_synced(memsys *ms, uint64_t addr, const void *src, uint64_t bytes)
{
    if (memsys_finish(ms))
        return -1;
    for (uint32_t s = 0; s < ms->cfg.sm_count; s++)
        drop_clean_range(ms->l1[s], ms->cfg.l1.bytes, ms->cfg.l1.line_bytes, addr, bytes);
    drop_clean_range(ms->l2, ms->cfg.l2.bytes, ms->cfg.l2.line_bytes, addr, bytes);
    return memsys_host_write(ms, addr, src, bytes);
}

/* ---- fences ---- */

int control_fence(memsys *ms, const mem_ctx *ctx, mem_request *rq, mem_fault *f)
{
    if (rq->attrs->sfid)
        return lsc_fence(ms, ctx, rq, f);
    uint8_t effects = rq->attrs->fence;
    if (effects & ~(IR_FENCE_WAIT_WRITES | IR_FENCE_WRITEBACK_L1 | IR_FENCE_INVALIDATE_L1 |
                    IR_FENCE_INVALIDATE_TEX))
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "fence side effect is not modelled");
    if (ctx->sm >= ms->cfg.sm_count)
        return 0;
    /* IR_FENCE_WAIT_WRITES needs nothing: accesses complete in order, so every earlier write is
     * already where the scope can see it. */
    cache *l1 = ms->l1[ctx->sm];
    cache_result res;
    if (effects & IR_FENCE_WRITEBACK_L1) {
        cache_writeback_all(l1, LINE_KINDS_GLOBAL, rq, &res);
        hier_count_l1(rq, &res);
    }
    if (effects & IR_FENCE_INVALIDATE_L1) {
        cache_invalidate_all(l1, LINE_KINDS_GLOBAL, true, rq, &res);
        hier_count_l1(rq, &res);
    }
    /* The lines the read-only (texture) path filled; a store may have made one dirty since, so
     * dirty bytes are written back as for any invalidation. */
    if (effects & IR_FENCE_INVALIDATE_TEX) {
        cache_invalidate_all(l1, 1u << LINE_KIND_GLOBAL_READ_ONLY, true, rq, &res);
        hier_count_l1(rq, &res);
    }
    return 0;
}

/* ---- cache control ---- */

/* The first unmodelled cache among `levels`, as a fault; 0 when all are modelled. */
static int unmodelled(const mem_access *acc, uint8_t levels, mem_fault *f)
{
    static const struct {
        uint8_t level, space;
        const char *what;
    } missing[] = {
        {IR_LEVEL_CRS, IR_SPACE_CRS, "the call-return stack has no modelled cache"},
        {IR_LEVEL_CONST_L2, IR_SPACE_CONST,
         "the constant hierarchy has no modelled level beyond the SM's constant cache"},
        {IR_LEVEL_INSN_L2, IR_SPACE_INSTRUCTION,
         "the instruction hierarchy has no modelled level beyond the SM's instruction cache"},
    };
    uint32_t lane = (uint32_t)__builtin_ctz(acc->active | 1u);
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++)
        if (levels & missing[i].level)
            return mem_fail(f, MEM_FAULT_UNSUPPORTED, lane, acc->addr[lane], 0,
                            (ir_space)missing[i].space, missing[i].what);
    return 0;
}

static uint32_t data_kinds(uint8_t lines)
{
    uint32_t k = 0;
    if (!lines || (lines & IR_LINES_GLOBAL))
        k |= LINE_KINDS_GLOBAL;
    if (!lines || (lines & IR_LINES_LOCAL))
        k |= 1u << LINE_KIND_LOCAL;
    return k;
}

/* One whole-cache operation on cache `c` over the line kinds `kinds`. */
static mem_status whole_cache(cache *c, uint8_t op, uint32_t kinds, mem_request *rq,
                              cache_result *res)
{
    switch (op) {
    case IR_CCTL_WRITEBACK: return cache_writeback_all(c, kinds, rq, res);
    case IR_CCTL_INVALIDATE: return cache_invalidate_all(c, kinds, true, rq, res);
    case IR_CCTL_DISCARD: return cache_invalidate_all(c, kinds, false, NULL, res);
    default: return cache_invalidate_clean_all(c, kinds, res); /* IR_CCTL_INVALIDATE_CLEAN */
    }
}

/* cctl_all: every line of the named caches of the issuing SM (and of the L2), L1 first so that
 * its write-backs reach the L2 before the L2 is acted on. */
static int control_whole(memsys *ms, const mem_ctx *ctx, mem_request *rq, mem_fault *f)
{
    const ir_mem_attrs *a = rq->attrs;
    if (a->cctl == IR_CCTL_PREFETCH || a->cctl == IR_CCTL_PRIORITY)
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "a prefetch or priority change acts on addressed lines, not a whole cache");
    uint32_t kinds = data_kinds(a->cctl_lines);
    cache_result res;
    mem_status st = MEM_OK;
    if (a->cctl_levels & IR_LEVEL_L1) {
        st = whole_cache(ms->l1[ctx->sm], a->cctl, kinds, rq, &res);
        hier_count_l1(rq, &res);
    }
    if (st == MEM_OK && (a->cctl_levels & IR_LEVEL_L2)) {
        st = whole_cache(ms->l2, a->cctl, kinds, rq, &res);
        hier_count_l2(rq, &res);
    }
    /* The constant and instruction caches hold tags only: never dirty, nothing to count. */
    if (a->cctl_levels & IR_LEVEL_CONST_L1)
        whole_cache(ms->constant[ctx->sm], a->cctl, CACHE_KIND_ALL, rq, NULL);
    if (a->cctl_levels & IR_LEVEL_INSN_L1)
        whole_cache(ms->icache[ctx->sm], a->cctl, CACHE_KIND_ALL, rq, NULL);
    return st == MEM_OK ? 0 : mem_fail(f, MEM_FAULT_NOMEM, 0, 0, 0, IR_SPACE_GLOBAL,
                                       "the backing store could not grow");
}

static cache_priority priority_of(uint8_t evict, int *ok)
{
    *ok = 1;
    switch (evict) {
    case IR_EVICT_FIRST: return CACHE_PRIORITY_FIRST;
    case IR_EVICT_LAST: return CACHE_PRIORITY_LAST;
    case IR_EVICT_NORMAL: return CACHE_PRIORITY_NORMAL;
    default: *ok = 0; return CACHE_PRIORITY_NORMAL; /* none or unchanged: keep the class */
    }
}

/* One line operation on cache `c` (an L1 when `l1`, else the L2 or a tags-only cache). */
static mem_status line_in_cache(memsys *ms, cache *c, int l1, const ir_mem_attrs *a,
                                uint64_t line, mem_request *rq)
{
    cache_result res;
    memset(&res, 0, sizeof res);
    mem_status st = MEM_OK;
    int ok;
    switch (a->cctl) {
    case IR_CCTL_WRITEBACK: st = cache_writeback_line(c, line, rq, &res); break;
    case IR_CCTL_INVALIDATE: st = cache_invalidate_line(c, line, true, rq, &res); break;
    case IR_CCTL_DISCARD: st = cache_discard_line(c, line, &res); break;
    case IR_CCTL_INVALIDATE_CLEAN: st = cache_invalidate_clean_line(c, line, &res); break;
    default: { /* IR_CCTL_PRIORITY */
        cache_priority p = priority_of(l1 ? a->l1_alloc : a->l2_evict, &ok);
        if (ok)
            st = cache_set_line_priority(c, line, p);
        break;
    }
    }
    if (c == ms->l2)
        hier_count_l2(rq, &res);
    else if (l1)
        hier_count_l1(rq, &res);
    return st;
}

/* A line of global or local data: a prefetch reads it into the L1 (through the L2) or into the
 * L2; the other operations act on the SM's L1 and then on the L2, as named. */
static mem_status data_line(memsys *ms, const mem_ctx *ctx, const ir_mem_attrs *a, uint8_t kind,
                            uint64_t line, mem_request *rq)
{
    cache *l1 = ms->l1[ctx->sm];
    hier_set_l2_hints(ms, rq, kind, line, 0);
    if (a->cctl == IR_CCTL_PREFETCH) {
        if (!(a->cctl_levels & IR_LEVEL_L1))
            return hier_l2_read(ms, rq, line, ms->line_bytes, NULL, NULL);
        cache_hints h = {.alloc = CACHE_ALLOC_UNCHANGED, .kind = kind, .request = rq};
        cache_result res;
        mem_status st = cache_read(l1, line, ms->line_bytes, NULL, &h, &res);
        hier_count_l1(rq, &res);
        return st;
    }
    mem_status st = MEM_OK;
    if (a->cctl_levels & IR_LEVEL_L1)
        st = line_in_cache(ms, l1, 1, a, line, rq);
    if (st == MEM_OK && (a->cctl_levels & IR_LEVEL_L2)) {
        st = line_in_cache(ms, ms->l2, 0, a, line, rq);
        /* --poison-discard: a discarded line's data reads back as 0xFF bytes from now on. */
        if (st == MEM_OK && a->cctl == IR_CCTL_DISCARD && ms->poison_discard)
            st = dram_fill_pattern(ms->store, line, ms->line_bytes, 0xFF);
    }
    return st;
}

/* Which of the lanes' addresses the operation acts on, by hierarchy. A prefetch is a hint: lanes
 * whose address is invalid or outside the named caches do nothing. Other operations fault on
 * them, after every lane's address was checked. */
typedef struct lane_sets {
    uint32_t data, constant, insn;
} lane_sets;

static int classify_lanes(memsys *ms, const mem_ctx *ctx, mem_access *acc,
                          const ir_mem_attrs *a, lane_target *t, lane_sets *out, mem_fault *f)
{
    int hint = a->cctl == IR_CCTL_PREFETCH;
    uint32_t ok = 0;
    memset(out, 0, sizeof *out);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        mem_fault ignored;
        if (!((acc->active >> l) & 1u))
            continue;
        if (acc->space == IR_SPACE_INSTRUCTION) { /* instruction addresses have no bounds */
            t[l] = (lane_target){IR_SPACE_INSTRUCTION, acc->addr[l]};
        } else {
            int checked = mem_check_lane(ms, ctx, acc, l, &t[l], hint ? &ignored : f);
            if (checked < 0 && !hint)
                return -1;
            if (checked) /* a hint's bad lane, or one outside its window (IR_WINDOW_ZERO) */
                continue;
        }
        ok |= 1u << l;
    }
    if (hint) /* a prefetch never errs, not even outside its window */
        acc->window_lanes = 0;
    uint32_t kinds = data_kinds(a->cctl_lines);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((ok >> l) & 1u))
            continue;
        const char *why = NULL;
        mem_fault_kind kind_of_fault = MEM_FAULT_UNSUPPORTED;
        switch (t[l].space) {
        case IR_SPACE_GLOBAL: case IR_SPACE_LOCAL: {
            uint8_t kind = t[l].space == IR_SPACE_LOCAL ? LINE_KIND_LOCAL : LINE_KIND_GLOBAL;
            if (!((kinds >> kind) & 1u))
                continue; /* a line kind the operation does not select */
            if (a->cctl_levels & (IR_LEVEL_L1 | IR_LEVEL_L2))
                out->data |= 1u << l;
            else
                why = "the operation names no cache of the data hierarchy";
            break;
        }
        case IR_SPACE_CONST: case IR_SPACE_PARAM:
            if (a->cctl == IR_CCTL_DISCARD) { /* dropping data is writing it */
                why = "state space is read-only";
                kind_of_fault = MEM_FAULT_READ_ONLY;
            } else if (a->cctl_levels & IR_LEVEL_CONST_L1)
                out->constant |= 1u << l;
            else
                why = "the operation names no cache of the constant hierarchy";
            break;
        case IR_SPACE_INSTRUCTION:
            if (a->cctl_levels & IR_LEVEL_INSN_L1)
                out->insn |= 1u << l;
            else
                why = "the operation names no cache of the instruction hierarchy";
            break;
        default: why = "shared memory has no cache"; break;
        }
        if (why && !hint)
            return mem_fail(f, kind_of_fault, l, acc->addr[l],
                            (uint32_t)acc->elem_bytes * acc->vec, t[l].space, why);
    }
    return 0;
}

/* Whether `line` is among the first n of `done`; adds it otherwise. */
static int seen_line(uint64_t *done, uint32_t *n, uint64_t line)
{
    for (uint32_t k = 0; k < *n; k++)
        if (done[k] == line)
            return 1;
    done[(*n)++] = line;
    return 0;
}

/* A tags-only cache (constant, instruction): the line's tag is dropped, or looked up by a
 * prefetch; write-backs have nothing to write. */
static void tags_line(cache *c, const ir_mem_attrs *a, uint64_t line)
{
    int ok;
    switch (a->cctl) {
    case IR_CCTL_PREFETCH: cache_read(c, line, 1, NULL, NULL, NULL); break;
    case IR_CCTL_INVALIDATE: case IR_CCTL_DISCARD: case IR_CCTL_INVALIDATE_CLEAN:
        cache_invalidate_line(c, line, false, NULL, NULL);
        break;
    case IR_CCTL_PRIORITY: {
        cache_priority p = priority_of(a->l1_alloc, &ok);
        if (ok)
            cache_set_line_priority(c, line, p);
        break;
    }
    default: break; /* IR_CCTL_WRITEBACK: never dirty */
    }
}

static int control_lines(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                         mem_fault *f)
{
    const ir_mem_attrs *a = rq->attrs;
    lane_target t[MEM_LANES];
    lane_sets sets;
    if (classify_lanes(ms, ctx, acc, a, t, &sets, f))
        return -1;
    /* A prefetch into the constant cache is a constant-cache lookup, counted as a read's. */
    if (sets.constant && a->cctl == IR_CCTL_PREFETCH)
        constant_count(ms, rq->counters, ctx, acc, t, sets.constant);
    uint64_t done[MEM_LANES];
    uint32_t ndone = 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if ((sets.constant >> l) & 1u && a->cctl != IR_CCTL_PREFETCH)
            tags_line(ms->constant[ctx->sm], a, constant_address(&t[l]));
        if ((sets.insn >> l) & 1u)
            tags_line(ms->icache[ctx->sm], a, t[l].offset);
        if (!((sets.data >> l) & 1u))
            continue;
        uint8_t kind = t[l].space == IR_SPACE_LOCAL ? LINE_KIND_LOCAL : LINE_KIND_GLOBAL;
        uint64_t addr = kind == LINE_KIND_LOCAL ? hier_local_backing(ctx, l, t[l].offset)
                                                : t[l].offset;
        uint64_t line = addr & ~(uint64_t)(ms->line_bytes - 1);
        if (seen_line(done, &ndone, line)) /* the lanes of a warp naming one line act once */
            continue;
        if (data_line(ms, ctx, a, kind, line, rq) != MEM_OK)
            return mem_fail(f, MEM_FAULT_NOMEM, l, acc->addr[l], ms->line_bytes, t[l].space,
                            "the backing store could not grow");
    }
    return 0;
}

int control_access(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_request *rq,
                   mem_fault *f)
{
    const ir_mem_attrs *a = rq->attrs;
    if (a->cctl == IR_CCTL_NONE || a->cctl > IR_CCTL_PRIORITY)
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "unknown cache-control operation");
    if (!a->cctl_levels)
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "a cache-control operation must name the caches it reaches");
    if (unmodelled(acc, a->cctl_levels, f))
        return -1;
    return a->cctl_all ? control_whole(ms, ctx, rq, f) : control_lines(ms, ctx, acc, rq, f);
}

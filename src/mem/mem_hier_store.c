/* A store's lines through the cache hierarchy (mem_hier.h, hier_store_lines): hier_global_local's
 * line loop for a store, split from mem_hier.c. Global lines that both the L1 and the L2 hold go
 * as runs through cache_write_lines_below (store_pair_run); every other line through store_line:
 * a surface's or an L1-bypassing line straight to the L2, a write-through line by the L1's own
 * write below (cache_write_line_below), the rest by the L1 with the L2 behind its next-level
 * adapter. The L2 writes that go to a store log, and the logs themselves, stay in mem_hier.c
 * (hier_l2_write) and memsys_l2log.c. */
#include <stdint.h>

#include "mem/mem_hier.h"
#include "mem/mem_hints.h"
#include "mem/memsys_internal.h"

/* The L1 hints of a store's line of kind `kind` (not a surface's, nor one that goes around the
 * L1: store_line's first cases). */
static inline cache_hints store_hints(const memsys *ms, mem_request *rq, uint8_t kind)
{
    const ir_mem_attrs *a = rq->attrs;
    cache_hints h1 = {
        .alloc = kind == LINE_KIND_GLOBAL && !ms->cfg.l1.global_store_allocate
                     ? CACHE_ALLOC_NONE
                     : l1_alloc_for(a, 1),
        .write_mode = cache_write_mode_of(a),
        .kind = kind,
        .request = rq,
    };
    if (kind == LINE_KIND_GLOBAL)
        lsc_l1_store_hints(a, &h1);
    return h1;
}

/* What the run paths (store_pair_run, store_log_run) ask of a store's attributes: its lines
 * go through the L1 (no bypass, no uncached or read-invalidate control) and take the same L2
 * hints (no policy descriptor or window). */
static int run_attrs_fit(const memsys *ms, const ir_mem_attrs *a)
{
    return a->write_mode != IR_WRITE_BYPASS_L1 && a->l1_ctl != IR_CC_UNCACHED &&
           a->l1_ctl != IR_CC_READ_INVALIDATE && !a->has_policy && !ms->window.bytes;
}

/* Whether the L1 writes a global store line through under its hints h1. */
static int writes_l1_through(const memsys *ms, const cache_hints *h1)
{
    return h1->write_mode == CACHE_WRITE_THROUGH ||
           (h1->write_mode == CACHE_WRITE_DEFAULT && ms->cfg.l1.global_store_write_through);
}

/* Whether the global lines of a store (not a surface's) may take store_pair_run: each would
 * reach store_line's cache_write_line_below with the L1 hints *h1 (OUT), its L2 write made at
 * once (no deferred log), hier_note_l1_store noting nothing (a write-through L1 store), and
 * the L2 hints the same for every line (run_attrs_fit). */
static int store_pair_fits(const memsys *ms, mem_request *rq, cache_hints *h1)
{
    if (!run_attrs_fit(ms, rq->attrs) || (rq->log && !rq->log->immediate) ||
        (!rq->log && ms->defer && hier_reads_deferred(ms))) /* l2_write_for's other logs */
        return 0;
    *h1 = store_hints(ms, rq, LINE_KIND_GLOBAL);
    return !ms->defer->dirty || writes_l1_through(ms, h1);
}

/* Global store lines reqs[i .. end) that cache_write_lines_below takes, from the first, with
 * what store_line, l2_write_for and count_lsu_line do around each but the levels: the L2
 * write counted and logged, the counters summed; sets[k] (OUT, may be NULL) each line's L2 set.
 * Returns how many lines it took. */
static uint32_t store_run(memsys *ms, mem_request *rq, cache *l1, const cache_hints *h1,
                          uint32_t i, uint32_t end, uint32_t *sets)
{
    cache_result s1, s2;
    line_req *r = &ms->reqs[i];
    rq->l2.request = rq;
    /* Lines without their masks written (masks_lazy) store 4-byte words, at most 8 a line,
     * which cache_write_lines_below copies by their bits without reading the masks. */
    uint32_t n = cache_write_lines_below(l1, ms->l2, end - i, &r->line_addr, r->byte_bits,
                                         r->data, r->mask, sizeof *r, h1, &rq->l2, &s1, &s2,
                                         sets);
    if (!n)
        return 0;
    if (rq->log)
        rq->log->writes += n;
    hier_count_l2(rq, &s2);
    hier_count_l1(rq, &s1);
    mem_lsu_counters *u = &rq->counters->lsu;
    u->global_store_requests += (uint64_t)(i == 0);
    u->global_store_sectors += s1.sector_accesses;
    return n;
}

/* store_run for hier_global_local's store lines from reqs[i] on: each line taken of one level
 * as store_line leaves it (L2: the L2 writes back) and, when `served`, its L2 slice. */
static inline __attribute__((always_inline)) uint32_t
store_pair_run(memsys *ms, mem_request *rq, cache *l1, const cache_hints *h1,
               uint32_t i, int served)
{
    uint32_t sets[LINE_SCRATCH];
    uint32_t n = store_run(ms, rq, l1, h1, i, ms->nreqs, served ? sets : NULL);
    line_req *r = &ms->reqs[i];
    for (uint32_t k = 0; k < n; k++) {
        r[k].line_level = MEM_LEVEL_L2;
        r[k].l2_slice = served ? (uint16_t)cache_slice_of_set(ms->l2, sets[k]) : HIER_SLICE_UNKNOWN;
    }
    return n;
}

/* Whether the global lines of a store (not a surface's) whose L2 writes go to a store log that
 * is not immediate may take store_log_run: as store_pair_fits, but each line's L2 write is the
 * log's (l2_write_for's first case) and the L1 writes it through (*h1, OUT: its hints). */
static int store_log_fits(const memsys *ms, mem_request *rq, cache_hints *h1)
{
    if (!rq->log || rq->log->immediate || !run_attrs_fit(ms, rq->attrs))
        return 0;
    *h1 = store_hints(ms, rq, LINE_KIND_GLOBAL);
    return writes_l1_through(ms, h1);
}

/* Global store lines from reqs[i] that the L1 holds, for a store whose L2 writes go to its
 * log: the L1's part of the run by cache_write_lines_through, then each line's write-through
 * logged as l2_write_for logs it (its bits; its byte mask only where the L2 would read it,
 * made then for a line whose mask the coalescer left to coalesce_fill_mask), with what
 * store_line and count_lsu_line do around each: the line's level stays the L1's (the L2 write
 * is made later), the counters summed. Returns how many lines it took, or, through *st (OUT),
 * a log that could not grow (MEM_ERR_NOMEM). */
static uint32_t store_log_run(memsys *ms, mem_request *rq, cache *l1, const cache_hints *h1,
                              uint32_t i, mem_status *st)
{
    cache_result s1;
    line_req *r = &ms->reqs[i];
    uint32_t n = cache_write_lines_through(l1, ms->nreqs - i, &r->line_addr, r->byte_bits,
                                           r->data, r->mask, sizeof *r, h1, &s1);
    *st = MEM_OK;
    if (!n)
        return 0;
    int bits_only = cache_takes_store_bits(ms->l2, &rq->l2);
    for (uint32_t k = 0; k < n; k++) {
        line_req *q = &r[k];
        q->line_level = MEM_LEVEL_L1;
        q->l2_slice = HIER_SLICE_UNKNOWN;
        if (!bits_only)
            coalesce_fill_mask(ms, q); /* a no-op past the lazy lines */
        mem_status s = hier_log_l2_line(ms, rq->log, rq, q->line_addr, q->data,
                                        bits_only ? NULL : q->mask, q->byte_bits);
        if (s != MEM_OK && *st == MEM_OK)
            *st = s;
    }
    rq->log->writes += n;
    hier_count_l1(rq, &s1);
    mem_lsu_counters *u = &rq->counters->lsu;
    u->global_store_requests += (uint64_t)(i == 0);
    u->global_store_sectors += s1.sector_accesses;
    return n;
}

/* One line of a store; `served`: whether the access wants its served records (the level and
 * slice recorded here are for hier_report_levels only). */
static mem_status store_line(memsys *ms, mem_request *rq, cache *l1, line_req *r, int served)
{
    const ir_mem_attrs *a = rq->attrs;
    cache_result res;
    r->line_level = MEM_LEVEL_L1; /* unless a level below takes them */
    r->l2_slice = HIER_SLICE_UNKNOWN;
    if (hier_is_surface(a)) /* to L2, leaving any L1 copy alone */
        return hier_l2_write(ms, rq, r->line_addr, ms->line_bytes, r->data, r->mask);
    if (r->kind == LINE_KIND_GLOBAL &&
        (a->write_mode == IR_WRITE_BYPASS_L1 || a->l1_ctl == IR_CC_UNCACHED ||
         a->l1_ctl == IR_CC_READ_INVALIDATE)) {
        /* Cache at L2 only: drop any L1 copy and write to L2. */
        cache_invalidate_line(l1, r->line_addr, true, rq, &res);
        hier_count_l1(rq, &res);
        return hier_l2_write(ms, rq, r->line_addr, ms->line_bytes, r->data, r->mask);
    }
    cache_hints h1 = store_hints(ms, rq, r->kind);
    hier_note_l1_store(ms, r->line_addr, &h1);
    if (!rq->log || rq->log->immediate) {
        /* The L1's write to the L2 (write-through, or around the L1) made by the L1's own call
         * instead of through l2_write: counted and recorded here as l2_write_for does. */
        cache_result res2;
        bool taken, written;
        uint32_t l2_set;
        rq->l2.request = rq;
        mem_status st = cache_write_line_below(l1, ms->l2, r->line_addr, r->data, r->mask,
                                               r->byte_bits, &h1, &rq->l2, &res, &res2, &taken,
                                               &written, &l2_set);
        if (taken) {
            if (written) {
                if (rq->log)
                    rq->log->writes++;
                hier_count_l2(rq, &res2);
                /* record_levels of the whole line: still of one level (line_level L1 above; the
                 * L1's write-backs of other lines recorded nothing) */
                r->line_level = res2.write_through_bytes ? MEM_LEVEL_DRAM : MEM_LEVEL_L2;
                r->l2_slice = l2_set == CACHE_SET_UNKNOWN || !served
                                  ? HIER_SLICE_UNKNOWN
                                  : (uint16_t)cache_slice_of_set(ms->l2, l2_set);
            }
            hier_count_l1(rq, &res);
            return st;
        }
    }
    mem_status st = cache_write_line_bits(l1, r->line_addr, r->data, r->mask, r->byte_bits, &h1,
                                          &res);
    hier_count_l1(rq, &res);
    return st;
}

/* hier_global_local's line loop for a store: its lines in order, global ones (`global`: the
 * coalescer made global lines only, not a surface's) by store_pair_run first, and again after
 * a line it did not take when it had taken some (a run of lines the loads missed stops it for
 * the access); each other line through store_line with its LSU counts (not a surface's).
 * l2_hints_per_line: the L2 hints depend on the line's address. */
mem_status hier_store_lines(memsys *ms, mem_request *rq, cache *l1, const mem_access *acc,
                            int global, int served, int l2_hints_per_line, int surface)
{
    cache_hints h1;
    int pair = global && store_pair_fits(ms, rq, &h1);
    int logged = global && !pair && store_log_fits(ms, rq, &h1);
    int l2_hints_kind = -1;
    for (uint32_t i = 0; i < ms->nreqs; i++) {
        line_req *r = &ms->reqs[i];
        if (pair || logged) { /* a run from line i (pair and logged exclude each other) */
            if (l2_hints_kind != LINE_KIND_GLOBAL) {
                hier_set_l2_hints(ms, rq, LINE_KIND_GLOBAL, r->line_addr, acc->policy);
                l2_hints_kind = LINE_KIND_GLOBAL;
            }
            mem_status st = MEM_OK;
            uint32_t done = pair ? store_pair_run(ms, rq, l1, &h1, i, served)
                                 : store_log_run(ms, rq, l1, &h1, i, &st);
            if (st != MEM_OK)
                return st;
            if (!done) /* the run stopped at line i: the rest line by line */
                pair = logged = 0;
            i += done;
            if (i == ms->nreqs)
                break;
            r = &ms->reqs[i];
        }
        rq->line = r;
        if (l2_hints_per_line || r->kind != l2_hints_kind) {
            hier_set_l2_hints(ms, rq, r->kind, r->line_addr, acc->policy);
            l2_hints_kind = r->kind;
        }
        uint64_t sectors0 = rq->counters->l1.sector_accesses, hits0 = rq->counters->l1.sector_hits;
        if (i < ms->masks_lazy) /* a field store's line the runs did not take */
            coalesce_fill_mask(ms, r);
        mem_status st = store_line(ms, rq, l1, r, served);
        if (st != MEM_OK)
            return st;
        if (!surface)
            hier_count_lsu_line(rq, r, 1, i == 0, sectors0, hits0);
    }
    return MEM_OK;
}

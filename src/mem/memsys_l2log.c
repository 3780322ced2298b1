/* The stores' logged L2 writes applied by parts, one per host thread (memsys_l2log.h).
 *
 * Why the result is the serial one: a logged write is one cache_write of one L2 line, plus the
 * write-back to the backing store of the victim it may evict from the same set; it never reads
 * the store (a store miss allocates without fetching). With cache_view_ready, the L2 couples
 * its sets only through what the views keep apart (cache_view.h). A part takes every entry
 * whose line falls in its share of the sets, in the serial order (log by log, entry by entry),
 * and stamps entry i of that order with clock base + i + 1, so each set sees the serial
 * sequence with stamps in the serial order. The counters are sums, so each part counts into
 * its own thread's counters. The victims' write-backs are kept per part and made to the
 * backing store after the parts: different parts write different lines, and one part's in its
 * order, so the bytes end the same; the store's page table grows on one thread only. */
#include "mem/memsys_l2log.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache_view.h"
#include "mem/memsys_internal.h"

/* A write of the L2 view to the backing store, made after the parts (memsys_store_logs_finish). */
typedef struct store_write {
    uint64_t addr;
    uint32_t bytes, log;
    uint8_t has_mask;
    uint8_t data[LINE_BYTES_MAX], mask[LINE_BYTES_MAX];
} store_write;

struct memsys_l2_part {
    memsys *view;       /* the thread's tally view: its counters */
    cache *l2;          /* the part's view of the L2 */
    uint64_t clock;     /* the L2's clock when the logs were begun */
    uint32_t log;       /* the log of the entry being applied */
    bool sliced;        /* the L2 has slices (part_key) */
    uint32_t failed_log;/* the lowest log with an entry that failed; UINT32_MAX: none */
    store_write *writes;
    uint32_t nwrites, cap;
};

/* The L2 view's next level for writes (victims' write-backs, write-through): counted as
 * mem_hier.c's adapter counts them, kept for memsys_store_logs_finish. */
static mem_status part_store_write(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                   const uint8_t *data, const uint8_t *byte_mask)
{
    memsys_l2_part *p = ctx;
    mem_request *rq = request;
    rq->counters->dram.write_bytes += bytes;
    if (bytes > LINE_BYTES_MAX)
        return MEM_ERR_ARGUMENT; /* within one L2 line: not reached */
    if (p->nwrites == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 64;
        store_write *w = realloc(p->writes, cap * sizeof *w);
        if (!w)
            return MEM_ERR_NOMEM;
        p->writes = w;
        p->cap = cap;
    }
    store_write *w = &p->writes[p->nwrites++];
    w->addr = addr;
    w->bytes = bytes;
    w->log = p->log;
    w->has_mask = byte_mask != NULL;
    memcpy(w->data, data, bytes);
    if (byte_mask)
        memcpy(w->mask, byte_mask, bytes);
    return MEM_OK;
}

/* A store to the L2 never fetches: a read here would be a bug. */
static mem_status part_store_read(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                                  uint8_t *out)
{
    (void)ctx, (void)request, (void)addr, (void)bytes, (void)out;
    assert(!"an L2 store read the backing store");
    return MEM_ERR_ARGUMENT;
}

memsys_l2_part *memsys_l2_part_create(memsys *ms, memsys *view)
{
    memsys_l2_part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    cache_next_level next = {.ctx = p, .read = part_store_read, .write = part_store_write,
                             .writeback_runs = true};
    p->view = view;
    p->sliced = cache_get_config(ms->l2)->slices > 1;
    p->l2 = cache_view_create(ms->l2, &next);
    if (!p->l2) {
        free(p);
        return NULL;
    }
    return p;
}

void memsys_l2_part_destroy(memsys_l2_part *p)
{
    if (!p)
        return;
    cache_view_destroy(p->l2);
    free(p->writes);
    free(p);
}

int memsys_store_logs_begin(memsys *ms, memsys_l2_part *const *parts, uint32_t nparts,
                            memsys_store_log *const *logs, uint32_t nlogs)
{
    uint64_t entries = 0;
    for (uint32_t i = 0; i < nlogs; i++) {
        if (logs[i]->reads) /* the parts make no reads: the logs go one after the other */
            return 0;
        entries += logs[i]->count;
    }
    if (nparts < 2 || entries < MEMSYS_L2_PART_MIN_WRITES || !cache_view_ready(ms->l2))
        return 0;
    for (uint32_t t = 0; t < nparts; t++) {
        memsys_l2_part *p = parts[t];
        cache_view_begin(p->l2, ms->l2);
        p->clock = cache_clock(ms->l2);
        p->failed_log = UINT32_MAX;
        p->nwrites = 0;
    }
    return 1;
}

/* Entry e of log `log` through the part's view, as hier_apply_store_log writes it (the entry
 * has no line request of its own, so no served levels are recorded). */
static void apply_entry(memsys_l2_part *p, const logged_store *e, uint32_t log)
{
    memsys *view = p->view;
    /* mem_request_for's counters (the logging request's), in this thread's view */
    mem_counters *counters =
        e->insn_id < view->ninsns ? &view->per_insn[e->insn_id] : &view->unattributed;
    mem_request rq = {.attrs = e->attrs, .insn_id = e->insn_id, .sm = e->sm,
                      .counters = counters, .l2 = e->l2};
    rq.l2.request = &rq;
    p->log = log;
    cache_result r;
    const uint8_t *mask = e->has_mask ? e->mask : NULL;
    mem_status st = e->has_bits
                        ? cache_write_line_bits(p->l2, e->addr, e->data, mask, e->bits, &rq.l2, &r)
                        : cache_write_masked(p->l2, e->addr, e->bytes, e->data, mask, &rq.l2, &r);
    hier_count_l2(&rq, &r);
    if (st != MEM_OK && log < p->failed_log)
        p->failed_log = log;
}

/* What decides the part of an entry: a function of its line's set, so that each set's entries
 * stay in one part. A sliced L2's slice is one (slice s holds sets s, s + slices, ...) and
 * costs less than the set; an L2 without slices takes blocks of 16 consecutive sets (one
 * line_group block of a 16-way set each), so that parts do not write the same host cache
 * lines. */
static uint32_t part_key(const memsys_l2_part *p, uint64_t addr)
{
    return p->sliced ? cache_slice_of(p->l2, addr) : cache_set_of(p->l2, addr) >> 4;
}

void memsys_store_logs_apply_part(memsys_l2_part *p, memsys_store_log *const *logs,
                                  uint32_t nlogs, uint32_t part, uint32_t nparts)
{
    uint64_t at = p->clock; /* the stamp before the entry's, in the serial order */
    for (uint32_t i = 0; i < nlogs; i++) {
        const memsys_store_log *log = logs[i];
        for (uint32_t k = 0; k < log->count; k++, at++) {
            const logged_store *e = &log->entries[k];
            if (part_key(p, e->addr) % nparts != part)
                continue;
            cache_view_set_clock(p->l2, at);
            apply_entry(p, e, i);
        }
    }
}

int memsys_store_logs_finish(memsys *ms, memsys_l2_part *const *parts, uint32_t nparts,
                             memsys_store_log *const *logs, uint32_t nlogs,
                             uint32_t *failed_log)
{
    uint64_t entries = 0;
    uint32_t failed = UINT32_MAX;
    for (uint32_t i = 0; i < nlogs; i++) entries += logs[i]->count;
    for (uint32_t t = 0; t < nparts; t++) {
        memsys_l2_part *p = parts[t];
        cache_view_merge(ms->l2, p->l2, p->clock + entries);
        failed = p->failed_log < failed ? p->failed_log : failed;
        for (uint32_t k = 0; k < p->nwrites; k++) {
            const store_write *w = &p->writes[k];
            if (dram_write(ms->store, w->addr, w->bytes, w->data, w->has_mask ? w->mask : NULL) !=
                    MEM_OK &&
                w->log < failed)
                failed = w->log;
        }
        p->nwrites = 0;
    }
    for (uint32_t i = 0; i < nlogs; i++) {
        memsys_store_log *log = logs[i];
        if (log->failed && i < failed)
            failed = i;
        log->count = log->writes = log->reads = 0;
        log->failed = 0;
    }
    *failed_log = failed;
    return failed == UINT32_MAX ? 0 : -1;
}

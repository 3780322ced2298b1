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
 * order, so the bytes end the same; the store's page table grows on one thread only.
 *
 * A log may also hold the L2 reads of the parked loads run by SMs (memsys_pload.c), each a
 * cache_read of one line's run: within one set it too changes only that set and, through its
 * fills, reads the backing store. The parts read the store with dram_peek (its last-page memo and
 * counters are shared) and count the reads for memsys_store_logs_finish; a line a part wrote
 * back and reads again in the same phase is read over the part's pending writes (part_read),
 * since only that part writes or reads its lines. */
#include "mem/memsys_l2log.h"

#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
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

/* Words of a part's filter of the lines among its writes (a bit per line-number hash). */
enum { WRITTEN_WORDS = 1024 };

struct memsys_l2_part {
    memsys *view;       /* the thread's tally view: its counters */
    cache *l2;          /* the part's view of the L2 */
    const dram *store;  /* the backing store, only read (dram_peek) while the parts run */
    unsigned line_shift;/* log2 of the L2's line size */
    uint64_t clock;     /* the L2's clock when the logs were begun */
    uint32_t log;       /* the log of the entry being applied */
    const logged_store *reading; /* the read entry being applied; NULL: a write */
    uint32_t failed_log;/* the lowest log with an entry that failed; UINT32_MAX: none */
    store_write *writes;
    uint32_t nwrites, cap;
    uint64_t dram_reads, dram_read_bytes; /* the store's traffic counters for the part's reads */
    uint64_t written[WRITTEN_WORDS];      /* the lines in writes[], hashed */
};

/* The bit of written[] for the line holding addr. */
static uint64_t *written_word(memsys_l2_part *p, uint64_t addr, uint64_t *bit)
{
    uint64_t h = (addr >> p->line_shift) * UINT64_C(0x9E3779B97F4A7C15) >> 48; /* 16 bits */
    *bit = UINT64_C(1) << (h & 63);
    return &p->written[h >> 6];
}

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
    uint64_t bit;
    *written_word(p, addr, &bit) |= bit;
    return MEM_OK;
}

/* The L2 view's next level for fills (a parked load's logged read; a store never fetches):
 * the store's bytes, then over them those of the part's writes not yet made to the store (a
 * victim written back and read again in the same phase: only this part writes or reads its
 * lines), counted as mem_hier.c's adapter counts them; the store's own counters are added by
 * memsys_store_logs_finish. */
static mem_status part_read(void *ctx, void *request, uint64_t addr, uint32_t bytes,
                            uint8_t *out)
{
    memsys_l2_part *p = ctx;
    mem_request *rq = request;
    rq->counters->dram.read_bytes += bytes;
    p->dram_reads++;
    p->dram_read_bytes += bytes;
    const logged_store *e = p->reading;
    if (e && e->has_data && addr >= e->addr && addr + bytes <= e->addr + e->bytes) {
        /* the load's bytes: the store's at this place in the serial order, wherever the L2
         * was not valid, which is where a fill reads (the fill keeps the valid bytes) */
        memsys_copy_run(out, e->data + (addr - e->addr), bytes);
        return MEM_OK;
    }
    mem_status st = dram_peek(p->store, addr, bytes, out);
    uint64_t bit;
    if (st != MEM_OK || !(*written_word(p, addr, &bit) & bit))
        return st;
    for (uint32_t k = 0; k < p->nwrites; k++) {
        const store_write *w = &p->writes[k];
        memsys_overlay_write(w->addr, w->bytes, w->data, w->has_mask ? w->mask : NULL, NULL, addr,
                             bytes, out);
    }
    return MEM_OK;
}

memsys_l2_part *memsys_l2_part_create(memsys *ms, memsys *view)
{
    memsys_l2_part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    cache_next_level next = {.ctx = p, .read = part_read, .write = part_store_write,
                             .writeback_runs = true};
    p->view = view;
    p->store = ms->store;
    p->line_shift = (unsigned)__builtin_ctz(cache_get_config(ms->l2)->line_bytes);
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
    for (uint32_t i = 0; i < nlogs; i++) entries += logs[i]->count;
    /* A read's evict-last grant joins the list of the whole cache and a fill wider than the
     * line reaches other sets: memsys_pload.c notes either as it logs the read, so that this
     * thread (the calling one, between phases) need not walk every entry. The logs are
     * emptied after this call, so the note is cleared with them. */
    int coupled = atomic_exchange_explicit(&ms->defer->coupled, 0, memory_order_relaxed) != 0;
    if (nparts < 2 || entries < MEMSYS_L2_PART_MIN_WRITES || !cache_view_ready(ms->l2) ||
        coupled)
        return 0;
    for (uint32_t t = 0; t < nparts; t++) {
        memsys_l2_part *p = parts[t];
        cache_view_begin(p->l2, ms->l2);
        p->clock = cache_clock(ms->l2);
        p->failed_log = UINT32_MAX;
        p->nwrites = 0; /* and written[] is clear: memsys_store_logs_finish clears its words */
        p->dram_reads = p->dram_read_bytes = 0;
    }
    return 1;
}

/* Entry e of log `log` through the part's view, as hier_apply_store_log writes it (the entry
 * has no line request of its own, so no served levels are recorded), in the set the entry was
 * logged with. */
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
    if (e->read) { /* a parked load's read, its bytes taken already (memsys_pload.c) */
        p->reading = e;
        mem_status st = cache_read_in_set(p->l2, e->set, e->addr, e->bytes, NULL, &rq.l2, &r);
        p->reading = NULL;
        hier_count_l2(&rq, &r);
        if (st != MEM_OK && log < p->failed_log)
            p->failed_log = log;
        return;
    }
    const uint8_t *mask = e->has_mask ? e->mask : NULL;
    mem_status st = e->has_bits ? cache_write_line_bits_in_set(p->l2, e->set, e->addr, e->data,
                                                               mask, e->bits, &rq.l2, &r)
                                : cache_write_masked(p->l2, e->addr, e->bytes, e->data, mask,
                                                     &rq.l2, &r);
    hier_count_l2(&rq, &r);
    if (st != MEM_OK && log < p->failed_log)
        p->failed_log = log;
}

/* Host-cache prefetches of the fields of entry e that apply_entry reads when it has no mask:
 * its header, store bits and data (memsys_internal.h: the host lines up to its mask). */
static inline void entry_prefetch(const logged_store *e)
{
    const char *b = (const char *)e;
    for (size_t off = 0; off < offsetof(logged_store, mask); off += 64) __builtin_prefetch(b + off);
}

/* What decides the part of an entry (memsys_l2_key): a function of its line's set, so that each
 * set's entries stay in one part: blocks of 16 consecutive sets (of a 16-way L2: 256 line
 * records of 40 bytes and 256 tag prints, whole host cache lines each), so that parts do not
 * write the same host cache lines, sliced L2 or not (the set is in the entry already, worked
 * out as it was logged). Eight bits of it are kept: the parts are then key mod the number of
 * parts, still a function of the set. */
void memsys_store_logs_apply_part(memsys_l2_part *p, memsys_store_log *const *logs,
                                  uint32_t nlogs, uint32_t part, uint32_t nparts, memsys *view)
{
    /* Which keys are the part's: one look-up an entry instead of a division */
    uint8_t mine[256];
    for (uint32_t key = 0; key < 256; key++) mine[key] = key % nparts == part;
    if (view)
        p->view = view;
    uint64_t at = p->clock; /* the stamp before the log's first entry, in the serial order */
    for (uint32_t i = 0; i < nlogs; i++) {
        const memsys_store_log *log = logs[i];
        const uint8_t *keys = log->keys;
        /* The part's entries of the log a block at a time, so that each entry's host lines
         * (written on another thread, most of a phase ago) are prefetched PREFETCH_ENTRY
         * entries ahead and its L2 set's records PREFETCH_SET ahead (its set read from the
         * entry prefetched before): the apply otherwise waits for the host's memory at each
         * entry's first field and again at its line's tags. Changes nothing the model holds. */
        enum { BLOCK = 64, PREFETCH_ENTRY = 4, PREFETCH_SET = 2 };
        uint32_t idx[BLOCK];
        for (uint32_t from = 0; from < log->count;) {
            uint32_t n = 0;
            for (; from < log->count && n < BLOCK; from++)
                if (mine[keys[from]])
                    idx[n++] = from;
            for (uint32_t j = 0; j < n && j < PREFETCH_ENTRY; j++) entry_prefetch(&log->entries[idx[j]]);
            for (uint32_t j = 0; j < n && j < PREFETCH_SET; j++)
                cache_prefetch_set_at(p->l2, log->entries[idx[j]].set);
            for (uint32_t j = 0; j < n; j++) {
                if (j + PREFETCH_ENTRY < n)
                    entry_prefetch(&log->entries[idx[j + PREFETCH_ENTRY]]);
                if (j + PREFETCH_SET < n)
                    cache_prefetch_set_at(p->l2, log->entries[idx[j + PREFETCH_SET]].set);
                cache_view_set_clock(p->l2, at + idx[j]);
                apply_entry(p, &log->entries[idx[j]], i);
            }
        }
        at += log->count;
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
        dram_count_reads(ms->store, p->dram_reads, p->dram_read_bytes);
        p->dram_reads = p->dram_read_bytes = 0;
        for (uint32_t k = 0; k < p->nwrites; k++) {
            const store_write *w = &p->writes[k];
            uint64_t bit;
            *written_word(p, w->addr, &bit) = 0; /* every write is made: clear for the next */
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
        log->written = 0;
        log->failed = 0;
    }
    *failed_log = failed;
    return failed == UINT32_MAX ? 0 : -1;
}

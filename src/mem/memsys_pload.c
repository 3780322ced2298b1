/* The parked loads run by SMs on several host threads (memsys_l2log.h; docs/architecture.md,
 * "The parked loads by SMs").
 *
 * Why a load may take its bytes before its L2 read is made: while only loads run, memory (the
 * L2's valid bytes over the backing store's) changes only by the L1 victims' write-backs, and
 * what a read of the L2 returns is memory's bytes, whatever the L2 holds (a fill keeps the valid
 * bytes and reads the rest from the store; a victim written back takes its newest bytes down).
 * So a load's read returns the bytes at the phase's start with every write-back made before it
 * in the serial order laid over them. Those are the write-backs of its own SM before it (its
 * own log) and of the SMs before its SM (theirs, complete once they are done). Another SM can
 * write back only a line that is dirty in its L1, which a store put there: every store that may
 * leave an L1 line dirty is noted in a filter of lines (hier_note_l1_store), and only a read of
 * a noted line waits for the SMs before its own and lays their write-backs over it. The reads
 * and write-backs are logged in the SM's log in order; applying the logs SM by SM leaves the
 * L2, the backing store and the counters as the serial order leaves them. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "mem/memsys_internal.h"
#include "mem/memsys_l2log.h"

/* Words of the dirty-line filter: 2^18 x 64 bits (2 MiB); a line noted by mistake (another's
 * bit) only makes a read wait. */
enum { DIRTY_WORDS = 1u << 18 };

static mem_status defer_line_read(void *ctx, const cache_hints *h, uint64_t addr, uint32_t bytes,
                                  uint8_t *out);

int pload_create(memsys *ms)
{
    ms->defer = calloc(1, sizeof *ms->defer);
    return ms->defer ? 0 : -1;
}

void pload_destroy(memsys *ms)
{
    if (!ms->defer)
        return;
    free((void *)ms->defer->dirty);
    free((void *)ms->defer->done);
    free(ms->defer);
    ms->defer = NULL;
}

int memsys_ploads_plain(const memsys *ms, const ir_mem_attrs *a)
{
    return !a->uniform && !a->l1_ctl && !a->l2_ctl && !(a->l1 & IR_L1_INVALIDATE) &&
           a->fill_bytes <= ms->line_bytes;
}

int memsys_ploads_prepare(memsys *ms, uint32_t nsm)
{
    struct load_defer *d = ms->defer;
    if (!d->dirty) {
        d->dirty = calloc(DIRTY_WORDS, sizeof *d->dirty);
        d->done = calloc(nsm ? nsm : 1, sizeof *d->done);
        if (!d->dirty || !d->done) {
            free((void *)d->dirty);
            free((void *)d->done);
            d->dirty = NULL;
            d->done = NULL;
            return -1;
        }
        d->dirty_words = DIRTY_WORDS;
        d->nlogs = nsm;
    }
    return 0;
}

void memsys_ploads_unprepare(memsys *ms)
{
    struct load_defer *d = ms->defer;
    free((void *)d->dirty);
    free((void *)d->done);
    d->dirty = NULL;
    d->done = NULL;
}

void memsys_ploads_begin(memsys *ms, memsys_store_log *const *logs)
{
    struct load_defer *d = ms->defer;
    for (uint32_t s = 0; s < d->nlogs; s++)
        atomic_store_explicit(&d->done[s], 0, memory_order_relaxed);
    atomic_store_explicit(&d->coupled, 0, memory_order_relaxed);
    d->logs = logs;
    cache_set_read_deferral(ms->l2, defer_line_read, ms);
}

void memsys_ploads_sm_done(memsys *ms, uint32_t sm)
{
    atomic_store_explicit(&ms->defer->done[sm], 1, memory_order_release);
}

void memsys_ploads_end(memsys *ms)
{
    ms->defer->logs = NULL;
    cache_set_read_deferral(ms->l2, NULL, NULL);
}

memsys_store_log *hier_deferred_log(const memsys *ms, const mem_request *rq)
{
    return ms->defer->logs[rq->sm];
}

/* Lays the writes of `log` (its first `count` entries) that overlap [addr, addr + bytes) over
 * out, in order. `bit`: memsys_log_line_bit of the line: a log that wrote no line with that bit
 * has none to lay. */
static void overlay(const memsys_store_log *log, uint32_t count, uint64_t addr, uint32_t bytes,
                    uint8_t *out, uint64_t bit)
{
    if (!(log->written & bit))
        return;
    for (uint32_t i = 0; i < count; i++) {
        const logged_store *e = &log->entries[i];
        if (!e->read)
            memsys_overlay_write(e->addr, e->bytes, e->data, e->has_mask ? e->mask : NULL,
                                 e->has_bits ? e->bits : NULL, addr, bytes, out);
    }
}

/* The SMs before `sm` done: their logs are complete (acquire). */
static void wait_before(const struct load_defer *d, uint32_t sm)
{
    for (uint32_t s = 0; s < sm; s++)
        while (!atomic_load_explicit(&d->done[s], memory_order_acquire))
            sched_yield();
}

mem_status hier_defer_l2_read(const memsys *ms, const mem_request *rq, const cache_hints *h,
                              uint64_t addr, uint32_t bytes, uint8_t *out)
{
    struct load_defer *d = ms->defer;
    memsys_store_log *own = d->logs[rq->sm];
    uint32_t before = own->count; /* the SM's write-backs before this read */
    if (hier_log_l2_access(ms, own, rq, addr, bytes, NULL, NULL) != MEM_OK)
        return MEM_ERR_NOMEM;
    own->entries[before].l2 = *h; /* the read's hints, not those of rq's line in progress */
    if (h->alloc == CACHE_ALLOC_LAST || h->fill_bytes > ms->line_bytes)
        atomic_store_explicit(&d->coupled, 1, memory_order_relaxed);
    if (!out)
        return MEM_OK;
    mem_status st = MEM_OK;
    int held = cache_peek_run(ms->l2, addr, bytes, out);
    if (held != 1)
        st = dram_peek(ms->store, addr, bytes, out);
    if (held == 0) { /* the line's valid bytes over the store's */
        uint8_t got[LINE_BYTES_MAX];
        cache_peek(ms->l2, addr, bytes, out, got);
    }
    uint64_t bit, line_bit = memsys_log_line_bit(addr, ms->line_bytes);
    uint32_t w = pload_dirty_word(d, addr & ~(uint64_t)(ms->line_bytes - 1), &bit);
    if (h->kind != LINE_KIND_LOCAL &&
        (atomic_load_explicit(&d->dirty[w], memory_order_relaxed) & bit)) {
        wait_before(d, rq->sm);
        for (uint32_t s = 0; s < rq->sm; s++)
            overlay(d->logs[s], d->logs[s]->count, addr, bytes, out, line_bit);
    }
    overlay(own, before, addr, bytes, out, line_bit);
    /* Memory's bytes are the store's wherever the L2 is not valid, the only bytes a fill takes
     * from the store: kept for the part that makes this read (memsys_l2log.c, part_read). */
    logged_store *e = &own->entries[before];
    if (st == MEM_OK && held != 1 && bytes <= LINE_BYTES_MAX) {
        memsys_copy_run(e->data, out, bytes);
        e->has_data = 1;
    }
    return st;
}

/* cache_deferred_read for the L2 (ctx: ms): cache_read_line_miss's read, deferred. */
static mem_status defer_line_read(void *ctx, const cache_hints *h, uint64_t addr, uint32_t bytes,
                                  uint8_t *out)
{
    const memsys *ms = ctx;
    return hier_defer_l2_read(ms, h->request, h, addr, bytes, out);
}

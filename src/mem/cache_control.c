/* Cache control of one cache level (cache.h: invalidate, discard, write back and re-class one
 * line or every line of some kinds, in some slices, and the final flush; docs/cache-model.md,
 * "Cache control"). The whole-cache operations visit only the groups of line slots that ever
 * held a line (cache.used_groups). */
#include "mem/cache.h"

#include <string.h>

#include "mem/cache_ops.h"

static mem_status invalidate_one(cache *c, uint32_t line, bool writeback_first, void *rq,
                                 cache_result *r)
{
    if (writeback_first) {
        mem_status st = cache_writeback_dirty(c, line, rq, r);
        if (st != MEM_OK)
            return st;
    }
    cache_drop_line(c, line);
    c->stats.invalidated_lines++;
    return MEM_OK;
}

typedef enum line_op { LINE_DISCARD, LINE_INVALIDATE, LINE_WRITEBACK, LINE_INVALIDATE_CLEAN } line_op;

/* One line operation on a resident line. */
static mem_status line_control(cache *c, uint32_t line, line_op op, void *rq, cache_result *r)
{
    switch (op) {
    case LINE_WRITEBACK: return cache_writeback_dirty(c, line, rq, r);
    case LINE_INVALIDATE_CLEAN:
        if (LINE_FIELD(c, line, dirty_sectors) != 0)
            return MEM_OK;
        return invalidate_one(c, line, false, rq, r);
    default: return invalidate_one(c, line, op == LINE_INVALIDATE, rq, r);
    }
}

/* Runs a line operation on the line holding addr and accounts its traffic. */
static mem_status control_line(cache *c, uint64_t addr, line_op op, void *rq,
                               cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    uint32_t line = lookup_line(c, addr);
    if (line == NO_INDEX)
        return MEM_OK;
    r->line_hit = true;
    mem_status st = line_control(c, line, op, rq, r);
    result_add_to_stats(c, r);
    return st;
}

mem_status cache_invalidate_line(cache *c, uint64_t addr, bool writeback_first, void *request,
                                 cache_result *result)
{
    return control_line(c, addr, writeback_first ? LINE_INVALIDATE : LINE_DISCARD, request,
                        result);
}

mem_status cache_discard_line(cache *c, uint64_t addr, cache_result *result)
{
    return control_line(c, addr, LINE_DISCARD, NULL, result);
}

mem_status cache_writeback_line(cache *c, uint64_t addr, void *request, cache_result *result)
{
    return control_line(c, addr, LINE_WRITEBACK, request, result);
}

mem_status cache_invalidate_clean_line(cache *c, uint64_t addr, cache_result *result)
{
    return control_line(c, addr, LINE_INVALIDATE_CLEAN, NULL, result);
}

mem_status cache_set_line_priority(cache *c, uint64_t addr, cache_priority priority)
{
    if ((unsigned)priority > CACHE_PRIORITY_LAST)
        return MEM_ERR_ARGUMENT;
    uint32_t line = lookup_line(c, addr);
    if (line != NO_INDEX)
        cache_set_class(c, line, priority);
    return MEM_OK;
}

/* Runs op on every resident line of the selected kinds whose slice is in [first, first + count)
 * (slice s of a sliced cache owns sets s, s + slices, ...: set_index). */
static mem_status control_range(cache *c, uint32_t kind_filter, uint32_t first, uint32_t count,
                                line_op op, void *rq, cache_result *result)
{
    cache_result local;
    cache_result *r = result != NULL ? result : &local;
    memset(r, 0, sizeof *r);
    mem_status st = MEM_OK;
    uint32_t slices = c->config.slices > 1 ? c->config.slices : 1;
    /* The groups that ever held a line, in slot order; a write-back passes clean lines by. */
    uint32_t groups = (c->slot_count + GROUP_LINES - 1) >> GROUP_SHIFT;
    for (uint32_t k = 0; k < (groups + 63) / 64 && st == MEM_OK; k++) {
        for (uint64_t used = c->used_groups[k]; used && c->resident_lines != 0; used &= used - 1) {
            uint32_t base = (k * 64 + (uint32_t)__builtin_ctzll(used)) << GROUP_SHIFT;
            for (uint32_t line = base; line < base + GROUP_LINES && line < c->slot_count;
                 line++) {
                const line_meta *m = &c->meta[line];
                if (m->tag == NO_LINE || !((kind_filter >> m->kind) & 1) ||
                    (op == LINE_WRITEBACK && m->dirty_sectors == 0))
                    continue;
                uint32_t slice = (line / c->set_stride) % slices;
                if (slice < first || slice - first >= count)
                    continue;
                st = line_control(c, line, op, rq, r);
                if (st != MEM_OK || c->resident_lines == 0)
                    break;
            }
            if (st != MEM_OK)
                break;
        }
    }
    result_add_to_stats(c, r);
    return st;
}

static mem_status control_all(cache *c, uint32_t kind_filter, line_op op, void *rq,
                              cache_result *result)
{
    return control_range(c, kind_filter, 0, UINT32_MAX, op, rq, result);
}

mem_status cache_control_slices(cache *c, uint32_t kind_filter, uint32_t first_slice,
                                uint32_t slice_count, cache_whole_op op, void *request,
                                cache_result *result)
{
    static const line_op ops[] = {[CACHE_WHOLE_WRITEBACK] = LINE_WRITEBACK,
                                  [CACHE_WHOLE_INVALIDATE] = LINE_INVALIDATE,
                                  [CACHE_WHOLE_DISCARD] = LINE_DISCARD,
                                  [CACHE_WHOLE_INVALIDATE_CLEAN] = LINE_INVALIDATE_CLEAN};
    if ((unsigned)op >= sizeof ops / sizeof ops[0])
        return MEM_ERR_ARGUMENT;
    return control_range(c, kind_filter, first_slice, slice_count, ops[op], request, result);
}

mem_status cache_invalidate_all(cache *c, uint32_t kind_filter, bool writeback_dirty,
                                void *request, cache_result *result)
{
    return control_all(c, kind_filter, writeback_dirty ? LINE_INVALIDATE : LINE_DISCARD, request,
                       result);
}

mem_status cache_writeback_all(cache *c, uint32_t kind_filter, void *request,
                               cache_result *result)
{
    return control_all(c, kind_filter, LINE_WRITEBACK, request, result);
}

mem_status cache_invalidate_clean_all(cache *c, uint32_t kind_filter, cache_result *result)
{
    return control_all(c, kind_filter, LINE_INVALIDATE_CLEAN, NULL, result);
}

mem_status cache_flush(cache *c, cache_result *result)
{
    return control_all(c, CACHE_KIND_ALL, LINE_WRITEBACK, NULL, result);
}


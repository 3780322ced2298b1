/* The memory system's life and its host side: creation and tear-down, the per-instruction
 * counter tables and their totals, tallies (counters kept apart for a host thread), device
 * allocations and the host's copies into and out of them, the constant banks and the parameter
 * buffer. None of it runs on an access's path; the accesses are in memsys.c. */
#include "mem/memsys.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu.h"
#include "mem/memsys_internal.h"

/* Bytes left unmapped after each allocation, so that a kernel running past its end faults
 * (docs/api.md) instead of reading the next one. */
enum { ALLOC_GAP = 64 * 1024 };

memsys *memsys_create(const memsys_config *cfg, diag_list *dl)
{
    memsys *ms = calloc(1, sizeof *ms);
    if (!ms)
        return NULL;
    ms->cfg = *cfg;
    memset(ms->req_hash, 0xFF, sizeof ms->req_hash);
    dram_config dc = {.page_bytes = cfg->dram_page_bytes};
    static const ir_mem_attrs no_attrs;
    ms->own_work = (mem_request){.attrs = &no_attrs, .insn_id = UINT32_MAX,
                                 .counters = &ms->unattributed};
    ms->l1_sector_shift = cfg->l1.sector_bytes ? (unsigned)__builtin_ctz(cfg->l1.sector_bytes) : 5;
    ms->l2_sector_shift = cfg->l2.sector_bytes ? (unsigned)__builtin_ctz(cfg->l2.sector_bytes) : 5;
    ms->line_bytes = cfg->l1.line_bytes ? cfg->l1.line_bytes : LINE_BYTES_MAX;
    ms->host_avx2 = (uint8_t)cpu_has_avx2();
    mem_shared_setup(ms);
    if (pload_create(ms) || dram_create(&dc, dl, &ms->store) != MEM_OK || hier_create(ms, dl)) {
        memsys_destroy(ms);
        return NULL;
    }
    if (cfg->sm_count) { /* cache_create made both sizes powers of two */
        const cache_config *ic = cache_get_config(ms->icache[0]);
        ms->ifetch_line_mask = ~(uint64_t)(ic->line_bytes - 1);
        ms->ifetch_sector_shift = (unsigned)__builtin_ctz(ic->sector_bytes);
    }
    ms->next_base = MEM_GLOBAL_BASE;
    return ms;
}

void memsys_destroy(memsys *ms)
{
    if (!ms)
        return;
    hier_destroy(ms);
    pload_destroy(ms);
    dram_destroy(ms->store);
    free(ms->allocs);
    for (uint32_t b = 0; b < MEM_CONST_BANKS; b++) free(ms->const_bank[b]);
    free(ms->insn_all);
    mem_image_table_fini(&ms->images);
    mem_sampler_table_fini(&ms->samplers);
    free(ms);
}

int memsys_set_insn_count(memsys *ms, uint32_t ninsns)
{
    mem_counters *c = calloc(ninsns ? ninsns : 1, sizeof *c);
    if (!c)
        return -1;
    free(ms->insn_all);
    ms->insn_all = ms->per_insn = c;
    ms->insn_total = ms->ninsns = ninsns;
    ms->insn_base = 0;
    return 0;
}

int memsys_grow_insns(memsys *ms, uint32_t total)
{
    if (total <= ms->insn_total)
        return 0;
    mem_counters *c = realloc(ms->insn_all, total * sizeof *c);
    if (!c)
        return -1;
    memset(c + ms->insn_total, 0, (total - ms->insn_total) * sizeof *c);
    ms->insn_all = c;
    ms->insn_total = total;
    ms->per_insn = c + ms->insn_base;
    return 0;
}

void memsys_select_insns(memsys *ms, uint32_t base, uint32_t ninsns)
{
    if (base > ms->insn_total)
        base = ms->insn_total;
    if (ninsns > ms->insn_total - base)
        ninsns = ms->insn_total - base;
    ms->insn_base = base;
    ms->per_insn = ms->insn_all + base;
    ms->ninsns = ninsns;
}

const void *memsys_const_owner(const memsys *ms) { return ms->const_owner; }
void memsys_set_const_owner(memsys *ms, const void *owner) { ms->const_owner = owner; }

const mem_counters *memsys_insn_counters(const memsys *ms) { return ms->insn_all; }
const mem_counters *memsys_unattributed_counters(const memsys *ms) { return &ms->unattributed; }

/* A tally is a copy of the memory system taken at its creation: the same caches, store and
 * tables (shared, by pointer), but its own access scratch, allocation look-up hint and
 * counters. Only the paths that touch the caches of one SM may run through it. */
struct memsys_tally {
    memsys view;
    mem_counters per_insn[]; /* view.ninsns */
};

memsys_tally *memsys_tally_create(const memsys *ms)
{
    memsys_tally *t = calloc(1, sizeof *t + (size_t)ms->ninsns * sizeof t->per_insn[0]);
    if (!t)
        return NULL;
    t->view = *ms;
    t->view.insn_all = t->view.per_insn = t->per_insn;
    t->view.insn_total = ms->ninsns;
    t->view.insn_base = 0;
    memset(&t->view.unattributed, 0, sizeof t->view.unattributed);
    t->view.own_work.counters = &t->view.unattributed;
    t->view.lead_acc = NULL;
    return t;
}

memsys *memsys_tally_view(memsys_tally *t) { return &t->view; }

void memsys_tally_merge(memsys *ms, memsys_tally *t)
{
    uint32_t n = t->view.ninsns < ms->ninsns ? t->view.ninsns : ms->ninsns;
    static const mem_counters zero;
    for (uint32_t i = 0; i < n; i++)
        if (memcmp(&t->per_insn[i], &zero, sizeof zero)) {
            mem_counters_add(&ms->per_insn[i], &t->per_insn[i]);
            memset(&t->per_insn[i], 0, sizeof t->per_insn[i]);
        }
    mem_counters_add(&ms->unattributed, &t->view.unattributed);
    memset(&t->view.unattributed, 0, sizeof t->view.unattributed);
}

void memsys_tally_destroy(memsys_tally *t) { free(t); }

void memsys_total_counters(const memsys *ms, mem_counters *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < ms->insn_total; i++) mem_counters_add(out, &ms->insn_all[i]);
    mem_counters_add(out, &ms->unattributed);
    out->l2.lines_evict_first = out->l2.lines_evict_normal = out->l2.lines_evict_last = 0;
    out->l2.peak_evict_last_lines = 0;
    const cache_stats *st = cache_get_stats(ms->l2);
    out->l2.lines_evict_first = st->lines_by_priority[CACHE_PRIORITY_FIRST];
    out->l2.lines_evict_normal = st->lines_by_priority[CACHE_PRIORITY_NORMAL];
    out->l2.lines_evict_last = st->lines_by_priority[CACHE_PRIORITY_LAST];
    out->l2.peak_evict_last_lines = st->peak_last_lines;
}

int memsys_alloc(memsys *ms, uint64_t bytes, uint64_t align, uint64_t *addr)
{
    if (bytes == 0 || bytes > (1ull << 40))
        return -1;
    if (align < 256)
        align = 256;
    if (align & (align - 1))
        return -1;
    uint64_t base = (ms->next_base + align - 1) & ~(align - 1);
    if (ms->nallocs == ms->allocs_cap) {
        uint32_t cap = ms->allocs_cap ? ms->allocs_cap * 2 : 16;
        allocation *a = realloc(ms->allocs, cap * sizeof *a);
        if (!a)
            return -1;
        ms->allocs = a;
        ms->allocs_cap = cap;
    }
    ms->allocs[ms->nallocs++] = (allocation){base, bytes};
    ms->next_base = base + bytes + ALLOC_GAP;
    *addr = base;
    return 0;
}

int memsys_host_write(memsys *ms, uint64_t addr, const void *src, uint64_t bytes)
{
    if (mem_find_allocation(ms, addr, bytes) < 0)
        return -1;
    return dram_poke(ms->store, addr, bytes, src) == MEM_OK ? 0 : -1;
}

int memsys_host_read(memsys *ms, uint64_t addr, void *dst, uint64_t bytes)
{
    if (mem_find_allocation(ms, addr, bytes) < 0)
        return -1;
    return dram_peek(ms->store, addr, bytes, dst) == MEM_OK ? 0 : -1;
}

int memsys_set_const_bank_at(memsys *ms, uint32_t bank, const uint8_t *data, uint32_t bytes)
{
    if (bank >= MEM_CONST_BANKS || bytes > MEM_WINDOW_BYTES)
        return -1;
    uint8_t *c = malloc(bytes ? bytes : 1);
    if (!c)
        return -1;
    if (bytes)
        memcpy(c, data, bytes);
    free(ms->const_bank[bank]);
    ms->const_bank[bank] = c;
    ms->const_bytes[bank] = bytes;
    return 0;
}

int memsys_set_const_bank(memsys *ms, const uint8_t *data, uint32_t bytes)
{
    return memsys_set_const_bank_at(ms, 0, data, bytes);
}

void memsys_set_params(memsys *ms, const uint8_t *params, uint32_t bytes)
{
    ms->params = params;
    ms->params_bytes = bytes;
}

uint64_t memsys_backing_bytes(const memsys *ms) { return dram_get_stats(ms->store)->bytes_allocated; }

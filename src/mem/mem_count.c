/* The general access path's counts for shared memory and the constant cache: the bank
 * conflicts of a shared access of any shape (shared_count; mem_shared.c's header describes
 * phases, wavefronts and conflicts; its full-warp paths count their common shapes
 * themselves), and the constant cache's requests.
 *
 * Constant-space and kernel-parameter reads go through a per-SM constant cache: one request per
 * warp access; lanes reading the same address share one lookup, distinct addresses serialise. */
#include <string.h>

#include "mem/mem_shared_words.h"
#include "mem/memsys_internal.h"

/* Wavefronts of one phase: the most distinct words any bank must deliver. */
static __attribute__((noinline)) uint32_t phase_wavefronts(const lane_target *t, uint32_t lanes,
                                                           uint32_t first, uint32_t count,
                                                           uint32_t bytes, uint32_t banks,
                                                           uint32_t width, int broadcast)
{
    uint64_t words[MAX_BANKS][MEM_LANES];
    uint32_t nwords[MAX_BANKS];
    memset(nwords, 0, sizeof nwords);
    uint32_t wavefronts = 0;
    for (uint32_t l = first; l < first + count && l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint64_t w0 = t[l].offset / width, w1 = (t[l].offset + bytes - 1) / width;
        for (uint64_t w = w0; w <= w1; w++) {
            uint32_t b = (uint32_t)(w % banks), k = broadcast ? 0 : nwords[b];
            while (k < nwords[b] && words[b][k] != w) k++;
            if (k == nwords[b] && nwords[b] < MEM_LANES) {
                words[b][nwords[b]++] = w;
                if (nwords[b] > wavefronts)
                    wavefronts = nwords[b];
            }
        }
    }
    return wavefronts;
}

/* A sufficient test for conflict_free with power-of-two banks and width: every active lane's
 * offset lies in one aligned block of banks * width bytes (1 << block_shift), so the words asked
 * for are at most `banks` consecutive words and no two distinct ones share a bank. Covers the
 * common cases (one word for all lanes, a warp's contiguous words, rows of a tile) with one xor
 * and one or per lane. */
static int one_bank_window(const lane_target *t, uint32_t lanes, unsigned block_shift)
{
    uint64_t first = t[__builtin_ctz(lanes)].offset, diff = 0;
    if (lanes == UINT32_MAX) {
        for (uint32_t l = 0; l < MEM_LANES; l++)
            diff |= t[l].offset ^ first;
    } else {
        for (uint32_t m = lanes; m; m &= m - 1)
            diff |= t[__builtin_ctz(m)].offset ^ first;
    }
    return (diff >> block_shift) == 0;
}

/* The words (offset >> width_shift) of the active lanes into w, lowest lane first; their count. */
static uint32_t lane_words(const lane_target *t, uint32_t lanes, unsigned width_shift,
                           uint64_t w[MEM_LANES])
{
    uint32_t n = 0;
    if (lanes == UINT32_MAX) {
        for (uint32_t l = 0; l < MEM_LANES; l++)
            w[l] = t[l].offset >> width_shift;
        return MEM_LANES;
    }
    for (uint32_t m = lanes; m; m &= m - 1)
        w[n++] = t[__builtin_ctz(m)].offset >> width_shift;
    return n;
}

/* words_wavefronts of the words of the active lanes `lanes` (not empty). */
static uint32_t window_wavefronts(const lane_target *t, uint32_t lanes, unsigned width_shift,
                                  uint32_t banks)
{
    uint64_t w[MEM_LANES];
    uint32_t n = lane_words(t, lanes, width_shift, w);
    return words_wavefronts(w, n, banks);
}

/* Whether single-word lanes are conflict-free: no bank is asked for two different words. */
static int conflict_free(const lane_target *t, uint32_t lanes, uint32_t banks, uint32_t width)
{
    uint64_t first_word[MAX_BANKS];
    uint64_t used = 0;
    int pow2 = !(banks & (banks - 1)) && !(width & (width - 1));
    unsigned width_shift = (unsigned)__builtin_ctz(width);
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint64_t w = pow2 ? t[l].offset >> width_shift : t[l].offset / width;
        uint32_t b = (uint32_t)(pow2 ? (w & (banks - 1)) : w % banks);
        if (!((used >> b) & 1u)) {
            used |= 1ull << b;
            first_word[b] = w;
        } else if (first_word[b] != w) {
            return 0;
        }
    }
    return 1;
}

uint32_t shared_count(const memsys *ms, mem_counters *c, const mem_access *acc,
                      const lane_target *t, uint32_t lanes)
{
    uint32_t banks = ms->cfg.shared.banks, width = ms->cfg.shared.bank_width_bytes;
    if (banks == 0 || banks > MAX_BANKS || width == 0)
        return 0;
    uint32_t bytes = acc->op == MEM_OP_ATOMIC ? acc->elem_bytes
                                               : (uint32_t)acc->elem_bytes * acc->vec;
    uint32_t per_phase = bytes <= width ? MEM_LANES : (banks * width) / bytes;
    if (per_phase == 0)
        per_phase = 1;
    c->shared.requests++;
    /* Reads of one word by several lanes are a broadcast; atomic updates of one word are not:
     * each lane's read-modify-write needs its own pass. */
    int broadcast = acc->op != MEM_OP_ATOMIC;
    if (broadcast && bytes <= width) {
        uint32_t wavefronts = 0;
        if (lanes && !(banks & (banks - 1)) && !(width & (width - 1))) {
            unsigned width_shift = (unsigned)__builtin_ctz(width);
            if (one_bank_window(t, lanes, width_shift + (unsigned)__builtin_ctz(banks)))
                wavefronts = 1;
            else
                wavefronts = window_wavefronts(t, lanes, width_shift, banks);
        } else if (conflict_free(t, lanes, banks, width)) {
            wavefronts = 1;
        }
        if (wavefronts) {
            c->shared.wavefronts += wavefronts;
            c->shared.bank_conflicts += wavefronts - 1;
            return wavefronts;
        }
    }
    uint32_t total = 0;
    for (uint32_t first = 0; first < MEM_LANES; first += per_phase) {
        uint32_t wavefronts =
            phase_wavefronts(t, lanes, first, per_phase, bytes, banks, width, broadcast);
        if (wavefronts) {
            c->shared.wavefronts += wavefronts;
            c->shared.bank_conflicts += wavefronts - 1;
            total += wavefronts;
        }
    }
    return total;
}


/* Kernel parameters live in their own region of the constant address space. */
#define PARAM_CONSTANT_BASE 0x40000000ull

uint64_t constant_address(const lane_target *t)
{
    return t->offset + (t->space == IR_SPACE_PARAM ? PARAM_CONSTANT_BASE : 0);
}

void constant_count(memsys *ms, mem_counters *c, const mem_ctx *ctx, const mem_access *acc,
                    const lane_target *t, uint32_t lanes)
{
    uint64_t seen[MEM_LANES], lines[MEM_LANES];
    uint32_t nseen = 0, nlines = 0;
    uint64_t line_bytes = ms->cfg.constant.line_bytes ? ms->cfg.constant.line_bytes : 64;
    c->constant.requests++;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t a = constant_address(&t[l]);
        uint32_t k = 0;
        while (k < nseen && seen[k] != a) k++;
        if (k < nseen)
            continue;
        seen[nseen++] = a;
        uint64_t line = a / line_bytes * line_bytes;
        k = 0;
        while (k < nlines && lines[k] != line) k++;
        if (k == nlines)
            lines[nlines++] = line;
    }
    if (nseen > 1)
        c->constant.serialized += nseen - 1;
    uint32_t misses = 0;
    for (uint32_t k = 0; k < nlines; k++) {
        cache_result r;
        cache_read(ms->constant[ctx->sm], lines[k], 1, NULL, NULL, &r);
        c->constant.hits += r.sector_hits;
        c->constant.misses += r.sector_misses;
        misses += (uint32_t)r.sector_misses;
    }
    ms->last_const_lookups = nlines;
    ms->last_const_misses = misses;
    ms->last_const_addresses = nseen;
    (void)acc;
}

void uniform_count(mem_counters *c, const mem_access *acc)
{
    uint32_t active = acc->active;
    int same = 1, pairs = 1;
    uint64_t first = active ? acc->addr[__builtin_ctz(active)] : 0;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((active >> l) & 1u))
            continue;
        same &= acc->addr[l] == first;
        if ((active >> (l ^ 1u)) & 1u)
            pairs &= acc->addr[l] == acc->addr[l ^ 1u];
    }
    c->shared.uniform_hinted++;
    c->shared.uniform_unmet += !(same || pairs);
}

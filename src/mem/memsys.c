/* The memory system's accesses: allocation look-up, generic address resolution, window bounds,
 * dispatch of a warp access to its spaces (global and local through the cache hierarchy in
 * mem_hier.c, shared banks and the constant cache in mem_shared.c; cache control and fences in
 * mem_control.c), and their counters. Creation, tallies, allocation and the host's copies are in
 * memsys_setup.c. */
#include "mem/memsys.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/memsys_internal.h"

_Static_assert((1ull << MEM_CONST_BANK_SHIFT) == MEM_WINDOW_BYTES,
               "a constant bank spans one window's size");

/* Index of the allocation holding [addr, addr+bytes), or -1. */
static int find_allocation(memsys *ms, uint64_t addr, uint64_t bytes)
{
    const allocation *a = &ms->allocs[ms->last_hit];
    if (ms->nallocs && addr >= a->base && addr - a->base + bytes <= a->bytes)
        return (int)ms->last_hit;
    uint32_t lo = 0, hi = ms->nallocs;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (ms->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    a = &ms->allocs[lo - 1];
    if (addr - a->base >= a->bytes || addr - a->base + bytes > a->bytes)
        return -1;
    ms->last_hit = lo - 1;
    return (int)(lo - 1);
}

int mem_find_allocation(memsys *ms, uint64_t addr, uint64_t bytes)
{
    return find_allocation(ms, addr, bytes);
}

/* Const-window offset -> its bank's data. The caller has checked the offset (check_lane). */
static uint8_t *const_byte(const memsys *ms, uint64_t offset)
{
    return ms->const_bank[offset >> MEM_CONST_BANK_SHIFT] +
           (offset & ((1ull << MEM_CONST_BANK_SHIFT) - 1));
}

ir_space memsys_resolve_generic(uint64_t generic, uint64_t *offset)
{
    static const ir_space windowed[] = {IR_SPACE_SHARED, IR_SPACE_LOCAL, IR_SPACE_CONST,
                                        IR_SPACE_PARAM};
    for (size_t i = 0; i < sizeof windowed / sizeof windowed[0]; i++) {
        uint64_t base = mem_window_base(windowed[i]);
        if (generic - base < (windowed[i] == IR_SPACE_CONST ? MEM_CONST_WINDOW_BYTES
                                                              : MEM_WINDOW_BYTES)) {
            *offset = generic - base;
            return windowed[i];
        }
    }
    *offset = generic;
    return IR_SPACE_GLOBAL;
}

int mem_fail(mem_fault *f, mem_fault_kind kind, uint32_t lane, uint64_t addr, uint32_t bytes,
                ir_space space, const char *what)
{
    f->kind = kind;
    f->lane = lane;
    f->address = addr;
    f->bytes = bytes;
    f->space = (uint8_t)space;
    snprintf(f->what, sizeof f->what, "%s", what);
    return -1;
}

mem_request mem_request_for(memsys *ms, const mem_ctx *ctx, const mem_access *acc,
                            const ir_mem_attrs *attrs)
{
    if (!acc)
        return ms->own_work;
    mem_request rq = {
        .attrs = attrs,
        .insn_id = acc->insn_id,
        .sm = ctx ? ctx->sm : 0,
        .time = acc->time,
        .counters = acc->insn_id < ms->ninsns ? &ms->per_insn[acc->insn_id] : &ms->unattributed,
    };
    return rq;
}

/* Resolves and checks one lane's address. Cache control may name read-only data: the
 * operations that would change it refuse it themselves (mem_control.c). */
static int check_lane(memsys *ms, const mem_ctx *ctx, const mem_access *acc, uint32_t lane,
                      lane_target *t, mem_fault *f)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    uint64_t a = acc->addr[lane];
    t->space = (ir_space)acc->space;
    t->offset = a;
    if (t->space == IR_SPACE_GENERIC)
        t->space = memsys_resolve_generic(a, &t->offset);
    if (bytes & (bytes - 1) ? t->offset % bytes : t->offset & (bytes - 1))
        return mem_fail(f, MEM_FAULT_MISALIGNED, lane, a, bytes, t->space,
                    "address is not aligned to the access size");
    uint64_t limit;
    switch (t->space) {
    case IR_SPACE_GLOBAL:
        if (find_allocation(ms, t->offset, bytes) < 0)
            return mem_fail(f, MEM_FAULT_OUT_OF_BOUNDS, lane, a, bytes, t->space,
                        "address is outside every allocation");
        return 0;
    case IR_SPACE_SHARED: limit = ctx->shared_bytes; break;
    case IR_SPACE_LOCAL: limit = ctx->local_bytes; break;
    case IR_SPACE_CONST: /* the window offset's bank, up to the end of its data */
        if (t->offset >> MEM_CONST_BANK_SHIFT >= MEM_CONST_BANKS)
            return mem_fail(f, MEM_FAULT_OUT_OF_BOUNDS, lane, a, bytes, t->space,
                            "constant bank number is outside 0..31");
        limit = (t->offset >> MEM_CONST_BANK_SHIFT << MEM_CONST_BANK_SHIFT) +
                ms->const_bytes[t->offset >> MEM_CONST_BANK_SHIFT];
        break;
    case IR_SPACE_PARAM: limit = ms->params_bytes; break;
    default:
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, lane, a, bytes, t->space,
                    "state space is not modelled");
    }
    if (t->offset >= limit || limit - t->offset < bytes)
        return mem_fail(f, MEM_FAULT_OUT_OF_BOUNDS, lane, a, bytes, t->space,
                        t->space == IR_SPACE_CONST && t->offset >> MEM_CONST_BANK_SHIFT
                            ? "address is outside the data of its constant bank"
                            : "address is outside the window's allocated size");
    if (acc->op != MEM_OP_LOAD && acc->op != MEM_OP_CACHE_CONTROL &&
        (t->space == IR_SPACE_CONST || t->space == IR_SPACE_PARAM))
        return mem_fail(f, MEM_FAULT_READ_ONLY, lane, a, bytes, t->space,
                    "state space is read-only");
    return 0;
}

/* A lane that failed check_lane with fault *f, under IR_WINDOW_ZERO: a misaligned local or
 * shared address is aligned down to the access size and checked again; one outside its window
 * or allocation is dropped. Returns 0 (the lane goes on, perhaps aligned), 1 (dropped: recorded
 * in acc->window_lanes) or -1 (a fault the mode does not cover). */
static int window_lane(const mem_ctx *ctx, mem_access *acc, uint32_t lane, lane_target *t,
                       mem_fault *f)
{
    if (acc->window_errors != IR_WINDOW_ZERO ||
        (t->space != IR_SPACE_LOCAL && t->space != IR_SPACE_SHARED))
        return -1;
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    if (f->kind == MEM_FAULT_MISALIGNED) {
        acc->misaligned_lanes |= 1u << lane;
        t->offset -= t->offset % bytes;
        uint64_t limit = t->space == IR_SPACE_SHARED ? ctx->shared_bytes : ctx->local_bytes;
        if (t->offset < limit && limit - t->offset >= bytes) {
            memset(f, 0, sizeof *f);
            return 0;
        }
    } else if (f->kind != MEM_FAULT_OUT_OF_BOUNDS) {
        return -1;
    }
    memset(f, 0, sizeof *f);
    acc->window_lanes |= 1u << lane;
    if (acc->op == MEM_OP_LOAD || acc->op == MEM_OP_ATOMIC)
        memset(acc->data[lane], 0, bytes < MEM_MAX_LANE_BYTES ? bytes : MEM_MAX_LANE_BYTES);
    return 1;
}

/* check_lane, and window_lane on a failure: 0 (go on), 1 (lane dropped) or -1 (fault). */
int mem_check_lane(memsys *ms, const mem_ctx *ctx, mem_access *acc, uint32_t lane,
                   lane_target *t, mem_fault *f)
{
    if (check_lane(ms, ctx, acc, lane, t, f) == 0)
        return 0;
    return window_lane(ctx, acc, lane, t, f);
}

/* Copies one lane's bytes: the common sizes as fixed-size copies the compiler inlines (a
 * library call per lane would cost more than the copy). */
static inline void lane_move(void *dst, const void *src, uint32_t bytes)
{
    switch (bytes) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, bytes); break;
    }
}

/* The shared-memory words of lanes `lanes` (4 bytes each): a full warp in a plain loop the
 * compiler unrolls, the others lane by lane. */
static void move_shared_words(uint8_t *shared, mem_access *acc, const lane_target *t,
                              uint32_t lanes, int store)
{
    if (lanes == UINT32_MAX && store) {
#pragma GCC unroll 8
        for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(shared + t[l].offset, acc->data[l], 4);
        return;
    }
    if (lanes == UINT32_MAX) {
#pragma GCC unroll 8
        for (uint32_t l = 0; l < MEM_LANES; l++) memcpy(acc->data[l], shared + t[l].offset, 4);
        return;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (store)
            memcpy(shared + t[l].offset, acc->data[l], 4);
        else
            memcpy(acc->data[l], shared + t[l].offset, 4);
    }
}

/* Shared, const and param data live outside the cache hierarchy (`lanes`; `shared`: those of
 * them in the shared space). */
static void move_direct(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                        uint32_t lanes, uint32_t shared)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    int store = acc->op == MEM_OP_STORE;
    if (lanes == shared && bytes == 4) { /* the common shared-memory word access */
        move_shared_words(ctx->shared, acc, t, lanes, store);
        return;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint8_t *p = t[l].space == IR_SPACE_SHARED ? ctx->shared + t[l].offset
                     : t[l].space == IR_SPACE_CONST ? const_byte(ms, t[l].offset)
                                                    : (uint8_t *)ms->params + t[l].offset;
        if (store)
            lane_move(p, acc->data[l], bytes);
        else
            lane_move(acc->data[l], p, bytes);
    }
}

static int shared_atomics(const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                          uint32_t lanes, mem_fault *f)
{
    uint32_t bytes = acc->elem_bytes;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint64_t old = 0;
        int ok = 1;
        memcpy(&old, ctx->shared + t[l].offset, bytes);
        uint64_t val = acc->atom_fn(acc->atom_op, (ir_type)acc->atom_type, acc->atom_mods, old,
                                    acc->operand_b[l], acc->operand_c[l], &ok);
        if (!ok)
            return mem_fail(f, MEM_FAULT_UNSUPPORTED, l, acc->addr[l], bytes, IR_SPACE_SHARED,
                        "atomic operation and type combination is not modelled");
        memcpy(ctx->shared + t[l].offset, &val, bytes);
        memcpy(acc->data[l], &old, bytes);
    }
    return 0;
}

/* resolve_uniform_space's scan of a full warp: each lane's target (space sp, its address),
 * the lowest and highest address and the OR of all; with `with_stride`, also whether any lane
 * is off base + l x stride (non-zero then) for base lane 0's address. */
static inline __attribute__((always_inline)) uint64_t
scan_full_warp(const mem_access *acc, lane_target *t, ir_space sp, uint64_t *lo, uint64_t *hi,
               uint64_t *any, uint64_t stride, int with_stride)
{
    uint64_t low = UINT64_MAX, high = 0, all = 0, off = 0, base = acc->addr[0];
#pragma GCC unroll 8
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        uint64_t a = acc->addr[l];
        t[l].space = sp;
        t[l].offset = a;
        low = a < low ? a : low;
        high = a > high ? a : high;
        all |= a;
        if (with_stride)
            off |= a ^ (base + l * stride);
    }
    *lo = low, *hi = high, *any = all;
    return off;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define MEMSYS_AVX2 1
#include <immintrin.h>
/* scan_full_warp on hosts with AVX2 (memsys.host_avx2), four lanes at a time: the same targets,
 * bounds, OR and stride test. Unsigned order is signed order once the top bit is flipped; each
 * lane_target's first eight bytes (its space, then padding) and its address are stored as two
 * 64-bit halves of one 128-bit store. With `with_stride`, a warp found at its stride without
 * wrapping around has its bounds at lanes 0 and 31, so the loop leaves them out and a second
 * pass finds them only for the other warps. */
__attribute__((target("avx2"))) static uint64_t
scan_full_warp_avx2(const mem_access *acc, lane_target *t, ir_space sp, uint64_t *lo,
                    uint64_t *hi, uint64_t *any, uint64_t stride, int with_stride)
{
    _Static_assert(sizeof(lane_target) == 16 && offsetof(lane_target, offset) == 8,
                   "lane_target is a space in eight bytes and an address");
    const __m256i flip = _mm256_set1_epi64x(INT64_MIN);
    const __m256i space = _mm256_set1_epi64x((long long)sp);
    uint64_t base = acc->addr[0];
    __m256i low = _mm256_set1_epi64x(INT64_MAX), high = flip; /* UINT64_MAX and 0, flipped */
    __m256i all = _mm256_setzero_si256(), off = all;
    __m256i expect = _mm256_setr_epi64x((long long)base, (long long)(base + stride),
                                        (long long)(base + 2 * stride),
                                        (long long)(base + 3 * stride));
    const __m256i step = _mm256_set1_epi64x((long long)(4 * stride));
    for (uint32_t l = 0; l < MEM_LANES; l += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)&acc->addr[l]);
        all = _mm256_or_si256(all, a);
        if (with_stride) {
            off = _mm256_or_si256(off, _mm256_xor_si256(a, expect));
            expect = _mm256_add_epi64(expect, step);
        } else {
            __m256i f = _mm256_xor_si256(a, flip);
            low = _mm256_blendv_epi8(low, f, _mm256_cmpgt_epi64(low, f));
            high = _mm256_blendv_epi8(high, f, _mm256_cmpgt_epi64(f, high));
        }
        __m256i even = _mm256_unpacklo_epi64(space, a), odd = _mm256_unpackhi_epi64(space, a);
        _mm256_storeu_si256((__m256i *)(void *)&t[l], _mm256_permute2x128_si256(even, odd, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)&t[l + 2],
                            _mm256_permute2x128_si256(even, odd, 0x31));
    }
    uint64_t o[4], x[4] = {0, 0, 0, 0};
    _mm256_storeu_si256((__m256i *)(void *)o, all);
    *any = o[0] | o[1] | o[2] | o[3];
    if (with_stride) {
        _mm256_storeu_si256((__m256i *)(void *)x, off);
        if (!(x[0] | x[1] | x[2] | x[3]) && stride <= (UINT64_MAX - base) / MEM_LANES) {
            *lo = base, *hi = base + (MEM_LANES - 1) * stride;
            return 0;
        }
        for (uint32_t l = 0; l < MEM_LANES; l += 4) {
            __m256i f = _mm256_xor_si256(
                _mm256_loadu_si256((const __m256i *)(const void *)&acc->addr[l]), flip);
            low = _mm256_blendv_epi8(low, f, _mm256_cmpgt_epi64(low, f));
            high = _mm256_blendv_epi8(high, f, _mm256_cmpgt_epi64(f, high));
        }
    }
    uint64_t v[4], w[4];
    _mm256_storeu_si256((__m256i *)(void *)v, low);
    _mm256_storeu_si256((__m256i *)(void *)w, high);
    uint64_t lmin = UINT64_MAX, lmax = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t a = v[k] ^ (uint64_t)INT64_MIN, b = w[k] ^ (uint64_t)INT64_MIN;
        lmin = a < lmin ? a : lmin;
        lmax = b > lmax ? b : lmax;
    }
    *lo = lmin, *hi = lmax;
    return x[0] | x[1] | x[2] | x[3];
}
#endif

/* scan_full_warp, by the AVX2 build where the host has it. */
static inline uint64_t scan_warp(const memsys *ms, const mem_access *acc, lane_target *t,
                                 ir_space sp, uint64_t *lo, uint64_t *hi, uint64_t *any,
                                 uint64_t stride, int with_stride)
{
#ifdef MEMSYS_AVX2
    if (ms->host_avx2)
        return scan_full_warp_avx2(acc, t, sp, lo, hi, any, stride, with_stride);
#else
    (void)ms;
#endif
    if (with_stride)
        return scan_full_warp(acc, t, sp, lo, hi, any, stride, 1);
    return scan_full_warp(acc, t, sp, lo, hi, any, stride, 0);
}

/* The common case: an explicit global, shared or local access whose lanes are all aligned and
 * inside one allocation or window, checked with one bounds test on the lowest and highest
 * address. Returns 0 when the per-lane path must decide (generic addresses, or a fault to
 * report precisely). */
static int resolve_uniform_space(memsys *ms, const mem_ctx *ctx, const mem_access *acc,
                                 lane_target *t, uint32_t *cached, uint32_t *shared,
                                 uint64_t *known_stride)
{
    ir_space sp = (ir_space)acc->space;
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    if ((sp != IR_SPACE_GLOBAL && sp != IR_SPACE_SHARED && sp != IR_SPACE_LOCAL) || !bytes ||
        (bytes & (bytes - 1)) || !acc->active)
        return 0;
    uint64_t lo = UINT64_MAX, hi = 0, any = 0, off_stride = 1;
    if (acc->active == UINT32_MAX) { /* a full warp: no mask test per lane */
        uint64_t base = acc->addr[0], stride = acc->addr[1] - base;
        if (sp == IR_SPACE_GLOBAL)
            off_stride = scan_warp(ms, acc, t, sp, &lo, &hi, &any, stride, 1);
        else
            scan_warp(ms, acc, t, sp, &lo, &hi, &any, stride, 0);
        if (!off_stride)
            off_stride = (stride & (bytes - 1)) || stride > (UINT64_MAX - base) / MEM_LANES ||
                         bytes > ms->line_bytes;
        if (!off_stride)
            *known_stride = stride;
    } else {
        for (uint32_t l = 0; l < MEM_LANES; l++) {
            t[l].space = sp;
            t[l].offset = acc->addr[l];
        }
        for (uint32_t m = acc->active; m; m &= m - 1) {
            uint64_t a = acc->addr[__builtin_ctz(m)];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            any |= a;
        }
    }
    if (any & (bytes - 1))
        return 0;
    if (sp == IR_SPACE_GLOBAL) {
        int i = find_allocation(ms, lo, bytes);
        if (i < 0 || hi + bytes - ms->allocs[i].base > ms->allocs[i].bytes)
            return 0;
        *cached = acc->active;
        if (off_stride)
            *known_stride = UINT64_MAX;
        return 1;
    }
    *known_stride = UINT64_MAX;
    uint64_t limit = sp == IR_SPACE_SHARED ? ctx->shared_bytes : ctx->local_bytes;
    if (hi >= limit || limit - hi < bytes)
        return 0;
    if (sp == IR_SPACE_SHARED)
        *shared = acc->active;
    else
        *cached = acc->active;
    return 1;
}

/* --strip-hints: the access's attributes without their cache hints (the ordering stays) into
 * *plain. Returns 0 when the whole access is a hint that now does nothing. */
static int strip_hints(const mem_access *acc, ir_mem_attrs *plain)
{
    const ir_mem_attrs *a = acc->attrs;
    if (acc->op == MEM_OP_CACHE_CONTROL &&
        (a->cctl == IR_CCTL_PREFETCH || a->cctl == IR_CCTL_PRIORITY))
        return 0;
    *plain = *a;
    plain->l1_alloc = plain->l2_evict = IR_EVICT_NONE;
    plain->l1 = 0;
    plain->write_mode = IR_WRITE_DEFAULT;
    plain->fill_bytes = 0;
    plain->has_policy = 0;
    plain->l1_ctl = plain->l2_ctl = IR_CC_DEFAULT;
    return 1;
}

/* The constant cache's results of the access in progress (mem.h, "Results the timing model
 * reads"). */
static void const_results(const memsys *ms, mem_access *acc)
{
    acc->const_lookups = (uint8_t)ms->last_const_lookups;
    acc->const_misses = (uint8_t)ms->last_const_misses;
    acc->const_addresses = (uint8_t)ms->last_const_addresses;
}

/* How access() treats the part beyond the SM (memsys_access, memsys_load_if_local,
 * memsys_store_deferred). */
typedef enum access_mode { ACCESS_PLAIN, ACCESS_LOAD_IF_LOCAL, ACCESS_STORE_DEFERRED } access_mode;

/* The part of an access that goes through the L1 and below (hier_atomic or hier_global_local),
 * with its L1 tags and the DRAM traffic it caused as results. */
static int cached_part(memsys *ms, const mem_ctx *ctx, mem_access *acc, const ir_mem_attrs *attrs,
                       const lane_target *t, uint32_t cached, int mode, mem_fault *fault)
{
    mem_request rq = { /* mem_request_for's, built in place */
        .attrs = attrs,
        .log = mode == ACCESS_STORE_DEFERRED ? ctx->store_log : NULL,
        .insn_id = acc->insn_id,
        .sm = ctx->sm,
        .time = acc->time,
        .counters = acc->insn_id < ms->ninsns ? &ms->per_insn[acc->insn_id] : &ms->unattributed,
    };
    int local_only = mode == ACCESS_LOAD_IF_LOCAL;
    uint64_t read0 = rq.counters->dram.read_bytes, write0 = rq.counters->dram.write_bytes;
    int atomic = acc->op == MEM_OP_ATOMIC;
    int st = atomic ? hier_atomic(ms, ctx, acc, &rq, t, cached, fault)
                    : hier_global_local(ms, ctx, acc, &rq, t, cached, local_only, fault);
    if (st == 1)
        return 1;
    acc->l1_tags = (uint16_t)(atomic ? (uint32_t)__builtin_popcount(cached) : ms->nreqs);
    acc->dram_read_bytes = (uint32_t)(rq.counters->dram.read_bytes - read0);
    acc->dram_write_bytes = (uint32_t)(rq.counters->dram.write_bytes - write0);
    return st;
}

/* count_constant_lane's look-up of constant address `a` when the probe did not hit (a miss,
 * or no constant line size configured): cache_read, as constant_count makes it. Out of line,
 * so that the usual hit saves no registers for it. */
static __attribute__((noinline)) uint32_t count_constant_read(memsys *ms, mem_counters *c,
                                                              uint32_t sm, uint64_t a)
{
    uint64_t line_bytes = ms->cfg.constant.line_bytes;
    line_bytes = line_bytes ? line_bytes : 64; /* a power of two (cache_create) */
    cache_result r;
    cache_read(ms->constant[sm], a & ~(line_bytes - 1), 1, NULL, NULL, &r);
    c->constant.hits += r.sector_hits;
    c->constant.misses += r.sector_misses;
    return r.sector_misses;
}

/* constant_count for one lane (`t`, charged to c): one request, one address, one line; returns
 * whether the line missed (constant_count's last_const_misses; its last_const_lookups and
 * last_const_addresses are 1). A line the SM's constant cache holds takes cache_probe_hit, which
 * does what cache_read does for a hit (recency, statistics) without its general path; when the
 * configured line is not the cache's one sector (no constant line size given: the cache's own
 * default geometry) every look-up takes cache_read, as constant_count does. */
static inline uint32_t count_constant_lane(memsys *ms, mem_counters *c, uint32_t sm,
                                           const lane_target *t)
{
    uint64_t line_bytes = ms->cfg.constant.line_bytes;
    uint64_t a = constant_address(t);
    c->constant.requests++;
    if (line_bytes && cache_probe_hit(ms->constant[sm], a & ~(line_bytes - 1), 1)) {
        c->constant.hits++;
        return 0;
    }
    return count_constant_read(ms, c, sm, a);
}

/* memsys_load_lane, also access()'s path for such a load: what the general path of access()
 * does for it (check, constant-cache count, copy, the results), without its loops over all
 * lanes and its clearing of results it then sets (of the fault, only its kind). A lane that is
 * misaligned or outside its bank's data or the parameters takes mem_check_lane, which reports
 * it as access() does. */
int memsys_load_lane(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault)
{
    mem_counters *counters = acc->insn_id < ms->ninsns ? &ms->per_insn[acc->insn_id]
                                                       : &ms->unattributed;
    if (acc->attrs->uniform) /* a hint with no effect on data: only checked and counted */
        uniform_count(counters, acc);
    uint32_t l = (uint32_t)__builtin_ctz(acc->active);
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    lane_target t = {(ir_space)acc->space, acc->addr[l]};
    uint64_t limit = ms->params_bytes, bank = t.offset >> MEM_CONST_BANK_SHIFT;
    if (t.space == IR_SPACE_CONST)
        limit = bank < MEM_CONST_BANKS ? (bank << MEM_CONST_BANK_SHIFT) + ms->const_bytes[bank] : 0;
    fault->kind = MEM_FAULT_NONE;
    if (!bytes || (bytes & (bytes - 1)) || (t.offset & (bytes - 1)) || t.offset >= limit ||
        limit - t.offset < bytes) {
        memset(fault, 0, sizeof *fault);
        if (mem_check_lane(ms, ctx, acc, l, &t, fault) < 0)
            return -1;
    }
    acc->levels = 1u << MEM_LEVEL_CONSTANT;
    acc->nserved = 0;
    acc->window_lanes = acc->misaligned_lanes = 0;
    acc->shared_wavefronts = acc->l1_tags = 0;
    acc->dram_read_bytes = acc->dram_write_bytes = 0;
    acc->const_misses = (uint8_t)count_constant_lane(ms, counters, ctx->sm, &t);
    acc->const_lookups = acc->const_addresses = 1;
    const uint8_t *p = t.space == IR_SPACE_CONST ? const_byte(ms, t.offset)
                                                 : (const uint8_t *)ms->params + t.offset;
    lane_move(acc->data[l], p, bytes);
    return 0;
}

int memsys_load_same(memsys *ms, const mem_ctx *ctx, uint32_t insn_id, ir_space space,
                     uint64_t offset, uint32_t bytes, void *out)
{
    uint64_t limit = ms->params_bytes;
    if (space == IR_SPACE_CONST) {
        uint64_t bank = offset >> MEM_CONST_BANK_SHIFT;
        limit = bank < MEM_CONST_BANKS ? (bank << MEM_CONST_BANK_SHIFT) + ms->const_bytes[bank] : 0;
    } else if (space != IR_SPACE_PARAM) {
        return -1;
    }
    /* A power of two that aligns offset: (bytes | offset) has no bit below bytes's. */
    if (!bytes || bytes > MEM_MAX_LANE_BYTES || ((bytes | offset) & (bytes - 1)) ||
        offset >= limit || limit - offset < bytes)
        return -1;
    mem_counters *counters = insn_id < ms->ninsns ? &ms->per_insn[insn_id] : &ms->unattributed;
    lane_target t = {space, offset};
    count_constant_lane(ms, counters, ctx->sm, &t);
    const uint8_t *p = space == IR_SPACE_CONST ? const_byte(ms, offset)
                                                : (const uint8_t *)ms->params + offset;
    lane_move(out, p, bytes);
    return 0;
}

/* memsys_load_param's count: count_constant_lane of parameter `offset`, returning 0. Its own
 * function, called last, so that memsys_load_param keeps nothing across it. */
static int count_param(memsys *ms, uint32_t insn_id, uint32_t sm, uint64_t offset)
{
    mem_counters *counters = insn_id < ms->ninsns ? &ms->per_insn[insn_id] : &ms->unattributed;
    lane_target t = {IR_SPACE_PARAM, offset};
    count_constant_lane(ms, counters, sm, &t);
    return 0;
}

int memsys_load_param(memsys *ms, uint32_t sm, uint32_t insn_id, uint64_t offset, uint32_t bytes,
                      uint64_t *value)
{
    uint64_t limit = ms->params_bytes;
    if (!bytes || bytes > 8 || ((bytes | offset) & (bytes - 1)) || offset >= limit ||
        limit - offset < bytes)
        return -1;
    /* The bytes first (counting changes no parameter), so that the count ends the call. */
    const uint8_t *p = (const uint8_t *)ms->params + offset;
    uint64_t v = 0;
    switch (bytes) { /* fixed sizes, copies the compiler inlines */
    case 8: memcpy(&v, p, 8); break;
    case 4: memcpy(&v, p, 4); break;
    case 2: memcpy(&v, p, 2); break;
    default: v = *p; break;
    }
    *value = v;
    return count_param(ms, insn_id, sm, offset);
}

int memsys_const_load(memsys *ms, const mem_ctx *ctx, uint32_t insn_id, uint64_t offset,
                      uint32_t bytes, void *out)
{
    uint64_t bank = offset >> MEM_CONST_BANK_SHIFT;
    uint64_t in_bank = offset & ((1ull << MEM_CONST_BANK_SHIFT) - 1);
    if (!bytes || bytes > MEM_MAX_LANE_BYTES || (bytes & (bytes - 1)) || (offset & (bytes - 1)) ||
        bank >= MEM_CONST_BANKS || in_bank >= ms->const_bytes[bank] ||
        ms->const_bytes[bank] - in_bank < bytes)
        return -1;
    mem_counters *c = insn_id < ms->ninsns ? &ms->per_insn[insn_id] : &ms->unattributed;
    uint64_t line_bytes = ms->cfg.constant.line_bytes ? ms->cfg.constant.line_bytes : 64;
    cache_result r;
    c->constant.requests++;
    cache_read(ms->constant[ctx->sm], offset / line_bytes * line_bytes, 1, NULL, NULL, &r);
    c->constant.hits += r.sector_hits;
    c->constant.misses += r.sector_misses;
    memcpy(out, ms->const_bank[bank] + in_bank, bytes);
    return 0;
}
/* memsys_load_if_local's early answer from the lowest active lane alone, before the warp's
 * lanes are resolved and coalesced: 1 when it is a global lane whose sector is not in the SM's
 * L1, so that the load reaches the L2 (a lane that would fault is left to the full check); 0
 * when it is a global lane whose sector is there; -1 for a lane of another space. */
static int lead_lane_in_l1(const memsys *ms, const mem_ctx *ctx, const mem_access *acc,
                           const ir_mem_attrs *attrs)
{
    uint32_t l = (uint32_t)__builtin_ctz(acc->active);
    ir_space sp = (ir_space)acc->space;
    uint64_t at = acc->addr[l];
    if (sp == IR_SPACE_GENERIC)
        sp = memsys_resolve_generic(at, &at);
    if (sp != IR_SPACE_GLOBAL)
        return -1;
    return hier_global_lane_in_l1(ms, ctx, attrs, at) ? 0 : 1;
}

/* The attributes a load goes by: its own, or under --strip-hints their copy in *plain. */
static const ir_mem_attrs *load_attrs(const memsys *ms, const mem_access *acc,
                                      ir_mem_attrs *plain)
{
    if (!ms->strip_hints)
        return acc->attrs;
    strip_hints(acc, plain); /* never 0 for a load */
    return plain;
}

int memsys_load_parks(memsys *ms, const mem_ctx *ctx, const mem_access *acc)
{
    ms->lead_acc = NULL;
    if (acc->op != MEM_OP_LOAD || acc->attrs->uniform)
        return 1;
    if (!acc->active)
        return 0;
    ir_mem_attrs plain;
    int lead = lead_lane_in_l1(ms, ctx, acc, load_attrs(ms, acc, &plain));
    if (lead == 1)
        return 1;
    if (lead == 0) { /* the memsys_load_if_local that follows need not look it up again */
        ms->lead_acc = acc;
        ms->lead_addr = acc->addr[__builtin_ctz(acc->active)];
        ms->lead_insn = acc->insn_id;
        ms->lead_sm = ctx->sm;
        ms->lead_space = acc->space;
    }
    return 0;
}

/* Whether memsys_load_parks just found the lowest active lane of `acc` (same access, address,
 * instruction, SM and space) a global lane held in the L1. Forgets it: it holds for one
 * access only. */
static int lead_known_in_l1(memsys *ms, const mem_ctx *ctx, const mem_access *acc)
{
    int known = ms->lead_acc == acc && acc->active &&
                ms->lead_addr == acc->addr[__builtin_ctz(acc->active)] &&
                ms->lead_insn == acc->insn_id && ms->lead_sm == ctx->sm &&
                ms->lead_space == acc->space;
    ms->lead_acc = NULL;
    return known;
}

/* memsys_access (ACCESS_PLAIN); memsys_load_if_local (ACCESS_LOAD_IF_LOCAL: a load that may
 * need more than the SM returns 1 before it counts or changes anything); memsys_store_deferred
 * (ACCESS_STORE_DEFERRED: a store's writes to the L2 go to ctx->store_log). */
static int access(memsys *ms, const mem_ctx *ctx, mem_access *acc, access_mode mode,
                  mem_fault *fault)
{
    lane_target t[MEM_LANES];
    int local_only = mode == ACCESS_LOAD_IF_LOCAL;
    int lead_in_l1 = lead_known_in_l1(ms, ctx, acc);
    if (local_only && (acc->op != MEM_OP_LOAD || acc->attrs->uniform))
        return 1;
    if (acc->op == MEM_OP_LOAD && (acc->space == IR_SPACE_CONST || acc->space == IR_SPACE_PARAM) &&
        acc->active && !(acc->active & (acc->active - 1)))
        return memsys_load_lane(ms, ctx, acc, fault);
    if (acc->op == MEM_OP_LOAD || acc->op == MEM_OP_STORE)
        fault->kind = MEM_FAULT_NONE; /* each of their faults fills it whole (mem_fail) */
    else
        memset(fault, 0, sizeof *fault);
    memsys_clear_results(acc);
    ir_mem_attrs plain;
    const ir_mem_attrs *attrs = acc->attrs;
    if (ms->strip_hints) {
        if (!strip_hints(acc, &plain))
            return 0;
        attrs = &plain;
    }
    if (acc->op == MEM_OP_FENCE || acc->op == MEM_OP_CACHE_CONTROL) {
        mem_request rq = mem_request_for(ms, ctx, acc, attrs);
        return acc->op == MEM_OP_FENCE ? control_fence(ms, ctx, &rq, fault)
                                       : control_access(ms, ctx, acc, &rq, fault);
    }
    if (local_only && acc->active && !lead_in_l1) {
        int lead = lead_lane_in_l1(ms, ctx, acc, attrs);
        if (lead == 1)
            return 1;
        lead_in_l1 = lead == 0;
    }
    mem_counters *counters = acc->insn_id < ms->ninsns ? &ms->per_insn[acc->insn_id]
                                                       : &ms->unattributed;
    if (acc->attrs->uniform) /* a hint with no effect on data: only checked and counted */
        uniform_count(counters, acc);
    uint32_t cached = 0, direct = 0, shared = 0, constant = 0;
    ms->known_stride = UINT64_MAX;
    if (resolve_uniform_space(ms, ctx, acc, t, &cached, &shared, &ms->known_stride))
        goto resolved;
    ms->known_stride = UINT64_MAX;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((acc->active >> l) & 1u))
            continue;
        int checked = mem_check_lane(ms, ctx, acc, l, &t[l], fault);
        if (checked < 0)
            return -1;
        if (checked) /* outside its window: the lane does nothing */
            continue;
        switch (t[l].space) {
        case IR_SPACE_GLOBAL: case IR_SPACE_LOCAL: cached |= 1u << l; break;
        case IR_SPACE_SHARED: shared |= 1u << l; break;
        default: constant |= 1u << l; direct |= 1u << l; break;
        }
    }
resolved:
    if (local_only && cached) {
        /* A load of several kinds of space may reach the L2; so does one whose first global
         * lane's sector is not in the L1 (found without coalescing the warp). */
        uint32_t l0 = (uint32_t)__builtin_ctz(cached);
        if ((shared | constant) ||
            (t[l0].space == IR_SPACE_GLOBAL &&
             !(lead_in_l1 && (cached & 1u << __builtin_ctz(acc->active))) &&
             !hier_global_lane_in_l1(ms, ctx, attrs, t[l0].offset)))
            return 1;
    }
    if (shared) {
        acc->shared_wavefronts = (uint16_t)shared_count(ms, counters, acc, t, shared);
        acc->levels |= 1u << MEM_LEVEL_SHARED;
    }
    if (constant) {
        constant_count(ms, counters, ctx, acc, t, constant);
        const_results(ms, acc);
        acc->levels |= 1u << MEM_LEVEL_CONSTANT;
    }
    if (acc->op == MEM_OP_ATOMIC) {
        if (shared && shared_atomics(ctx, acc, t, shared, fault))
            return -1;
        if (!cached)
            return 0;
        return cached_part(ms, ctx, acc, attrs, t, cached, ACCESS_PLAIN, fault);
    }
    if (direct | shared)
        move_direct(ms, ctx, acc, t, direct | shared, shared);
    if (!cached)
        return 0;
    /* Only the cached spaces need the whole request. */
    return cached_part(ms, ctx, acc, attrs, t, cached, mode, fault);
}

int memsys_access(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault)
{
    return access(ms, ctx, acc, ACCESS_PLAIN, fault);
}

int memsys_load_if_local(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault)
{
    return access(ms, ctx, acc, ACCESS_LOAD_IF_LOCAL, fault);
}

int memsys_store_deferred(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault)
{
    if (acc->op != MEM_OP_STORE || !ctx->store_log)
        return access(ms, ctx, acc, ACCESS_PLAIN, fault);
    return access(ms, ctx, acc, ACCESS_STORE_DEFERRED, fault);
}

memsys_store_log *memsys_store_log_create(int immediate)
{
    memsys_store_log *log = calloc(1, sizeof *log);
    if (log)
        log->immediate = immediate != 0;
    return log;
}

int memsys_store_log_full(const memsys_store_log *log)
{
    return log->writes >= MEMSYS_STORE_LOG_WRITES;
}

void memsys_store_log_destroy(memsys_store_log *log)
{
    if (log)
        free(log->entries);
    free(log);
}

int memsys_store_log_apply(memsys *ms, memsys_store_log *log)
{
    return hier_apply_store_log(ms, log);
}

int memsys_peek(memsys *ms, const mem_ctx *ctx, uint32_t lane, uint64_t generic, void *out,
                uint32_t bytes)
{
    mem_access probe;
    memset(&probe, 0, sizeof probe);
    probe.op = MEM_OP_LOAD;
    probe.space = IR_SPACE_GENERIC;
    probe.elem_bytes = 1;
    probe.vec = 1;
    mem_fault f;
    for (uint32_t i = 0; i < bytes; i++) {
        lane_target t;
        probe.addr[lane] = generic + i;
        if (check_lane(ms, ctx, &probe, lane, &t, &f))
            return -1;
        uint8_t *o = (uint8_t *)out + i;
        switch (t.space) {
        case IR_SPACE_GLOBAL:
            if (hier_peek(ms, ctx, t.offset, o, 1))
                return -1;
            break;
        case IR_SPACE_LOCAL:
            if (hier_peek(ms, ctx, hier_local_backing(ctx, lane, t.offset), o, 1))
                return -1;
            break;
        case IR_SPACE_SHARED: *o = ctx->shared[t.offset]; break;
        case IR_SPACE_CONST: *o = *const_byte(ms, t.offset); break;
        default: *o = ms->params[t.offset]; break;
        }
    }
    return 0;
}

mem_image_table *memsys_images(memsys *ms)
{
    return &ms->images;
}

mem_sampler_table *memsys_samplers(memsys *ms)
{
    return &ms->samplers;
}

int memsys_texture_read(memsys *ms, const mem_ctx *ctx, mem_tex_access *ta, mem_fault *fault)
{
    /* The read-only path's attributes: a weak global load that allocates in L1 as a read-only
     * line whatever the GPU does with plain global loads. */
    static const ir_mem_attrs texture_attrs = {.space = IR_SPACE_GLOBAL, .l1 = IR_L1_READ_ONLY};
    memset(fault, 0, sizeof *fault);
    mem_request rq = {
        .attrs = &texture_attrs,
        .insn_id = ta->insn_id,
        .sm = ctx->sm,
        .counters = ta->insn_id < ms->ninsns ? &ms->per_insn[ta->insn_id] : &ms->unattributed,
    };
    return hier_texture(ms, ctx, ta, &rq, fault);
}

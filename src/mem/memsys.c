/* The memory system: allocation table, generic address resolution, window bounds, the backing
 * store (mem/dram.h) and warp-level loads, stores and atomics performed lane by lane in lane order.
 * Local memory is interleaved across the lanes of a warp slot in 4-byte words. */
#include "mem/memsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

enum { ALLOC_GAP = 64 * 1024 };

typedef struct allocation {
    uint64_t base, bytes;
} allocation;

struct memsys {
    dram *store;
    allocation *allocs; /* sorted by base */
    uint32_t nallocs, allocs_cap;
    uint32_t last_hit;
    uint64_t next_base;
    uint8_t *const_bank;
    uint32_t const_bytes;
    const uint8_t *params;
    uint32_t params_bytes;
};

memsys *memsys_create(void)
{
    memsys *ms = calloc(1, sizeof *ms);
    if (!ms)
        return NULL;
    diag_list dl;
    diag_list_init(&dl);
    if (dram_create(NULL, &dl, &ms->store) != MEM_OK) {
        diag_list_fini(&dl);
        free(ms);
        return NULL;
    }
    diag_list_fini(&dl);
    ms->next_base = MEM_GLOBAL_BASE;
    return ms;
}

void memsys_destroy(memsys *ms)
{
    if (!ms)
        return;
    dram_destroy(ms->store);
    free(ms->allocs);
    free(ms->const_bank);
    free(ms);
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
    if (addr - a->base + bytes > a->bytes || addr - a->base >= a->bytes)
        return -1;
    ms->last_hit = lo - 1;
    return (int)(lo - 1);
}

int memsys_host_write(memsys *ms, uint64_t addr, const void *src, uint64_t bytes)
{
    if (find_allocation(ms, addr, bytes) < 0)
        return -1;
    return dram_poke(ms->store, addr, bytes, src) == MEM_OK ? 0 : -1;
}

int memsys_host_read(memsys *ms, uint64_t addr, void *dst, uint64_t bytes)
{
    if (find_allocation(ms, addr, bytes) < 0)
        return -1;
    return dram_peek(ms->store, addr, bytes, dst) == MEM_OK ? 0 : -1;
}

int memsys_set_const_bank(memsys *ms, const uint8_t *data, uint32_t bytes)
{
    uint8_t *c = malloc(bytes ? bytes : 1);
    if (!c)
        return -1;
    if (bytes)
        memcpy(c, data, bytes);
    free(ms->const_bank);
    ms->const_bank = c;
    ms->const_bytes = bytes;
    return 0;
}

void memsys_set_params(memsys *ms, const uint8_t *params, uint32_t bytes)
{
    ms->params = params;
    ms->params_bytes = bytes;
}

ir_space memsys_resolve_generic(uint64_t generic, uint64_t *offset)
{
    static const struct {
        uint64_t base;
        ir_space space;
    } windows[] = {{MEM_SHARED_WINDOW, IR_SPACE_SHARED},
                   {MEM_LOCAL_WINDOW, IR_SPACE_LOCAL},
                   {MEM_CONST_WINDOW, IR_SPACE_CONST},
                   {MEM_PARAM_WINDOW, IR_SPACE_PARAM}};
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        if (generic - windows[i].base < MEM_WINDOW_BYTES) {
            *offset = generic - windows[i].base;
            return windows[i].space;
        }
    }
    *offset = generic;
    return IR_SPACE_GLOBAL;
}

uint64_t memsys_backing_bytes(const memsys *ms) { return dram_get_stats(ms->store)->bytes_allocated; }

/* Where one lane's bytes live once resolved. */
typedef struct lane_target {
    ir_space space;
    uint64_t offset; /* window offset or global address */
} lane_target;

static int fail(mem_fault *f, mem_fault_kind kind, uint32_t lane, uint64_t addr, uint32_t bytes,
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

/* Resolves and checks one lane's address. */
static int check_lane(memsys *ms, const mem_ctx *ctx, const mem_access *acc, uint32_t lane,
                      lane_target *t, mem_fault *f)
{
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    uint64_t a = acc->addr[lane];
    t->space = (ir_space)acc->space;
    t->offset = a;
    if (t->space == IR_SPACE_GENERIC)
        t->space = memsys_resolve_generic(a, &t->offset);
    if (bytes && t->offset % bytes)
        return fail(f, MEM_FAULT_MISALIGNED, lane, a, bytes, t->space,
                    "address is not aligned to the access size");
    uint64_t limit;
    switch (t->space) {
    case IR_SPACE_GLOBAL:
        if (find_allocation(ms, t->offset, bytes) < 0)
            return fail(f, MEM_FAULT_OUT_OF_BOUNDS, lane, a, bytes, t->space,
                        "address is outside every allocation");
        return 0;
    case IR_SPACE_SHARED: limit = ctx->shared_bytes; break;
    case IR_SPACE_LOCAL: limit = ctx->local_bytes; break;
    case IR_SPACE_CONST: limit = ms->const_bytes; break;
    case IR_SPACE_PARAM: limit = ms->params_bytes; break;
    default:
        return fail(f, MEM_FAULT_UNSUPPORTED, lane, a, bytes, t->space,
                    "state space is not modelled");
    }
    if (t->offset >= limit || limit - t->offset < bytes)
        return fail(f, MEM_FAULT_OUT_OF_BOUNDS, lane, a, bytes, t->space,
                    "address is outside the window's allocated size");
    if (acc->op != MEM_OP_LOAD && (t->space == IR_SPACE_CONST || t->space == IR_SPACE_PARAM))
        return fail(f, MEM_FAULT_READ_ONLY, lane, a, bytes, t->space,
                    "state space is read-only");
    return 0;
}

/* Backing address of byte `offset` of lane `lane`'s local memory: 4-byte words of the 32 lanes
 * of a warp slot are interleaved, so one word index across the warp is one 128-byte line. */
static uint64_t local_backing(const mem_ctx *ctx, uint32_t lane, uint64_t offset)
{
    return ctx->local_backing + (offset / 4) * 128 + lane * 4 + offset % 4;
}

static int move_bytes(memsys *ms, const mem_ctx *ctx, uint32_t lane, const lane_target *t,
                      uint8_t *buf, uint32_t bytes, int store)
{
    switch (t->space) {
    case IR_SPACE_GLOBAL:
        return (store ? dram_poke(ms->store, t->offset, bytes, buf)
                      : dram_peek(ms->store, t->offset, bytes, buf)) == MEM_OK ? 0 : -1;
    case IR_SPACE_SHARED:
        if (store)
            memcpy(ctx->shared + t->offset, buf, bytes);
        else
            memcpy(buf, ctx->shared + t->offset, bytes);
        return 0;
    case IR_SPACE_LOCAL:
        for (uint32_t done = 0; done < bytes;) {
            uint64_t off = t->offset + done;
            uint32_t chunk = 4 - (uint32_t)(off % 4);
            if (chunk > bytes - done)
                chunk = bytes - done;
            uint64_t at = local_backing(ctx, lane, off);
            mem_status s = store ? dram_poke(ms->store, at, chunk, buf + done)
                                 : dram_peek(ms->store, at, chunk, buf + done);
            if (s != MEM_OK)
                return -1;
            done += chunk;
        }
        return 0;
    case IR_SPACE_CONST:
        memcpy(buf, ms->const_bank + t->offset, bytes);
        return 0;
    case IR_SPACE_PARAM:
        memcpy(buf, ms->params + t->offset, bytes);
        return 0;
    default:
        return -1;
    }
}

static int do_atomics(memsys *ms, const mem_ctx *ctx, mem_access *acc, const lane_target *t,
                      mem_fault *f)
{
    uint32_t bytes = acc->elem_bytes;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (!((acc->active >> l) & 1u))
            continue;
        uint64_t old = 0, val;
        int ok = 1;
        if (move_bytes(ms, ctx, l, &t[l], (uint8_t *)&old, bytes, 0))
            return fail(f, MEM_FAULT_NOMEM, l, acc->addr[l], bytes, t[l].space, "backing store");
        val = acc->atom_fn(acc->atom_op, (ir_type)acc->atom_type, acc->atom_mods, old,
                           acc->operand_b[l], acc->operand_c[l], &ok);
        if (!ok)
            return fail(f, MEM_FAULT_UNSUPPORTED, l, acc->addr[l], bytes, t[l].space,
                        "atomic operation and type combination is not modelled");
        if (move_bytes(ms, ctx, l, &t[l], (uint8_t *)&val, bytes, 1))
            return fail(f, MEM_FAULT_NOMEM, l, acc->addr[l], bytes, t[l].space, "backing store");
        memcpy(acc->data[l], &old, bytes);
    }
    return 0;
}

int memsys_access(memsys *ms, const mem_ctx *ctx, mem_access *acc, mem_fault *fault)
{
    lane_target t[MEM_LANES];
    memset(fault, 0, sizeof *fault);
    if (acc->op == MEM_OP_PREFETCH || acc->op == MEM_OP_APPLYPRIORITY)
        return 0; /* hints: no data effect, and a hint to a bad address never faults */
    if (acc->op == MEM_OP_DISCARD)
        return fail(fault, MEM_FAULT_UNSUPPORTED, (uint32_t)__builtin_ctz(acc->active | 1u),
                    acc->addr[__builtin_ctz(acc->active | 1u)], 128, IR_SPACE_GLOBAL,
                    "discard.global.L2 needs the L2 model, which this build does not have");
    for (uint32_t l = 0; l < MEM_LANES; l++)
        if (((acc->active >> l) & 1u) && check_lane(ms, ctx, acc, l, &t[l], fault))
            return -1;
    if (acc->op == MEM_OP_ATOMIC)
        return do_atomics(ms, ctx, acc, t, fault);
    uint32_t bytes = (uint32_t)acc->elem_bytes * acc->vec;
    int store = acc->op == MEM_OP_STORE;
    for (uint32_t l = 0; l < MEM_LANES; l++) {
        if (((acc->active >> l) & 1u) && move_bytes(ms, ctx, l, &t[l], acc->data[l], bytes, store))
            return fail(fault, MEM_FAULT_NOMEM, l, acc->addr[l], bytes, t[l].space,
                        "backing store could not grow");
    }
    return 0;
}

int memsys_peek(memsys *ms, const mem_ctx *ctx, uint32_t lane, uint64_t generic, void *out,
                uint32_t bytes)
{
    lane_target t;
    t.space = memsys_resolve_generic(generic, &t.offset);
    mem_access probe;
    probe.op = MEM_OP_LOAD;
    probe.space = IR_SPACE_GENERIC;
    probe.elem_bytes = 1;
    probe.vec = 1;
    mem_fault f;
    for (uint32_t i = 0; i < bytes; i++) {
        probe.addr[lane] = generic + i;
        if (check_lane(ms, ctx, &probe, lane, &t, &f))
            return -1;
        if (move_bytes(ms, ctx, lane, &t, (uint8_t *)out + i, 1, 0))
            return -1;
    }
    return 0;
}

/* Memory instructions: address generation per lane, the warp-level access handed to the memory
 * system (mem/mem.h) for loads, stores, atomics, cache control and fences, register packing and
 * unpacking with sign or zero extension, frame-resident .param variables, and cvta between
 * generic and window addresses. The reports of accesses that fail are in exec_mem_report.c. */
#include <string.h>

#include "base/cpu.h"
#include "exec/exec_internal.h"
#include "exec/exec_mem_internal.h"
#include "mem/mem_global.h"
#include "mem/mem_policy.h"
#include "mem/mem_shared.h"
#include "mem/memsys.h"

/* exec_xinsn.aux of a memory instruction: MEM_AUX_ADDR32, its address is [reg32 + imm] taken
 * modulo 2^32: in a window space, as PTX's 32-bit address arithmetic does (nvcc -O3 forms
 * pointers below an array, `sub.s32 %r3, %r1, 64; ld.shared.u32 %r4, [%r3+68]`), and in every
 * space on a machine of 32-bit registers (SASS without .E); MEM_AUX_PAIR, its base is the 64-bit
 * value of a register pair (ADDR count 2: vregs[0] the low half, vregs[1] the high; SASS .E). */
enum {
    MEM_AUX_ADDR32 = EXEC_MEM_AUX_ADDR32,
    MEM_AUX_PAIR = EXEC_MEM_AUX_PAIR,
    MEM_AUX_SAME = EXEC_MEM_AUX_SAME
};

/* MEM_AUX_SAME: a load whose address has no register, so that every lane reads the same bytes
 * (a parameter by name, a SASS `c[b][o]` operand's glue load): in the const and param spaces
 * exec_h_ld hands the memory system the lowest active lane only and copies its value to the
 * others. The constant cache counts such an access the same either way (one request, one
 * distinct address, one line: mem_shared.c constant_count), and const and param addresses
 * fault on their first lane, whatever the others do. */
uint32_t exec_mem_decode_aux(const ir_machine *k, const ir_func *fn, const ir_insn *in)
{
    const ir_operand *a = &in->src[0];
    if (a->kind == IR_OPND_ADDR && !a->has_reg && in->op == IR_LD && !in->mem.has_policy)
        return MEM_AUX_SAME;
    if (a->kind != IR_OPND_ADDR || !a->has_reg || a->reg >= fn->nregs)
        return 0;
    if (a->count == 2)
        return a->vregs[1] < fn->nregs ? MEM_AUX_PAIR : 0;
    int reg32 = ir_type_bits((ir_type)fn->reg_types[a->reg]) == 32;
    if (k->reg_bits == 32)
        return reg32 ? MEM_AUX_ADDR32 : 0;
    switch ((ir_space)in->mem.space) {
    case IR_SPACE_SHARED: case IR_SPACE_SHARED_CLUSTER: case IR_SPACE_LOCAL:
    case IR_SPACE_CONST: case IR_SPACE_PARAM:
        break;
    default: /* generic and global addresses keep 64-bit arithmetic */
        return 0;
    }
    return reg32 ? MEM_AUX_ADDR32 : 0;
}

/* The register part of lane_addresses: lane l's address is (lo[l] + base) & keep, or, with a
 * register pair (hi not NULL), (hi[l] << 32 | the low 32 bits of lo[l]) + base. */
static inline __attribute__((always_inline)) void reg_addresses(const uint64_t *lo,
                                                                const uint64_t *hi, uint64_t base,
                                                                uint64_t keep, uint64_t *addr)
{
    if (hi) {
        for (unsigned l = 0; l < LANES; l++) addr[l] = ((hi[l] << 32) | (uint32_t)lo[l]) + base;
        return;
    }
    for (unsigned l = 0; l < LANES; l++) addr[l] = (lo[l] + base) & keep;
}

/* reg_addresses on x86-64 hosts whose CPU has AVX2: the same integer operations four lanes at a
 * time (256-bit registers) instead of two, so the same addresses. A second build of the loop,
 * taken when the program was prepared on such a CPU (exec_program.host_avx2, exec_host_avx2). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define EXEC_AVX2_VARIANTS 1
__attribute__((target("avx2"))) static void reg_addresses_avx2(const uint64_t *lo,
                                                               const uint64_t *hi, uint64_t base,
                                                               uint64_t keep, uint64_t *addr)
{
    reg_addresses(lo, hi, base, keep, addr);
}
#endif

int exec_host_avx2(void)
{
#ifdef EXEC_AVX2_VARIANTS
    return cpu_has_avx2();
#else
    return 0;
#endif
}

/* Lane `lane`'s address as lane_addresses computes it, alone, into *addr; returns the space. */
static inline ir_space lane_address(exec_warp *w, const ir_operand *o, ir_space written,
                                    uint32_t aux, unsigned lane, uint64_t *addr)
{
    uint64_t base;
    ir_space sp = address_base(w, o, written, &base);
    if (!o->has_reg) {
        *addr = base;
    } else if (aux & MEM_AUX_PAIR) {
        uint64_t lo = w->regs[(size_t)o->vregs[0] * LANES + lane];
        uint64_t hi = w->regs[(size_t)o->vregs[1] * LANES + lane];
        *addr = ((hi << 32) | (uint32_t)lo) + base;
    } else {
        uint64_t keep = (aux & MEM_AUX_ADDR32) ? 0xFFFFFFFFull : ~0ull;
        *addr = (w->regs[(size_t)o->reg * LANES + lane] + base) & keep;
    }
    return sp;
}

/* Per-lane addresses of an ADDR operand; returns the space the symbol (if any) lives in, or
 * `written` when the base is a register. `aux`: exec_mem_decode_aux's flags (MEM_AUX_ADDR32:
 * each lane's register + offset is taken modulo 2^32; MEM_AUX_PAIR: the base is a register
 * pair). */
static ir_space lane_addresses(exec_warp *w, const ir_operand *o, ir_space written, uint32_t aux,
                               uint64_t *addr)
{
    uint64_t base;
    ir_space sp = address_base(w, o, written, &base);
    if (o->has_reg) {
        int pair = (aux & MEM_AUX_PAIR) != 0;
        const uint64_t *lo = w->regs + (size_t)(pair ? o->vregs[0] : o->reg) * LANES;
        const uint64_t *hi = pair ? w->regs + (size_t)o->vregs[1] * LANES : NULL;
        uint64_t keep = (aux & MEM_AUX_ADDR32) ? 0xFFFFFFFFull : ~0ull;
#ifdef EXEC_AVX2_VARIANTS
        if (w->run->prog->host_avx2) {
            reg_addresses_avx2(lo, hi, base, keep, addr);
            return sp;
        }
#endif
        reg_addresses(lo, hi, base, keep, addr);
    } else {
        for (unsigned l = 0; l < LANES; l++) addr[l] = base;
    }
    return sp;
}

/* Frame-resident .param storage (call arguments, return values, function parameters). */
static int frame_param_access(exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc,
                              int store)
{
    exec_frame *f = &w->frames[w->depth - 1];
    uint32_t bytes = acc->elem_bytes * acc->vec;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        if (acc->addr[l] + bytes > f->fn->param_area_bytes) {
            warp_fault(w, x, l, "EXEC-MEM-002", "param access of size %u at offset %llu outside the %u-byte "
                       "parameter area of %s", bytes, (unsigned long long)acc->addr[l],
                       f->fn->param_area_bytes, f->fn->ir->name);
            return -1;
        }
        uint8_t *p = f->params + (size_t)l * f->fn->param_area_bytes + acc->addr[l];
        if (store)
            memcpy(p, acc->data[l], bytes);
        else
            memcpy(acc->data[l], p, bytes);
    }
    return 0;
}

static int do_access(exec_warp *w, const exec_xinsn *x, mem_access *acc)
{
    mem_fault fault;
    exec_run_state *rs = w->run;
    /* On a host thread beside others (rs->tally set) only loads and stores get here
     * (exec_xinsn.serial): a load that would reach the L2 parks the warp instead, and a store's
     * writes to the L2 wait in its SM's log (exec_window.c). */
    if (rs->tally && acc->op == MEM_OP_STORE && memsys_store_log_full(w->mctx.store_log)) {
        w->parked = 1; /* the SM's log is full: the store waits for the serial phase */
        return -2;
    }
    int rc = !rs->tally                  ? memsys_access(rs->ms, &w->mctx, acc, &fault)
             : acc->op == MEM_OP_LOAD   ? memsys_load_if_local(rs->ms, &w->mctx, acc, &fault)
                                        : memsys_store_deferred(rs->ms, &w->mctx, acc, &fault);
    if (rc == 1) {
        w->parked = 1;
        return -2;
    }
    if (rc == 0) {
        const exec_launch *L = w->run->launch;
        if (L->on_access)
            L->on_access(acc, L->access_user);
        /* IR_WINDOW_ZERO: lanes outside their window did nothing; misaligned ones were aligned
         * down. Both are errors that let the kernel go on (docs/faults.md, "Window errors"). */
        uint32_t misaligned = w->run->launch->misaligned_errors
                                  ? acc->misaligned_lanes & ~acc->window_lanes
                                  : 0;
        if (acc->window_lanes)
            exec_mem_window_error(w, x, acc, acc->window_lanes, 0);
        if (misaligned)
            exec_mem_window_error(w, x, acc, misaligned, 1);
        return 0;
    }
    exec_mem_fault(w, x, acc, &fault);
    return -1;
}

/* A full warp's shared-memory access that mem_shared_warp takes (a load into out[], a store
 * from in[] when not NULL, see there), with do_access's report to the launch's on_access; 1
 * when it does not take it (nothing done: the caller goes on with do_access). A store waits
 * instead when the SM's log is full, as do_access makes it (it then takes do_access too). */
static int shared_warp(exec_warp *w, mem_access *acc, uint64_t *out, const uint64_t *in)
{
    exec_run_state *rs = w->run;
    if (acc->op == MEM_OP_STORE && rs->tally && memsys_store_log_full(w->mctx.store_log))
        return 1;
    if (mem_shared_warp(rs->ms, &w->mctx, acc, out, in))
        return 1;
    if (rs->launch->on_access)
        rs->launch->on_access(acc, rs->launch->access_user);
    return 0;
}

/* A warp's global load or store in runs of contiguous lanes that mem_global_warp takes (a load into out[],
 * a store from in[] when not NULL, see there), as do_access would make it: through the entry
 * do_access would choose (memsys_load_if_local or memsys_store_deferred on a host thread beside
 * others), with its report to the launch's on_access. Returns 0 when done, -1 after a fault
 * (reported), -2 when the load would reach the L2 in a parallel phase (the warp parks, as
 * do_access parks it), and 1 when it is not taken (nothing done: the caller goes on with
 * do_access). A store whose SM's log is full is not taken either (do_access makes it wait). */
static int global_warp(exec_warp *w, const exec_xinsn *x, mem_access *acc, uint64_t *out,
                       const uint64_t *in)
{
    exec_run_state *rs = w->run;
    mem_global_mode mode = MEM_GLOBAL_ACCESS;
    if (rs->tally && acc->op == MEM_OP_STORE) {
        if (memsys_store_log_full(w->mctx.store_log))
            return 1;
        mode = MEM_GLOBAL_DEFERRED;
    } else if (rs->tally) {
        mode = MEM_GLOBAL_IF_LOCAL;
    }
    mem_fault fault;
    int rc = mem_global_warp(rs->ms, &w->mctx, acc, mode, rs->launch->on_access != NULL, out, in,
                             &fault);
    if (rc == 1)
        return 1;
    if (rc == 2) {
        w->parked = 1;
        return -2;
    }
    if (rc < 0) {
        exec_mem_fault(w, x, acc, &fault);
        return -1;
    }
    if (rs->launch->on_access)
        rs->launch->on_access(acc, rs->launch->access_user);
    return 0;
}

/* A fence with the instruction's side effects (mem.fence): the fence instructions, and the
 * fence an acquire performs after its access. Its own access record keeps the access's results
 * (served levels) intact. */
static void fence_access(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    mem_access fence;
    fence.op = MEM_OP_FENCE;
    fence.space = IR_SPACE_NONE;
    fence.elem_bytes = 0;
    fence.vec = 0;
    fence.active = mask;
    fence.insn_id = x->in->id;
    fence.time = 0;
    fence.attrs = &x->in->mem;
    fence.skip_served = 1; /* a fence serves nothing */
    do_access(w, x, &fence);
}

/* The fields of `acc` that every access of instruction x sets the same way, whatever the shape
 * of its address: operation, element size, lanes, attributes, window errors (prepare and
 * prepare_reg). */
static inline __attribute__((always_inline)) void
access_header(const exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc, mem_op op)
{
    const ir_insn *in = x->in;
    acc->op = (uint8_t)op;
    acc->elem_bytes = in->mem.elem_bytes;
    acc->vec = in->mem.vec ? in->mem.vec : 1;
    acc->active = mask;
    acc->insn_id = in->id;
    acc->time = 0;
    acc->attrs = &in->mem;
    acc->policy = 0;
    acc->window_errors = w->run->prog->module->machine.window_errors;
    /* acc->skip_served is the launch's, set when its state was made (exec_device.c). */
}

static void prepare(exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc, mem_op op,
                    ir_space *space_out)
{
    const ir_insn *in = x->in;
    access_header(w, x, mask, acc, op);
    *space_out = lane_addresses(w, &in->src[0], (ir_space)in->mem.space, x->aux, acc->addr);
    acc->space = (uint8_t)*space_out;
}

static uint64_t policy_operand(exec_warp *w, const exec_xinsn *x, int i, uint32_t mask)
{
    uint64_t tmp[LANES];
    const uint64_t *p = warp_src(w, x, i, tmp);
    return p[mask ? __builtin_ctz(mask) : 0];
}

/* unpack_load for a load whose lanes all read what lane `lead` read (MEM_AUX_SAME). */
static void unpack_same(exec_warp *w, const exec_xinsn *x, uint32_t mask, const mem_access *acc,
                        unsigned lead)
{
    const ir_operand *d = &x->in->dst[0];
    if (d->kind != IR_OPND_VEC && d->kind != IR_OPND_REG)
        return;
    for (unsigned e = 0; e < acc->vec; e++) {
        uint32_t reg = d->kind == IR_OPND_VEC ? d->vregs[e] : d->reg;
        if (reg == IR_REG_SINK)
            continue;
        uint64_t v = load_element(x, acc->data[lead], e, acc->elem_bytes);
        broadcast_to_lanes(w->regs + (size_t)reg * LANES, v, mask);
    }
}

#ifdef EXEC_AVX2_VARIANTS
#include <immintrin.h>
/* unpack_u32 with every lane active on AVX2 hosts: the 4-byte elements of eight lanes (their
 * data MEM_MAX_LANE_BYTES apart) in one gather, zero-extended into two registers of four 64-bit
 * lanes. The same values; each gather reads exactly the elements' bytes. */
__attribute__((target("avx2"))) static void unpack_u32_all_avx2(uint64_t *r,
                                                                const mem_access *acc,
                                                                unsigned at)
{
    const int stride = MEM_MAX_LANE_BYTES;
    const __m256i index = _mm256_setr_epi32(0, stride, 2 * stride, 3 * stride, 4 * stride,
                                            5 * stride, 6 * stride, 7 * stride);
    for (unsigned l = 0; l < LANES; l += 8) {
        __m256i v = _mm256_i32gather_epi32((const int *)(const void *)(acc->data[l] + at), index,
                                           1);
        _mm256_storeu_si256((__m256i *)(void *)(r + l),
                            _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
        _mm256_storeu_si256((__m256i *)(void *)(r + l + 4),
                            _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
    }
}
#endif

/* The 4-byte (zero-extended) or 8-byte element at byte `at` of each lane in `mask` of acc's
 * data into register lanes r: every lane straight when all are active (on AVX2 hosts, `avx2`
 * set: 4-byte elements by gathers), else lane by lane of the mask (a lane outside it keeps its
 * value). */
static void unpack_u32(uint64_t *r, const mem_access *acc, unsigned at, uint32_t mask, int avx2)
{
    uint32_t v;
#ifdef EXEC_AVX2_VARIANTS
    if (avx2 && mask == FULL_MASK) {
        unpack_u32_all_avx2(r, acc, at);
        return;
    }
#else
    (void)avx2;
#endif
    if (mask == FULL_MASK) {
#pragma GCC unroll 8
        for (unsigned l = 0; l < LANES; l++) {
            memcpy(&v, acc->data[l] + at, 4);
            r[l] = v;
        }
        return;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        memcpy(&v, acc->data[l] + at, 4);
        r[l] = v;
    }
}

static void unpack_u64(uint64_t *r, const mem_access *acc, unsigned at, uint32_t mask)
{
    if (mask == FULL_MASK) {
#pragma GCC unroll 8
        for (unsigned l = 0; l < LANES; l++) memcpy(&r[l], acc->data[l] + at, 8);
        return;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        memcpy(&r[l], acc->data[l] + at, 8);
    }
}

/* Writes loaded element bytes of every lane into the destination register(s). */
static void unpack_load(exec_warp *w, const exec_xinsn *x, uint32_t mask, const mem_access *acc)
{
    const ir_insn *in = x->in;
    const ir_operand *d = &in->dst[0];
    unsigned eb = acc->elem_bytes, bits = x->dst_bits ? x->dst_bits : 64;
    for (unsigned e = 0; e < acc->vec; e++) {
        uint32_t reg = d->kind == IR_OPND_VEC ? d->vregs[e] : d->reg;
        if (reg == IR_REG_SINK || (d->kind != IR_OPND_VEC && d->kind != IR_OPND_REG))
            continue;
        uint64_t *r = w->regs + (size_t)reg * LANES;
        if (eb == 4 && !x->dst_signed) {
            unpack_u32(r, acc, e * 4, mask, w->run->prog->host_avx2);
            continue;
        }
        if (eb == 8) {
            unpack_u64(r, acc, e * 8, mask);
            continue;
        }
        for (unsigned l = 0; l < LANES; l++) {
            if (!((mask >> l) & 1u))
                continue;
            uint64_t v = 0;
            memcpy(&v, acc->data[l] + e * eb, eb < 8 ? eb : 8);
            if (x->dst_signed && eb < 8) {
                unsigned sh = 64 - 8 * eb;
                v = (uint64_t)((int64_t)(v << sh) >> sh);
            }
            if (bits < 64)
                v &= (1ull << bits) - 1;
            r[l] = v;
        }
    }
}

void exec_h_ld(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    mem_access *acc = &w->run->acc;
    ir_space sp;
    prepare(w, x, mask, acc, MEM_OP_LOAD, &sp);
    if (x->in->mem.has_policy)
        acc->policy = policy_operand(w, x, 1, mask);
    if (x->in->mem.elem_bytes * acc->vec > MEM_MAX_LANE_BYTES) {
        warp_fault(w, x, 0, "EXEC-UNSUP-002", "access of %u bytes per lane is not modelled",
                   x->in->mem.elem_bytes * acc->vec);
        return;
    }
    if ((x->aux & MEM_AUX_SAME) && (sp == IR_SPACE_CONST || sp == IR_SPACE_PARAM)) {
        unsigned lead = (unsigned)__builtin_ctz(mask);
        acc->active = 1u << lead;
        if (do_access(w, x, acc) == 0) {
            unpack_same(w, x, mask, acc, lead);
            if (x->in->mem.fence)
                fence_access(w, x, mask);
        }
        return;
    }
    int rc;
    if (sp == IR_SPACE_NONE)
        rc = frame_param_access(w, x, mask, acc, 0);
    else if (sp == IR_SPACE_SHARED && mask == FULL_MASK && !shared_warp(w, acc, NULL, NULL))
        rc = 0;
    else if ((sp == IR_SPACE_GLOBAL || sp == IR_SPACE_GENERIC) && mem_global_may_take(acc) &&
             (rc = global_warp(w, x, acc, NULL, NULL)) != 1)
        ; /* taken (0), or a fault or a parked warp (-1, -2) */
    else
        rc = do_access(w, x, acc);
    if (rc == 0) {
        unpack_load(w, x, mask, acc);
        /* An acquire's side effects, e.g. no stale L1 hits after it at GPU scope. */
        if (x->in->mem.fence)
            fence_access(w, x, mask);
    }
}

/* In a parallel phase (w->run->tally set), before the load's lanes are computed: whether its
 * lowest active lane alone makes memsys_load_if_local park it (memsys_load_parks); then the
 * warp parks (as do_access parks it) and the load runs again in the serial phase. Fills only
 * what memsys_load_parks reads; after 0 the caller prepares the whole access and makes it.
 * Worth asking only for a global or generic load: the others never park for their first lane.
 * `reg_only`: the address has addr_reg_only's shape (decided at decode), so the lane's address
 * is its register plus the offset, without lane_address's look at a variable. */
static inline __attribute__((always_inline)) int
load_parks(exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc, int reg_only)
{
    const ir_insn *in = x->in;
    unsigned lead = (unsigned)__builtin_ctz(mask);
    ir_space sp = (ir_space)in->mem.space;
    if (reg_only) { /* addr_reg_only: lane_address's register plus offset, the space written */
        uint64_t keep = (x->aux & MEM_AUX_ADDR32) ? 0xFFFFFFFFull : ~0ull;
        acc->addr[lead] =
            (w->regs[(size_t)in->src[0].reg * LANES + lead] + (uint64_t)in->src[0].imm) & keep;
    } else {
        sp = lane_address(w, &in->src[0], sp, x->aux, lead, &acc->addr[lead]);
    }
    if (sp == IR_SPACE_NONE) /* the frame's parameters: no memory access */
        return 0;
    acc->op = MEM_OP_LOAD;
    acc->space = (uint8_t)sp;
    acc->active = mask;
    acc->insn_id = in->id;
    acc->attrs = &in->mem;
    if (!memsys_load_parks(w->run->ms, &w->mctx, acc))
        return 0;
    w->parked = 1;
    return 1;
}

/* prepare for an address of one register (not a pair) plus an offset, without a variable
 * (addr_reg_only): lane_addresses's register part alone, the base being the offset and the
 * space the one written, without address_base and the call of lane_addresses; the register
 * loop's AVX2 build where the host has AVX2. The same access as prepare's; acc->vec 1 (the
 * callers' loads and stores have one element). */
static inline __attribute__((always_inline)) void prepare_reg(exec_warp *w, const exec_xinsn *x,
                                                              uint32_t mask, mem_access *acc,
                                                              mem_op op)
{
    const ir_insn *in = x->in;
    access_header(w, x, mask, acc, op);
    acc->space = in->mem.space;
    const uint64_t *lo = w->regs + (size_t)in->src[0].reg * LANES;
    uint64_t keep = (x->aux & MEM_AUX_ADDR32) ? 0xFFFFFFFFull : ~0ull;
#ifdef EXEC_AVX2_VARIANTS
    if (w->run->prog->host_avx2) {
        reg_addresses_avx2(lo, NULL, (uint64_t)in->src[0].imm, keep, acc->addr);
        return;
    }
#endif
    reg_addresses(lo, NULL, (uint64_t)in->src[0].imm, keep, acc->addr);
}

/* Whether an instruction's address is one register (not a pair) plus an offset, without a
 * variable: prepare_reg's shape, decided at decode. */
static int addr_reg_only(const exec_xinsn *x)
{
    const ir_operand *a = &x->in->src[0];
    return a->kind == IR_OPND_ADDR && a->has_reg && a->sym == IR_SYM_NONE &&
           !(x->aux & MEM_AUX_PAIR) && (x->in->mem.vec <= 1);
}

/* ld of one 4-byte element zero-extended, or one 8-byte element, into a register, without a
 * cache policy operand, a fence or MEM_AUX_SAME (exec_ld_handler): exec_h_ld's steps with the
 * unpacking decided at decode. `may_park`: a global or generic load, which in a parallel phase
 * asks load_parks first (decided at decode too, so that the other spaces' loads pay nothing). */
static inline __attribute__((always_inline)) void ld_scalar(exec_warp *w, const exec_xinsn *x,
                                                            uint32_t mask, int may_park,
                                                            int reg_only)
{
    if (!mask)
        return;
    mem_access *acc = &w->run->acc;
    ir_space sp = (ir_space)x->in->mem.space;
    if (may_park && w->run->tally && load_parks(w, x, mask, acc, reg_only))
        return;
    if (reg_only)
        prepare_reg(w, x, mask, acc, MEM_OP_LOAD);
    else
        prepare(w, x, mask, acc, MEM_OP_LOAD, &sp);
    uint64_t *r = w->regs + (size_t)x->in->dst[0].reg * LANES;
    if (may_park && (sp == IR_SPACE_GLOBAL || sp == IR_SPACE_GENERIC) &&
        mem_global_may_take(acc) && global_warp(w, x, acc, r, NULL) != 1)
        return;
    if (sp == IR_SPACE_NONE ? frame_param_access(w, x, mask, acc, 0) : do_access(w, x, acc))
        return;
    if (acc->elem_bytes == 4)
        unpack_u32(r, acc, 0, mask, w->run->prog->host_avx2);
    else
        unpack_u64(r, acc, 0, mask);
}

static void h_ld_scalar(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    ld_scalar(w, x, mask, 0, 0);
}

/* ld_scalar of the shared space: a full warp through shared_warp straight into the destination
 * register (the access's addresses are computed before it is written), the rest as ld_scalar. */
static void h_ld_scalar_shared(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (mask != FULL_MASK) {
        ld_scalar(w, x, mask, 0, 0);
        return;
    }
    mem_access *acc = &w->run->acc;
    ir_space sp;
    prepare(w, x, mask, acc, MEM_OP_LOAD, &sp);
    uint64_t *r = w->regs + (size_t)x->in->dst[0].reg * LANES;
    if (sp == IR_SPACE_SHARED && !shared_warp(w, acc, r, NULL))
        return;
    if (sp == IR_SPACE_NONE ? frame_param_access(w, x, mask, acc, 0) : do_access(w, x, acc))
        return;
    if (acc->elem_bytes == 4)
        unpack_u32(r, acc, 0, mask, w->run->prog->host_avx2);
    else
        unpack_u64(r, acc, 0, mask);
}

/* What h_ld_shared_reg leaves to the general path: a partial warp (ld_scalar), or a full warp's
 * access mem_shared_load_reg(32) declined, whose addresses acc holds (do_access, then the value
 * into register row r). Out of line, so that h_ld_shared_reg's own path saves no registers for
 * it. */
static __attribute__((noinline)) void ld_shared_reg_general(exec_warp *w, const exec_xinsn *x,
                                                            uint32_t mask, uint64_t *r)
{
    if (mask != FULL_MASK) {
        ld_scalar(w, x, mask, 0, 0);
        return;
    }
    mem_access *acc = &w->run->acc;
    if (do_access(w, x, acc))
        return;
    if (acc->elem_bytes == 4)
        unpack_u32(r, acc, 0, mask, w->run->prog->host_avx2);
    else
        unpack_u64(r, acc, 0, mask);
}

int exec_ld_shared_general_only;

/* h_ld_scalar_shared for addr_reg_only's addresses without the uniform hint (exec_ld_handler):
 * a full warp's offsets (the register plus the offset, as prepare_reg makes them), counts and
 * values in one call of mem_shared_load_reg32 (or mem_shared_load_reg for 64-bit address
 * arithmetic), straight into the destination register. Out of line: h_ld_shared_quiet32's
 * way out. */
static __attribute__((noinline)) void h_ld_shared_reg(exec_warp *w, const exec_xinsn *x,
                                                      uint32_t mask)
{
    const ir_insn *in = x->in;
    uint64_t *r = w->regs + (size_t)in->dst[0].reg * LANES;
    if (mask != FULL_MASK) {
        ld_shared_reg_general(w, x, mask, r);
        return;
    }
    exec_run_state *rs = w->run;
    mem_access *acc = &rs->acc;
    access_header(w, x, mask, acc, MEM_OP_LOAD);
    acc->space = in->mem.space;
    const uint64_t *row = w->regs + (size_t)in->src[0].reg * LANES;
    uint64_t base = (uint64_t)in->src[0].imm;
    if ((x->aux & MEM_AUX_ADDR32) ? mem_shared_load_reg32(rs->ms, &w->mctx, acc, row, base, r)
                                  : mem_shared_load_reg(rs->ms, &w->mctx, acc, row, base, r)) {
        ld_shared_reg_general(w, x, mask, r);
        return;
    }
    if (rs->launch->on_access)
        rs->launch->on_access(acc, rs->launch->access_user);
}

/* What h_ld_shared_quiet32 leaves when mem_shared_load_reg32_quiet refuses the load: the rest of
 * the access record (acc->addr already holds the offsets), then the general path, which reports
 * the misaligned or out-of-window lanes. */
static __attribute__((noinline)) void ld_shared_quiet_refused(exec_warp *w, const exec_xinsn *x)
{
    mem_access *acc = &w->run->acc;
    access_header(w, x, FULL_MASK, acc, MEM_OP_LOAD);
    acc->space = x->in->mem.space;
    ld_shared_reg_general(w, x, FULL_MASK, w->regs + (size_t)x->in->dst[0].reg * LANES);
}

/* The access record's fields that a quiet shared load's counts read (the operation, the element
 * size, one element, the instruction); the rest is left as the launch's last access wrote it.
 * Returns the launch's record. */
static inline mem_access *quiet_header(exec_run_state *rs, const ir_insn *in)
{
    mem_access *acc = &rs->acc;
    acc->op = MEM_OP_LOAD;
    acc->elem_bytes = in->mem.elem_bytes;
    acc->vec = 1;
    acc->insn_id = in->id;
    return acc;
}

/* A full warp's ld.shared of 32-bit address arithmetic without an observer (h_ld_shared_quiet32):
 * mem_shared_load_reg32_quiet, which needs no access header and writes no results: nothing
 * reads them (every other access of the launch writes its own header first, and the observer is
 * the only reader of results). */
static __attribute__((noinline)) void ld_shared_quiet(exec_warp *w, const exec_xinsn *x)
{
    exec_run_state *rs = w->run;
    const ir_insn *in = x->in;
    mem_access *acc = quiet_header(rs, in);
    if (mem_shared_load_reg32_quiet(rs->ms, &w->mctx, acc,
                                    w->regs + (size_t)in->src[0].reg * LANES,
                                    (uint64_t)in->src[0].imm,
                                    w->regs + (size_t)in->dst[0].reg * LANES))
        ld_shared_quiet_refused(w, x);
}

/* ld_shared_quiet for a partial warp (a reduction's `if (tid < s)` steps):
 * mem_shared_load_reg32_quiet_mask, which reads and counts only the active lanes; a refused load
 * (a misaligned or out-of-window active lane) goes the general way, ld_scalar, which makes its
 * addresses afresh and reports the lanes. */
static __attribute__((noinline)) void ld_shared_quiet_part(exec_warp *w, const exec_xinsn *x,
                                                           uint32_t mask)
{
    exec_run_state *rs = w->run;
    const ir_insn *in = x->in;
    mem_access *acc = quiet_header(rs, in);
    if (mem_shared_load_reg32_quiet_mask(rs->ms, &w->mctx, acc,
                                         w->regs + (size_t)in->src[0].reg * LANES,
                                         (uint64_t)in->src[0].imm, mask,
                                         w->regs + (size_t)in->dst[0].reg * LANES))
        ld_scalar(w, x, mask, 0, 0);
}

/* h_ld_shared_reg for 32-bit address arithmetic (exec_ld_handler, unless
 * exec_ld_shared_general_only): ld_shared_quiet for a full warp without an observer,
 * ld_shared_quiet_part for a partial one, else h_ld_shared_reg. Only a choice (two jumps on the
 * full warp's way), so that neither way pays the other's frame. */
static void h_ld_shared_quiet32(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (mask == FULL_MASK && !w->run->launch->on_access)
        ld_shared_quiet(w, x);
    else if (mask && mask != FULL_MASK && !w->run->launch->on_access)
        ld_shared_quiet_part(w, x, mask);
    else
        h_ld_shared_reg(w, x, mask);
}

static void h_ld_scalar_global(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    ld_scalar(w, x, mask, 1, 0);
}

/* h_ld_scalar_global for addr_reg_only's addresses, through prepare_reg. */
static void h_ld_global_reg(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    ld_scalar(w, x, mask, 1, 1);
}

exec_handler exec_ld_handler(const exec_xinsn *x)
{
    const ir_insn *in = x->in;
    const ir_operand *d = &in->dst[0];
    unsigned eb = in->mem.elem_bytes;
    if (x->aux & MEM_AUX_SAME)
        return exec_ld_same_handler(x);
    if (!in->mem.has_policy && !in->mem.fence && in->mem.vec <= 1 &&
        ((eb == 4 && !x->dst_signed) || eb == 8) && d->kind == IR_OPND_REG &&
        d->reg != IR_REG_SINK)
        return in->mem.space == IR_SPACE_GLOBAL || in->mem.space == IR_SPACE_GENERIC
                   ? (addr_reg_only(x) ? h_ld_global_reg : h_ld_scalar_global)
               : in->mem.space == IR_SPACE_SHARED
                   ? (!addr_reg_only(x) || in->mem.uniform ? h_ld_scalar_shared
                      : (x->aux & MEM_AUX_ADDR32) && !exec_ld_shared_general_only
                          ? h_ld_shared_quiet32
                          : h_ld_shared_reg)
                                                   : h_ld_scalar;
    return exec_h_ld;
}
/* Gathers the value operand (scalar, immediate or vector) into element bytes per lane. */
static void pack_store(exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc,
                       int src_index)
{
    const ir_operand *s = &x->in->src[src_index];
    unsigned eb = acc->elem_bytes;
    uint64_t tmp[LANES];
    for (unsigned e = 0; e < acc->vec; e++) {
        const uint64_t *v;
        if (s->kind == IR_OPND_VEC) {
            uint32_t reg = s->vregs[e];
            if (reg == IR_REG_SINK || reg == IR_REG_IMM) {
                /* Immediate elements have their bits in s->imm at element e's position. */
                unsigned bits = eb * 8;
                uint64_t part = reg == IR_REG_SINK || bits >= 64
                                    ? (reg == IR_REG_IMM ? (uint64_t)s->imm : 0)
                                    : ((uint64_t)s->imm >> (e * bits)) & ((1ull << bits) - 1);
                for (unsigned l = 0; l < LANES; l++) tmp[l] = part;
                v = tmp;
            } else {
                v = w->regs + (size_t)reg * LANES;
            }
        } else {
            v = warp_src(w, x, src_index, tmp);
        }
        if (eb == 4) {
            for (unsigned l = 0; l < LANES; l++) {
                uint32_t v32 = (uint32_t)v[l];
                memcpy(acc->data[l] + e * 4, &v32, 4);
            }
        } else {
            for (unsigned l = 0; l < LANES; l++)
                if ((mask >> l) & 1u)
                    memcpy(acc->data[l] + e * eb, &v[l], eb < 8 ? eb : 8);
        }
        if (eb == 16) { /* .b128 from a vector of two 64-bit registers is handled above */
            for (unsigned l = 0; l < LANES; l++)
                if ((mask >> l) & 1u)
                    memset(acc->data[l] + 8, 0, 8);
        }
    }
}

void exec_h_st(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    mem_access *acc = &w->run->acc;
    ir_space sp = (ir_space)x->in->mem.space;
    if (addr_reg_only(x))
        prepare_reg(w, x, mask, acc, MEM_OP_STORE);
    else
        prepare(w, x, mask, acc, MEM_OP_STORE, &sp);
    if (x->in->mem.has_policy)
        acc->policy = policy_operand(w, x, 2, mask);
    if (x->in->mem.elem_bytes * acc->vec > MEM_MAX_LANE_BYTES) {
        warp_fault(w, x, 0, "EXEC-UNSUP-002", "access of %u bytes per lane is not modelled",
                   x->in->mem.elem_bytes * acc->vec);
        return;
    }
    if (sp == IR_SPACE_SHARED && mask == FULL_MASK) {
        /* One 4- or 8-byte element a lane straight from its register or immediate (pack_store's
         * bytes); the other shapes packed first. */
        const ir_operand *v = &x->in->src[1];
        uint64_t tmp[LANES];
        if (acc->vec == 1 && (acc->elem_bytes == 4 || acc->elem_bytes == 8) &&
            v->kind != IR_OPND_VEC && !shared_warp(w, acc, NULL, warp_src(w, x, 1, tmp)))
            return;
        pack_store(w, x, mask, acc, 1);
        if (shared_warp(w, acc, NULL, NULL))
            do_access(w, x, acc);
        return;
    }
    if ((sp == IR_SPACE_GLOBAL || sp == IR_SPACE_GENERIC) && mem_global_may_take(acc)) {
        /* As the shared space's: one 4- or 8-byte element a lane straight from its register
         * or immediate; the other shapes packed first. */
        const ir_operand *v = &x->in->src[1];
        uint64_t tmp[LANES];
        if (acc->vec == 1 && (acc->elem_bytes == 4 || acc->elem_bytes == 8) &&
            v->kind != IR_OPND_VEC && global_warp(w, x, acc, NULL, warp_src(w, x, 1, tmp)) != 1)
            return;
        pack_store(w, x, mask, acc, 1);
        if (global_warp(w, x, acc, NULL, NULL) == 1)
            do_access(w, x, acc);
        return;
    }
    pack_store(w, x, mask, acc, 1);
    if (sp == IR_SPACE_NONE)
        frame_param_access(w, x, mask, acc, 1);
    else
        do_access(w, x, acc);
}

void exec_h_atom(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    mem_access *acc = &w->run->acc;
    ir_space sp;
    prepare(w, x, mask, acc, MEM_OP_ATOMIC, &sp);
    acc->atom_op = in->sub;
    acc->atom_type = in->type;
    acc->atom_mods = in->mods;
    acc->atom_returns = in->op == IR_ATOM;
    acc->atom_fn = alu_atom_apply;
    uint64_t tb[LANES], tc[LANES];
    const uint64_t *b = warp_src(w, x, 1, tb);
    memcpy(acc->operand_b, b, sizeof acc->operand_b);
    if (in->sub == IR_ATOM_CAS) {
        const uint64_t *c = warp_src(w, x, 2, tc);
        memcpy(acc->operand_c, c, sizeof acc->operand_c);
    }
    int policy_index = in->op == IR_ATOM ? (in->sub == IR_ATOM_CAS ? 3 : 2) : 2;
    if (in->mem.has_policy)
        acc->policy = policy_operand(w, x, policy_index, mask);
    if (sp == IR_SPACE_NONE || sp == IR_SPACE_PARAM || sp == IR_SPACE_CONST ||
        sp == IR_SPACE_LOCAL) {
        warp_fault(w, x, (unsigned)__builtin_ctz(mask), "EXEC-MEM-003",
                   "atomic on %s memory is not allowed",
                   exec_mem_space_name((uint8_t)sp));
        return;
    }
    if (do_access(w, x, acc) == 0) {
        if (in->op == IR_ATOM)
            unpack_load(w, x, mask, acc);
        if (in->mem.fence)
            fence_access(w, x, mask);
    }
}

/* Cache control: prefetch, priority changes, discards... (the IR's mem.cctl says which). Per lane
 * it covers the bytes of its size operand when it has one (the address must be aligned to them),
 * else one byte: a probe of the line. */
void exec_h_prefetch(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    mem_access *acc = &w->run->acc;
    ir_space sp;
    prepare(w, x, mask, acc, MEM_OP_CACHE_CONTROL, &sp);
    acc->vec = 1;
    acc->elem_bytes = x->in->nsrc > 1 && x->in->src[1].kind == IR_OPND_IMM
                          ? (uint8_t)x->in->src[1].imm
                          : 1;
    do_access(w, x, acc);
}

void exec_h_fence(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    /* Accesses are performed in order, so ordering itself needs no work; the fence's side
     * effects (mem.fence: at GPU or system scope the SM's L1 forgets its global lines) are the
     * memory system's, charged to this instruction. */
    if (mask)
        fence_access(w, x, mask);
}

/* createpolicy (PTX ISA 9.1 §9.7.9.18): the 64-bit L2 policy descriptor, bit-exact with ptxas. */
void exec_h_createpolicy(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint64_t out[LANES], t0[LANES], t1[LANES], t2[LANES];
    if (in->sub == IR_POLICY_CVT) {
        const uint64_t *p = warp_src(w, x, 0, t0); /* the CUDA property is the descriptor */
        memcpy(out, p, sizeof out);
    } else if (in->sub == IR_POLICY_FRACTIONAL) {
        const uint64_t *f = in->src[0].kind ? warp_src(w, x, 0, t0) : NULL;
        for (unsigned l = 0; l < LANES; l++) {
            float frac = 1.0f;
            if (f) {
                uint32_t bits = (uint32_t)f[l];
                memcpy(&frac, &bits, 4);
            }
            out[l] = policy_encode_fractional(in->mem.l2_evict, in->mem.l2_secondary, frac);
        }
    } else {
        uint64_t base[LANES];
        lane_addresses(w, &in->src[0], IR_SPACE_GENERIC, 0, base);
        const uint64_t *p = warp_src(w, x, 1, t1), *tot = warp_src(w, x, 2, t2);
        for (unsigned l = 0; l < LANES; l++)
            out[l] = policy_encode_range(in->mem.l2_evict, in->mem.l2_secondary, base[l],
                                         (uint32_t)p[l], (uint32_t)tot[l]);
    }
    warp_write_dst(w, &in->dst[0], out, mask, 64);
}

void exec_h_cvta(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint64_t base = mem_window_base((ir_space)in->mem.space);
    uint64_t tmp[LANES], out[LANES];
    const uint64_t *a = warp_src(w, x, 0, tmp);
    int to = (in->mods & IR_MOD_TO) != 0;
    for (unsigned l = 0; l < LANES; l++) out[l] = to ? a[l] - base : a[l] + base;
    if (ir_type_bits((ir_type)in->type) == 32)
        for (unsigned l = 0; l < LANES; l++) out[l] &= 0xFFFFFFFFu;
    warp_write_dst(w, &in->dst[0], out, mask, 64);
}

/* For the image family (exec_image.c), which computes its own addresses: the access, the
 * unpacking of loaded data and the packing of stored data, as the ld/st/atom handlers do them. */
int exec_mem_access(exec_warp *w, const exec_xinsn *x, mem_access *acc)
{
    return do_access(w, x, acc);
}

ir_space exec_mem_addresses(exec_warp *w, const ir_operand *o, ir_space written, uint32_t aux,
                            uint64_t *addr)
{
    return lane_addresses(w, o, written, aux, addr);
}

void exec_mem_unpack(exec_warp *w, const exec_xinsn *x, uint32_t mask, const mem_access *acc)
{
    unpack_load(w, x, mask, acc);
}

void exec_mem_pack(exec_warp *w, const exec_xinsn *x, uint32_t mask, mem_access *acc,
                   int src_index)
{
    pack_store(w, x, mask, acc, src_index);
}

/* For exec_mem_same.c (exec_mem_internal.h). */
void exec_mem_fence(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    fence_access(w, x, mask);
}

void exec_mem_unpack_same(exec_warp *w, const exec_xinsn *x, uint32_t mask,
                          const mem_access *acc, unsigned lead)
{
    unpack_same(w, x, mask, acc, lead);
}

/* The SIMT core: the per-warp instruction loop, operand access, lane groups and reconvergence,
 * call frames and faults. Instruction semantics live in the other exec_*.c files and alu*.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "exec/exec_step.h"

/* ---- faults ---- */

void warp_fault(exec_warp *w, const exec_xinsn *x, uint32_t lane, const char *rule,
                const char *fmt, ...)
{
    exec_run_state *rs = w->run;
    w->state = WARP_FAULTED;
    if (rs->faulted)
        return;
    rs->faulted = 1;
    exec_fault *f = rs->fault;
    f->faulted = 1;
    f->rule = rule;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    const exec_cta *cta = w->cta;
    memcpy(f->ctaid, cta->ctaid, sizeof f->ctaid);
    const uint32_t *b = rs->launch->block;
    uint32_t t = w->warp_in_cta * w->run->warp_lanes + lane;
    f->tid[0] = t % b[0];
    f->tid[1] = (t / b[0]) % b[1];
    f->tid[2] = t / (b[0] * b[1]);
    if (x) {
        f->insn_id = x->in->id;
        f->ptx_line = x->in->line;
        f->ptx_col = x->in->col;
        f->loc_file = x->in->loc_file;
        f->loc_line = x->in->loc_line;
    }
}

void exec_oom(exec_run_state *rs, exec_fault *f, const char *rule, const char *fmt, ...)
{
    if (rs)
        rs->oom = 1;
    if (f->rule)
        return;
    f->rule = rule;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
}

/* ---- operands ---- */

/* Component `axis` (0 x, 1 y, 2 z) of the thread index of the 32 lanes whose linear thread
 * indices start at `base`, in a block of dimensions bd: the first lane's by division, the
 * others by counting on with carries (lane l's value is (base + l) % bd[0],
 * ((base + l) / bd[0]) % bd[1] or (base + l) / (bd[0] * bd[1]), without 32 divisions). */
static void tid_lanes(uint32_t base, const uint32_t *bd, uint32_t axis, uint64_t *out)
{
    uint32_t x = base % bd[0], y = (base / bd[0]) % bd[1], z = base / (bd[0] * bd[1]);
    if (bd[0] - x >= LANES) { /* the warp lies inside one row (blocks of x >= 32): no carry */
        if (axis == 0) {
            for (unsigned l = 0; l < LANES; l++) out[l] = x + l;
        } else {
            uint64_t v = axis == 1 ? y : z;
            for (unsigned l = 0; l < LANES; l++) out[l] = v;
        }
        return;
    }
    for (unsigned l = 0; l < LANES; l++) {
        out[l] = axis == 0 ? x : axis == 1 ? y : z;
        if (++x == bd[0]) {
            x = 0;
            if (++y == bd[1]) {
                y = 0;
                z++;
            }
        }
    }
}

static void sreg_lanes(exec_warp *w, uint32_t id, uint64_t *out)
{
    const exec_run_state *rs = w->run;
    const uint32_t *bd = rs->launch->block, *gd = rs->launch->grid;
    const exec_cta *cta = w->cta;
    uint32_t base = w->warp_in_cta * w->run->warp_lanes;
    uint64_t v = 0;
    switch (id) {
    case IR_SREG_TID_X: case IR_SREG_TID_Y: case IR_SREG_TID_Z:
        tid_lanes(base, bd, id - IR_SREG_TID_X, out);
        return;
    case IR_SREG_LANEID:
        for (unsigned l = 0; l < LANES; l++) out[l] = l;
        return;
    case IR_SREG_LANEMASK_EQ:
        for (unsigned l = 0; l < LANES; l++) out[l] = 1u << l;
        return;
    case IR_SREG_LANEMASK_LE:
        for (unsigned l = 0; l < LANES; l++) out[l] = (uint32_t)((2ull << l) - 1);
        return;
    case IR_SREG_LANEMASK_LT:
        for (unsigned l = 0; l < LANES; l++) out[l] = (uint32_t)((1ull << l) - 1);
        return;
    case IR_SREG_LANEMASK_GE:
        for (unsigned l = 0; l < LANES; l++) out[l] = (uint32_t)~((1ull << l) - 1);
        return;
    case IR_SREG_LANEMASK_GT:
        for (unsigned l = 0; l < LANES; l++) out[l] = (uint32_t)~((2ull << l) - 1);
        return;
    case IR_SREG_NTID_X: v = bd[0]; break;
    case IR_SREG_NTID_Y: v = bd[1]; break;
    case IR_SREG_NTID_Z: v = bd[2]; break;
    case IR_SREG_CTAID_X: v = cta->ctaid[0]; break;
    case IR_SREG_CTAID_Y: v = cta->ctaid[1]; break;
    case IR_SREG_CTAID_Z: v = cta->ctaid[2]; break;
    case IR_SREG_NCTAID_X: v = gd[0]; break;
    case IR_SREG_NCTAID_Y: v = gd[1]; break;
    case IR_SREG_NCTAID_Z: v = gd[2]; break;
    case IR_SREG_WARPID: v = w->local_slot % rs->warps_per_sm_slots; break;
    case IR_SREG_NWARPID: v = rs->warps_per_sm_slots; break;
    case IR_SREG_SMID: v = cta->sm; break;
    case IR_SREG_NSMID: v = rs->machine->sm_count; break;
    case IR_SREG_GRIDID: v = 1; break;
    case IR_SREG_WARPSZ: v = LANES; break;
    /* Time is simulated: the clocks count issued warp instructions, or the timing model's
     * cycles (exec_launch.clock), so runs are reproducible. */
    case IR_SREG_CLOCK: v = (uint32_t)*rs->clock; break;
    case IR_SREG_CLOCK_HI: v = (uint32_t)(*rs->clock >> 32); break;
    case IR_SREG_CLOCK64: v = *rs->clock; break;
    case IR_SREG_GLOBALTIMER: v = *rs->clock; break;
    case IR_SREG_GLOBALTIMER_LO: v = (uint32_t)*rs->clock; break;
    case IR_SREG_GLOBALTIMER_HI: v = (uint32_t)(*rs->clock >> 32); break;
    case IR_SREG_DYNAMIC_SMEM_SIZE: v = rs->launch->dynamic_shared_bytes; break;
    case IR_SREG_TOTAL_SMEM_SIZE:
    case IR_SREG_AGGR_SMEM_SIZE: v = cta->shared_bytes; break;
    /* The reserved region's halves: _0 names the first, _1 the second, where cooperative groups
     * keep their multi-warp scratch (docs/semantics.md, "Reserved shared memory"). */
    case IR_SREG_RESERVED_SMEM_BEGIN:
    case IR_SREG_RESERVED_SMEM_0: v = rs->reserved_smem_offset; break;
    case IR_SREG_RESERVED_SMEM_END: v = rs->reserved_smem_offset + rs->reserved_smem_bytes; break;
    case IR_SREG_RESERVED_SMEM_CAP: v = rs->reserved_smem_bytes; break;
    case IR_SREG_RESERVED_SMEM_1: v = rs->reserved_smem_offset + rs->reserved_smem_bytes / 2; break;
    /* %envreg1 (high word) and %envreg2 (low word): the grid-sync workspace of a cooperative
     * launch, 0 otherwise (docs/semantics.md, "Grid-wide sync"). */
    case IR_SREG_ENVREG0 + 1: v = (uint32_t)(rs->launch->grid_sync_base >> 32); break;
    case IR_SREG_ENVREG0 + 2: v = (uint32_t)rs->launch->grid_sync_base; break;
    default: v = 0; break; /* the other %envregN: the driver leaves them zero */
    }
    for (unsigned l = 0; l < LANES; l++) out[l] = v;
}

/* %tid's component `id` in the shape of sreg_linear, for the two layouts of a warp in a block
 * bd that need no carries: inside one row (lane l's x is x0 + l), or whole rows of 2^k
 * threads, k < 5, that do not wrap past the block's y extent (x is l & (2^k - 1), y is
 * y0 + (l >> k)). tid_lanes's values in both, for all 32 lanes. */
static inline int tid_linear(uint32_t base, const uint32_t *bd, uint32_t id, uint64_t *v,
                             uint32_t *lane_mask, uint32_t *shift)
{
    uint32_t x = base % bd[0], row = base / bd[0];
    if (bd[0] - x >= LANES) { /* tid_lanes's case without carries */
        *v = id == IR_SREG_TID_X ? x : id == IR_SREG_TID_Y ? row % bd[1] : row / bd[1];
        *lane_mask = id == IR_SREG_TID_X ? LANES - 1 : 0;
        return 1;
    }
    uint32_t k = (uint32_t)__builtin_ctz(bd[0] | LANES);
    if (x || bd[0] != 1u << k || row % bd[1] + (LANES >> k) > bd[1])
        return 0;
    *v = id == IR_SREG_TID_X ? 0 : id == IR_SREG_TID_Y ? row % bd[1] : row / bd[1];
    *lane_mask = id == IR_SREG_TID_Z ? 0 : id == IR_SREG_TID_X ? bd[0] - 1 : LANES - 1;
    *shift = id == IR_SREG_TID_Y ? k : 0;
    return 1;
}

/* The special registers whose 32 lanes are v + ((l & lane_mask) >> shift) in nearly every
 * warp: the sizes and CTA index (one value: lane_mask 0) and a thread index in tid_linear's
 * layouts. Returns 1 with *v, *lane_mask and *shift, or 0 for sreg_lanes. Values below 2^32,
 * so a 32-bit move keeps them. */
static inline int sreg_linear(const exec_warp *w, uint32_t id, uint64_t *v, uint32_t *lane_mask,
                              uint32_t *shift)
{
    const uint32_t *bd = w->run->launch->block;
    *lane_mask = 0;
    *shift = 0;
    switch (id) {
    case IR_SREG_TID_X: case IR_SREG_TID_Y: case IR_SREG_TID_Z:
        return tid_linear(w->warp_in_cta * w->run->warp_lanes, bd, id, v, lane_mask, shift);
    case IR_SREG_NTID_X: case IR_SREG_NTID_Y: case IR_SREG_NTID_Z:
        *v = bd[id - IR_SREG_NTID_X];
        return 1;
    case IR_SREG_CTAID_X: case IR_SREG_CTAID_Y: case IR_SREG_CTAID_Z:
        *v = w->cta->ctaid[id - IR_SREG_CTAID_X];
        return 1;
    case IR_SREG_NCTAID_X: case IR_SREG_NCTAID_Y: case IR_SREG_NCTAID_Z:
        *v = w->run->launch->grid[id - IR_SREG_NCTAID_X];
        return 1;
    default:
        return 0;
    }
}

/* dst[l] = v + ((l & lane_mask) >> shift) for the 32 lanes. */
static inline __attribute__((always_inline)) void fill_linear(uint64_t *dst, uint64_t v,
                                                               uint32_t lane_mask, uint32_t shift)
{
    /* apart, so that each is a loop of vector stores */
    if (!lane_mask)
        for (unsigned l = 0; l < LANES; l++) dst[l] = v;
    else if (lane_mask == LANES - 1 && !shift)
        for (unsigned l = 0; l < LANES; l++) dst[l] = v + l;
    else
        for (uint64_t l = 0; l < LANES; l++) dst[l] = v + ((l & lane_mask) >> shift);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__)
#define WARP_AVX2_VARIANTS 1
/* fill_linear four lanes a store on hosts with AVX2 (exec_program.host_avx2). */
__attribute__((target("avx2"))) static void fill_linear_avx2(uint64_t *dst, uint64_t v,
                                                             uint32_t lane_mask, uint32_t shift)
{
    fill_linear(dst, v, lane_mask, shift);
}
#endif

void exec_h_mov_sreg(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    uint32_t id = in->src[0].reg;
    uint64_t *dst = w->regs + (size_t)in->dst[0].reg * LANES;
    uint64_t keep = x->aux == 32 ? UINT64_C(0xFFFFFFFF) : ~UINT64_C(0);
    uint64_t first;
    uint32_t lane_mask, shift;
    if (mask == FULL_MASK && sreg_linear(w, id, &first, &lane_mask, &shift)) { /* %tid, %ctaid... */
#ifdef WARP_AVX2_VARIANTS
        if (w->run->prog->host_avx2) {
            fill_linear_avx2(dst, first, lane_mask, shift);
            return;
        }
#endif
        fill_linear(dst, first, lane_mask, shift);
        return;
    }
    if (mask == FULL_MASK) {
        sreg_lanes(w, id, dst);
        /* Only the 64-bit clocks have bits above 31 for a 32-bit move to drop (sreg_lanes). */
        if (keep != ~UINT64_C(0) && (id == IR_SREG_CLOCK64 || id == IR_SREG_GLOBALTIMER))
            for (unsigned l = 0; l < LANES; l++) dst[l] &= keep;
        return;
    }
    uint64_t v[LANES];
    sreg_lanes(w, id, v);
    for (unsigned l = 0; l < LANES; l++) dst[l] = ((mask >> l) & 1u) ? v[l] & keep : dst[l];
}

void exec_h_pred_logic(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    uint32_t a = w->preds[in->src[0].reg], b = 0, r;
    a = in->src[0].neg ? ~a : a;
    if (x->aux != IR_NOT) {
        b = w->preds[in->src[1].reg];
        b = in->src[1].neg ? ~b : b;
    }
    switch (x->aux) {
    case IR_AND: r = a & b; break;
    case IR_OR: r = a | b; break;
    case IR_XOR: r = a ^ b; break;
    default: r = ~a; break;
    }
    uint32_t *p = &w->preds[in->dst[0].reg];
    *p = (*p & ~mask) | (r & mask);
}

/* Function "addresses" for indirect calls: a recognisable range that no memory window uses. */

const uint64_t *warp_src_slow(exec_warp *w, const exec_xinsn *x, int i, uint64_t *tmp)
{
    const ir_operand *o = &x->in->src[i];
    switch (o->kind) {
    case IR_OPND_REG:
        return w->regs + (size_t)o->reg * LANES;
    case IR_OPND_IMM:
        return x->imm[i];
    case IR_OPND_PRED: {
        uint32_t m = w->preds[o->reg];
        if (o->neg)
            m = ~m;
        exec_mask_to_lanes(m, tmp);
        return tmp;
    }
    case IR_OPND_SREG:
        sreg_lanes(w, o->reg, tmp);
        return tmp;
    case IR_OPND_SYM: {
        ir_space sp;
        uint64_t a = warp_symbol_address(w, o->sym, &sp) + (uint64_t)o->imm;
        for (unsigned l = 0; l < LANES; l++) tmp[l] = a;
        return tmp;
    }
    case IR_OPND_FUNC:
        for (unsigned l = 0; l < LANES; l++) tmp[l] = FUNC_ADDRESS_BASE + (uint64_t)o->sym * 16;
        return tmp;
    default:
        memset(tmp, 0, LANES * sizeof *tmp);
        return tmp;
    }
}

void warp_write_dst_slow(exec_warp *w, const ir_operand *d, const uint64_t *val, uint32_t mask)
{
    if (d->kind == IR_OPND_PRED) {
        uint32_t m = exec_lanes_to_mask(val);
        w->preds[d->reg] = (w->preds[d->reg] & ~mask) | (m & mask);
    }
}

/* Address of a variable reference in its own space; *space says which. Body .param variables and
 * function parameters live in the frame's per-lane parameter area (reported as IR_SPACE_NONE so
 * that ld/st.param know to use the frame). */
uint64_t warp_symbol_address(exec_warp *w, uint32_t sym, ir_space *space)
{
    const exec_program *p = w->run->prog;
    const exec_frame *f = &w->frames[w->depth - 1];
    if (sym >= IR_SYM_FUNC_BASE) {
        uint32_t j = sym - IR_SYM_FUNC_BASE;
        const ir_var *v = &f->fn->ir->vars[j];
        *space = (ir_space)v->space;
        uint64_t off = f->fn->var_offsets[j];
        if (v->space == IR_SPACE_LOCAL)
            return f->local_base + off;
        if (v->space == IR_SPACE_PARAM)
            *space = IR_SPACE_NONE;
        return off;
    }
    if (sym >= IR_SYM_PARAM_BASE) {
        uint32_t i = sym - IR_SYM_PARAM_BASE;
        if (w->depth == 1 && f->fn->ir->is_entry && i < IR_SYM_RET_OFFSET) {
            *space = IR_SPACE_PARAM;
            return f->fn->ir->params[i].offset;
        }
        *space = IR_SPACE_NONE;
        if (i >= IR_SYM_RET_OFFSET)
            return f->fn->ret_offsets[i - IR_SYM_RET_OFFSET];
        return f->fn->param_offsets[i];
    }
    const ir_var *v = &p->module->vars[sym];
    *space = (ir_space)v->space;
    return p->module_var_addr[sym];
}

/* ---- lane groups ---- */

static void update_next_wait(exec_warp *w)
{
    const exec_frame *f = &w->frames[w->depth - 1];
    w->next_wait_pc = f->nwaiting ? f->waiting[0].pc : UINT32_MAX;
}

/* Adds a group to the waiting list of the top frame, merging with a group at the same pc. */
void warp_push_waiting(exec_warp *w, uint32_t pc, uint32_t mask)
{
    exec_frame *f = &w->frames[w->depth - 1];
    uint32_t i = 0;
    while (i < f->nwaiting && f->waiting[i].pc < pc) i++;
    if (i < f->nwaiting && f->waiting[i].pc == pc) {
        f->waiting[i].mask |= mask;
        return;
    }
    if (f->nwaiting == f->waiting_cap) {
        uint32_t cap = f->waiting_cap ? f->waiting_cap * 2 : 8;
        exec_group *g = realloc(f->waiting, cap * sizeof *g);
        if (!g) {
            exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004",
                     "out of host memory growing the list of diverged lane groups of a warp to "
                     "%u entries (%zu bytes)", cap, cap * sizeof *g);
            w->state = WARP_FAULTED;
            return;
        }
        f->waiting = g;
        f->waiting_cap = cap;
    }
    memmove(&f->waiting[i + 1], &f->waiting[i], (f->nwaiting - i) * sizeof *f->waiting);
    f->waiting[i].pc = pc;
    f->waiting[i].mask = mask;
    f->nwaiting++;
    update_next_wait(w);
}

static exec_group pop_waiting(exec_warp *w)
{
    exec_frame *f = &w->frames[w->depth - 1];
    exec_group g = f->waiting[0];
    f->nwaiting--;
    memmove(&f->waiting[0], &f->waiting[1], f->nwaiting * sizeof *f->waiting);
    update_next_wait(w);
    return g;
}

/* Keeps the invariant: the running group has the lowest pc; groups at the same pc are one
 * (exec_step.h). */
void warp_reconverge(exec_warp *w)
{
    exec_frame *f = &w->frames[w->depth - 1];
    while (f->nwaiting && f->waiting[0].pc <= w->pc) {
        if (f->waiting[0].pc == w->pc) {
            w->active |= pop_waiting(w).mask;
        } else {
            exec_group g = pop_waiting(w);
            warp_push_waiting(w, w->pc, w->active);
            w->pc = g.pc;
            w->active = g.mask;
        }
    }
}

void warp_set_pc(exec_warp *w, uint32_t pc)
{
    w->pc = pc;
    if (pc >= w->next_wait_pc)
        warp_reconverge(w);
}

static void frame_pop(exec_warp *w);

/* The running group has no lanes left: continue with the next group, return from the frame, wait
 * at a barrier or finish. */
void warp_next_group(exec_warp *w)
{
    for (;;) {
        exec_frame *f = &w->frames[w->depth - 1];
        if (f->nwaiting) {
            exec_group g = pop_waiting(w);
            w->pc = g.pc;
            w->active = g.mask & w->live;
            if (w->active)
                return;
            continue;
        }
        if (w->bar_mask) {
            exec_cta *cta = w->cta;
            w->state = WARP_BARRIER;
            cta->barriers[w->bar_id].arrived++;
            cta->bars_arrived |= 1u << w->bar_id;
            cta_barrier_check(cta, w->bar_id);
            return;
        }
        if (w->depth > 1) {
            frame_pop(w);
            if (w->active) {
                warp_set_pc(w, w->pc);
                return;
            }
            continue;
        }
        exec_async_drain(w); /* what its threads never waited for lands now */
        if (w->state == WARP_FAULTED)
            return;
        w->state = WARP_DONE;
        w->active = 0;
        exec_cta *cta = w->cta;
        cta->warps_done++;
        /* One fewer live warp may complete the barriers with arrivals (read afresh after each
         * check: a completion can wake warps that arrive at others). */
        for (uint32_t b = 0, m; (m = cta->bars_arrived >> b) != 0; b++)
            if (m & 1u)
                cta_barrier_check(cta, b);
        return;
    }
}

void warp_retire_lanes(exec_warp *w, uint32_t mask)
{
    w->live &= ~mask;
    w->active &= ~mask;
}

/* ---- frames ---- */

/* Makes *p hold at least `need` bytes; new storage starts zeroed so runs are deterministic. */
static int grow(void **p, uint32_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    void *q = calloc(1, need);
    if (!q)
        return -1;
    free(*p);
    *p = q;
    *cap = (uint32_t)need;
    return 0;
}

int warp_frame_push(exec_warp *w, const exec_func *fn)
{
    if (w->depth == w->frames_cap) {
        uint32_t cap = w->frames_cap ? w->frames_cap * 2 : 4;
        /* The entry frame lent by the CTA slot (exec_device.c) is copied out, not reallocated */
        exec_frame *fr = realloc(w->frames_lent ? NULL : w->frames, cap * sizeof *fr);
        if (!fr) {
            exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004",
                     "out of host memory growing a warp's call stack to %u frames (%zu bytes)", cap,
                     cap * sizeof *fr);
            return -1;
        }
        if (w->frames_lent)
            memcpy(fr, w->frames, w->frames_cap * sizeof *fr);
        memset(fr + w->frames_cap, 0, (cap - w->frames_cap) * sizeof *fr);
        w->frames = fr;
        w->frames_lent = 0;
        w->frames_cap = cap;
    }
    exec_frame *f = &w->frames[w->depth];
    size_t regs_bytes = (size_t)fn->reg_slots * LANES * sizeof(uint64_t);
    size_t preds_bytes = (size_t)fn->ir->npreds * sizeof(uint32_t);
    size_t params_bytes = (size_t)fn->param_area_bytes * LANES;
    if (grow((void **)&f->regs, &f->regs_cap, regs_bytes ? regs_bytes : 8) ||
        grow((void **)&f->preds, &f->preds_cap, preds_bytes ? preds_bytes : 4) ||
        grow((void **)&f->params, &f->params_cap, params_bytes ? params_bytes : 8)) {
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004",
                 "out of host memory for a call frame of %s: %zu bytes of registers, %zu of "
                 "predicates and %zu of parameters per warp", fn->ir->name, regs_bytes,
                 preds_bytes, params_bytes);
        return -1;
    }
    /* Registers and predicates keep what the slot's previous user left (PTX leaves them
     * undefined); parameter storage is cleared because calls read it as memory. */
    memset(f->params, 0, params_bytes);
    f->fn = fn;
    f->nwaiting = 0;
    f->returned = 0;
    f->local_base = w->local_sp;
    w->local_sp += fn->local_frame_bytes;
    w->depth++;
    w->regs = f->regs;
    w->preds = f->preds;
    w->code = fn->code;
    w->code_base = fn->code_base;
    w->fetch_offsets = fn->fetch_offsets;
    update_next_wait(w);
    return 0;
}

/* Copies the callee's return values into the caller's return operands for the returned lanes,
 * then makes the caller's frame current with those lanes running at the return pc. */
static void frame_pop(exec_warp *w)
{
    exec_frame *callee = &w->frames[w->depth - 1];
    exec_frame *caller = &w->frames[w->depth - 2];
    uint32_t lanes = callee->returned & w->live;
    const ir_insn *call = &caller->fn->insns[callee->call_pc];
    const ir_func *cf = callee->fn->ir;
    for (uint32_t r = 0; r < call->xrets_count && r < cf->nrets; r++) {
        const ir_operand *o = &caller->fn->xops[call->xrets_first + r];
        uint32_t bytes = (uint32_t)cf->rets[r].size_bytes;
        uint32_t src_off = callee->fn->ret_offsets[r];
        for (unsigned l = 0; l < LANES; l++) {
            if (!((lanes >> l) & 1u))
                continue;
            const uint8_t *src = callee->params + (size_t)l * callee->fn->param_area_bytes + src_off;
            if (o->kind == IR_OPND_SYM) {
                uint32_t j = o->sym - IR_SYM_FUNC_BASE;
                uint8_t *dst = caller->params + (size_t)l * caller->fn->param_area_bytes +
                               caller->fn->var_offsets[j];
                memcpy(dst, src, bytes);
            } else if (o->kind == IR_OPND_REG) {
                uint64_t v = 0;
                memcpy(&v, src, bytes < 8 ? bytes : 8);
                caller->regs[(size_t)o->reg * LANES + l] = v;
            }
        }
    }
    w->local_sp = callee->local_base;
    w->depth--;
    w->regs = caller->regs;
    w->preds = caller->preds;
    w->code = caller->fn->code;
    w->code_base = caller->fn->code_base;
    w->fetch_offsets = caller->fn->fetch_offsets;
    w->pc = callee->ret_pc;
    w->active = lanes;
    update_next_wait(w);
}

/* ---- the instruction loop ---- */

static inline __attribute__((always_inline)) void run_loop(exec_warp *w, uint32_t quantum,
                                                            int general, int hazards)
{
    while (quantum-- && w->state == WARP_READY)
        if (step_one(w, general, hazards, NULL, NULL, 0))
            return;
}

/* The instruction-budget fault of step_one, for run_16's turns. */
static void budget_fault(exec_warp *w)
{
    warp_fault(w, &w->code[w->pc], (uint32_t)__builtin_ctz(w->active | 0x80000000u),
               "EXEC-LIMIT-001",
               "instruction limit of %llu warp instructions reached (runaway kernel?); "
               "raise it with \"max_instructions\" in the launch file or --max-instructions N",
               (unsigned long long)w->run->launch->max_warp_instructions);
}

/* A stretch of turn_16: up to `len` instructions from x on, none with XL_BREAK bits and none at
 * or past next_wait_pc, so that each runs in the warp's active lanes (`active`, which they do not
 * change), falls through, and leaves the pc to the loop. What step_one does per instruction is
 * here only what differs between them: the fetch-line test, the warp's and the instruction's
 * counts, the handler and the pc; the lane counts are the turn's (len times the active lanes).
 * The stretch ends early when an instruction faults or blocks the warp (exec_warp.state) or, in
 * a parallel turn (`parallel`), parks it: such an instruction is counted back and `*stop` set.
 * Returns the instructions executed. */
static inline __attribute__((always_inline)) uint32_t stretch_16(exec_warp *w,
                                                                 const exec_xinsn *x,
                                                                 uint32_t len, uint32_t active,
                                                                 int parallel, int *stop)
{
    exec_run_state *rs = w->run;
    exec_stats *st = rs->stats;
    uint64_t *counts = rs->insn_counts;
    uint32_t k = 0;
    do {
        if (x->fetch_line != w->fetch_line) {
            w->fetch_line = x->fetch_line;
            memsys_ifetch(rs->ms, w->cta->sm, x->fetch_line << 7, x->id);
        }
        st->warp_instructions++;
        counts[x->id]++;
        x->fn(w, x, active);
        if (parallel && w->parked) { /* it never happened */
            w->parked = 0;
            st->warp_instructions--;
            counts[x->id]--;
            *stop = 1;
            return k;
        }
        w->pc++;
        k++;
        if (w->state != WARP_READY) {
            *stop = 1;
            return k;
        }
        x++;
    } while (k < len);
    return k;
}

/* The lanes an instruction with XL_NOMASK or XL_GUARD runs in (step_one's mask). */
static inline uint32_t loop_mask(const exec_warp *w, const exec_xinsn *x, uint32_t active)
{
    uint32_t mask = (x->loop & XL_NOMASK) ? w->live : active;
    if (x->loop & XL_GUARD) {
        uint32_t g = w->preds[x->guard];
        mask &= (x->loop & XL_GUARD_NEG) ? ~g : g;
    }
    return mask;
}

/* One instruction of turn_16 that a stretch does not take (it has XL_BREAK bits or is at
 * next_wait_pc): step_one's steps, with the lane counts added to the turn's. Returns 0 when the
 * turn may go on, 1 when it must stop before the instruction (serial in a parallel turn) and 2
 * when the instruction parked (taken back). */
static inline __attribute__((always_inline)) int single_16(exec_warp *w, const exec_xinsn *x,
                                                           int parallel, uint64_t *threads,
                                                           uint64_t *pred_on)
{
    exec_run_state *rs = w->run;
    exec_stats *st = rs->stats;
    uint32_t loop = x->loop;
    if (parallel && (loop & XL_SERIAL))
        return 1;
    uint32_t active = w->active;
    uint32_t mask = (loop & (XL_NOMASK | XL_GUARD)) ? loop_mask(w, x, active) : active;
    if (x->fetch_line != w->fetch_line) {
        w->fetch_line = x->fetch_line;
        memsys_ifetch(rs->ms, w->cta->sm, x->fetch_line << 7, x->id);
    }
    st->warp_instructions++;
    rs->insn_counts[x->id]++;
    x->fn(w, x, mask);
    if (parallel && (loop & XL_MAY_PARK) && w->parked) { /* it never happened */
        w->parked = 0;
        st->warp_instructions--;
        rs->insn_counts[x->id]--;
        return 2;
    }
    if ((active & mask) == FULL_MASK) { /* both full (a nomask one's mask holds active) */
        *threads += LANES;
        *pred_on += LANES;
    } else {
        *threads += exec_lane_count(active);
        *pred_on += exec_lane_count(mask);
    }
    if (!(loop & XL_CTRL)) {
        w->pc++;
        if (w->pc >= w->next_wait_pc)
            warp_reconverge(w);
    }
    return 0;
}

/* Separate functions, so that the compiler keeps one loop per layout. run_16, the functional
 * loop of 16-byte layouts without glue (every instruction counted), is step_one's steps with
 * what a turn does not change kept in locals: the budget is taken once for the turn (the turn
 * stops where the budget runs out, and the warp faults there if it could go on, as step_one's
 * check would at that instruction), and the two lane counts are summed in locals and added to
 * the statistics when the turn ends (nothing reads them during a launch). warp_instructions is
 * counted in memory at every instruction: %clock reads it in functional mode. Instructions
 * without XL_BREAK bits run in stretches (stretch_16: exec_xinsn.run says how far), the others
 * one at a time (single_16). With `parallel` (a constant: turn_16 is made twice) the turn also
 * stops where must_park says. Returns the instructions executed. */
static inline __attribute__((always_inline)) uint32_t turn_16(exec_warp *w, uint32_t quantum,
                                                              int parallel)
{
    exec_run_state *rs = w->run;
    exec_stats *st = rs->stats;
    uint32_t n = rs->budget < quantum ? (uint32_t)rs->budget : quantum, done = 0;
    uint64_t threads = 0, pred_on = 0;
    while (done < n && w->state == WARP_READY) {
        uint32_t pc = w->pc;
        const exec_xinsn *x = &w->code[pc];
        uint32_t len = x->run;
        if (len > w->next_wait_pc - pc) /* pc < next_wait_pc here (reconverge) */
            len = w->next_wait_pc - pc;
        if (len) {
            int stop = 0;
            uint32_t active = w->active, k;
            k = stretch_16(w, x, len < n - done ? len : n - done, active, parallel, &stop);
            done += k;
            uint64_t lanes = (uint64_t)k * (active == FULL_MASK ? LANES : exec_lane_count(active));
            threads += lanes;
            pred_on += lanes;
            if (w->pc >= w->next_wait_pc)
                warp_reconverge(w);
            if (stop)
                break;
            continue;
        }
        int rc = single_16(w, x, parallel, &threads, &pred_on);
        if (rc)
            break;
        done++;
    }
    rs->budget -= done;
    st->thread_instructions += threads;
    st->thread_instructions_pred_on += pred_on;
    if (done == n && n < quantum && w->state == WARP_READY)
        budget_fault(w);
    return done;
}

static __attribute__((noinline)) void run_16(exec_warp *w, uint32_t quantum)
{
    turn_16(w, quantum, 0);
}

static __attribute__((noinline)) uint32_t run_16_parallel(exec_warp *w, uint32_t quantum)
{
    return turn_16(w, quantum, 1);
}

/* The parallel turn of the other layouts: step_one's steps up to a serial instruction. A load
 * that parks (exec_warp.parked) is taken back: its counts are restored and it runs again in the
 * serial phase. */
static __attribute__((noinline)) uint32_t run_general_parallel(exec_warp *w, uint32_t quantum,
                                                               int hazards)
{
    exec_run_state *rs = w->run;
    exec_stats *st = rs->stats;
    uint32_t done = 0;
    while (done < quantum && w->state == WARP_READY) {
        const exec_xinsn *x = &w->code[w->pc];
        /* Under --strict-hazards a load that might park runs serially: its issue would apply
         * the scoreboards twice. */
        if (x->serial || (hazards && x->may_park))
            break;
        /* What step_one counts, to take back if the instruction parks. */
        uint64_t warps = st->warp_instructions, threads = st->thread_instructions;
        uint64_t pred_on = st->thread_instructions_pred_on, count = rs->insn_counts[x->in->id];
        int stop = hazards ? step_one(w, 1, 1, NULL, NULL, 0) : step_one(w, 1, 0, NULL, NULL, 0);
        if (x->may_park && w->parked) {
            w->parked = 0;
            st->warp_instructions = warps;
            st->thread_instructions = threads;
            st->thread_instructions_pred_on = pred_on;
            rs->insn_counts[x->in->id] = count;
            break;
        }
        done++;
        if (stop)
            break;
    }
    return done;
}

static __attribute__((noinline)) void run_general(exec_warp *w, uint32_t quantum)
{
    run_loop(w, quantum, 1, 0);
}

static __attribute__((noinline)) void run_hazards(exec_warp *w, uint32_t quantum)
{
    run_loop(w, quantum, 1, 1);
}

uint32_t warp_run_parallel(exec_warp *w, uint32_t quantum)
{
    const exec_program *p = w->run->prog;
    const exec_insn_layout *k = &p->layout;
    if (k->insn_bytes == 16 && !k->ctrl_group && !p->has_glue && !w->run->strict_hazards)
        return run_16_parallel(w, quantum);
    return run_general_parallel(w, quantum, w->run->strict_hazards);
}

void warp_run(exec_warp *w, uint32_t quantum)
{
    const exec_program *p = w->run->prog;
    const exec_insn_layout *k = &p->layout;
    if (w->run->strict_hazards)
        run_hazards(w, quantum);
    else if (k->insn_bytes == 16 && !k->ctrl_group && !p->has_glue)
        run_16(w, quantum);
    else
        run_general(w, quantum);
}

/* ---- stepping (exec.h) ---- */

uint8_t exec_step_layout_of(const exec_program *p, int strict_hazards)
{
    const exec_insn_layout *k = &p->layout;
    if (strict_hazards)
        return EXEC_LAYOUT_HAZARDS;
    return k->insn_bytes == 16 && !k->ctrl_group && !p->has_glue ? EXEC_LAYOUT_16
                                                                 : EXEC_LAYOUT_GENERAL;
}

/* exec_step of a warp that issues nothing: not READY, or the launch has stopped. Out of line,
 * so that the issuing path keeps a small frame. */
__attribute__((noinline)) uint32_t exec_step_none(exec_warp *w, exec_step_info *info)
{
    exec_run_state *rs = w->run;
    uint8_t state = w->state;
    info->insn = NULL;
    info->next = state == WARP_READY || state == WARP_YIELD ? w->code[w->pc].in : NULL;
    return (rs->faulted || rs->oom ? EXEC_STEP_STOPPED : 0u) | state;
}

uint32_t exec_step(exec_warp *w, exec_step_info *info)
{
    /* The layout's test was made once at open (exec_run_state.step_layout). */
    return exec_step_in(w, info, w->run->step_layout, 0);
}

exec_warp_status exec_warp_status_of(const exec_warp *w)
{
    return (exec_warp_status)w->state;
}

const ir_insn *exec_warp_next(const exec_warp *w)
{
    return w->state == WARP_READY || w->state == WARP_YIELD ? w->code[w->pc].in : NULL;
}

const ir_ctrl *exec_warp_next_ctrl(const exec_warp *w)
{
    if (w->state != WARP_READY && w->state != WARP_YIELD)
        return NULL;
    const ir_func *fn = w->frames[w->depth - 1].fn->ir;
    if (!fn->ctrl)
        return NULL;
    /* Glue has no controls of its own: the instruction it belongs to, the first one that is not
     * glue from here on (glue before it or after the previous one), is the one the next issue
     * reaches, and its controls decide when that issue may happen (docs/timing.md). */
    uint32_t pc = w->pc;
    while (pc + 1 < fn->ninsns && fn->insns[pc].glue)
        pc++;
    return &fn->ctrl[pc];
}

void exec_warp_prefetch(const exec_warp *w)
{
    exec_warp_prefetch_in(w);
}

void exec_warp_resume(exec_warp *w)
{
    if (w->state == WARP_YIELD)
        w->state = WARP_READY;
}

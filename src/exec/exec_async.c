/* Asynchronous copies: cp.async, cp.async.commit_group, cp.async.wait_group and wait_all
 * (PTX ISA 9.1 §9.7.9.25; docs/semantics.md, "Asynchronous copies").
 *
 * A cp.async reads its global bytes when it is issued, through the memory hierarchy like a load
 * with the instruction's cache attributes (.ca allocates in L1, .cg reads at L2 only, prefetch
 * size, L2 policy), and keeps them per lane in the warp's list of pending copies. Nothing
 * reaches shared memory then: a copy lands when a wait of its thread retires the group it
 * belongs to, as one shared-memory store of the lanes landing together, counted (requests,
 * wavefronts, bank conflicts) against the cp.async that issued it. A thread that reads the
 * destination before its wait therefore reads the old bytes, as a program without the wait may
 * on hardware. Copies land in issue order, so a later copy to the same bytes wins.
 *
 * Groups are per thread: each lane counts the groups it has committed, and a copy belongs to
 * the group its lane had open when it was issued (the count at that time). wait_group N lands,
 * for each waiting lane, every copy of the groups it committed before its N newest; copies not
 * yet committed stay pending. wait_all commits the open group, then waits for all of them.
 * What a thread never waits for lands when its warp finishes.
 *
 * cp.async.mbarrier.arrive makes an mbarrier track the thread's earlier copies: here they land
 * at once (all of them, committed or not), and then the arrive-on is made through the helpers of
 * exec_mbarrier.h. Without .noinc the barrier's pending count is raised by one first, so the
 * arrive-on changes nothing net; with .noinc it is one of the arrivals the barrier expects. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "exec/exec_mbarrier.h"

/* Pending copies one warp may hold: a limit of the simulator (EXEC-ASYNC-003). */
enum { ASYNC_MAX_COPIES = 1024, ASYNC_MAX_BYTES = 16 };

/* One warp-level cp.async whose bytes have not all landed. */
typedef struct async_copy {
    const exec_xinsn *x;               /* the cp.async: counters and messages are its */
    uint32_t lanes;                    /* lanes whose copy is still pending */
    uint8_t bytes;                     /* copy size: 4, 8 or 16 */
    uint32_t group[LANES];             /* per lane: the group (commit count) it belongs to */
    uint32_t dst[LANES];               /* per lane: shared window offset */
    uint8_t data[LANES][ASYNC_MAX_BYTES]; /* per lane: the bytes read, zero-filled */
} async_copy;

struct exec_async {
    async_copy *copies;                /* issue order */
    uint32_t count, cap;
    uint32_t committed[LANES];         /* per lane: groups committed so far */
};

/* The attributes of the landing store: a plain shared-memory store. */
static const ir_mem_attrs landing_attrs = {.space = IR_SPACE_SHARED, .vec = 1};

void exec_async_reset(exec_warp *w)
{
    if (!w->async)
        return;
    w->async->count = 0;
    memset(w->async->committed, 0, sizeof w->async->committed);
}

void exec_async_free(exec_warp *w)
{
    if (w->async)
        free(w->async->copies);
    free(w->async);
    w->async = NULL;
}

/* x->aux of the async family: the exec_mem_decode_aux flags of the destination address
 * (written in .shared) in bits 0..7 and of the source address (.global) in bits 8..15. */
uint32_t exec_async_decode_aux(const ir_machine *k, const ir_func *fn, const ir_insn *in)
{
    if (in->op != IR_CP_ASYNC)
        return 0;
    ir_insn one = *in;
    one.op = IR_CP_ASYNC; /* any op but ld: no MEM_AUX_SAME */
    one.mem.space = IR_SPACE_SHARED;
    uint32_t dst = exec_mem_decode_aux(k, fn, &one);
    one.src[0] = in->src[1];
    one.mem.space = IR_SPACE_GLOBAL;
    return dst | exec_mem_decode_aux(k, fn, &one) << 8;
}

/* A new entry at the end of the list, or NULL after a fault or when host memory ran out. */
static async_copy *push_copy(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    exec_async *as = w->async;
    if (!as && !(as = w->async = calloc(1, sizeof *as))) {
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004", "out of host memory for the pending "
                 "asynchronous copies of a warp (%zu bytes)", sizeof *as);
        return NULL;
    }
    if (as->count == ASYNC_MAX_COPIES) {
        warp_fault(w, x, (uint32_t)__builtin_ctz(mask), "EXEC-ASYNC-003", "more than %u "
                   "cp.async instructions of one warp are pending: wait for some of them "
                   "(cp.async.wait_group) before issuing more", ASYNC_MAX_COPIES);
        return NULL;
    }
    if (as->count == as->cap) {
        uint32_t cap = as->cap ? as->cap * 2 : 8;
        async_copy *n = realloc(as->copies, cap * sizeof *n);
        if (!n) {
            exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004", "out of host memory for %u "
                     "pending asynchronous copies of a warp", cap);
            return NULL;
        }
        as->copies = n;
        as->cap = cap;
    }
    async_copy *c = &as->copies[as->count];
    memset(c, 0, sizeof *c);
    c->x = x;
    c->lanes = mask;
    c->bytes = x->in->mem.elem_bytes;
    memcpy(c->group, as->committed, sizeof c->group);
    return c;
}

/* Per lane, the bytes read from the source: the copy size, the src-size operand (a value above
 * the copy size faults, EXEC-ASYNC-001) or 0 where the ignore-src predicate holds. Returns -1
 * after a fault. */
static int source_sizes(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint32_t *size)
{
    const ir_operand *o = &x->in->src[2];
    unsigned bytes = x->in->mem.elem_bytes;
    for (unsigned l = 0; l < LANES; l++) size[l] = bytes;
    if (o->kind == IR_OPND_PRED) {
        uint32_t ignore = w->preds[o->reg] ^ (o->neg ? FULL_MASK : 0);
        for (unsigned l = 0; l < LANES; l++)
            if ((ignore >> l) & 1u)
                size[l] = 0;
    } else if (o->kind == IR_OPND_REG || o->kind == IR_OPND_IMM) {
        uint64_t tmp[LANES];
        const uint64_t *v = warp_src(w, x, 2, tmp);
        for (unsigned l = 0; l < LANES; l++) {
            if (!((mask >> l) & 1u))
                continue;
            if ((uint32_t)v[l] > bytes) {
                warp_fault(w, x, l, "EXEC-ASYNC-001", "cp.async source size %u is larger than "
                           "its copy size %u", (uint32_t)v[l], bytes);
                return -1;
            }
            size[l] = (uint32_t)v[l];
        }
    }
    return 0;
}

/* The shared destination of each lane in `mask`: inside the CTA's shared memory and aligned to
 * the copy size (EXEC-ASYNC-002 otherwise). Returns -1 after a fault. */
static int destinations(exec_warp *w, const exec_xinsn *x, uint32_t mask, async_copy *c)
{
    uint64_t addr[LANES];
    ir_space sp = exec_mem_addresses(w, &x->in->src[0], IR_SPACE_SHARED, x->aux & 0xFFu, addr);
    (void)sp; /* written .shared: a variable base is a shared variable (the front-end checks) */
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        if (addr[l] % c->bytes || addr[l] + c->bytes > w->mctx.shared_bytes) {
            warp_fault(w, x, l, "EXEC-ASYNC-002", "cp.async destination 0x%llx of %u bytes is %s "
                       "the %u-byte shared memory of the CTA", (unsigned long long)addr[l],
                       c->bytes, addr[l] % c->bytes ? "not aligned to its size in"
                                                    : "outside", w->mctx.shared_bytes);
            return -1;
        }
        c->dst[l] = (uint32_t)addr[l];
    }
    return 0;
}

/* Reads each lane's source bytes into c->data. A lane reading s bytes (s below the copy size:
 * zero fill) reads them as the power-of-two pieces of s, each aligned: one access per piece
 * size present in some lane, so the usual sizes (all or nothing) are one access. */
static int read_sources(exec_warp *w, const exec_xinsn *x, uint32_t mask, const uint32_t *size,
                        async_copy *c)
{
    uint64_t base[LANES];
    ir_space sp = exec_mem_addresses(w, &x->in->src[1], IR_SPACE_GLOBAL, x->aux >> 8, base);
    mem_access *acc = &w->run->acc;
    for (unsigned piece = ASYNC_MAX_BYTES; piece; piece >>= 1) {
        uint32_t lanes = 0;
        for (unsigned l = 0; l < LANES; l++)
            if (((mask >> l) & 1u) && (size[l] & piece))
                lanes |= 1u << l;
        if (!lanes)
            continue;
        acc->op = MEM_OP_LOAD;
        acc->space = (uint8_t)sp;
        acc->elem_bytes = (uint8_t)piece;
        acc->vec = 1;
        acc->active = lanes;
        acc->insn_id = x->in->id;
        acc->time = 0;
        acc->attrs = &x->in->mem;
        acc->window_errors = w->run->prog->module->machine.window_errors;
        acc->policy = 0;
        if (x->in->mem.has_policy) {
            uint64_t tmp[LANES];
            acc->policy = warp_src(w, x, 3, tmp)[__builtin_ctz(lanes)];
        }
        for (unsigned l = 0; l < LANES; l++) /* the piece after the larger ones */
            acc->addr[l] = base[l] + (size[l] & ~(2u * piece - 1u));
        if (exec_mem_access(w, x, acc))
            return -1;
        for (unsigned l = 0; l < LANES; l++)
            if ((lanes >> l) & 1u)
                memcpy(c->data[l] + (size[l] & ~(2u * piece - 1u)), acc->data[l], piece);
    }
    return 0;
}

static void issue(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    uint32_t size[LANES];
    async_copy *c = push_copy(w, x, mask);
    if (!c || source_sizes(w, x, mask, size) || destinations(w, x, mask, c) ||
        read_sources(w, x, mask, size, c))
        return;
    w->async->count++;
}

/* Lands, in issue order, the pending copies of the lanes in `mask` whose group is below
 * limit[lane], each copy as one shared store of its landing lanes; drops the copies no lane
 * waits for any more. */
static void land(exec_warp *w, uint32_t mask, const uint32_t *limit)
{
    exec_async *as = w->async;
    mem_access *acc = &w->run->acc;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < as->count; i++) {
        async_copy *c = &as->copies[i];
        uint32_t lanes = 0;
        for (unsigned l = 0; l < LANES; l++)
            if (((c->lanes & mask) >> l & 1u) && c->group[l] < limit[l])
                lanes |= 1u << l;
        if (lanes && w->state != WARP_FAULTED) {
            acc->op = MEM_OP_STORE;
            acc->space = IR_SPACE_SHARED;
            acc->elem_bytes = c->bytes;
            acc->vec = 1;
            acc->active = lanes;
            acc->insn_id = c->x->in->id;
            acc->time = 0;
            acc->attrs = &landing_attrs;
            acc->window_errors = w->run->prog->module->machine.window_errors;
            acc->policy = 0;
            for (unsigned l = 0; l < LANES; l++) {
                acc->addr[l] = c->dst[l];
                memcpy(acc->data[l], c->data[l], c->bytes);
            }
            exec_mem_access(w, c->x, acc);
            c->lanes &= ~lanes;
        }
        if (c->lanes && kept != i)
            as->copies[kept] = *c;
        kept += c->lanes != 0;
    }
    as->count = kept;
}

static void wait_groups(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    exec_async *as = w->async;
    if (!as || !as->count)
        return; /* no copy pending: a commit before the first copy shifts no group */
    const ir_operand *n = &x->in->src[0];
    uint32_t keep = n->kind == IR_OPND_IMM ? (uint32_t)n->imm : 0, limit[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        if (n->kind != IR_OPND_IMM && ((mask >> l) & 1u))
            as->committed[l]++; /* wait_all commits the open group first */
        limit[l] = as->committed[l] > keep ? as->committed[l] - keep : 0;
    }
    land(w, mask, limit);
}

/* cp.async.mbarrier.arrive{.noinc} for the lanes in `mask`: the barrier of each lane (faults
 * EXEC-MBAR-*), its pending count raised without .noinc, the lanes' copies landed, then one
 * arrive-on per lane in lane order. */
static void mbarrier_arrive(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t off[LANES], limit[LANES];
    if (exec_mbarrier_offsets(w, x, &in->src[0], (ir_space)in->mem.space, mask, off))
        return;
    for (unsigned l = 0; l < LANES; l++)
        if (((mask >> l) & 1u) && !(in->mods & IR_MOD_NOINC) &&
            exec_mbarrier_pending_add(w, x, l, off[l], 1))
            return;
    if (w->async && w->async->count) {
        for (unsigned l = 0; l < LANES; l++) limit[l] = UINT32_MAX;
        land(w, mask, limit);
        if (w->state == WARP_FAULTED)
            return;
    }
    for (unsigned l = 0; l < LANES; l++)
        if (((mask >> l) & 1u) && exec_mbarrier_arrive(w, x, l, off[l], 1))
            return;
}

void exec_h_async(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    switch (x->in->op) {
    case IR_CP_ASYNC:
        issue(w, x, mask);
        break;
    case IR_CP_ASYNC_MBAR_ARRIVE:
        mbarrier_arrive(w, x, mask);
        break;
    case IR_CP_ASYNC_COMMIT:
        if (w->async)
            for (unsigned l = 0; l < LANES; l++) w->async->committed[l] += (mask >> l) & 1u;
        break;
    default:
        wait_groups(w, x, mask);
        break;
    }
}

void exec_async_drain(exec_warp *w)
{
    if (!w->async || !w->async->count)
        return;
    uint32_t limit[LANES];
    for (unsigned l = 0; l < LANES; l++) limit[l] = UINT32_MAX;
    land(w, FULL_MASK, limit);
}

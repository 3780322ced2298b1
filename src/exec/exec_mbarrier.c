/* The mbarrier family (PTX ISA 9.1 "mbarrier"; docs/semantics.md, "mbarrier"): barrier objects
 * of 64 bits in a CTA's shared memory, changed only through the state machine of
 * mbarrier_word.h.
 *
 * The threads of a warp update a barrier one after the other in lane order, each as one
 * mbarrier operation of the PTX model. For the statistics each instruction is one shared-memory
 * request of 8 bytes per lane in which the lanes naming one barrier count once, as the hardware
 * combines a warp's arrivals on one barrier (count_access). pending_count only decodes its
 * token.
 *
 * A wait whose phase is still open answers false at once and ends the warp's scheduling round
 * (WARP_YIELD), so that a warp spinning on it lets the others run. A try_wait of a warp whose
 * lanes all run together (no diverged group, no call frame, no lane at a bar) instead puts the
 * warp to sleep (WARP_MBARRIER) until the phases its lanes wait for complete; it then answers
 * true. When no warp can run, a sleeping warp is reported as a deadlock (EXEC-MBAR-008). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_mbarrier.h"
#include "exec/mbarrier_word.h"

/* Beyond mbar_status: an arrive.noComplete that would have completed the phase; and the update
 * exec_mbarrier_pending_add makes (no IR_MBAR_* is 0). */
enum { MBAR_ERR_NOCOMPLETE = MBAR_ERR_TX_RANGE + 1 };
enum { SUB_ADD_PENDING = 0 };

static int is_wait(unsigned sub)
{
    return sub == IR_MBAR_TEST_WAIT || sub == IR_MBAR_TEST_WAIT_PARITY ||
           sub == IR_MBAR_TRY_WAIT || sub == IR_MBAR_TRY_WAIT_PARITY;
}

static int is_parity(unsigned sub)
{
    return sub == IR_MBAR_TEST_WAIT_PARITY || sub == IR_MBAR_TRY_WAIT_PARITY;
}

/* One update of one lane: `count` arrivals (or init's expected count), `bytes` of expect_tx or
 * complete_tx (an arrive's .expect_tx; 0 without it). Returns an mbar_status or
 * MBAR_ERR_NOCOMPLETE; on an error the word is as it was. */
static int apply(unsigned sub, uint64_t *word, uint64_t count, uint64_t bytes, uint64_t *token)
{
    uint32_t n = count > MBAR_COUNT_MAX ? 0 : (uint32_t)count; /* 0: out of range */
    uint32_t b = bytes > MBAR_COUNT_MAX ? MBAR_COUNT_MAX + 1 : (uint32_t)bytes;
    uint64_t t = *word;
    int st;
    switch (sub) {
    case IR_MBAR_INIT:
        return mbar_init(n, word);
    case IR_MBAR_INVAL:
        if (!mbar_is_valid(t))
            return MBAR_ERR_UNINIT;
        *word = 0;
        return MBAR_OK;
    case IR_MBAR_EXPECT_TX:
        return mbar_expect_tx(word, b);
    case IR_MBAR_COMPLETE_TX:
        return mbar_complete_tx(word, b);
    case SUB_ADD_PENDING:
        return mbar_add_pending(word, n);
    default: /* the arrivals: .expect_tx's bytes first, then the arrival, as one update */
        st = mbar_expect_tx(&t, b);
        if (st == MBAR_OK)
            st = mbar_arrive(&t, n, sub == IR_MBAR_ARRIVE_DROP ||
                                        sub == IR_MBAR_ARRIVE_DROP_NOCOMPLETE, token);
        if (st == MBAR_COMPLETED &&
            (sub == IR_MBAR_ARRIVE_NOCOMPLETE || sub == IR_MBAR_ARRIVE_DROP_NOCOMPLETE))
            st = MBAR_ERR_NOCOMPLETE;
        if (st == MBAR_OK || st == MBAR_COMPLETED)
            *word = t;
        return st;
    }
}

static const char *op_name(unsigned sub)
{
    const char *n = sub == SUB_ADD_PENDING ? "cp.async.mbarrier.arrive"
                                           : ir_sub_name(IR_SUBS_MBAR, sub);
    return n ? n : "?";
}

/* Faults the warp for update status st of lane `lane` on the word `old` at `offset`. */
static void update_fault(exec_warp *w, const exec_xinsn *x, uint32_t lane, unsigned sub, int st,
                         uint32_t offset, uint64_t old, uint64_t count, uint64_t bytes)
{
    const char *op = op_name(sub);
    switch (st) {
    case MBAR_ERR_UNINIT:
        warp_fault(w, x, lane, "EXEC-MBAR-001", "mbarrier %s on shared offset 0x%x, which holds "
                   "no initialized mbarrier", op, offset);
        break;
    case MBAR_ERR_COUNT:
        warp_fault(w, x, lane, "EXEC-MBAR-004", "mbarrier %s with a count of %llu at shared "
                   "offset 0x%x: counts are 1..%u%s", op, (unsigned long long)count, offset,
                   MBAR_COUNT_MAX, sub == SUB_ADD_PENDING ? ", pending arrivals included" : "");
        break;
    case MBAR_ERR_UNDERFLOW:
        warp_fault(w, x, lane, "EXEC-MBAR-005", "mbarrier %s of %llu arrivals at shared offset "
                   "0x%x, whose phase has %u pending (and %u expected)", op,
                   (unsigned long long)count, offset, mbar_pending(old), mbar_expected(old));
        break;
    case MBAR_ERR_TX_RANGE:
        warp_fault(w, x, lane, "EXEC-MBAR-006", "mbarrier %s of %llu bytes at shared offset 0x%x "
                   "takes the tx-count (%d) outside -%u..%u", op, (unsigned long long)bytes,
                   offset, mbar_tx_count(old), MBAR_COUNT_MAX, MBAR_COUNT_MAX);
        break;
    default:
        warp_fault(w, x, lane, "EXEC-MBAR-007", "mbarrier %s at shared offset 0x%x would "
                   "complete the phase (%u pending, tx-count %d)", op, offset,
                   mbar_pending(old), mbar_tx_count(old));
        break;
    }
}

int exec_mbarrier_offsets(exec_warp *w, const exec_xinsn *x, const ir_operand *a,
                          ir_space written, uint32_t mask, uint32_t *offsets)
{
    uint64_t base = (uint64_t)a->imm;
    if (a->sym != IR_SYM_NONE) {
        ir_space vs;
        base += warp_symbol_address(w, a->sym, &vs);
        if (written == IR_SPACE_GENERIC)
            base += mem_window_base(vs);
    }
    const uint64_t *r = a->has_reg ? w->regs + (size_t)a->reg * LANES : NULL;
    uint32_t limit = w->cta->shared_bytes;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        uint64_t addr = base + (r ? r[l] : 0), off = addr;
        ir_space sp = IR_SPACE_SHARED;
        if (written == IR_SPACE_GENERIC)
            sp = memsys_resolve_generic(addr, &off);
        else
            off &= 0xFFFFFFFFu; /* window offsets wrap at 32 bits, as ld.shared's do */
        if (sp != IR_SPACE_SHARED || off >= limit || limit - off < 8) {
            warp_fault(w, x, l, "EXEC-MBAR-002", "mbarrier address 0x%llx is not in the CTA's "
                       "%u bytes of shared memory%s", (unsigned long long)addr, limit,
                       written == IR_SPACE_SHARED_CLUSTER ? " (another CTA's shared memory in a "
                       "cluster is not modelled)" : "");
            return -1;
        }
        if (off % 8) {
            warp_fault(w, x, l, "EXEC-MBAR-003", "mbarrier at shared offset 0x%llx is not "
                       "8-byte aligned", (unsigned long long)off);
            return -1;
        }
        offsets[l] = (uint32_t)off;
    }
    return 0;
}

/* Wakes the CTA's warps asleep in a try_wait whose lanes' phases have all completed; their
 * predicate becomes true and they go on after the try_wait. */
static void wake_waiters(exec_cta *cta)
{
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        exec_warp *v = &cta->warps[i];
        if (v->state != WARP_MBARRIER)
            continue;
        exec_mbar_wait *mw = v->mbar;
        int parity = is_parity(mw->insn->in->sub);
        for (unsigned l = 0; l < LANES; l++) {
            if (!((mw->open >> l) & 1u))
                continue;
            uint64_t word;
            memcpy(&word, cta->shared + mw->offset[l], 8);
            if (parity ? mbar_parity_phase_done(word, (uint32_t)mw->operand[l])
                       : mbar_token_phase_done(word, mw->operand[l]))
                mw->open &= ~(1u << l);
        }
        if (mw->open)
            continue;
        uint64_t ones[LANES];
        for (unsigned l = 0; l < LANES; l++) ones[l] = 1;
        warp_write_dst(v, &mw->insn->in->dst[0], ones, mw->lanes, 1);
        v->state = WARP_READY;
        cta->wakes++;
    }
}

/* The shared-memory access instruction x makes to the barriers at offsets[] in the lanes of
 * `mask`, for the memory system to count: one request of 8 bytes per lane, in which the lanes
 * that name one barrier are one lane (the warp's arrivals on a barrier are combined into one
 * update, its waits on it into one read), so that it takes one wavefront per distinct barrier
 * in each half-warp phase. The words themselves are read and written by the handler. Returns
 * 0, or -1 after faulting the warp. */
static int count_access(exec_warp *w, const exec_xinsn *x, uint32_t mask, const uint32_t *offsets)
{
    mem_access *acc = &w->run->acc;
    uint32_t leaders = 0;
    for (unsigned l = 0; l < LANES; l++) {
        acc->addr[l] = 0;
        if (!((mask >> l) & 1u))
            continue;
        unsigned k = 0;
        while (k < l && !(((leaders >> k) & 1u) && offsets[k] == offsets[l])) k++;
        if (k == l) {
            leaders |= 1u << l;
            acc->addr[l] = offsets[l];
        }
    }
    acc->op = MEM_OP_LOAD;
    acc->space = IR_SPACE_SHARED;
    acc->elem_bytes = 8;
    acc->vec = 1;
    acc->active = leaders;
    acc->insn_id = x->in->id;
    acc->time = 0;
    acc->attrs = &x->in->mem;
    acc->policy = 0;
    acc->window_errors = IR_WINDOW_FAULT;
    return exec_mem_access(w, x, acc);
}

/* init, inval, the arrivals, expect_tx, complete_tx. */
static int update(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t off[LANES];
    uint64_t tc[LANES], tb[LANES], ones[LANES], zeros[LANES], tokens[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        ones[l] = 1;
        zeros[l] = 0;
        tokens[l] = 0;
    }
    const uint64_t *count = in->src[1].kind ? warp_src(w, x, 1, tc) : ones;
    const uint64_t *bytes = in->src[2].kind ? warp_src(w, x, 2, tb) : zeros;
    if (exec_mbarrier_offsets(w, x, &in->src[0], (ir_space)in->mem.space, mask, off) ||
        count_access(w, x, mask, off))
        return -1;
    uint8_t *shared = w->cta->shared;
    int completed = 0;
    for (unsigned l = 0; l < LANES; l++) { /* one thread after the other, in lane order */
        if (!((mask >> l) & 1u))
            continue;
        uint64_t old, word;
        memcpy(&old, shared + off[l], 8);
        word = old;
        int st = apply(in->sub, &word, count[l], bytes[l], &tokens[l]);
        if (st != MBAR_OK && st != MBAR_COMPLETED) {
            update_fault(w, x, l, in->sub, st, off[l], old, count[l], bytes[l]);
            return -1;
        }
        memcpy(shared + off[l], &word, 8);
        completed |= st == MBAR_COMPLETED;
    }
    if (in->dst[0].kind == IR_OPND_REG)
        warp_write_dst(w, &in->dst[0], tokens, mask, 64);
    if (completed) {
        w->run->mbar_phases++;
        wake_waiters(w->cta);
    }
    return 0;
}

enum { WAIT_DONE = 0, WAIT_YIELD = 1, WAIT_SLEEP = 2 };

/* Whether the warp may sleep in a try_wait: its lanes run as one group in the kernel's own
 * frame, with none parked at a bar, so that only the barrier's completion can wake them. */
static int may_sleep(const exec_warp *w)
{
    return w->depth == 1 && w->frames[0].nwaiting == 0 && !w->bar_mask;
}

/* test_wait and try_wait (the token and the .parity forms). Returns -1 after a fault, else
 * WAIT_DONE (every lane's phase has completed), WAIT_YIELD or WAIT_SLEEP. */
static int wait(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t off[LANES], open = 0;
    uint64_t tv[LANES], done[LANES];
    const uint64_t *v = warp_src(w, x, 1, tv);
    int parity = is_parity(in->sub);
    if (exec_mbarrier_offsets(w, x, &in->src[0], (ir_space)in->mem.space, mask, off) ||
        count_access(w, x, mask, off))
        return -1;
    for (unsigned l = 0; l < LANES; l++) {
        done[l] = 0;
        if (!((mask >> l) & 1u))
            continue;
        uint64_t word;
        memcpy(&word, w->cta->shared + off[l], 8);
        if (!mbar_is_valid(word)) {
            warp_fault(w, x, l, "EXEC-MBAR-001", "mbarrier %s on shared offset 0x%x, which "
                       "holds no initialized mbarrier", op_name(in->sub), off[l]);
            return -1;
        }
        /* A token has bit 63 set, as an initialized word has (mbarrier_word.h). */
        if (!parity && !mbar_is_valid(v[l])) {
            warp_fault(w, x, l, "EXEC-MBAR-009", "mbarrier %s with state 0x%llx, which is not a "
                       "token an arrive returned", op_name(in->sub), (unsigned long long)v[l]);
            return -1;
        }
        done[l] = parity ? mbar_parity_phase_done(word, (uint32_t)v[l])
                         : mbar_token_phase_done(word, v[l]);
        open |= done[l] ? 0 : 1u << l;
    }
    warp_write_dst(w, &in->dst[0], done, mask, 1);
    if (!open)
        return WAIT_DONE;
    /* What the warp waits for: kept while it sleeps, and for a deadlock report when it polls */
    if (!w->mbar && !(w->mbar = malloc(sizeof *w->mbar))) {
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004", "out of host memory for a warp's "
                 "mbarrier wait (%zu bytes)", sizeof *w->mbar);
        return -1;
    }
    exec_mbar_wait *mw = w->mbar;
    mw->insn = x;
    mw->lanes = mask;
    mw->open = open;
    for (unsigned l = 0; l < LANES; l++) {
        mw->offset[l] = ((mask >> l) & 1u) ? off[l] : 0;
        mw->operand[l] = ((mask >> l) & 1u) ? v[l] : 0;
    }
    bool try_wait = in->sub == IR_MBAR_TRY_WAIT || in->sub == IR_MBAR_TRY_WAIT_PARITY;
    return try_wait && may_sleep(w) ? WAIT_SLEEP : WAIT_YIELD;
}

static void pending_count(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    uint64_t tv[LANES], out[LANES];
    const uint64_t *t = warp_src(w, x, 0, tv);
    for (unsigned l = 0; l < LANES; l++) out[l] = mbar_token_pending(t[l]);
    warp_write_dst(w, &x->in->dst[0], out, mask, 32);
}

void exec_h_mbarrier(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    unsigned sub = x->in->sub;
    int r = WAIT_DONE;
    if (mask && sub == IR_MBAR_PENDING_COUNT)
        pending_count(w, x, mask);
    else if (mask && is_wait(sub))
        r = wait(w, x, mask);
    else if (mask)
        r = update(w, x, mask);
    if (r < 0)
        return;
    warp_set_pc(w, w->pc + 1);
    if (r == WAIT_YIELD)
        w->state = WARP_YIELD;
    else if (r == WAIT_SLEEP)
        w->state = WARP_MBARRIER;
}

/* ---- the helpers of asynchronous completions ---- */

static int helper(exec_warp *w, const exec_xinsn *x, uint32_t lane, uint32_t offset,
                  unsigned sub, uint32_t count, uint32_t bytes)
{
    uint32_t limit = w->cta->shared_bytes;
    if (offset >= limit || limit - offset < 8) {
        warp_fault(w, x, lane, "EXEC-MBAR-002", "mbarrier at shared offset 0x%x is not in the "
                   "CTA's %u bytes of shared memory", offset, limit);
        return -1;
    }
    if (offset % 8) {
        warp_fault(w, x, lane, "EXEC-MBAR-003", "mbarrier at shared offset 0x%x is not 8-byte "
                   "aligned", offset);
        return -1;
    }
    uint64_t old, word;
    memcpy(&old, w->cta->shared + offset, 8);
    word = old;
    int st = apply(sub, &word, count, bytes, NULL);
    if (st != MBAR_OK && st != MBAR_COMPLETED) {
        update_fault(w, x, lane, sub, st, offset, old, count, bytes);
        return -1;
    }
    memcpy(w->cta->shared + offset, &word, 8);
    if (st == MBAR_COMPLETED) {
        w->run->mbar_phases++;
        wake_waiters(w->cta);
    }
    return 0;
}

int exec_mbarrier_complete_tx(exec_warp *w, const exec_xinsn *x, uint32_t lane,
                              uint32_t shared_offset, uint32_t bytes)
{
    return helper(w, x, lane, shared_offset, IR_MBAR_COMPLETE_TX, 0, bytes);
}

int exec_mbarrier_arrive(exec_warp *w, const exec_xinsn *x, uint32_t lane,
                         uint32_t shared_offset, uint32_t count)
{
    return helper(w, x, lane, shared_offset, IR_MBAR_ARRIVE, count, 0);
}

int exec_mbarrier_pending_add(exec_warp *w, const exec_xinsn *x, uint32_t lane,
                              uint32_t shared_offset, uint32_t count)
{
    return helper(w, x, lane, shared_offset, SUB_ADD_PENDING, count, 0);
}

void exec_mbarrier_report_deadlock(exec_warp *w)
{
    const exec_mbar_wait *mw = w->mbar;
    unsigned lane = (unsigned)__builtin_ctz(mw->open | 0x80000000u);
    uint64_t word;
    memcpy(&word, w->cta->shared + mw->offset[lane], 8);
    warp_fault(w, mw->insn, lane, "EXEC-MBAR-008", "deadlock: mbarrier %s on shared offset 0x%x "
               "can never complete its phase (parity %u, %u arrivals pending of %u, tx-count "
               "%d) because %s", op_name(mw->insn->in->sub), mw->offset[lane],
               mbar_parity(word), mbar_pending(word), mbar_expected(word), mbar_tx_count(word),
               w->state == WARP_MBARRIER ? "no warp can run"
                                         : "every warp that runs only polls open mbarrier phases");
}

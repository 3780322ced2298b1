/* Barriers and warp-wide operations: bar/barrier (sync, arrive, red), bar.warp.sync, membar and
 * fence, shfl.sync, vote.sync, match.sync, redux.sync and activemask (PTX ISA 9.1 §9.7.13 and
 * §9.7.9.x). Barrier arrivals are counted per warp: a warp arrives when every one of its live
 * lanes has reached the barrier (PTX's .aligned semantics, which is what compilers emit). */
#include <string.h>

#include "exec/exec_internal.h"

static uint32_t first_lane_value(exec_warp *w, const exec_xinsn *x, int i, uint32_t mask)
{
    uint64_t tmp[LANES];
    const uint64_t *v = warp_src(w, x, i, tmp);
    return (uint32_t)v[mask ? __builtin_ctz(mask) : 0];
}

void cta_barrier_check(exec_cta *cta, uint32_t id)
{
    exec_barrier *b = &cta->barriers[id];
    uint32_t live_warps = cta->nwarps - cta->warps_done;
    uint32_t expected = b->expected ? b->expected : live_warps;
    if (!b->arrived || b->arrived < expected)
        return;
    cta->wakes++;
    for (uint32_t i = 0; i < cta->nwarps; i++) {
        exec_warp *w = &cta->warps[i];
        if (w->state != WARP_BARRIER || w->bar_id != id)
            continue;
        w->state = WARP_READY;
        w->active = w->bar_mask & w->live;
        w->bar_mask = 0;
        if (w->bar_red_mode && w->bar_dst) {
            uint64_t val[LANES];
            uint64_t r = w->bar_red_mode == IR_BAR_RED_POPC ? b->red_popc
                         : w->bar_red_mode == IR_BAR_RED_AND ? (b->red_and == 0)
                                                              : (b->red_or != 0);
            for (unsigned l = 0; l < LANES; l++) val[l] = r;
            warp_write_dst(w, w->bar_dst, val, w->active, 32);
        }
        w->bar_red_mode = 0;
        w->bar_dst = NULL;
        warp_set_pc(w, w->bar_resume_pc);
        if (!w->active)
            warp_next_group(w);
    }
    memset(b, 0, sizeof *b);
    cta->bars_arrived &= ~(1u << id);
}

void exec_h_bar(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    exec_cta *cta = w->cta;
    uint32_t id = in->src[0].kind ? first_lane_value(w, x, 0, w->active) : 0;
    if (id >= BARRIER_IDS) {
        warp_fault(w, x, 0, "EXEC-BAR-001", "barrier id %u is outside 0..15", id);
        return;
    }
    exec_barrier *b = &cta->barriers[id];
    if (in->src[1].kind) {
        uint32_t threads = first_lane_value(w, x, 1, w->active);
        if (threads == 0 || threads % LANES) {
            warp_fault(w, x, 0, "EXEC-BAR-002", "barrier thread count %u is not a positive multiple of 32",
                       threads);
            return;
        }
        b->expected = threads / LANES;
    }
    if (in->sub == IR_BAR_ARRIVE) {
        if (mask) {
            b->arrived++;
            cta->bars_arrived |= 1u << id;
            cta_barrier_check(cta, id);
        }
        warp_set_pc(w, w->pc + 1);
        return;
    }
    if (w->bar_mask && w->bar_resume_pc != w->pc + 1) {
        warp_fault(w, x, (unsigned)__builtin_ctz(mask | 1u), "EXEC-UNSUP-004",
                   "lanes of one warp wait at two different barrier instructions; "
                   "divergent barriers are not modelled");
        return;
    }
    if (in->sub >= IR_BAR_RED_POPC && mask) {
        uint64_t tmp[LANES];
        const uint64_t *p = warp_src(w, x, 2, tmp);
        uint32_t pm = 0;
        for (unsigned l = 0; l < LANES; l++) pm |= (uint32_t)(p[l] & 1u) << l;
        pm &= mask;
        b->red_popc += (uint32_t)__builtin_popcount(pm);
        b->red_or |= pm;
        b->red_and |= mask & ~pm; /* any lane with a false predicate */
        w->bar_red_mode = in->sub;
        w->bar_dst = &in->dst[0];
    }
    w->bar_mask |= mask;
    w->bar_id = (uint8_t)id;
    w->bar_resume_pc = w->pc + 1;
    uint32_t rest = w->active & ~mask;
    if (rest) {
        w->active = rest;
        warp_set_pc(w, w->pc + 1);
    } else {
        w->active = 0;
        warp_next_group(w);
    }
}

void exec_h_bar_warp(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    /* Lanes reconverge at the lowest pc, so the member lanes that can reach this instruction
     * together already run together here. */
    (void)w;
    (void)x;
    (void)mask;
}

void exec_h_shfl(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint64_t ta[LANES], tb[LANES], tc[LANES], out[LANES], pred[LANES];
    const uint64_t *a = warp_src(w, x, 0, ta);
    const uint64_t *b = warp_src(w, x, 1, tb);
    const uint64_t *c = warp_src(w, x, 2, tc);
    for (int lane = 0; lane < LANES; lane++) {
        int bval = (int)(b[lane] & 0x1f), cval = (int)(c[lane] & 0x1f);
        int seg = (int)((c[lane] >> 8) & 0x1f);
        int min_lane = lane & seg, max_lane = min_lane | (cval & ~seg);
        int j, ok;
        switch (in->sub) {
        case IR_SHFL_UP: j = lane - bval; ok = j >= max_lane; break;
        case IR_SHFL_DOWN: j = lane + bval; ok = j <= max_lane; break;
        case IR_SHFL_BFLY: j = lane ^ bval; ok = j <= max_lane; break;
        default: j = min_lane | (bval & ~seg); ok = j <= max_lane; break;
        }
        if (!ok || j < 0 || j >= LANES)
            j = lane;
        out[lane] = a[j] & 0xFFFFFFFFu;
        pred[lane] = (uint64_t)ok;
    }
    warp_write_dst(w, &in->dst[0], out, mask, 32);
    if (in->dst[1].kind)
        warp_write_dst(w, &in->dst[1], pred, mask, 1);
}

/* Each lane names its own member mask (tiles of one warp use different ones); lanes outside
 * the executing set do not take part. Without a mask operand (non-.sync forms) the executing lanes
 * are the members. */
static void member_masks(exec_warp *w, const exec_xinsn *x, int i, uint32_t mask, uint32_t *out)
{
    uint64_t tmp[LANES];
    const uint64_t *v = x->in->src[i].kind ? warp_src(w, x, i, tmp) : NULL;
    for (unsigned l = 0; l < LANES; l++) out[l] = mask & (v ? (uint32_t)v[l] : mask);
}

void exec_h_vote(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t sets[LANES];
    member_masks(w, x, 1, mask, sets);
    uint32_t pred = w->preds[in->src[0].reg];
    if (in->src[0].neg)
        pred = ~pred;
    uint64_t out[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t set = sets[l], p = pred & set;
        switch (in->sub) {
        case IR_VOTE_ALL: out[l] = p == set; break;
        case IR_VOTE_ANY: out[l] = p != 0; break;
        case IR_VOTE_UNI: out[l] = p == set || p == 0; break;
        default: out[l] = p; break;
        }
    }
    warp_write_dst(w, &in->dst[0], out, mask, 32);
}

void exec_h_match(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t sets[LANES];
    member_masks(w, x, 1, mask, sets);
    uint64_t tv[LANES], out[LANES], pred[LANES];
    const uint64_t *v = warp_src(w, x, 0, tv);
    uint64_t width_mask = ir_type_bits((ir_type)in->type) == 64 ? ~0ull : 0xFFFFFFFFull;
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t set = sets[l], same = 0;
        for (unsigned k = 0; k < LANES; k++)
            if (((set >> k) & 1u) && ((v[k] ^ v[l]) & width_mask) == 0)
                same |= 1u << k;
        int all_equal = same == set;
        out[l] = in->sub == IR_MATCH_ALL ? (all_equal ? set : 0) : same;
        pred[l] = (uint64_t)all_equal;
    }
    warp_write_dst(w, &in->dst[0], out, mask, 32);
    if (in->dst[1].kind)
        warp_write_dst(w, &in->dst[1], pred, mask, 1);
}

static uint32_t redux_over(uint8_t op, int is_signed, const uint64_t *v, uint32_t set)
{
    uint32_t acc = op == IR_REDUX_AND ? 0xFFFFFFFFu
                   : op == IR_REDUX_MIN ? (is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu)
                   : op == IR_REDUX_MAX ? (is_signed ? 0x80000000u : 0)
                                        : 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((set >> l) & 1u))
            continue;
        uint32_t e = (uint32_t)v[l];
        switch (op) {
        case IR_REDUX_ADD: acc += e; break;
        case IR_REDUX_AND: acc &= e; break;
        case IR_REDUX_OR: acc |= e; break;
        case IR_REDUX_XOR: acc ^= e; break;
        case IR_REDUX_MIN:
            if (is_signed ? (int32_t)e < (int32_t)acc : e < acc)
                acc = e;
            break;
        case IR_REDUX_MAX:
            if (is_signed ? (int32_t)e > (int32_t)acc : e > acc)
                acc = e;
            break;
        }
    }
    return acc;
}

void exec_h_redux(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t sets[LANES];
    member_masks(w, x, 1, mask, sets);
    uint64_t tv[LANES], out[LANES];
    const uint64_t *v = warp_src(w, x, 0, tv);
    int is_signed = in->type == IR_T_S32;
    uint32_t last_set = 0, last = 0;
    int have = 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!have || sets[l] != last_set) {
            last_set = sets[l];
            last = redux_over(in->sub, is_signed, v, last_set);
            have = 1;
        }
        out[l] = last;
    }
    warp_write_dst(w, &in->dst[0], out, mask, 32);
}

void exec_h_activemask(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    uint64_t out[LANES];
    for (unsigned l = 0; l < LANES; l++) out[l] = w->active;
    warp_write_dst(w, &x->in->dst[0], out, mask, 32);
}

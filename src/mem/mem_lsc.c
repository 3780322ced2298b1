/* Intel LSC fences (seed page 001, LSC_FENCE; docs/visa.md, "Fences and cache controls"): which
 * caches a fence's scope covers on a GPU of one or more tiles, and what its operation does to
 * them.
 *
 * A fence first waits until the thread's earlier accesses through its shared function (SFID) are
 * visible at its scope. Accesses complete in order in this model, so the wait has nothing to do:
 * every earlier load, store and atomic has already reached the level that served or accepted it.
 * Then the operation acts on the global lines of the covered caches:
 *   scope    L1s                                L2 (LSC's L3)
 *   group    none (the work-group's view is its SM's L1 and SLM, which it shares already)
 *   local    the issuing SM's                   none
 *   tile     the SMs of the issuing SM's tile   the slices that tile owns
 *   gpu      every SM's                         every slice
 *   gpus, sysrel, sysacq   as gpu: the operation reaches memory (DRAM), the model's last level
 * The SMs and the L2 slices are split into cfg.tiles equal, consecutive groups; a line's slice
 * (and so its tile) follows from its address, as memory is interleaved over the tiles. Thread-
 * private (local) lines are never touched. This module is not the front-end's checker: a fence
 * the model cannot perform (an SLM fence with a cache operation, a value outside its
 * enumeration) is a fault that names it. */
#include "mem/memsys_internal.h"

/* The covered caches of a fence: L1s of SMs [sm_first, sm_first + sm_count), L2 slices
 * [slice_first, slice_first + slice_count). */
typedef struct fence_reach {
    uint32_t sm_first, sm_count;
    uint32_t slice_first, slice_count;
} fence_reach;

uint32_t lsc_tiles(const memsys *ms)
{
    return ms->cfg.tiles > 1 ? ms->cfg.tiles : 1;
}

uint32_t lsc_tile_of_sm(const memsys *ms, uint32_t sm)
{
    return sm / (ms->cfg.sm_count / lsc_tiles(ms));
}

/* The caches scope `scope` covers for SM `sm`; returns 0, or -1 for a scope LSC does not have. */
static int reach_of(const memsys *ms, uint32_t sm, uint8_t scope, fence_reach *r)
{
    uint32_t tiles = lsc_tiles(ms);
    uint32_t sms_per_tile = ms->cfg.sm_count / tiles, slices_per_tile = ms->cfg.l2.slices / tiles;
    uint32_t tile = lsc_tile_of_sm(ms, sm);
    switch (scope) {
    case IR_SCOPE_CTA: *r = (fence_reach){0, 0, 0, 0}; return 0;
    case IR_SCOPE_SM: *r = (fence_reach){sm, 1, 0, 0}; return 0;
    case IR_SCOPE_TILE:
        *r = (fence_reach){tile * sms_per_tile, sms_per_tile, tile * slices_per_tile,
                           slices_per_tile};
        return 0;
    case IR_SCOPE_GPU: case IR_SCOPE_GPUS: case IR_SCOPE_SYS: case IR_SCOPE_SYSACQ:
        *r = (fence_reach){0, ms->cfg.sm_count, 0, ms->cfg.l2.slices};
        return 0;
    default: return -1; /* NONE, CLUSTER: not an LSC scope */
    }
}

/* What the operation does at the L1s and at the L2; `at_l1`/`at_l2` 0: it leaves that level. */
static void op_per_level(uint8_t op, int *at_l1, cache_whole_op *l1, int *at_l2,
                         cache_whole_op *l2)
{
    static const cache_whole_op whole[] = {
        [IR_FENCE_OP_EVICT] = CACHE_WHOLE_INVALIDATE,
        [IR_FENCE_OP_INVALIDATE] = CACHE_WHOLE_INVALIDATE_CLEAN,
        [IR_FENCE_OP_DISCARD] = CACHE_WHOLE_DISCARD,
        [IR_FENCE_OP_CLEAN] = CACHE_WHOLE_WRITEBACK,
        [IR_FENCE_OP_FLUSHL3] = CACHE_WHOLE_INVALIDATE, /* write back, then invalidate */
    };
    *at_l1 = op != IR_FENCE_OP_NONE && op != IR_FENCE_OP_FLUSHL3;
    *at_l2 = op != IR_FENCE_OP_NONE;
    *l1 = *l2 = whole[op];
}

int lsc_fence(memsys *ms, const mem_ctx *ctx, mem_request *rq, mem_fault *f)
{
    const ir_mem_attrs *a = rq->attrs;
    fence_reach reach;
    if (a->sfid > IR_SFID_SLM)
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "LSC fence of an unknown shared function");
    if (a->fence_op == IR_FENCE_OP_UNSET || a->fence_op > IR_FENCE_OP_FLUSHL3)
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "LSC fence operation is not modelled");
    if (ctx->sm >= ms->cfg.sm_count || reach_of(ms, ctx->sm, a->scope, &reach))
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_NONE,
                        "LSC fence scope is not modelled");
    /* SLM has no cache: ordering its accesses is all an SLM fence can do. */
    if (a->sfid == IR_SFID_SLM && a->fence_op != IR_FENCE_OP_NONE)
        return mem_fail(f, MEM_FAULT_UNSUPPORTED, 0, 0, 0, IR_SPACE_SHARED,
                        "an SLM fence has no cache to act on (its operation must be none)");
    int at_l1, at_l2;
    cache_whole_op l1_op, l2_op;
    op_per_level(a->fence_op, &at_l1, &l1_op, &at_l2, &l2_op);
    cache_result res;
    mem_status st = MEM_OK;
    /* L1s first, so that what they write back reaches the L2 before the L2 is acted on. */
    for (uint32_t s = reach.sm_first; at_l1 && st == MEM_OK && s < reach.sm_first + reach.sm_count;
         s++) {
        st = cache_control_slices(ms->l1[s], LINE_KINDS_GLOBAL, 0, UINT32_MAX, l1_op, rq, &res);
        hier_count_l1(rq, &res);
    }
    if (at_l2 && st == MEM_OK && reach.slice_count) {
        st = cache_control_slices(ms->l2, 1u << LINE_KIND_GLOBAL, reach.slice_first,
                                  reach.slice_count, l2_op, rq, &res);
        hier_count_l2(rq, &res);
    }
    return st == MEM_OK ? 0 : mem_fail(f, MEM_FAULT_NOMEM, 0, 0, 0, IR_SPACE_GLOBAL,
                                       "the backing store could not grow");
}

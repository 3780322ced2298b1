/* Register allocation for the executor: maps a function's PTX virtual registers onto as few
 * per-lane 64-bit slots as their live ranges allow, so that a warp's register file follows the
 * registers a kernel uses at the same time, not the ones it declares. Predicates are not
 * allocated here (a warp holds them as one 32-bit mask each).
 *
 * Liveness is the usual backward dataflow over basic blocks (leaders: the first instruction,
 * branch targets, and the instruction after a branch, return, exit or trap). A write under a
 * guard predicate does not end the live range of the value before it: lanes whose guard is false
 * keep that value. Each register's live range is then widened to one interval in instruction
 * order (the hull of the points where it is live or referenced); registers whose intervals do not
 * overlap share a slot, assigned by linear scan. An instruction's sources and destinations always
 * overlap at that instruction, so no handler ever writes a slot it still has to read.
 *
 * Why per-thread liveness is right for SIMT execution: every lane runs exactly its own thread's
 * path, and every handler reads and writes only the lanes it executes. Two exceptions keep a slot
 * of their own, so that their values stay what they were before allocation: a shfl source (a lane
 * may read another lane that is not executing) and a register read before any write (what it
 * holds is whatever the slot's previous user left, which PTX leaves undefined). A function that
 * jumps through the call-return stack (sync, brk, cal, ret.crs) gives every register a slot of
 * its own: where those go is known only when they run. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

/* Above this many words per bitset array (4 arrays of blocks x referenced registers bits, 32 MiB
 * each) the dataflow is not run and every referenced register keeps a slot of its own: a
 * function with thousands of registers and thousands of blocks. */
enum { LIVENESS_MAX_WORDS = 1u << 22 };

typedef void (*reg_visitor)(void *ctx, uint32_t reg, int is_def);

static void visit_operand(const ir_operand *o, int is_def, reg_visitor f, void *ctx)
{
    if (o->kind == IR_OPND_REG) {
        f(ctx, o->reg, is_def);
    } else if (o->kind == IR_OPND_ADDR && o->has_reg) {
        f(ctx, o->reg, 0); /* an address register is read even in a store */
        if (o->count == 2) /* a pair base: vregs[0] == reg, vregs[1] the high half */
            f(ctx, o->vregs[1], 0);
    } else if (o->kind == IR_OPND_VEC) {
        for (unsigned e = 0; e < o->count && e < 8; e++)
            if (o->vregs[e] != IR_REG_SINK && o->vregs[e] != IR_REG_IMM)
                f(ctx, o->vregs[e], is_def);
    }
}

/* Calls f for every register `in` reads, then for every register it writes. Call arguments
 * (xops) are reads and call return operands (xrets) writes; brx's xops are labels. */
static void visit_insn(const ir_func *fn, const ir_insn *in, reg_visitor f, void *ctx)
{
    for (int s = 0; s < 4; s++) visit_operand(&in->src[s], 0, f, ctx);
    for (uint32_t k = 0; k < in->xops_count; k++)
        visit_operand(&fn->xops[in->xops_first + k], 0, f, ctx);
    for (int d = 0; d < 2; d++) visit_operand(&in->dst[d], 1, f, ctx);
    for (uint32_t k = 0; k < in->xrets_count; k++)
        visit_operand(&fn->xops[in->xrets_first + k], 1, f, ctx);
}

static int ends_block(const ir_insn *in)
{
    ir_opcode op = (ir_opcode)in->op;
    return op == IR_BRA || op == IR_BRX || op == IR_RET || op == IR_EXIT || op == IR_TRAP ||
           op == IR_BRKPT;
}

/* Whether control can continue at the next instruction (a guarded jump or stop may not be
 * taken). */
static int falls_through(const ir_insn *in)
{
    return !ends_block(in) || in->has_guard;
}

/* Calls f(ctx, target instruction) for every successor of instruction i, the last of a block;
 * a target is at most ninsns (a label after the last instruction). */
static void for_each_successor(const ir_func *fn, uint32_t i, void (*f)(void *, uint32_t),
                               void *ctx)
{
    const ir_insn *in = &fn->insns[i];
    if (in->op == IR_BRA && in->src[0].kind == IR_OPND_LABEL &&
        (uint64_t)in->src[0].imm <= fn->ninsns)
        f(ctx, (uint32_t)in->src[0].imm);
    for (uint32_t k = 0; in->op == IR_BRX && k < in->xops_count; k++) {
        const ir_operand *o = &fn->xops[in->xops_first + k];
        if (o->kind == IR_OPND_LABEL && (uint64_t)o->imm <= fn->ninsns)
            f(ctx, (uint32_t)o->imm);
    }
    if (falls_through(in))
        f(ctx, i + 1);
}

/* ---- the working state ---- */

typedef struct regalloc {
    const ir_func *fn;
    uint32_t nref;            /* registers some instruction references */
    uint32_t *dense;          /* per register: index among the referenced ones, or UINT32_MAX */
    uint32_t *reg_of;         /* per dense index: the register */
    uint32_t nblocks;
    uint32_t *block_of;       /* per instruction: its block */
    uint32_t *block_start;    /* per block: first instruction; block_start[nblocks] = ninsns */
    size_t words;             /* bitset words per block */
    uint64_t *use, *def, *live_in, *live_out; /* nblocks x words each */
    uint32_t *first, *last;   /* per dense index: the interval */
    uint32_t cur_block;       /* scratch for the visitors */
    uint32_t cur_insn;
    int changed;
} regalloc;

static void count_reference(void *ctx, uint32_t reg, int is_def)
{
    regalloc *ra = ctx;
    (void)is_def;
    if (reg < ra->fn->nregs && ra->dense[reg] == UINT32_MAX) {
        ra->dense[reg] = ra->nref;
        ra->reg_of[ra->nref++] = reg;
    }
}

static void mark_leader(void *ctx, uint32_t target)
{
    uint8_t *leader = ctx;
    leader[target] = 1; /* leader has ninsns + 1 entries: a target past the end is harmless */
}

/* Splits the function into basic blocks. Returns 0 or -1 when out of memory. */
static int find_blocks(regalloc *ra)
{
    const ir_func *fn = ra->fn;
    uint8_t *leader = calloc((size_t)fn->ninsns + 1, 1);
    ra->block_of = malloc(((size_t)fn->ninsns + 1) * sizeof *ra->block_of);
    ra->block_start = malloc(((size_t)fn->ninsns + 1) * sizeof *ra->block_start);
    if (!leader || !ra->block_of || !ra->block_start) {
        free(leader);
        return -1;
    }
    leader[0] = 1;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        const ir_insn *in = &fn->insns[i];
        if (ends_block(in)) {
            leader[i + 1] = 1;
            for_each_successor(fn, i, mark_leader, leader);
        }
    }
    uint32_t b = 0;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        if (leader[i])
            ra->block_start[b++] = i;
        ra->block_of[i] = b - 1;
    }
    ra->nblocks = b;
    ra->block_start[b] = fn->ninsns;
    free(leader);
    return 0;
}

static inline int bit_test(const uint64_t *s, uint32_t v) { return (int)((s[v / 64] >> (v % 64)) & 1u); }
static inline void bit_set(uint64_t *s, uint32_t v) { s[v / 64] |= 1ull << (v % 64); }

/* Gathers a block's upward-exposed reads (use) and its unguarded writes (def). */
static void collect_use_def(void *ctx, uint32_t reg, int is_def)
{
    regalloc *ra = ctx;
    if (reg >= ra->fn->nregs)
        return;
    uint32_t v = ra->dense[reg];
    uint64_t *use = ra->use + (size_t)ra->cur_block * ra->words;
    uint64_t *def = ra->def + (size_t)ra->cur_block * ra->words;
    if (!is_def) {
        if (!bit_test(def, v))
            bit_set(use, v);
    } else if (!ra->fn->insns[ra->cur_insn].has_guard) {
        bit_set(def, v);
    }
}

static void merge_successor(void *ctx, uint32_t target)
{
    regalloc *ra = ctx;
    if (target >= ra->fn->ninsns)
        return;
    const uint64_t *in = ra->live_in + (size_t)ra->block_of[target] * ra->words;
    uint64_t *out = ra->live_out + (size_t)ra->cur_block * ra->words;
    for (size_t w = 0; w < ra->words; w++) out[w] |= in[w];
}

/* Backward dataflow to a fixed point: live_in = use | (live_out & ~def). */
static void solve_liveness(regalloc *ra)
{
    const ir_func *fn = ra->fn;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        ra->cur_block = ra->block_of[i];
        ra->cur_insn = i;
        visit_insn(fn, &fn->insns[i], collect_use_def, ra);
    }
    do {
        ra->changed = 0;
        for (uint32_t b = ra->nblocks; b-- > 0;) {
            ra->cur_block = b;
            for_each_successor(fn, ra->block_start[b + 1] - 1, merge_successor, ra);
            const uint64_t *out = ra->live_out + (size_t)b * ra->words;
            const uint64_t *use = ra->use + (size_t)b * ra->words;
            const uint64_t *def = ra->def + (size_t)b * ra->words;
            uint64_t *in = ra->live_in + (size_t)b * ra->words;
            for (size_t w = 0; w < ra->words; w++) {
                uint64_t n = use[w] | (out[w] & ~def[w]);
                if (n != in[w]) {
                    in[w] = n;
                    ra->changed = 1;
                }
            }
        }
    } while (ra->changed);
}

static void widen(regalloc *ra, uint32_t v, uint32_t at)
{
    if (at < ra->first[v])
        ra->first[v] = at;
    if (at > ra->last[v])
        ra->last[v] = at;
}

static void widen_at_reference(void *ctx, uint32_t reg, int is_def)
{
    regalloc *ra = ctx;
    (void)is_def;
    if (reg < ra->fn->nregs)
        widen(ra, ra->dense[reg], ra->cur_insn);
}

/* A register that must keep a slot of its own: its interval covers the whole function. */
static void pin(regalloc *ra, uint32_t v)
{
    ra->first[v] = 0;
    ra->last[v] = ra->fn->ninsns;
}

/* Each register's interval: every instruction that references it, the first instruction of
 * every block it is live into, the last of every block it is live out of. Without liveness
 * (have_liveness 0) every register is pinned. */
static void build_intervals(regalloc *ra, int have_liveness)
{
    const ir_func *fn = ra->fn;
    for (uint32_t v = 0; v < ra->nref; v++) {
        ra->first[v] = UINT32_MAX;
        ra->last[v] = 0;
        if (!have_liveness)
            pin(ra, v);
    }
    if (!have_liveness)
        return;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        ra->cur_insn = i;
        visit_insn(fn, &fn->insns[i], widen_at_reference, ra);
    }
    for (uint32_t b = 0; b < ra->nblocks; b++) {
        const uint64_t *in = ra->live_in + (size_t)b * ra->words;
        const uint64_t *out = ra->live_out + (size_t)b * ra->words;
        for (size_t w = 0; w < ra->words; w++) {
            for (uint64_t m = in[w]; m; m &= m - 1)
                widen(ra, (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(m)), ra->block_start[b]);
            for (uint64_t m = out[w]; m; m &= m - 1)
                widen(ra, (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(m)),
                      ra->block_start[b + 1] - 1);
        }
    }
    /* Read before written on some path: live into the function's first block. */
    for (size_t w = 0; ra->nblocks && w < ra->words; w++)
        for (uint64_t m = ra->live_in[w]; m; m &= m - 1)
            pin(ra, (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(m)));
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        const ir_operand *a = &fn->insns[i].src[0];
        if (fn->insns[i].op == IR_SHFL && a->kind == IR_OPND_REG && a->reg < fn->nregs)
            pin(ra, ra->dense[a->reg]);
    }
}

/* ---- linear scan ---- */

typedef struct interval {
    uint32_t first, last, v;
} interval;

static int interval_cmp(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* A min-heap of the slots in use, keyed by the last instruction of their interval. */
typedef struct busy_slot {
    uint32_t last, slot;
} busy_slot;

static void heap_push(busy_slot *h, uint32_t *n, busy_slot e)
{
    uint32_t i = (*n)++;
    while (i && h[(i - 1) / 2].last > e.last) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = e;
}

static busy_slot heap_pop(busy_slot *h, uint32_t *n)
{
    busy_slot top = h[0], e = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1].last < h[c].last)
            c++;
        if (h[c].last >= e.last)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = e;
    return top;
}

/* Gives each interval the lowest slot free over its whole extent. Returns the slot count, or
 * UINT32_MAX when out of memory. */
static uint32_t assign_slots(regalloc *ra, uint32_t *slot_of)
{
    uint32_t n = ra->nref, nslots = 0, nbusy = 0;
    interval *iv = malloc(((size_t)n + 1) * sizeof *iv);
    busy_slot *heap = malloc(((size_t)n + 1) * sizeof *heap);
    uint64_t *free_bits = calloc((size_t)n / 64 + 1, sizeof *free_bits);
    if (!iv || !heap || !free_bits) {
        free(iv);
        free(heap);
        free(free_bits);
        return UINT32_MAX;
    }
    for (uint32_t v = 0; v < n; v++) iv[v] = (interval){ra->first[v], ra->last[v], v};
    qsort(iv, n, sizeof *iv, interval_cmp);
    for (uint32_t k = 0; k < n; k++) {
        while (nbusy && heap[0].last < iv[k].first) bit_set(free_bits, heap_pop(heap, &nbusy).slot);
        uint32_t slot = nslots;
        for (uint32_t w = 0; w * 64 < nslots; w++) {
            if (free_bits[w]) {
                slot = w * 64 + (uint32_t)__builtin_ctzll(free_bits[w]);
                free_bits[w] &= free_bits[w] - 1;
                break;
            }
        }
        if (slot == nslots)
            nslots++;
        slot_of[ra->reg_of[iv[k].v]] = slot;
        heap_push(heap, &nbusy, (busy_slot){iv[k].last, slot});
    }
    free(iv);
    free(heap);
    free(free_bits);
    return nslots;
}

static void regalloc_free(regalloc *ra)
{
    free(ra->dense);
    free(ra->reg_of);
    free(ra->block_of);
    free(ra->block_start);
    free(ra->use);
    free(ra->def);
    free(ra->live_in);
    free(ra->live_out);
    free(ra->first);
    free(ra->last);
}

/* Whether `fn` jumps to targets it pops from the call-return stack (sync, brk, ret.crs; cal
 * comes back through one): the blocks' successors are then not known before it runs, so every
 * register keeps a slot of its own. */
static int pops_crs_targets(const ir_func *fn)
{
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        const ir_op_info *info = ir_op_info_of((ir_opcode)fn->insns[i].op);
        if (info && info->family == IR_FAM_CRS && info->flow != IR_FLOW_NONE)
            return 1;
    }
    return 0;
}

int exec_regalloc(const ir_func *fn, uint32_t *slot_of, uint32_t *nslots)
{
    regalloc ra = {.fn = fn};
    *nslots = 0;
    for (uint32_t r = 0; r < fn->nregs; r++) slot_of[r] = EXEC_NO_SLOT;
    ra.dense = malloc(((size_t)fn->nregs + 1) * sizeof *ra.dense);
    ra.reg_of = malloc(((size_t)fn->nregs + 1) * sizeof *ra.reg_of);
    if (!ra.dense || !ra.reg_of || find_blocks(&ra)) {
        regalloc_free(&ra);
        return -1;
    }
    memset(ra.dense, 0xFF, ((size_t)fn->nregs + 1) * sizeof *ra.dense);
    for (uint32_t i = 0; i < fn->ninsns; i++) visit_insn(fn, &fn->insns[i], count_reference, &ra);
    ra.words = ((size_t)ra.nref + 63) / 64;
    size_t cells = (size_t)ra.nblocks * (ra.words ? ra.words : 1);
    int have_liveness = cells <= LIVENESS_MAX_WORDS && !pops_crs_targets(fn);
    ra.first = malloc(((size_t)ra.nref + 1) * sizeof *ra.first);
    ra.last = malloc(((size_t)ra.nref + 1) * sizeof *ra.last);
    if (have_liveness) {
        ra.use = calloc(cells, sizeof *ra.use);
        ra.def = calloc(cells, sizeof *ra.def);
        ra.live_in = calloc(cells, sizeof *ra.live_in);
        ra.live_out = calloc(cells, sizeof *ra.live_out);
    }
    if (!ra.first || !ra.last ||
        (have_liveness && (!ra.use || !ra.def || !ra.live_in || !ra.live_out))) {
        regalloc_free(&ra);
        return -1;
    }
    if (have_liveness)
        solve_liveness(&ra);
    build_intervals(&ra, have_liveness);
    uint32_t n = assign_slots(&ra, slot_of);
    regalloc_free(&ra);
    if (n == UINT32_MAX)
        return -1;
    *nslots = n;
    return 0;
}

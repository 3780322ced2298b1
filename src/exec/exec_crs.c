/* The call-return stack of machines with IR_CALL_RETURN_STACK (SASS SSY/SYNC, PBK/BRK, CAL/RET,
 * SETCRSPTR/GETCRSPTR and CCTLL.CRS.WBALL); docs/architecture.md, "The call-return stack".
 *
 * Every thread has a stack of 32-bit entries: the kind in bits 31:30 (CRS_SSY, CRS_PBK, CRS_CAL)
 * and a code address in bits 29:0, the target's byte offset from the start of the function's
 * code. The top machine.crs_cached entries of each thread are held in the SM's CRS cache (here,
 * the warp's exec_crs); the rest live in the thread's local memory, entry e at local offset
 * crs_base + 4e, right after the kernel's own local bytes. Pushing onto a full cache spills its
 * oldest entry with a local store, popping an entry that is not cached fills it with a local
 * load: real accesses through the memory system, charged to the instruction, so L1 holds the
 * stack's lines as it holds any local data.
 *
 * The stack is per thread, not per warp: lanes keep running under the executor's lowest-pc
 * reconvergence, and an instruction that sends lanes to different targets splits the running
 * group as brx does. This is not a model of the hardware's per-warp divergence stack. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

enum { CRS_SSY = 1, CRS_PBK = 2, CRS_CAL = 3 };
enum { CRS_KIND_SHIFT = 30, CRS_TARGET_MASK = 0x3FFFFFFFu, CRS_ENTRY_BYTES = 4 };
/* The most entries a thread's stack may be declared to hold (machine.crs_max): 256 KiB of
 * local memory per thread. */
enum { CRS_MAX_ENTRIES = 1u << 16 };

struct exec_crs {
    uint32_t depth[LANES];  /* entries on each thread's stack */
    uint32_t cached[LANES]; /* how many of its top entries the cache holds (<= ncache) */
    uint32_t ncache;        /* machine.crs_cached: cached entries per thread */
    uint32_t *slot;         /* LANES x ncache: entry e of lane l is slot[l * ncache + e % ncache] */
    uint8_t *dirty;         /* the same shape: 1 when local memory does not hold the entry yet */
};

/* The plain local accesses the stack makes: 4-byte entries, the GPU's default cache policy. */
static const ir_mem_attrs crs_attrs = {.space = IR_SPACE_LOCAL, .elem_bytes = 4, .vec = 1};

static const char *const kind_name[] = {"invalid", "ssy", "pbk", "cal"};

/* ---- code addresses: the one place that maps instructions to entry targets ---- */

/* The byte offset of instruction `pc` from its function's code start (the module's instruction
 * layout, exec_insn_offset): what an entry holds. */
static uint64_t crs_offset_of(const exec_warp *w, uint32_t pc)
{
    return w->frames[w->depth - 1].fn->fetch_offsets[pc];
}

/* The instruction at byte offset `offset` of the running function: *pc, and 0; -1 when no
 * instruction starts there (inside a control word or an instruction, or past the code). The
 * fetch offsets grow with pc (glue shares its instruction's offset), so the first instruction
 * at the offset is found by bisection: the first glue of an instruction, where a label to it
 * points. */
static int crs_pc_of(const exec_warp *w, uint32_t offset, uint32_t *pc)
{
    const exec_func *fn = w->frames[w->depth - 1].fn;
    uint32_t lo = 0, hi = fn->ir->ninsns;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fn->fetch_offsets[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= fn->ir->ninsns || fn->fetch_offsets[lo] != offset)
        return -1;
    *pc = lo;
    return 0;
}

/* ---- the warp's stacks ---- */

static exec_crs *crs_of(exec_warp *w)
{
    if (w->crs)
        return w->crs;
    const ir_machine *k = &w->run->prog->module->machine;
    uint32_t n = k->crs_cached < k->crs_max ? k->crs_cached : k->crs_max;
    exec_crs *c = calloc(1, sizeof *c);
    if (c) {
        c->ncache = n;
        c->slot = calloc((size_t)LANES * (n ? n : 1), sizeof *c->slot);
        c->dirty = calloc((size_t)LANES * (n ? n : 1), 1);
    }
    if (!c || !c->slot || !c->dirty) {
        if (c) {
            free(c->slot);
            free(c->dirty);
        }
        free(c);
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004", "out of host memory for the "
                 "call-return-stack cache of a warp (%u entries per thread)", n);
        w->state = WARP_FAULTED;
        return NULL;
    }
    w->crs = c;
    return c;
}

void exec_crs_reset(exec_warp *w)
{
    if (w->crs) {
        memset(w->crs->depth, 0, sizeof w->crs->depth);
        memset(w->crs->cached, 0, sizeof w->crs->cached);
    }
}

void exec_crs_free(exec_warp *w)
{
    if (w->crs) {
        free(w->crs->slot);
        free(w->crs->dirty);
        free(w->crs);
        w->crs = NULL;
    }
}

/* One warp-level local access of the stack's backing store: for each lane in `lanes`, entry
 * index[l] is stored from value[l] (MEM_OP_STORE) or loaded into it (MEM_OP_LOAD). Returns 0, or
 * -1 after faulting the warp. */
static int crs_memory(exec_warp *w, const exec_xinsn *x, mem_op op, uint32_t lanes,
                      const uint32_t *index, uint32_t *value)
{
    exec_run_state *rs = w->run;
    mem_access *acc = &rs->acc;
    acc->op = (uint8_t)op;
    acc->space = IR_SPACE_LOCAL;
    acc->elem_bytes = CRS_ENTRY_BYTES;
    acc->vec = 1;
    acc->active = lanes;
    acc->insn_id = x->in->id;
    acc->time = 0;
    acc->attrs = &crs_attrs;
    acc->policy = 0;
    for (unsigned l = 0; l < LANES; l++) {
        acc->addr[l] = rs->crs_base + (uint64_t)index[l] * CRS_ENTRY_BYTES;
        if (op == MEM_OP_STORE)
            memcpy(acc->data[l], &value[l], CRS_ENTRY_BYTES);
    }
    mem_fault f;
    if (memsys_access(rs->ms, &w->mctx, acc, &f)) {
        warp_fault(w, x, f.lane, "EXEC-MEM-001", "call-return stack %s at local offset 0x%llx: "
                   "%s", op == MEM_OP_STORE ? "spill" : "fill", (unsigned long long)f.address,
                   f.what);
        return -1;
    }
    if (rs->launch->on_access)
        rs->launch->on_access(acc, rs->launch->access_user);
    if (op == MEM_OP_LOAD)
        for (unsigned l = 0; l < LANES; l++)
            if ((lanes >> l) & 1u)
                memcpy(&value[l], acc->data[l], CRS_ENTRY_BYTES);
    return 0;
}

/* Pushes `entry` on the stack of every lane in `mask`. A lane whose cache is full first spills
 * its oldest cached entry (when dirty: the memory copy is current after a write-back); with no
 * cache at all the entry itself goes to memory. Returns 0 or -1 after a fault. */
static int crs_push(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint32_t entry)
{
    exec_crs *c = crs_of(w);
    if (!c)
        return -1;
    uint32_t max = w->run->prog->module->machine.crs_max, n = c->ncache;
    uint32_t index[LANES], value[LANES], spill = 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        if (c->depth[l] >= max) {
            warp_fault(w, x, l, "EXEC-CRS-002", "%s pushes a call-return-stack entry beyond the "
                       "%u entries a thread's stack holds (machine.crs_max)",
                       ir_opcode_name((ir_opcode)x->in->op), max);
            return -1;
        }
        uint32_t d = c->depth[l];
        if (n == 0) {
            index[l] = d;
            value[l] = entry;
            spill |= 1u << l;
        } else if (c->cached[l] == n && c->dirty[l * n + (d - n) % n]) {
            index[l] = d - n;
            value[l] = c->slot[l * n + (d - n) % n];
            spill |= 1u << l;
        }
    }
    if (spill && crs_memory(w, x, MEM_OP_STORE, spill, index, value))
        return -1;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        uint32_t d = c->depth[l]++;
        if (n == 0)
            continue;
        if (c->cached[l] < n) /* else the oldest cached entry shares the slot and leaves it */
            c->cached[l]++;
        c->slot[l * n + d % n] = entry;
        c->dirty[l * n + d % n] = 1;
    }
    return 0;
}

/* Pops the top entry of every lane in `lanes` into out[l], filling from local memory the lanes
 * whose cache holds none; `x` names the instruction for faults. Returns 0 or -1 after a fault. */
static int crs_pop_one(exec_warp *w, const exec_xinsn *x, uint32_t lanes, uint32_t want,
                       uint32_t *out)
{
    exec_crs *c = w->crs;
    uint32_t n = c->ncache, index[LANES], fill = 0;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        if (c->depth[l] == 0) {
            warp_fault(w, x, l, "EXEC-CRS-001", "%s pops an empty call-return stack (looking for "
                       "a %s entry)", ir_opcode_name((ir_opcode)x->in->op), kind_name[want]);
            return -1;
        }
        if (c->cached[l] == 0) {
            index[l] = c->depth[l] - 1;
            fill |= 1u << l;
        }
    }
    if (fill && crs_memory(w, x, MEM_OP_LOAD, fill, index, out))
        return -1;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        uint32_t e = --c->depth[l];
        if (!((fill >> l) & 1u)) {
            out[l] = c->slot[l * n + e % n];
            c->cached[l]--;
        }
    }
    return 0;
}

/* Pops entries of every lane in `mask` until it pops one of kind `want`, whose target goes to
 * target[l] (an instruction index). sync and brk stop at a cal entry: their ssy or pbk must be
 * in the same subroutine; ret.crs passes the ssy and pbk entries its subroutine left. Faults:
 * EXEC-CRS-001 (empty, or a cal entry first), EXEC-CRS-003 (an entry of no kind or whose target
 * is no instruction). Returns 0 or -1. */
static int crs_pop_to(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint32_t want,
                      uint32_t *target)
{
    if (!crs_of(w))
        return -1;
    uint32_t searching = mask, entry[LANES];
    while (searching) {
        if (crs_pop_one(w, x, searching, want, entry))
            return -1;
        for (unsigned l = 0; l < LANES; l++) {
            if (!((searching >> l) & 1u))
                continue;
            uint32_t kind = entry[l] >> CRS_KIND_SHIFT, pc;
            if (kind == 0 || crs_pc_of(w, entry[l] & CRS_TARGET_MASK, &pc)) {
                warp_fault(w, x, l, "EXEC-CRS-003", "%s popped call-return-stack entry 0x%08x "
                           "(entry %u), which is not a valid %s", ir_opcode_name(
                               (ir_opcode)x->in->op), entry[l], w->crs->depth[l],
                           kind ? "code address of the function" : "entry kind");
                return -1;
            }
            if (kind == want) {
                target[l] = pc;
                searching &= ~(1u << l);
            } else if (kind == CRS_CAL) {
                warp_fault(w, x, l, "EXEC-CRS-001", "%s found no %s entry in the current "
                           "subroutine (it reached the cal entry returning to offset 0x%x)",
                           ir_opcode_name((ir_opcode)x->in->op), kind_name[want],
                           entry[l] & CRS_TARGET_MASK);
                return -1;
            }
        }
    }
    return 0;
}

/* ---- control transfer ---- */

/* Sends each lane l of `mask` to target[l] and the other running lanes to the next instruction,
 * splitting the running group by target as brx does; reconvergence is the executor's. */
static void crs_goto(exec_warp *w, uint32_t mask, const uint32_t *target)
{
    uint32_t rest = w->active & ~mask, first = (uint32_t)__builtin_ctz(mask), uniform = 1;
    for (unsigned l = 0; l < LANES; l++)
        if (((mask >> l) & 1u) && target[l] != target[first])
            uniform = 0;
    if (!rest && uniform) {
        warp_set_pc(w, target[first]);
        return;
    }
    for (uint32_t left = mask; left;) {
        uint32_t t = target[__builtin_ctz(left)], same = 0;
        for (unsigned l = 0; l < LANES; l++)
            if (((left >> l) & 1u) && target[l] == t)
                same |= 1u << l;
        warp_push_waiting(w, t, same);
        left &= ~same;
    }
    if (rest) {
        w->active = rest;
        warp_set_pc(w, w->pc + 1);
    } else {
        w->active = 0;
        warp_next_group(w);
    }
}

/* ssy L / pbk L push (kind, L); cal L pushes (cal, the next instruction) and jumps to L. */
static void crs_h_push(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint32_t kind)
{
    uint32_t label = (uint32_t)x->in->src[0].imm;
    uint64_t offset = crs_offset_of(w, kind == CRS_CAL ? w->pc + 1 : label);
    if (mask && offset > CRS_TARGET_MASK) {
        warp_fault(w, x, (uint32_t)__builtin_ctz(mask), "EXEC-CRS-003", "code offset 0x%llx "
                   "does not fit the 30 bits of a call-return-stack entry",
                   (unsigned long long)offset);
        return;
    }
    if (mask && crs_push(w, x, mask, kind << CRS_KIND_SHIFT | (uint32_t)offset))
        return;
    if (kind != CRS_CAL)
        return; /* falls through: the loop advances the pc */
    if (!mask) {
        warp_set_pc(w, w->pc + 1);
        return;
    }
    uint32_t target[LANES];
    for (unsigned l = 0; l < LANES; l++) target[l] = label;
    crs_goto(w, mask, target);
}

/* sync, brk, ret.crs: pop to the wanted entry and go to its target; lanes the guard turned off
 * go on with the next instruction. */
static void crs_h_pop(exec_warp *w, const exec_xinsn *x, uint32_t mask, uint32_t want)
{
    if (!mask) {
        warp_set_pc(w, w->pc + 1);
        return;
    }
    uint32_t target[LANES];
    if (crs_pop_to(w, x, mask, want, target) == 0)
        crs_goto(w, mask, target);
}

/* setcrsptr n: each lane's stack now holds n entries, all in local memory (the cache is emptied
 * without write-back). getcrsptr d: d = the number of entries. */
static void crs_h_pointer(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    exec_crs *c = crs_of(w);
    if (!c)
        return;
    uint64_t v[LANES];
    if (x->in->op == IR_GETCRSPTR) {
        for (unsigned l = 0; l < LANES; l++) v[l] = c->depth[l];
        warp_write_dst(w, &x->in->dst[0], v, mask, 32);
        return;
    }
    uint32_t max = w->run->prog->module->machine.crs_max;
    const uint64_t *n = warp_src(w, x, 0, v);
    for (unsigned l = 0; l < LANES; l++) {
        if (((mask >> l) & 1u) && (uint32_t)n[l] > max) {
            warp_fault(w, x, l, "EXEC-CRS-002", "setcrsptr %u is beyond the %u entries a "
                       "thread's call-return stack holds (machine.crs_max)", (uint32_t)n[l], max);
            return;
        }
    }
    for (unsigned l = 0; l < LANES; l++) {
        if ((mask >> l) & 1u) {
            c->depth[l] = (uint32_t)n[l];
            c->cached[l] = 0;
        }
    }
}

void exec_h_crs(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    switch ((ir_opcode)x->in->op) {
    case IR_SSY: crs_h_push(w, x, mask, CRS_SSY); break;
    case IR_PBK: crs_h_push(w, x, mask, CRS_PBK); break;
    case IR_CAL: crs_h_push(w, x, mask, CRS_CAL); break;
    case IR_SYNC: crs_h_pop(w, x, mask, CRS_SSY); break;
    case IR_BRK: crs_h_pop(w, x, mask, CRS_PBK); break;
    case IR_RET_CRS: crs_h_pop(w, x, mask, CRS_CAL); break;
    default: crs_h_pointer(w, x, mask); break; /* setcrsptr, getcrsptr */
    }
}

/* CCTLL.CRS.WBALL: every dirty cached entry of the lanes in `mask` is stored to local memory (so
 * the L1 holds it) and stays cached, clean. One warp-level store per entry index, lowest first,
 * so that each covers the same word of every lane's backing store. */
static void crs_h_writeback_all(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    exec_crs *c = crs_of(w);
    if (!c || c->ncache == 0)
        return;
    uint32_t n = c->ncache, lo = UINT32_MAX, hi = 0, index[LANES], value[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        if (((mask >> l) & 1u) && c->cached[l]) {
            lo = c->depth[l] - c->cached[l] < lo ? c->depth[l] - c->cached[l] : lo;
            hi = c->depth[l] > hi ? c->depth[l] : hi;
        }
    }
    for (uint32_t e = lo; e < hi; e++) {
        uint32_t lanes = 0;
        for (unsigned l = 0; l < LANES; l++) {
            if (!((mask >> l) & 1u) || e < c->depth[l] - c->cached[l] || e >= c->depth[l] ||
                !c->dirty[l * n + e % n])
                continue;
            index[l] = e;
            value[l] = c->slot[l * n + e % n];
            lanes |= 1u << l;
        }
        if (lanes && crs_memory(w, x, MEM_OP_STORE, lanes, index, value))
            return;
        for (unsigned l = 0; l < LANES; l++)
            if ((lanes >> l) & 1u)
                c->dirty[l * n + e % n] = 0;
    }
}

int exec_crs_decode(const ir_module *m, const ir_insn *in, exec_xinsn *x, diag_list *dl)
{
    const ir_op_info *info = ir_op_info_of((ir_opcode)in->op);
    int has_crs = m->machine.call_conv == IR_CALL_RETURN_STACK;
    if (info && info->family == IR_FAM_CRS && !has_crs) {
        diag_add(dl, DIAG_ERROR, "EXEC-CRS-004", m->path, in->line, in->col,
                 "%s needs a call-return stack, which the module's machine does not have "
                 "(machine.call_conv)", info->name);
        return 1;
    }
    if (in->op == IR_CCTL && (in->mem.cctl_levels & IR_LEVEL_CRS) && has_crs)
        x->fn = in->mem.cctl_levels == IR_LEVEL_CRS && in->mem.cctl_all &&
                        in->mem.cctl == IR_CCTL_WRITEBACK
                    ? crs_h_writeback_all
                    : NULL;
    return 0;
}

int exec_crs_check_machine(const ir_module *m, diag_list *dl)
{
    const ir_machine *k = &m->machine;
    if (k->call_conv != IR_CALL_RETURN_STACK || (k->crs_max >= 1 && k->crs_max <= CRS_MAX_ENTRIES))
        return 0;
    diag_add(dl, DIAG_ERROR, "EXEC-CRS-004", m->path, m->target_line, m->target_col,
             "a call-return stack of %u entries per thread (machine.crs_max): the executor holds "
             "1 to %u", k->crs_max, (unsigned)CRS_MAX_ENTRIES);
    return 1;
}

/* The matrix instructions (PTX ISA 9.1 §9.7.14; docs/semantics.md, "Matrix instructions"): the
 * warp-wide moves between shared or global memory and fragments (ldmatrix, stmatrix, wmma.load,
 * wmma.store) and the multiply-accumulates (mma.sync, wmma.mma). Each runs for the whole warp at
 * once: a warp that executes one with some lanes inactive or exited faults (EXEC-MMA-001), as
 * the result would be undefined on hardware.
 *
 * Memory: ldmatrix and stmatrix are one shared-memory access of 16 bytes per lane, each of lanes
 * 0..8*count-1 naming one 8-element row, so that the memory system counts their wavefronts and
 * bank conflicts like any shared access of 16 bytes per lane (phases of 8 lanes: the 8 rows of
 * one matrix). wmma.load/store move each fragment register of all 32 lanes as one
 * access when its elements are adjacent in memory for every lane, else one access per element.
 * The values: alu_mma.c. */
#include <stdio.h>
#include <string.h>

#include "exec/exec_internal.h"

enum { MAX_ELEMS = 32 * 32, FRAG_REGS = 8 };

static int fault_partial(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (mask == FULL_MASK)
        return 0;
    unsigned lane = (unsigned)__builtin_ctz(~mask);
    warp_fault(w, x, lane, "EXEC-MMA-001", "%s is executed by the whole warp together, but lane "
               "%u is not executing it (lanes executing: 0x%08x)",
               ir_opcode_name((ir_opcode)x->in->op), lane, mask);
    return -1;
}

/* The access record of a matrix move, without addresses. */
static mem_access *prepare(exec_warp *w, const exec_xinsn *x, mem_op op, uint32_t active,
                           unsigned bytes)
{
    mem_access *acc = &w->run->acc;
    acc->op = (uint8_t)op;
    acc->elem_bytes = (uint8_t)bytes;
    acc->vec = 1;
    acc->active = active;
    acc->insn_id = x->in->id;
    acc->time = 0;
    acc->attrs = &x->in->mem;
    acc->policy = 0;
    acc->window_errors = w->run->prog->module->machine.window_errors;
    return acc;
}

/* ---- ldmatrix, stmatrix ---- */
/* Where the 16-bit element in half `half` of lane `lane`'s register for matrix `mat` sits: in row
 * lane / 4, column 2 * (lane % 4) + half of the matrix (with .trans, the transposed position).
 * Returns the lane that named that row (8 * mat + row) and sets *byte to its offset in the row. */
static unsigned ldst_position(unsigned mat, unsigned lane, unsigned half, int trans,
                              unsigned *byte)
{
    unsigned r = lane >> 2, c = 2 * (lane & 3) + half;
    if (trans) {
        unsigned tmp = r;
        r = c;
        c = tmp;
    }
    *byte = 2 * c;
    return 8 * mat + r;
}

static int shared_rows(exec_warp *w, const exec_xinsn *x, mem_access *acc, uint32_t active)
{
    ir_space sp = exec_mem_addresses(w, &x->in->src[0], (ir_space)x->in->mem.space, x->aux,
                                     acc->addr);
    acc->space = (uint8_t)sp;
    if (sp == IR_SPACE_SHARED)
        return 0;
    for (unsigned l = 0; l < LANES; l++) {
        uint64_t offset;
        if (((active >> l) & 1u) &&
            (sp != IR_SPACE_GENERIC ||
             memsys_resolve_generic(acc->addr[l], &offset) != IR_SPACE_SHARED)) {
            warp_fault(w, x, l, "EXEC-MMA-002", "%s moves rows of shared memory only, but lane "
                       "%u's row address 0x%llx is not in shared memory",
                       ir_opcode_name((ir_opcode)x->in->op), l, (unsigned long long)acc->addr[l]);
            return -1;
        }
    }
    return 0;
}

static void ldst_matrix(exec_warp *w, const exec_xinsn *x, int store)
{
    const ir_insn *in = x->in;
    const ir_operand *frag = store ? &in->src[1] : &in->dst[0];
    unsigned count = frag->count;
    uint32_t active = count >= 4 ? FULL_MASK : (1u << (8 * count)) - 1;
    mem_access *acc = prepare(w, x, store ? MEM_OP_STORE : MEM_OP_LOAD, active, 16);
    if (shared_rows(w, x, acc, active) != 0)
        return;
    int trans = (in->mods & IR_MOD_TRANS) != 0;
    if (store) {
        for (unsigned m = 0; m < count; m++) {
            const uint64_t *r = w->regs + (size_t)frag->vregs[m] * LANES;
            for (unsigned l = 0; l < LANES; l++)
                for (unsigned h = 0; h < 2; h++) {
                    unsigned byte, row = ldst_position(m, l, h, trans, &byte);
                    uint16_t v = (uint16_t)(r[l] >> (16 * h));
                    memcpy(acc->data[row] + byte, &v, 2);
                }
        }
        exec_mem_access(w, x, acc);
        return;
    }
    if (exec_mem_access(w, x, acc) != 0)
        return;
    for (unsigned m = 0; m < count; m++) {
        if (frag->vregs[m] == IR_REG_SINK)
            continue;
        uint64_t *r = w->regs + (size_t)frag->vregs[m] * LANES;
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t v = 0;
            for (unsigned h = 0; h < 2; h++) {
                unsigned byte, row = ldst_position(m, l, h, trans, &byte);
                uint16_t e;
                memcpy(&e, acc->data[row] + byte, 2);
                v |= (uint32_t)e << (16 * h);
            }
            r[l] = v;
        }
    }
}

/* ---- wmma.load, wmma.store ---- */
/* Each lane's fragment registers (FRAG_REGS per lane) for the vector operand o. */
static void gather_regs(exec_warp *w, const ir_operand *o, uint64_t regs[LANES][FRAG_REGS])
{
    for (unsigned i = 0; i < o->count && i < FRAG_REGS; i++) {
        const uint64_t *r = w->regs + (size_t)o->vregs[i] * LANES;
        for (unsigned l = 0; l < LANES; l++) regs[l][i] = o->vregs[i] == IR_REG_SINK ? 0 : r[l];
    }
}

static void scatter_regs(exec_warp *w, const ir_operand *o, uint64_t regs[LANES][FRAG_REGS])
{
    for (unsigned i = 0; i < o->count && i < FRAG_REGS; i++) {
        if (o->vregs[i] == IR_REG_SINK)
            continue;
        uint64_t *r = w->regs + (size_t)o->vregs[i] * LANES;
        for (unsigned l = 0; l < LANES; l++) r[l] = regs[l][i];
    }
}

/* Byte address of element e of each lane's fragment (addr: the lanes' base addresses). */
static void element_addresses(exec_warp *w, const exec_xinsn *x, const uint64_t *base,
                              unsigned e, uint64_t *out)
{
    const ir_insn *in = x->in;
    ir_type t = (ir_type)in->type;
    unsigned m = 0, n = 0, k = 0;
    ir_matrix_dims(in->sub, &m, &n, &k);
    unsigned rows = in->frag == IR_FRAG_B ? k : m, cols = in->frag == IR_FRAG_A ? k : n;
    int col_major = (in->mods & IR_MOD_COL) != 0;
    int stride_slot = in->op == IR_WMMA_STORE ? 2 : 1;
    uint64_t tmp[LANES];
    const uint64_t *stride = in->src[stride_slot].kind ? warp_src(w, x, stride_slot, tmp) : NULL;
    unsigned bytes = ir_type_bits(t) / 8;
    for (unsigned l = 0; l < LANES; l++) {
        unsigned r, c;
        alu_mma_coord(in, in->frag, t, l, e, &r, &c);
        uint64_t ld = stride ? (uint32_t)stride[l] : (col_major ? rows : cols);
        uint64_t index = col_major ? (uint64_t)c * ld + r : (uint64_t)r * ld + c;
        out[l] = base[l] + index * bytes;
    }
}

/* Moves `n` elements starting at element e0 of every lane as one access of n * bytes per lane
 * when they are adjacent in memory for every lane; returns 1 when it did (or faulted: *failed). */
static int move_run(exec_warp *w, const exec_xinsn *x, const uint64_t *base, unsigned e0,
                    unsigned n, uint64_t regs[LANES][FRAG_REGS], int store, int *failed)
{
    ir_type t = (ir_type)x->in->type;
    unsigned bytes = ir_type_bits(t) / 8;
    uint64_t first[LANES], next[LANES];
    element_addresses(w, x, base, e0, first);
    for (unsigned e = 1; e < n; e++) {
        element_addresses(w, x, base, e0 + e, next);
        for (unsigned l = 0; l < LANES; l++)
            if (next[l] != first[l] + (uint64_t)e * bytes)
                return 0;
    }
    mem_access *acc = prepare(w, x, store ? MEM_OP_STORE : MEM_OP_LOAD, FULL_MASK, n * bytes);
    memcpy(acc->addr, first, sizeof first);
    acc->space = x->in->mem.space;
    unsigned per = bytes == 8 ? 1 : 4 / bytes; /* elements per fragment register */
    for (unsigned l = 0; store && l < LANES; l++)
        for (unsigned e = 0; e < n; e++) {
            unsigned idx = e0 + e;
            uint64_t v = regs[l][idx / per] >> ((idx % per) * bytes * 8);
            memcpy(acc->data[l] + e * bytes, &v, bytes);
        }
    if (exec_mem_access(w, x, acc) != 0) {
        *failed = 1;
        return 1;
    }
    for (unsigned l = 0; !store && l < LANES; l++)
        for (unsigned e = 0; e < n; e++) {
            unsigned idx = e0 + e, shift = (idx % per) * bytes * 8;
            uint64_t v = 0, mask = bytes == 8 ? ~0ull : ((1ull << (bytes * 8)) - 1) << shift;
            memcpy(&v, acc->data[l] + e * bytes, bytes);
            regs[l][idx / per] = (regs[l][idx / per] & ~mask) | (v << shift);
        }
    return 1;
}

static void wmma_move(exec_warp *w, const exec_xinsn *x, int store)
{
    const ir_insn *in = x->in;
    const ir_operand *frag = store ? &in->src[1] : &in->dst[0];
    ir_type t = (ir_type)in->type;
    unsigned bytes = ir_type_bits(t) / 8, per = bytes == 8 ? 1 : 4 / bytes;
    uint64_t base[LANES], regs[LANES][FRAG_REGS];
    memset(regs, 0, sizeof regs);
    if (store)
        gather_regs(w, frag, regs);
    exec_mem_addresses(w, &x->in->src[0], (ir_space)x->in->mem.space, x->aux, base);
    int failed = 0;
    for (unsigned i = 0; i < frag->count && !failed; i++) {
        if (move_run(w, x, base, i * per, per, regs, store, &failed))
            continue;
        for (unsigned e = 0; e < per && !failed; e++)
            move_run(w, x, base, i * per + e, 1, regs, store, &failed);
    }
    if (!store && !failed)
        scatter_regs(w, frag, regs);
}

/* ---- mma.sync, wmma.mma ---- */
/* The whole matrix of fragment frag (row-major, rows x cols) from the lanes' registers; with
 * wmma, an element several lanes hold is read from the first of them. */
static void gather_matrix(exec_warp *w, const ir_insn *in, const ir_operand *o, unsigned frag,
                          ir_type t, double *out)
{
    uint64_t regs[LANES][FRAG_REGS];
    uint8_t seen[MAX_ELEMS];
    memset(regs, 0, sizeof regs); /* registers the vector does not name read as 0 */
    gather_regs(w, o, regs);
    memset(seen, 0, sizeof seen);
    unsigned rows, cols, per_lane = alu_mma_elements(in, frag, t);
    alu_mma_dims(in, frag, &rows, &cols);
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned e = 0; e < per_lane; e++) {
            unsigned r, c;
            alu_mma_coord(in, frag, t, l, e, &r, &c);
            if (seen[r * cols + c])
                continue;
            seen[r * cols + c] = 1;
            out[r * cols + c] = alu_mma_read(t, regs[l], e);
        }
}

static void multiply(exec_warp *w, const exec_xinsn *x)
{
    const ir_insn *in = x->in;
    double a[MAX_ELEMS], b[MAX_ELEMS], c[MAX_ELEMS], d[MAX_ELEMS];
    gather_matrix(w, in, &in->src[0], IR_FRAG_A, (ir_type)in->type2, a);
    gather_matrix(w, in, &in->src[1], IR_FRAG_B, (ir_type)in->type_b, b);
    gather_matrix(w, in, &in->src[2], IR_FRAG_C, (ir_type)in->type_c, c);
    alu_mma_multiply(in, a, b, c, d);
    ir_type t = (ir_type)in->type;
    unsigned rows, n, per_lane = alu_mma_elements(in, IR_FRAG_D, t);
    alu_mma_dims(in, IR_FRAG_D, &rows, &n);
    uint64_t regs[LANES][FRAG_REGS];
    memset(regs, 0, sizeof regs);
    int sat = (in->mods & IR_MOD_SATFINITE) != 0;
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned e = 0; e < per_lane; e++) {
            unsigned r, col;
            alu_mma_coord(in, IR_FRAG_D, t, l, e, &r, &col);
            alu_mma_write(t, regs[l], e, d[r * n + col], sat);
        }
    scatter_regs(w, &in->dst[0], regs);
}

void exec_h_matrix(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask) /* a guard false for every lane: nothing happens */
        return;
    if (fault_partial(w, x, mask) != 0)
        return;
    switch ((ir_opcode)x->in->op) {
    case IR_LDMATRIX: ldst_matrix(w, x, 0); break;
    case IR_STMATRIX: ldst_matrix(w, x, 1); break;
    case IR_WMMA_LOAD: wmma_move(w, x, 0); break;
    case IR_WMMA_STORE: wmma_move(w, x, 1); break;
    default: multiply(w, x); break;
    }
}

/* The BULK family (ir_ops.def "bulk copies"): cp.async.bulk between global memory and the CTA's
 * shared memory, its tensor form through a tensor map (tensor_map.h), the reductions into
 * global memory, the prefetches into the L2, bulk groups and the proxy fence
 * (docs/semantics.md, "Bulk copies and tensor maps").
 *
 * A copy is performed when its thread issues it, in issue order: the source is read, the
 * destination written and, for a copy into shared memory, the mbarrier's tx-count completed,
 * all before the next instruction. So a bulk group is complete as soon as it is committed, a
 * wait_group never waits and a proxy fence has nothing to order: the async proxy's accesses go
 * through the same caches as every other (global data at the L2, around the SM's L1, whose copy
 * of a written line is dropped). Every lane that executes the instruction makes its own copy,
 * lowest lane first. What a copy moves is counted like any access, by the instruction: the
 * global side in 16-byte pieces (smaller where an address or size asks), each access within one
 * aligned block of 32 pieces so that no sector is counted twice; the shared side as shared
 * accesses of 32 such pieces, with their wavefronts. */
#include <stdlib.h>

#include "exec/exec_internal.h"
#include "exec/exec_mbarrier.h"
#include "exec/mbarrier_word.h"
#include "exec/tensor_map.h"

/* The access every transfer of one instruction shares: its attributes and policy. */
typedef struct bulk_io {
    ir_mem_attrs global; /* the instruction's, with the bulk path's L1 behaviour */
    ir_mem_attrs shared;
    uint64_t policy;
} bulk_io;

/* The largest piece (16, 8, 4, 2 or 1 bytes) that divides both an address and a length. */
static uint32_t piece_bytes(uint64_t addr, uint64_t len)
{
    uint32_t p = 16;
    while (p > 1 && ((addr | len) & (p - 1)))
        p >>= 1;
    return p;
}

static void access_init(exec_warp *w, const exec_xinsn *x, mem_access *acc, mem_op op,
                        ir_space space, const ir_mem_attrs *attrs, uint64_t policy, uint32_t p)
{
    acc->op = (uint8_t)op;
    acc->space = (uint8_t)space;
    acc->elem_bytes = (uint8_t)p;
    acc->vec = 1;
    acc->insn_id = x->in->id;
    acc->time = 0;
    acc->attrs = attrs;
    acc->policy = policy;
    acc->window_errors = w->run->prog->module->machine.window_errors;
}

/* Moves [addr, addr + len) of `space` to or from buf: loads fill buf, stores write it, atomics
 * (reductions of elements of `p` bytes) apply it. Returns 0, or -1 after a fault. */
static int transfer(exec_warp *w, const exec_xinsn *x, mem_op op, ir_space space,
                    const ir_mem_attrs *attrs, uint64_t policy, uint64_t addr, uint64_t len,
                    uint8_t *buf, uint32_t p, ir_type atom_type)
{
    mem_access *acc = &w->run->acc;
    uint64_t block = (uint64_t)p * LANES;
    for (uint64_t done = 0; done < len;) {
        uint64_t a = addr + done, chunk = block - a % block;
        if (chunk > len - done)
            chunk = len - done;
        uint32_t n = (uint32_t)(chunk / p);
        access_init(w, x, acc, op, space, attrs, policy, p);
        acc->active = n == LANES ? FULL_MASK : (1u << n) - 1;
        for (uint32_t i = 0; i < n; i++) {
            acc->addr[i] = a + (uint64_t)i * p;
            if (op != MEM_OP_LOAD)
                memcpy(acc->data[i], buf + done + (uint64_t)i * p, p);
            if (op == MEM_OP_ATOMIC) {
                acc->operand_b[i] = 0;
                memcpy(&acc->operand_b[i], buf + done + (uint64_t)i * p, p);
            }
        }
        if (op == MEM_OP_ATOMIC) {
            acc->atom_op = x->in->sub;
            acc->atom_type = (uint8_t)atom_type;
            acc->atom_mods = x->in->mods;
            acc->atom_returns = 0;
            acc->atom_fn = alu_atom_apply;
        }
        if (exec_mem_access(w, x, acc) != 0)
            return -1;
        if (op == MEM_OP_LOAD)
            for (uint32_t i = 0; i < n; i++) memcpy(buf + done + (uint64_t)i * p, acc->data[i], p);
        done += chunk;
    }
    return 0;
}

static int global_side(exec_warp *w, const exec_xinsn *x, const bulk_io *io, mem_op op,
                       uint64_t addr, uint64_t len, uint8_t *buf)
{
    return transfer(w, x, op, IR_SPACE_GLOBAL, &io->global, io->policy, addr, len, buf,
                    piece_bytes(addr, len), IR_T_NONE);
}

static int shared_side(exec_warp *w, const exec_xinsn *x, const bulk_io *io, mem_op op,
                       uint64_t offset, uint64_t len, uint8_t *buf)
{
    return transfer(w, x, op, IR_SPACE_SHARED, &io->shared, 0, offset, len, buf,
                    piece_bytes(offset, len), IR_T_NONE);
}

/* Completes `bytes` of the tx-count of the mbarrier at shared offset `offset` (as
 * exec_mbarrier_offsets gives it): the copy's completion mechanism, through the mbarrier
 * family's helper (exec_mbarrier.h), which faults with EXEC-MBAR-* when the barrier refuses.
 * The bytes fit: a copy into shared memory is at most the CTA's shared memory, below 2^20. */
static int complete_tx(exec_warp *w, const exec_xinsn *x, uint32_t lane, uint32_t offset,
                       uint64_t bytes)
{
    return exec_mbarrier_complete_tx(w, x, lane, offset,
                                     bytes > MBAR_COUNT_MAX ? MBAR_COUNT_MAX + 1u : (uint32_t)bytes);
}

static int check_aligned(exec_warp *w, const exec_xinsn *x, uint32_t lane, uint64_t dst,
                         uint64_t src, uint64_t size)
{
    if (!((dst | src | size) % 16))
        return 0;
    warp_fault(w, x, lane, "EXEC-BULK-001", "bulk copy of %llu bytes from 0x%llx to 0x%llx: "
               "addresses and size must be multiples of 16", (unsigned long long)size,
               (unsigned long long)src, (unsigned long long)dst);
    return -1;
}

/* The 32 lanes of a plain address operand; shared addresses are 32-bit window offsets, so
 * [reg + imm] wraps modulo 2^32 as PTX's 32-bit address arithmetic does. */
static void addresses(exec_warp *w, const ir_operand *o, ir_space space, uint64_t *out)
{
    exec_mem_addresses(w, o, space, 0, out);
    if (space == IR_SPACE_SHARED)
        for (unsigned l = 0; l < LANES; l++) out[l] &= 0xFFFFFFFFu;
}

/* A register or immediate source operand in one lane. */
static uint64_t lane_value(const exec_warp *w, const ir_operand *o, uint32_t lane)
{
    return o->kind == IR_OPND_REG ? w->regs[(size_t)o->reg * LANES + lane] : (uint64_t)o->imm;
}

/* Element k of a VEC source in one lane: a register, or an immediate element (32 bits each). */
static uint64_t vec_elem(const exec_warp *w, const ir_operand *o, unsigned k, uint32_t lane)
{
    if (o->vregs[k] == IR_REG_IMM)
        return (uint64_t)o->imm >> (32 * k) & 0xFFFFFFFFu;
    return w->regs[(size_t)o->vregs[k] * LANES + lane];
}

static void io_init(bulk_io *io, const ir_insn *in, uint64_t policy, int has_policy)
{
    io->global = in->mem;
    io->global.space = IR_SPACE_GLOBAL;
    io->global.l1 = IR_L1_BYPASS;
    io->global.write_mode = IR_WRITE_BYPASS_L1;
    io->global.has_policy = (uint8_t)has_policy;
    memset(&io->shared, 0, sizeof io->shared);
    io->shared.space = IR_SPACE_SHARED;
    io->shared.vec = 1;
    io->policy = policy;
}

/* cp.async.bulk (and cp.reduce.async.bulk) of one lane. */
static int copy_lane(exec_warp *w, const exec_xinsn *x, uint32_t l, const uint64_t *const *a,
                     const uint32_t *mbar)
{
    const ir_insn *in = x->in;
    int reduce = in->op == IR_BULK_REDUCE;
    int to_shared = !reduce && in->sub == IR_BULK_TO_SHARED;
    const ir_operand *size_op = &in->src[2];
    uint64_t size, policy = 0;
    int has_policy = reduce ? in->mem.has_policy : size_op->kind == IR_OPND_VEC;
    if (size_op->kind == IR_OPND_VEC) {
        size = vec_elem(w, size_op, 0, l);
        policy = vec_elem(w, size_op, 1, l);
    } else {
        size = (uint32_t)lane_value(w, size_op, l);
        if (reduce && has_policy)
            policy = lane_value(w, &in->src[3], l);
    }
    if (check_aligned(w, x, l, a[0][l], a[1][l], size) != 0)
        return -1;
    bulk_io io;
    io_init(&io, in, policy, has_policy);
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-001", "out of memory for a %llu-byte bulk copy",
                 (unsigned long long)size);
        return -1;
    }
    int rc;
    if (to_shared)
        rc = global_side(w, x, &io, MEM_OP_LOAD, a[1][l], size, buf) ||
             shared_side(w, x, &io, MEM_OP_STORE, a[0][l], size, buf) ||
             complete_tx(w, x, l, mbar[l], size);
    else
        rc = shared_side(w, x, &io, MEM_OP_LOAD, a[1][l], size, buf) ||
             (reduce ? transfer(w, x, MEM_OP_ATOMIC, IR_SPACE_GLOBAL, &io.global, io.policy,
                                a[0][l], size, buf, ir_type_bits((ir_type)in->type) / 8,
                                (ir_type)in->type)
                     : global_side(w, x, &io, MEM_OP_STORE, a[0][l], size, buf));
    free(buf);
    return rc ? -1 : 0;
}

/* cp.async.bulk.prefetch.L2 of one lane: a prefetch into the L2 of every line the range
 * touches, 32 lines an access. */
static int prefetch_lane(exec_warp *w, const exec_xinsn *x, uint32_t l, uint64_t addr,
                         uint64_t size, uint64_t policy)
{
    ir_mem_attrs attrs = x->in->mem;
    attrs.cctl = IR_CCTL_PREFETCH;
    attrs.cctl_levels = IR_LEVEL_L2;
    attrs.cctl_lines = IR_LINES_GLOBAL;
    if (check_aligned(w, x, l, 0, addr, size) != 0 || size == 0)
        return size == 0 ? 0 : -1;
    mem_access *acc = &w->run->acc;
    uint64_t first = addr / 128, last = (addr + size - 1) / 128;
    for (uint64_t line = first; line <= last; line += LANES) {
        uint32_t n = last - line + 1 < LANES ? (uint32_t)(last - line + 1) : LANES;
        access_init(w, x, acc, MEM_OP_CACHE_CONTROL, IR_SPACE_GLOBAL, &attrs, policy, 1);
        acc->active = n == LANES ? FULL_MASK : (1u << n) - 1;
        for (uint32_t i = 0; i < n; i++) acc->addr[i] = (line + i) * 128;
        if (exec_mem_access(w, x, acc) != 0)
            return -1;
    }
    return 0;
}

/* ---- tensor copies ---- */

/* One copy of a box: the map, the box's first element and its shape in elements. */
typedef struct box_walk {
    tensor_map map;
    int64_t start[TENSOR_MAP_MAX_RANK]; /* the coordinates of the box's first element */
    uint32_t n[TENSOR_MAP_MAX_RANK];    /* elements per dimension: ceil(box / elem stride) */
    uint32_t esize;
    uint64_t bytes;                     /* the box in shared memory */
} box_walk;

/* Reads and decodes lane l's tensor map and coordinates (src[vec] of the instruction). */
static int box_init(exec_warp *w, const exec_xinsn *x, uint32_t l, const ir_operand *t,
                    box_walk *b)
{
    uint8_t raw[TENSOR_MAP_BYTES];
    uint64_t at = vec_elem(w, t, 0, l);
    const char *bad = memsys_peek(w->run->ms, &w->mctx, l, at, raw, sizeof raw) != 0
                          ? "its 128 bytes are not readable"
                          : tensor_map_decode(raw, &b->map);
    if (!bad && b->map.rank != t->count - 1u)
        bad = "its rank differs from the instruction's dimension";
    if (bad) {
        warp_fault(w, x, l, "EXEC-BULK-002", "the tensor map at 0x%llx: %s",
                   (unsigned long long)at, bad);
        return -1;
    }
    b->esize = tensor_map_elem_bytes(b->map.type);
    b->bytes = tensor_map_box_bytes(&b->map);
    for (unsigned d = 0; d < TENSOR_MAP_MAX_RANK; d++) {
        int used = d < b->map.rank;
        b->start[d] = used ? (int32_t)(uint32_t)vec_elem(w, t, d + 1, l) : 0;
        b->n[d] = used ? (b->map.box[d] + b->map.elem_strides[d] - 1) / b->map.elem_strides[d]
                       : 1;
        if (!used) {
            b->map.dims[d] = 1;
            b->map.elem_strides[d] = 1;
        }
    }
    return 0;
}

/* The byte permutation of a swizzled box (CUtensorMapSwizzle): the 16-byte unit index inside
 * each row of the span is XORed with the row's index within the pattern (bits 7..9 of the
 * offset for 128B, 7..8 for 64B, 7 for 32B). Rows are exactly the span wide
 * (docs/semantics.md), so the permutation stays inside the box. */
static uint64_t swizzle(uint8_t mode, uint64_t off)
{
    static const uint64_t mask[] = {0, 1, 3, 7};
    return off ^ (((off >> 7) & mask[mode & 3]) << 4);
}

/* Calls fn for every run of in-bounds elements along dimension 0: its global address, its
 * bytes and its offset in the (unswizzled) box. Returns fn's first non-zero result. */
typedef int (*run_fn)(exec_warp *w, const exec_xinsn *x, void *ctx, uint64_t addr,
                      uint64_t bytes, uint64_t box_off);
static int box_runs(exec_warp *w, const exec_xinsn *x, const box_walk *b, run_fn fn, void *ctx)
{
    const tensor_map *m = &b->map;
    uint64_t rows = (uint64_t)b->n[1] * b->n[2] * b->n[3] * b->n[4];
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t rest = r, row_addr = m->address, row_off = r * b->n[0] * b->esize;
        int inside = 1;
        for (unsigned d = 1; d < TENSOR_MAP_MAX_RANK; d++) {
            int64_t g = b->start[d] + (int64_t)(rest % b->n[d]) * m->elem_strides[d];
            rest /= b->n[d];
            inside &= g >= 0 && (uint64_t)g < m->dims[d];
            row_addr += (uint64_t)g * m->strides[d];
        }
        if (!inside)
            continue;
        for (uint32_t j = 0; j < b->n[0];) {
            int64_t g = b->start[0] + (int64_t)j * m->elem_strides[0];
            if (g < 0 || (uint64_t)g >= m->dims[0]) {
                j++;
                continue;
            }
            uint32_t k = j + 1; /* a run: consecutive in-bounds elements, contiguous in memory */
            while (m->elem_strides[0] == 1 && k < b->n[0] && (uint64_t)(g + (k - j)) < m->dims[0])
                k++;
            int rc = fn(w, x, ctx, row_addr + (uint64_t)g * b->esize, (uint64_t)(k - j) * b->esize,
                        row_off + (uint64_t)j * b->esize);
            if (rc)
                return rc;
            j = k;
        }
    }
    return 0;
}

typedef struct run_ctx {
    const bulk_io *io;
    mem_op op;
    uint8_t *box;
    ir_type atom_type;
} run_ctx;

static int run_transfer(exec_warp *w, const exec_xinsn *x, void *ctx, uint64_t addr,
                        uint64_t bytes, uint64_t box_off)
{
    const run_ctx *c = ctx;
    if (c->op == MEM_OP_CACHE_CONTROL) {
        mem_access *acc = &w->run->acc;
        const ir_mem_attrs *attrs = &c->io->shared; /* the prefetch's attributes */
        for (uint64_t line = addr / 128; line <= (addr + bytes - 1) / 128; line++) {
            access_init(w, x, acc, MEM_OP_CACHE_CONTROL, IR_SPACE_GLOBAL, attrs, c->io->policy, 1);
            acc->active = 1;
            acc->addr[0] = line * 128;
            if (exec_mem_access(w, x, acc) != 0)
                return -1;
        }
        return 0;
    }
    uint32_t p = c->op == MEM_OP_ATOMIC ? ir_type_bits(c->atom_type) / 8 : piece_bytes(addr, bytes);
    return transfer(w, x, c->op, IR_SPACE_GLOBAL, &c->io->global, c->io->policy, addr, bytes,
                    c->box + box_off, p, c->atom_type);
}

/* The value an out-of-bounds element reads: zero, or with the NaN fill a quiet NaN of the
 * element's format (all exponent and mantissa bits set). */
static void fill_oob(const box_walk *b, uint8_t *box)
{
    uint64_t nan = 0;
    if (b->map.oob_fill == TMAP_OOB_NAN)
        nan = b->esize == 8 ? 0x7FFFFFFFFFFFFFFFull : b->esize == 4 ? 0x7FFFFFFFull : 0x7FFFu;
    for (uint64_t o = 0; o < b->bytes; o += b->esize) memcpy(box + o, &nan, b->esize);
}

static ir_type atom_type_of(unsigned type)
{
    static const uint8_t t[TMAP_TYPE_COUNT] = {
        IR_T_U8, IR_T_U16, IR_T_U32, IR_T_S32, IR_T_U64, IR_T_S64, IR_T_F16, IR_T_F32, IR_T_F64,
        IR_T_BF16, IR_T_F32, IR_T_F32, IR_T_F32};
    return type < TMAP_TYPE_COUNT ? (ir_type)t[type] : IR_T_NONE;
}

/* One lane's tensor copy: load (box into shared memory, then complete_tx), store or reduction
 * (box from shared memory, in-bounds elements only), or prefetch into the L2. */
static int tensor_lane(exec_warp *w, const exec_xinsn *x, uint32_t l, const uint64_t *shared,
                       const uint32_t *mbar, box_walk *b)
{
    const ir_insn *in = x->in;
    int reduce = in->op == IR_BULK_REDUCE;
    const ir_operand *t = reduce ? &in->src[0] : &in->src[1];
    if (box_init(w, x, l, t, b) != 0)
        return -1;
    uint64_t policy = in->mem.has_policy ? lane_value(w, &in->src[3], l) : 0;
    bulk_io io;
    io_init(&io, in, policy, in->mem.has_policy);
    static const uint16_t fill[] = {0, 64, 128, 256};
    io.global.fill_bytes = fill[b->map.l2_promotion & 3];
    run_ctx rc = {&io, MEM_OP_LOAD, NULL, atom_type_of(b->map.type)};
    if (!reduce && in->sub == IR_BULK_TO_L2) {
        io.shared = in->mem; /* the prefetch's attributes travel in io.shared */
        io.shared.cctl = IR_CCTL_PREFETCH;
        io.shared.cctl_levels = IR_LEVEL_L2;
        io.shared.cctl_lines = IR_LINES_GLOBAL;
        rc.op = MEM_OP_CACHE_CONTROL;
        return box_runs(w, x, b, run_transfer, &rc);
    }
    uint64_t soff = shared[l];
    if (soff % 128 || b->bytes > w->mctx.shared_bytes) {
        warp_fault(w, x, l, "EXEC-BULK-001", "tensor copy of a %llu-byte box at shared offset "
                   "0x%llx: the box must start on a 128-byte boundary and fit the CTA's shared "
                   "memory", (unsigned long long)b->bytes, (unsigned long long)soff);
        return -1;
    }
    uint8_t *box = malloc(b->bytes), *swz = malloc(b->bytes);
    int err = !box || !swz;
    if (err)
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-001", "out of memory for a %llu-byte tensor "
                 "box", (unsigned long long)b->bytes);
    rc.box = box;
    if (!err && !reduce && in->sub == IR_BULK_TO_SHARED) {
        fill_oob(b, box);
        err = box_runs(w, x, b, run_transfer, &rc) != 0;
        for (uint64_t o = 0; !err && o < b->bytes; o += 16)
            memcpy(swz + swizzle(b->map.swizzle, o), box + o, 16);
        err = err || shared_side(w, x, &io, MEM_OP_STORE, soff, b->bytes, swz) ||
              complete_tx(w, x, l, mbar[l], b->bytes);
    } else if (!err) {
        err = shared_side(w, x, &io, MEM_OP_LOAD, soff, b->bytes, swz) != 0;
        for (uint64_t o = 0; !err && o < b->bytes; o += 16)
            memcpy(box + o, swz + swizzle(b->map.swizzle, o), 16);
        rc.op = reduce ? MEM_OP_ATOMIC : MEM_OP_STORE;
        err = err || box_runs(w, x, b, run_transfer, &rc) != 0;
    }
    free(box);
    free(swz);
    return err ? -1 : 0;
}

static void bulk_tensor(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint64_t shared[LANES] = {0};
    uint32_t mbar[LANES] = {0};
    int reduce = in->op == IR_BULK_REDUCE;
    if (reduce || in->sub != IR_BULK_TO_L2)
        addresses(w, &in->src[reduce ? 1 : 0], IR_SPACE_SHARED, shared);
    if (!reduce && in->sub == IR_BULK_TO_SHARED &&
        exec_mbarrier_offsets(w, x, &in->src[2], IR_SPACE_SHARED, mask, mbar) != 0)
        return;
    box_walk b;
    for (uint32_t m = mask; m; m &= m - 1)
        if (tensor_lane(w, x, (uint32_t)__builtin_ctz(m), shared, mbar, &b) != 0)
            return;
}

void exec_h_bulk(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    /* Copies complete when issued: commit_group, wait_group and fence.proxy have nothing left
     * to do (see the top of the file). */
    if (!mask || in->op == IR_BULK_COMMIT || in->op == IR_BULK_WAIT || in->op == IR_FENCE_PROXY)
        return;
    if (in->op == IR_BULK_TENSOR || (in->op == IR_BULK_REDUCE && in->src[0].kind == IR_OPND_VEC)) {
        bulk_tensor(w, x, mask);
        return;
    }
    uint64_t a0[LANES], a1[LANES];
    uint32_t mbar[LANES] = {0};
    const uint64_t *a[2] = {a0, a1};
    if (in->op == IR_BULK_PREFETCH) {
        addresses(w, &in->src[0], IR_SPACE_GLOBAL, a0);
        uint64_t t1[LANES], t2[LANES];
        const uint64_t *size = warp_src(w, x, 1, t1);
        const uint64_t *pol = in->mem.has_policy ? warp_src(w, x, 2, t2) : NULL;
        for (uint32_t m = mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            if (prefetch_lane(w, x, l, a0[l], (uint32_t)size[l], pol ? pol[l] : 0) != 0)
                return;
        }
        return;
    }
    int to_shared = in->op == IR_BULK_COPY && in->sub == IR_BULK_TO_SHARED;
    addresses(w, &in->src[0], to_shared ? IR_SPACE_SHARED : IR_SPACE_GLOBAL, a0);
    addresses(w, &in->src[1], to_shared ? IR_SPACE_GLOBAL : IR_SPACE_SHARED, a1);
    if (to_shared && exec_mbarrier_offsets(w, x, &in->src[3], IR_SPACE_SHARED, mask, mbar) != 0)
        return;
    for (uint32_t m = mask; m; m &= m - 1)
        if (copy_lane(w, x, (uint32_t)__builtin_ctz(m), a, mbar) != 0)
            return;
}

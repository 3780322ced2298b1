/* Preparing a module for execution: choosing each instruction's handler and ALU semantics,
 * broadcasting immediates, laying out parameter areas and frame-local variables, and rejecting
 * what the executor cannot run with a diagnostic that names it. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exec/exec_internal.h"
#include "exec/exec_mbarrier.h"

static uint32_t alu_aux(const ir_insn *in)
{
    const ir_operand *d = &in->dst[0];
    if (d->kind != IR_OPND_REG || d->reg == IR_REG_SINK || in->dst[1].kind != IR_OPND_NONE)
        return 0;
    for (int i = 0; i < 4; i++) {
        const ir_operand *o = &in->src[i];
        if (o->kind == IR_OPND_REG ? o->reg == d->reg
                                   : o->kind != IR_OPND_NONE && o->kind != IR_OPND_IMM &&
                                         o->kind != IR_OPND_PRED && o->kind != IR_OPND_SREG)
            return 0;
    }
    return ALU_AUX_DIRECT;
}

static void h_alu(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask) /* guarded off in every lane: no register, predicate or flag changes */
        return;
    const ir_insn *in = x->in;
    uint64_t t[4][LANES], out[LANES], out2[LANES], cin[LANES], cout[LANES];
    alu_args a;
    for (int i = 0; i < 4; i++)
        a.src[i] = in->src[i].kind ? warp_src(w, x, i, t[i]) : NULL;
    a.dst = out;
    a.dst2 = in->dst[1].kind ? out2 : NULL;
    a.carry_in = NULL;
    a.carry_out = NULL;
    if (in->flag_in) {
        uint32_t flag = w->flags[in->flag_in - 1];
        exec_mask_to_lanes(flag, cin);
        a.carry_in = cin;
    }
    if (in->flag_out)
        a.carry_out = cout;
    if (mask == FULL_MASK && (x->aux & ALU_AUX_DIRECT)) { /* no lane keeps its old value */
        a.dst = w->regs + (size_t)in->dst[0].reg * LANES;
        x->alu(in, &a);
    } else {
        x->alu(in, &a);
        warp_write_dst(w, &in->dst[0], out, mask, 64);
    }
    if (a.dst2)
        warp_write_dst(w, &in->dst[1], out2, mask, 64);
    if (a.carry_out) {
        uint32_t c = exec_lanes_to_mask(cout);
        uint32_t *flag = &w->flags[in->flag_out - 1];
        *flag = (*flag & ~mask) | (c & mask);
    }
}

/* The width exec_h_mov_sreg moves (32 or 64), or 0 when `in` is not such a move: mov (not a
 * vector one, which goes elsewhere) of one special-register source into a register, no flags, no
 * second destination, a 32- or 64-bit type (the widths whose lane function only truncates). */
static uint32_t mov_sreg(const ir_insn *in)
{
    unsigned bits = ir_type_bits((ir_type)in->type);
    if (in->op != IR_MOV || in->flag_in || in->flag_out || in->dst[0].kind != IR_OPND_REG ||
        in->dst[0].reg == IR_REG_SINK || in->dst[1].kind != IR_OPND_NONE ||
        in->src[0].kind != IR_OPND_SREG || (bits != 32 && bits != 64))
        return 0;
    for (int i = 1; i < 4; i++)
        if (in->src[i].kind != IR_OPND_NONE)
            return 0;
    return bits;
}

/* The opcode exec_h_pred_logic runs for `in` (IR_AND, IR_OR, IR_XOR or IR_NOT), or 0: a .pred
 * and/or/xor with two predicate sources or not with one, a predicate destination, no flags and
 * no second destination. */
static uint32_t pred_logic(const ir_insn *in)
{
    uint32_t nsrc = in->op == IR_NOT ? 1 : 2;
    if ((in->op != IR_AND && in->op != IR_OR && in->op != IR_XOR && in->op != IR_NOT) ||
        in->type != IR_T_PRED || in->flag_in || in->flag_out ||
        in->dst[0].kind != IR_OPND_PRED || in->dst[1].kind != IR_OPND_NONE)
        return 0;
    for (uint32_t i = 0; i < 4; i++)
        if (in->src[i].kind != (i < nsrc ? IR_OPND_PRED : IR_OPND_NONE))
            return 0;
    return in->op;
}

/* 1 when exec_h_alu_plain may run `in`: sources of kind none, register or immediate only, no flag
 * operands, dst[0] a register, no dst[1]. */
static int alu_plain(const ir_insn *in)
{
    if (in->flag_in || in->flag_out || in->dst[0].kind != IR_OPND_REG ||
        in->dst[0].reg == IR_REG_SINK || in->dst[1].kind != IR_OPND_NONE)
        return 0;
    for (int i = 0; i < 4; i++)
        if (in->src[i].kind != IR_OPND_NONE && in->src[i].kind != IR_OPND_REG &&
            in->src[i].kind != IR_OPND_IMM)
            return 0;
    return 1;
}

/* The setp instructions exec_h_setp_int runs, and its x->aux for them (0 when it does not): integer
 * types of 32 bits, the ordered operators, no combine operand, flags or modifiers, predicate
 * destinations, register or immediate sources. */
static uint32_t setp_int_aux(const ir_insn *in)
{
    static const uint8_t outcomes[IR_CMP_HS + 1] = {
        [IR_CMP_EQ] = 2, [IR_CMP_NE] = 5, [IR_CMP_LT] = 1, [IR_CMP_LE] = 3, [IR_CMP_GT] = 4,
        [IR_CMP_GE] = 6, [IR_CMP_LO] = 1, [IR_CMP_LS] = 3, [IR_CMP_HI] = 4, [IR_CMP_HS] = 6};
    ir_type t = (ir_type)in->type;
    if (in->op != IR_SETP || ir_type_bits(t) != 32 || ir_type_is_float(t) || t == IR_T_PRED ||
        in->cmp == IR_CMP_NONE || in->cmp > IR_CMP_HS || in->mods || in->flag_in ||
        in->flag_out || in->src[2].kind != IR_OPND_NONE || in->src[3].kind != IR_OPND_NONE ||
        in->dst[0].kind != IR_OPND_PRED ||
        (in->dst[1].kind != IR_OPND_NONE && in->dst[1].kind != IR_OPND_PRED))
        return 0;
    for (int i = 0; i < 2; i++)
        if (in->src[i].kind != IR_OPND_REG && in->src[i].kind != IR_OPND_IMM)
            return 0;
    int sgn = ir_type_is_signed(t) && in->cmp < IR_CMP_LO;
    uint32_t aux = outcomes[in->cmp] | (sgn ? 8u : 0);
    if (in->src[0].kind == IR_OPND_IMM && in->src[1].kind == IR_OPND_IMM) {
        uint32_t bias = sgn ? 0x80000000u : 0;
        uint32_t u = (uint32_t)in->src[0].imm ^ bias, v = (uint32_t)in->src[1].imm ^ bias;
        unsigned outcome = u < v ? 1u : u == v ? 2u : 4u;
        aux |= 16u | ((aux & outcome) ? 32u : 0);
    }
    return aux;
}

/* mov with a vector operand: pack elements into one register or unpack one into elements;
 * element 0 is the least significant part. */
static void h_mov_vec(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    const ir_operand *d = &in->dst[0], *s = &in->src[0];
    unsigned count = d->kind == IR_OPND_VEC ? d->count : s->count;
    unsigned eb = ir_type_bits((ir_type)in->type) / count;
    uint64_t emask = eb >= 64 ? ~0ull : (1ull << eb) - 1;
    uint64_t tmp[LANES], out[LANES];
    if (d->kind == IR_OPND_VEC) {
        const uint64_t *v = warp_src(w, x, 0, tmp);
        for (unsigned e = 0; e < count; e++) {
            if (d->vregs[e] == IR_REG_SINK)
                continue;
            for (unsigned l = 0; l < LANES; l++) out[l] = (v[l] >> (e * eb)) & emask;
            ir_operand r = {.kind = IR_OPND_REG, .reg = d->vregs[e]};
            warp_write_dst(w, &r, out, mask, eb);
        }
    } else {
        memset(out, 0, sizeof out);
        for (unsigned e = 0; e < count; e++) {
            if (s->vregs[e] == IR_REG_IMM) { /* immediate element: its bits are in s->imm */
                uint64_t part = (((uint64_t)s->imm >> (e * eb)) & emask) << (e * eb);
                for (unsigned l = 0; l < LANES; l++) out[l] |= part;
                continue;
            }
            const uint64_t *v = w->regs + (size_t)s->vregs[e] * LANES;
            for (unsigned l = 0; l < LANES; l++) out[l] |= (v[l] & emask) << (e * eb);
        }
        warp_write_dst(w, d, out, mask, 64);
    }
}

/* The handler of each family of ir_ops.def (its family column), in one place. ALU and MOV have
 * no fixed handler: their lane function comes from alu_lookup (choose_handler). `mem_aux`: the
 * handler reads exec_mem_decode_aux's flags in exec_xinsn.aux. */
static const struct {
    exec_handler fn;
    uint8_t mem_aux;
} family_handlers[IR_FAM_COUNT] = {
#define FAMILY(name, handler, mem_aux) [IR_FAM_##name] = {handler, mem_aux},
    FAMILY(ALU, h_alu, 0)
    FAMILY(MOV, h_alu, 0)
    FAMILY(CVTA, exec_h_cvta, 0)
    FAMILY(POLICY, exec_h_createpolicy, 0)
    FAMILY(LD, exec_h_ld, 1)
    FAMILY(ST, exec_h_st, 1)
    FAMILY(ATOM, exec_h_atom, 1)
    FAMILY(CACHE, exec_h_prefetch, 1)
    FAMILY(BRA, exec_h_bra, 0)
    FAMILY(BRX, exec_h_brx, 0)
    FAMILY(CALL, exec_h_call, 0)
    FAMILY(RET, exec_h_ret, 0)
    FAMILY(EXIT, exec_h_exit, 0)
    FAMILY(TRAP, exec_h_trap, 0)
    FAMILY(NOP, exec_h_nop, 0)
    FAMILY(BAR, exec_h_bar, 0)
    FAMILY(BAR_WARP, exec_h_bar_warp, 0)
    FAMILY(FENCE, exec_h_fence, 0)
    FAMILY(SHFL, exec_h_shfl, 0)
    FAMILY(VOTE, exec_h_vote, 0)
    FAMILY(MATCH, exec_h_match, 0)
    FAMILY(REDUX, exec_h_redux, 0)
    FAMILY(ACTIVEMASK, exec_h_activemask, 0)
    FAMILY(CRS, exec_h_crs, 0)
    FAMILY(IMAGE, exec_h_image, 0)
    FAMILY(TEXTURE, exec_h_texture, 0)
    FAMILY(MATRIX, exec_h_matrix, 1)
    FAMILY(ASYNC, exec_h_async, 0)
    FAMILY(MBARRIER, exec_h_mbarrier, 0)
    FAMILY(BULK, exec_h_bulk, 0)
#undef FAMILY
};

exec_handler exec_family_handler(ir_family family)
{
    return family < IR_FAM_COUNT ? family_handlers[family].fn : NULL;
}

/* Fills x->fn (NULL when the executor cannot run `in`), x->alu and x->aux from the family column.
 * Only here, at decode time: the instruction loop calls x->fn and never looks at the table. */
static void choose_handler(exec_xinsn *x, const ir_module *m, const ir_func *fn,
                           const ir_insn *in)
{
    const ir_op_info *info = ir_op_info_of((ir_opcode)in->op);
    ir_family family = info ? (ir_family)info->family : IR_FAM_COUNT;
    x->is_ctrl = info && info->flow != IR_FLOW_NONE;
    if (family == IR_FAM_MOV &&
        (in->dst[0].kind == IR_OPND_VEC || in->src[0].kind == IR_OPND_VEC)) {
        x->fn = h_mov_vec;
    } else if (family == IR_FAM_ALU || family == IR_FAM_MOV) {
        x->alu = alu_lookup(in);
        x->fn = x->alu ? h_alu : NULL;
        if (x->alu && (x->aux = setp_int_aux(in)) != 0)
            x->fn = exec_host_avx2() ? exec_h_setp_int_avx2 : exec_h_setp_int;
        else if (x->alu && (x->aux = mov_sreg(in)) != 0)
            x->fn = exec_h_mov_sreg;
        else if (x->alu && (x->aux = pred_logic(in)) != 0)
            x->fn = exec_h_pred_logic;
        else if (x->alu) {
            x->aux = alu_aux(in);
            if (alu_plain(in))
                x->fn = exec_host_avx2() ? exec_h_alu_plain_avx2 : exec_h_alu_plain;
        }
    } else if (family < IR_FAM_COUNT) {
        x->fn = family_handlers[family].fn;
        if (family_handlers[family].mem_aux)
            x->aux = exec_mem_decode_aux(&m->machine, fn, in);
        if (family == IR_FAM_LD)
            x->fn = exec_ld_handler(x);
        if (family == IR_FAM_ASYNC)
            x->aux = exec_async_decode_aux(&m->machine, fn, in);
    }
}

/* exec_xinsn.serial for `in` of a module for machine k: everything but the families whose
 * handlers change only the warp, its CTA and the SM's own state (ALU, moves, branches and
 * returns, exit, CTA and warp barriers, warp-wide operations, address conversions, cache
 * policy descriptors, loads and stores), and any of those that reads the launch's clock. Other memory instructions, calls
 * (system calls reach printf and the device heap), the call-return stack (its backing store is
 * local memory) and the rest are serial (exec_window.c). */
static uint8_t insn_is_serial(const ir_machine *k, const ir_insn *in)
{
    const ir_op_info *info = ir_op_info_of((ir_opcode)in->op);
    ir_family family = info ? (ir_family)info->family : IR_FAM_COUNT;
    /* Loads (those that would reach the L2 park at run time: memsys_load_if_local) and stores
     * (their writes to the L2 wait in the SM's log: memsys_store_deferred) touch only the SM's
     * caches and shared memory, unless they fence or their lanes can have window errors (local
     * and shared lanes under IR_WINDOW_ZERO, which the launch's statistics record). */
    ir_space sp = (ir_space)in->mem.space;
    int window_lanes = k->window_errors == IR_WINDOW_ZERO &&
                       (sp == IR_SPACE_SHARED || sp == IR_SPACE_LOCAL || sp == IR_SPACE_GENERIC);
    if (!in->mem.fence && !window_lanes &&
        (family == IR_FAM_LD || family == IR_FAM_ST))
        return 0;
    switch (family) {
    case IR_FAM_ALU: case IR_FAM_MOV: case IR_FAM_BRA: case IR_FAM_BRX: case IR_FAM_RET:
    case IR_FAM_EXIT: case IR_FAM_NOP: case IR_FAM_BAR: case IR_FAM_BAR_WARP: case IR_FAM_SHFL:
    case IR_FAM_VOTE: case IR_FAM_MATCH: case IR_FAM_REDUX: case IR_FAM_ACTIVEMASK:
    case IR_FAM_CVTA: case IR_FAM_POLICY:
        break;
    default:
        return 1;
    }
    for (int s = 0; s < 4; s++)
        if (in->src[s].kind == IR_OPND_SREG && in->src[s].reg >= IR_SREG_CLOCK &&
            in->src[s].reg <= IR_SREG_GLOBALTIMER_HI)
            return 1;
    return 0;
}

/* 1 when space `sp` is one of an SM's own: its CTAs' shared memory, the constant and parameter
 * spaces (read-only, cached in the SM). Generic addresses may be global ones. */
static int space_of_sm(ir_space sp)
{
    return sp == IR_SPACE_SHARED || sp == IR_SPACE_CONST || sp == IR_SPACE_PARAM;
}

/* Width in bits of the source operands of an ALU instruction, for truncating immediates. */
static unsigned source_bits(const ir_insn *in, int i)
{
    ir_type t = (ir_type)in->type;
    if (in->op == IR_CVT || in->op == IR_SET)
        t = (ir_type)in->type2;
    if (in->op == IR_SLCT && i == 2)
        t = (ir_type)in->type2;
    if ((in->op == IR_SHL || in->op == IR_SHR || in->op == IR_BFE || in->op == IR_BFI) && i >= 1)
        return 32;
    unsigned bits = ir_type_bits(t);
    return bits == 0 || bits > 64 ? 64 : bits;
}

static void rename_operand(ir_operand *o, const uint32_t *slot_of, uint32_t nregs)
{
    if ((o->kind == IR_OPND_REG || (o->kind == IR_OPND_ADDR && o->has_reg)) && o->reg < nregs)
        o->reg = slot_of[o->reg];
    if (o->kind == IR_OPND_ADDR && o->has_reg && o->count == 2) { /* a register-pair base */
        for (unsigned e = 0; e < 2; e++)
            if (o->vregs[e] < nregs)
                o->vregs[e] = slot_of[o->vregs[e]];
    } else if (o->kind == IR_OPND_VEC) {
        for (unsigned e = 0; e < o->count && e < 8; e++)
            if (o->vregs[e] < nregs) /* not IR_REG_SINK or IR_REG_IMM */
                o->vregs[e] = slot_of[o->vregs[e]];
    }
}

/* Register r keeps slot r: a fixed register file of 32-bit registers (ir_machine.reg_bits 32,
 * SASS) is not shared by liveness, because its registers are the machine's, not virtual ones,
 * and control flow through the call-return stack (ssy/sync, cal/ret.crs) is invisible to the
 * liveness pass. */
static void fixed_slots(const ir_func *fn, uint32_t *slot_of, uint32_t *nslots)
{
    for (uint32_t r = 0; r < fn->nregs; r++) slot_of[r] = r;
    *nslots = fn->nregs;
}

/* Copies the function's instructions and call operands with every register replaced by its
 * slot (exec_regalloc, or fixed_slots on a machine of 32-bit registers). Returns 0 or -1 when
 * out of memory. */
static int rename_registers(exec_func *ef, const ir_func *fn, const ir_machine *mach)
{
    uint32_t *slot_of = malloc(((size_t)fn->nregs + 1) * sizeof *slot_of);
    ef->insns = malloc(((size_t)fn->ninsns + 1) * sizeof *ef->insns);
    ef->xops = malloc(((size_t)fn->nxops + 1) * sizeof *ef->xops);
    if (slot_of && mach->reg_bits == 32)
        fixed_slots(fn, slot_of, &ef->reg_slots);
    if (!slot_of || !ef->insns || !ef->xops ||
        (mach->reg_bits != 32 && exec_regalloc(fn, slot_of, &ef->reg_slots))) {
        free(slot_of);
        return -1;
    }
    memcpy(ef->insns, fn->insns, (size_t)fn->ninsns * sizeof *ef->insns);
    if (fn->nxops)
        memcpy(ef->xops, fn->xops, (size_t)fn->nxops * sizeof *ef->xops);
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        for (int s = 0; s < 4; s++) rename_operand(&ef->insns[i].src[s], slot_of, fn->nregs);
        for (int d = 0; d < 2; d++) rename_operand(&ef->insns[i].dst[d], slot_of, fn->nregs);
    }
    for (uint32_t k = 0; k < fn->nxops; k++) rename_operand(&ef->xops[k], slot_of, fn->nregs);
    free(slot_of);
    return 0;
}

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The device-side runtime calls of dynamic parallelism (CDP1 and nvcc's __cudaCDP2* forms of
 * CDP2) and of CUDA graphs' device API: refused by name, with their own rules, because a grid
 * that launches grids or graphs is outside the machine gpumemsim models (docs/ptx.md, "System
 * calls"). Returns 1 when `name` is one of them and reported. */
static int refuse_device_runtime(const ir_module *m, const ir_insn *in, const char *name,
                                 diag_list *dl)
{
    static const char *const launches[] = {"cudaLaunchDevice", "cudaGetParameterBuffer",
                                           "cudaDeviceSynchronize", "__cudaCDP"};
    for (size_t k = 0; k < sizeof launches / sizeof launches[0]; k++)
        if (has_prefix(name, launches[k])) {
            diag_add(dl, DIAG_ERROR, "EXEC-EXTERN-002", m->path, in->line, in->col,
                     "call to '%s', a device runtime call of dynamic parallelism (kernels "
                     "launching kernels), which gpumemsim does not model", name);
            return 1;
        }
    if (has_prefix(name, "cudaGraph") || has_prefix(name, "cudaGetCurrentGraphExec")) {
        diag_add(dl, DIAG_ERROR, "EXEC-EXTERN-003", m->path, in->line, in->col,
                 "call to '%s', a device call of CUDA graphs, which gpumemsim does not model",
                 name);
        return 1;
    }
    return 0;
}

/* A direct call of a body-less function: the machine must provide it as a system call, which the
 * front-end marked (ir_func.syscall); x->aux becomes its ir_syscall. Returns the errors. */
static int decode_syscall(const ir_module *m, const ir_insn *in, exec_xinsn *x, diag_list *dl)
{
    const ir_func *callee = &m->funcs[in->src[0].sym];
    if (callee->ninsns)
        return 0;
    if (callee->syscall != IR_SYSCALL_NONE && callee->syscall < IR_SYSCALL_COUNT) {
        x->aux = callee->syscall;
        return 0;
    }
    if (callee->name && refuse_device_runtime(m, in, callee->name, dl))
        return 1;
    diag_add(dl, DIAG_ERROR, "EXEC-EXTERN-001", m->path, in->line, in->col,
             "call to external function '%s', which gpumemsim does not provide (its system "
             "calls are vprintf, __assertfail, malloc and free)", callee->name);
    return 1;
}

/* The condition flags an instruction names must exist on the module's machine; which
 * instructions read or write them is for their semantics to accept (alu_lookup). */
static int check_flags(const ir_module *m, const ir_insn *in, diag_list *dl)
{
    unsigned worst = in->flag_in > in->flag_out ? in->flag_in : in->flag_out;
    if (worst <= m->machine.flag_count)
        return 0;
    diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-006", m->path, in->line, in->col,
             "%s names condition flag %u, but the machine has %u (machine.flag_count)",
             ir_opcode_name((ir_opcode)in->op), worst, m->machine.flag_count);
    return 1;
}

/* A const-space address operand in bank b > 0 (c[b][offset]) is the const-window offset
 * (b << MEM_CONST_BANK_SHIFT) + offset: the executor's copy of the instruction (`in`) gets the
 * bank folded into its displacement, so that address generation costs nothing more. A
 * variable's bank is part of its address already, so a bank on the operand too is rejected, as
 * is a bank on any other space's address. Returns the errors. */
static int fold_const_bank(const ir_module *m, const ir_func *fn, ir_insn *in, diag_list *dl)
{
    ir_operand *a = &in->src[0];
    if (a->kind != IR_OPND_ADDR || a->bank == 0)
        return 0;
    const char *why = a->bank >= MEM_CONST_BANKS ? "is outside 0..31"
                      : in->mem.space != IR_SPACE_CONST ? "is on an address outside the const space"
                      : a->sym != IR_SYM_NONE ? "is given besides a variable, whose bank counts"
                                              : NULL;
    if (why) {
        diag_add(dl, DIAG_ERROR, "EXEC-CONST-001", m->path, in->line, in->col,
                 "constant bank %u of the address of %s in %s %s", a->bank,
                 ir_opcode_name((ir_opcode)in->op), fn->name, why);
        return 1;
    }
    a->imm += (int64_t)((uint64_t)a->bank << MEM_CONST_BANK_SHIFT);
    return 0;
}

/* exec_xinsn.fetch_line of each decoded instruction of `ef`, from its code_base. */
static void fetch_lines(exec_func *ef)
{
    if (!ef->code || !ef->fetch_offsets)
        return;
    for (uint32_t i = 0; i < ef->ir->ninsns; i++)
        ef->code[i].fetch_line = (ef->code_base + ef->fetch_offsets[i]) >> 7;
}

static int decode_func(exec_program *p, uint32_t fi, diag_list *dl)
{
    const ir_module *m = p->module;
    const ir_func *fn = &m->funcs[fi];
    exec_func *ef = &p->funcs[fi];
    ef->ir = fn;
    int errors = 0;
    ef->code = calloc(fn->ninsns ? fn->ninsns : 1, sizeof *ef->code);
    uint32_t nimm = 0;
    for (uint32_t i = 0; i < fn->ninsns; i++)
        for (int s = 0; s < 4; s++) nimm += fn->insns[i].src[s].kind == IR_OPND_IMM;
    uint64_t *pool = calloc((size_t)(nimm ? nimm : 1) * LANES, sizeof *pool);
    if (!ef->code || !pool || rename_registers(ef, fn, &m->machine)) {
        free(pool);
        diag_add(dl, DIAG_ERROR, "EXEC-NOMEM-001", m->path, fn->line, fn->col,
                 "out of memory preparing function %s (%u instructions, %u registers) for "
                 "execution", fn->name, fn->ninsns, fn->nregs);
        return -1;
    }
    uint32_t used = 0;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        const ir_insn *in = &fn->insns[i];
        exec_xinsn *x = &ef->code[i];
        x->in = &ef->insns[i];
        for (int s = 0; s < 4; s++) {
            if (in->src[s].kind != IR_OPND_IMM)
                continue;
            unsigned bits = source_bits(in, s);
            uint64_t v = (uint64_t)in->src[s].imm;
            if (bits < 64)
                v &= (1ull << bits) - 1;
            uint64_t *lanes = pool + (size_t)used++ * LANES;
            for (unsigned l = 0; l < LANES; l++) lanes[l] = v;
            x->imm[s] = lanes;
        }
        for (int s = 0; s < 4; s++)
            if (in->src[s].kind == IR_OPND_SREG && in->src[s].reg >= IR_SREG_RESERVED_SMEM_BEGIN &&
                in->src[s].reg <= IR_SREG_RESERVED_SMEM_1)
                p->uses_reserved_smem = 1;
        const ir_operand *d = &in->dst[0];
        uint32_t dreg = d->kind == IR_OPND_REG ? d->reg
                        : d->kind == IR_OPND_VEC ? d->vregs[0] : IR_REG_SINK;
        if (dreg != IR_REG_SINK && dreg < fn->nregs)
            x->dst_bits = (uint8_t)ir_type_bits((ir_type)fn->reg_types[dreg]);
        x->dst_signed = ir_type_is_signed((ir_type)in->type);
        x->glue = in->glue;
        errors += check_flags(m, in, dl) + fold_const_bank(m, fn, &ef->insns[i], dl);
        choose_handler(x, m, fn, in);
        x->serial = insn_is_serial(&m->machine, in);
        /* Loads may reach the L2 and stores may find their SM's log full (exec_mem.c). */
        const ir_op_info *oi = ir_op_info_of((ir_opcode)in->op);
        x->may_park = !x->serial && oi &&
                      (oi->family == IR_FAM_LD || oi->family == IR_FAM_ST);
        x->beyond_sm = x->serial || (x->may_park && !space_of_sm((ir_space)in->mem.space));
        errors += exec_crs_decode(m, in, x, dl);
        if (in->op == IR_CALL && in->src[0].kind == IR_OPND_FUNC)
            errors += decode_syscall(m, in, x, dl);
        x->id = x->in->id;
        x->guard = x->in->guard;
        x->loop = exec_xinsn_loop_bits(x);
        if (!x->fn) {
            diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-001", m->path, in->line, in->col,
                     "the executor does not implement %s with type %s%s%s", ir_opcode_name(
                         (ir_opcode)in->op), ir_type_name((ir_type)in->type),
                     in->type2 ? " and " : "", in->type2 ? ir_type_name((ir_type)in->type2) : "");
            errors++;
        }
    }
    ef->imm_pool = pool;
    uint32_t run = 0;
    for (uint32_t i = fn->ninsns; i-- > 0;) {
        exec_xinsn *x = &ef->code[i];
        run = (x->loop & XL_BREAK) ? 0 : run < UINT16_MAX ? run + 1 : run;
        x->run = (uint16_t)run;
    }
    fetch_lines(ef);
    return errors ? -1 : 0;
}

static uint32_t align_up32(uint32_t v, uint32_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Lays out a function's parameter area (own parameters, return values, body .param variables),
 * its frame-local .local variables and its body .shared variables (placed after `*shared_end`,
 * which grows: body .shared of every function is static per CTA). */
static int layout_func(exec_program *p, uint32_t fi, uint32_t *shared_end)
{
    exec_func *ef = &p->funcs[fi];
    const ir_func *fn = ef->ir;
    ef->param_offsets = calloc(fn->nparams + 1, sizeof(uint32_t));
    ef->ret_offsets = calloc(fn->nrets + 1, sizeof(uint32_t));
    ef->var_offsets = calloc(fn->nvars + 1, sizeof(uint32_t));
    if (!ef->param_offsets || !ef->ret_offsets || !ef->var_offsets)
        return -1;
    uint32_t area = 0, local = 0;
    if (!fn->is_entry) {
        for (uint32_t i = 0; i < fn->nparams; i++) {
            area = align_up32(area, fn->params[i].align ? fn->params[i].align : 1);
            ef->param_offsets[i] = area;
            area += (uint32_t)fn->params[i].size_bytes;
        }
    }
    ef->rets_offset = area;
    for (uint32_t i = 0; i < fn->nrets; i++) {
        area = align_up32(area, fn->rets[i].align ? fn->rets[i].align : 1);
        ef->ret_offsets[i] = area;
        area += (uint32_t)fn->rets[i].size_bytes;
    }
    for (uint32_t j = 0; j < fn->nvars; j++) {
        const ir_var *v = &fn->vars[j];
        uint32_t align = v->align ? v->align : 1;
        if (v->space == IR_SPACE_PARAM) {
            area = align_up32(area, align);
            ef->var_offsets[j] = area;
            area += (uint32_t)v->size_bytes;
        } else if (v->space == IR_SPACE_LOCAL) {
            local = align_up32(local, align);
            ef->var_offsets[j] = local;
            local += (uint32_t)v->size_bytes;
        } else if (v->space == IR_SPACE_SHARED) {
            *shared_end = align_up32(*shared_end, align);
            ef->var_offsets[j] = *shared_end;
            *shared_end += (uint32_t)v->size_bytes;
        }
    }
    ef->param_area_bytes = align_up32(area, 8);
    ef->local_frame_bytes = align_up32(local, 16);
    return 0;
}

/* Bytes of code of a function of n instructions (whole control-word groups). */
static uint64_t code_bytes(const exec_insn_layout *k, uint32_t n)
{
    if (!k->ctrl_group)
        return (uint64_t)n * k->insn_bytes;
    return (uint64_t)((n + k->ctrl_group - 1) / k->ctrl_group) *
           (k->ctrl_bytes + (uint64_t)k->ctrl_group * k->insn_bytes);
}

/* Fills ef->fetch_offsets: the k-th instruction that is not glue at exec_insn_offset(k), a glue
 * instruction at the offset of the instruction it serves (the next one that is not glue when it
 * has the glue's id, else the previous one: ir_insn.glue). Sets *p->has_glue when there is glue.
 * Returns the number of instructions that are not glue, or -1 when out of memory. */
static int64_t layout_fetch(exec_program *p, exec_func *ef)
{
    const ir_func *fn = ef->ir;
    uint32_t *off = malloc(((size_t)fn->ninsns + 1) * sizeof *off);
    if (!off)
        return -1;
    ef->fetch_offsets = off;
    uint32_t k = 0, next = UINT32_MAX;
    for (uint32_t i = 0; i < fn->ninsns; i++)
        if (!fn->insns[i].glue)
            off[i] = (uint32_t)exec_insn_offset(&p->layout, k++);
    if (k == fn->ninsns)
        return k;
    p->has_glue = 1;
    /* Backwards, so that `next` is the following instruction that is not glue. */
    for (uint32_t i = fn->ninsns; i-- > 0;) {
        if (!fn->insns[i].glue) {
            next = i;
            continue;
        }
        uint32_t prev = i;
        while (prev > 0 && fn->insns[prev].glue) prev--;
        int has_prev = !fn->insns[prev].glue;
        int serves_next = next != UINT32_MAX && fn->insns[next].id == fn->insns[i].id;
        if (has_prev && !serves_next)
            off[i] = off[prev];
        else /* glue at the very end (malformed): where the next instruction would be */
            off[i] = next != UINT32_MAX ? off[next] : (uint32_t)exec_insn_offset(&p->layout, k);
    }
    return k;
}

/* Places .const variables bank by bank (bank b's variables from window offset
 * b << MEM_CONST_BANK_SHIFT) and builds each bank's image with their initialisers; banks
 * fit their window (check_const_vars). */
static int layout_const(exec_program *p)
{
    const ir_module *m = p->module;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        if (v->space != IR_SPACE_CONST)
            continue;
        uint32_t *bytes = v->const_bank ? &p->bank_bytes[v->const_bank] : &p->const_bytes;
        *bytes = align_up32(*bytes, v->align ? v->align : 1);
        p->module_var_addr[i] = ((uint64_t)v->const_bank << MEM_CONST_BANK_SHIFT) + *bytes;
        *bytes += (uint32_t)v->size_bytes;
    }
    p->const_bank = calloc(p->const_bytes ? p->const_bytes : 1, 1);
    if (!p->const_bank)
        return -1;
    for (uint32_t b = 1; b < MEM_CONST_BANKS; b++)
        if (p->bank_bytes[b] && !(p->bank_data[b] = calloc(p->bank_bytes[b], 1)))
            return -1;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        if (v->space == IR_SPACE_CONST && v->init)
            memcpy(exec_const_byte(p, p->module_var_addr[i]), v->init, v->size_bytes);
    }
    return 0;
}

/* Places module-scope .shared variables (static ones first, then every extern array at the start
 * of dynamic shared memory), .const variables (layout_const) and the functions' code. Module
 * .global variables are placed when the program first runs on a memory system. */
static int layout_module(exec_program *p)
{
    const ir_module *m = p->module;
    p->module_var_addr = calloc(m->nvars + 1, sizeof(uint64_t));
    if (!p->module_var_addr)
        return -1;
    uint32_t shared = 0;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        if (v->space == IR_SPACE_SHARED && !v->is_extern) {
            shared = align_up32(shared, v->align ? v->align : 1);
            p->module_var_addr[i] = shared;
            shared += (uint32_t)v->size_bytes;
        }
    }
    p->layout = (exec_insn_layout){m->machine.insn_bytes, m->machine.ctrl_group,
                                   m->machine.ctrl_bytes};
    uint64_t code_base = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        int64_t counted = layout_fetch(p, &p->funcs[f]);
        if (counted < 0 || layout_func(p, f, &shared))
            return -1;
        p->funcs[f].code_base = code_base;
        code_base += (code_bytes(&p->layout, (uint32_t)counted) + 127) & ~(uint64_t)127;
    }
    p->code_bytes = code_base;
    p->static_shared_bytes = shared;
    p->dynamic_shared_offset = align_up32(shared, 16);
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == IR_SPACE_SHARED && m->vars[i].is_extern)
            p->module_var_addr[i] = p->dynamic_shared_offset;
    return layout_const(p);
}

/* Every variable's constant bank exists (0..MEM_CONST_BANKS-1), only .const variables name one,
 * and each bank's variables fit the MEM_WINDOW_BYTES a bank holds. Returns the errors. */
static int check_const_vars(const ir_module *m, diag_list *dl)
{
    uint64_t bytes[MEM_CONST_BANKS] = {0};
    int errors = 0;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        uint32_t b = v->const_bank;
        const char *why = b >= MEM_CONST_BANKS ? "is outside 0..31"
                          : b && v->space != IR_SPACE_CONST ? "is given to a variable outside the "
                                                              "const space"
                                                            : NULL;
        if (!why && v->space == IR_SPACE_CONST) {
            uint64_t align = v->align ? v->align : 1;
            bytes[b] = (bytes[b] + align - 1) / align * align + v->size_bytes;
            if (bytes[b] > MEM_WINDOW_BYTES)
                why = "cannot hold it: a bank holds at most 16 MiB";
        }
        if (why) {
            diag_add(dl, DIAG_ERROR, "EXEC-CONST-001", m->path, v->line, v->col,
                     "constant bank %u of variable %s %s", b, v->name, why);
            errors++;
            bytes[b < MEM_CONST_BANKS ? b : 0] = 0;
        }
    }
    return errors;
}

/* Kernel parameters in a constant bank (ir_machine.params_in_bank): the bank exists, every
 * entry's parameter block fits it from params_offset (EXEC-CONST-001), and the launch owns its
 * banks: no module variable in bank 0 (the launch constants) or the parameters' bank, and the
 * parameters clear of the launch constants (EXEC-CONST-002). Returns the errors. */
static int check_param_bank(const ir_module *m, diag_list *dl)
{
    const ir_machine *k = &m->machine;
    if (!k->params_in_bank)
        return 0;
    int n = 0;
    if (k->params_bank >= MEM_CONST_BANKS) {
        diag_add(dl, DIAG_ERROR, "EXEC-CONST-001", m->path, m->target_line, m->target_col,
                 "constant bank %u of the kernel parameters (machine.params_bank) is outside "
                 "0..31", k->params_bank);
        return 1;
    }
    if (k->params_bank == 0 && k->params_offset < EXEC_LC_BYTES) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-CONST-002", m->path, m->target_line, m->target_col,
                 "kernel parameters at c[0x0][0x%x] (machine.params_offset) overlap the launch "
                 "constants at c[0x0][0x0..0x%x]", k->params_offset, EXEC_LC_BYTES - 1);
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ir_func *fn = &m->funcs[f];
        if (fn->is_entry && k->params_offset + fn->params_bytes > MEM_WINDOW_BYTES) {
            n++;
            diag_add(dl, DIAG_ERROR, "EXEC-CONST-001", m->path, fn->line, fn->col,
                     "constant bank %u cannot hold the %llu bytes of parameters of %s from "
                     "offset 0x%x: a bank holds at most 16 MiB", k->params_bank,
                     (unsigned long long)fn->params_bytes, fn->name, k->params_offset);
        }
    }
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ir_var *v = &m->vars[i];
        if (v->space == IR_SPACE_CONST && (v->const_bank == 0 || v->const_bank == k->params_bank)) {
            n++;
            diag_add(dl, DIAG_ERROR, "EXEC-CONST-002", m->path, v->line, v->col,
                     "variable %s is in constant bank %u, which the launch fills with %s "
                     "(machine.params_in_bank)", v->name, v->const_bank,
                     v->const_bank == k->params_bank ? "the kernel parameters"
                                                     : "the launch constants");
        }
    }
    return n;
}

/* The machine the module is written for (ir_machine) must be one the executor runs: it honours
 * typed virtual, 64-bit or 32-bit registers (the latter also in pairs and quads), a register
 * count, up to EXEC_MAX_FLAGS condition flags, any instruction layout, PTX's calling convention
 * and the call-return stack (exec_crs.c), and rejects the rest by name until it models them;
 * diagnostics point at the module's target. Returns the errors. */
static int check_machine(const ir_module *m, diag_list *dl)
{
    const ir_machine *k = &m->machine;
    const char *path = m->path;
    unsigned line = m->target_line, col = m->target_col;
    int n = 0;
    if (k->reg_bits != 0 && k->reg_bits != 32 && k->reg_bits != 64) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-005", path, line, col, "%u-bit registers "
                 "(machine.reg_bits) are not modelled yet: registers are typed virtual ones or "
                 "32 or 64 bits wide", k->reg_bits);
    }
    if (k->reg_pairs && k->reg_bits != 32) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-005", path, line, col, "64- and 128-bit values in "
                 "aligned register pairs and quads (machine.reg_pairs) are modelled only for "
                 "32-bit registers (machine.reg_bits 32)");
    }
    if (k->has_zero_reg) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-005", path, line, col, "a zero register "
                 "(machine.zero_reg, register %u) is not modelled yet", k->zero_reg);
    }
    if (k->flag_count > EXEC_MAX_FLAGS) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-006", path, line, col, "%u condition flags "
                 "(machine.flag_count) are more than the %u the executor holds", k->flag_count,
                 EXEC_MAX_FLAGS);
    }
    if (k->call_conv != IR_CALL_PARAM_FRAME && k->call_conv != IR_CALL_RETURN_STACK) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-007", path, line, col, "calling convention %u "
                 "(machine.call_conv) is not one the executor models: PTX's .param frames or "
                 "the call-return stack", k->call_conv);
    }
    n += exec_crs_check_machine(m, dl);
    if (k->insn_bytes == 0) {
        n++;
        diag_add(dl, DIAG_ERROR, "EXEC-UNSUP-008", path, line, col, "instructions of 0 bytes "
                 "(machine.insn_bytes) have no fetch addresses");
    }
    for (uint32_t f = 0; k->reg_count && f < m->nfuncs; f++) {
        const ir_func *fn = &m->funcs[f];
        if (fn->nregs > k->reg_count) {
            n++;
            diag_add(dl, DIAG_ERROR, "EXEC-REG-001", path, fn->line, fn->col, "function %s uses "
                     "%u registers, more than the %u of the machine (machine.reg_count)",
                     fn->name, fn->nregs, k->reg_count);
        }
    }
    return n;
}

exec_program *exec_program_create(const ir_module *m, diag_list *dl)
{
    exec_program *p = calloc(1, sizeof *p);
    if (!p) {
        diag_add(dl, DIAG_ERROR, "EXEC-NOMEM-001", m->path, 0, 0,
                 "out of memory preparing the module for execution (%zu bytes)", sizeof *p);
        return NULL;
    }
    p->module = m;
    p->host_avx2 = (uint8_t)exec_host_avx2();
    p->funcs = calloc(m->nfuncs + 1, sizeof *p->funcs);
    p->insn_counts = calloc(m->ninsns_total + 1, sizeof *p->insn_counts);
    if (check_machine(m, dl) + check_const_vars(m, dl) + check_param_bank(m, dl)) {
        exec_program_destroy(p);
        return NULL;
    }
    int errors = !p->funcs || !p->insn_counts;
    for (uint32_t f = 0; !errors && f < m->nfuncs; f++)
        p->funcs[f].ir = &m->funcs[f];
    if (!errors && layout_module(p))
        errors = 1;
    if (errors) {
        diag_add(dl, DIAG_ERROR, "EXEC-NOMEM-001", m->path, 0, 0,
                 "out of memory laying out the module for execution (%u functions, %u "
                 "instructions, %u module variables, %u bytes of constants)", m->nfuncs,
                 m->ninsns_total, m->nvars, p->const_bytes);
        exec_program_destroy(p);
        return NULL;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f].ninsns && !m->funcs[f].has_callprototype && decode_func(p, f, dl))
            errors = 1;
    if (errors) {
        exec_program_destroy(p);
        return NULL;
    }
    return p;
}

void exec_program_destroy(exec_program *p)
{
    if (!p)
        return;
    if (p->funcs) {
        for (uint32_t f = 0; f < p->module->nfuncs; f++) {
            free(p->funcs[f].code);
            free(p->funcs[f].insns);
            free(p->funcs[f].xops);
            free(p->funcs[f].imm_pool);
            free(p->funcs[f].fetch_offsets);
            free(p->funcs[f].var_offsets);
            free(p->funcs[f].param_offsets);
            free(p->funcs[f].ret_offsets);
        }
    }
    free(p->funcs);
    if (p->reg_arena)
        munmap(p->reg_arena, p->reg_arena_bytes);
    if (p->slot_arena)
        munmap(p->slot_arena, p->slot_arena_bytes);
    free(p->insn_counts);
    free(p->module_var_addr);
    free(p->const_bank);
    for (uint32_t b = 0; b < MEM_CONST_BANKS; b++) free(p->bank_data[b]);
    free(p);
}

const uint64_t *exec_program_insn_counts(const exec_program *p) { return p->insn_counts; }

uint64_t exec_program_place_code(exec_program *p, uint64_t origin)
{
    for (uint32_t f = 0; f < p->module->nfuncs; f++) {
        p->funcs[f].code_base += origin;
        fetch_lines(&p->funcs[f]);
    }
    return p->code_bytes;
}

uint32_t exec_program_static_shared_bytes(const exec_program *p)
{
    return p->dynamic_shared_offset;
}

uint32_t exec_program_register_slots(const exec_program *p, uint32_t func)
{
    return func < p->module->nfuncs ? p->funcs[func].reg_slots : 0;
}

const ir_insn *exec_program_insns(const exec_program *p, uint32_t func, uint32_t *n)
{
    *n = func < p->module->nfuncs && p->funcs[func].insns ? p->funcs[func].ir->ninsns : 0;
    return *n ? p->funcs[func].insns : NULL;
}

/* Loads whose lanes all read one address (exec_mem_decode_aux's EXEC_MEM_AUX_SAME: no register
 * in the address): a kernel parameter by name, a SASS `c[b][o]` operand's constant, a variable of
 * the const space. The memory system is asked for one lane and the value goes to every active
 * lane; the counts are those of exec_h_ld's access of the same load (exec_mem.c), which the
 * cases these handlers do not take fall back to. */
#include "exec/exec_internal.h"
#include "exec/exec_mem_internal.h"
#include "mem/memsys.h"

/* ld from the const space at an address without register or variable (a SASS `c[b][o]`
 * operand's glue load, LDC or ld.const at an immediate address): every lane reads the same
 * bytes, so the memory system is asked once (memsys_const_load) and the value goes to the
 * active lanes. The counters are exec_h_ld's for the same load (MEM_AUX_SAME); an address that
 * would fault takes exec_h_ld's path, which reports it. */
static void h_ld_const_same(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    uint8_t bytes[MEM_MAX_LANE_BYTES];
    if (memsys_const_load(w->run->ms, &w->mctx, in->id, (uint64_t)in->src[0].imm,
                          in->mem.elem_bytes, bytes) != 0) {
        exec_h_ld(w, x, mask);
        return;
    }
    broadcast_to_lanes(w->regs + (size_t)in->dst[0].reg * LANES,
                       load_element(x, bytes, 0, in->mem.elem_bytes), mask);
}

/* ld with MEM_AUX_SAME that h_ld_const_same does not take (a parameter by name, a variable of
 * the const space): exec_h_ld's steps for the one lane it hands the memory system, without the
 * other lanes' addresses, which neither the memory system nor the access's readers look at (only
 * active lanes are), and through memsys_load_lane, do_access's memsys_access for such a load
 * (which never parks and never has window errors) without its general path. Another space (a
 * generic or global variable) or a lane size that is not modelled takes exec_h_ld; a load with
 * the uniform hint (which memsys_load_if_local parks) takes do_access. Out of line: its frame
 * and register saves would otherwise be h_ld_param_same's, which calls it only to fall back. */
static __attribute__((noinline)) void h_ld_same(exec_warp *w, const exec_xinsn *x,
                                                 uint32_t mask)
{
    if (!mask)
        return;
    const ir_insn *in = x->in;
    uint64_t base;
    ir_space sp = address_base(w, &in->src[0], (ir_space)in->mem.space, &base);
    unsigned vec = in->mem.vec ? in->mem.vec : 1;
    if ((sp != IR_SPACE_CONST && sp != IR_SPACE_PARAM) ||
        in->mem.elem_bytes * vec > MEM_MAX_LANE_BYTES) {
        exec_h_ld(w, x, mask);
        return;
    }
    mem_access *acc = &w->run->acc;
    unsigned lead = (unsigned)__builtin_ctz(mask);
    acc->op = MEM_OP_LOAD;
    acc->elem_bytes = in->mem.elem_bytes;
    acc->vec = (uint8_t)vec;
    acc->active = 1u << lead;
    acc->insn_id = in->id;
    acc->time = 0;
    acc->attrs = &in->mem;
    acc->policy = 0;
    acc->window_errors = w->run->prog->module->machine.window_errors;
    acc->space = (uint8_t)sp;
    acc->addr[lead] = base;
    int rc;
    if (in->mem.uniform) {
        rc = exec_mem_access(w, x, acc);
    } else {
        mem_fault fault;
        rc = memsys_load_lane(w->run->ms, &w->mctx, acc, &fault);
        if (rc) {
            exec_mem_fault(w, x, acc, &fault);
            return;
        }
        const exec_launch *L = w->run->launch;
        if (L->on_access)
            L->on_access(acc, L->access_user);
    }
    if (rc)
        return;
    const ir_operand *d = &in->dst[0];
    if (d->kind == IR_OPND_REG && vec == 1 && mask == FULL_MASK && d->reg != IR_REG_SINK) {
        uint64_t v = load_element(x, acc->data[lead], 0, acc->elem_bytes); /* a parameter */
        uint64_t *r = w->regs + (size_t)d->reg * LANES;
        for (unsigned l = 0; l < LANES; l++) r[l] = v;
    } else {
        exec_mem_unpack_same(w, x, mask, acc, lead);
    }
    if (in->mem.fence)
        exec_mem_fence(w, x, mask);
}

/* h_ld_param_same's load at parameter offset `offset` when an observer watches (the timing
 * model): h_ld_same's steps for such a load, whose address, space, single element and
 * destination h_ld_param_same's conditions already settle (no address_base, no tests of the
 * space, vector or uniform hint), through memsys_load_lane, the report and the broadcast; the
 * same access record, counts, faults and values as h_ld_same (test_exec_param_observed.c).
 * Out of line, as h_ld_same, so that the functional path keeps its small frame. */
static __attribute__((noinline)) void h_ld_param_observed(exec_warp *w, const exec_xinsn *x,
                                                          uint32_t mask, uint64_t offset)
{
    const ir_insn *in = x->in;
    exec_run_state *rs = w->run;
    mem_access *acc = &rs->acc;
    unsigned lead = (unsigned)__builtin_ctz(mask);
    acc->op = MEM_OP_LOAD;
    acc->elem_bytes = in->mem.elem_bytes;
    acc->vec = 1;
    acc->active = 1u << lead;
    acc->insn_id = in->id;
    acc->time = 0;
    acc->attrs = &in->mem;
    acc->policy = 0;
    acc->window_errors = rs->prog->module->machine.window_errors;
    acc->space = IR_SPACE_PARAM;
    acc->addr[lead] = offset;
    mem_fault fault;
    if (memsys_load_lane(rs->ms, &w->mctx, acc, &fault)) {
        exec_mem_fault(w, x, acc, &fault);
        return;
    }
    const exec_launch *L = rs->launch;
    L->on_access(acc, L->access_user);
    broadcast_to_lanes(w->regs + (size_t)in->dst[0].reg * LANES,
                       load_element(x, acc->data[lead], 0, in->mem.elem_bytes), mask);
}

int exec_ld_param_general_only;

/* h_ld_same for a load of a kernel parameter by name (exec_ld_handler: no register in the
 * address, the param space written, no uniform hint or fence, one element of 1 to 8 bytes, a
 * destination register): the parameter's offset taken from the entry function's parameter
 * table as warp_symbol_address takes it. Without an observer (the functional mode), its bytes
 * and counts from memsys_load_param and the value written to the active lanes; with one,
 * h_ld_param_observed. Anything else (a device function's frame, an address that would fault
 * without an observer) takes h_ld_same, which does the same load through mem_access and
 * reports. */
static void h_ld_param_same(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    const ir_operand *o = &in->src[0];
    const exec_frame *f = &w->frames[0];
    uint32_t i = o->sym - IR_SYM_PARAM_BASE;
    uint64_t bytes;
    if (!mask || w->depth != 1 || !f->fn->ir->is_entry) {
        h_ld_same(w, x, mask);
        return;
    }
    uint64_t offset = (uint64_t)o->imm + f->fn->ir->params[i].offset;
    if (w->run->launch->on_access) {
        if (exec_ld_param_general_only)
            h_ld_same(w, x, mask);
        else
            h_ld_param_observed(w, x, mask, offset);
        return;
    }
    if (memsys_load_param(w->run->ms, w->mctx.sm, in->id, offset, in->mem.elem_bytes,
                          &bytes) != 0) {
        h_ld_same(w, x, mask);
        return;
    }
    broadcast_to_lanes(w->regs + (size_t)in->dst[0].reg * LANES,
                       load_element(x, (const uint8_t *)&bytes, 0, in->mem.elem_bytes), mask);
}

exec_handler exec_ld_same_handler(const exec_xinsn *x)
{
    const ir_insn *in = x->in;
    const ir_operand *a = &in->src[0], *d = &in->dst[0];
    unsigned eb = in->mem.elem_bytes;
    if (in->mem.space == IR_SPACE_CONST && a->sym == IR_SYM_NONE && !in->mem.fence &&
        !in->mem.uniform && in->mem.vec <= 1 && eb && eb <= 8 && !(eb & (eb - 1)) &&
        d->kind == IR_OPND_REG && d->reg != IR_REG_SINK)
        return h_ld_const_same;
    if (in->mem.space == IR_SPACE_PARAM && a->kind == IR_OPND_ADDR && !a->has_reg &&
        a->sym >= IR_SYM_PARAM_BASE && a->sym - IR_SYM_PARAM_BASE < IR_SYM_RET_OFFSET &&
        !in->mem.fence && !in->mem.uniform && in->mem.vec <= 1 && eb && eb <= 8 &&
        !(eb & (eb - 1)) && d->kind == IR_OPND_REG && d->reg != IR_REG_SINK)
        return h_ld_param_same;
    return h_ld_same;
}

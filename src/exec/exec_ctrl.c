/* Control flow: branches, indirect branches, calls with .param passing, returns, exit and trap.
 * Divergent lanes are parked as waiting groups of the current frame (exec_warp.c reconverges). */
#include <string.h>

#include "exec/exec_internal.h"

void exec_h_nop(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    (void)w;
    (void)x;
    (void)mask;
}

void exec_h_bra(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    uint32_t target = (uint32_t)x->in->src[0].imm;
    uint32_t not_taken = w->active & ~mask;
    if (!not_taken) {
        warp_set_pc(w, target);
    } else if (!mask) {
        warp_set_pc(w, w->pc + 1);
    } else if (target <= w->pc) {
        /* Loop back-edge: the lanes that continue the loop run first. */
        warp_push_waiting(w, w->pc + 1, not_taken);
        w->active = mask;
        warp_set_pc(w, target);
    } else {
        warp_push_waiting(w, target, mask);
        w->active = not_taken;
        warp_set_pc(w, w->pc + 1);
    }
}

void exec_h_brx(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const exec_func *fn = w->frames[w->depth - 1].fn;
    uint64_t tmp[LANES];
    const uint64_t *idx = warp_src(w, x, 0, tmp);
    uint32_t rest = w->active & ~mask;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        if (idx[l] >= x->in->xops_count) {
            warp_fault(w, x, l, "EXEC-CTRL-001", "brx.idx index %llu outside its table of %u labels",
                       (unsigned long long)idx[l], x->in->xops_count);
            return;
        }
        warp_push_waiting(w, (uint32_t)fn->xops[x->in->xops_first + idx[l]].imm, 1u << l);
    }
    if (rest)
        warp_push_waiting(w, w->pc + 1, rest);
    w->active = 0;
    warp_next_group(w);
}

/* Reads argument k of a call for every lane into lanes[] (up to 8 bytes). */
static void call_arg_lanes(exec_warp *w, const ir_insn *in, uint32_t k, uint32_t bytes,
                           uint64_t *lanes)
{
    const exec_frame *f = &w->frames[w->depth - 1];
    const ir_operand *o = &f->fn->xops[in->xops_first + k];
    for (unsigned l = 0; l < LANES; l++) {
        uint64_t v = 0;
        if (o->kind == IR_OPND_SYM && o->sym >= IR_SYM_FUNC_BASE) {
            const uint8_t *p = f->params + (size_t)l * f->fn->param_area_bytes +
                               f->fn->var_offsets[o->sym - IR_SYM_FUNC_BASE];
            memcpy(&v, p, bytes < 8 ? bytes : 8);
        } else if (o->kind == IR_OPND_REG) {
            v = f->regs[(size_t)o->reg * LANES + l];
        } else if (o->kind == IR_OPND_IMM) {
            v = (uint64_t)o->imm;
        }
        lanes[l] = v;
    }
}

/* Copies the call's arguments into the new frame's parameter area. */
static void pass_arguments(exec_warp *w, const ir_insn *in, exec_frame *caller, exec_frame *callee)
{
    const ir_func *cf = callee->fn->ir;
    for (uint32_t k = 0; k < in->xops_count && k < cf->nparams; k++) {
        const ir_operand *o = &caller->fn->xops[in->xops_first + k];
        uint32_t bytes = (uint32_t)cf->params[k].size_bytes;
        uint32_t dst_off = callee->fn->param_offsets[k];
        for (unsigned l = 0; l < LANES; l++) {
            uint8_t *dst = callee->params + (size_t)l * callee->fn->param_area_bytes + dst_off;
            if (o->kind == IR_OPND_SYM && o->sym >= IR_SYM_FUNC_BASE) {
                const uint8_t *src = caller->params + (size_t)l * caller->fn->param_area_bytes +
                                     caller->fn->var_offsets[o->sym - IR_SYM_FUNC_BASE];
                memcpy(dst, src, bytes);
            } else {
                uint64_t v = o->kind == IR_OPND_REG ? caller->regs[(size_t)o->reg * LANES + l]
                                                    : (uint64_t)o->imm;
                memcpy(dst, &v, bytes < 8 ? bytes : 8);
            }
        }
    }
    (void)w;
}

/* Writes the return value of a system call, `bytes` (4 or 8) of vals[l] for each lane l of mask,
 * to the call's return operand, when it names one. */
static void call_set_return(exec_warp *w, const ir_insn *in, uint32_t mask, uint32_t bytes,
                            const uint64_t vals[LANES])
{
    if (!in->xrets_count)
        return;
    const exec_frame *f = &w->frames[w->depth - 1];
    const ir_operand *o = &f->fn->xops[in->xrets_first];
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        uint64_t v = bytes == 4 ? (uint32_t)vals[l] : vals[l];
        if (o->kind == IR_OPND_SYM && o->sym >= IR_SYM_FUNC_BASE)
            memcpy(f->params + (size_t)l * f->fn->param_area_bytes +
                       f->fn->var_offsets[o->sym - IR_SYM_FUNC_BASE],
                   &v, bytes);
        else if (o->kind == IR_OPND_REG)
            f->regs[(size_t)o->reg * LANES + l] = v;
    }
}

/* malloc or free for the lanes of mask, one lane after another in lane order (docs/semantics.md,
 * "Device heap"); misuse of free faults the warp at the first lane that misuses it. */
static void call_heap(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    static const char *const what[] = {
        [EXEC_HEAP_NOT_HEAP] = "a pointer outside the device heap",
        [EXEC_HEAP_DOUBLE_FREE] = "a heap block that was already freed (double free)",
        [EXEC_HEAP_INTERIOR] = "a pointer into the middle of a live heap block",
        [EXEC_HEAP_NOT_BLOCK] = "a pointer into free heap space, which no live block starts at"};
    uint64_t a0[LANES], ret[LANES] = {0};
    call_arg_lanes(w, x->in, 0, 8, a0);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((mask >> l) & 1u))
            continue;
        int r = x->aux == IR_SYSCALL_MALLOC ? exec_heap_malloc(w->run, a0[l], &ret[l])
                                            : exec_heap_free(w->run, a0[l]);
        if (r < 0) {
            w->run->oom = 1;
            w->state = WARP_FAULTED;
            return;
        }
        if (r != EXEC_HEAP_FREED) {
            warp_fault(w, x, l, r == EXEC_HEAP_DOUBLE_FREE ? "EXEC-HEAP-002" : "EXEC-HEAP-001",
                       "free of 0x%llx, %s", (unsigned long long)a0[l], what[r]);
            return;
        }
    }
    if (x->aux == IR_SYSCALL_MALLOC)
        call_set_return(w, x->in, mask, 8, ret);
}

static void call_builtin(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    uint64_t a0[LANES], a1[LANES];
    const ir_insn *in = x->in;
    if (x->aux == IR_SYSCALL_MALLOC || x->aux == IR_SYSCALL_FREE) {
        call_heap(w, x, mask);
    } else if (x->aux == IR_SYSCALL_VPRINTF) { /* vprintf(format, argument buffer) */
        call_arg_lanes(w, in, 0, 8, a0);
        call_arg_lanes(w, in, 1, 8, a1);
        int n = exec_vprintf(w, x, mask, a0, a1);
        for (unsigned l = 0; l < LANES; l++) a1[l] = (uint32_t)n;
        call_set_return(w, in, mask, 4, a1);
    } else { /* __assertfail(message, file, line, function, char size) */
        uint64_t a2[LANES], a3[LANES];
        call_arg_lanes(w, in, 0, 8, a0);
        call_arg_lanes(w, in, 1, 8, a1);
        call_arg_lanes(w, in, 2, 4, a2);
        call_arg_lanes(w, in, 3, 8, a3);
        const uint64_t *args[4] = {a0, a1, a2, a3};
        exec_assertfail(w, x, mask, args);
    }
}

void exec_h_call(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_insn *in = x->in;
    uint32_t rest = w->active & ~mask;
    if (!mask) {
        warp_set_pc(w, w->pc + 1);
        return;
    }
    if (x->aux) { /* a system call (ir_syscall) */
        call_builtin(w, x, mask);
        if (w->state == WARP_READY)
            warp_set_pc(w, w->pc + 1);
        return;
    }
    const exec_program *p = w->run->prog;
    uint32_t callee_index;
    if (in->src[0].kind == IR_OPND_FUNC) {
        callee_index = in->src[0].sym;
    } else {
        uint64_t tmp[LANES];
        const uint64_t *t = warp_src(w, x, 0, tmp);
        unsigned first = (unsigned)__builtin_ctz(mask);
        for (unsigned l = 0; l < LANES; l++) {
            if (((mask >> l) & 1u) && t[l] != t[first]) {
                warp_fault(w, x, l, "EXEC-UNSUP-003", "indirect call with different targets in one warp "
                                    "(lane %u and lane %u) is not modelled", first, l);
                return;
            }
        }
        uint64_t v = t[first] - FUNC_ADDRESS_BASE;
        if (t[first] < FUNC_ADDRESS_BASE || v % 16 || v / 16 >= p->module->nfuncs ||
            !p->module->funcs[v / 16].ninsns) {
            warp_fault(w, x, first, "EXEC-CTRL-002", "indirect call to 0x%llx, which is not a function address",
                       (unsigned long long)t[first]);
            return;
        }
        callee_index = (uint32_t)(v / 16);
    }
    const exec_func *callee = &p->funcs[callee_index];
    if (w->local_sp + callee->local_frame_bytes > w->run->frames_local_end) {
        warp_fault(w, x, (unsigned)__builtin_ctz(mask), "EXEC-LOCAL-001",
                   "local memory stack overflow calling %s (%u bytes per thread available)",
                   callee->ir->name, w->run->frames_local_end);
        return;
    }
    if (rest)
        warp_push_waiting(w, w->pc + 1, rest);
    uint32_t call_pc = w->pc;
    if (warp_frame_push(w, callee)) {
        w->run->oom = 1;
        w->state = WARP_FAULTED;
        return;
    }
    exec_frame *cf = &w->frames[w->depth - 1];
    cf->call_pc = call_pc;
    cf->ret_pc = call_pc + 1;
    cf->call_mask = mask;
    pass_arguments(w, in, &w->frames[w->depth - 2], cf);
    w->active = mask;
    w->pc = 0;
}

void exec_h_ret(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (w->depth == 1) {
        exec_h_exit(w, x, mask);
        return;
    }
    w->frames[w->depth - 1].returned |= mask;
    w->active &= ~mask;
    if (w->active)
        warp_set_pc(w, w->pc + 1);
    else
        warp_next_group(w);
}

void exec_h_exit(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    (void)x;
    warp_retire_lanes(w, mask);
    if (w->active)
        warp_set_pc(w, w->pc + 1);
    else
        warp_next_group(w);
}

void exec_h_trap(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    if (!mask) {
        warp_set_pc(w, w->pc + 1);
        return;
    }
    warp_fault(w, x, (unsigned)__builtin_ctz(mask), "EXEC-TRAP-001", "%s executed",
               x->in->op == IR_TRAP ? "trap" : "brkpt");
}

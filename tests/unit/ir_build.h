/* A small builder of kernel IR for unit tests: modules, functions, registers and instructions made
 * by hand, without a front-end, so that the executor, the verifier and the printer can be tested
 * on exactly the IR a test needs (including IR that no front-end would produce).
 *
 *   irb b;
 *   irb_module(&b);                                  // b.m: version 8.0, sm_80, 64-bit
 *   irb_func(&b, "k", 1);                            // an .entry; b.fn
 *   uint32_t out = irb_param(&b, "out", IR_T_U64);   // a symbol: IR_SYM_PARAM_BASE + index
 *   uint32_t a = irb_reg(&b, IR_T_U64, "%rd1");
 *   irb_ld(&b, IR_SPACE_PARAM, IR_T_U64, irb_r(a), irb_addr_sym(out, 0));
 *   irb_op(&b, IR_RET, IR_T_NONE);
 *   irb_finish(&b);                                  // ids and ninsns_total
 *   ... ir_module_destroy(b.m);
 *
 * Instruction i of a function sits at line 10 + i, column 3 + i of an imaginary kernel text, so
 * that diagnostics can be checked for their position. Capacities are fixed (IRB_MAX_*); going
 * past one aborts the test. Everything lives in the module's arena. */
#ifndef GMS_TESTS_UNIT_IR_BUILD_H
#define GMS_TESTS_UNIT_IR_BUILD_H

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

enum { IRB_MAX_FUNCS = 8, IRB_MAX_INSNS = 64, IRB_MAX_REGS = 64, IRB_MAX_PREDS = 16,
       IRB_MAX_XOPS = 16, IRB_MAX_PARAMS = 8, IRB_MAX_VARS = 8 };

typedef struct irb {
    ir_module *m;
    ir_func *fn; /* the function being built */
} irb;

static inline void *irb_alloc(irb *b, size_t bytes)
{
    void *p = arena_alloc(&b->m->arena, bytes);
    if (!p)
        abort();
    return p;
}

static inline void irb_module(irb *b)
{
    b->fn = NULL;
    b->m = calloc(1, sizeof *b->m);
    if (!b->m)
        abort();
    arena_init(&b->m->arena);
    b->m->path = "built.ir";
    b->m->version_major = 8;
    b->m->target_sm = 80;
    b->m->address_bits = 64;
    b->m->machine = (ir_machine){.flag_count = 1, .insn_bytes = 16}; /* PTX's machine */
    b->m->funcs = irb_alloc(b, IRB_MAX_FUNCS * sizeof(ir_func));
    b->m->vars = irb_alloc(b, IRB_MAX_VARS * sizeof(ir_var));
}

/* Starts function `name` (an .entry when is_entry) and makes it b->fn. */
static inline ir_func *irb_func(irb *b, const char *name, int is_entry)
{
    if (b->m->nfuncs >= IRB_MAX_FUNCS)
        abort();
    ir_func *fn = &b->m->funcs[b->m->nfuncs++];
    fn->name = name;
    fn->is_entry = (uint8_t)(is_entry != 0);
    fn->line = 1 + b->m->nfuncs;
    fn->col = 1;
    fn->insns = irb_alloc(b, IRB_MAX_INSNS * sizeof(ir_insn));
    fn->reg_types = irb_alloc(b, IRB_MAX_REGS);
    fn->reg_names = irb_alloc(b, IRB_MAX_REGS * sizeof(char *));
    fn->pred_names = irb_alloc(b, IRB_MAX_PREDS * sizeof(char *));
    fn->xops = irb_alloc(b, IRB_MAX_XOPS * sizeof(ir_operand));
    fn->params = irb_alloc(b, IRB_MAX_PARAMS * sizeof(ir_param));
    fn->rets = irb_alloc(b, IRB_MAX_PARAMS * sizeof(ir_param));
    fn->vars = irb_alloc(b, IRB_MAX_VARS * sizeof(ir_var));
    b->fn = fn;
    return fn;
}

/* Appends a parameter (or, with is_ret, a return value) of scalar type t, aligned to its size.
 * Returns its symbol reference. */
static inline uint32_t irb_param_or_ret(irb *b, const char *name, ir_type t, int is_ret)
{
    ir_func *fn = b->fn;
    uint32_t *n = is_ret ? &fn->nrets : &fn->nparams;
    if (*n >= IRB_MAX_PARAMS)
        abort();
    ir_param *p = is_ret ? &fn->rets[*n] : &fn->params[*n];
    uint32_t bytes = ir_type_bits(t) / 8;
    p->name = name;
    p->type = (uint8_t)t;
    p->align = bytes;
    p->size_bytes = bytes;
    if (!is_ret) {
        p->offset = (fn->params_bytes + bytes - 1) / bytes * bytes;
        fn->params_bytes = p->offset + bytes;
    }
    uint32_t index = (*n)++;
    return IR_SYM_PARAM_BASE + (is_ret ? IR_SYM_RET_OFFSET : 0) + index;
}

static inline uint32_t irb_param(irb *b, const char *name, ir_type t)
{
    return irb_param_or_ret(b, name, t, 0);
}

/* A module-scope variable of `bytes` bytes in `space`; returns its symbol reference. */
static inline uint32_t irb_var(irb *b, const char *name, ir_space space, uint64_t bytes)
{
    if (b->m->nvars >= IRB_MAX_VARS)
        abort();
    ir_var *v = &b->m->vars[b->m->nvars];
    v->name = name;
    v->space = (uint8_t)space;
    v->type = IR_T_B8;
    v->align = 8;
    v->size_bytes = bytes;
    return b->m->nvars++;
}

/* A register slot of type t (not pred) or a predicate slot; returns its number. */
static inline uint32_t irb_reg(irb *b, ir_type t, const char *name)
{
    if (b->fn->nregs >= IRB_MAX_REGS)
        abort();
    b->fn->reg_types[b->fn->nregs] = (uint8_t)t;
    b->fn->reg_names[b->fn->nregs] = name;
    return b->fn->nregs++;
}

static inline uint32_t irb_pred(irb *b, const char *name)
{
    if (b->fn->npreds >= IRB_MAX_PREDS)
        abort();
    b->fn->pred_names[b->fn->npreds] = name;
    return b->fn->npreds++;
}

/* ---- operands ---- */
static inline ir_operand irb_opnd(ir_operand_kind kind)
{
    ir_operand o;
    memset(&o, 0, sizeof o);
    o.kind = (uint8_t)kind;
    o.sym = IR_SYM_NONE;
    return o;
}

static inline ir_operand irb_r(uint32_t slot)
{
    ir_operand o = irb_opnd(IR_OPND_REG);
    o.reg = slot;
    return o;
}

static inline ir_operand irb_p(uint32_t slot)
{
    ir_operand o = irb_opnd(IR_OPND_PRED);
    o.reg = slot;
    return o;
}

static inline ir_operand irb_imm(int64_t bits)
{
    ir_operand o = irb_opnd(IR_OPND_IMM);
    o.imm = bits;
    return o;
}

static inline ir_operand irb_sreg(ir_sreg s)
{
    ir_operand o = irb_opnd(IR_OPND_SREG);
    o.reg = (uint32_t)s;
    return o;
}

static inline ir_operand irb_addr_reg(uint32_t slot, int64_t offset)
{
    ir_operand o = irb_opnd(IR_OPND_ADDR);
    o.has_reg = 1;
    o.reg = slot;
    o.imm = offset;
    return o;
}

static inline ir_operand irb_addr_sym(uint32_t sym, int64_t offset)
{
    ir_operand o = irb_opnd(IR_OPND_ADDR);
    o.sym = sym;
    o.imm = offset;
    return o;
}

static inline ir_operand irb_label(uint32_t index)
{
    ir_operand o = irb_opnd(IR_OPND_LABEL);
    o.imm = index;
    return o;
}

static inline ir_operand irb_func_ref(uint32_t index)
{
    ir_operand o = irb_opnd(IR_OPND_FUNC);
    o.sym = index;
    return o;
}

static inline ir_operand irb_sym(uint32_t sym, int64_t offset)
{
    ir_operand o = irb_opnd(IR_OPND_SYM);
    o.sym = sym;
    o.imm = offset;
    return o;
}

/* ---- instructions ---- */
/* Appends an instruction of opcode `op` and type t with no operands; returns it. */
static inline ir_insn *irb_op(irb *b, ir_opcode op, ir_type t)
{
    ir_func *fn = b->fn;
    if (fn->ninsns >= IRB_MAX_INSNS)
        abort();
    ir_insn *in = &fn->insns[fn->ninsns];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->type = (uint8_t)t;
    in->line = 10 + fn->ninsns;
    in->col = 3 + fn->ninsns;
    for (int i = 0; i < 2; i++) in->dst[i] = irb_opnd(IR_OPND_NONE);
    for (int i = 0; i < 4; i++) in->src[i] = irb_opnd(IR_OPND_NONE);
    fn->ninsns++;
    return in;
}

/* Sets dst[i] / src[i] and widens the operand count to cover it. */
static inline ir_insn *irb_dst(ir_insn *in, unsigned i, ir_operand o)
{
    in->dst[i] = o;
    if (in->ndst < i + 1)
        in->ndst = (uint8_t)(i + 1);
    return in;
}

static inline ir_insn *irb_src(ir_insn *in, unsigned i, ir_operand o)
{
    in->src[i] = o;
    if (in->nsrc < i + 1)
        in->nsrc = (uint8_t)(i + 1);
    return in;
}

static inline ir_insn *irb_guard(ir_insn *in, uint32_t pred, int negated)
{
    in->has_guard = 1;
    in->guard = pred;
    in->guard_neg = (uint8_t)(negated != 0);
    return in;
}

/* d = op(a) / op(a, c) / op(a, c, e) for ALU ops (pass a NONE operand to leave a slot out). */
static inline ir_insn *irb_alu(irb *b, ir_opcode op, ir_type t, ir_operand d, ir_operand a,
                               ir_operand c, ir_operand e)
{
    ir_insn *in = irb_op(b, op, t);
    irb_dst(in, 0, d);
    irb_src(in, 0, a);
    if (c.kind)
        irb_src(in, 1, c);
    if (e.kind)
        irb_src(in, 2, e);
    return in;
}

/* A scalar load or store of type t in `space`. */
static inline ir_insn *irb_ld(irb *b, ir_space space, ir_type t, ir_operand d, ir_operand addr)
{
    ir_insn *in = irb_op(b, IR_LD, t);
    irb_src(irb_dst(in, 0, d), 0, addr);
    in->mem.space = (uint8_t)space;
    in->mem.elem_bytes = (uint8_t)(ir_type_bits(t) / 8);
    in->mem.vec = 1;
    return in;
}

static inline ir_insn *irb_st(irb *b, ir_space space, ir_type t, ir_operand addr, ir_operand v)
{
    ir_insn *in = irb_op(b, IR_ST, t);
    irb_src(irb_src(in, 0, addr), 1, v);
    in->mem.space = (uint8_t)space;
    in->mem.elem_bytes = (uint8_t)(ir_type_bits(t) / 8);
    in->mem.vec = 1;
    return in;
}

static inline ir_insn *irb_bra(irb *b, uint32_t target)
{
    return irb_src(irb_op(b, IR_BRA, IR_T_NONE), 0, irb_label(target));
}

/* Numbers every instruction of the module (static ids in function order) and sets
 * ninsns_total. Call after the last instruction. */
static inline void irb_finish(irb *b)
{
    uint32_t id = 0;
    for (uint32_t f = 0; f < b->m->nfuncs; f++)
        for (uint32_t i = 0; i < b->m->funcs[f].ninsns; i++) b->m->funcs[f].insns[i].id = id++;
    b->m->ninsns_total = id;
}

#endif

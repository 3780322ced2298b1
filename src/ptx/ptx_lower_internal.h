/* What ptx_lower.c (instruction forms) and ptx_lower_opnd.c (operands) share: the lowering
 * context of one instruction and the operand routines the forms call. Not part of the front-end's
 * interface (ptx_internal.h has that). Every routine reports its own errors through the parser
 * (file:line:col [RULE]) and returns false (or NULL) after one. */
#ifndef GMS_PTX_PTX_LOWER_INTERNAL_H
#define GMS_PTX_PTX_LOWER_INTERNAL_H

#include "ptx/ptx_internal.h"

/* One instruction being lowered: its parser, context, IR instruction and parsed operands. */
typedef struct lower {
    ptx_parser *p;
    ptx_insn_ctx *c;
    ir_insn *in;
    ptx_popnd *ops;
} lower;

/* Source operand permissions. */
enum { A_REG = 1, A_IMM = 2, A_SREG = 4, A_SYM = 8, A_WIDE = 16, A_NOT = 32, A_SINK = 64 };

/* Reports `msg` at operand `o` (PTX-*-NNN `rule`), quoting the instruction. Returns false. */
bool lower_err(lower *L, const ptx_popnd *o, const char *rule, const char *msg);
/* Whether the instruction has lo..hi operands; PTX-OPND-001 when not. */
bool lower_count_is(lower *L, uint32_t lo, uint32_t hi);
/* Whether `t` is an untyped bit type (.b8 .. .b128). */
bool lower_is_bit_type(ir_type t);
/* The integer type twice as wide as 16- or 32-bit `t` (.wide forms); `t` itself otherwise. */
ir_type lower_wide_type(ir_type t);
/* The binding of name `n` (its register slot in *slot); NULL when it is a special register
 * (nothing reported) or undeclared or unmodelled (PTX-SYM-001/002, PTX-UNSUP-002 reported). */
const ptx_binding *lower_resolve(lower *L, const ptx_name *n, uint32_t *slot);
/* The IR symbol reference of a variable, parameter or function binding; IR_SYM_NONE otherwise. */
uint32_t lower_sym_ref(const ptx_binding *b);
/* Whether a binding kind names memory (variable, function variable, parameter, return value). */
bool lower_is_var_kind(uint8_t k);
/* A register or predicate name checked against type `t` (A_WIDE in flags: a wider register
 * fits). */
bool lower_reg_operand(lower *L, const ptx_name *n, ir_type t, unsigned flags, ir_operand *out);
/* A source operand of type `t` with the permissions A_* in `flags`. */
bool lower_src(lower *L, const ptx_popnd *o, ir_type t, unsigned flags, ir_operand *out);
/* A destination operand of type `t` (A_WIDE, A_SINK in `flags`). */
bool lower_dst(lower *L, const ptx_popnd *o, ir_type t, unsigned flags, ir_operand *out);
/* A 32-bit integer register or immediate (shift amounts, masks). */
bool lower_u32src(lower *L, const ptx_popnd *o, ir_operand *out);
/* A braced vector operand {a, b, ...} of elements of type `t` (`count` of them; 0: any number)
 * into one IR_OPND_VEC operand. */
bool lower_vector(lower *L, const ptx_popnd *o, ir_type t, unsigned count, unsigned flags,
                  ir_operand *out);
/* An address operand [base+offset] of the instruction's state space. */
bool lower_address(lower *L, const ptx_popnd *o, ir_operand *out);

#endif

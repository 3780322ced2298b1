/* Lane-wise instruction semantics: the pure functions of the ALU class of ir_ops.def.
 *
 * The executor hands each ALU instruction 32-lane arrays of raw register bits and gets 32 lanes of
 * results back; it then writes them to the destination under the active mask. Functions compute
 * every lane (inactive lanes included, so the loops vectorise) and must not fault or invoke
 * undefined behaviour on any input bits. This module knows nothing of warps, masks or memory.
 *
 * Register bits: narrower types occupy the low bits of each uint64_t lane; results are written
 * zero-extended to their width (an s32 result of -1 is 0x00000000FFFFFFFF). Predicates, carry in
 * and carry out are 0 or 1 per lane. Float values travel as IEEE bits (f16/bf16 in the low 16
 * bits, f16x2/bf16x2 as two halves of 32 bits, element 0 in the low half).
 *
 * Semantics follow PTX ISA 9.1 chapter 9.7 (integer §9.7.1, extended-precision §9.7.2, float
 * §9.7.3, half §9.7.4, comparison §9.7.7, logic §9.7.8, data movement cvt §9.7.9.21). */
#ifndef GMS_EXEC_ALU_H
#define GMS_EXEC_ALU_H

#include <stdint.h>

#include "ir/ir.h"

enum { ALU_LANES = 32 };

typedef struct alu_args {
    const uint64_t *src[4];    /* lane arrays for src[0..3] of the instruction; NULL when absent */
    uint64_t *dst;             /* 32 result lanes */
    uint64_t *dst2;            /* second result lanes (setp's second predicate), or NULL */
    const uint64_t *carry_in;  /* IR_MOD_CARRY_IN: 0/1 per lane */
    uint64_t *carry_out;       /* IR_MOD_CC: receives 0/1 per lane */
} alu_args;

typedef void (*alu_fn)(const ir_insn *in, const alu_args *args);

/* Returns the function that computes `in` (chosen by opcode, types, modifiers, rounding), or NULL
 * when the combination is not one this module implements; the caller reports that as a
 * diagnostic naming the instruction. Never fails otherwise. */
alu_fn alu_lookup(const ir_insn *in);

/* Atomic and reduction arithmetic (PTX ISA 9.1 §9.7.13.5 atom): returns the new memory value for
 * operation `atom_op` (IR_ATOM_*) of type `type` given the old value and operands b (and c for
 * cas). inc/dec follow the PTX wrap rules; f32 add flushes subnormals (as atom.add.f32 does) unless
 * `mods` has IR_MOD_NOFTZ; f16/bf16/f16x2/bf16x2 add round to nearest. Unsupported combinations
 * return `old` and set *ok = 0 (ok may be NULL when the caller has validated the combination with
 * alu_atom_supported). */
uint64_t alu_atom_apply(uint8_t atom_op, ir_type type, uint32_t mods, uint64_t old, uint64_t b,
                        uint64_t c, int *ok);
/* 1 when alu_atom_apply implements (atom_op, type). */
int alu_atom_supported(uint8_t atom_op, ir_type type);

/* Half-precision conversions used by cvt and by the executor's printf (bit exact, round to
 * nearest even, NaN and infinity preserving). */
float alu_f16_to_f32(uint16_t h);
uint16_t alu_f32_to_f16_rn(float f);
float alu_bf16_to_f32(uint16_t h);
uint16_t alu_f32_to_bf16_rn(float f);

/* Matrix instructions (alu_mma.c; PTX ISA 9.1 §9.7.14; docs/semantics.md, "Matrix
 * instructions"). A fragment is the registers one lane holds of matrix frag (IR_FRAG_A, _B, _C,
 * _D) of instruction `in` (family MATRIX), with elements of type t numbered low to high through
 * its registers. */
/* The rows and columns (OUT) of the whole matrix of fragment frag: the shape's, except for
 * mma.m8n8k4 with f16, whose four MMAs the model keeps side by side (a, c, d: 32 rows, computation
 * q's in rows 8q..8q+7; b: 32 columns, q's in columns 8q..8q+7). */
void alu_mma_dims(const ir_insn *in, unsigned frag, unsigned *rows, unsigned *cols);
/* Elements of type t one lane holds of fragment frag. */
unsigned alu_mma_elements(const ir_insn *in, unsigned frag, ir_type t);
/* The row and column (OUT) of element e of lane `lane` (0..31) in the matrix: mma's layouts as
 * PTX defines them, and the model's own for wmma, whose layout PTX leaves unspecified. */
void alu_mma_coord(const ir_insn *in, unsigned frag, ir_type t, unsigned lane, unsigned e,
                   unsigned *row, unsigned *col);
/* Element e's value from a lane's fragment registers `regs` (register bits, low first): exact
 * (tf32 without its low 13 fraction bits, integers as integers). */
double alu_mma_read(ir_type t, const uint64_t *regs, unsigned e);
/* Writes v as element e of type t (f16/f32/f64 rounded to nearest even; s32 wrapped, or clamped
 * with `satfinite`) into the fragment registers `regs`, keeping the other elements' bits. */
void alu_mma_write(ir_type t, uint64_t *regs, unsigned e, double v, int satfinite);
/* d = a * b + c over the row-major matrices of alu_mma_dims (m x k, k x n, m x n for one MMA),
 * in the model's order of sums (alu_mma.c); d is not rounded to its type yet (alu_mma_write
 * does). */
void alu_mma_multiply(const ir_insn *in, const double *a, const double *b, const double *c,
                      double *d);

#endif

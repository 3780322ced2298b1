/* The IR printer: a readable listing of a lowered module, one instruction per line, for
 * `gpumemsim check --dump-ir`, golden tests and debugging. Everything it shows comes from the
 * module and the tables of ir_ops.def (names, modifiers, sub-operations) and ir_mem_attrs_visit
 * (memory attributes); it knows no dialect. The format is described in docs/architecture.md
 * ("The IR printer"); it is for people and golden files, not for reading back.
 *
 * An instruction line: index, guard, opcode with sub-operation, comparison, rounding, modifiers
 * and types, operands (registers by their declared names), {memory attributes}, "; line:col"
 * of the kernel text (and ".loc file:line" when known). Label operands are printed as L<index>.
 * A glue instruction (ir_insn.glue) starts with "glue "; an ADDR with a pair base prints it as
 * [Rlo:Rhi+off] and one in a constant bank other than 0 as c<bank>[...]. In a function with issue
 * controls (ir_func.ctrl) each dialect instruction's line ends with them in brackets:
 * "[S<stall> Y wr=<sb> rd=<sb> req=<sbs> le=SB<n>,<k> r=<registers read> w=<written>]", each part
 * only when set. A module whose machine is not PTX's (ir_machine) gets a "; machine:" line. */
#ifndef GMS_IR_IR_PRINT_H
#define GMS_IR_IR_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "ir/ir.h"

/* Formats instruction `in` of function `fn` of module `m` (all borrowed) as one line without its
 * index and without a newline. Writes at most `size` bytes including the terminating NUL
 * (truncating, like snprintf; buf may be NULL when size is 0) and returns the length of the whole
 * line. Operand numbers out of range are printed as numbers, so a module that ir_verify rejects
 * still prints. */
size_t ir_print_insn(char *buf, size_t size, const ir_module *m, const ir_func *fn,
                     const ir_insn *in);

/* Writes function `fn` of `m` to `out` (borrowed): a header line (kind, name, counts, line), its
 * parameters, return values and variables, then one line per instruction, "%5u  " index first.
 * Returns 0, or -1 when a write failed or memory ran out. */
int ir_print_func(FILE *out, const ir_module *m, const ir_func *fn);

/* Writes the whole module: a header line (path, version, target, address size, counts), the
 * module-scope variables, then every function in module order separated by blank lines.
 * Returns 0, or -1 when a write failed or memory ran out. */
int ir_print_module(FILE *out, const ir_module *m);

#endif

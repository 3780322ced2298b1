/* The lowering's entry points for the parser (visa_parse.c, visa_insn.c): the life of the
 * kernel's one IR function and the lowering of the ALU and control instructions of the table.
 * The helpers that LSC lowering also uses are in visa_internal.h. */
#ifndef GMS_VISA_VISA_LOWER_H
#define GMS_VISA_VISA_LOWER_H

#include "visa/visa_internal.h"

/* Opens the kernel's IR function at `.function` (directive token `dir`): the declarations are
 * complete, so the GRF size, each variable's storage and the thread payload are settled here. */
void visa_begin_function(visa_parser *p, const fe_token *dir);
/* Defines label `name` at the next instruction (VISA-SEM-004 when defined twice). */
void visa_define_label(visa_parser *p, const fe_token *name);
/* Parses and lowers the instruction line at the cursor (visa_insn.c); false after a diagnostic. */
bool visa_parse_insn(visa_parser *p);
/* Lowers one ALU or control instruction of table row `op` with its parsed operands
 * (ops[0] the destination or flag, then the sources; a GOTO's label in ops[0]). */
bool visa_lower_insn(visa_parser *p, const visa_insn_head *h, int op, visa_operand *ops,
                     int nops);
/* svm_atomic (visa_svm.c): parses its raw operands and lowers it to an IR atom or red on global
 * memory; false after a diagnostic. */
bool visa_lower_svm_atomic(visa_parser *p, const visa_insn_head *h);
/* Resolves labels, places the payload prologue and appends the IR function to the module. */
void visa_end_function(visa_parser *p);
/* Moves the functions into the module and fills its ir_machine; false when out of memory. */
bool visa_finish_module(visa_parser *p);
/* Frees the lowering's scratch storage. */
void visa_lower_fini(visa_parser *p);

#endif

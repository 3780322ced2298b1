/* The IR verifier: checks a lowered module against the opcode table (src/ir/ir_ops.def) and
 * against the invariants the executor relies on without checking them again: operand counts and
 * kinds, register, predicate and symbol numbers, branch targets, modifiers, sub-operations, memory
 * attributes, call operands, instruction ids, and that no function runs off its end.
 *
 * A violation is a bug of the front-end that produced the module (or of a hand-built test module),
 * never of the kernel text: front-ends report bad input with their own rules before lowering. The
 * PTX front-end runs the verifier on every module it returns when NDEBUG is not defined (dev and
 * sanitizer builds); tests run it on every committed kernel in every build. */
#ifndef GMS_IR_IR_VERIFY_H
#define GMS_IR_IR_VERIFY_H

#include <stddef.h>

#include "base/diag.h"
#include "ir/ir.h"

/* Verifies every function of `m` (borrowed; not modified). Each violation is added to `dl`
 * (borrowed, caller-owned) as an error at the instruction's line and column in m->path, with rule
 * IR-VERIFY-001..012 (docs/architecture.md, "The IR verifier"); module-wide problems have no
 * line. Returns the number of violations found: 0 when the module is well formed. Never fails
 * otherwise (an allocation failure only skips the instruction-id overlap check). */
size_t ir_verify(const ir_module *m, diag_list *dl);

#endif

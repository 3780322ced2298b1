/* The LSC family of the vISA front-end (lsc_load, lsc_store, lsc_atomic_*, lsc_fence and their
 * variants; /work reference visa-lsc.md, docs/visa.md "LSC instructions"). The instruction
 * dispatcher (visa_insn.c) hands every mnemonic that starts with `lsc_` to visa_lsc_insn, once it
 * has read the predicate, the mnemonic with its dotted modifiers and the execution size (when
 * present). */
#ifndef GMS_VISA_VISA_LSC_H
#define GMS_VISA_VISA_LSC_H

#include <stdbool.h>

#include "visa/visa_internal.h"

/* Parses the operands of the LSC instruction `h` (the cursor is after the execution size, or
 * after the modifiers when the line has none), checks its rules and lowers it with visa_emit and
 * the operand helpers of visa_internal.h.
 *   p  borrowed; the parser (diagnostics go to its cursor)
 *   h  borrowed; the instruction head (mnemonic token, modifiers, predicate, execution size)
 * Returns true when the instruction was lowered; false after at least one diagnostic (the caller
 * then skips the rest of the line). */
bool visa_lsc_insn(visa_parser *p, const visa_insn_head *h);

#endif

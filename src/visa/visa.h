/* The Intel vISA front-end: reads vISA text (.visaasm, as IGC prints it with `.version 4.1`;
 * docs/visa.md) and produces the kernel IR of ir/ir.h, or diagnostics.
 *
 * A vISA kernel is one SIMD thread of SimdSize lanes per hardware thread; it is lowered so that
 * each lane is a lane of a warp-like unit of SimdSize lanes (docs/visa.md, "Execution model").
 * The LSC memory instructions are parsed by visa_lsc.c. It does not execute, print or exit. */
#ifndef GMS_VISA_VISA_H
#define GMS_VISA_VISA_H

#include <stddef.h>

#include "base/diag.h"
#include "frontend/fe_token.h"
#include "frontend/frontend.h"
#include "ir/ir.h"

/* The dialect's entry in the registry (frontend.h): name "visa", suffix ".visaasm", parse
 * visa_parse_module, list-ops from visa_ops.def, and every VISA-* rule (docs/visa.md). Only
 * src/frontend/frontend_builtin.c and the vISA tests name it. */
extern const frontend_dialect visa_dialect;

/* Parses, checks and lowers one vISA module (docs/visa.md, "Dialect").
 *   path  borrowed; the file name for diagnostics (copied into the module).
 *   text  borrowed; `len` bytes, need not be NUL-terminated; NULL reads as empty.
 *   dl    borrowed, caller-owned; receives every diagnostic (rule ids VISA-*).
 * Returns the module, owned by the caller (free with ir_module_destroy), or NULL when at least
 * one error was reported (the parser skips the rest of a bad line and goes on) or memory ran out
 * (VISA-LIMIT-001). */
ir_module *visa_parse_module(const char *path, const char *text, size_t len, diag_list *dl);

/* Splits `len` bytes of vISA text into tokens (lexical errors VISA-LEX-* go to dl; the list
 * still ends with EOF). `out` is caller storage, filled from empty; free it with
 * fe_token_list_free. Returns 0, or -1 when out of memory (VISA-LIMIT-001; out is empty). */
int visa_lex(const char *path, const char *text, size_t len, fe_token_list *out, diag_list *dl);

#endif

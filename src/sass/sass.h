/* The SASS-style front-end: reads the project's SASS-style assembly dialect (Maxwell/Pascal
 * disassembly syntax with the control fields &req, &rd, &wr, ?sched, or maxas and CuAssembler
 * control prefixes; docs/sass.md) and produces the kernel IR of ir/ir.h, or diagnostics.
 *
 * It checks every legality rule of the dialect (docs/sass.md, "Rules": sizes, cache operators,
 * CCTL/CCTLL forms, register alignment, offsets, control fields and minimum stalls, atomics) and
 * lowers each kernel into one IR function on a 32-bit register machine with the sm_5x ABI
 * (parameters in constant bank 0 from 0x140, call-return stack, scoreboards). It does not
 * execute, print or exit. */
#ifndef GMS_SASS_SASS_H
#define GMS_SASS_SASS_H

#include <stddef.h>

#include "base/diag.h"
#include "frontend/frontend.h"
#include "ir/ir.h"

/* The dialect's entry in the registry (frontend.h): name "sass", suffix ".sass", parse
 * sass_parse_module, list-ops from sass_ops.def, and every SASS-* rule (docs/sass.md). Only
 * src/frontend/frontend_builtin.c and the SASS tests name it. */
extern const frontend_dialect sass_dialect;

/* Parses, checks and lowers one SASS-style module (docs/sass.md).
 *   path  borrowed; the file name for diagnostics (copied into the module).
 *   text  borrowed; `len` bytes, need not be NUL-terminated; NULL reads as empty.
 *   dl    borrowed, caller-owned; receives every diagnostic (rule ids SASS-*).
 * Returns the module, owned by the caller (free with ir_module_destroy), or NULL when at least
 * one error was reported (the parser recovers at the next ';' and reports several) or memory ran
 * out (SASS-LIMIT-001). */
ir_module *sass_parse_module(const char *path, const char *text, size_t len, diag_list *dl);

#endif

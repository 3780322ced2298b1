/* The PTX front-end: reads a PTX module as nvcc emits it (PTX ISA up to 9.1, targets sm_50..sm_120)
 * and produces the kernel IR of ir/ir.h, or diagnostics.
 *
 * It checks what ptxas would check that matters to simulation (mnemonics, modifiers, types,
 * operand shapes, declarations, .version/.target requirements, cache-operator rules) and rejects
 * every feature gpumemsim does not model with a diagnostic naming it. It does not execute, print,
 * or exit. The accepted language and every rule id are described in docs/ptx.md. */
#ifndef GMS_PTX_PTX_H
#define GMS_PTX_PTX_H

#include <stddef.h>

#include "base/diag.h"
#include "frontend/frontend.h"
#include "ir/ir.h"

/* The PTX dialect's entry in the registry (frontend.h): name "ptx", suffix ".ptx", parse
 * ptx_parse_module, list-ops from ptx_ops.def (`gpumemsim check --list-ops`), and every PTX-* rule
 * with its summary (ptx_ops.def's PTX_RULE rows, documented in docs/ptx.md). Only
 * src/frontend/frontend_builtin.c and the PTX tests name it; everything else finds it in a
 * registry. */
extern const frontend_dialect ptx_dialect;

/* Parses, checks and lowers one PTX module (PTX ISA 9.1 chapters 4-11).
 *   path  borrowed; used only as the file name in diagnostics and copied into the module.
 *   text  borrowed; `len` bytes of module text, need not be NUL-terminated.
 *   dl    borrowed, caller-owned; receives every diagnostic (rule ids PTX-*, docs/ptx.md).
 * Returns the module, owned by the caller (free with ir_module_destroy), when no error was
 * reported; returns NULL when at least one error was reported (all of them are in dl: the parser
 * recovers at the next ';' or '}' and keeps going) or when memory ran out (PTX-LIMIT-002). */
ir_module *ptx_parse_module(const char *path, const char *text, size_t len, diag_list *dl);

#endif

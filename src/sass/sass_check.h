/* What the two halves of the SASS checker share (sass_check.c: forms, ALU and control rules;
 * sass_check_mem.c: memory, cache-control, atomic and register rules). */
#ifndef GMS_SASS_SASS_CHECK_H
#define GMS_SASS_SASS_CHECK_H

#include "sass/sass_internal.h"

/* Whether immediate operand `o` lies in lo..hi; reports SASS-IMM-001 naming `field` if not. */
bool sass_imm_fits(sass_parser *p, const sass_opnd *o, int64_t lo, int64_t hi, const char *field);

/* The rules of the memory instructions (sizes, cache operators, offsets, alignment, .E, CCTL and
 * CCTLL forms, atomics) on one instruction whose operands match its form. Returns false after
 * reporting. */
bool sass_check_mem(sass_parser *p, const sass_insn *in);

/* The rules of SUATOM, SULD, SUST and SURED (sass_check_surf.c; docs/sass.md, "Surfaces"): mode,
 * dimension, coordinates, operation and size, Ps, the surface operand. Returns false after
 * reporting. */
bool sass_check_surface(sass_parser *p, const sass_insn *in);

/* Counts the kernel's registers (k->max_reg) and reports SASS-REG-002 for any at or beyond an
 * explicit .registers. Returns the number of errors. */
unsigned sass_check_registers(sass_parser *p);

/* CCTL.C.IVALL and CCTL.I.IVALL (no &rd, stall >= 5); CCTLL.CRS.WBALL (stall >= 5). */
bool sass_cctl_is_dispatch_ivall(const sass_insn *in);
bool sass_cctl_is_crs_wball(const sass_insn *in);

/* How many 32-bit registers the data operand `slot` of `in` spans (1, 2 or 4), and whether the
 * memory operand's base is a pair (.E). */
unsigned sass_data_regs(const sass_insn *in, unsigned slot);

#endif

/* What the memory-instruction files share: exec_mem.c (the handlers), exec_mem_same.c (the
 * loads whose lanes all read one address) and exec_mem_report.c (the reports of failed
 * accesses). The address's part without a register, a loaded element's extension and its
 * broadcast are inline (the parameter load's own path keeps them); exec_mem.c's fence and
 * unpacking steps and exec_mem_report.c's fault and window-error reports are calls. */
#ifndef GMS_EXEC_EXEC_MEM_INTERNAL_H
#define GMS_EXEC_EXEC_MEM_INTERNAL_H

#include <string.h>

#include "exec/exec_internal.h"
#include "mem/memsys.h"

/* The part of an ADDR operand's address without its register (offset and variable) into *base,
 * and the space lane_addresses returns. */
static inline ir_space address_base(exec_warp *w, const ir_operand *o, ir_space written,
                                    uint64_t *base)
{
    ir_space sp = written;
    *base = (uint64_t)o->imm;
    if (o->sym != IR_SYM_NONE && o->kind == IR_OPND_ADDR) {
        ir_space sym_space;
        *base += warp_symbol_address(w, o->sym, &sym_space);
        sp = sym_space;
        /* A generic access to a variable names its window address. */
        if (written == IR_SPACE_GENERIC && sym_space != IR_SPACE_NONE && sym_space != IR_SPACE_GLOBAL) {
            *base += mem_window_base(sym_space);
            sp = IR_SPACE_GENERIC;
        } else if (written != IR_SPACE_GENERIC && sym_space != IR_SPACE_NONE) {
            sp = written;
        }
    }
    return sp;
}

/* Element e (eb bytes) of a lane's loaded bytes `p`, extended as the destination register
 * wants (x->dst_signed, x->dst_bits): unpack_load's rule for one lane. */
static inline uint64_t load_element(const exec_xinsn *x, const uint8_t *p, unsigned e,
                                    unsigned eb)
{
    unsigned bits = x->dst_bits ? x->dst_bits : 64;
    uint64_t v = 0;
    switch (eb) { /* fixed sizes the compiler inlines (a copy of variable size is a call) */
    case 4: memcpy(&v, p + e * 4, 4); break;
    case 8: memcpy(&v, p + e * 8, 8); break;
    default: memcpy(&v, p + e * eb, eb < 8 ? eb : 8); break;
    }
    if (eb == 4 && !x->dst_signed)
        return v;
    if (eb == 8)
        return v;
    if (x->dst_signed && eb < 8) {
        unsigned sh = 64 - 8 * eb;
        v = (uint64_t)((int64_t)(v << sh) >> sh);
    }
    if (bits < 64)
        v &= (1ull << bits) - 1;
    return v;
}

/* Writes v to the lanes of register row r (32 values) that `mask` selects: the value of a load
 * whose lanes all read one address. */
static inline void broadcast_to_lanes(uint64_t *r, uint64_t v, uint32_t mask)
{
    if (mask == FULL_MASK) {
        for (unsigned l = 0; l < LANES; l++) r[l] = v;
    } else {
        for (unsigned l = 0; l < LANES; l++) r[l] = ((mask >> l) & 1u) ? v : r[l];
    }
}

/* exec_mem_report.c, the reports of failed accesses (cold: called only when one fails). */

/* The name of space s (an ir_space) in messages: "global", "shared", ...; "?" for a value that
 * names no space. A static string, never NULL. */
const char *exec_mem_space_name(uint8_t s);
/* The warp's fault (warp_fault) for access acc that memsys_access failed with *fault
 * (EXEC-MEM-001): at fault->lane, naming the space, the operation, fault->bytes bytes and the
 * address. Returns nothing; the warp stops as warp_fault makes it. docs/faults.md. */
void exec_mem_fault(exec_warp *w, const exec_xinsn *x, const mem_access *acc,
                    const mem_fault *fault);
/* Records a window error for the lanes `lanes` (a lane mask, not 0) of access acc in the run's
 * exec_stats: outside its window or allocation (EXEC-WINDOW-001), or, with `misaligned` not 0,
 * an address not a multiple of the access's bytes (EXEC-WINDOW-002). Every lane counts in
 * window_errors; the first lane's address goes into errors[] while fewer than EXEC_ERRORS_KEPT
 * are kept. Cannot fail. docs/faults.md, "Window errors". */
void exec_mem_window_error(exec_warp *w, const exec_xinsn *x, const mem_access *acc,
                           uint32_t lanes, int misaligned);

/* exec_mem.c's steps for exec_mem_same.c. */
/* A fence with instruction x's side effects (mem.fence) for the lanes `mask`. */
void exec_mem_fence(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* The value lane `lead` loaded (acc->data[lead]) into the destination registers' lanes `mask`. */
void exec_mem_unpack_same(exec_warp *w, const exec_xinsn *x, uint32_t mask,
                          const mem_access *acc, unsigned lead);

#endif

/* What exec_mem.c shares with exec_mem_same.c, the loads whose lanes all read one address: the
 * address's part without a register, a loaded element's extension and its broadcast (inline:
 * the parameter load's own path keeps them), and exec_mem.c's fault, fence and unpacking steps. */
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

/* The warp's fault for a memory access that failed with *fault (EXEC-MEM-001). */
void exec_mem_fault(exec_warp *w, const exec_xinsn *x, const mem_access *acc,
                    const mem_fault *fault);
/* A fence with instruction x's side effects (mem.fence) for the lanes `mask`. */
void exec_mem_fence(exec_warp *w, const exec_xinsn *x, uint32_t mask);
/* The value lane `lead` loaded (acc->data[lead]) into the destination registers' lanes `mask`. */
void exec_mem_unpack_same(exec_warp *w, const exec_xinsn *x, uint32_t mask,
                          const mem_access *acc, unsigned lead);

#endif

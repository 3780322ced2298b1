/* What the two halves of the SASS lowering share (sass_lower.c: the function, registers, glue,
 * control fields and the ALU and control-flow instructions; sass_lower_mem.c: the memory,
 * cache-control, atomic, fence and barrier instructions). The contract they implement is
 * docs/sass.md, "Lowering", and the plan's "How a .sass module lowers". */
#ifndef GMS_SASS_SASS_LOWER_H
#define GMS_SASS_SASS_LOWER_H

#include "sass/sass_internal.h"

typedef struct sass_lowering {
    sass_parser *p;
    ir_module *m;
    dynarray insns;         /* ir_insn */
    dynarray ctrls;         /* ir_ctrl, one per ir_insn */
    dynarray temp_types;    /* uint8_t ir_type of each temporary register */
    uint32_t nregs;         /* the kernel's registers R0..R(nregs-1); temporaries follow */
    uint32_t npred_temps;   /* predicate temporaries after P0..P6, PT */
    uint32_t psink;         /* the predicate that takes writes to PT; UINT32_MAX until needed */
    const sass_insn *cur;   /* the SASS instruction being lowered */
    uint32_t cur_id;        /* its module-wide id */
    bool oom;
} sass_lowering;

enum { SASS_IR_PT = 7, SASS_IR_PREDS = 8 };

/* Appends an IR instruction of `op` for the current SASS instruction (its guard, position and
 * id; `glue` marks a helper). Returns it (valid until the next emit), or NULL when out of memory
 * (L->oom is set). */
ir_insn *sass_emit(sass_lowering *L, ir_opcode op, bool glue);
/* A new temporary register of `type`; its slot. */
uint32_t sass_temp(sass_lowering *L, ir_type type);
/* A predicate temporary; its slot. */
uint32_t sass_pred_temp(sass_lowering *L);

/* Operands: register r read (RZ reads as the immediate 0); register r written (RZ: a scratch
 * temporary); an immediate; a predicate (PT is slot 7). */
ir_operand sass_src_reg(uint32_t r);
ir_operand sass_dst_reg(sass_lowering *L, uint32_t r);
ir_operand sass_imm(int64_t v);
ir_operand sass_pred(uint32_t p, bool neg);
/* A register group {r, r+1, ...} of `count` b32 registers as a VEC (RZ: zero temporaries for a
 * source, scratch temporaries for a destination). */
ir_operand sass_vec(sass_lowering *L, uint32_t r, unsigned count, bool is_dst);

/* Lowers the memory-family instruction L->cur (LDG ... CCTLL, MEMBAR, BAR). Returns false when
 * out of memory. */
bool sass_lower_mem(sass_lowering *L);

#endif

/* Shared by the lowering files (visa_lower.c, visa_lower_opnd.c, visa_lower_alu.c): the storage
 * map of variables to IR registers and the glue helpers. */
#ifndef GMS_VISA_VISA_LOWER_INTERNAL_H
#define GMS_VISA_VISA_LOWER_INTERNAL_H

#include "visa/visa_internal.h"

/* One IR register that holds a piece of a root variable (or a P variable's predicate). */
typedef struct visa_slot {
    int32_t root;   /* the root variable (P: the variable) */
    int32_t anchor; /* uniform: the slot's first byte; per-lane: the byte of lane 0 */
    uint8_t lane;   /* 1: per-lane storage */
    uint8_t pred;   /* 1: a P variable's IR predicate */
    uint32_t reg;
    int64_t lo, hi; /* per-lane: the bytes of the root its accesses have covered */
} visa_slot;

/* An access to `lanes` elements of `var` (type `type`) from element `elem`, lane L reading
 * element elem + (L - lane_offset) * stride (stride 0: one element for every lane). */
typedef struct visa_access {
    int32_t var;
    uint8_t type;
    uint32_t elem, lane_offset, lanes, stride;
    uint32_t line, col;
} visa_access;

/* Where an access lands: the IR register and, for an element narrower than the slot, the
 * bit offset of the element in it. */
typedef struct visa_place {
    uint32_t reg;
    uint8_t shift, bits, slot_bits;
} visa_place;

uint32_t visa_new_reg(visa_parser *p, uint8_t type);
/* Whether destination region `o` of a no-mask, unpredicated instruction writes 32-bit elements
 * of one per-lane register that other lanes hold (docs/visa.md, "Cross-lane regions"): then
 * *hold_reg is that register and *c0 the lane holding the region's first element. */
bool visa_crosslane_dst(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                        uint32_t *hold_reg, uint32_t *c0);
/* Moves the result lanes [m, m + n) of `tmp` into the lanes of `hold_reg` that destination
 * region `o` names (shfl.sync.idx, then a move guarded by those lanes). False after OOM. */
bool visa_crosslane_scatter(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                            uint32_t hold_reg, uint32_t c0, uint32_t tmp);
/* The register holding %laneid (u32), loaded once in the prologue. */
uint32_t visa_laneid(visa_parser *p);
uint32_t visa_pred_reg(visa_parser *p, int32_t var);
bool visa_locate(visa_parser *p, const visa_access *a, visa_place *out);
bool visa_lower_dst_place(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                          visa_place *pl);

/* visa_emit without the vISA predicate as guard (sel reads it as an operand). */
ir_insn *visa_emit_unpredicated(visa_parser *p, uint16_t op, const visa_insn_head *h);
/* Appends a glue instruction (the head's position, guarded like the head's lanes when
 * `guarded`); NULL after out of memory. */
ir_insn *visa_glue(visa_parser *p, const visa_insn_head *h, uint16_t op, bool guarded);
/* Replaces *o by a temporary that holds *o shifted right by `shift` bits. */
bool visa_glue_shift(visa_parser *p, const visa_insn_head *h, ir_operand *o, uint8_t slot_bits,
                     uint8_t shift);
/* Replaces *o (of IR type `have`) by -o, |o| or -|o| in a temporary. */
bool visa_source_modifier(visa_parser *p, const visa_insn_head *h, ir_operand *o, uint8_t have,
                          bool neg, bool abs);
/* Converts *o from IR type `have` to `want` (vISA's implicit conversion of a source to the
 * execution type): same-size integers are reinterpreted; the rest go through cvt glue. */
bool visa_convert(visa_parser *p, const visa_insn_head *h, ir_operand *o, uint8_t have,
                  uint8_t want);
/* Writes `tmp` (holding `bits` bits) into bits [shift, shift + bits) of `reg` (bfi glue). */
bool visa_glue_insert(visa_parser *p, const visa_insn_head *h, uint32_t reg, uint32_t tmp,
                      const visa_place *pl);

#endif

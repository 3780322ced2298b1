/* Where vISA registers live in the IR (docs/visa.md, "Registers and regions").
 *
 * The IR executes a vISA thread as a warp-like unit whose lanes are the thread's SIMD lanes,
 * each with 64-bit register slots. A vISA variable is a byte array in the GRF; its storage owner
 * (the root of its aliases) is lowered in one of two ways, chosen by its first access:
 *   - uniform: every access is one element (a <0;1,0> source, an exec size of 1). The root is
 *     cut into slots of slot_bytes (its widest element type); slot k is one IR register that
 *     holds bytes [k*S, k*S+S) in every lane.
 *   - per-lane: every access gives lane L the element at a stride of exactly slot_bytes: lane L
 *     of the register for anchor A holds bytes [A + L*S, A + L*S + S). A region at row r, column
 *     c under mask offset m starts at byte X = root_offset + (r*grf + c*size) - m*S; its
 *     register is anchor X - (X mod S), and an element narrower than S sits (X mod S) bytes in.
 * A region that needs another lane's data (a scalar read of a per-lane variable, a stride that
 * is not one slot per lane) is cross-lane and rejected (VISA-UNSUP-005). Narrower elements are
 * read with a shift and written with a bit-field insert (glue). */
#include <stdio.h>
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower_internal.h"

uint32_t visa_new_reg(visa_parser *p, uint8_t type)
{
    uint8_t *t = dynarray_push(&p->reg_types);
    if (!t) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return 0;
    }
    *t = type;
    return p->nregs++;
}

/* The register of storage (root, anchor, per-lane), created on first use; an access covers
 * bytes [lo, hi) of the root. Two per-lane registers of one root may not cover the same bytes:
 * that data would have to move between lanes. Returns UINT32_MAX for such an overlap. */
static uint32_t slot_reg(visa_parser *p, int32_t root, int32_t anchor, bool lane, uint8_t irt,
                         int64_t lo, int64_t hi)
{
    visa_slot *s = p->slots.data;
    visa_slot *own = NULL;
    for (size_t i = 0; i < p->slots.count; i++) {
        if (s[i].root != root || s[i].lane != lane || s[i].pred)
            continue;
        if (s[i].anchor == anchor)
            own = &s[i];
        else if (lane && lo < s[i].hi && s[i].lo < hi)
            return UINT32_MAX;
    }
    if (own) {
        own->lo = lo < own->lo ? lo : own->lo;
        own->hi = hi > own->hi ? hi : own->hi;
        return own->reg;
    }
    visa_slot *n = dynarray_push(&p->slots);
    if (!n) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return 0;
    }
    n->root = root;
    n->anchor = anchor;
    n->lane = lane;
    n->lo = lo;
    n->hi = hi;
    n->reg = visa_new_reg(p, irt);
    return n->reg;
}

uint32_t visa_pred_reg(visa_parser *p, int32_t var)
{
    visa_slot *s = p->slots.data;
    for (size_t i = 0; i < p->slots.count; i++)
        if (s[i].root == var && s[i].pred)
            return s[i].reg;
    visa_slot *n = dynarray_push(&p->slots);
    if (!n) {
        fe_cursor_oom(&p->cur, "VISA-LIMIT-001");
        return 0;
    }
    n->root = var;
    n->pred = 1;
    n->reg = p->npreds++;
    return n->reg;
}

static uint8_t bits_type(unsigned bytes)
{
    return bytes == 1 ? IR_T_B8 : bytes == 2 ? IR_T_B16 : bytes == 4 ? IR_T_B32 : IR_T_B64;
}

/* Whether root variable `v` may hold data here: G variables, %r0 and %cr0. */
static bool storage_ok(visa_parser *p, const visa_var *root, uint32_t line, uint32_t col)
{
    bool ok = root->kind == VISA_V_GENERAL &&
              (root->predef == VISA_PRE_NONE || root->predef == VISA_PRE_R0 ||
               root->predef == VISA_PRE_CR0);
    if (!ok)
        visa_error(p, line, col, "VISA-UNSUP-006", "'%.*s' cannot be used as a register operand here",
                   (int)root->len, root->name);
    return ok;
}

bool visa_locate(visa_parser *p, const visa_access *a, visa_place *out)
{
    const visa_var *v = visa_var_at(p, a->var);
    visa_var *root = visa_var_at(p, v->root);
    if (!storage_ok(p, root, a->line, a->col))
        return false;
    unsigned size = visa_types[a->type].bytes;
    unsigned S = root->slot_bytes;
    int64_t first = (int64_t)v->root_offset + (int64_t)a->elem * size;
    uint32_t root_bytes = root->num_elts * visa_types[root->type].bytes;
    int64_t last = first + (int64_t)(a->lanes ? a->lanes - 1 : 0) * a->stride * size + size;
    if (last > (int64_t)root_bytes) {
        visa_error(p, a->line, a->col, "VISA-SEM-003",
                   "region reaches byte %lld of '%.*s', which has %u", (long long)last,
                   (int)v->len, v->name, root_bytes);
        return false;
    }
    bool lane = a->stride != 0;
    if (root->mode == 0)
        root->mode = lane ? 2 : 1;
    if ((root->mode == 2) != lane || (lane && a->stride * size != S)) {
        visa_error(p, a->line, a->col, "VISA-UNSUP-005",
                   "region of '%.*s' moves data between lanes (the variable is %s; this access "
                   "is %s with a stride of %u bytes)",
                   (int)v->len, v->name, root->mode == 2 ? "per-lane" : "uniform",
                   lane ? "per-lane" : "one element", a->stride * size);
        return false;
    }
    int64_t x = lane ? first - (int64_t)a->lane_offset * S : first;
    int64_t sub = ((x % S) + S) % S;
    int64_t anchor = x - sub;
    out->reg = slot_reg(p, v->root, (int32_t)anchor, lane, bits_type(S),
                        anchor + (int64_t)a->lane_offset * S,
                        anchor + (int64_t)(a->lane_offset + a->lanes) * S);
    if (out->reg == UINT32_MAX) {
        visa_error(p, a->line, a->col, "VISA-UNSUP-005",
                   "region of '%.*s' moves data between lanes (lanes %u..%u read or write "
                   "elements that other lanes hold)",
                   (int)v->len, v->name, a->lane_offset, a->lane_offset + a->lanes - 1);
        return false;
    }
    out->shift = (uint8_t)(sub * 8);
    out->bits = (uint8_t)(size * 8);
    out->slot_bits = (uint8_t)(S * 8);
    return !p->cur.oom;
}

/* The access a source or destination region makes for the lanes of `ex`. */
static bool region_access(visa_parser *p, const visa_exec *ex, const visa_operand *o,
                          visa_access *a)
{
    const visa_var *v = visa_var_at(p, o->var);
    unsigned size = visa_types[o->type].bytes;
    memset(a, 0, sizeof *a);
    a->var = o->var;
    a->type = o->type;
    a->line = o->line;
    a->col = o->col_pos;
    if ((o->row * p->grf_bytes) % size) {
        visa_error(p, o->line, o->col_pos, "VISA-SEM-003", "row %u of '%.*s' is not element-aligned",
                   o->row, (int)v->len, v->name);
        return false;
    }
    a->elem = o->row * p->grf_bytes / size + o->col;
    a->lane_offset = ex->lane_offset;
    a->lanes = ex->size;
    uint32_t stride;
    if (o->is_dst)
        stride = o->hstride;
    else if (o->width == 1)
        stride = o->vstride; /* <v;1,h>: one element per row */
    else if (o->vstride == o->width * o->hstride || o->width >= ex->size)
        stride = o->hstride;
    else {
        visa_error(p, o->line, o->col_pos, "VISA-UNSUP-005",
                   "region <%u;%u,%u> of '%.*s' is not one element per lane", o->vstride,
                   o->width, o->hstride, (int)v->len, v->name);
        return false;
    }
    a->stride = ex->size == 1 ? 0 : stride;
    return true;
}

bool visa_lower_src(visa_parser *p, const visa_insn_head *h, const visa_operand *o, uint8_t want,
                    ir_operand *out)
{
    memset(out, 0, sizeof *out);
    if (o->kind == VISA_O_IMM) {
        out->kind = IR_OPND_IMM;
        out->imm = (int64_t)o->imm;
        return visa_convert(p, h, out, visa_types[o->type].ir_type, want);
    }
    if (o->kind != VISA_O_REG) {
        visa_error(p, o->line, o->col_pos, "VISA-SEM-001", "expected a register or immediate source");
        return false;
    }
    visa_access a;
    visa_place pl;
    if (!region_access(p, &h->exec, o, &a) || !visa_locate(p, &a, &pl))
        return false;
    out->kind = IR_OPND_REG;
    out->reg = pl.reg;
    if (pl.shift && !visa_glue_shift(p, h, out, pl.slot_bits, pl.shift))
        return false;
    uint8_t have = visa_types[o->type].ir_type;
    if ((o->neg || o->abs) && !visa_source_modifier(p, h, out, have, o->neg, o->abs))
        return false;
    return visa_convert(p, h, out, have, want);
}

bool visa_lower_dst_place(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                          visa_place *pl)
{
    if (o->kind != VISA_O_REG) {
        visa_error(p, o->line, o->col_pos, "VISA-SEM-001", "expected a register destination");
        return false;
    }
    visa_access a;
    return region_access(p, &h->exec, o, &a) && visa_locate(p, &a, pl);
}

bool visa_lower_dst(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                    ir_operand *out)
{
    visa_place pl;
    memset(out, 0, sizeof *out);
    if (!visa_lower_dst_place(p, h, o, &pl))
        return false;
    if (pl.bits != pl.slot_bits) {
        visa_error(p, o->line, o->col_pos, "VISA-UNSUP-006",
                   "a %u-bit part of a %u-bit slot cannot be written here", pl.bits,
                   pl.slot_bits);
        return false;
    }
    out->kind = IR_OPND_REG;
    out->reg = pl.reg;
    return true;
}

bool visa_lane_reg(visa_parser *p, int32_t var, uint32_t elem, const visa_exec *ex,
                   uint32_t line, uint32_t col, ir_operand *out)
{
    visa_access a = {.var = var, .type = visa_var_at(p, var)->type, .elem = elem,
                     .lane_offset = ex->lane_offset, .lanes = ex->size,
                     .stride = ex->size == 1 ? 0 : 1, .line = line, .col = col};
    visa_place pl;
    memset(out, 0, sizeof *out);
    if (!visa_locate(p, &a, &pl))
        return false;
    if (pl.shift || pl.bits != pl.slot_bits) {
        visa_error(p, line, col, "VISA-UNSUP-006",
                   "'%.*s' is a part of a wider register slot here", (int)visa_var_at(p, var)->len,
                   visa_var_at(p, var)->name);
        return false;
    }
    out->kind = IR_OPND_REG;
    out->reg = pl.reg;
    return true;
}

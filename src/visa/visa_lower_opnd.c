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

static bool pow2(uint32_t x) { return x && !(x & (x - 1)); }
static uint8_t log2u(uint32_t x) { return (uint8_t)__builtin_ctz(x); }

/* t = a OP b into a new u32 temporary (glue, every active lane). */
static uint32_t glue2(visa_parser *p, const visa_insn_head *h, uint16_t op, ir_operand a,
                      ir_operand b)
{
    uint32_t t = visa_new_reg(p, IR_T_U32);
    ir_insn *in = visa_glue(p, h, op, false);
    if (!in)
        return UINT32_MAX;
    in->type = IR_T_U32;
    in->ndst = 1, in->nsrc = 2;
    in->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = t};
    in->src[0] = a;
    in->src[1] = b;
    return t;
}

static ir_operand imm_opnd(int64_t v) { return (ir_operand){.kind = IR_OPND_IMM, .imm = v}; }
static ir_operand reg_of(uint32_t r) { return (ir_operand){.kind = IR_OPND_REG, .reg = r}; }

/* The lane that holds element i of a cross-lane region, as a per-lane u32 operand: for lane
 * L = m + i, c0 + ((i >> log2 w) << log2 v) + ((i & (w-1)) << log2 h) (docs/visa.md,
 * "Cross-lane regions"). */
static bool holder_lane(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                        uint32_t c0, ir_operand *idx)
{
    if (h->exec.size == 1) {
        *idx = imm_opnd(c0);
        return true;
    }
    uint32_t i = glue2(p, h, IR_SUB, reg_of(visa_laneid(p)), imm_opnd(h->exec.lane_offset));
    ir_operand acc = imm_opnd(c0);
    uint32_t w = o->width;
    if (w < h->exec.size && o->vstride) {
        uint32_t q = glue2(p, h, IR_SHR, reg_of(i), imm_opnd(log2u(w)));
        q = glue2(p, h, IR_SHL, reg_of(q), imm_opnd(log2u(o->vstride)));
        acc = reg_of(glue2(p, h, IR_ADD, acc, reg_of(q)));
    }
    if (o->hstride) {
        uint32_t r = w < h->exec.size ? glue2(p, h, IR_AND, reg_of(i), imm_opnd(w - 1)) : i;
        r = glue2(p, h, IR_SHL, reg_of(r), imm_opnd(log2u(o->hstride)));
        acc = reg_of(glue2(p, h, IR_ADD, acc, reg_of(r)));
    }
    *idx = acc;
    return !p->cur.oom;
}

/* A source region of a per-lane 32-bit variable whose lanes read elements other lanes hold
 * (a broadcast <0;1,0>, a stride of several elements, or another lane range of the variable):
 * read with the IR's shfl.sync.idx from the lane that holds each element, when all of them lie
 * in one per-lane register. Returns 0 when the region is not of that kind (the ordinary path
 * applies), 1 when lowered into *out, -1 after a diagnostic. */
static int crosslane_src(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                         ir_operand *out)
{
    const visa_var *v = visa_var_at(p, o->var);
    const visa_var *root = visa_var_at(p, v->root);
    unsigned size = visa_types[o->type].bytes, n = h->exec.size, m = h->exec.lane_offset;
    if (o->kind != VISA_O_REG || root->mode != 2 || size != 4 || root->slot_bytes != 4 ||
        o->neg || o->abs)
        return 0;
    uint32_t w = o->width ? o->width : 1;
    if (n > 1 && (!pow2(w) || (o->vstride && !pow2(o->vstride)) ||
                  (o->hstride && !pow2(o->hstride))))
        return 0;
    int64_t base = (int64_t)v->root_offset + ((int64_t)o->row * p->grf_bytes) +
                   (int64_t)o->col * size;
    const visa_slot *s = p->slots.data, *hold = NULL;
    bool own = true;
    for (size_t k = 0; k < p->slots.count && !hold; k++) {
        if (s[k].root != v->root || !s[k].lane || s[k].pred)
            continue;
        bool all = true;
        own = true;
        for (uint32_t i = 0; i < n && all; i++) {
            int64_t x = base + (int64_t)(n == 1 ? 0 : (i / w) * o->vstride + (i % w) * o->hstride) * size;
            all = x >= s[k].lo && x + size <= s[k].hi && (x - s[k].anchor) % 4 == 0;
            own = own && n > 1 && (x - s[k].anchor) / 4 == (int64_t)(m + i);
        }
        if (all)
            hold = &s[k];
    }
    if (!hold || own)
        return 0;
    ir_operand idx;
    if (!holder_lane(p, h, o, (uint32_t)((base - hold->anchor) / 4), &idx))
        return -1;
    uint32_t t = visa_new_reg(p, IR_T_B32);
    ir_insn *in = visa_glue(p, h, IR_SHFL, false);
    if (!in)
        return -1;
    in->sub = IR_SHFL_IDX;
    in->type = IR_T_B32;
    in->ndst = 1, in->nsrc = 4;
    in->dst[0] = reg_of(t);
    in->src[0] = reg_of(hold->reg);
    in->src[1] = idx;
    in->src[2] = imm_opnd(0x1f);
    in->src[3] = imm_opnd(0xffffffff);
    *out = reg_of(t);
    return 1;
}

bool visa_crosslane_dst(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                        uint32_t *hold_reg, uint32_t *c0)
{
    const visa_var *v = visa_var_at(p, o->var);
    const visa_var *root = visa_var_at(p, v->root);
    unsigned size = visa_types[o->type].bytes, n = h->exec.size, m = h->exec.lane_offset;
    if (o->kind != VISA_O_REG || root->mode != 2 || size != 4 || root->slot_bytes != 4 ||
        !h->exec.nomask || h->pred.present || n < 2 || !pow2(o->hstride))
        return false;
    int64_t base = (int64_t)v->root_offset + ((int64_t)o->row * p->grf_bytes) +
                   (int64_t)o->col * size;
    const visa_slot *s = p->slots.data;
    for (size_t k = 0; k < p->slots.count; k++) {
        if (s[k].root != v->root || !s[k].lane || s[k].pred)
            continue;
        bool all = true, own = true;
        for (uint32_t i = 0; i < n && all; i++) {
            int64_t x = base + (int64_t)i * o->hstride * size;
            all = x >= s[k].lo && x + size <= s[k].hi && (x - s[k].anchor) % 4 == 0;
            own = own && (x - s[k].anchor) / 4 == (int64_t)(m + i);
        }
        if (all && !own) {
            *hold_reg = s[k].reg;
            *c0 = (uint32_t)((base - s[k].anchor) / 4);
            return true;
        }
    }
    return false;
}

/* setp `cmp` of a u32 register against an immediate into a new predicate (glue). */
static uint32_t glue_setp(visa_parser *p, const visa_insn_head *h, uint8_t cmp, uint32_t r,
                          int64_t imm)
{
    uint32_t q = p->npreds++;
    ir_insn *in = visa_glue(p, h, IR_SETP, false);
    if (!in)
        return UINT32_MAX;
    in->type = IR_T_U32;
    in->cmp = cmp;
    in->ndst = 1, in->nsrc = 2;
    in->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = q};
    in->src[0] = reg_of(r);
    in->src[1] = imm_opnd(imm);
    return q;
}

bool visa_crosslane_scatter(visa_parser *p, const visa_insn_head *h, const visa_operand *o,
                            uint32_t hold_reg, uint32_t c0, uint32_t tmp)
{
    uint32_t hs = o->hstride, n = h->exec.size;
    uint32_t e = glue2(p, h, IR_SUB, reg_of(visa_laneid(p)), imm_opnd(c0));
    uint32_t i = glue2(p, h, IR_SHR, reg_of(e), imm_opnd(log2u(hs)));
    uint32_t src = glue2(p, h, IR_ADD, reg_of(i), imm_opnd(h->exec.lane_offset));
    uint32_t valid = glue_setp(p, h, IR_CMP_LT, e, (int64_t)n * hs);
    if (hs > 1) {
        uint32_t r = glue2(p, h, IR_AND, reg_of(e), imm_opnd(hs - 1));
        uint32_t z = glue_setp(p, h, IR_CMP_EQ, r, 0), q = p->npreds++;
        ir_insn *a = visa_glue(p, h, IR_AND, false);
        if (!a)
            return false;
        a->type = IR_T_PRED;
        a->ndst = 1, a->nsrc = 2;
        a->dst[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = q};
        a->src[0] = (ir_operand){.kind = IR_OPND_PRED, .reg = valid};
        a->src[1] = (ir_operand){.kind = IR_OPND_PRED, .reg = z};
        valid = q;
    }
    uint32_t t = visa_new_reg(p, IR_T_B32);
    ir_insn *sh = visa_glue(p, h, IR_SHFL, false);
    if (!sh)
        return false;
    sh->sub = IR_SHFL_IDX;
    sh->type = IR_T_B32;
    sh->ndst = 1, sh->nsrc = 4;
    sh->dst[0] = reg_of(t);
    sh->src[0] = reg_of(tmp);
    sh->src[1] = reg_of(src);
    sh->src[2] = imm_opnd(0x1f);
    sh->src[3] = imm_opnd(0xffffffff);
    ir_insn *mv = visa_glue(p, h, IR_MOV, false);
    if (!mv)
        return false;
    mv->type = IR_T_B32;
    mv->ndst = mv->nsrc = 1;
    mv->dst[0] = reg_of(hold_reg);
    mv->src[0] = reg_of(t);
    mv->has_guard = 1;
    mv->guard = valid;
    return !p->cur.oom;
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
    int cross = crosslane_src(p, h, o, out);
    if (cross < 0)
        return false;
    if (cross > 0)
        return visa_convert(p, h, out, visa_types[o->type].ir_type, want);
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

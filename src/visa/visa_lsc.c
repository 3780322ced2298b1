/* The LSC family inside the vISA parser (visa_lsc.h, visa_lsc_msg): reads an `lsc_*`
 * instruction the dispatcher hands over, checks it for the kernel's platform and lowers it to the
 * IR's memory instructions with the LSC attributes of ir_mem_attrs (sfid, fence_op, l1_ctl,
 * l2_ctl; docs/visa.md, "LSC instructions").
 *
 * Lowering. A SIMT message of ExecSize N moving V elements per lane is V IR accesses of one
 * element per lane (an ld, st or atom): element k of every lane, at the lane's address plus k
 * element sizes, goes to or from the register that holds elements [k*N, k*N + N) of the data
 * variable, a per-lane register of the front-end's storage map. A transposed block (ExecSize 1)
 * of V elements is V one-lane accesses of the uniform registers of elements 0 .. V-1. A load into %null is a prefetch into the levels its cache
 * controls cache. A fence is an IR fence with its SFID, operation and scope. */
#include <string.h>

#include "visa/visa_internal.h"
#include "visa/visa_lower_internal.h"
#include "visa/visa_lsc.h"
#include "visa/visa_lsc_internal.h"

/* ---- reading: the callbacks of the pure readers, bound to the parser ---- */

static void report(void *user, const char *rule, visa_lsc_pos at, int warning,
                   const char *message)
{
    visa_parser *p = user;
    if (warning) {
        diag_add(p->dl, DIAG_WARNING, rule, p->cur.path, at.line, at.col, "%s", message);
        return;
    }
    visa_error(p, at.line, at.col, rule, "%s", message);
}

static int find_var(void *user, const char *name, size_t len, visa_lsc_var *out)
{
    visa_parser *p = user;
    fe_token t = {.kind = FE_TOK_IDENT, .text = name, .len = (uint32_t)len};
    int32_t v = visa_find_var(p, &t);
    if (v < 0)
        return 0;
    const visa_var *var = visa_var_at(p, v);
    if (var->kind != VISA_V_GENERAL || var->predef)
        return 0;
    out->bytes = var->num_elts * visa_types[var->type].bytes;
    out->id = (uint32_t)v;
    return 1;
}

/* The text of the line from `t` on: up to the end of the line (empty when t is on a later line
 * or is the end of the file). */
static size_t rest_of_line(const fe_token *t, uint32_t line)
{
    if (t->kind == FE_TOK_EOF || t->line != line)
        return 0;
    size_t n = 0;
    while (t->text[n] && t->text[n] != '\n')
        n++;
    return n;
}

/* The dotted mnemonic as one piece of text: from the mnemonic token to the end of its last
 * modifier (they touch: `lsc_load.ugm.ca.ca`). */
static size_t mnemonic_len(const visa_insn_head *h)
{
    const fe_token *last = h->nmods ? h->mods[h->nmods - 1] : h->mnemonic;
    return (size_t)(last->text + last->len - h->mnemonic->text);
}

static visa_platform platform_of(const visa_parser *p)
{
    return p->grf_bytes >= 64 ? VISA_PLATFORM_PVC : VISA_PLATFORM_DG2;
}

/* Reads and checks `h`'s instruction into *in; false after a diagnostic. */
static bool read_insn(visa_parser *p, const visa_insn_head *h, visa_lsc_msg *in)
{
    visa_lsc_pos at = {h->mnemonic->line, h->mnemonic->col};
    memset(in, 0, sizeof *in);
    in->scale = 1;
    if (visa_lsc_parse_mnemonic(h->mnemonic->text, mnemonic_len(h), at, in, report, p))
        return false;
    in->has_pred = h->pred.present;
    in->at_pred = (visa_lsc_pos){h->pred.line, h->pred.col};
    in->has_exec = h->exec.present;
    in->exec_size = h->exec.size;
    in->at_exec = at;
    const fe_token *t = fe_cursor_peek(&p->cur, 0);
    size_t n = rest_of_line(t, h->line);
    visa_lsc_lookup look = {find_var, p};
    if (in->op->kind != VISA_LSC_FENCE && !in->has_exec) {
        visa_lsc_reportf(report, p, "VISA-LSC-005", at, 0,
                         "%s needs an ExecSize such as (M1, 16)", in->op->mnemonic);
        return false;
    }
    if (visa_lsc_parse_operands(n ? t->text : "", n, (visa_lsc_pos){t->line, t->col}, in, &look,
                                report, p))
        return false;
    return visa_lsc_check(in, platform_of(p), report, p) == 0;
}

/* ---- lowering ---- */

/* The LSC enumerations map onto the IR's by a fixed offset (visa_lsc.h and ir.h). */
_Static_assert((int)VISA_LSC_CACHE_RI == (int)IR_CC_READ_INVALIDATE &&
                   (int)VISA_LSC_CACHE_DF == (int)IR_CC_DEFAULT,
               "LSC cache controls are the IR's ir_cache_ctl values");
_Static_assert((int)VISA_LSC_SFID_SLM + 1 == (int)IR_SFID_SLM &&
                   (int)VISA_LSC_SFID_UGM + 1 == (int)IR_SFID_UGM &&
                   (int)VISA_LSC_SFID_UGML + 1 == (int)IR_SFID_UGML &&
                   (int)VISA_LSC_SFID_TGM + 1 == (int)IR_SFID_TGM,
               "LSC SFIDs are the IR's ir_sfid values less one");
_Static_assert((int)VISA_LSC_FENCE_NONE + 1 == (int)IR_FENCE_OP_NONE &&
                   (int)VISA_LSC_FENCE_FLUSHL3 + 1 == (int)IR_FENCE_OP_FLUSHL3,
               "LSC fence operations are the IR's ir_fence_op values less one");

static const uint8_t scopes[] = {IR_SCOPE_CTA, IR_SCOPE_SM, IR_SCOPE_TILE, IR_SCOPE_GPU,
                                 IR_SCOPE_GPUS, IR_SCOPE_SYS, IR_SCOPE_SYSACQ};

static void set_attrs(const visa_lsc_msg *in, ir_mem_attrs *m)
{
    m->sfid = (uint8_t)(in->sfid + 1); /* IR_SFID_UGM ... IR_SFID_SLM in LSC order */
    m->space = in->sfid == VISA_LSC_SFID_SLM ? IR_SPACE_SHARED : IR_SPACE_GLOBAL;
    if (in->ncache == 2) { /* the LSC values df..ri are the IR's IR_CC_DEFAULT..READ_INVALIDATE */
        m->l1_ctl = in->cache[0];
        m->l2_ctl = in->cache[1];
    }
}

static bool lower_fence(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in)
{
    ir_insn *f = visa_emit(p, IR_FENCE, h);
    if (!f)
        return false;
    f->mem.sfid = (uint8_t)(in->sfid + 1);
    f->mem.space = in->sfid == VISA_LSC_SFID_SLM ? IR_SPACE_SHARED : IR_SPACE_GLOBAL;
    f->mem.fence_op = (uint8_t)(in->fence_op + 1);
    f->mem.scope = scopes[in->scope];
    f->mem.fence = IR_FENCE_WAIT_WRITES;
    return true;
}

/* The IR type of an access of data size `ds` (integer bits; the atomics choose their own). */
static uint8_t data_type(unsigned ds)
{
    switch (visa_lsc_mem_bytes(ds)) {
    case 1: return IR_T_U8;
    case 2: return IR_T_U16;
    case 8: return IR_T_U64;
    default: return IR_T_U32;
    }
}

/* The byte size of one register element of the data: 4 (8 for d64) in a SIMT message; in a
 * transposed block the element's size, or 4 for the widening sizes. */
static unsigned lane_bytes(const visa_lsc_msg *in)
{
    if (in->transposed && in->data_size != VISA_LSC_D8U32 && in->data_size != VISA_LSC_D16U32)
        return visa_lsc_mem_bytes(in->data_size);
    return in->data_size == VISA_LSC_D64 ? 8 : 4;
}

/* Checks that variable `var`'s type is `bytes` wide (the storage map lays out its lanes in
 * elements of its type); reports VISA-LSC-043 at `at` otherwise. */
static bool type_fits(visa_parser *p, uint32_t var, unsigned bytes, visa_lsc_pos at,
                      const char *what)
{
    const visa_var *v = visa_var_at(p, (int32_t)var);
    if (visa_types[v->type].bytes == bytes)
        return true;
    visa_error(p, at.line, at.col, "VISA-LSC-043",
               "the %s '%.*s' has type %s (%u bytes); this message needs %u-byte elements", what,
               (int)v->len, v->name, visa_types[v->type].name, visa_types[v->type].bytes, bytes);
    return false;
}

/* The register that holds element `elem` of `var` for each lane of h->exec (elements elem,
 * elem + 1, ... in lanes 0, 1, ... of the message). A one-lane message reads a per-lane
 * variable's own lane (its lane 0) and a uniform variable's element. Reports VISA-UNSUP-005 or
 * VISA-UNSUP-006 (the storage map's) otherwise. */
static bool lane_reg(visa_parser *p, const visa_insn_head *h, uint32_t var, uint32_t elem,
                     bool uniform, visa_lsc_pos at, ir_operand *out)
{
    const visa_var *v = visa_var_at(p, (int32_t)var);
    const visa_var *root = visa_var_at(p, v->root);
    uint32_t stride = uniform ? 0 : h->exec.size > 1 || root->mode == 2 ? 1 : 0;
    visa_access a = {.var = (int32_t)var, .type = v->type, .elem = elem,
                     .lane_offset = h->exec.lane_offset, .lanes = uniform ? 1 : h->exec.size,
                     .stride = stride, .line = at.line, .col = at.col};
    visa_place pl;
    memset(out, 0, sizeof *out);
    if (!visa_locate(p, &a, &pl))
        return false;
    if (pl.shift || pl.bits != pl.slot_bits) {
        visa_error(p, at.line, at.col, "VISA-UNSUP-006",
                   "'%.*s' is a part of a wider register slot here", (int)v->len, v->name);
        return false;
    }
    out->kind = IR_OPND_REG;
    out->reg = pl.reg;
    return true;
}

/* An SLM address keeps its low 28 bits: IGC tags local pointers with bit 28 (0x10000000) and
 * passes them to SLM messages as they are; SLM is at most 128 KiB, so the offset is in the low
 * bits (docs/visa.md, "Addresses"; an assumption about how the hardware treats the tag). */
static bool slm_offset(visa_parser *p, const visa_insn_head *h, ir_operand *r)
{
    uint32_t t = visa_new_reg(p, IR_T_U32);
    ir_insn *g = visa_glue(p, h, IR_AND, false);
    if (!g)
        return false;
    g->type = IR_T_B32;
    g->ndst = 1, g->nsrc = 2;
    g->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = t};
    g->src[0] = *r;
    g->src[1] = (ir_operand){.kind = IR_OPND_IMM, .imm = 0x0fffffff};
    r->reg = t;
    return true;
}

/* The address operand of lane accesses: the address variable's per-lane register, plus the
 * immediate offset and `extra` bytes. */
static bool address(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in,
                    int64_t extra, ir_operand *out)
{
    static const unsigned bytes[] = {0, 2, 4, 8, 4, 4};
    if (in->addr_size == VISA_LSC_A32S) {
        visa_error(p, in->at_addr.line, in->at_addr.col, "VISA-LSC-039",
                   "gpumemsim does not model sign-extended :a32s offsets");
        return false;
    }
    if (!type_fits(p, in->addr_var.id, bytes[in->addr_size], in->at_addr, "address variable"))
        return false;
    ir_operand r;
    if (!lane_reg(p, h, in->addr_var.id, 0, false, in->at_addr, &r))
        return false;
    if (in->sfid == VISA_LSC_SFID_SLM && !slm_offset(p, h, &r))
        return false;
    *out = (ir_operand){.kind = IR_OPND_ADDR, .has_reg = 1, .reg = r.reg, .sym = IR_SYM_NONE,
                        .imm = in->offset + extra};
    return true;
}

/* The data operand of elements [first, first + count) of the message (SIMT: vector elements
 * k, each a register of N lanes; transposed: block elements). */
static bool data(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in, uint32_t var,
                 unsigned first, unsigned count, ir_operand *out)
{
    memset(out, 0, sizeof *out);
    out->kind = count == 1 ? IR_OPND_REG : IR_OPND_VEC;
    out->count = (uint8_t)count;
    for (unsigned k = 0; k < count; k++) {
        uint32_t elem = in->transposed ? first + k : (first + k) * in->exec_size;
        ir_operand r;
        if (!lane_reg(p, h, var, elem, in->transposed, in->at_data, &r))
            return false;
        out->vregs[k] = r.reg;
        out->reg = count == 1 ? r.reg : out->reg;
    }
    return true;
}

/* One access of a load or store: elements [first, first + count). */
static bool access(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in,
                   unsigned first, unsigned count, bool glue)
{
    unsigned esize = visa_lsc_mem_bytes(in->data_size);
    int64_t extra = (int64_t)first * esize;
    ir_operand a, d;
    if (!address(p, h, in, extra, &a))
        return false;
    bool prefetch = in->op->kind == VISA_LSC_LOAD && in->data_null;
    if (!prefetch && !data(p, h, in, in->data_var.id, first, count, &d))
        return false;
    uint16_t op = prefetch ? IR_PREFETCH : in->op->kind == VISA_LSC_LOAD ? IR_LD : IR_ST;
    ir_insn *x = glue ? visa_glue(p, h, op, true) : visa_emit(p, op, h);
    if (!x)
        return false;
    set_attrs(in, &x->mem);
    x->type = data_type(in->data_size);
    x->mem.elem_bytes = (uint8_t)esize;
    x->mem.vec = (uint8_t)count;
    if (prefetch) {
        x->nsrc = 1;
        x->src[0] = a;
        x->mem.cctl = IR_CCTL_PREFETCH;
        x->mem.cctl_levels = (uint8_t)((in->cache[0] != VISA_LSC_CACHE_UC ? IR_LEVEL_L1 : 0) |
                                       IR_LEVEL_L2);
        x->mem.elem_bytes = 0;
        x->mem.vec = 0;
        x->type = IR_T_NONE;
    } else if (op == IR_LD) {
        x->ndst = 1;
        x->dst[0] = d;
        x->nsrc = 1;
        x->src[0] = a;
    } else {
        x->nsrc = 2;
        x->src[0] = a;
        x->src[1] = d;
    }
    return true;
}

/* Loads and stores: one IR access per element of the vector or block. LSC needs each element
 * aligned to its own size only (a d32x3 lane at byte 12), while an IR vector access is aligned
 * to its whole size, so the elements go one by one: element 0 is the access that is the
 * instruction and the later ones come before it, as glue (IR-VERIFY-012: glue takes the id of
 * what follows it). Counters therefore see one request per element. */
static bool lower_load_store(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in)
{
    if (!in->data_null &&
        !type_fits(p, in->data_var.id, lane_bytes(in), in->at_data, "data variable"))
        return false;
    if (in->data_size == VISA_LSC_D16U32H) {
        visa_error(p, in->at_data.line, in->at_data.col, "VISA-LSC-002",
                   "gpumemsim does not model the high-half data size d16u32h");
        return false;
    }
    if (in->data_null) /* a prefetch touches the lines of the first element's address */
        return access(p, h, in, 0, 1, false);
    for (unsigned k = in->vec; k-- > 0;)
        if (!access(p, h, in, k, 1, k > 0))
            return false;
    return true;
}

/* The IR type of an atomic: its operation's signedness and kind at the data size. */
static uint8_t atomic_type(const visa_lsc_msg *in)
{
    int wide = in->data_size == VISA_LSC_D64;
    const char *name = in->op->mnemonic + strlen("lsc_atomic_");
    if (in->op->is_float)
        return wide ? IR_T_F64 : IR_T_F32;
    if (name[0] == 's' && name[1] == 'm') /* smin, smax */
        return wide ? IR_T_S64 : IR_T_S32;
    if (in->op->atom == IR_ATOM_AND || in->op->atom == IR_ATOM_OR ||
        in->op->atom == IR_ATOM_XOR || in->op->atom == IR_ATOM_EXCH)
        return wide ? IR_T_B64 : IR_T_B32;
    return wide ? IR_T_U64 : IR_T_U32;
}

/* The value operand of an atomic source k (a per-lane register), or the immediate the unary
 * atomics imply. */
static bool atomic_source(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in,
                          unsigned k, ir_operand *out)
{
    visa_lsc_pos at = in->at_src[k];
    unsigned bytes = in->data_size == VISA_LSC_D64 ? 8 : 4;
    if (!type_fits(p, in->src_var[k].id, bytes, at, "atomic source"))
        return false;
    return lane_reg(p, h, in->src_var[k].id, 0, false, at, out);
}

/* isub and fsub add the negated source: glue that negates it into a temporary. */
static bool negate(visa_parser *p, const visa_insn_head *h, uint8_t type, ir_operand *o)
{
    uint32_t t = visa_new_reg(p, type);
    ir_insn *n = visa_glue(p, h, IR_NEG, true);
    if (!n)
        return false;
    /* the integer negation is the same bits at either signedness; the IR negates signed types */
    n->type = type == IR_T_U32 ? IR_T_S32 : type == IR_T_U64 ? IR_T_S64 : type;
    n->ndst = 1, n->nsrc = 1;
    n->dst[0] = (ir_operand){.kind = IR_OPND_REG, .reg = t};
    n->src[0] = *o;
    *o = (ir_operand){.kind = IR_OPND_REG, .reg = t};
    return true;
}

static bool lower_atomic(visa_parser *p, const visa_insn_head *h, const visa_lsc_msg *in)
{
    if (in->data_size != VISA_LSC_D32 && in->data_size != VISA_LSC_D64) {
        visa_error(p, in->at_data.line, in->at_data.col, "VISA-LSC-002",
                   "%s: gpumemsim does not model 16-bit (d16u32) atomics", in->op->mnemonic);
        return false;
    }
    uint8_t type = atomic_type(in);
    unsigned bytes = in->data_size == VISA_LSC_D64 ? 8 : 4;
    const char *name = in->op->mnemonic + strlen("lsc_atomic_");
    ir_operand a, b = {0}, c = {0}, d;
    if (!address(p, h, in, 0, &a))
        return false;
    if (in->op->arity == VISA_LSC_UNARY) {
        /* iinc: +1; idec: + all ones (-1); load: + 0, which returns the value unchanged */
        uint64_t one = name[0] == 'i' && name[1] == 'i' ? 1 : name[0] == 'i' ? ~0ull : 0;
        b = (ir_operand){.kind = IR_OPND_IMM, .imm = (int64_t)(bytes == 8 ? one : one & 0xffffffffu)};
    } else if (!atomic_source(p, h, in, 0, &b)) {
        return false;
    }
    if (in->op->arity == VISA_LSC_TERNARY && !atomic_source(p, h, in, 1, &c))
        return false;
    if (in->op->atom == 0 && in->op->arity == VISA_LSC_BINARY && !negate(p, h, type, &b))
        return false; /* isub, fsub */
    if (in->data_null) {
        d = (ir_operand){.kind = IR_OPND_REG, .reg = visa_new_reg(p, type)};
    } else {
        if (!type_fits(p, in->data_var.id, bytes, in->at_data, "data variable"))
            return false;
        if (!data(p, h, in, in->data_var.id, 0, 1, &d))
            return false;
    }
    ir_insn *x = visa_emit(p, IR_ATOM, h);
    if (!x)
        return false;
    set_attrs(in, &x->mem);
    x->type = type;
    x->sub = in->op->atom ? in->op->atom : IR_ATOM_ADD;
    x->mem.elem_bytes = (uint8_t)bytes;
    x->mem.vec = 1;
    x->mem.sem = IR_SEM_RELAXED;
    x->ndst = 1;
    x->dst[0] = d;
    x->nsrc = in->op->arity == VISA_LSC_TERNARY ? 3 : 2;
    x->src[0] = a;
    x->src[1] = b;
    x->src[2] = c;
    return true;
}

bool visa_lsc_insn(visa_parser *p, const visa_insn_head *h)
{
    visa_lsc_msg in;
    bool ok = read_insn(p, h, &in);
    if (ok) {
        switch (in.op->kind) {
        case VISA_LSC_FENCE: ok = lower_fence(p, h, &in); break;
        case VISA_LSC_ATOMIC: ok = lower_atomic(p, h, &in); break;
        default: ok = lower_load_store(p, h, &in); break;
        }
    }
    visa_skip_line(p, h->line);
    return ok;
}

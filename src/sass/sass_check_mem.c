/* The memory half of the SASS checker (sass_check.h): sizes, cache operators, address offsets,
 * register alignment, .E, the CCTL/CCTLL forms of the seed page, the atomics' operation and size
 * tables, and the kernel's register count (reference section 4; docs/sass.md, "Rules"). */
#include <string.h>

#include "sass/sass_check.h"

static bool is_op(const sass_insn *in, sass_op_id op) { return in->op == op; }

bool sass_cctl_is_dispatch_ivall(const sass_insn *in)
{
    return is_op(in, SASS_OP_CCTL) && in->has[SASS_G_CACHE] &&
           (in->val[SASS_G_CACHE] == SASS_CACHE_C || in->val[SASS_G_CACHE] == SASS_CACHE_I) &&
           in->val[SASS_G_CCTLOP] == SASS_CCTL_IVALL;
}

bool sass_cctl_is_crs_wball(const sass_insn *in)
{
    return is_op(in, SASS_OP_CCTLL) && in->has[SASS_G_CACHE] &&
           in->val[SASS_G_CACHE] == SASS_CACHE_CRS && in->val[SASS_G_CCTLOP] == SASS_CCTL_WBALL;
}

unsigned sass_data_bytes(const sass_insn *in)
{
    const sass_form form = (sass_form)sass_op_rows[in->op].form;
    if (form == SASS_FORM_ATOM || form == SASS_FORM_RED ||
        (form == SASS_FORM_SURFACE && (sass_op_rows[in->op].groups & G_ATOMOP))) {
        if (in->has[SASS_G_ATOMSZ])
            return in->val[SASS_G_ATOMSZ] == SASS_ASZ_U64 ||
                   in->val[SASS_G_ATOMSZ] == SASS_ASZ_S64 ||
                   in->val[SASS_G_ATOMSZ] == SASS_ASZ_SD64 ? 8 : 4;
        if (in->val[SASS_G_ATOMOP] == SASS_ATOM_SAFEADD)
            return 8;
        return in->has[SASS_G_SIZE] && in->val[SASS_G_SIZE] == SASS_SZ_64 ? 8 : 4;
    }
    if (!in->has[SASS_G_SIZE])
        return 4;
    static const unsigned bytes[] = {[SASS_SZ_32] = 4, [SASS_SZ_U8] = 1, [SASS_SZ_S8] = 1,
                                     [SASS_SZ_U16] = 2, [SASS_SZ_S16] = 2, [SASS_SZ_64] = 8,
                                     [SASS_SZ_128] = 16};
    return bytes[in->val[SASS_G_SIZE]];
}

unsigned sass_data_regs(const sass_insn *in, unsigned slot)
{
    const sass_form form = (sass_form)sass_op_rows[in->op].form;
    unsigned regs = (sass_data_bytes(in) + 3) / 4;
    switch (form) {
    case SASS_FORM_LOAD: case SASS_FORM_LDC: return slot == 0 ? regs : 1;
    case SASS_FORM_STORE: return slot == 1 ? regs : 1;
    case SASS_FORM_ATOM: return slot != 1 ? regs : 1;
    case SASS_FORM_RED: return slot == 1 ? regs : 1;
    case SASS_FORM_SURFACE: {
        /* SUATOM {Ps,} Rd, [Ra], Rb (CAS: compare and new value), Rc; SULD Rd, [Ra], Rc;
         * SUST and SURED [Ra], Rb, Rc */
        unsigned sh = sass_ps_shift(in);
        if (slot < sh)
            return 1;
        slot -= sh;
        if (in->op == SASS_OP_SUATOM)
            return slot == 0 ? regs
                   : slot == 2 ? regs * (in->val[SASS_G_ATOMOP] == IR_ATOM_CAS ? 2 : 1) : 1;
        return slot == (in->op == SASS_OP_SULD ? 0u : 1u) ? regs : 1;
    }
    default: return 1;
    }
}

static bool fail(sass_parser *p, uint32_t line, uint32_t col, const char *rule, const char *msg,
                 const sass_insn *in)
{
    sass_error(p, line, col, rule, "%s %s", sass_op_rows[in->op].mnemonic, msg);
    return false;
}

/* ---- addresses ---- */
static unsigned offset_bits(const sass_insn *in)
{
    switch (in->op) {
    case SASS_OP_LD: case SASS_OP_ST: case SASS_OP_CCTL: return 32;
    case SASS_OP_ATOM: case SASS_OP_RED: return 20;
    default: return 24;
    }
}

/* Whether memory operand `o` has a register base the address is computed from: not RZ, not
 * beyond an explicit .registers (such a base makes the address absolute, as the seed pages say). */
bool sass_has_base(const sass_kernel *k, const sass_opnd *o)
{
    return o->has_base && o->reg != SASS_RZ && (!k->registers || o->reg < k->registers);
}

static bool check_address(sass_parser *p, const sass_insn *in, const sass_opnd *o)
{
    unsigned bits = offset_bits(in);
    int64_t half = (int64_t)1 << (bits - 1);
    uint32_t line = o->imm_line ? o->imm_line : o->line, col = o->imm_col ? o->imm_col : o->col;
    bool base = sass_has_base(&p->k, o);
    if (base ? o->imm < -half || o->imm >= half : o->imm < 0 || o->imm >= 2 * half) {
        sass_error(p, line, col, "SASS-ADDR-002", "%s offset %lld does not fit %s%u", 
                   sass_op_rows[in->op].mnemonic, (long long)o->imm, base ? "ImmS" : "ImmU",
                   bits);
        return false;
    }
    if (in->has[SASS_G_E] && base && o->reg % 2) {
        sass_error(p, o->line, o->col + 1, "SASS-ADDR-001", ".E addresses the register pair "
                   "{R%u, R%u}: R%u is odd", o->reg, o->reg + 1, o->reg);
        return false;
    }
    if ((is_op(in, SASS_OP_CCTL) || is_op(in, SASS_OP_CCTLL)) && o->imm % 4)
        return fail(p, line, col, "SASS-CCTL-007", "offsets are encoded divided by 4: the offset "
                    "must be a multiple of 4", in);
    if (is_op(in, SASS_OP_ATOMS) && o->imm % 4)
        return fail(p, line, col, "SASS-ATOM-003", "offset must be a multiple of 4", in);
    return true;
}

/* ---- sizes, cache operators, data registers ---- */
static bool check_size(sass_parser *p, const sass_insn *in)
{
    const sass_op_row *row = &sass_op_rows[in->op];
    uint32_t sz = in->has[SASS_G_SIZE] ? in->val[SASS_G_SIZE] : SASS_SZ_32;
    uint32_t col = in->has[SASS_G_SIZE] ? in->mod_col[SASS_G_SIZE] : in->col;
    if (is_op(in, SASS_OP_LDC) && sz == SASS_SZ_128)
        return fail(p, in->line, col, "SASS-SIZE-001", "takes no .128", in);
    if (in->has[SASS_G_U]) {
        bool lds = is_op(in, SASS_OP_LDS);
        bool ok = lds ? sz == SASS_SZ_32 || sz == SASS_SZ_64 || sz == SASS_SZ_128
                      : sz == SASS_SZ_128;
        if (!ok)
            return fail(p, in->line, col, "SASS-SIZE-001",
                        lds ? ".U takes .32, .64 or .128" : ".U takes .128 only", in);
    }
    if (in->has[SASS_G_COP] && !(row->cops & (1u << in->val[SASS_G_COP]))) {
        sass_error(p, in->line, in->mod_col[SASS_G_COP], "SASS-CACHEOP-001", "%s does not take "
                   "the cache operator .%s", row->mnemonic, sass_cop_names[in->val[SASS_G_COP]]);
        return false;
    }
    return true;
}

static bool check_data_regs(sass_parser *p, const sass_insn *in)
{
    for (unsigned i = 0; i < in->nopnd; i++) {
        const sass_opnd *o = &in->o[i];
        unsigned regs = sass_data_regs(in, i);
        if (o->kind != SASS_O_REG || o->reg == SASS_RZ || regs == 1 || o->reg % regs == 0)
            continue;
        sass_error(p, o->line, o->col, regs == 2 ? "SASS-REG-003" : "SASS-REG-004",
                   "%u-bit data needs a register that is a multiple of %u: R%u is not",
                   regs * 32, regs, o->reg);
        return false;
    }
    return true;
}

/* ---- CCTL and CCTLL (seed page 000) ---- */
static bool check_cctl(sass_parser *p, const sass_insn *in)
{
    bool local = is_op(in, SASS_OP_CCTLL);
    uint32_t op = in->val[SASS_G_CCTLOP];
    uint32_t cache = in->has[SASS_G_CACHE] ? in->val[SASS_G_CACHE] : SASS_CACHE_D;
    uint32_t opcol = in->has[SASS_G_CCTLOP] ? in->mod_col[SASS_G_CCTLOP] : in->col;
    uint32_t cachecol = in->has[SASS_G_CACHE] ? in->mod_col[SASS_G_CACHE] : in->col;
    bool all = op == SASS_CCTL_IVALL || op == SASS_CCTL_WBALL;
    if (!in->has[SASS_G_CCTLOP])
        return fail(p, in->line, in->col, "SASS-CCTL-009", "needs an operation (.PF1 .PF2 .WB "
                    ".IV .RS .IVALL)", in);
    if (op == SASS_CCTL_QRY1 || op == SASS_CCTL_PF1_5 || op == SASS_CCTL_RSLB)
        return fail(p, in->line, opcol, "SASS-CCTL-006", "operations QRY1, PF1.5 and RSLB are "
                    "illegal encodings", in);
    if (local && in->has[SASS_G_CACHE] && cache != SASS_CACHE_CRS)
        return fail(p, in->line, cachecol, "SASS-CCTL-008", "works on the local window: its "
                    "only cache modifier is .CRS (in CCTLL.CRS.WBALL)", in);
    if ((cache == SASS_CACHE_CRS) != (op == SASS_CCTL_WBALL) || (!local && cache == SASS_CACHE_CRS))
        return fail(p, in->line, cache == SASS_CACHE_CRS ? cachecol : opcol, "SASS-CCTL-008",
                    ".CRS is only valid as CCTLL.CRS.WBALL, and WBALL only with it", in);
    if ((cache == SASS_CACHE_C || cache == SASS_CACHE_I) &&
        (op == SASS_CCTL_WB || op == SASS_CCTL_IV))
        return fail(p, in->line, opcol, "SASS-CCTL-002", ".WB and .IV work on the data "
                    "hierarchy only (.D or .U)", in);
    if ((cache == SASS_CACHE_C || cache == SASS_CACHE_I) && op != SASS_CCTL_IVALL)
        return fail(p, in->line, opcol, "SASS-CCTL-001", ".C and .I take only .IVALL", in);
    if (all && in->has[SASS_G_E])
        return fail(p, in->line, in->mod_col[SASS_G_E], "SASS-CCTL-004", ".E cannot be used "
                    "with IVALL or WBALL: they take no address", in);
    if (all && in->nopnd)
        return fail(p, in->o[0].line, in->o[0].col, "SASS-CCTL-003", "IVALL and WBALL take no "
                    "address", in);
    if (!all && !in->nopnd)
        return fail(p, in->line, opcol, "SASS-CCTL-009", "needs an address for this "
                    "operation", in);
    return true;
}

/* ---- atomics (reference 4, "Atomics") ---- */
static bool size_allowed(const sass_insn *in, uint32_t op, uint32_t sz)
{
    if (sz > SASS_ASZ_F32)
        return false; /* .F16x2.RN, .SD32, .SD64: surface sizes */
    if (is_op(in, SASS_OP_ATOMS))
        return sz == SASS_ASZ_U32 || sz == SASS_ASZ_S32 ||
               (sz == SASS_ASZ_U64 && op == IR_ATOM_EXCH);
    switch (op) {
    case IR_ATOM_ADD: return sz != SASS_ASZ_S64;
    case IR_ATOM_MIN: case IR_ATOM_MAX: return sz != SASS_ASZ_F32;
    case IR_ATOM_INC: case IR_ATOM_DEC: return sz == SASS_ASZ_U32;
    case SASS_ATOM_SAFEADD: return sz == SASS_ASZ_U64;
    default: return sz == SASS_ASZ_U32 || sz == SASS_ASZ_S32 || sz == SASS_ASZ_U64;
    }
}

static bool check_atom(sass_parser *p, const sass_insn *in)
{
    uint32_t op = in->val[SASS_G_ATOMOP], opcol = in->mod_col[SASS_G_ATOMOP];
    bool red = is_op(in, SASS_OP_RED), shared = is_op(in, SASS_OP_ATOMS);
    if (!in->has[SASS_G_ATOMOP])
        return fail(p, in->line, in->col, "SASS-ATOM-001", "needs an atomic operation", in);
    if (op == SASS_ATOM_CAST && shared)
        return fail(p, in->line, opcol, "SASS-ATOM-004", ".CAST (and .CAST.SPIN) is not "
                    "modelled", in);
    if (op == SASS_ATOM_CAST || (in->has[SASS_G_SPIN]) ||
        (red && (op == IR_ATOM_EXCH || op == SASS_ATOM_SAFEADD || op == IR_ATOM_CAS)) ||
        (shared && op == SASS_ATOM_SAFEADD))
        return fail(p, in->line, in->has[SASS_G_SPIN] ? in->mod_col[SASS_G_SPIN] : opcol,
                    "SASS-ATOM-001", "does not take this atomic operation", in);
    if (op == IR_ATOM_CAS) {
        uint32_t sz = in->has[SASS_G_SIZE] ? in->val[SASS_G_SIZE] : SASS_SZ_32;
        if (in->has[SASS_G_ATOMSZ] || (sz != SASS_SZ_32 && sz != SASS_SZ_64))
            return fail(p, in->line, in->has[SASS_G_ATOMSZ] ? in->mod_col[SASS_G_ATOMSZ]
                                                            : in->mod_col[SASS_G_SIZE],
                        "SASS-ATOM-002", ".CAS takes the size .32 or .64", in);
        if (in->nopnd != 4)
            return fail(p, in->line, in->col, "SASS-OPND-001", ".CAS takes Rd, [address], Rb "
                        "(compare), Rc (new value)", in);
        return true;
    }
    if (in->has[SASS_G_SIZE])
        return fail(p, in->line, in->mod_col[SASS_G_SIZE], "SASS-ATOM-002", "sizes are .U32 "
                    ".S32 .U64 .S64 .F32.FTZ.RN (.32 and .64 belong to .CAS)", in);
    uint32_t sz = in->has[SASS_G_ATOMSZ] ? in->val[SASS_G_ATOMSZ] : SASS_ASZ_U32;
    if (!size_allowed(in, op, sz))
        return fail(p, in->line, in->has[SASS_G_ATOMSZ] ? in->mod_col[SASS_G_ATOMSZ] : opcol,
                    "SASS-ATOM-002", "does not take this size with this operation", in);
    if (!red && in->nopnd != 3)
        return fail(p, in->line, in->col, "SASS-OPND-001", "takes Rd, [address], Rb", in);
    return true;
}

bool sass_check_mem(sass_parser *p, const sass_insn *in)
{
    const sass_form form = (sass_form)sass_op_rows[in->op].form;
    if (form == SASS_FORM_SURFACE)
        return sass_check_surface(p, in) && check_size(p, in) && check_data_regs(p, in);
    if (form != SASS_FORM_LOAD && form != SASS_FORM_STORE && form != SASS_FORM_LDC &&
        form != SASS_FORM_ATOM && form != SASS_FORM_RED && form != SASS_FORM_CCTL)
        return true;
    if (form == SASS_FORM_CCTL && !check_cctl(p, in))
        return false;
    if ((form == SASS_FORM_ATOM || form == SASS_FORM_RED) && !check_atom(p, in))
        return false;
    if (!check_size(p, in) || !check_data_regs(p, in))
        return false;
    for (unsigned i = 0; i < in->nopnd; i++)
        if (in->o[i].kind == SASS_O_MEM && !check_address(p, in, &in->o[i]))
            return false;
    return true;
}

/* ---- the register count ---- */
unsigned sass_check_registers(sass_parser *p)
{
    sass_kernel *k = &p->k;
    const sass_insn *ins = k->insns.data;
    unsigned errors = 0;
    uint32_t max = 0;
    for (size_t i = 0; i < k->insns.count; i++) {
        const sass_insn *in = &ins[i];
        for (unsigned s = 0; s < in->nopnd; s++) {
            const sass_opnd *o = &in->o[s];
            uint32_t first, span;
            if (o->kind == SASS_O_REG && o->reg != SASS_RZ) {
                first = o->reg;
                span = sass_data_regs(in, s);
            } else if (o->kind == SASS_O_MEM &&
                       sass_op_rows[in->op].form == SASS_FORM_SURFACE) {
                first = o->reg; /* coordinates are never absolute: Ra is checked not RZ */
                span = sass_addr_regs(in);
            } else if ((o->kind == SASS_O_MEM || o->kind == SASS_O_CBANK) &&
                       sass_has_base(k, o)) {
                first = o->reg;
                span = sass_addr_regs(in);
            } else {
                continue;
            }
            if (first + span > max)
                max = first + span;
            if (k->registers && first + span > k->registers) {
                sass_error(p, o->line, o->col, "SASS-REG-002", "R%u%s is beyond the kernel's "
                           "%u registers (.registers)", first + span - 1,
                           span > 1 ? " (of a register group)" : "", k->registers);
                errors++;
            }
        }
    }
    k->max_reg = k->registers ? k->registers : max ? max : 1;
    return errors;
}

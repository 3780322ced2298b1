/* Semantic rules of PTX instructions that depend on modifier combinations: required modifiers,
 * mutually exclusive ones, state spaces per instruction, memory ordering and scope, the cache
 * operator and eviction-priority rules of PTX ISA 9.1 §9.7.9.1-2, the cache-control instructions of
 * §9.7.9.15-18, atomic operations per type, and conversion rounding. It also copies the modifiers
 * into the IR instruction (mods, rnd, cmp, sub, and the space, ordering and shape of mem); the
 * cache modifiers are lowered to the neutral memory attributes in ptx_lower_mem.c. Operands are
 * checked in ptx_lower.c. */
#include <string.h>

#include "ptx/ptx_internal.h"

#define HAS(g) (c->has_group[PTX_G_##g])
#define VAL(g) (c->group_value[PTX_G_##g])

bool ptx_insn_fail(ptx_parser *p, const ptx_insn_ctx *c, const char *rule, const char *msg)
{
    ptx_error_at(p, c->line, c->col, rule, "'%.*s': %s", (int)c->text_len, c->text, msg);
    return false;
}

bool ptx_insn_fail_at(ptx_parser *p, const ptx_insn_ctx *c, const ptx_popnd *o, const char *rule,
                      const char *msg)
{
    ptx_error_at(p, o->line, o->col, rule, "'%.*s': %s", (int)c->text_len, c->text, msg);
    return false;
}

bool ptx_insn_require(ptx_parser *p, const ptx_insn_ctx *c, const char *what, unsigned version,
                      unsigned sm)
{
    bool ok = true;
    if (p->version < version) {
        ptx_error_at(p, c->line, c->col, "PTX-VER-001", "'%.*s': %s requires PTX ISA %u.%u or "
                     "later (.version is %u.%u)", (int)c->text_len, c->text, what, version / 10,
                     version % 10, p->version / 10, p->version % 10);
        ok = false;
    }
    if (p->sm < sm) {
        ptx_error_at(p, c->line, c->col, "PTX-ARCH-001", "'%.*s': %s requires sm_%u or later "
                     "(target is sm_%u)", (int)c->text_len, c->text, what, sm, p->sm);
        ok = false;
    }
    return ok;
}

static void copy_modifiers(ptx_insn_ctx *c)
{
    static const uint8_t flag_groups[] = {
        PTX_G_FTZ, PTX_G_SAT, PTX_G_APPROX, PTX_G_FULL, PTX_G_HILO, PTX_G_WIDE, PTX_G_CC,
        PTX_G_NAN, PTX_G_RELU, PTX_G_XORSIGN, PTX_G_ABS, PTX_G_NOFTZ, PTX_G_SATFINITE,
        PTX_G_SHIFTAMT, PTX_G_CLAMP, PTX_G_DIR, PTX_G_TO, PTX_G_UNI, PTX_G_ALIGNED};
    ir_insn *in = c->insn;
    for (size_t i = 0; i < sizeof flag_groups; i++)
        if (c->has_group[flag_groups[i]])
            in->mods |= c->group_value[flag_groups[i]];
    if (c->op == PTX_OP_ADDC || c->op == PTX_OP_SUBC || c->op == PTX_OP_MADC)
        in->mods |= IR_MOD_CARRY_IN;
    if (c->op == PTX_OP_BAR)
        in->mods |= IR_MOD_ALIGNED; /* bar.* has the semantics of barrier.*.aligned */
    if (c->op == PTX_OP_BARRIER)
        in->mods |= IR_MOD_BARRIER;
    in->rnd = (uint8_t)VAL(RND);
    in->cmp = (uint8_t)VAL(CMP);
    in->boolop = (uint8_t)VAL(BOOL);
    static const uint8_t sub_groups[] = {PTX_G_SHFL, PTX_G_VOTE, PTX_G_MATCH, PTX_G_REDUX,
                                         PTX_G_ATOM, PTX_G_BAROP, PTX_G_TESTP, PTX_G_PRMT,
                                         PTX_G_POLICY, PTX_G_SUQ, PTX_G_TLD4,
                                         PTX_G_TXQ};
    for (size_t i = 0; i < sizeof sub_groups; i++)
        if (c->has_group[sub_groups[i]])
            in->sub = (uint8_t)c->group_value[sub_groups[i]];
    if (HAS(BAROP) && VAL(BAROP) == IR_BAR_RED_POPC)
        in->sub = (uint8_t)(HAS(BARRED) ? VAL(BARRED) : IR_BAR_RED_POPC);
    ir_mem_attrs *m = &in->mem;
    ir_op_class cls = ir_opcode_class((ir_opcode)in->op);
    if (HAS(SPACE))
        m->space = (uint8_t)VAL(SPACE);
    else if (cls == IR_CLASS_MEM || in->op == IR_CREATEPOLICY)
        m->space = IR_SPACE_GENERIC; /* no state space written: a generic address */
    m->sem = (uint8_t)(HAS(MMIO) ? VAL(MMIO) : VAL(SEM));
    m->scope = (uint8_t)(HAS(SCOPE) ? VAL(SCOPE) : VAL(MEMBAR));
    m->l2_secondary = (uint8_t)c->secondary_l2;
    m->vec = (uint8_t)(HAS(VEC) ? VAL(VEC) : 1);
    if (cls == IR_CLASS_MEM && ir_type_bits((ir_type)in->type) >= 8)
        m->elem_bytes = (uint8_t)(ir_type_bits((ir_type)in->type) / 8);
}

/* Modifiers without which the instruction has no meaning. */
static bool check_required(ptx_parser *p, const ptx_insn_ctx *c)
{
    static const struct {
        uint8_t op, group;
        const char *what;
    } needs[] = {
        {PTX_OP_SETP, PTX_G_CMP, "a comparison operator"},
        {PTX_OP_SET, PTX_G_CMP, "a comparison operator"},
        {PTX_OP_SHF, PTX_G_DIR, ".l or .r"},
        {PTX_OP_SHF, PTX_G_CLAMP, ".clamp or .wrap"},
        {PTX_OP_BMSK, PTX_G_CLAMP, ".clamp or .wrap"},
        {PTX_OP_SZEXT, PTX_G_CLAMP, ".clamp or .wrap"},
        {PTX_OP_SHFL, PTX_G_SHFL, ".up, .down, .bfly or .idx"},
        {PTX_OP_VOTE_SYNC, PTX_G_VOTE, ".all, .any, .uni or .ballot"},
        {PTX_OP_VOTE, PTX_G_VOTE, ".all, .any, .uni or .ballot"},
        {PTX_OP_MATCH, PTX_G_MATCH, ".any or .all"},
        {PTX_OP_MATCH, PTX_G_SYNC, ".sync"},
        {PTX_OP_REDUX, PTX_G_REDUX, "an operation (.add, .min, ...)"},
        {PTX_OP_ATOM, PTX_G_ATOM, "an operation (.add, .cas, ...)"},
        {PTX_OP_RED, PTX_G_ATOM, "an operation (.add, .min, ...)"},
        {PTX_OP_BAR, PTX_G_BAROP, ".sync, .arrive or .red"},
        {PTX_OP_BARRIER, PTX_G_BAROP, ".sync, .arrive or .red"},
        {PTX_OP_TESTP, PTX_G_TESTP, "a class (.finite, .number, ...)"},
        {PTX_OP_MEMBAR, PTX_G_MEMBAR, ".cta, .gl or .sys"},
        {PTX_OP_FENCE, PTX_G_SEM, ".sc or .acq_rel"},
        {PTX_OP_FENCE, PTX_G_SCOPE, "a scope (.cta, .cluster, .gpu, .sys)"},
        {PTX_OP_CREATEPOLICY, PTX_G_POLICY, ".fractional, .range or .cvt"},
        {PTX_OP_CVTA, PTX_G_SPACE, "a state space"},
        {PTX_OP_PREFETCHU, PTX_G_LEVEL, ".L1"},
        {PTX_OP_DISCARD, PTX_G_LEVEL, ".L2"},
        {PTX_OP_APPLYPRIORITY, PTX_G_L2EV, ".L2::evict_normal"},
    };
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++)
        if (needs[i].op == c->op && !c->has_group[needs[i].group]) {
            ptx_error_at(p, c->line, c->col, "PTX-MOD-004", "'%.*s' needs %s", (int)c->text_len,
                         c->text, needs[i].what);
            return false;
        }
    if ((c->op == PTX_OP_BAR || c->op == PTX_OP_BARRIER) && VAL(BAROP) == IR_BAR_RED_POPC &&
        !HAS(BARRED))
        return ptx_insn_fail(p, c, "PTX-MOD-004", "bar.red needs .popc, .and or .or");
    if (HAS(BARRED) && VAL(BAROP) != IR_BAR_RED_POPC)
        return ptx_insn_fail(p, c, "PTX-MOD-002", ".popc/.and/.or belong to bar.red only");
    return true;
}

static bool is_float_type(ir_type t) { return ir_type_is_float(t); }

/* Rounding, approximation and float-only modifiers. */
static bool check_float_modes(ptx_parser *p, const ptx_insn_ctx *c)
{
    ir_type t = c->ntypes ? c->types[0] : IR_T_NONE;
    bool flt = is_float_type(t);
    bool int_rnd = HAS(RND) && VAL(RND) >= IR_RND_RNI;
    if (c->op != PTX_OP_CVT) {
        if (HAS(RND) && (!flt || int_rnd || VAL(RND) == IR_RND_RS || VAL(RND) == IR_RND_RNA))
            return ptx_insn_fail(p, c, "PTX-MOD-002", "this rounding modifier does not apply here");
        if ((HAS(FTZ) || HAS(APPROX) || HAS(FULL)) && !flt && c->op != PTX_OP_SETP &&
            c->op != PTX_OP_SET && c->op != PTX_OP_SLCT)
            return ptx_insn_fail(p, c, "PTX-MOD-002", ".ftz/.approx/.full apply to floating-point types only");
        if ((HAS(HILO) && c->op != PTX_OP_DP2A) || HAS(WIDE) || HAS(CC))
            if (flt)
                return ptx_insn_fail(p, c, "PTX-MOD-002", ".hi/.lo/.wide/.cc apply to integer types only");
        /* rcp.approx.ftz.f64 and rsqrt.approx{.ftz}.f64 are the only f64 forms with .ftz. */
        if (HAS(FTZ) && t == IR_T_F64 &&
            !(HAS(APPROX) && (c->op == PTX_OP_RCP || c->op == PTX_OP_RSQRT)))
            return ptx_insn_fail(p, c, "PTX-MOD-002", ".ftz does not apply to .f64");
    }
    if (HAS(APPROX) && (HAS(RND) || HAS(FULL)))
        return ptx_insn_fail(p, c, "PTX-MOD-005", ".approx excludes .full and rounding modifiers");
    if (HAS(FULL) && HAS(RND))
        return ptx_insn_fail(p, c, "PTX-MOD-005", ".full excludes rounding modifiers");
    if (HAS(HILO) && HAS(WIDE))
        return ptx_insn_fail(p, c, "PTX-MOD-005", ".hi/.lo exclude .wide");
    if (HAS(XORSIGN) != HAS(ABS))
        return ptx_insn_fail(p, c, "PTX-MOD-004", ".xorsign and .abs go together");
    switch (c->op) {
    case PTX_OP_FMA:
        if (!HAS(RND))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "fma needs a rounding modifier (.rn, .rz, .rm, .rp)");
        break;
    case PTX_OP_MAD:
        if (flt && !HAS(RND))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "floating-point mad needs a rounding modifier");
        if (!flt && !HAS(HILO) && !HAS(WIDE))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "integer mad needs .hi, .lo or .wide");
        break;
    case PTX_OP_MUL:
        if (!flt && !HAS(HILO) && !HAS(WIDE))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "integer mul needs .hi, .lo or .wide");
        break;
    case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24:
        if (!HAS(HILO))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "needs .hi or .lo");
        break;
    case PTX_OP_DIV:
        if (flt && !HAS(RND) && !HAS(APPROX) && !HAS(FULL))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "floating-point div needs .approx, .full or a rounding modifier");
        if (t == IR_T_F64 && !HAS(RND))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "div.f64 needs a rounding modifier");
        break;
    case PTX_OP_RCP: case PTX_OP_SQRT:
        if (!HAS(RND) && !HAS(APPROX))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "needs .approx or a rounding modifier");
        if (HAS(APPROX) && t == IR_T_F64 && (c->op == PTX_OP_SQRT || !HAS(FTZ)))
            return ptx_insn_fail(p, c, "PTX-MOD-002", ".approx.f64 exists only as rcp.approx.ftz.f64");
        break;
    case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2:
    case PTX_OP_TANH:
        if (!HAS(APPROX))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "needs .approx");
        break;
    default:
        break;
    }
    return true;
}

/* cvt: rounding is required when precision can be lost (PTX ISA 9.1 §9.7.9.21). */
static bool check_cvt(ptx_parser *p, const ptx_insn_ctx *c)
{
    ir_type d = c->types[0], s = c->types[1];
    bool df = is_float_type(d), sf = is_float_type(s);
    bool int_rnd = HAS(RND) && VAL(RND) >= IR_RND_RNI;
    if (d == IR_T_F16X2 || d == IR_T_BF16X2) {
        if (s != IR_T_F32)
            return ptx_insn_fail(p, c, "PTX-TYPE-001", "packing cvt to .f16x2/.bf16x2 needs an .f32 source");
    }
    if (df && sf) {
        if (ir_type_bits(d) < ir_type_bits(s) && d != IR_T_F16X2 && d != IR_T_BF16X2 &&
            (!HAS(RND) || int_rnd))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "narrowing float conversion needs .rn, .rz, .rm or .rp");
        if ((d == IR_T_F16X2 || d == IR_T_BF16X2) && !HAS(RND))
            return ptx_insn_fail(p, c, "PTX-MOD-004", "packing conversion needs a rounding modifier");
        if (ir_type_bits(d) >= ir_type_bits(s) && HAS(RND) && !int_rnd && d == s)
            return ptx_insn_fail(p, c, "PTX-MOD-002", "same-type float cvt takes an integer rounding (.rni ...)");
    } else if (df && !sf) {
        if (!HAS(RND) || int_rnd)
            return ptx_insn_fail(p, c, "PTX-MOD-004", "integer-to-float conversion needs .rn, .rz, .rm or .rp");
    } else if (!df && sf) {
        if (!int_rnd)
            return ptx_insn_fail(p, c, "PTX-MOD-004", "float-to-integer conversion needs .rni, .rzi, .rmi or .rpi");
    } else if (HAS(RND)) {
        return ptx_insn_fail(p, c, "PTX-MOD-002", "integer-to-integer conversion takes no rounding modifier");
    }
    if (HAS(FTZ) && s != IR_T_F32 && d != IR_T_F32)
        return ptx_insn_fail(p, c, "PTX-MOD-002", ".ftz applies to conversions from or to .f32 only");
    if ((HAS(RELU) || HAS(SATFINITE)) && !(d == IR_T_F16 || d == IR_T_F16X2 || d == IR_T_BF16 ||
                                           d == IR_T_BF16X2 || d == IR_T_TF32))
        return ptx_insn_fail(p, c, "PTX-MOD-002", ".relu/.satfinite apply to f16/bf16/tf32 results only");
    return true;
}

static bool space_in(uint32_t space, uint32_t allowed_mask)
{
    return (allowed_mask >> space) & 1u;
}
#define SP(s) (1u << IR_SPACE_##s)

static bool check_spaces(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t sp = c->insn->mem.space, allowed;
    switch (c->op) {
    case PTX_OP_LD: allowed = SP(GENERIC) | SP(GLOBAL) | SP(SHARED) | SP(SHARED_CLUSTER) | SP(LOCAL) | SP(CONST) | SP(PARAM); break;
    case PTX_OP_LDU: allowed = SP(GENERIC) | SP(GLOBAL); break;
    case PTX_OP_ST: allowed = SP(GENERIC) | SP(GLOBAL) | SP(SHARED) | SP(SHARED_CLUSTER) | SP(LOCAL) | SP(PARAM); break;
    case PTX_OP_ATOM: case PTX_OP_RED: allowed = SP(GENERIC) | SP(GLOBAL) | SP(SHARED) | SP(SHARED_CLUSTER); break;
    case PTX_OP_PREFETCH:
        allowed = HAS(TENSORMAP) ? SP(GENERIC) | SP(CONST) | SP(PARAM) : SP(GENERIC) | SP(GLOBAL) | SP(LOCAL);
        break;
    case PTX_OP_APPLYPRIORITY: case PTX_OP_DISCARD: allowed = SP(GENERIC) | SP(GLOBAL); break;
    case PTX_OP_CREATEPOLICY: allowed = HAS(SPACE) && VAL(POLICY) != IR_POLICY_RANGE ? 0 : SP(GENERIC) | SP(GLOBAL); break;
    case PTX_OP_CVTA: allowed = SP(GLOBAL) | SP(SHARED) | SP(SHARED_CLUSTER) | SP(LOCAL) | SP(CONST) | SP(PARAM); break;
    default: return true;
    }
    if (!space_in(sp, allowed))
        return ptx_insn_fail(p, c, "PTX-MEM-002", "state space not allowed for this instruction");
    return true;
}

/* ld/st.mmio.relaxed.sys (PTX ISA 9.1 §9.7.9.8 ld, §9.7.9.10 st): a single scalar access to
 * .global (or generic) memory, in the .relaxed order at .sys scope, with no cache operator,
 * eviction priority or hint (ptxas 13 rejects each of these combinations). */
static bool check_mmio(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t sp = c->insn->mem.space;
    if (!HAS(SEM) || VAL(SEM) != IR_SEM_RELAXED || VAL(SCOPE) != IR_SCOPE_SYS)
        return ptx_insn_fail(p, c, "PTX-MEM-005", ".mmio needs .relaxed and the .sys scope");
    if (sp != IR_SPACE_GLOBAL && sp != IR_SPACE_GENERIC)
        return ptx_insn_fail(p, c, "PTX-MEM-005", ".mmio applies to .global (or generic) addresses only");
    if (HAS(VEC) || HAS(COP) || HAS(NC) || HAS(L1EV) || HAS(L2EVM) || HAS(HINT) || HAS(PFSIZE))
        return ptx_insn_fail(p, c, "PTX-MEM-005", ".mmio excludes vectors, cache operators, .nc, eviction "
                    "priorities, cache hints and prefetch sizes");
    return true;
}

/* The state spaces an ld/st with .volatile, .relaxed, .acquire or .release may name; ptxas 13
 * rejects these qualifiers on .local, .const and .param ("cannot be applied to ... space"). */
static bool ordered_space(uint32_t sp)
{
    return sp == IR_SPACE_GENERIC || sp == IR_SPACE_GLOBAL || sp == IR_SPACE_SHARED ||
           sp == IR_SPACE_SHARED_CLUSTER;
}

/* Ordering and scope (PTX ISA 9.1 §8 memory consistency model, §9.7.9.8 ld, §9.7.9.10 st). */
static bool check_ordering(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t sem = VAL(SEM);
    bool strong = HAS(SEM) && sem != IR_SEM_WEAK && sem != IR_SEM_VOLATILE && sem != IR_SEM_MMIO;
    switch (c->op) {
    case PTX_OP_LD: case PTX_OP_ST:
        if (HAS(SEM) && (sem == IR_SEM_ACQ_REL || sem == IR_SEM_SC ||
                         (c->op == PTX_OP_LD && sem == IR_SEM_RELEASE) ||
                         (c->op == PTX_OP_ST && sem == IR_SEM_ACQUIRE)))
            return ptx_insn_fail(p, c, "PTX-MEM-001", "this ordering does not apply to this instruction");
        if (strong != HAS(SCOPE))
            return ptx_insn_fail(p, c, "PTX-MEM-001", ".relaxed/.acquire/.release need a scope and a scope needs one of them");
        if ((strong || (HAS(SEM) && sem == IR_SEM_VOLATILE)) && !ordered_space(c->insn->mem.space))
            return ptx_insn_fail(p, c, "PTX-MEM-006", ".volatile, .relaxed, .acquire and .release apply to "
                        ".global, .shared and generic addresses only");
        if (HAS(NC) && (HAS(SEM) || c->insn->mem.space != IR_SPACE_GLOBAL))
            return ptx_insn_fail(p, c, "PTX-MEM-001", ".nc needs .global and no ordering qualifier");
        return !HAS(MMIO) || check_mmio(p, c);
    case PTX_OP_ATOM: case PTX_OP_RED:
        if (HAS(SEM) && (sem == IR_SEM_WEAK || sem == IR_SEM_VOLATILE || sem == IR_SEM_SC ||
                         sem == IR_SEM_MMIO || (c->op == PTX_OP_RED && (sem == IR_SEM_ACQUIRE || sem == IR_SEM_ACQ_REL))))
            return ptx_insn_fail(p, c, "PTX-MEM-001", "this ordering does not apply to this instruction");
        break;
    case PTX_OP_FENCE:
        if (sem != IR_SEM_SC && sem != IR_SEM_ACQ_REL && sem != IR_SEM_ACQUIRE && sem != IR_SEM_RELEASE)
            return ptx_insn_fail(p, c, "PTX-MEM-001", "fence takes .sc, .acq_rel, .acquire or .release");
        break;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (HAS(SCOPE) && VAL(SCOPE) != IR_SCOPE_CTA)
            return ptx_insn_fail(p, c, "PTX-MEM-001", "barriers take only the .cta scope");
        break;
    default:
        break;
    }
    return true;
}

/* Bits one ld/st moves: element bits times the vector width. */
static unsigned access_bits(const ptx_insn_ctx *c)
{
    return ir_type_bits(c->types[0]) * (HAS(VEC) ? VAL(VEC) : 1);
}

/* Cache operators and eviction priorities on ld/st (PTX ISA 9.1 §9.7.9.1-2). */
static bool check_cache_ops(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t sp = c->insn->mem.space;
    bool global_or_generic = sp == IR_SPACE_GLOBAL || sp == IR_SPACE_GENERIC;
    if (HAS(COP)) {
        uint32_t sem = VAL(SEM);
        if (HAS(SEM) && sem != IR_SEM_WEAK)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-001",
                        "a cache operator cannot be combined with .relaxed, .acquire, .release, .volatile or .mmio");
        uint32_t cop = VAL(COP);
        if (c->op == PTX_OP_LD && (cop == PTX_COP_WB || cop == PTX_COP_WT))
            return ptx_insn_fail(p, c, "PTX-CACHEOP-004", ".wb and .wt are store cache operators");
        if (c->op == PTX_OP_ST && (cop == PTX_COP_CA || cop == PTX_COP_LU || cop == PTX_COP_CV))
            return ptx_insn_fail(p, c, "PTX-CACHEOP-004", ".ca, .lu and .cv are load cache operators");
    }
    /* The grammar of ld/st.volatile has no L1 eviction priority and no .L2::cache_hint (ptxas 13
     * rejects them on every target; it accepts .L2::evict_* on 256-bit accesses and prefetch
     * sizes, which the rules below cover as for a weak access). */
    if (HAS(SEM) && VAL(SEM) == IR_SEM_VOLATILE && (HAS(L1EV) || HAS(HINT)))
        return ptx_insn_fail(p, c, "PTX-CACHEOP-007", ".volatile excludes L1 eviction priorities and "
                    ".L2::cache_hint");
    if ((HAS(L1EV) || HAS(L2EVM) || HAS(HINT)) && !global_or_generic)
        return ptx_insn_fail(p, c, "PTX-CACHEOP-002",
                    "eviction priorities and cache hints apply to .global (or generic) accesses only");
    if (HAS(PFSIZE) && !global_or_generic)
        return ptx_insn_fail(p, c, "PTX-CACHEOP-002",
                    "an L2 prefetch size applies to .global (or generic) loads only");
    if (HAS(L1EV) && HAS(COP))
        return ptx_insn_fail(p, c, "PTX-MOD-005", "an L1 eviction priority excludes a cache operator");
    if (HAS(L2EVM) && access_bits(c) != 256)
        return ptx_insn_fail(p, c, "PTX-CACHEOP-006", ".L2::evict_* on ld/st needs a 256-bit access "
                    "(.v8 of 32-bit or .v4 of 64-bit elements)");
    return true;
}

/* Vector shapes of ld/ldu/st: at most 256 bits, .v8 only of 32-bit elements, no vector of .b128;
 * a 256-bit access needs sm_100, PTX 8.8 and a .global or generic address (PTX ISA 9.1 §9.7.9.8
 * ld; ptxas 13 accepts generic addresses too). */
static bool check_vector_shape(ptx_parser *p, const ptx_insn_ctx *c)
{
    unsigned elem_bits = ir_type_bits(c->types[0]);
    if (!HAS(VEC))
        return true;
    if (access_bits(c) > 256 || (VAL(VEC) == 8 && elem_bits != 32) || elem_bits > 64)
        return ptx_insn_fail(p, c, "PTX-TYPE-001", "vector too wide for this type");
    if (access_bits(c) != 256)
        return true;
    bool ok = true;
    if (p->version < 88)
        ok = ptx_insn_fail(p, c, "PTX-VER-001", "a 256-bit access requires PTX ISA 8.8 or later");
    if (p->sm < 100) {
        ptx_error_at(p, c->line, c->col, "PTX-ARCH-012", "'%.*s': a 256-bit access requires "
                     "sm_100 or later (target is sm_%u)", (int)c->text_len, c->text, p->sm);
        ok = false;
    }
    if (ok && c->insn->mem.space != IR_SPACE_GLOBAL && c->insn->mem.space != IR_SPACE_GENERIC)
        return ptx_insn_fail(p, c, "PTX-MEM-002", "a 256-bit access needs a .global (or generic) address");
    return ok;
}

/* prefetch, applypriority, discard, createpolicy (§9.7.9.15-18). */
static bool check_cache_control(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t l2 = VAL(L2EV);
    switch (c->op) {
    case PTX_OP_PREFETCH:
        if (HAS(TENSORMAP) + HAS(LEVEL) + HAS(L2EV) != 1)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "prefetch takes exactly one of .L1, .L2, .L2::evict_* or .tensormap");
        if (HAS(L2EV) && ((l2 != IR_EVICT_LAST && l2 != IR_EVICT_NORMAL) ||
                          (c->insn->mem.space != IR_SPACE_GLOBAL &&
                           c->insn->mem.space != IR_SPACE_GENERIC)))
            return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "prefetch with a priority needs a .global (or "
                        "generic) address and .L2::evict_last or .L2::evict_normal");
        break;
    case PTX_OP_PREFETCHU:
        if (VAL(LEVEL) != IR_LEVEL_L1)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "prefetchu takes .L1 only");
        break;
    case PTX_OP_APPLYPRIORITY:
        if (l2 != IR_EVICT_NORMAL)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "applypriority accepts only .L2::evict_normal");
        break;
    case PTX_OP_DISCARD:
        if (VAL(LEVEL) != IR_LEVEL_L2)
            return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "discard takes .L2 only");
        break;
    case PTX_OP_CREATEPOLICY:
        if (VAL(POLICY) == IR_POLICY_CVT) {
            if (VAL(LEVEL) != IR_LEVEL_L2 || HAS(L2EV))
                return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "createpolicy.cvt takes .L2 and no priorities");
        } else {
            if (!HAS(L2EV) || HAS(LEVEL))
                return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "createpolicy needs a primary .L2::evict_* priority");
            if (c->secondary_l2 && c->secondary_l2 != IR_EVICT_FIRST &&
                c->secondary_l2 != IR_EVICT_UNCHANGED)
                return ptx_insn_fail(p, c, "PTX-CACHEOP-005", "the secondary priority must be .L2::evict_first or .L2::evict_unchanged");
            if (!c->secondary_l2)
                c->insn->mem.l2_secondary = IR_EVICT_UNCHANGED;
        }
        break;
    default:
        break;
    }
    return true;
}

/* Which atomic operations exist for which types (PTX ISA 9.1 §9.7.13.5 atom). */
static bool check_atom_type(ptx_parser *p, const ptx_insn_ctx *c)
{
    ir_type t = c->types[0];
    uint32_t m = UINT32_C(1) << t, ok;
    switch (VAL(ATOM)) {
    case IR_ATOM_AND: case IR_ATOM_OR: case IR_ATOM_XOR: ok = TM(B32) | TM(B64); break;
    case IR_ATOM_CAS: ok = TM(B16) | TM(B32) | TM(B64) | TM_I32 | TM_I64 | TM_FLOAT; break;
    case IR_ATOM_EXCH: ok = TM(B32) | TM(B64) | TM_I32 | TM_I64 | TM_FLOAT; break;
    case IR_ATOM_ADD: ok = TM(U32) | TM(S32) | TM(U64) | TM_FLOAT | TM_HALF; break;
    case IR_ATOM_INC: case IR_ATOM_DEC: ok = TM(U32); break;
    default: ok = TM_I32 | TM_I64 | TM_HALF; break;
    }
    if (!(ok & m))
        return ptx_insn_fail(p, c, "PTX-MEM-003", "this atomic operation is not defined for this type");
    if (HAS(NOFTZ) && !(t == IR_T_F16 || t == IR_T_F16X2 || t == IR_T_BF16 || t == IR_T_BF16X2))
        return ptx_insn_fail(p, c, "PTX-MOD-002", ".noftz applies to half-precision add only");
    if (HAS(NOFTZ) != ((t == IR_T_F16 || t == IR_T_F16X2 || t == IR_T_BF16 || t == IR_T_BF16X2) &&
                       VAL(ATOM) == IR_ATOM_ADD))
        return ptx_insn_fail(p, c, "PTX-MOD-004", "half-precision atomic add needs .noftz");
    return true;
}

bool ptx_check_insn(ptx_parser *p, ptx_insn_ctx *c)
{
    copy_modifiers(c);
    if (!check_required(p, c) || !check_float_modes(p, c))
        return false;
    if (c->op == PTX_OP_CVT && !check_cvt(p, c))
        return false;
    if (c->row->form == PTX_FORM_SURF || c->row->form == PTX_FORM_SUQ)
        return ptx_check_surface(p, c);
    if (c->row->form == PTX_FORM_TEX || c->row->form == PTX_FORM_TXQ)
        return ptx_check_texture(p, c);
    if (c->row->form == PTX_FORM_MATRIX)
        return ptx_check_matrix(p, c);
    if (c->row->form == PTX_FORM_ASYNC)
        return ptx_check_async(p, c);
    if (c->row->form == PTX_FORM_MBAR)
        return ptx_check_mbarrier(p, c);
    if (c->row->form == PTX_FORM_BULK)
        return ptx_check_bulk(p, c);
    if (c->row->form == PTX_FORM_VIDEO)
        return ptx_check_video(p, c);
    if (!check_spaces(p, c) || !check_ordering(p, c))
        return false;
    if ((c->op == PTX_OP_LD || c->op == PTX_OP_ST || c->op == PTX_OP_LDU) && !check_cache_ops(p, c))
        return false;
    if ((c->op == PTX_OP_ATOM || c->op == PTX_OP_RED) && !check_atom_type(p, c))
        return false;
    if ((c->op == PTX_OP_ATOM || c->op == PTX_OP_RED) && HAS(HINT) &&
        c->insn->mem.space == IR_SPACE_SHARED)
        return ptx_insn_fail(p, c, "PTX-CACHEOP-002", ".L2::cache_hint applies to global accesses only");
    if ((c->op == PTX_OP_LD || c->op == PTX_OP_ST || c->op == PTX_OP_LDU) &&
        !check_vector_shape(p, c))
        return false;
    return check_cache_control(p, c);
}

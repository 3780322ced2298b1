/* The mbarrier family of PTX (PTX ISA 9.1 "mbarrier": init, inval, arrive, arrive_drop,
 * expect_tx, complete_tx, test_wait, try_wait, pending_count) and fence.mbarrier_init: the
 * modifier and operand rules as ptxas 13 enforces them, the oldest .version and .target of each
 * form, and the lowering to IR_MBARRIER (ir_ops.def; docs/ptx.md, "mbarrier"). What the
 * instructions do is src/exec/exec_mbarrier.c's. */
#include "ptx/ptx_internal.h"

#define HAS(g) (c->has_group[PTX_G_##g])
#define VAL(g) (c->group_value[PTX_G_##g])

/* A form newer than its row: PTX-VER-001 and/or PTX-ARCH-001 like the table's own check. */
static bool is_arrive(const ptx_insn_ctx *c)
{
    return c->op == PTX_OP_MBAR_ARRIVE || c->op == PTX_OP_MBAR_ARRIVE_DROP;
}

static bool is_wait(const ptx_insn_ctx *c)
{
    return c->op == PTX_OP_MBAR_TEST_WAIT || c->op == PTX_OP_MBAR_TRY_WAIT;
}

/* fence.mbarrier_init.release.cluster: the only form. A cluster is one CTA in this model, on
 * one SM, so the fence has no cache work beyond ordering (docs/semantics.md, "mbarrier"). */
static bool check_fence(ptx_parser *p, ptx_insn_ctx *c)
{
    if (VAL(SEM) != IR_SEM_RELEASE || VAL(SCOPE) != IR_SCOPE_CLUSTER || !HAS(SEM))
        return ptx_insn_fail(p, c, "PTX-MBAR-001", "fence.mbarrier_init takes exactly .release.cluster");
    c->insn->mem.fence = IR_FENCE_WAIT_WRITES;
    return true;
}

/* .release (arrivals), .acquire (waits), .relaxed (both, and expect_tx/complete_tx), each with
 * .cta or .cluster, and a scope only with an ordering (PTX 8.0; .relaxed on arrivals and waits
 * 8.6). */
static bool check_ordering(ptx_parser *p, const ptx_insn_ctx *c)
{
    if (!HAS(SEM) && !HAS(SCOPE))
        return true;
    uint32_t sem = VAL(SEM);
    bool ok_sem = sem == IR_SEM_RELAXED || (is_arrive(c) && sem == IR_SEM_RELEASE) ||
                  (is_wait(c) && sem == IR_SEM_ACQUIRE);
    if (HAS(SEM) && !ok_sem)
        return ptx_insn_fail(p, c, "PTX-MBAR-001", "this ordering does not apply to this mbarrier "
                    "operation (arrivals: .release or .relaxed; waits: .acquire or .relaxed; "
                    "expect_tx and complete_tx: .relaxed)");
    if (HAS(SEM) != HAS(SCOPE))
        return ptx_insn_fail(p, c, "PTX-MBAR-001", "an mbarrier ordering needs a scope (.cta or "
                    ".cluster), and a scope needs an ordering");
    if (VAL(SCOPE) != IR_SCOPE_CTA && VAL(SCOPE) != IR_SCOPE_CLUSTER)
        return ptx_insn_fail(p, c, "PTX-MBAR-001", "mbarrier scopes are .cta and .cluster");
    /* expect_tx and complete_tx had .relaxed from the start (PTX 8.0); the others got it in
     * 8.6, as ptxas 13 says */
    bool late_relaxed = sem == IR_SEM_RELAXED && (is_arrive(c) || is_wait(c));
    return ptx_insn_require(p, c, late_relaxed ? ".relaxed on this mbarrier operation" : "an mbarrier ordering",
                late_relaxed ? 86 : 80, 0);
}

/* The state spaces: .shared{::cta} or a generic address everywhere; .shared::cluster (the
 * executing CTA's own shared memory, as a cluster is one CTA here) for the arrivals,
 * expect_tx and complete_tx only; pending_count names none. */
static bool check_space(ptx_parser *p, const ptx_insn_ctx *c)
{
    uint32_t sp = c->insn->mem.space;
    bool cluster_ok = is_arrive(c) || c->op == PTX_OP_MBAR_EXPECT_TX ||
                      c->op == PTX_OP_MBAR_COMPLETE_TX;
    if (c->op == PTX_OP_MBAR_PENDING_COUNT) /* its row takes no state space */
        return true;
    if (sp == IR_SPACE_SHARED || sp == IR_SPACE_GENERIC ||
        (sp == IR_SPACE_SHARED_CLUSTER && cluster_ok))
        return true;
    return ptx_insn_fail(p, c, "PTX-MEM-002", sp == IR_SPACE_SHARED_CLUSTER
                    ? ".shared::cluster applies to arrive, arrive_drop, expect_tx and complete_tx "
                      "only"
                    : "an mbarrier lives in .shared memory (or at a generic address)");
}

/* The MBAR group: .expect_tx and .noComplete on arrivals, .parity on waits. */
static bool check_form(ptx_parser *p, ptx_insn_ctx *c)
{
    uint32_t form = HAS(MBAR) ? VAL(MBAR) : PTX_MBAR_NONE;
    if ((form == PTX_MBAR_PARITY && !is_wait(c)) ||
        ((form == PTX_MBAR_EXPECT_TX || form == PTX_MBAR_NOCOMPLETE) && !is_arrive(c)))
        return ptx_insn_fail(p, c, "PTX-MBAR-001", "this mbarrier operation does not take the modifier");
    if (form == PTX_MBAR_NOCOMPLETE &&
        ((HAS(SEM) && VAL(SEM) != IR_SEM_RELEASE) || (HAS(SCOPE) && VAL(SCOPE) != IR_SCOPE_CTA) ||
         c->insn->mem.space == IR_SPACE_SHARED_CLUSTER))
        return ptx_insn_fail(p, c, "PTX-MBAR-001", ".noComplete takes only .release.cta and "
                    ".shared{::cta} or a generic address");
    if (HAS(SCOPE) && VAL(SCOPE) == IR_SCOPE_CLUSTER && !ptx_insn_require(p, c, ".cluster scope", 0, 90))
        return false;
    if (c->insn->mem.space == IR_SPACE_SHARED_CLUSTER && !ptx_insn_require(p, c, ".shared::cluster", 80, 90))
        return false;
    return true;
}

static uint8_t sub_of(const ptx_insn_ctx *c)
{
    uint32_t form = HAS(MBAR) ? VAL(MBAR) : PTX_MBAR_NONE;
    bool nocomplete = form == PTX_MBAR_NOCOMPLETE, parity = form == PTX_MBAR_PARITY;
    switch (c->op) {
    case PTX_OP_MBAR_INIT: return IR_MBAR_INIT;
    case PTX_OP_MBAR_INVAL: return IR_MBAR_INVAL;
    case PTX_OP_MBAR_ARRIVE: return nocomplete ? IR_MBAR_ARRIVE_NOCOMPLETE : IR_MBAR_ARRIVE;
    case PTX_OP_MBAR_ARRIVE_DROP:
        return nocomplete ? IR_MBAR_ARRIVE_DROP_NOCOMPLETE : IR_MBAR_ARRIVE_DROP;
    case PTX_OP_MBAR_EXPECT_TX: return IR_MBAR_EXPECT_TX;
    case PTX_OP_MBAR_COMPLETE_TX: return IR_MBAR_COMPLETE_TX;
    case PTX_OP_MBAR_TEST_WAIT: return parity ? IR_MBAR_TEST_WAIT_PARITY : IR_MBAR_TEST_WAIT;
    case PTX_OP_MBAR_TRY_WAIT: return parity ? IR_MBAR_TRY_WAIT_PARITY : IR_MBAR_TRY_WAIT;
    default: return IR_MBAR_PENDING_COUNT;
    }
}

bool ptx_check_mbarrier(ptx_parser *p, ptx_insn_ctx *c)
{
    if (c->op == PTX_OP_FENCE_MBAR_INIT)
        return check_fence(p, c);
    if (!check_space(p, c) || !check_ordering(p, c) || !check_form(p, c))
        return false;
    if (c->op == PTX_OP_MBAR_PENDING_COUNT)
        c->insn->mem.space = IR_SPACE_SHARED; /* the token describes a shared-memory object */
    if (HAS(MBAR) && VAL(MBAR) == PTX_MBAR_EXPECT_TX && !ptx_insn_require(p, c, ".expect_tx", 80, 90))
        return false;
    if (HAS(MBAR) && VAL(MBAR) == PTX_MBAR_PARITY && !ptx_insn_require(p, c, ".parity", 71, 80))
        return false;
    c->insn->sub = sub_of(c);
    return true;
}

/* ---- operands ---- */

/* A 32-bit count, byte count, parity or hint: a .b32/.u32/.s32 register (not a wider one, as
 * ptxas insists) or an immediate. */
static bool u32_operand(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    if (o->kind == PTX_P_NAME && !o->ival)
        return ptx_lower_reg(p, c, &o->name, IR_T_U32, false, out);
    return ptx_lower_src(p, c, o, IR_T_U32, out);
}

/* A state token: a 64-bit register, or an immediate (ptxas takes one; a value no arrive returned
 * faults when a wait executes it). */
static bool token_operand(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, ir_operand *out)
{
    if (o->kind == PTX_P_NAME && !o->ival)
        return ptx_lower_reg(p, c, &o->name, IR_T_B64, false, out);
    return ptx_lower_src(p, c, o, IR_T_B64, out);
}

static bool count_in(ptx_parser *p, const ptx_insn_ctx *c, unsigned lo, unsigned hi)
{
    if (c->nops >= lo && c->nops <= hi)
        return true;
    if (lo == hi)
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes %u operands, found %u",
                     (int)c->text_len, c->text, lo, c->nops);
    else
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes %u to %u operands, found "
                     "%u", (int)c->text_len, c->text, lo, hi, c->nops);
    return false;
}

/* An arrival count of 1 .. 2^20-1 when it is an immediate (ptxas rejects 0; larger ones fault
 * when executed, as a register's would). */
static bool positive(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, const ir_operand *v)
{
    if (v->kind == IR_OPND_IMM && v->imm == 0)
        return ptx_image_opnd_err(p, c, o, "PTX-OPND-003", "the arrival count must be positive");
    return true;
}

/* arrive{.expect_tx|.noComplete} / arrive_drop: state, [a] {, count | , txCount}. */
static void lower_arrive(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    uint32_t form = HAS(MBAR) ? VAL(MBAR) : PTX_MBAR_NONE;
    unsigned lo = form == PTX_MBAR_NONE ? 2 : 3;
    if (!count_in(p, c, lo, 3))
        return;
    if (in->mem.space == IR_SPACE_SHARED_CLUSTER && ops[0].kind != PTX_P_SINK) {
        ptx_image_opnd_err(p, c, &ops[0], "PTX-MBAR-002", "the .shared::cluster form returns "
                           "no state: its destination must be '_'");
        return;
    }
    if (ops[0].kind == PTX_P_SINK) {
        in->dst[0].kind = IR_OPND_SINK;
        in->dst[0].reg = IR_REG_SINK;
    } else if (ops[0].kind != PTX_P_NAME || ops[0].ival) {
        ptx_image_opnd_err(p, c, &ops[0], "PTX-OPND-002", "the state destination is a .b64 "
                           "register or '_'");
        return;
    } else if (!ptx_lower_reg(p, c, &ops[0].name, IR_T_B64, false, &in->dst[0])) {
        return;
    }
    if (!ptx_lower_address(p, c, &ops[1], &in->src[0]))
        return;
    in->ndst = 1;
    in->nsrc = 1;
    if (c->nops < 3)
        return;
    if (form == PTX_MBAR_EXPECT_TX) {
        if (u32_operand(p, c, &ops[2], &in->src[2]))
            in->nsrc = 3;
        return;
    }
    if (!u32_operand(p, c, &ops[2], &in->src[1]) || !positive(p, c, &ops[2], &in->src[1]))
        return;
    in->nsrc = 2;
    if (form != PTX_MBAR_NOCOMPLETE)
        ptx_insn_require(p, c, "an arrival count without .noComplete", 78, 90);
}

/* test_wait / try_wait{.parity}: p, [a], state | parity {, suspendTimeHint (try_wait)}. */
static void lower_wait(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    bool parity = HAS(MBAR) && VAL(MBAR) == PTX_MBAR_PARITY;
    if (!count_in(p, c, 3, c->op == PTX_OP_MBAR_TRY_WAIT ? 4 : 3) ||
        !ptx_lower_dst(p, c, &ops[0], IR_T_PRED, &in->dst[0]) ||
        !ptx_lower_address(p, c, &ops[1], &in->src[0]))
        return;
    if (parity) {
        if (!u32_operand(p, c, &ops[2], &in->src[1]))
            return;
        if (in->src[1].kind == IR_OPND_IMM && in->src[1].imm > 1) {
            ptx_image_opnd_err(p, c, &ops[2], "PTX-OPND-003", "the phase parity is 0 or 1");
            return;
        }
    } else if (!token_operand(p, c, &ops[2], &in->src[1])) {
        return;
    }
    if (c->nops == 4 && !u32_operand(p, c, &ops[3], &in->src[2]))
        return;
    in->ndst = 1;
    in->nsrc = c->nops == 4 ? 3 : 2;
}

void ptx_lower_mbarrier(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ptx_popnd *ops = p->ops;
    switch (c->op) {
    case PTX_OP_FENCE_MBAR_INIT:
        count_in(p, c, 0, 0);
        return;
    case PTX_OP_MBAR_INIT:
        if (count_in(p, c, 2, 2) && ptx_lower_address(p, c, &ops[0], &in->src[0]) &&
            u32_operand(p, c, &ops[1], &in->src[1]))
            in->nsrc = 2;
        return;
    case PTX_OP_MBAR_INVAL:
        if (count_in(p, c, 1, 1) && ptx_lower_address(p, c, &ops[0], &in->src[0]))
            in->nsrc = 1;
        return;
    case PTX_OP_MBAR_EXPECT_TX: case PTX_OP_MBAR_COMPLETE_TX:
        if (count_in(p, c, 2, 2) && ptx_lower_address(p, c, &ops[0], &in->src[0]) &&
            u32_operand(p, c, &ops[1], &in->src[2]))
            in->nsrc = 3;
        return;
    case PTX_OP_MBAR_PENDING_COUNT:
        if (count_in(p, c, 2, 2) && ops[0].kind == PTX_P_NAME &&
            ptx_lower_reg(p, c, &ops[0].name, IR_T_U32, false, &in->dst[0]) &&
            token_operand(p, c, &ops[1], &in->src[0])) {
            in->ndst = 1;
            in->nsrc = 1;
        } else if (c->nops == 2 && ops[0].kind != PTX_P_NAME) {
            ptx_image_opnd_err(p, c, &ops[0], "PTX-OPND-002", "the destination must be a "
                               "32-bit register");
        }
        return;
    case PTX_OP_MBAR_TEST_WAIT: case PTX_OP_MBAR_TRY_WAIT:
        lower_wait(p, c);
        return;
    default:
        lower_arrive(p, c);
        return;
    }
}

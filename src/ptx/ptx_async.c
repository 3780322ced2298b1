/* The asynchronous copies of PTX (PTX ISA 9.1 §9.7.9.25): cp.async from global to shared memory,
 * cp.async.commit_group, cp.async.wait_group, cp.async.wait_all and cp.async.mbarrier.arrive
 * (§9.7.13.15.21). Their modifier rules as
 * ptxas 13 enforces them for sm_80 (tests/diff/gen_async_cases.c asks it), and their operands
 * lowered to the IR's async ops (ir_ops.def "asynchronous copies"; docs/ptx.md, "Asynchronous
 * copies"). What the copies do when they run is the executor's (src/exec/exec_async.c).
 *
 * cp.async names two state spaces, its destination's then its source's (.shared{::cta}.global);
 * they sit in modifier groups of their own (CPDST, CPSRC) so that the one instruction may carry
 * both. Its cache operator (.ca, .cg), prefetch size and .L2::cache_hint describe the global
 * read, exactly as on ld, so mem.space is the source's. */
#include <string.h>

#include "ptx/ptx_internal.h"

#define HAS(g) (c->has_group[PTX_G_##g])
#define VAL(g) (c->group_value[PTX_G_##g])

/* Offset of the first modifier word `word` (".global") in the instruction's text, or -1; a word
 * is followed by '.' ("::cta" continues it) or the end of the text. */
static long word_offset(const ptx_insn_ctx *c, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= c->text_len; i++)
        if (memcmp(c->text + i, word, n) == 0 &&
            (i + n == c->text_len || c->text[i + n] == '.' || c->text[i + n] == ':'))
            return (long)i;
    return -1;
}

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64: the barrier in shared memory, named by
 * a .shared or a generic address. */
static bool check_arrive(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_mem_attrs *m = &c->insn->mem;
    if (HAS(SPACE) && VAL(SPACE) != IR_SPACE_SHARED)
        return ptx_insn_fail(p, c, "PTX-MEM-002", "the mbarrier is in .shared{::cta} memory (or at a "
                    "generic address)");
    m->space = HAS(SPACE) ? IR_SPACE_SHARED : IR_SPACE_GENERIC;
    if (HAS(NOINC))
        c->insn->mods |= IR_MOD_NOINC;
    return true;
}

bool ptx_check_async(ptx_parser *p, ptx_insn_ctx *c)
{
    if (c->op == PTX_OP_CP_ASYNC_MBAR_ARRIVE)
        return check_arrive(p, c);
    if (c->op != PTX_OP_CP_ASYNC)
        return true; /* commit_group, wait_group, wait_all take no modifier at all */
    if (!HAS(COP))
        return ptx_insn_fail(p, c, "PTX-ASYNC-001", "cp.async needs a cache operator, .ca or .cg");
    if (VAL(COP) != PTX_COP_CA && VAL(COP) != PTX_COP_CG)
        return ptx_insn_fail(p, c, "PTX-ASYNC-001", "cp.async takes only the cache operators .ca and .cg");
    if (!HAS(CPDST) || !HAS(CPSRC) || word_offset(c, ".global") < word_offset(c, ".shared"))
        return ptx_insn_fail(p, c, "PTX-ASYNC-001", "cp.async copies into .shared{::cta} from .global: "
                    "it needs both state spaces, the destination's first");
    ir_mem_attrs *m = &c->insn->mem;
    m->space = IR_SPACE_GLOBAL;
    m->vec = 1;
    return true;
}

/* The optional fourth operand: a src-size (a 32-bit integer register, or an immediate in
 * 0..bytes) or an ignore-src predicate (`p` or `!p`, PTX ISA 7.5). */
static bool size_or_ignore(ptx_parser *p, ptx_insn_ctx *c, const ptx_popnd *o, unsigned bytes,
                           ir_operand *out)
{
    if (o->kind == PTX_P_INT) {
        if (o->ival < 0 || o->ival > (int64_t)bytes) {
            char msg[64];
            snprintf(msg, sizeof msg, "the source size must be in 0..%u", bytes);
            return ptx_insn_fail_at(p, c, o, "PTX-ASYNC-002", msg);
        }
        return ptx_lower_src(p, c, o, IR_T_U32, out);
    }
    uint32_t slot;
    const ptx_binding *b = o->kind == PTX_P_NAME && !o->ival
                               ? ptx_lookup(p, o->name.text, o->name.len, &slot)
                               : NULL;
    bool pred = o->kind == PTX_P_NOT || (b && b->kind == PTX_SYM_PRED);
    if (pred) {
        if (p->version < 75)
            ptx_error_at(p, o->line, o->col, "PTX-VER-001", "ignore-src on cp.async requires PTX "
                         "ISA 7.5 or later (.version is %u.%u)", p->version / 10, p->version % 10);
        return ptx_lower_pred_src(p, c, o, out);
    }
    if (b && b->kind == PTX_SYM_REG &&
        (ir_type_bits((ir_type)b->type) != 32 || ir_type_is_float((ir_type)b->type)))
        return ptx_insn_fail_at(p, c, o, "PTX-ASYNC-003", "the source size is a 32-bit integer register");
    if (o->kind != PTX_P_NAME)
        return ptx_insn_fail_at(p, c, o, "PTX-ASYNC-003", "expected a source size or an ignore-src "
                       "predicate");
    return ptx_lower_src(p, c, o, IR_T_U32, out);
}

/* cp.async [dst], [src], cp-size{, src-size | ignore-src}{, policy}. */
static void lower_copy(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    ir_mem_attrs *m = &in->mem;
    const ptx_popnd *ops = p->ops;
    unsigned hint = m->has_policy, n = c->nops;
    m->write_mode = IR_WRITE_DEFAULT; /* .cg's store meaning does not apply: it reads */
    if (n < 3 || n > 5) {
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes 3 to 5 operands, found %u",
                     (int)c->text_len, c->text, n);
        return;
    }
    if (hint && n == 3) {
        ptx_insn_fail(p, c, "PTX-ASYNC-003", ".L2::cache_hint needs the cache-policy operand last");
        return;
    }
    if (!hint && n == 5) {
        ptx_insn_fail(p, c, "PTX-ASYNC-003", "five operands need .L2::cache_hint (the last is the policy)");
        return;
    }
    for (unsigned i = 0; i < 2; i++)
        if (ops[i].kind == PTX_P_ADDR && !ops[i].has_base) {
            ptx_insn_fail_at(p, c, &ops[i], "PTX-OPND-002", "cp.async takes no immediate address");
            return;
        }
    if (!ptx_lower_addr_in(p, c, &ops[0], IR_SPACE_SHARED, &in->src[0]) ||
        !ptx_lower_addr_in(p, c, &ops[1], IR_SPACE_GLOBAL, &in->src[1]))
        return;
    const ptx_popnd *size = &ops[2];
    if (size->kind != PTX_P_INT) {
        ptx_insn_fail_at(p, c, size, "PTX-OPND-002", "the copy size is an immediate (4, 8 or 16)");
        return;
    }
    bool cg = c->group_value[PTX_G_COP] == PTX_COP_CG;
    if (cg ? size->ival != 16 : size->ival != 4 && size->ival != 8 && size->ival != 16) {
        ptx_insn_fail_at(p, c, size, "PTX-ASYNC-002", cg ? "cp.async.cg copies 16 bytes"
                                               : "the copy size must be 4, 8 or 16 bytes");
        return;
    }
    m->elem_bytes = (uint8_t)size->ival;
    in->nsrc = 2;
    if (n == 4 + hint) {
        if (!size_or_ignore(p, c, &ops[3], m->elem_bytes, &in->src[2]))
            return;
        in->nsrc = 3;
    }
    if (hint) {
        if (!ptx_lower_src(p, c, &ops[n - 1], IR_T_B64, &in->src[3]))
            return;
        in->nsrc = 4;
    }
}

void ptx_lower_async(ptx_parser *p, ptx_insn_ctx *c)
{
    ir_insn *in = c->insn;
    if (c->op == PTX_OP_CP_ASYNC) {
        lower_copy(p, c);
        return;
    }
    if (c->op == PTX_OP_CP_ASYNC_MBAR_ARRIVE) { /* [a]: the barrier, not an immediate address */
        if (c->nops != 1)
            ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes 1 operand, found %u",
                         (int)c->text_len, c->text, c->nops);
        else if (p->ops[0].kind == PTX_P_ADDR && !p->ops[0].has_base)
            ptx_insn_fail_at(p, c, &p->ops[0], "PTX-OPND-002", "the mbarrier needs a register or "
                    "variable address");
        else if (ptx_lower_address(p, c, &p->ops[0], &in->src[0]))
            in->nsrc = 1;
        return;
    }
    unsigned want = c->op == PTX_OP_CP_ASYNC_WAIT ? 1 : 0;
    if (c->nops != want) {
        ptx_error_at(p, c->line, c->col, "PTX-OPND-001", "'%.*s' takes %u operand%s, found %u",
                     (int)c->text_len, c->text, want, want == 1 ? "" : "s", c->nops);
        return;
    }
    if (!want)
        return;
    /* ptxas takes any integer literal as the count, -1 included (then nothing is waited for) */
    if (p->ops[0].kind != PTX_P_INT) {
        ptx_insn_fail_at(p, c, &p->ops[0], "PTX-OPND-002", "the group count is an integer immediate");
        return;
    }
    in->src[0] = (ir_operand){.kind = IR_OPND_IMM, .sym = IR_SYM_NONE,
                              .imm = (int64_t)(uint32_t)p->ops[0].ival};
    in->nsrc = 1;
}

/* Generator of the ptxas differential test of the mbarrier family (PTX ISA 9.1 "mbarrier"):
 * every operation with every form modifier (.expect_tx, .noComplete, .parity) and state space,
 * with every ordering and scope, with operands of every kind, and the oldest .version and
 * .target of each form; and fence.mbarrier_init. One small PTX module per case and the manifest
 * run_cache_diff.sh reads (the format of gen_cache_cases). Deterministic: exhaustive enumeration
 * of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_mbarrier_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv; exit status 0, or 1 when OUTDIR cannot be
 *   written. */
#include <stdio.h>
#include <string.h>

#include "gen_harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char globals[] = "\t.shared .align 8 .b64 bar;\n";

/* The frames: PTX 8.6 on sm_90 (every form), 8.0 on sm_90 and sm_80, 7.8 on sm_90 and sm_80, 7.1
 * and 7.0 on sm_80. */
static const gen_module frames[] = {
    {.version = "8.6", .sm = 90, .arch = 90, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
    {.version = "8.0", .sm = 90, .arch = 90, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
    {.version = "8.0", .sm = 80, .arch = 80, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
    {.version = "7.8", .sm = 90, .arch = 90, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
    {.version = "7.8", .sm = 80, .arch = 80, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
    {.version = "7.1", .sm = 80, .arch = 80, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
    {.version = "7.0", .sm = 80, .arch = 80, .globals = globals, .param = ".param .u64 k_p",
     .extra_regs = ""},
};

static const char *const ops[] = {"init",       "inval",       "arrive",    "arrive_drop",
                                  "expect_tx",  "complete_tx", "test_wait", "try_wait",
                                  "pending_count"};

/* The operands of `op` with form modifier `form` in state space `space` ("" generic). */
static void operands(char *out, size_t size, const char *op, const char *form, const char *space)
{
    const char *a = !*space || !strcmp(space, ".global") ? "[%rd2]"
                    : !strcmp(space, ".shared::cluster") ? "[%r2]"
                                                           : "[bar]";
    const char *state = !strcmp(space, ".shared::cluster") ? "_" : "%rd1";
    if (!strcmp(op, "init"))
        snprintf(out, size, "%s, %%r1", a);
    else if (!strcmp(op, "inval"))
        snprintf(out, size, "%s", a);
    else if (!strcmp(op, "arrive") || !strcmp(op, "arrive_drop"))
        snprintf(out, size, "%s, %s%s", state, a,
                 !strcmp(form, ".expect_tx") ? ", 16" : !strcmp(form, ".noComplete") ? ", 1" : "");
    else if (!strcmp(op, "expect_tx") || !strcmp(op, "complete_tx"))
        snprintf(out, size, "%s, 16", a);
    else if (!strcmp(op, "pending_count"))
        snprintf(out, size, "%%r1, %%rd1");
    else
        snprintf(out, size, "%%p1, %s, %s", a, !strcmp(form, ".parity") ? "1" : "%rd1");
}

/* Every operation, form modifier and state space, on the newest frames. */
static void group_forms(gen *g)
{
    static const char *const forms[] = {"", ".expect_tx", ".noComplete", ".parity"};
    static const char *const spaces[] = {"", ".shared", ".shared::cta", ".shared::cluster",
                                         ".global"};
    char opnds[128];
    for (size_t f = 0; f < 3; f++)
        for (size_t o = 0; o < COUNT(ops); o++)
            for (size_t m = 0; m < COUNT(forms); m++)
                for (size_t s = 0; s < COUNT(spaces); s++) {
                    operands(opnds, sizeof opnds, ops[o], forms[m], spaces[s]);
                    char insn[256];
                    snprintf(insn, sizeof insn, "mbarrier.%s%s%s.b64 %s;", ops[o], forms[m],
                             spaces[s], opnds);
                    gen_write_module(g, &frames[f], insn);
                }
}

/* Every ordering and scope (and one in the wrong order) on each operation and form. */
static void group_orderings(gen *g)
{
    static const char *const sems[] = {"", ".release", ".acquire", ".relaxed", ".acq_rel"};
    static const char *const scopes[] = {"", ".cta", ".cluster", ".gpu"};
    static const struct { const char *op, *form; } rows[] = {
        {"init", ""},          {"arrive", ""},         {"arrive", ".expect_tx"},
        {"arrive", ".noComplete"}, {"arrive_drop", ""}, {"arrive_drop", ".noComplete"},
        {"expect_tx", ""},     {"complete_tx", ""},    {"test_wait", ""},
        {"test_wait", ".parity"}, {"try_wait", ""},     {"try_wait", ".parity"},
    };
    char opnds[128];
    for (size_t f = 0; f < 3; f++)
        for (size_t r = 0; r < COUNT(rows); r++)
            for (size_t s = 0; s < COUNT(sems); s++)
                for (size_t c = 0; c < COUNT(scopes); c++) {
                    operands(opnds, sizeof opnds, rows[r].op, rows[r].form, ".shared");
                    char insn[256];
                    snprintf(insn, sizeof insn, "mbarrier.%s%s%s%s.shared.b64 %s;", rows[r].op,
                             rows[r].form, sems[s], scopes[c], opnds);
                    gen_write_module(g, &frames[f], insn);
                }
    gen_write_module(g, &frames[0], "mbarrier.arrive.cta.release.shared.b64 %rd1, [bar];");
    gen_write_module(g, &frames[0], "mbarrier.arrive.shared.release.cta.b64 %rd1, [bar];");
}

/* Operands of every kind in each position. */
static void group_operands(gen *g)
{
    static const char *const insns[] = {
        "mbarrier.init.shared.b64 [bar], 1;", "mbarrier.init.shared.b64 [bar], 0;",
        "mbarrier.init.shared.b64 [bar], 1048576;", "mbarrier.init.shared.b64 [bar], %rd1;",
        "mbarrier.init.shared.b64 [bar], %r1, 2;", "mbarrier.init.shared.b64 %r1, 2;",
        "mbarrier.init.shared.b64 [bar+8], 2;", "mbarrier.init.shared.b64 [%r2+8], %r3;",
        "mbarrier.init.shared.b64 [%rd2], 2;", "mbarrier.init.b64 [bar], 2;",
        "mbarrier.init.shared.u64 [bar], 1;", "mbarrier.init.shared.b32 [bar], 1;",
        "mbarrier.init.shared [bar], 1;", "mbarrier.inval.shared.b64 [bar], 1;",
        "mbarrier.arrive.shared.b64 %rd1, [bar], 0;", "mbarrier.arrive.shared.b64 %rd1, [bar], 2;",
        "mbarrier.arrive.shared.b64 %rd1, [bar], %r1;",
        "mbarrier.arrive.shared.b64 %rd1, [bar], %rd3;",
        "mbarrier.arrive.shared.b64 %r1, [bar];", "mbarrier.arrive.shared.b64 _, [bar];",
        "mbarrier.arrive.shared.b64 [bar];", "mbarrier.arrive.shared.b64 %rd1, [bar], 1, 2;",
        "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar];",
        "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 0;",
        "mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar];",
        "mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], %r1;",
        "mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 0;",
        "mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 16, 1;",
        "mbarrier.arrive.expect_tx.noComplete.shared.b64 %rd1, [bar], 16;",
        "mbarrier.arrive.shared::cluster.b64 %rd1, [%r2];",
        "mbarrier.arrive_drop.shared::cluster.b64 _, [bar];",
        "mbarrier.expect_tx.shared.b64 [bar], %r1;", "mbarrier.expect_tx.shared.b64 [bar], %rd1;",
        "mbarrier.expect_tx.shared.b64 [bar];", "mbarrier.complete_tx.shared.b64 [bar], 0;",
        "mbarrier.test_wait.shared.b64 %p1, [bar], %r1;",
        "mbarrier.test_wait.shared.b64 %p1, [bar], 5;",
        "mbarrier.test_wait.shared.b64 %r1, [bar], %rd1;",
        "mbarrier.test_wait.shared.b64 %p1, [bar], %rd1, 10;",
        "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;",
        "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 2;",
        "mbarrier.test_wait.parity.shared.b64 %p1, [bar], %r1;",
        "mbarrier.test_wait.parity.shared.b64 %p1, [bar], %rd1;",
        "mbarrier.try_wait.shared.b64 %p1, [bar], %rd1, 1000;",
        "mbarrier.try_wait.shared.b64 %p1, [bar], %rd1, %r1;",
        "mbarrier.try_wait.shared.b64 %p1, [bar], %rd1, %rd3;",
        "mbarrier.try_wait.parity.shared.b64 %p1, [bar], 1, %r1;",
        "mbarrier.try_wait.parity.shared.b64 %p1, [bar], -1;",
        "mbarrier.try_wait.parity.shared.b64 _, [bar], 1;",
        "mbarrier.pending_count.b64 %r1, 5;", "mbarrier.pending_count.b64 %rd2, %rd1;",
        "mbarrier.pending_count.b64 %r1, %r2;", "mbarrier.pending_count.b64 %r1, [bar];",
        "mbarrier.pending_count.u64 %r1, %rd1;",
        "fence.mbarrier_init.release.cluster;", "fence.mbarrier_init.release.cta;",
        "fence.mbarrier_init.acq_rel.cluster;", "fence.mbarrier_init.cluster;",
        "fence.mbarrier_init.release;", "fence.mbarrier_init;",
        "fence.mbarrier_init.release.cluster %r1;", "mbarrier.shared.b64 [bar], 1;",
        "mbarrier.wait.shared.b64 %p1, [bar], %rd1;",
    };
    for (size_t f = 0; f < 3; f++)
        for (size_t i = 0; i < COUNT(insns); i++) gen_write_module(g, &frames[f], insns[i]);
}

/* The oldest frame of each form: the canonical instructions on every frame. */
static void group_versions(gen *g)
{
    static const char *const insns[] = {
        "mbarrier.init.shared.b64 [bar], 1;", "mbarrier.init.shared::cta.b64 [bar], 1;",
        "mbarrier.inval.shared.b64 [bar];", "mbarrier.arrive.shared.b64 %rd1, [bar];",
        "mbarrier.arrive.shared.b64 %rd1, [bar], 2;",
        "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2;",
        "mbarrier.arrive_drop.shared.b64 %rd1, [bar], 2;",
        "mbarrier.arrive_drop.noComplete.shared.b64 %rd1, [bar], 1;",
        "mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 16;",
        "mbarrier.arrive.release.cta.shared.b64 %rd1, [bar];",
        "mbarrier.arrive.release.cluster.shared.b64 %rd1, [bar];",
        "mbarrier.arrive.relaxed.cta.shared.b64 %rd1, [bar];",
        "mbarrier.arrive.shared::cluster.b64 _, [%r2];",
        "mbarrier.expect_tx.relaxed.cta.shared.b64 [bar], 16;",
        "mbarrier.complete_tx.shared.b64 [bar], 16;",
        "mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;",
        "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 1;",
        "mbarrier.test_wait.acquire.cta.shared.b64 %p1, [bar], %rd1;",
        "mbarrier.test_wait.relaxed.cta.shared.b64 %p1, [bar], %rd1;",
        "mbarrier.try_wait.shared.b64 %p1, [bar], %rd1;",
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [bar], %r1, 100;",
        "mbarrier.pending_count.b64 %r1, %rd1;", "fence.mbarrier_init.release.cluster;",
    };
    for (size_t f = 1; f < COUNT(frames); f++)
        for (size_t i = 0; i < COUNT(insns); i++) gen_write_module(g, &frames[f], insns[i]);
}

static void groups(gen *g)
{
    group_forms(g);
    group_orderings(g);
    group_operands(g);
    group_versions(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, NULL, "gen_mbarrier_cases", groups);
}

/* Generator of the ptxas differential test for the instruction forms of issue 15 item 1: the
 * position of .sync among the modifiers of vote, shfl, match and redux (PTX ISA 9.1 §9.7.13),
 * .ftz on the f64 special functions (§9.7.3.15-22) and immediates on the .pred logic
 * instructions (§9.7.8.1-4), and the packed integer types .u16x2/.s16x2 of add, min and max
 * (§9.7.1.1, 12-13; sub, .sat, .cc and the other integer instructions do not take them), also on
 * sm_80 and at PTX ISA 7.8 where they do not exist. One small PTX module per case and the manifest run_cache_diff.sh
 * reads (the format of gen_cache_cases). Deterministic: exhaustive enumeration of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_form_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv; exit status 0, or 1 when OUTDIR cannot be
 *   written. */
#include <stdio.h>

#include "gen_harness.h"

/* Every case on sm_90 at PTX ISA 9.0. */
static const gen_module module = {
    .version = "9.0", .sm = 90, .arch = 90, .globals = "", .param = ".param .u64 k_p",
    .extra_regs = "\t.reg .f64 %fd<16>;\n",
};

/* The six orders of three modifier words a, b, c after `op`, then `operands`. */
static void emit_orders(gen *g, const char *op, const char *a, const char *b, const char *c,
                        const char *operands)
{
    const char *w[3] = {a, b, c};
    static const unsigned perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                        {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (unsigned i = 0; i < 6; i++)
        gen_emit(g, "%s%s%s%s %s;", op, w[perm[i][0]], w[perm[i][1]], w[perm[i][2]], operands);
}

/* vote, shfl, match and redux: .sync, the mode and the type in every order; without .sync and
 * with .sync twice. */
static void group_sync_order(gen *g)
{
    static const struct { const char *op, *mode, *type, *operands; } rows[] = {
        {"vote", ".ballot", ".b32", "%r1, %p1, 0xffffffff"},
        {"vote", ".all", ".pred", "%p2, %p1, 0xffffffff"},
        {"vote", ".any", ".pred", "%p2, !%p1, -1"},
        {"vote", ".uni", ".pred", "%p2, %p1, %r3"},
        {"shfl", ".up", ".b32", "%r1, %r2, 1, 0, 0xffffffff"},
        {"shfl", ".down", ".b32", "%r1|%p1, %r2, 1, 31, 0xffffffff"},
        {"shfl", ".bfly", ".b32", "%r1, %r2, %r3, 31, -1"},
        {"shfl", ".idx", ".b32", "%r1, %r2, 1, 31, %r4"},
        {"match", ".any", ".b32", "%r1, %r2, 0xffffffff"},
        {"match", ".any", ".b64", "%r1, %rd2, 0xffffffff"},
        {"match", ".all", ".b32", "%r1|%p1, %r2, -1"},
        {"match", ".all", ".b64", "%r1, %rd2, %r3"},
        {"redux", ".add", ".u32", "%r1, %r2, 0xffffffff"},
        {"redux", ".min", ".s32", "%r1, %r2, -1"},
        {"redux", ".max", ".u32", "%r1, %r2, %r3"},
        {"redux", ".and", ".b32", "%r1, %r2, 0xffffffff"},
        {"redux", ".or", ".b32", "%r1, %r2, 0xffffffff"},
        {"redux", ".xor", ".b32", "%r1, %r2, 0xffffffff"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        emit_orders(g, rows[i].op, ".sync", rows[i].mode, rows[i].type, rows[i].operands);
        gen_emit(g, "%s%s%s %s;", rows[i].op, rows[i].mode, rows[i].type, rows[i].operands);
        gen_emit(g, "%s.sync%s.sync%s %s;", rows[i].op, rows[i].mode, rows[i].type,
                 rows[i].operands);
    }
}

/* The special functions on .f64 (and .f32 for comparison) with .approx, .ftz and rounding
 * modifiers in several orders. */
static void group_f64_ftz(gen *g)
{
    static const char *const ops[] = {"rcp", "rsqrt", "sqrt", "ex2", "lg2", "sin", "cos"};
    static const char *const mods[] = {".approx", ".approx.ftz", ".ftz.approx", ".rn",
                                       ".rn.ftz", ".rz.ftz", ".ftz", ".approx.ftz.ftz",
                                       ".approx.ftz.rn"};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t m = 0; m < sizeof mods / sizeof mods[0]; m++) {
            gen_emit(g, "%s%s.f64 %%fd1, %%fd2;", ops[o], mods[m]);
            gen_emit(g, "%s%s.f32 %%f1, %%f2;", ops[o], mods[m]);
        }
}

/* and, or, xor and not on .pred with an immediate in each source position. */
static void group_pred_immediates(gen *g)
{
    static const char *const imms[] = {"0", "1", "-1", "0x1", "0x0", "2", "-2", "0xffffffff",
                                       "1.0", "0f3F800000"};
    static const char *const ops[] = {"and", "or", "xor"};
    for (size_t i = 0; i < sizeof imms / sizeof imms[0]; i++) {
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            gen_emit(g, "%s.pred %%p1, %%p2, %s;", ops[o], imms[i]);
            gen_emit(g, "%s.pred %%p1, %s, %%p2;", ops[o], imms[i]);
        }
        gen_emit(g, "not.pred %%p1, %s;", imms[i]);
        gen_emit(g, "xor.pred %%p1, %s, %s;", imms[i], imms[i]);
    }
    gen_emit(g, "xor.pred %%p1, !%%p2, -1;");
}

/* add/sub/min/max on .u16x2 and .s16x2 with and without .relu/.sat/.cc, the other integer
 * instructions on them, and a .reg of the packed type; then the same on sm_80 and at PTX 7.8. */
static void group_packed_int(gen *g)
{
    static const struct { const char *op, *operands; int older; } rows[] = {
        {"add", "%r1, %r2, %r3", 1},      {"sub", "%r1, %r2, %r3", 1},
        {"min", "%r1, %r2, %r3", 1},      {"max", "%r1, %r2, %r3", 1},
        {"min.relu", "%r1, %r2, %r3", 1}, {"max.relu", "%r1, %r2, %r3", 1},
        {"add.sat", "%r1, %r2, %r3", 0},  {"sub.sat", "%r1, %r2, %r3", 0},
        {"add.cc", "%r1, %r2, %r3", 0},   {"mul.lo", "%r1, %r2, %r3", 0},
        {"mad.lo", "%r1, %r2, %r3, %r4", 0}, {"abs", "%r1, %r2", 0}, {"neg", "%r1, %r2", 0},
    };
    static const char *const types[] = {".u16x2", ".s16x2"};
    static const gen_module older[] = {
        {.version = "9.0", .sm = 80, .arch = 80, .globals = "", .param = ".param .u64 k_p",
         .extra_regs = ""},
        {.version = "7.8", .sm = 90, .arch = 90, .globals = "", .param = ".param .u64 k_p",
         .extra_regs = ""},
    };
    char insn[128];
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (size_t t = 0; t < 2; t++) {
            snprintf(insn, sizeof insn, "%s%s %s;", rows[r].op, types[t], rows[r].operands);
            gen_emit(g, "%s", insn);
            for (size_t m = 0; rows[r].older && m < sizeof older / sizeof older[0]; m++)
                gen_write_module(g, &older[m], insn);
        }
    gen_emit(g, "add.u16x2 %%r1, %%r2, 0x00010001;");
    gen_emit(g, "max.s16x2 %%r1, %%r2, -1;");
    gen_emit(g, "add.u16x2 %%rs1, %%rs2, %%rs3;");
    gen_emit(g, "add.u16x2 %%rd1, %%rd2, %%rd3;");
    gen_emit(g, "max.relu.s32 %%r1, %%r2, %%r3;");
    gen_emit(g, "{ .reg .u16x2 %%q; add.u16x2 %%q, %%r2, %%r3; }");
}

static void groups(gen *g)
{
    group_sync_order(g);
    group_f64_ftz(g);
    group_pred_immediates(g);
    group_packed_int(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &module, "gen_form_cases", groups);
}

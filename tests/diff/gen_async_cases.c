/* Generator of the ptxas differential test for the asynchronous copies (PTX ISA 9.1 §9.7.9.25:
 * cp.async, cp.async.commit_group, cp.async.wait_group, cp.async.wait_all,
 * cp.async.mbarrier.arrive): cache operators,
 * state spaces and their order, copy and source sizes, ignore-src, .L2::cache_hint and prefetch
 * sizes with their operands, address forms, and the PTX versions and targets that have them. One
 * small PTX module per case and the manifest run_cache_diff.sh reads (the format of
 * gen_cache_cases). Deterministic: exhaustive enumeration of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_async_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv; exit status 0, or 1 when OUTDIR cannot be
 *   written. */
#include <stdio.h>
#include <string.h>

#include "gen_harness.h"

#define GLOBALS ".shared .align 16 .b8 sbuf[256];\n.global .align 16 .b8 gbuf[256];\n\n"

/* Most cases on sm_80 at PTX ISA 9.0. */
static const gen_module module = {
    .version = "9.0", .sm = 80, .arch = 80, .globals = GLOBALS, .param = ".param .u64 k_p",
    .extra_regs = "",
};

/* Cache operator x state spaces x copy size. */
static void group_modifiers(gen *g)
{
    static const char *const cops[] = {"", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"};
    static const char *const spaces[] = {
        ".shared.global", ".shared::cta.global", ".global.shared", ".shared", ".global",
        ".shared::cluster.global", ".shared.shared", ".local.global", ".shared.const",
        ".shared.global.global"};
    static const char *const sizes[] = {"4", "8", "16", "2", "32", "0", "0x10"};
    for (size_t c = 0; c < sizeof cops / sizeof cops[0]; c++)
        for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                if (s > 1 && z != 2)
                    continue; /* the wrong spaces with one size */
                gen_emit(g, "cp.async%s%s [%%r1], [%%rd1], %s;", cops[c], spaces[s], sizes[z]);
            }
    /* the three words in every order, and repeated */
    static const char *const orders[] = {
        ".ca.shared.global", ".shared.ca.global", ".shared.global.ca", ".global.ca.shared",
        ".cg.shared::cta.global", ".shared::cta.global.cg", ".ca.ca.shared.global",
        ".ca.cg.shared.global", ".ca.shared.global.L2::128B", ".L2::128B.ca.shared.global",
        ".shared.L2::cache_hint.global.ca"};
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
        gen_emit(g, "cp.async%s [%%r1], [%%rd1], 16, %%rd2;", orders[o]);
}

/* The optional fourth operand: src-size immediates and registers, ignore-src predicates. */
static void group_source_size(gen *g)
{
    static const char *const extra[] = {"0", "3", "4", "8", "12", "16", "17", "-1", "0x8",
                                        "%r2", "%rd2", "%rs2", "%f2", "%p1", "!%p1", "sbuf",
                                        "1.0"};
    static const char *const forms[] = {".ca", ".cg"};
    static const char *const sizes[] = {"4", "8", "16"};
    for (size_t f = 0; f < 2; f++)
        for (size_t z = 0; z < 3; z++)
            for (size_t e = 0; e < sizeof extra / sizeof extra[0]; e++) {
                if (f == 1 && z != 2)
                    continue;
                gen_emit(g, "cp.async%s.shared.global [%%r1], [%%rd1], %s, %s;", forms[f],
                         sizes[z], extra[e]);
            }
    gen_emit(g, "cp.async.ca.shared.global [%%r1], [%%rd1], %%r2;");
    gen_emit(g, "cp.async.ca.shared.global [%%r1], [%%rd1];");
    gen_emit(g, "cp.async.ca.shared.global [%%r1], [%%rd1], 16, 8, 4;");
    gen_emit(g, "@%%p1 cp.async.ca.shared.global [%%r1], [%%rd1], 16;");
    gen_emit(g, "@!%%p1 cp.async.cg.shared.global [%%r1], [%%rd1], 16, %%r3;");
}

/* .L2::cache_hint and the prefetch sizes, with every operand list. */
static void group_hints(gen *g)
{
    static const char *const hints[] = {
        "", ".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B", ".L2::cache_hint.L2::128B",
        ".L2::256B.L2::cache_hint", ".L2::64B.L2::128B", ".L2::cache_hint.L2::cache_hint",
        ".L1::evict_last", ".L2::evict_last", ".L1::no_allocate", ".L2::evict_first"};
    static const char *const tails[] = {"", ", %rd2", ", 8", ", 8, %rd2", ", %p1, %rd2",
                                        ", %r3, %rd2", ", %r3", ", 0x1234", ", 8, 0x1234",
                                        ", 8, %r4", ", %rd2, 8"};
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++)
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
            gen_emit(g, "cp.async.ca.shared.global%s [%%r1], [%%rd1], 16%s;", hints[h], tails[t]);
            if (t < 4)
                gen_emit(g, "cp.async.cg.shared.global%s [%%r1], [%%rd1], 16%s;", hints[h],
                         tails[t]);
        }
}

/* Address forms of the destination and the source. */
static void group_addresses(gen *g)
{
    static const char *const dsts[] = {"[%r1]", "[%rd3]", "[sbuf]", "[sbuf+16]", "[%r1+32]",
                                       "[gbuf]", "[%f1]", "%r1", "[%rs1]", "[64]"};
    static const char *const srcs[] = {"[%rd1]", "[%rd1+16]", "[gbuf]", "[gbuf+32]", "[%r2]",
                                       "[sbuf]", "%rd1", "[%f1]"};
    for (size_t d = 0; d < sizeof dsts / sizeof dsts[0]; d++)
        for (size_t s = 0; s < sizeof srcs / sizeof srcs[0]; s++)
            gen_emit(g, "cp.async.ca.shared.global %s, %s, 16;", dsts[d], srcs[s]);
}

static void group_groups(gen *g)
{
    static const char *const insns[] = {
        "cp.async.commit_group;", "cp.async.commit_group 1;", "cp.async.commit_group.b32;",
        "cp.async.wait_group 0;", "cp.async.wait_group 3;", "cp.async.wait_group -1;",
        "cp.async.wait_group 0x7fffffff;", "cp.async.wait_group %r1;", "cp.async.wait_group;",
        "cp.async.wait_group 1, 2;", "cp.async.wait_group.b32 1;", "cp.async.wait_all;",
        "cp.async.wait_all 0;", "cp.async.wait_all.b64;", "cp.async.wait_group 1.0;",
        "@%p1 cp.async.wait_group 1;", "@%p1 cp.async.commit_group;", "cp.async;",
        "cp.async.wait;", "cp.async.commit;"};
    for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++) gen_emit(g, "%s", insns[i]);
}

/* The versions and targets: cp.async needs sm_80 and PTX 7.0; prefetch sizes and
 * .L2::cache_hint PTX 7.4, ignore-src PTX 7.5. */
static void group_requirements(gen *g)
{
    static const char *const versions[] = {"7.0", "7.3", "7.4", "7.5", "7.8", "9.0"};
    static const unsigned sms[] = {75, 80, 90};
    static const char *const insns[] = {
        "cp.async.ca.shared.global [%r1], [%rd1], 16;",
        "cp.async.cg.shared::cta.global [%r1], [%rd1], 16, 8;",
        "cp.async.ca.shared.global [%r1], [%rd1], 16, %p1;",
        "cp.async.ca.shared.global.L2::128B [%r1], [%rd1], 16;",
        "cp.async.ca.shared.global.L2::256B [%r1], [%rd1], 16;",
        "cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;",
        "cp.async.commit_group;", "cp.async.wait_group 1;", "cp.async.wait_all;",
        "cp.async.mbarrier.arrive.b64 [%rd1];",
        "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];"};
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
        for (size_t s = 0; s < sizeof sms / sizeof sms[0]; s++) {
            gen_module m = module;
            m.version = versions[v];
            m.sm = sms[s];
            m.arch = sms[s];
            if (sms[s] == 90 && (versions[v][0] == '7' && versions[v][2] < '8'))
                continue; /* sm_90 needs PTX 7.8 of the module itself */
            for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++)
                gen_write_module(g, &m, insns[i]);
        }
}

/* cp.async.mbarrier.arrive: .noinc, state spaces, types, orderings and operands. */
static void group_arrive(gen *g)
{
    static const char *const mods[] = {
        "", ".noinc", ".shared", ".shared::cta", ".noinc.shared", ".shared.noinc", ".b64.noinc",
        ".shared::cluster", ".global", ".local", ".shared.shared", ".noinc.noinc", ".release",
        ".cta", ".relaxed.cta"};
    static const char *const types[] = {".b64", ".u64", ".b32", ""};
    static const char *const opnds[] = {"[%rd1]", "[%r1]", "[sbuf]", "[sbuf+8]", "[64]", "%rd1",
                                        "[%rd1], 1", "[%rd3]"};
    for (size_t m = 0; m < sizeof mods / sizeof mods[0]; m++)
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            if (t > 0 && m > 1)
                continue;
            for (size_t o = 0; o < sizeof opnds / sizeof opnds[0]; o++) {
                if ((m > 4 || t > 0) && o > 1)
                    continue;
                if (strcmp(mods[m], ".b64.noinc") == 0)
                    gen_emit(g, "cp.async.mbarrier.arrive.b64.noinc %s;", opnds[o]);
                else
                    gen_emit(g, "cp.async.mbarrier.arrive%s%s %s;", mods[m], types[t], opnds[o]);
            }
        }
    gen_emit(g, "cp.async.mbarrier.noinc.arrive.b64 [%%rd1];");
    gen_emit(g, "cp.async.mbarrier.b64 [%%rd1];");
    gen_emit(g, "@%%p1 cp.async.mbarrier.arrive.noinc.shared.b64 [%%r1];");
}

static void groups(gen *g)
{
    group_modifiers(g);
    group_source_size(g);
    group_hints(g);
    group_addresses(g);
    group_groups(g);
    group_requirements(g);
    group_arrive(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &module, "gen_async_cases", groups);
}

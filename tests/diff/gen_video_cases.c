/* Generator of the ptxas differential test for the video instructions (PTX ISA 9.1 "Video
 * Instructions"): the scalar vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad, vset and the
 * SIMD vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4, vset2/4 with their types,
 * .sat, secondary operations, shift modes, vmad's .po and scales, vset's comparisons, operand
 * selectors and masks, operand counts and immediates. One small PTX module per case and the
 * manifest run_cache_diff.sh reads (the format of gen_cache_cases). Deterministic: exhaustive
 * enumeration of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_video_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv; exit status 0, or 1 when OUTDIR cannot be
 *   written. */
#include <stdio.h>

#include "gen_harness.h"

static const gen_module module = {
    .version = "9.0", .sm = 80, .arch = 80, .globals = "", .param = ".param .u64 k_p",
    .extra_regs = "",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const types3[] = {".u32.u32.u32", ".s32.u32.s32", ".s32.s32.s32",
                                     ".u32.s32.u32", ".u32.u32", ".u32.u32.u32.u32",
                                     ".b32.u32.u32", ".u16.u32.u32", ""};

/* Scalar vadd..vmax: types x modifiers x the three operand shapes. */
static void group_scalar(gen *g)
{
    static const char *const ops[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"};
    static const char *const mods[] = {"", ".sat", ".add", ".min", ".max", ".sat.add",
                                       ".max.sat", ".add.min", ".clamp", ".po", ".shr7",
                                       ".eq", ".sat.sat"};
    static const char *const shapes[] = {"%%r1, %%r2, %%r3", "%%r1, %%r2, %%r3, %%r4",
                                         "%%r1.b1, %%r2, %%r3, %%r4", "%%r1.h1, %%r2.h0, %%r3.b3, %%r4",
                                         "%%r1, %%r2"};
    for (size_t o = 0; o < N(ops); o++)
        for (size_t t = 0; t < N(types3); t++)
            for (size_t m = 0; m < N(mods); m++)
                for (size_t s = 0; s < N(shapes); s++) {
                    if ((t > 1 && (m > 5 || s > 1)) || (o > 0 && t > 3 && m > 0))
                        continue;
                    char fmt[160];
                    snprintf(fmt, sizeof fmt, "%s%s%s %s;", ops[o], types3[t], mods[m],
                             shapes[s]);
                    gen_emit(g, fmt, 0);
                }
}

/* Selectors of each operand, immediates and other operand kinds on the scalar forms. */
static void group_scalar_operands(gen *g)
{
    static const char *const sels[] = {"", ".b0", ".b1", ".b2", ".b3", ".b4", ".h0", ".h1",
                                       ".h2", ".b10", ".h10", ".b3210", ".x", ".b"};
    for (size_t i = 0; i < N(sels); i++) {
        gen_emit(g, "vadd.u32.u32.u32 %%r1, %%r2%s, %%r3;", sels[i]);
        gen_emit(g, "vsub.s32.s32.u32.sat %%r1, %%r2, %%r3%s, %%r4;", sels[i]);
        gen_emit(g, "vmax.s32.s32.s32 %%r1%s, %%r2.b1, %%r3, %%r4;", sels[i]);
        gen_emit(g, "vmin.u32.u32.u32.add %%r1, %%r2, %%r3, %%r4%s;", sels[i]);
        gen_emit(g, "vabsdiff.u32.u32.u32 %%r1%s, %%r2, %%r3;", sels[i]);
    }
    static const char *const opnds[] = {
        "%%r1, 5, %%r3", "%%r1, %%r2, -7", "%%r1, %%r2, %%r3, 9", "5, %%r2, %%r3",
        "%%rd1, %%r2, %%r3", "%%r1, %%rd2, %%r3", "%%r1, %%rs2, %%r3", "%%r1, %%f2, %%r3",
        "%%r1, %%r2, %%r3, %%rd4", "%%r1, %%p1, %%r3", "%%r1, 1.0, %%r3",
        "%%r1.b0, %%r2, %%r3, 3", "%%r1, %%r2, %%r3, %%r4, %%r5"};
    for (size_t i = 0; i < N(opnds); i++) {
        char fmt[160];
        snprintf(fmt, sizeof fmt, "vadd.s32.s32.s32 %s;", opnds[i]);
        gen_emit(g, fmt, 0);
        snprintf(fmt, sizeof fmt, "vadd.s32.s32.s32.add %s;", opnds[i]);
        gen_emit(g, fmt, 0);
    }
}

/* vshl/vshr: shift modes, the amount's type, secondary operations and merge. */
static void group_shifts(gen *g)
{
    static const char *const ops[] = {"vshl", "vshr"};
    static const char *const types[] = {".u32.u32.u32", ".s32.s32.u32", ".u32.s32.u32",
                                        ".s32.u32.s32", ".u32.u32"};
    static const char *const mods[] = {"", ".clamp", ".wrap", ".clamp.wrap", ".sat.clamp",
                                       ".wrap.sat", ".clamp.add", ".max.wrap", ".sat.wrap.min",
                                       ".clamp.clamp", ".po.clamp"};
    static const char *const shapes[] = {"%%r1, %%r2, %%r3", "%%r1, %%r2.b2, %%r3.h1, %%r4",
                                         "%%r1.h0, %%r2, %%r3, %%r4", "%%r1, %%r2, 17"};
    for (size_t o = 0; o < N(ops); o++)
        for (size_t t = 0; t < N(types); t++)
            for (size_t m = 0; m < N(mods); m++)
                for (size_t s = 0; s < N(shapes); s++) {
                    char fmt[160];
                    snprintf(fmt, sizeof fmt, "%s%s%s %s;", ops[o], types[t], mods[m], shapes[s]);
                    gen_emit(g, fmt, 0);
                }
}

/* vset and vset2/vset4: type counts, every comparison, .sat, secondary operations, merge. */
static void group_vset(gen *g)
{
    static const char *const types[] = {".u32.u32", ".s32.u32", ".u32.s32.u32", ".u32", ""};
    static const char *const cmps[] = {".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".hs",
                                       ".equ", ""};
    static const char *const mods[] = {"", ".add", ".min", ".sat", ".lt"};
    for (size_t t = 0; t < N(types); t++)
        for (size_t c = 0; c < N(cmps); c++)
            for (size_t m = 0; m < N(mods); m++) {
                if (t > 1 && m > 0)
                    continue;
                gen_emit(g, "vset%s%s%s %%r1, %%r2, %%r3, %%r4;", types[t], cmps[c], mods[m]);
                gen_emit(g, "vset2%s%s%s %%r1, %%r2, %%r3, %%r4;", types[t], cmps[c], mods[m]);
                gen_emit(g, "vset4%s%s%s %%r1.b20, %%r2, %%r3.b0011, %%r4;", types[t], cmps[c],
                         mods[m]);
            }
    gen_emit(g, "vset.s32.s32.ne %%r1, %%r2.b3, %%r3;");
    gen_emit(g, "vset.s32.s32.ne %%r1.h1, %%r2.b3, %%r3, %%r4;");
    gen_emit(g, "vset.s32.s32.ne.max %%r1.h1, %%r2.b3, %%r3, %%r4;");
    gen_emit(g, "vset.ge.u32.u32 %%r1, %%r2, %%r3;");
}

/* vmad: types, .po, scales, .sat, secondary operations and selectors. */
static void group_vmad(gen *g)
{
    static const char *const mods[] = {"", ".po", ".sat", ".shr7", ".shr15", ".po.sat.shr15",
                                       ".shr7.shr15", ".add", ".clamp", ".po.po"};
    static const char *const shapes[] = {"%%r1, %%r2, %%r3, %%r4", "%%r1, %%r2.h1, %%r3.b2, %%r4",
                                         "%%r1.b0, %%r2, %%r3, %%r4", "%%r1, %%r2, %%r3",
                                         "%%r1, %%r2, %%r3, %%r4.b1", "%%r1, 3, %%r3, 5"};
    for (size_t t = 0; t < 6; t++)
        for (size_t m = 0; m < N(mods); m++)
            for (size_t s = 0; s < N(shapes); s++) {
                if (t > 3 && (m > 0 || s > 0))
                    continue;
                char fmt[160];
                snprintf(fmt, sizeof fmt, "vmad%s%s %s;", types3[t], mods[m], shapes[s]);
                gen_emit(g, fmt, 0);
            }
    /* negated operands: either the product (a xor b) or c, never with .po, only on vmad */
    static const char *const negs[] = {
        "%%r1, -%%r2, %%r3, %%r4", "%%r1, %%r2, -%%r3, %%r4", "%%r1, %%r2, %%r3, -%%r4",
        "%%r1, -%%r2, -%%r3, %%r4", "%%r1, -%%r2, -%%r3, -%%r4", "%%r1, -%%r2, %%r3, -%%r4",
        "%%r1, %%r2.h0, -%%r3.b1, %%r4", "-%%r1, %%r2, %%r3, %%r4", "%%r1, -%%r2, %%r3"};
    static const char *const negmods[] = {".u32.u32.u32", ".s32.u32.s32.sat.shr7",
                                          ".u32.u32.u32.po", ".s32.s32.s32.shr15"};
    for (size_t m = 0; m < N(negmods); m++)
        for (size_t i = 0; i < N(negs); i++) {
            char fmt[160];
            snprintf(fmt, sizeof fmt, "vmad%s %s;", negmods[m], negs[i]);
            gen_emit(g, fmt, 0);
        }
    gen_emit(g, "vadd.u32.u32.u32 %%r1, -%%r2, %%r3;");
    gen_emit(g, "vset.u32.u32.eq %%r1, %%r2, %%r3, -%%r4;");
    gen_emit(g, "vabsdiff4.u32.u32.u32.add %%r1, -%%r2, %%r3, %%r4;");
}

/* The SIMD forms: operations x types x modifiers, then masks and selectors. */
static void group_simd(gen *g)
{
    static const char *const ops[] = {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"};
    static const char *const mods[] = {"", ".sat", ".add", ".sat.add", ".min", ".max",
                                       ".add.sat", ".clamp", ".po", ".add.add"};
    for (unsigned w = 2; w <= 4; w += 2)
        for (size_t o = 0; o < N(ops); o++)
            for (size_t t = 0; t < N(types3); t++)
                for (size_t m = 0; m < N(mods); m++) {
                    if (t > 3 && m > 0)
                        continue;
                    gen_emit(g, "%s%u%s%s %%r1, %%r2, %%r3, %%r4;", ops[o], w, types3[t],
                             mods[m]);
                    if (t == 0)
                        gen_emit(g, "%s%u%s%s %%r1, %%r2, %%r3;", ops[o], w, types3[t],
                                 mods[m]);
                }
}

static void group_simd_selectors(gen *g)
{
    static const char *const masks2[] = {"", ".h0", ".h1", ".h10", ".h01", ".h11", ".h2",
                                         ".b0", ".h"};
    static const char *const sels2[] = {".h10", ".h32", ".h01", ".h33", ".h00", ".h4",
                                        ".h40", ".h123", ".b10", ".h3"};
    static const char *const masks4[] = {"", ".b0", ".b1", ".b10", ".b2", ".b20", ".b21",
                                         ".b210", ".b3", ".b30", ".b31", ".b310", ".b32",
                                         ".b320", ".b321", ".b3210", ".b01", ".b4", ".b3201",
                                         ".b33", ".h10", ".b43210"};
    static const char *const sels4[] = {".b3210", ".b7654", ".b0123", ".b7777", ".b0000",
                                        ".b8765", ".b321", ".b32100", ".h10", ".b0"};
    for (size_t m = 0; m < N(masks2); m++) {
        gen_emit(g, "vadd2.u32.u32.u32 %%r1%s, %%r2, %%r3, %%r4;", masks2[m]);
        gen_emit(g, "vmin2.s32.s32.s32.add %%r1%s, %%r2, %%r3, %%r4;", masks2[m]);
    }
    for (size_t s = 0; s < N(sels2); s++) {
        gen_emit(g, "vsub2.u32.u32.u32 %%r1, %%r2%s, %%r3, %%r4;", sels2[s]);
        gen_emit(g, "vavrg2.s32.s32.u32 %%r1.h1, %%r2, %%r3%s, %%r4;", sels2[s]);
        gen_emit(g, "vmax2.u32.u32.u32 %%r1, %%r2, %%r3, %%r4%s;", sels2[s]);
    }
    for (size_t m = 0; m < N(masks4); m++) {
        gen_emit(g, "vabsdiff4.u32.u32.u32 %%r1%s, %%r2, %%r3, %%r4;", masks4[m]);
        gen_emit(g, "vadd4.s32.s32.s32.add %%r1%s, %%r2, %%r3, %%r4;", masks4[m]);
    }
    for (size_t s = 0; s < N(sels4); s++) {
        gen_emit(g, "vsub4.u32.u32.u32.sat %%r1, %%r2%s, %%r3, %%r4;", sels4[s]);
        gen_emit(g, "vmax4.s32.u32.s32 %%r1.b30, %%r2, %%r3%s, %%r4;", sels4[s]);
        gen_emit(g, "vmin4.u32.u32.u32 %%r1, %%r2, %%r3, %%r4%s;", sels4[s]);
    }
    static const char *const opnds[] = {"%%r1, 5, %%r3, %%r4", "%%r1, %%r2, 5, %%r4",
                                        "%%r1, %%r2, %%r3, 5", "%%rd1, %%r2, %%r3, %%r4",
                                        "%%r1, %%rs2, %%r3, %%r4", "%%r1, %%r2, %%r3, %%f4",
                                        "%%r1, %%r2, %%r3, %%r4, %%r5", "%%r1"};
    for (size_t i = 0; i < N(opnds); i++) {
        char fmt[160];
        snprintf(fmt, sizeof fmt, "vadd4.u32.u32.u32 %s;", opnds[i]);
        gen_emit(g, fmt, 0);
        snprintf(fmt, sizeof fmt, "vabsdiff2.u32.u32.u32.add %s;", opnds[i]);
        gen_emit(g, fmt, 0);
    }
    gen_emit(g, "@%%p1 vabsdiff4.u32.u32.u32.add %%r1, %%r2, %%r3, %%r4;");
}

static void groups(gen *g)
{
    group_scalar(g);
    group_scalar_operands(g);
    group_shifts(g);
    group_vset(g);
    group_vmad(g);
    group_simd(g);
    group_simd_selectors(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &module, "gen_video_cases", groups);
}

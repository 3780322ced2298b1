/* Generator of the ptxas differential test for the matrix instructions (PTX ISA 9.1 §9.7.14):
 * ldmatrix and stmatrix (shapes, counts, .trans, state spaces, types), mma.sync (shapes against
 * the type combinations d.a.b.c, layouts, .satfinite) and wmma.load/store/mma (matrices, shapes,
 * types, layouts, state spaces), on sm_80 and sm_90. Each fragment is a vector of as many
 * registers as the PTX ISA gives the shape and type, so that ptxas judges the modifiers; forms
 * gpumemsim rejects by name (PTX-UNSUP-002) are listed in matrix_known_differences.txt.
 * One small PTX module per case and the manifest run_cache_diff.sh reads (the format of
 * gen_cache_cases). Deterministic: exhaustive enumeration of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_matrix_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv; exit status 0, or 1 when OUTDIR cannot be
 *   written. */
#include <stdio.h>
#include <string.h>

#include "gen_harness.h"

/* Fragments use %q (b32) and %fd (f64) registers. */
#define EXTRA_REGS "\t.reg .f64 %fd<40>;\n\t.reg .b32 %q<40>;\n"
static const gen_module sm80 = {.version = "9.0", .sm = 80, .arch = 80, .globals = "",
                                .param = ".param .u64 k_p", .extra_regs = EXTRA_REGS};
static const gen_module sm90 = {.version = "9.0", .sm = 90, .arch = 90, .globals = "",
                                .param = ".param .u64 k_p", .extra_regs = EXTRA_REGS};

static const struct { const char *name; unsigned m, n, k; } shapes[] = {
    {"m16n8k16", 16, 8, 16}, {"m16n8k8", 16, 8, 8},     {"m16n8k4", 16, 8, 4},
    {"m8n8k4", 8, 8, 4},     {"m16n8k32", 16, 8, 32},   {"m8n8k16", 8, 8, 16},
    {"m16n16k16", 16, 16, 16}, {"m32n8k16", 32, 8, 16}, {"m8n32k16", 8, 32, 16},
    {"m16n16k8", 16, 16, 8},
};

static unsigned type_bits(const char *t)
{
    if (strcmp(t, "f64") == 0)
        return 64;
    if (strcmp(t, "s8") == 0 || strcmp(t, "u8") == 0)
        return 8;
    if (strcmp(t, "f16") == 0 || strcmp(t, "bf16") == 0)
        return 16;
    return 32;
}

/* A fragment operand: registers of matrix `frag` ('a', 'b', or 'c'/'d') of the shape with
 * element type t, %fd registers for f64, else %q; `first` numbers the registers. */
static unsigned fragment(char *out, size_t size, unsigned shape, char frag, const char *t,
                         int wmma, unsigned first)
{
    unsigned rows = frag == 'b' ? shapes[shape].k : shapes[shape].m;
    unsigned cols = frag == 'a' ? shapes[shape].k : shapes[shape].n;
    unsigned bits = type_bits(t), elems = rows * cols / 32;
    if (wmma && bits == 16 && strcmp(t, "f16") == 0 && (frag == 'a' || frag == 'b'))
        elems = 16;
    unsigned regs = bits == 64 ? elems : elems * bits / 32;
    if (regs == 0)
        regs = 1;
    if (regs > 8)
        regs = 8;
    gen_data_operand(out, size, bits == 64 ? "%fd" : "%q", first, regs);
    if (regs == 1) { /* always braces for matrix operands */
        size_t n = strlen(out);
        if (n + 3 <= size) { /* wrap in place: "{" out "}" */
            memmove(out + 1, out, n);
            out[0] = '{';
            out[n + 1] = '}';
            out[n + 2] = '\0';
        }
    }
    return regs;
}

static void ldst_matrix(gen *g)
{
    static const char *const shapes_ld[] = {".m8n8", ".m16n16", ".m8n16"};
    static const char *const nums[] = {".x1", ".x2", ".x4"};
    static const char *const spaces[] = {"", ".shared", ".shared::cta"};
    static const char *const types[] = {".b16", ".b8"};
    const gen_module *mods[] = {&sm80, &sm90};
    for (unsigned mi = 0; mi < 2; mi++)
        for (unsigned s = 0; s < 3; s++)
            for (unsigned n = 0; n < 3; n++)
                for (unsigned tr = 0; tr < 2; tr++)
                    for (unsigned sp = 0; sp < 3; sp++)
                        for (unsigned t = 0; t < 2; t++) {
                            char regs[128];
                            gen_data_operand(regs, sizeof regs, "%r", 1, 1u << n);
                            if (n == 0)
                                snprintf(regs, sizeof regs, "{%%r1}");
                            const char *addr = sp ? "[%r10]" : "[%rd1]";
                            char insn[256];
                            snprintf(insn, sizeof insn, "ldmatrix.sync.aligned%s%s%s%s%s %s, %s;",
                                     shapes_ld[s], nums[n], tr ? ".trans" : "", spaces[sp],
                                     types[t], regs, addr);
                            gen_write_module(g, mods[mi], insn);
                            snprintf(insn, sizeof insn, "stmatrix.sync.aligned%s%s%s%s%s %s, %s;",
                                     s == 0 ? ".m8n8" : ".m16n8", nums[n], tr ? ".trans" : "",
                                     spaces[sp], types[t], addr, regs);
                            gen_write_module(g, mods[mi], insn);
                        }
}

static void mma(gen *g)
{
    static const char *const ab[][2] = {{"f16", "f16"}, {"bf16", "bf16"}, {"tf32", "tf32"},
                                        {"f64", "f64"}, {"s8", "s8"},     {"s8", "u8"},
                                        {"u8", "u8"},   {"u8", "s8"}};
    static const char *const dc[][2] = {{"f16", "f16"}, {"f16", "f32"}, {"f32", "f16"},
                                        {"f32", "f32"}, {"s32", "s32"}, {"f64", "f64"}};
    char d[128], a[128], b[128], c[128];
    for (unsigned s = 0; s < 6; s++)
        for (unsigned i = 0; i < sizeof ab / sizeof ab[0]; i++)
            for (unsigned j = 0; j < sizeof dc / sizeof dc[0]; j++)
                for (unsigned sat = 0; sat < 2; sat++) {
                    if (sat && strcmp(dc[j][0], "s32") != 0 && strcmp(dc[j][0], "f32") != 0)
                        continue;
                    fragment(d, sizeof d, s, 'd', dc[j][0], 0, 1);
                    fragment(a, sizeof a, s, 'a', ab[i][0], 0, 10);
                    fragment(b, sizeof b, s, 'b', ab[i][1], 0, 20);
                    fragment(c, sizeof c, s, 'c', dc[j][1], 0, 30);
                    char insn[1024];
                    snprintf(insn, sizeof insn,
                             "mma.sync.aligned.%s.row.col%s.%s.%s.%s.%s %s, %s, %s, %s;",
                             shapes[s].name, sat ? ".satfinite" : "", dc[j][0], ab[i][0],
                             ab[i][1], dc[j][1], d, a, b, c);
                    gen_write_module(g, &sm90, insn);
                }
    /* layouts other than .row.col, and the sm_80 target */
    static const char *const layouts[] = {".row.row", ".col.col", ".col.row", ""};
    for (unsigned l = 0; l < 4; l++) {
        fragment(d, sizeof d, 0, 'd', "f32", 0, 1);
        fragment(a, sizeof a, 0, 'a', "f16", 0, 10);
        fragment(b, sizeof b, 0, 'b', "f16", 0, 20);
        fragment(c, sizeof c, 0, 'c', "f32", 0, 30);
        char insn[1024];
        snprintf(insn, sizeof insn, "mma.sync.aligned.m16n8k16%s.f32.f16.f16.f32 %s, %s, %s, %s;",
                 layouts[l], d, a, b, c);
        gen_write_module(g, &sm90, insn);
        /* the sm_70 quadpair form takes every layout */
        snprintf(insn, sizeof insn, "mma.sync.aligned.m8n8k4%s.f32.f16.f16.f16 {%%q1, %%q2, %%q3, "
                 "%%q4, %%q5, %%q6, %%q7, %%q8}, {%%q10, %%q11}, {%%q20, %%q21}, {%%q30, %%q31, "
                 "%%q32, %%q33};", layouts[l]);
        gen_write_module(g, &sm80, insn);
    }
    gen_write_module(g, &sm80, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1, %fd2}, "
                               "{%fd3}, {%fd4}, {%fd5, %fd6};");
    gen_write_module(g, &sm80, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%fd1, %fd2, "
                               "%fd3, %fd4}, {%fd5, %fd6, %fd7, %fd8}, {%fd9, %fd10}, {%fd11, "
                               "%fd12, %fd13, %fd14};");
    gen_write_module(g, &sm80, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%q1, %q2, "
                               "%q3, %q4}, {%q5, %q6, %q7, %q8}, {%q9, %q10}, {%q11, %q12, %q13, "
                               "%q14};");
}

static void wmma_moves(gen *g)
{
    static const char *const types[] = {"f16", "bf16", "tf32", "f64", "s8", "u8", "f32", "s32"};
    static const char *const spaces[] = {"", ".global", ".shared"};
    static const char frags[] = {'a', 'b', 'c', 'd'};
    char r[128];
    for (unsigned f = 0; f < 4; f++)
        for (unsigned s = 3; s < 10; s++) {
            if (s == 4 || s == 5)
                continue; /* mma-only shapes */
            for (unsigned t = 0; t < 8; t++)
                for (unsigned l = 0; l < 2; l++)
                    for (unsigned sp = 0; sp < 3; sp++) {
                        fragment(r, sizeof r, s, frags[f], types[t], 1, 1);
                        const char *lay = l ? "col" : "row";
                        char insn[1024];
                        if (frags[f] == 'd')
                            snprintf(insn, sizeof insn, "wmma.store.d.sync.aligned.%s.%s%s.%s "
                                     "[%%rd1], %s, %%r10;", lay, shapes[s].name, spaces[sp],
                                     types[t], r);
                        else
                            snprintf(insn, sizeof insn, "wmma.load.%c.sync.aligned.%s.%s%s.%s "
                                     "%s, [%%rd1], %%r10;", frags[f], lay, shapes[s].name,
                                     spaces[sp], types[t], r);
                        gen_write_module(g, &sm90, insn);
                    }
        }
}

static void wmma_mma(gen *g)
{
    static const char *const four[][4] = {
        {"f32", "bf16", "bf16", "f32"}, {"f32", "tf32", "tf32", "f32"},
        {"f64", "f64", "f64", "f64"},   {"s32", "s8", "s8", "s32"},
        {"s32", "u8", "u8", "s32"},     {"s32", "s8", "u8", "s32"},
        {"f32", "f16", "f16", "f32"},   {"f16", "bf16", "bf16", "f32"}};
    static const char *const two[][2] = {{"f16", "f16"}, {"f16", "f32"}, {"f32", "f16"},
                                         {"f32", "f32"}};
    static const char *const layouts[] = {"row.col", "row.row", "col.col", "col.row"};
    char d[128], a[128], b[128], c[128];
    for (unsigned s = 3; s < 10; s++) {
        if (s == 4 || s == 5)
            continue;
        for (unsigned l = 0; l < 4; l++) {
            for (unsigned i = 0; i < 4; i++) {
                fragment(d, sizeof d, s, 'd', two[i][0], 1, 1);
                fragment(a, sizeof a, s, 'a', "f16", 1, 10);
                fragment(b, sizeof b, s, 'b', "f16", 1, 20);
                fragment(c, sizeof c, s, 'c', two[i][1], 1, 30);
                char insn[1024];
                snprintf(insn, sizeof insn, "wmma.mma.sync.aligned.%s.%s.%s.%s %s, %s, %s, %s;",
                         layouts[l], shapes[s].name, two[i][0], two[i][1], d, a, b, c);
                gen_write_module(g, &sm90, insn);
            }
            for (unsigned i = 0; i < sizeof four / sizeof four[0]; i++)
                for (unsigned x = 0; x < 3; x++) { /* plain, .satfinite, .rn */
                    fragment(d, sizeof d, s, 'd', four[i][0], 1, 1);
                    fragment(a, sizeof a, s, 'a', four[i][1], 1, 10);
                    fragment(b, sizeof b, s, 'b', four[i][2], 1, 20);
                    fragment(c, sizeof c, s, 'c', four[i][3], 1, 30);
                    char insn[1024];
                    snprintf(insn, sizeof insn,
                             "wmma.mma.sync.aligned.%s.%s.%s.%s.%s.%s%s %s, %s, %s, %s;",
                             layouts[l], shapes[s].name, four[i][0], four[i][1], four[i][2],
                             four[i][3], x == 1 ? ".satfinite" : x == 2 ? ".rn" : "", d, a, b,
                             c);
                    gen_write_module(g, &sm90, insn);
                }
        }
    }
}

static void groups(gen *g)
{
    ldst_matrix(g);
    mma(g);
    wmma_moves(g);
    wmma_mma(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &sm90, "gen_matrix_cases", groups);
}

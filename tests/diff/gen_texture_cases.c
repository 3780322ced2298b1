/* Generator of the ptxas differential test for the texture instructions (PTX ISA 9.1, "Texture
 * Instructions": tex, tld4, txq). It writes one small PTX module per case, each holding one
 * instruction under test inside an otherwise valid kernel that declares a .texref `tref` and a
 * .surfref `sref` and holds a texture object in %rd1, and the manifest run_cache_diff.sh reads
 * (the same format as gen_cache_cases). Deterministic: exhaustive enumeration of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_texture_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv:
 *   id <TAB> ptxas-arch <TAB> target <TAB> version <TAB> instruction
 *   Exit status 0, or 1 when OUTDIR cannot be written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_harness.h"

/* Every case on sm_80 at PTX ISA 9.0. */
static const gen_module module = {
    .version = "9.0", .sm = 80, .arch = 80,
    .globals = ".global .surfref sref;\n.global .u64 plain;\n\n", .param = ".param .u64 k_p",
    .extra_regs = "\t.reg .f64 %fd<16>;\n",
};

typedef struct geom {
    const char *mod;
    const char *fcoords, *icoords; /* .f32 and .s32 coordinates matching the geometry */
} geom;

static const geom geoms[] = {
    {".1d", "{%f2}", "{%r2}"},
    {".2d", "{%f2, %f3}", "{%r2, %r3}"},
    {".3d", "{%f2, %f3, %f4, %f5}", "{%r2, %r3, %r4, %r5}"},
    {".a1d", "{%r6, %f2}", "{%r6, %r2}"},
    {".a2d", "{%r6, %f2, %f3, %f4}", "{%r6, %r2, %r3, %r4}"},
    {".cube", "{%f2, %f3, %f4, %f5}", "{%r2, %r3, %r4, %r5}"},
    {".acube", "{%r6, %f2, %f3, %f4}", "{%r6, %r2, %r3, %r4}"},
    {".2dms", "{%r6, %f2, %f3, %f4}", "{%r6, %r2, %r3, %r4}"},
    {"", "{%f2, %f3}", "{%r2, %r3}"},
};
enum { NGEOMS = sizeof geoms / sizeof geoms[0] };

static const char *const dtypes[] = {".f32", ".s32", ".u32", ".b32", ".f16", ".f64"};
static const char *const ctypes[] = {".f32", ".s32", ".u32"};
static const char *const vecs[] = {".v4", ".v2", ""};
static const char *const results[] = {"{%f7, %f8, %f9, %f10}", "{%r7, %r8, %r9, %r10}",
                                      "{%f7, %f8, %f9, %f10}|%p1"};

/* tex and tld4: geometry x result type x coordinate type x vector, on the texture object. */
static void group_shapes(gen *g)
{
    static const char *const comps[] = {"", ".r", ".a"};
    for (unsigned op = 0; op < 2; op++)
        for (unsigned gi = 0; gi < NGEOMS; gi++)
            for (unsigned d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++)
                for (unsigned ct = 0; ct < 3; ct++)
                    for (unsigned v = 0; v < 3; v++) {
                        if (v && (d || ct))
                            continue; /* the other vectors on .f32.f32 only */
                        const char *coords = ct == 0 ? geoms[gi].fcoords : geoms[gi].icoords;
                        for (unsigned c = 0; c < (op ? 3u : 1u); c++)
                            gen_emit(g, "%s%s%s%s%s%s %s, [%%rd1, %s];", op ? "tld4" : "tex",
                                     op ? comps[c] : "", geoms[gi].mod, vecs[v], dtypes[d],
                                     ctypes[ct], v == 2 ? "%f7" : results[d == 1 || d == 2],
                                     coords);
                    }
    gen_emit(g, "tex.2d.v2.f16x2.f32 {%%r7, %%r8}, [%%rd1, {%%f2, %%f3}];");
    gen_emit(g, "tld4.r.g.2d.v4.f32.f32 {%%f7, %%f8, %%f9, %%f10}, [%%rd1, {%%f2, %%f3}];");
    gen_emit(g, "tex.2d.3d.v4.f32.f32 {%%f7, %%f8, %%f9, %%f10}, [%%rd1, {%%f2, %%f3}];");
    gen_emit(g, "tex.2d.v4.f32.f32.ca {%%f7, %%f8, %%f9, %%f10}, [%%rd1, {%%f2, %%f3}];");
    gen_emit(g, "tex.2d.v4.f32.f32.trap {%%f7, %%f8, %%f9, %%f10}, [%%rd1, {%%f2, %%f3}];");
}

/* Mipmap forms, extra operands and the predicate result. */
static void group_forms(gen *g)
{
    static const char *const forms[] = {
        "tex.base.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}];",
        "tex.level.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], %f4;",
        "tex.grad.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], {%f4, %f5}, {%f6, %f1};",
        "tex.level.2d.v4.f32.s32 {%f7, %f8, %f9, %f10}, [%rd1, {%r2, %r3}], %f4;",
        "tex.level.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], %r4;",
        "tex.level.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], 1.5;",
        "tex.level.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}];",
        "tex.level.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], {%f4, %f5};",
        "tex.level.1d.v4.s32.f32 {%r7, %r8, %r9, %r10}, [%rd1, {%f2}], %f4;",
        "tex.level.3d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}], %f6;",
        "tex.level.a2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%r6, %f2, %f3, %f4}], %f6;",
        "tex.level.cube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}], %f6;",
        "tex.level.acube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%r6, %f2, %f3, %f4}], %f6;",
        "tex.base.cube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}];",
        "tex.level.base.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], %f4;",
        "tex.grad.2d.v4.f32.s32 {%f7, %f8, %f9, %f10}, [%rd1, {%r2, %r3}], {%f4, %f5}, {%f6, %f1};",
        "tex.grad.1d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2}], {%f4}, {%f5};",
        "tex.grad.a1d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%r6, %f2}], {%f4}, {%f5};",
        "tex.grad.a2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%r6, %f2, %f3, %f4}], {%f4, %f5}, {%f6, %f1};",
        "tex.grad.3d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}], {%f4, %f5, %f6, %f1}, {%f6, %f1, %f2, %f3};",
        "tex.grad.3d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}], {%f4, %f5}, {%f6, %f1};",
        "tex.grad.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], {%f4, %f5, %f6, %f1}, {%f6, %f1, %f2, %f3};",
        "tex.grad.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], %f4, %f5;",
        "tex.grad.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], {%f4, %f5};",
        "tex.grad.cube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}], {%f4, %f5, %f6, %f1}, {%f6, %f1, %f2, %f3};",
        "tex.cube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4}];",
        "tex.acube.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f1, %f2, %f3, %f4}];",
        "tex.cube.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3, %f4, %f5}];",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], {%r1, %r2};",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}], {%r1, %r2}, %f4;",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [tref, tref, {%f2, %f3}];",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}|%r1, [%rd1, {%f2, %f3}];",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9, _}, [%rd1, {%f2, %f3}];",
        "tex.2d.v4.f32.f32 {%fd7, %f8, %f9, %f10}, [%rd1, {%f2, %f3}];",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9}, [%rd1, {%f2, %f3}];",
        "tex.2d.v4.f32.f32 %f7, [%rd1, {%f2, %f3}];",
        "tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1];",
        "ld.global.v4.f32 {%f7, %f8, %f9, %f10}|%p1, [%rd1];",
        "suld.b.2d.b32.trap %r7, [%rd1, %rd2, {%r2, %r3}];",
    };
    for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
        gen_emit(g, "%s", forms[f]);
}

static const char *const queries[] = {
    ".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".normalized_coords",
    ".filter_mode", ".addr_mode_0", ".addr_mode_1", ".addr_mode_2", ".array_size",
    ".num_mipmap_levels", ".num_samples", ".force_unnormalized_coords", ".memory_layout", ""};

static void group_queries(gen *g)
{
    for (unsigned q = 0; q < sizeof queries / sizeof queries[0]; q++) {
        gen_emit(g, "txq%s.b32 %%r7, [%%rd1];", queries[q]);
        gen_emit(g, "txq%s.b32 %%r7, [tref];", queries[q]);
        gen_emit(g, "txq%s.u32 %%r7, [%%rd1];", queries[q]);
    }
    static const char *const forms[] = {
        "txq.width.b32 %f7, [%rd1];", "txq.width.b32 %rd7, [%rd1];", "txq.width.b32 %rs7, [%rd1];",
        "txq.width.b32 %r7, %rd1;", "txq.width.b32 %r7, [plain];", "txq.width.b32 %r7, [sref];",
        "txq.width.height.b32 %r7, [%rd1];", "txq.level.width.b32 %r7, [%rd1], %r2;",
        "txq.level.height.b32 %r7, [%rd1], 2;", "txq.level.depth.b32 %r7, [%rd1], %r2;",
        "txq.level.filter_mode.b32 %r7, [%rd1], %r2;", "txq.level.width.b32 %r7, [%rd1], %f2;",
        "txq.level.width.b32 %r7, [%rd1];", "txq.level.width.b32 %r7, [tref], %r2;",
        "txq.grad.width.b32 %r7, [%rd1], %r2;",
        "suq.width.b32 %r7, [tref];",
    };
    for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
        gen_emit(g, "%s", forms[f]);
}

/* Coordinates of every count and type on every modelled geometry, and the texture operand. */
static void group_operands(gen *g)
{
    static const char *const coords[] = {"%f2", "{%f2}", "{%f2, %f3}", "{%f2, %f3, %f4}",
                                         "{%f2, %f3, %f4, %f5}", "{%r2, %f3}", "{%fd2, %f3}",
                                         "{%rs2, %f3}", "{%rd2, %f3}", "{%r2, 4}", "{%f2, %r3, %f4, %r5}"};
    for (unsigned gi = 0; gi < 5; gi++)
        for (unsigned c = 0; c < sizeof coords / sizeof coords[0]; c++)
            gen_emit(g, "tex%s.v4.f32.f32 {%%f7, %%f8, %%f9, %%f10}, [%%rd1, %s];",
                     geoms[gi].mod, coords[c]);
    static const char *const textures[] = {"%rd1", "tref", "%r1", "plain", "sref", "k_p", "%f1",
                                           "%fd1"};
    for (unsigned t = 0; t < sizeof textures / sizeof textures[0]; t++) {
        gen_emit(g, "tex.2d.v4.f32.f32 {%%f7, %%f8, %%f9, %%f10}, [%s, {%%f2, %%f3}];",
                 textures[t]);
        gen_emit(g, "tld4.b.2d.v4.f32.f32 {%%f7, %%f8, %%f9, %%f10}, [%s, {%%f2, %%f3}];",
                 textures[t]);
    }
}

static void groups(gen *g)
{
    group_shapes(g);
    group_forms(g);
    group_queries(g);
    group_operands(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &module, "gen_texture_cases", groups);
}

/* Generator of the ptxas differential test for the surface instructions (PTX ISA 9.1 §9.7.10:
 * suld.b, sust.b, sust.p, sured.b, sured.p, suq). It writes one small PTX module per case, each
 * holding one instruction under test inside an otherwise valid kernel that declares a .surfref
 * `sref` and holds a surface object in %rd1, and the manifest run_cache_diff.sh reads (the same
 * format as gen_cache_cases). Deterministic: exhaustive enumeration of fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_surface_cases OUTDIR
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
    .extra_regs = "",
};

typedef struct geom {
    const char *mod;
    const char *coords; /* matching the geometry */
} geom;

static const geom geoms[] = {
    {".1d", "{%r2}"}, {".2d", "{%r2, %r3}"}, {".3d", "{%r2, %r3, %r4, %r5}"},
    {".a1d", "{%r6, %r2}"}, {".a2d", "{%r6, %r2, %r3, %r4}"},
};
enum { NGEOMS = sizeof geoms / sizeof geoms[0] };

typedef struct dtype {
    const char *type;
    const char *reg;
} dtype;

static const dtype dtypes[] = {
    {".b8", "%rs"}, {".b16", "%rs"}, {".b32", "%r"}, {".b64", "%rd"}, {".u32", "%r"},
    {".s32", "%r"}, {".u64", "%rd"}, {".s64", "%rd"}, {".f32", "%f"}, {".b128", "%rd"},
};
enum { NDTYPES = sizeof dtypes / sizeof dtypes[0] };

static const char *const modes[] = {"", ".trap", ".clamp", ".zero"};
static const char *const vecs[] = {"", ".v2", ".v4", ".v8"};
static const unsigned vec_n[] = {1, 2, 4, 8};

/* suld.b / sust.b / sust.p: geometry x type x vector x mode. */
static void group_load_store(gen *g, const char *op, int is_load)
{
    for (unsigned gi = 0; gi < NGEOMS; gi++)
        for (unsigned t = 0; t < NDTYPES; t++)
            for (unsigned v = 0; v < 4; v++)
                for (unsigned m = 0; m < 4; m++) {
                    if (m != 1 && (gi != 1 || v > 1))
                        continue; /* the modes on 2d scalars and .v2 only */
                    char data[128];
                    gen_data_operand(data, sizeof data, dtypes[t].reg, 7, vec_n[v]);
                    if (is_load)
                        gen_emit(g, "%s%s%s%s%s %s, [%%rd1, %s];", op, geoms[gi].mod, vecs[v],
                                 dtypes[t].type, modes[m], data, geoms[gi].coords);
                    else
                        gen_emit(g, "%s%s%s%s%s [%%rd1, %s], %s;", op, geoms[gi].mod, vecs[v],
                                 dtypes[t].type, modes[m], geoms[gi].coords, data);
                }
}

static const char *const cops[] = {".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"};

static void group_cache_operators(gen *g)
{
    for (unsigned c = 0; c < sizeof cops / sizeof cops[0]; c++) {
        gen_emit(g, "suld.b.2d%s.b32.trap %%r7, [%%rd1, {%%r2, %%r3}];", cops[c]);
        gen_emit(g, "sust.b.2d%s.b32.trap [%%rd1, {%%r2, %%r3}], %%r7;", cops[c]);
        gen_emit(g, "sust.p.2d%s.b32.trap [%%rd1, {%%r2, %%r3}], %%r7;", cops[c]);
        gen_emit(g, "sured.b.add.2d%s.u32.trap [%%rd1, {%%r2, %%r3}], %%r7;", cops[c]);
    }
    gen_emit(g, "suld.b.2d.b32.trap.ca %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.b.trap.2d.b32 %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.b.2d.ca.cg.b32.trap %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.b.2d.3d.b32.trap %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.b.2d.b32.trap.zero %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.b.2d.relaxed.gpu.b32.trap %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.b.2d.global.b32.trap %%r7, [%%rd1, {%%r2, %%r3}];");
    gen_emit(g, "suld.p.2d.b32.trap %%r7, [%%rd1, {%%r2, %%r3}];");
}

static const char *const red_ops[] = {".add", ".min", ".max", ".and", ".or", ".xor", ".inc",
                                      ".exch", ""};

static void group_reductions(gen *g)
{
    static const char *const forms[] = {"sured.b", "sured.p"};
    for (unsigned f = 0; f < 2; f++)
        for (unsigned o = 0; o < sizeof red_ops / sizeof red_ops[0]; o++)
            for (unsigned t = 0; t < NDTYPES; t++)
                for (unsigned gi = 0; gi < NGEOMS; gi++) {
                    if (gi != 1 && (t != 2 && t != 4))
                        continue; /* every geometry on .b32 and .u32 only */
                    gen_emit(g, "%s%s%s%s.trap [%%rd1, %s], %s7;", forms[f], red_ops[o],
                             geoms[gi].mod, dtypes[t].type, geoms[gi].coords, dtypes[t].reg);
                }
    gen_emit(g, "sured.b.add.2d.u32 [%%rd1, {%%r2, %%r3}], %%r7;");
    gen_emit(g, "sured.b.add.2d.u32.clamp [%%rd1, {%%r2, %%r3}], %%r7;");
    gen_emit(g, "sured.b.add.2d.u32.zero [%%rd1, {%%r2, %%r3}], 1;");
    gen_emit(g, "sured.b.add.2d.v2.u32.trap [%%rd1, {%%r2, %%r3}], {%%r7, %%r8};");
    gen_emit(g, "sured.b.add.2d.u32.trap [sref, {%%r2, %%r3}], %%rd7;");
}

static const char *const queries[] = {".width", ".height", ".depth", ".channel_data_type",
                                      ".channel_order", ".array_size", ".memory_layout",
                                      ".normalized_coords", ""};

static void group_queries(gen *g)
{
    for (unsigned q = 0; q < sizeof queries / sizeof queries[0]; q++) {
        gen_emit(g, "suq%s.b32 %%r7, [%%rd1];", queries[q]);
        gen_emit(g, "suq%s.b32 %%r7, [sref];", queries[q]);
        gen_emit(g, "suq%s.u32 %%r7, [%%rd1];", queries[q]);
        gen_emit(g, "suq%s.b64 %%rd7, [%%rd1];", queries[q]);
    }
    gen_emit(g, "suq.width.b32 %%rd7, [%%rd1];");
    gen_emit(g, "suq.width.b32 %%rs7, [%%rd1];");
    gen_emit(g, "suq.width.b32 %%r7, %%rd1;");
    gen_emit(g, "suq.width.b32 %%r7, [plain];");
    gen_emit(g, "suq.width.height.b32 %%r7, [%%rd1];");
    gen_emit(g, "suq.width.b32.trap %%r7, [%%rd1];");
}

/* Coordinates of every count on every geometry, and the surface operand's kinds. */
static void group_operands(gen *g)
{
    static const char *const coords[] = {"%r2", "{%r2}", "{%r2, %r3}", "{%r2, %r3, %r4}",
                                         "{%r2, %r3, %r4, %r5}", "{%rd2, %r3}", "{%r2, 4}",
                                         "{%f2, %r3}", "{%rs2, %r3}"};
    for (unsigned gi = 0; gi < NGEOMS; gi++)
        for (unsigned c = 0; c < sizeof coords / sizeof coords[0]; c++) {
            gen_emit(g, "suld.b%s.b32.trap %%r7, [%%rd1, %s];", geoms[gi].mod, coords[c]);
            gen_emit(g, "sust.b%s.b32.trap [%%rd1, %s], %%r7;", geoms[gi].mod, coords[c]);
        }
    /* (a surface with an offset, [%rd1+8, ...], makes ptxas 13 reject the modules after it in
     * the same call: tests/ptx_bad/PTX-SURF-002.suq.ptx covers it) */
    static const char *const surfaces[] = {"%rd1", "sref", "%r1", "plain", "k_p", "%f1"};
    for (unsigned s = 0; s < sizeof surfaces / sizeof surfaces[0]; s++) {
        gen_emit(g, "suld.b.2d.b32.trap %%r7, [%s, {%%r2, %%r3}];", surfaces[s]);
        gen_emit(g, "sust.b.2d.b32.trap [%s, {%%r2, %%r3}], %%r7;", surfaces[s]);
    }
    static const char *const dsts[] = {"%r7", "{%r7}", "%rd7", "%f7", "%rs7", "{%r7, %r8}", "5"};
    for (unsigned d = 0; d < sizeof dsts / sizeof dsts[0]; d++) {
        gen_emit(g, "sust.b.2d.b32.trap [%%rd1, {%%r2, %%r3}], %s;", dsts[d]);
        if (dsts[d][0] == '5')
            continue; /* an immediate destination upsets the rest of a ptxas 13 batch */
        gen_emit(g, "suld.b.2d.b32.trap %s, [%%rd1, {%%r2, %%r3}];", dsts[d]);
        gen_emit(g, "suld.b.2d.b8.trap %s, [%%rd1, {%%r2, %%r3}];", dsts[d]);
    }
}

static void groups(gen *g)
{
    group_load_store(g, "suld.b", 1);
    group_load_store(g, "sust.b", 0);
    group_load_store(g, "sust.p", 0);
    group_cache_operators(g);
    group_reductions(g);
    group_queries(g);
    group_operands(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &module, "gen_surface_cases", groups);
}

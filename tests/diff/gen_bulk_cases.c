/* Generator of the ptxas differential test for the bulk copies (PTX ISA 9.1 §9.7.9.25.4-5:
 * cp.async.bulk, cp.async.bulk.tensor, cp.reduce.async.bulk{.tensor}, cp.async.bulk.prefetch
 * {.tensor}, commit_group, wait_group; §9.7.13.4 fence.proxy): state-space pairs against
 * completion mechanisms, cache hints, sizes, reduction operations against types, tensor
 * dimensions against coordinate counts, load modes, and the proxy kinds. One small PTX module
 * per case and the manifest run_cache_diff.sh reads. Deterministic: exhaustive enumeration of
 * fixed lists.
 *
 * It is not a checker: ptxas and `gpumemsim check` decide, and the driver compares.
 *
 * Usage: gen_bulk_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv; exit status 0, or 1 when OUTDIR cannot be
 *   written. */
#include <stdio.h>
#include <string.h>

#include "gen_harness.h"

/* Every case on sm_90 at PTX ISA 9.0. */
static const gen_module module = {
    .version = "9.0", .sm = 90, .arch = 90, .globals = "", .param = ".param .u64 k_p",
    .extra_regs = "",
};

/* cp.async.bulk: every pair of spaces with every completion, with and without the hint (and
 * its operand), immediate and register sizes. */
static void group_copy(gen *g)
{
    static const char *const spaces[] = {".shared::cluster.global", ".shared::cta.global",
                                         ".global.shared::cta", ".shared::cluster.shared::cta",
                                         ".global.global", ".shared::cta.shared::cta"};
    static const char *const completes[] = {".mbarrier::complete_tx::bytes", ".bulk_group", ""};
    static const char *const sizes[] = {"256", "%r3", "16", "250", "0"};
    for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++)
        for (size_t c = 0; c < sizeof completes / sizeof completes[0]; c++)
            for (unsigned hint = 0; hint < 2; hint++) {
                int to_global = strncmp(spaces[s], ".global", 7) == 0;
                const char *dst = to_global ? "[%rd1]" : "[%r1]";
                const char *src = strstr(spaces[s] + 1, ".global") ? "[%rd2]" : "[%r2]";
                const char *mbar = c == 0 ? ", [%r4]" : "";
                gen_emit(g, "cp.async.bulk%s%s%s %s, %s, %s%s%s;", spaces[s], completes[c],
                         hint ? ".L2::cache_hint" : "", dst, src, sizes[c == 0 ? 0 : 1], mbar,
                         hint ? ", %rd5" : "");
            }
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        gen_emit(g, "cp.async.bulk.global.shared::cta.bulk_group [%%rd1], [%%r2], %s;", sizes[z]);
        gen_emit(g, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%%r1], "
                 "[%%rd2], %s, [%%r4];", sizes[z]);
        gen_emit(g, "cp.async.bulk.prefetch.L2.global [%%rd1], %s;", sizes[z]);
    }
    gen_emit(g, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
             ".multicast::cluster [%%r1], [%%rd2], 256, [%%r4], %%rs1;");
    gen_emit(g, "cp.async.bulk.global.shared::cta.bulk_group [%%rd1], [%%r2], 256, [%%r4];");
    gen_emit(g, "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%%rd1], 256, %%rd5;");
    gen_emit(g, "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%%rd1], 256, 5;");
    gen_emit(g, "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%%rd1], [%%r2], 256, 5;");
    gen_emit(g, "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 "
             "[%%rd1], [%%r2], 256, 5;");
    gen_emit(g, "cp.async.bulk.prefetch.global [%%rd1], 256;");
    gen_emit(g, "cp.async.bulk.prefetch.L2.shared::cta [%%r1], 256;");
}

/* cp.reduce.async.bulk into global memory: every operation with every type. */
static void group_reduce(gen *g)
{
    static const char *const ops[] = {".add", ".min", ".max", ".inc", ".dec", ".and", ".or",
                                      ".xor"};
    static const char *const types[] = {".b32", ".u32", ".s32", ".b64", ".u64", ".s64", ".f32",
                                        ".f64", ".f16", ".bf16", ".add.noftz.f16", ".noftz.bf16",
                                        ".noftz.f32"};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            if (strncmp(types[t], ".add", 4) == 0 && o != 0)
                continue;
            const char *type = strncmp(types[t], ".add", 4) == 0 ? types[t] + 4 : types[t];
            gen_emit(g, "cp.reduce.async.bulk.global.shared::cta.bulk_group%s%s [%%rd1], [%%r2], "
                     "256;", ops[o], type);
        }
    gen_emit(g, "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 "
             "[%%rd1], [%%r2], 256, %%rd5;");
    gen_emit(g, "cp.reduce.async.bulk.global.shared::cta.bulk_group.u32 [%%rd1], [%%r2], 256;");
    gen_emit(g, "cp.reduce.async.bulk.global.shared::cta.bulk_group.add [%%rd1], [%%r2], 256;");
}

/* The tensor forms: every dimension with coordinate counts around it, loads, stores,
 * reductions and prefetches, load modes and hints. */
static void group_tensor(gen *g)
{
    static const char *const coords[] = {"{%r5}", "{%r5, %r6}", "{%r5, %r6, %r7}",
                                         "{%r5, %r6, %r7, %r8}", "{%r5, %r6, %r7, %r8, %r9}"};
    static const char *const modes[] = {"", ".tile", ".im2col"};
    for (unsigned d = 1; d <= 5; d++)
        for (unsigned n = 1; n <= 5; n++) {
            if (n + 1 < d || n > d + 1)
                continue;
            const char *c = coords[n - 1];
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                gen_emit(g, "cp.async.bulk.tensor.%ud.shared::cluster.global%s"
                         ".mbarrier::complete_tx::bytes [%%r1], [%%rd3, %s], [%%r4];", d, modes[m], c);
                gen_emit(g, "cp.async.bulk.tensor.%ud.global.shared::cta%s.bulk_group "
                         "[%%rd3, %s], [%%r1];", d, modes[m], c);
                gen_emit(g, "cp.async.bulk.prefetch.tensor.%ud.L2.global%s [%%rd3, %s];", d,
                         modes[m], c);
            }
            gen_emit(g, "cp.reduce.async.bulk.tensor.%ud.global.shared::cta.add.tile.bulk_group "
                     "[%%rd3, %s], [%%r1];", d, c);
            gen_emit(g, "cp.async.bulk.tensor.%ud.shared::cluster.global.tile"
                     ".mbarrier::complete_tx::bytes.L2::cache_hint [%%r1], [%%rd3, %s], [%%r4], "
                     "%%rd5;", d, c);
        }
    static const char *const redops[] = {".add", ".min", ".max", ".inc", ".dec", ".and", ".or",
                                         ".xor", ".exch"};
    for (size_t o = 0; o < sizeof redops / sizeof redops[0]; o++)
        gen_emit(g, "cp.reduce.async.bulk.tensor.2d.global.shared::cta%s.bulk_group.L2::cache_hint "
                 "[%%rd3, {%%r5, %%r6}], [%%r1], %%rd5;", redops[o]);
    gen_emit(g, "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
             "[%%r1], [%%rd3, {%%r5, 7}], [%%r4];");
    gen_emit(g, "cp.async.bulk.tensor.2d.global.shared::cta.tile.mbarrier::complete_tx::bytes "
             "[%%rd3, {%%r5, %%r6}], [%%r1];");
    gen_emit(g, "cp.async.bulk.tensor.2d.shared::cluster.global.tile.bulk_group [%%r1], "
             "[%%rd3, {%%r5, %%r6}], [%%r4];");
}

/* commit_group, wait_group and fence.proxy. */
static void group_groups_and_fences(gen *g)
{
    gen_emit(g, "cp.async.bulk.commit_group;");
    gen_emit(g, "cp.async.bulk.commit_group.read;");
    static const char *const counts[] = {"0", "1", "7", "%r1"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        gen_emit(g, "cp.async.bulk.wait_group %s;", counts[i]);
        gen_emit(g, "cp.async.bulk.wait_group.read %s;", counts[i]);
    }
    static const char *const kinds[] = {".async", ".async.global", ".async.shared::cta",
                                        ".async.shared::cluster", ".alias", ".async.local",
                                        ".alias.global", "", ".async.shared"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        gen_emit(g, "fence.proxy%s;", kinds[i]);
}

static void groups(gen *g)
{
    group_copy(g);
    group_reduce(g);
    group_tensor(g);
    group_groups_and_fences(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, &module, "gen_bulk_cases", groups);
}

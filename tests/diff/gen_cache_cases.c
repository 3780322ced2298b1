/* Generator of the ptxas differential test for the cache-control instructions (PTX ISA 9.1
 * §9.7.9.1-2 cache operators and eviction priorities, §9.7.9.15-18 prefetch, applypriority,
 * discard, createpolicy). It writes one tiny PTX module per case, each holding a single
 * instruction under test inside an otherwise valid kernel, and a manifest the driver
 * (run_cache_diff.sh) reads. Deterministic: the cases are an exhaustive enumeration of fixed
 * lists, in a fixed order; no randomness, no clock.
 *
 * It is not a checker: it does not know which cases are valid. ptxas and `gpumemsim check` decide,
 * and the driver compares their verdicts.
 *
 * Usage: gen_cache_cases OUTDIR
 *   writes OUTDIR/NNNNN.ptx and OUTDIR/cases.tsv with one line per module:
 *   id <TAB> ptxas-arch <TAB> target <TAB> version <TAB> instruction
 *   Exit status 0, or 1 when OUTDIR cannot be written. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_harness.h"

/* (target, .version) pairs a case is tried on. The first eight are every target at the newest
 * version ptxas 13.0 knows (9.0); the others sweep the version and target boundaries of the page
 * (6.4 before the eviction priorities, 7.3/7.4 around them, 7.8/8.0 around .tensormap, 8.7/8.8
 * around .L2::evict_* on ld/st) and two pairs whose .version is too old for the .target. */
typedef struct pair {
    unsigned sm;
    const char *version;
} pair;

static const pair pairs[] = {
    {70, "9.0"}, {75, "9.0"}, {80, "9.0"}, {86, "9.0"}, {89, "9.0"}, {90, "9.0"}, {100, "9.0"},
    {120, "9.0"}, /* 0-7 */
    {70, "6.4"}, {70, "7.3"}, {70, "7.4"}, {75, "7.4"}, {80, "7.3"}, {80, "7.4"}, {90, "7.8"},
    {90, "8.0"}, {100, "8.7"}, {100, "8.8"}, {120, "8.8"}, /* 8-18 */
    {100, "7.4"}, {86, "7.0"}, /* 19-20: .version too old for the .target */
};

#define PAIR_BIT(i) (UINT32_C(1) << (i))
#define S_TARGETS UINT32_C(0x000FF)
#define S_SWEEP UINT32_C(0x7FF00)
#define S_FULL (S_TARGETS | S_SWEEP)
#define S_BAD_HEADER (PAIR_BIT(19) | PAIR_BIT(20))
#define S_SM70 PAIR_BIT(0)
#define S_SM80 PAIR_BIT(2)
#define S_SM90 PAIR_BIT(5)
#define S_SM100 PAIR_BIT(6)

/* The operand registers: the address is always %rd1, the cache policy %rd15, data registers start
 * at index 2 (%rs2, %r2, %rd2, %f2, %fd2, %q2). */
typedef struct shape {
    const char *type; /* ".u32" */
    const char *reg;  /* register prefix of a matching width: "%r" */
} shape;

static const shape shapes[] = {
    {".b8", "%rs"}, {".u8", "%rs"}, {".s8", "%rs"}, {".b16", "%rs"}, {".u16", "%rs"},
    {".s16", "%rs"}, {".f16", "%rs"}, {".b32", "%r"}, {".u32", "%r"}, {".s32", "%r"},
    {".f32", "%f"}, {".b64", "%rd"}, {".u64", "%rd"}, {".s64", "%rd"}, {".f64", "%fd"},
    {".b128", "%q"},
};
enum { SHAPE_U32 = 8, SHAPE_B32 = 7, SHAPE_B64 = 11, SHAPE_U64 = 12 };

static unsigned arch_for(unsigned sm)
{
    return sm < 75 ? 75 : sm; /* ptxas 13 no longer generates code for older targets */
}

static void write_module(gen *g, const pair *pr, const char *insn)
{
    gen_module m = {
        .version = pr->version, .sm = pr->sm, .arch = arch_for(pr->sm), .globals = "",
        .param = ".param .align 16 .b8 k_p[64]",
        .extra_regs = strstr(insn, "%q") ? "\t.reg .f64 %fd<16>;\n\t.reg .b128 %q<16>;\n"
                                         : "\t.reg .f64 %fd<16>;\n",
    };
    gen_write_module(g, &m, insn);
}

/* One instruction text on every (target, version) pair of the set. */
static void emit(gen *g, uint32_t set, const char *fmt, ...)
{
    char insn[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(insn, sizeof insn, fmt, ap);
    va_end(ap);
    for (unsigned i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (set & PAIR_BIT(i))
            write_module(g, &pairs[i], insn);
}

/* One ld or st with the given modifier string (".global.cg"), shape and vector width. The address
 * is [k_p] for .param and [%rd1] otherwise; the policy operand follows when the modifiers ask
 * for .L2::cache_hint. */
static void emit_access(gen *g, uint32_t set, int is_store, const char *mods, const shape *s,
                        unsigned vec)
{
    char data[160], vecmod[16] = "";
    gen_data_operand(data, sizeof data, s->reg, 2, vec);
    if (vec > 1)
        snprintf(vecmod, sizeof vecmod, ".v%u", vec);
    const char *addr = strstr(mods, ".param") ? "[k_p]" : "[%rd1]";
    const char *policy = strstr(mods, "cache_hint") ? ", %rd15" : "";
    if (is_store)
        emit(g, set, "st%s%s%s %s, %s%s;", mods, vecmod, s->type, addr, data, policy);
    else
        emit(g, set, "ld%s%s%s %s, %s%s;", mods, vecmod, s->type, data, addr, policy);
}

static const char *const spaces[] = {"", ".global", ".shared", ".local", ".const", ".param"};
enum { NSPACES = sizeof spaces / sizeof spaces[0] };

/* Cache operators on every state space, loads and stores (§9.7.9.1). */
static void group_cache_operators(gen *g)
{
    static const char *const cops[] = {"", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"};
    char mods[128];
    for (int st = 0; st < 2; st++)
        for (unsigned sp = 0; sp < NSPACES; sp++)
            for (unsigned c = 0; c < sizeof cops / sizeof cops[0]; c++) {
                snprintf(mods, sizeof mods, "%s%s", spaces[sp], cops[c]);
                emit_access(g, S_TARGETS | PAIR_BIT(8), st, mods, &shapes[SHAPE_U32], 1);
            }
}

/* Every type with every vector width, plain, with .nc and with a cache operator. */
static void group_types_and_vectors(gen *g)
{
    static const char *const lmods[] = {".global", ".global.nc", ".global.cs", ".shared", ""};
    static const unsigned vecs[] = {1, 2, 4, 8};
    for (unsigned m = 0; m < sizeof lmods / sizeof lmods[0]; m++)
        for (unsigned t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
            for (unsigned v = 0; v < 4; v++) {
                uint32_t set = S_SM90 | S_SM100 | (shapes[t].reg[1] == 'q' ? PAIR_BIT(15) : 0);
                emit_access(g, set, 0, lmods[m], &shapes[t], vecs[v]);
                if (m != 1 && m != 2)
                    emit_access(g, set, 1, lmods[m], &shapes[t], vecs[v]);
            }
}

/* Memory ordering and scope, alone and with a cache operator or .nc (§9.7.9.1 constraints). */
static void group_ordering(gen *g)
{
    static const char *const sems[] = {"", ".weak", ".relaxed", ".acquire", ".release",
                                       ".volatile", ".mmio"};
    static const char *const scopes[] = {"", ".cta", ".cluster", ".gpu", ".sys"};
    static const char *const cops[] = {"", ".cg", ".cs", ".wb", ".nc"};
    char mods[128];
    for (int st = 0; st < 2; st++)
        for (unsigned s = 0; s < sizeof sems / sizeof sems[0]; s++)
            for (unsigned c = 0; c < sizeof scopes / sizeof scopes[0]; c++)
                for (unsigned k = 0; k < sizeof cops / sizeof cops[0]; k++) {
                    if ((st && k == 4) || (!st && k == 3))
                        continue; /* .nc exists on loads only, .wb on stores only */
                    snprintf(mods, sizeof mods, "%s%s.global%s", sems[s], scopes[c], cops[k]);
                    emit_access(g, S_SM70 | S_SM90, st, mods, &shapes[SHAPE_U32], 1);
                }
}

static const char *const l1_evicts[] = {"", ".L1::evict_normal", ".L1::evict_unchanged",
                                        ".L1::evict_first", ".L1::evict_last",
                                        ".L1::no_allocate"};
static const char *const l2_evicts[] = {"", ".L2::evict_normal", ".L2::evict_first",
                                        ".L2::evict_last"};

/* L1 and L2 eviction priorities and .L2::cache_hint, alone and combined, on scalar and 256-bit
 * vector accesses to .global (§9.7.9.2). */
static void group_evictions(gen *g)
{
    const uint32_t set = PAIR_BIT(10) | S_SM80 | S_SM100 | PAIR_BIT(16);
    struct { unsigned shape, vec; } forms[] = {{SHAPE_U32, 1}, {SHAPE_B32, 8}, {SHAPE_B64, 4}};
    char mods[160];
    for (int st = 0; st < 2; st++)
        for (unsigned a = 0; a < 6; a++)
            for (unsigned b = 0; b < 4; b++)
                for (unsigned h = 0; h < 2; h++)
                    for (unsigned f = 0; f < 3; f++) {
                        snprintf(mods, sizeof mods, ".global%s%s%s", l1_evicts[a], l2_evicts[b],
                                 h ? ".L2::cache_hint" : "");
                        emit_access(g, set, st, mods, &shapes[forms[f].shape], forms[f].vec);
                    }
}

/* .volatile, .relaxed, .acquire (ld) and .release (st) on every state space, with eviction
 * priorities, .L2::cache_hint, prefetch sizes and vectors: the grammar of ld/st.volatile has no
 * L1 eviction priority and no hint, and none of the four applies to .local, .const or .param. */
static void group_ordering_by_space(gen *g)
{
    static const char *const sems[] = {".volatile", ".relaxed.gpu", ".acquire.gpu", ".release.gpu"};
    static const char *const ld_extra[] = {"", ".L1::evict_last", ".L1::evict_first",
                                           ".L1::no_allocate", ".L2::cache_hint",
                                           ".L1::evict_last.L2::cache_hint", ".L2::128B",
                                           ".L1::evict_normal.L2::256B", ".L2::cache_hint.L2::64B"};
    static const char *const st_extra[] = {"", ".L1::evict_last", ".L1::evict_unchanged",
                                           ".L1::no_allocate", ".L2::cache_hint",
                                           ".L1::evict_first.L2::cache_hint"};
    char mods[160];
    for (int st = 0; st < 2; st++)
        for (unsigned o = 0; o < sizeof sems / sizeof sems[0]; o++) {
            if ((st && o == 2) || (!st && o == 3))
                continue; /* .acquire exists on loads only, .release on stores only */
            for (unsigned sp = 0; sp < NSPACES; sp++) {
                unsigned n = st ? sizeof st_extra / sizeof st_extra[0]
                                : sizeof ld_extra / sizeof ld_extra[0];
                for (unsigned e = 0; e < n; e++) {
                    snprintf(mods, sizeof mods, "%s%s%s", sems[o], spaces[sp],
                             st ? st_extra[e] : ld_extra[e]);
                    emit_access(g, S_SM90, st, mods, &shapes[SHAPE_U32], 1);
                }
                snprintf(mods, sizeof mods, "%s%s", sems[o], spaces[sp]);
                emit_access(g, S_SM90, st, mods, &shapes[SHAPE_U32], 2);
                snprintf(mods, sizeof mods, "%s%s.L2::evict_last", sems[o], spaces[sp]);
                emit_access(g, S_SM100, st, mods, &shapes[SHAPE_B32], 8);
            }
        }
    emit(g, S_FULL, "ld.volatile.global.L1::evict_last.f32 %%f2, [%%rd1];");
    emit(g, S_SM90, "ld.global.L1::evict_last.volatile.f32 %%f2, [%%rd1];");
}

/* ld/st.mmio: only as .mmio.relaxed.sys on a scalar .global or generic access. */
static void group_mmio(gen *g)
{
    static const char *const orders[] = {".mmio.relaxed.sys", ".relaxed.mmio.sys",
                                         ".mmio.relaxed.gpu", ".mmio.relaxed.cta",
                                         ".mmio.acquire.sys", ".mmio.sys", ".mmio.relaxed"};
    static const char *const rest[] = {".global", "", ".shared", ".local", ".global.cg",
                                       ".global.L1::evict_last", ".global.L2::cache_hint",
                                       ".global.L2::64B", ".global.nc"};
    char mods[160];
    for (int st = 0; st < 2; st++)
        for (unsigned o = 0; o < sizeof orders / sizeof orders[0]; o++)
            for (unsigned r = 0; r < sizeof rest / sizeof rest[0]; r++) {
                snprintf(mods, sizeof mods, "%s%s", orders[o], rest[r]);
                emit_access(g, o == 0 && r == 0 ? S_FULL : S_SM90, st, mods,
                            &shapes[SHAPE_U32], 1);
                if (o == 0 && r == 0)
                    emit_access(g, S_SM90, st, mods, &shapes[SHAPE_U32], 2);
            }
}

/* 256-bit accesses (.v8 of 32-bit, .v4 of 64-bit elements) on each space and with .L2::evict_*,
 * across the sm_100 / PTX 8.8 boundary. */
static void group_wide_accesses(gen *g)
{
    static const unsigned wide[] = {7, 8, 9, 10, 11, 12, 13, 14};
    const uint32_t set = S_SM90 | S_SM100 | PAIR_BIT(16) | PAIR_BIT(17) | PAIR_BIT(18);
    char mods[160];
    for (int st = 0; st < 2; st++)
        for (unsigned w = 0; w < sizeof wide / sizeof wide[0]; w++) {
            unsigned vec = wide[w] >= SHAPE_B64 ? 4 : 8; /* 64-bit shapes come last */
            for (unsigned sp = 0; sp < NSPACES; sp++)
                emit_access(g, sp < 2 ? set : S_SM100, st, spaces[sp], &shapes[wide[w]], vec);
            for (unsigned b = 1; b < 4; b++) {
                snprintf(mods, sizeof mods, ".global%s", l2_evicts[b]);
                emit_access(g, set, st, mods, &shapes[wide[w]], vec);
                emit_access(g, S_SM100, st, mods, &shapes[wide[w]], vec / 2);
            }
        }
}

/* Eviction priorities and hints combined with a cache operator or .nc. */
static void group_evictions_with_cop(gen *g)
{
    static const char *const cops[] = {".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".nc"};
    char mods[160];
    for (int st = 0; st < 2; st++)
        for (unsigned c = 0; c < sizeof cops / sizeof cops[0]; c++) {
            if (st && c == 7)
                continue;
            for (unsigned a = 1; a < 6; a++) {
                snprintf(mods, sizeof mods, ".global%s%s", cops[c], l1_evicts[a]);
                emit_access(g, S_SM80, st, mods, &shapes[SHAPE_U32], 1);
            }
            for (unsigned b = 1; b < 4; b++) {
                snprintf(mods, sizeof mods, ".global%s%s", cops[c], l2_evicts[b]);
                emit_access(g, S_SM100, st, mods, &shapes[SHAPE_B64], 4);
            }
            snprintf(mods, sizeof mods, ".global%s.L2::cache_hint", cops[c]);
            emit_access(g, S_SM80, st, mods, &shapes[SHAPE_U32], 1);
        }
}

/* Every eviction priority, hint and prefetch size on each state space (only .global and generic
 * addresses may carry them). */
static void group_evictions_by_space(gen *g)
{
    static const char *const extra[] = {".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B"};
    char mods[160];
    for (int st = 0; st < 2; st++)
        for (unsigned sp = 0; sp < NSPACES; sp++) {
            for (unsigned a = 1; a < 6; a++) {
                snprintf(mods, sizeof mods, "%s%s", spaces[sp], l1_evicts[a]);
                emit_access(g, S_SM100, st, mods, &shapes[SHAPE_U32], 1);
            }
            for (unsigned b = 1; b < 4; b++) {
                snprintf(mods, sizeof mods, "%s%s", spaces[sp], l2_evicts[b]);
                emit_access(g, S_SM100, st, mods, &shapes[SHAPE_B64], 4);
            }
            for (unsigned e = 0; e < sizeof extra / sizeof extra[0]; e++) {
                snprintf(mods, sizeof mods, "%s%s", spaces[sp], extra[e]);
                emit_access(g, S_SM100, st, mods, &shapes[SHAPE_U32], 1);
            }
        }
}

/* .L2::64B/128B/256B prefetch sizes on their own and with other modifiers, across targets. */
static void group_prefetch_sizes(gen *g)
{
    static const char *const sizes[] = {".L2::64B", ".L2::128B", ".L2::256B"};
    static const char *const with[] = {".global", "", ".global.nc", ".global.cg",
                                       ".global.L1::evict_last", ".global.L2::cache_hint"};
    const uint32_t set = S_TARGETS | PAIR_BIT(10) | PAIR_BIT(11) | PAIR_BIT(12) | PAIR_BIT(13);
    char mods[160];
    for (unsigned s = 0; s < 3; s++)
        for (unsigned w = 0; w < sizeof with / sizeof with[0]; w++) {
            snprintf(mods, sizeof mods, "%s%s", with[w], sizes[s]);
            emit_access(g, set, 0, mods, &shapes[SHAPE_U32], 1);
            if (w == 0) {
                emit_access(g, set, 0, mods, &shapes[SHAPE_U32], 4);
                emit_access(g, S_SM80 | S_SM100, 1, mods, &shapes[SHAPE_U32], 1);
            }
        }
    emit(g, S_SM80, "ld.global.L2::64B.L2::128B.u32 %%r2, [%%rd1];");
}

static const char *const primaries[] = {".L2::evict_last", ".L2::evict_normal", ".L2::evict_first",
                                        ".L2::evict_unchanged"};
static const char *const secondaries[] = {"", ".L2::evict_first", ".L2::evict_unchanged",
                                          ".L2::evict_last", ".L2::evict_normal"};

/* createpolicy.fractional: every primary/secondary pair with every fraction operand form. */
static void group_createpolicy_fractional(gen *g)
{
    static const char *const fractions[] = {"", ", 1.0", ", 0.5", ", 0.0", ", 1.5", ", -0.5",
                                            ", 0f3F000000", ", %f2", ", 1", ", 0.0625", ", %r2"};
    for (unsigned p = 0; p < 4; p++)
        for (unsigned s = 0; s < 5; s++)
            for (unsigned f = 0; f < sizeof fractions / sizeof fractions[0]; f++)
                emit(g, S_SM80, "createpolicy.fractional%s%s.b64 %%rd2%s;", primaries[p],
                     secondaries[s], fractions[f]);
    emit(g, S_FULL | S_BAD_HEADER, "createpolicy.fractional.L2::evict_last.b64 %%rd2, 1.0;");
    emit(g, S_FULL, "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %%rd2, 0.25;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last.b32 %%r2, 1.0;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last.b64 %%r2, 1.0;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last.b64 %%rd2, 0.5, 0.5;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last.L2::evict_first.L2::evict_first.b64 %%rd2, 0.5;");
    emit(g, S_SM80, "createpolicy.fractional.b64 %%rd2, 0.5;");
    emit(g, S_SM80, "createpolicy.fractional.global.L2::evict_last.b64 %%rd2, 0.5;");
    emit(g, S_SM80, "createpolicy.fractional.L1::evict_last.b64 %%rd2, 0.5;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last %%rd2, 0.5;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last.b64 %%rd2, 0.5f;");
    emit(g, S_SM80, "createpolicy.fractional.L2::evict_last.b64 %%rd2, 0d3FE0000000000000;");
}

/* createpolicy.range: primary/secondary pairs, the optional .global, and operand forms. */
static void group_createpolicy_range(gen *g)
{
    static const char *const operands[] = {
        "[%rd1], 0x100000, 0x200000", "[%rd1], %r2, %r3", "[%rd1], 0x200000, 0x100000",
        "[%rd1], 0x100000", "%rd1, 0x100000, 0x200000", "[%rd1], 0, 0x1000",
        "[%rd1], 0x100000, 0x100000", "[%rd1+64], 4096, 8192", "[%rd1], 0xFFFFFFFF, 0xFFFFFFFF",
        "[%rd1], 0x100000000, 0x100000000", "[%rd1], %rd2, %rd3", "[%rd1], 0x100000, %r3",
        "[%rd1], 0x100000001, 0x200000000", "[%rd1], -1, 2", "[%rd1], 4096, 8192, 1",
    };
    static const char *const spaces_cp[] = {"", ".global", ".shared", ".local"};
    for (unsigned p = 0; p < 4; p++)
        for (unsigned s = 0; s < 5; s++)
            for (unsigned sp = 0; sp < 2; sp++)
                emit(g, S_SM80, "createpolicy.range%s%s%s.b64 %%rd2, [%%rd1], 0x100000, 0x200000;",
                     spaces_cp[sp], primaries[p], secondaries[s]);
    for (unsigned o = 0; o < sizeof operands / sizeof operands[0]; o++)
        for (unsigned sp = 0; sp < 4; sp++)
            emit(g, S_SM80 | S_SM100, "createpolicy.range%s.L2::evict_last.L2::evict_first.b64 %%rd2, %s;",
                 spaces_cp[sp], operands[o]);
    emit(g, S_FULL | S_BAD_HEADER,
         "createpolicy.range.global.L2::evict_last.b64 %%rd2, [%%rd1], 0x100000, 0x200000;");
    emit(g, S_SM80, "createpolicy.range.L2::evict_last.b32 %%r2, [%%rd1], 4096, 8192;");
    emit(g, S_SM80, "createpolicy.range.global.b64 %%rd2, [%%rd1], 4096, 8192;");
}

/* createpolicy.cvt.L2 and its malformed neighbours. */
static void group_createpolicy_cvt(gen *g)
{
    static const char *const forms[] = {
        "createpolicy.cvt.L2.b64 %rd2, %rd3;",
        "createpolicy.cvt.L2.b64 %rd2, 0x14F0000000000000;",
        "createpolicy.cvt.L2.b64 %rd2, %r3;",
        "createpolicy.cvt.L2.b32 %r2, %r3;",
        "createpolicy.cvt.b64 %rd2, %rd3;",
        "createpolicy.cvt.L1.b64 %rd2, %rd3;",
        "createpolicy.cvt.global.L2.b64 %rd2, %rd3;",
        "createpolicy.cvt.L2.L2::evict_last.b64 %rd2, %rd3;",
        "createpolicy.cvt.L2::evict_last.b64 %rd2, %rd3;",
        "createpolicy.cvt.L2.b64 %rd2;",
        "createpolicy.cvt.L2.b64 %rd2, %rd3, %rd4;",
        "createpolicy.cvt.L2.b64 %rd2, [%rd3];",
        "createpolicy.L2::evict_last.b64 %rd2, 1.0;",
        "createpolicy.fractional.range.L2::evict_last.b64 %rd2, 1.0;",
    };
    for (unsigned i = 0; i < sizeof forms / sizeof forms[0]; i++)
        emit(g, i < 2 ? S_FULL : S_SM80 | S_SM90, "%s", forms[i]);
}

/* prefetch and prefetchu in every documented and a few undocumented forms (§9.7.9.15). */
static void group_prefetch(gen *g)
{
    static const char *const forms[] = {
        "prefetch.L1", "prefetch.L2", "prefetch.global.L1", "prefetch.global.L2",
        "prefetch.local.L1", "prefetch.local.L2", "prefetch.shared.L1", "prefetch.shared.L2",
        "prefetch.const.L1", "prefetch.param.L2",
        "prefetch.global.L2::evict_last", "prefetch.global.L2::evict_normal",
        "prefetch.global.L2::evict_first", "prefetch.global.L2::evict_unchanged",
        "prefetch.L2::evict_last", "prefetch.local.L2::evict_last", "prefetch.global.L1::evict_last",
        "prefetchu.L1", "prefetchu.L2", "prefetchu.global.L1",
        "prefetch.const.tensormap", "prefetch.param.tensormap", "prefetch.tensormap",
        "prefetch.global.tensormap", "prefetch.global.L1.L2", "prefetch.global",
        "prefetch.global.L2.L2::evict_last", "prefetch.global.L2::cache_hint",
        "prefetch.global.L2.u32", "prefetch.global.L2::256B",
    };
    for (unsigned i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const char *addr = strstr(forms[i], ".param") ? "[k_p]" : "[%rd1]";
        emit(g, i < 24 ? S_FULL : S_SM80 | S_SM90, "%s %s;", forms[i], addr);
    }
    emit(g, S_SM80, "prefetch.global.L2 %%rd1;");
    emit(g, S_SM80, "prefetch.global.L2 [%%rd1], 128;");
    emit(g, S_SM90, "prefetch.global.L2 [k_p];");
}

/* applypriority and discard with their documented form and wrong priorities, sizes, spaces. */
static void group_applypriority_discard(gen *g)
{
    static const char *const sp[] = {"", ".global", ".shared", ".local", ".const"};
    static const char *const sizes[] = {"128", "64", "256", "0", "%r2", "0x80", "128U"};
    for (unsigned s = 0; s < 5; s++) {
        for (unsigned p = 0; p < 4; p++)
            emit(g, p == 1 && s < 2 ? S_FULL : S_SM80, "applypriority%s%s [%%rd1], 128;", sp[s],
                 primaries[p]);
        emit(g, s < 2 ? S_FULL : S_SM80, "discard%s.L2 [%%rd1], 128;", sp[s]);
    }
    for (unsigned z = 1; z < sizeof sizes / sizeof sizes[0]; z++) {
        emit(g, S_SM80 | S_SM100, "applypriority.global.L2::evict_normal [%%rd1], %s;", sizes[z]);
        emit(g, S_SM80 | S_SM100, "discard.global.L2 [%%rd1], %s;", sizes[z]);
    }
    emit(g, S_SM80, "applypriority.global.L1::evict_normal [%%rd1], 128;");
    emit(g, S_SM80, "applypriority.global [%%rd1], 128;");
    emit(g, S_SM80, "applypriority.global.L2::evict_normal [%%rd1];");
    emit(g, S_SM80, "applypriority.global.L2::evict_normal [%%rd1+128], 128;");
    emit(g, S_SM80, "applypriority.global.L2::evict_normal.b64 [%%rd1], 128;");
    emit(g, S_SM80, "discard.global.L1 [%%rd1], 128;");
    emit(g, S_SM80, "discard.global [%%rd1], 128;");
    emit(g, S_SM80, "discard.global.L2 [%%rd1];");
    emit(g, S_SM80, "discard.global.L2 %%rd1, 128;");
    emit(g, S_SM80, "discard.global.L2.L2::evict_normal [%%rd1], 128;");
    emit(g, S_BAD_HEADER, "discard.global.L2 [%%rd1], 128;");
}

/* A .target line alone, ptxas' and gpumemsim's header checks: every pair with a plain load. */
static void group_headers(gen *g)
{
    emit(g, S_FULL | S_BAD_HEADER, "ld.global.u32 %%r2, [%%rd1];");
}

static void groups(gen *g)
{
    group_headers(g);
    group_cache_operators(g);
    group_types_and_vectors(g);
    group_ordering(g);
    group_evictions(g);
    group_evictions_with_cop(g);
    group_ordering_by_space(g);
    group_mmio(g);
    group_wide_accesses(g);
    group_evictions_by_space(g);
    group_prefetch_sizes(g);
    group_createpolicy_fractional(g);
    group_createpolicy_range(g);
    group_createpolicy_cvt(g);
    group_prefetch(g);
    group_applypriority_discard(g);
}

int main(int argc, char **argv)
{
    return gen_main(argc, argv, NULL, "gen_cache_cases", groups);
}

/* Unit tests for the LSC instructions of the vISA front-end (src/visa/visa_lsc.h): the table of
 * visa_ops.def's LSC block, the mnemonic and shape readers, and each verifier rule of
 * ../reference/visa-lsc.md sections 4-6 with its exact rule id, position and message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "visa/visa_lsc.h"
#include "visa/visa_lsc_internal.h"

/* The diagnostics of one call, one line each: "RULE line:col [warning] message". */
typedef struct diags {
    char text[4096];
    int count;
} diags;

static void collect(void *user, const char *rule, visa_lsc_pos at, int warning,
                    const char *message)
{
    diags *l = user;
    size_t n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, "%s %u:%u %s%s\n", rule, at.line, at.col,
             warning ? "warning: " : "", message);
    l->count++;
}

/* Parses `mnemonic` at 1:5 into *in; returns the error count. */
static int mnemonic(const char *text, visa_lsc_msg *in, diags *l)
{
    memset(in, 0, sizeof *in);
    memset(l, 0, sizeof *l);
    return visa_lsc_parse_mnemonic(text, strlen(text), (visa_lsc_pos){1, 5}, in, collect, l);
}

/* A checked instruction: the mnemonic, then ExecSize `exec` (0: none written), the data shape
 * `shape` (NULL: none), the address size; returns the errors of parse and check on `p`. */
static int check(const char *text, unsigned exec, const char *shape, unsigned addr_size,
                 visa_platform p, diags *l)
{
    visa_lsc_msg in;
    int errors = mnemonic(text, &in, l);
    if (errors)
        return errors;
    in.has_exec = exec != 0;
    in.exec_size = (uint8_t)exec;
    in.at_exec = (visa_lsc_pos){1, 30};
    in.addr_size = (uint8_t)addr_size;
    in.at_addr = (visa_lsc_pos){1, 50};
    in.src1_null = in.src2_null = 1;
    in.at_src[0] = (visa_lsc_pos){1, 60};
    if (in.op->kind == VISA_LSC_ATOMIC && in.op->arity != VISA_LSC_UNARY)
        in.src1_null = 0;
    if (in.op->kind == VISA_LSC_ATOMIC && in.op->arity == VISA_LSC_TERNARY)
        in.src2_null = 0;
    if (shape && visa_lsc_parse_shape(shape, strlen(shape), (visa_lsc_pos){1, 40}, &in,
                                      collect, l))
        return 1;
    return visa_lsc_check(&in, p, collect, l);
}

static void test_table_is_consistent(void **state)
{
    (void)state;
    size_t n, m;
    const visa_lsc_op *ops = visa_lsc_ops(&n);
    assert_true(n >= 30);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(visa_lsc_find_op(ops[i].mnemonic, strlen(ops[i].mnemonic)), &ops[i]);
        assert_true(strncmp(ops[i].mnemonic, "lsc_", 4) == 0);
        assert_int_equal(ops[i].support == VISA_LSC_REJECT, ops[i].why[0] != '\0');
    }
    /* every word once per group */
    const visa_lsc_word *w = visa_lsc_words(&m);
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j < m; j++)
            assert_false(w[i].group == w[j].group && strcmp(w[i].text, w[j].text) == 0);
    /* pairs: each once; the atomic ones exactly .df.df .uc.uc .uc.wb */
    const visa_lsc_pair *pairs = visa_lsc_pairs(&m);
    unsigned atomics = 0;
    for (size_t i = 0; i < m; i++) {
        assert_ptr_equal(visa_lsc_find_pair(pairs[i].l1, pairs[i].l3), &pairs[i]);
        atomics += (pairs[i].kinds & VISA_LSC_PAIR_ATOMIC) != 0;
    }
    assert_int_equal(atomics, 3);
    assert_null(visa_lsc_find_pair(VISA_LSC_CACHE_CA, VISA_LSC_CACHE_WB));
    const visa_lsc_rule *rules = visa_lsc_rules(&m);
    for (size_t i = 0; i < m; i++) {
        assert_true(strncmp(rules[i].id, "VISA-LSC-", 9) == 0 && strlen(rules[i].id) == 12);
        for (size_t j = i + 1; j < m; j++)
            assert_string_not_equal(rules[i].id, rules[j].id);
    }
}

static void test_names_print_the_u32_spellings(void **state)
{
    (void)state;
    assert_string_equal(visa_lsc_data_size_name(VISA_LSC_D8U32), "d8u32");
    assert_string_equal(visa_lsc_data_size_name(VISA_LSC_D16U32H), "d16u32h");
    assert_string_equal(visa_lsc_scope_name(VISA_LSC_SCOPE_SYSREL), "sysrel");
    assert_string_equal(visa_lsc_fence_op_name(VISA_LSC_FENCE_FLUSHL3), "flushl3");
    assert_string_equal(visa_lsc_cache_name(VISA_LSC_CACHE_RI), "ri");
    assert_string_equal(visa_lsc_addr_size_name(VISA_LSC_A32S), "a32s");
    assert_string_equal(visa_lsc_model_name(VISA_LSC_MODEL_BTI), "bti");
    assert_string_equal(visa_lsc_sfid_name(9), "?");
    assert_int_equal(visa_lsc_addr_size_from("a32u", 4), VISA_LSC_A32U);
    assert_int_equal(visa_lsc_addr_size_from("A64", 3), 0);
    assert_int_equal(visa_lsc_model_from("bss", 3), VISA_LSC_MODEL_BSS);
    assert_int_equal(visa_platform_grf_bytes(VISA_PLATFORM_PVC), 64);
    assert_int_equal(visa_platform_grf_bytes(VISA_PLATFORM_DG2), 32);
}

static void test_mnemonics(void **state)
{
    (void)state;
    visa_lsc_msg in;
    diags l;
    assert_int_equal(mnemonic("lsc_load.ugm.ca.uc", &in, &l), 0);
    assert_string_equal(in.op->mnemonic, "lsc_load");
    assert_int_equal(in.sfid, VISA_LSC_SFID_UGM);
    assert_int_equal(in.ncache, 2);
    assert_int_equal(in.cache[0], VISA_LSC_CACHE_CA);
    assert_int_equal(in.cache[1], VISA_LSC_CACHE_UC);
    assert_int_equal(in.at_cache.col, 5 + 12);
    assert_int_equal(mnemonic("lsc_atomic_icas.slm", &in, &l), 0);
    assert_int_equal(in.op->kind, VISA_LSC_ATOMIC);
    assert_int_equal(in.op->arity, VISA_LSC_TERNARY);
    assert_int_equal(in.op->atom, IR_ATOM_CAS);
    assert_int_equal(in.ncache, 0);
    assert_int_equal(mnemonic("lsc_fence.ugml.discard.tile", &in, &l), 0);
    assert_int_equal(in.sfid, VISA_LSC_SFID_UGML);
    assert_int_equal(in.fence_op, VISA_LSC_FENCE_DISCARD);
    assert_int_equal(in.scope, VISA_LSC_SCOPE_TILE);
    assert_string_equal(l.text, "");
}

static void test_mnemonic_errors(void **state)
{
    (void)state;
    visa_lsc_msg in;
    diags l;
    static const struct {
        const char *text, *diag;
    } cases[] = {
        {"lsc_loads.ugm", "VISA-LSC-001 1:5 unknown LSC instruction 'lsc_loads'\n"},
        {"lsc_atomic_inc.ugm", "VISA-LSC-001 1:5 unknown LSC instruction 'lsc_atomic_inc'\n"},
        {"lsc_load_block2d.ugm",
         "VISA-LSC-002 1:5 lsc_load_block2d: gpumemsim does not model 2D block loads\n"},
        {"lsc_atomic_bfadd.ugm", "VISA-LSC-002 1:5 lsc_atomic_bfadd: gpumemsim does not model "
                                 "bfloat16 atomics (Xe2 and later)\n"},
        {"lsc_load.tgm", "VISA-LSC-002 1:13 lsc_load.tgm: gpumemsim does not model typed "
                         "(surface) LSC messages; .tgm is accepted on lsc_fence only\n"},
        {"lsc_load", "VISA-LSC-003 1:5 lsc_load needs an SFID (.ugm, .ugml or .slm)\n"},
        {"lsc_load.UGM", "VISA-LSC-003 1:13 unknown SFID '.UGM'; expected .ugm, .ugml or .slm\n"},
        {"lsc_load.ugm.uc", "VISA-LSC-004 1:17 one cache control given; write none or both "
                            "levels (.L1.L3)\n"},
        {"lsc_load.ugm.uc.uc.uc", "VISA-LSC-004 1:23 three cache controls given; .L1.L2.L3 is "
                                  "Xe3P only, write none or .L1.L3\n"},
        {"lsc_load.ugm.UC.UC", "VISA-LSC-004 1:17 unknown cache control '.UC'; expected one of "
                               ".df .uc .ca .wb .wt .st .ri .cc\n"},
        {"lsc_fence.ugm.flush.group",
         "VISA-LSC-007 1:18 unknown fence operation '.flush'; expected a fence operation "
         "(none, evict, invalidate, discard, clean, flushl3)\n"},
        {"lsc_fence.ugm.clean", "VISA-LSC-008 1:18 lsc_fence needs a scope (group, local, tile, "
                                "gpu, gpus, sysrel, sysacq) after 'clean'\n"},
        {"lsc_fence.urb.none.gpu", "VISA-LSC-003 1:14 unknown SFID '.urb'; expected a SFID "
                                   "(ugm, ugml, tgm, slm)\n"},
        {"lsc_fence.ugm.none.gpu.gpu", "VISA-LSC-008 1:27 unexpected '.gpu' after the fence "
                                       "scope\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(mnemonic(cases[i].text, &in, &l), 1);
        assert_string_equal(l.text, cases[i].diag);
    }
}

static void test_system_is_a_warned_sysrel(void **state)
{
    (void)state;
    visa_lsc_msg in;
    diags l;
    assert_int_equal(mnemonic("lsc_fence.ugm.clean.system", &in, &l), 0);
    assert_int_equal(in.scope, VISA_LSC_SCOPE_SYSREL);
    assert_int_equal(in.scope_system, 1);
    assert_string_equal(l.text, "VISA-LSC-009 1:24 warning: fence scope '.system' read as "
                                "'.sysrel' (Intel's assembler rejects '.system'; write .sysrel "
                                "or .sysacq)\n");
}

static void test_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        unsigned ds, vec, t;
    } good[] = {
        {"d32", VISA_LSC_D32, 1, 0},        {"d32x4", VISA_LSC_D32, 4, 0},
        {"d64x64t", VISA_LSC_D64, 64, 1},   {"d8t", VISA_LSC_D8, 1, 1},
        {"d8u32", VISA_LSC_D8U32, 1, 0},    {"d8c32", VISA_LSC_D8U32, 1, 0},
        {"d16c32h", VISA_LSC_D16U32H, 1, 0}, {"u16", VISA_LSC_D16, 1, 0},
        {"u32x3", VISA_LSC_D32, 3, 0},
    };
    visa_lsc_msg in;
    diags l = {0};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        memset(&in, 0, sizeof in);
        assert_int_equal(visa_lsc_parse_shape(good[i].text, strlen(good[i].text),
                                              (visa_lsc_pos){2, 9}, &in, collect, &l), 0);
        assert_int_equal(in.data_size, good[i].ds);
        assert_int_equal(in.vec, good[i].vec);
        assert_int_equal(in.transposed, good[i].t);
    }
    assert_string_equal(l.text, "");
    static const char *const bad[] = {"d32x5", "d32x4tt", "D32", "d33", "x4", "d32x", "",
                                       "d32t4", "d128"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&l, 0, sizeof l);
        assert_int_equal(visa_lsc_parse_shape(bad[i], strlen(bad[i]), (visa_lsc_pos){2, 9}, &in,
                                              collect, &l), 1);
        assert_true(strncmp(l.text, "VISA-LSC-010 2:9 ", 17) == 0);
    }
    memset(&l, 0, sizeof l);
    visa_lsc_parse_shape("d32x5", 5, (visa_lsc_pos){2, 9}, &in, collect, &l);
    assert_string_equal(l.text, "VISA-LSC-010 2:9 bad vector size in data shape 'd32x5'; "
                                "expected x1, x2, x3, x4, x8, x16, x32 or x64\n");
}

/* Reference section 4: every pair of the matrix on loads, stores and atomics. */
static void test_cache_pairs(void **state)
{
    (void)state;
    static const char *const cc[] = {"df", "uc", "ca", "wb", "wt", "st", "ri", "cc"};
    static const char *const legal_load[] = {"df.df", "uc.uc", "uc.ca", "ca.uc", "ca.ca",
                                             "st.uc", "st.ca", "ri.ca"};
    static const char *const legal_store[] = {"df.df", "uc.uc", "uc.wb", "wt.uc", "wt.wb",
                                              "st.uc", "st.wb", "wb.wb"};
    static const char *const legal_atomic[] = {"df.df", "uc.uc", "uc.wb"};
    diags l;
    unsigned accepted[3] = {0, 0, 0};
    for (unsigned a = 0; a < 8; a++)
        for (unsigned b = 0; b < 8; b++) {
            char text[64], pair[8];
            snprintf(pair, sizeof pair, "%s.%s", cc[a], cc[b]);
            static const char *const what[] = {"lsc_load", "lsc_store", "lsc_atomic_iadd"};
            static const char *const *const legal[] = {legal_load, legal_store, legal_atomic};
            static const size_t nlegal[] = {8, 8, 3};
            for (unsigned k = 0; k < 3; k++) {
                snprintf(text, sizeof text, "%s.ugm.%s", what[k], pair);
                int ok = check(text, 16, "d32", VISA_LSC_A64, VISA_PLATFORM_PVC, &l) == 0;
                int want = 0;
                for (size_t i = 0; i < nlegal[k]; i++)
                    want |= strcmp(legal[k][i], pair) == 0;
                assert_int_equal(ok, want);
                accepted[k] += (unsigned)ok;
            }
        }
    assert_int_equal(accepted[0], 8);
    assert_int_equal(accepted[1], 8);
    assert_int_equal(accepted[2], 3);
    check("lsc_atomic_iinc.ugm.ca.ca", 16, "d32", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-022 1:24 invalid cache controls .ca.ca for an atomic "
                                "(allowed: .df.df, .uc.uc, .uc.wb)\n");
    check("lsc_load.ugm.ri.ri", 16, "d32", VISA_LSC_A64, VISA_PLATFORM_DG2, &l);
    assert_string_equal(l.text, "VISA-LSC-023 1:17 cache controls .ri.ri need Xe2 or later "
                                "(the target is DG2)\n");
    assert_int_equal(check("lsc_load.ugml.ca.ca", 16, "d32", VISA_LSC_A64, VISA_PLATFORM_PVC,
                           &l), 1);
    assert_string_equal(l.text, "VISA-LSC-024 1:18 messages to ugml must use default cache "
                                "controls (.df.df or none)\n");
    assert_int_equal(check("lsc_load.ugml.df.df", 16, "d32", VISA_LSC_A64, VISA_PLATFORM_PVC,
                           &l), 0);
    /* the .df-only rule of SLM is documented but not enforced */
    assert_int_equal(check("lsc_load.slm.ca.ca", 16, "d32", VISA_LSC_A32, VISA_PLATFORM_PVC,
                           &l), 0);
}

static void test_fences(void **state)
{
    (void)state;
    diags l;
    assert_int_equal(check("lsc_fence.ugm.evict.gpu", 0, NULL, 0, VISA_PLATFORM_PVC, &l), 0);
    assert_int_equal(check("lsc_fence.slm.none.group", 0, NULL, 0, VISA_PLATFORM_DG2, &l), 0);
    assert_int_equal(check("lsc_fence.slm.evict.gpu", 0, NULL, 0, VISA_PLATFORM_PVC, &l), 2);
    assert_string_equal(l.text,
                        "VISA-LSC-035 1:5 lsc_fence.slm must use operation .none (not .evict)\n"
                        "VISA-LSC-036 1:24 lsc_fence.slm must use scope .group (not .gpu)\n");
    assert_int_equal(check("lsc_fence.ugm.none.gpu", 1, NULL, 0, VISA_PLATFORM_PVC, &l), 1);
    assert_string_equal(l.text, "VISA-LSC-006 1:30 lsc_fence takes no ExecSize\n");
    /* every op and scope is legal on ugm, ugml and tgm */
    static const char *const sfids[] = {"ugm", "ugml", "tgm"};
    static const char *const fops[] = {"none", "evict", "invalidate", "discard", "clean",
                                       "flushl3"};
    static const char *const scopes[] = {"group", "local", "tile", "gpu", "gpus", "sysrel",
                                         "sysacq"};
    for (size_t s = 0; s < 3; s++)
        for (size_t o = 0; o < 6; o++)
            for (size_t c = 0; c < 7; c++) {
                char text[64];
                snprintf(text, sizeof text, "lsc_fence.%s.%s.%s", sfids[s], fops[o], scopes[c]);
                assert_int_equal(check(text, 0, NULL, 0, VISA_PLATFORM_PVC, &l), 0);
            }
}

static void test_missing_exec_size(void **state)
{
    (void)state;
    diags l;
    assert_int_equal(check("lsc_load.ugm", 0, "d32", VISA_LSC_A64, VISA_PLATFORM_PVC, &l), 1);
    assert_string_equal(l.text, "VISA-LSC-005 1:5 lsc_load needs an ExecSize such as (M1, 16)\n");
}

/* Reference section 5: vectors, transposition and the 8-register payload on both GRF sizes. */
static void test_shapes_and_payload(void **state)
{
    (void)state;
    diags l;
    static const struct {
        const char *shape;
        unsigned exec;
        int pvc, dg2; /* errors */
        const char *sfid;
    } cases[] = {
        {"d32x3", 16, 0, 0, "ugm"},   {"d32x8", 16, 0, 1, "ugm"},  {"d32x8", 32, 1, 1, "ugm"},
        {"d64x4", 16, 0, 1, "ugm"},   {"d64x2", 32, 0, 1, "ugm"},  {"d8", 32, 0, 0, "ugm"},
        {"d64x64t", 1, 0, 1, "ugm"},  {"d32x64t", 1, 0, 0, "ugm"}, {"d8x64t", 1, 0, 0, "ugm"},
        {"d32x16t", 16, 1, 1, "ugm"}, {"d8x2", 16, 1, 1, "ugm"},   {"d32x3", 16, 1, 1, "ugml"},
        {"d32x4", 16, 0, 0, "ugml"},  {"d32x16t", 1, 0, 0, "ugml"}, {"d8u32x2", 16, 1, 1, "ugm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[32];
        snprintf(text, sizeof text, "lsc_load.%s", cases[i].sfid);
        assert_int_equal(check(text, cases[i].exec, cases[i].shape, VISA_LSC_A64,
                               VISA_PLATFORM_PVC, &l), cases[i].pvc);
        assert_int_equal(check(text, cases[i].exec, cases[i].shape, VISA_LSC_A64,
                               VISA_PLATFORM_DG2, &l), cases[i].dg2);
    }
    check("lsc_load.ugm", 16, "d32x8", VISA_LSC_A64, VISA_PLATFORM_DG2, &l);
    assert_string_equal(l.text, "VISA-LSC-028 1:40 this message's data takes 16 registers of 32 "
                                "bytes; at most 8 are allowed\n");
    check("lsc_load.ugm", 16, "d32x16t", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-029 1:40 a transposed access needs ExecSize 1 (it has "
                                "16)\n");
    check("lsc_load.ugm", 16, "d16x2", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-026 1:40 only d32 and d64 may be vectors (d16 x2)\n");
    check("lsc_store.ugml", 16, "d32x8", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-027 1:40 ugml supports vector sizes 1, 2 and 4, not "
                                "x8\n");
    check("lsc_load.ugm", 16, "d32", VISA_LSC_A16, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-025 1:50 :a16 addresses are allowed only on .slm\n");
    assert_int_equal(check("lsc_load.slm", 16, "d32", VISA_LSC_A16, VISA_PLATFORM_PVC, &l), 0);
}

static void test_variable_sizes(void **state)
{
    (void)state;
    visa_lsc_msg in;
    diags l;
    mnemonic("lsc_load.ugm", &in, &l);
    visa_lsc_parse_shape("d32x2", 5, (visa_lsc_pos){1, 40}, &in, collect, &l);
    in.has_exec = 1;
    in.exec_size = 16;
    in.addr_size = VISA_LSC_A64;
    in.at_addr = (visa_lsc_pos){1, 50};
    in.data_var_bytes = 64;
    in.addr_var_bytes = 64;
    assert_int_equal(visa_lsc_check(&in, VISA_PLATFORM_PVC, collect, &l), 2);
    assert_string_equal(l.text, "VISA-LSC-038 1:40 the data variable holds 64 bytes; the message "
                                "moves 128\n"
                                "VISA-LSC-037 1:50 the address variable holds 64 bytes; 16 lanes "
                                "of :a64 need 128\n");
}

static void test_atomics(void **state)
{
    (void)state;
    diags l;
    assert_int_equal(check("lsc_atomic_iadd.ugm", 16, "d32", VISA_LSC_A64, VISA_PLATFORM_PVC,
                           &l), 0);
    assert_int_equal(check("lsc_atomic_iadd.ugm", 16, "d64", VISA_LSC_A64, VISA_PLATFORM_PVC,
                           &l), 0);
    assert_int_equal(check("lsc_atomic_iadd.slm", 16, "d64", VISA_LSC_A32, VISA_PLATFORM_PVC,
                           &l), 1);
    assert_string_equal(l.text, "VISA-LSC-033 1:40 slm d64 atomics support only icas\n");
    assert_int_equal(check("lsc_atomic_icas.slm", 16, "d64", VISA_LSC_A32, VISA_PLATFORM_PVC,
                           &l), 0);
    check("lsc_atomic_iadd.ugm", 16, "d32x2", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-031 1:40 atomics take one element per lane (x2 "
                                "given)\n");
    check("lsc_atomic_iadd.ugm", 1, "d32t", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-030 1:40 atomics cannot be transposed\n");
    check("lsc_atomic_iadd.ugm", 16, "d16", VISA_LSC_A64, VISA_PLATFORM_PVC, &l);
    assert_string_equal(l.text, "VISA-LSC-032 1:40 atomic data size must be d16u32, d32 or d64 "
                                "(d16 given)\n");
    assert_int_equal(check("lsc_atomic_iadd.ugm", 16, "d16u32", VISA_LSC_A64, VISA_PLATFORM_PVC,
                           &l), 0);
    /* sources */
    visa_lsc_msg in;
    mnemonic("lsc_atomic_iinc.ugm", &in, &l);
    visa_lsc_parse_shape("d32", 3, (visa_lsc_pos){1, 40}, &in, collect, &l);
    in.has_exec = 1;
    in.exec_size = 16;
    in.addr_size = VISA_LSC_A64;
    in.at_src[0] = (visa_lsc_pos){1, 60};
    in.src1_null = 0;
    in.src2_null = 1;
    assert_int_equal(visa_lsc_check(&in, VISA_PLATFORM_PVC, collect, &l), 1);
    assert_string_equal(l.text, "VISA-LSC-034 1:60 lsc_atomic_iinc takes %null %null\n");
    mnemonic("lsc_atomic_icas.ugm", &in, &l);
    visa_lsc_parse_shape("d32", 3, (visa_lsc_pos){1, 40}, &in, collect, &l);
    in.has_exec = 1;
    in.exec_size = 16;
    in.addr_size = VISA_LSC_A64;
    in.at_src[0] = (visa_lsc_pos){1, 62};
    in.src1_null = 0;
    in.src2_null = 1;
    assert_int_equal(visa_lsc_check(&in, VISA_PLATFORM_PVC, collect, &l), 1);
    assert_string_equal(l.text, "VISA-LSC-034 1:62 lsc_atomic_icas takes two sources\n");
}

/* The variables of the operand tests: name and bytes. */
static int find_var(void *user, const char *name, size_t len, visa_lsc_var *out)
{
    (void)user;
    static const struct {
        const char *name;
        unsigned bytes;
    } vars[] = {{"VA", 256}, {"VA32", 128}, {"VD", 2048}, {"VS", 256}, {"VS2", 256}};
    for (unsigned i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (strlen(vars[i].name) == len && memcmp(vars[i].name, name, len) == 0) {
            out->bytes = vars[i].bytes;
            out->id = i;
            return 1;
        }
    return 0;
}

/* Parses mnemonic `m` at 1:5 and operands `ops` at 1:30 with ExecSize `exec`; then checks on
 * PVC when both parsed. Returns the errors. */
static int operands(const char *m, unsigned exec, const char *ops, visa_lsc_msg *in, diags *l)
{
    int errors = mnemonic(m, in, l);
    if (errors)
        return errors;
    in->has_exec = 1;
    in->exec_size = (uint8_t)exec;
    visa_lsc_lookup look = {find_var, NULL};
    if (visa_lsc_parse_operands(ops, strlen(ops), (visa_lsc_pos){1, 30}, in, &look, collect, l))
        return 1;
    return visa_lsc_check(in, VISA_PLATFORM_PVC, collect, l);
}

static void test_operands(void **state)
{
    (void)state;
    visa_lsc_msg in;
    diags l;
    assert_int_equal(operands("lsc_load.ugm.ca.ca", 16, "VD:d32x4  flat[VA+0x100-0x8]:a64 // x",
                              &in, &l), 0);
    assert_int_equal(in.data_var.id, 2);
    assert_int_equal(in.data_size, VISA_LSC_D32);
    assert_int_equal(in.vec, 4);
    assert_int_equal(in.addr_var.id, 0);
    assert_int_equal(in.offset, 0xf8);
    assert_int_equal(in.model, VISA_LSC_MODEL_FLAT);
    assert_int_equal(in.addr_size, VISA_LSC_A64);
    assert_int_equal(in.at_addr.col, 30 + 10);
    assert_int_equal(operands("lsc_store.slm", 32, "[VA32-4]:a32 VS:d16c32", &in, &l), 0);
    assert_int_equal(in.data_size, VISA_LSC_D16U32);
    assert_int_equal(in.offset, -4);
    assert_int_equal(operands("lsc_load.ugm", 8, "%null:d32 flat[VA]:a64", &in, &l), 0);
    assert_int_equal(in.data_null, 1);
    assert_int_equal(operands("lsc_atomic_icas.ugm.uc.wb", 16, "VD:d32 flat[VA]:a64 VS VS2", &in,
                              &l), 0);
    assert_int_equal(in.src_var[0].id, 3);
    assert_int_equal(in.src_var[1].id, 4);
    assert_int_equal(operands("lsc_atomic_iinc.ugm", 16, "%null:d32 flat[VA]:a64 %null %null",
                              &in, &l), 0);
    static const struct {
        const char *m, *ops, *diag;
    } bad[] = {
        {"lsc_load.ugm", "VD:d32 flat[VX]:a64",
         "VISA-LSC-012 1:42 lsc_load: 'VX' is not a declared general variable\n"},
        {"lsc_load.ugm", "VD flat[VA]:a64",
         "VISA-LSC-010 1:32 lsc_load: expected ':' and a data shape after the data variable, "
         "found ' '\n"},
        {"lsc_load.ugm", "VD:d32 flat[VA]", "VISA-LSC-011 1:45 lsc_load: expected ':' and an "
                                            "address size after the address, found the end of "
                                            "the instruction\n"},
        {"lsc_load.ugm", "VD:d32 flat[VA]:A64", "VISA-LSC-011 1:46 lsc_load: expected an "
                                                "address size (a16, a32, a32u, a32s, a64), found "
                                                "'A64'\n"},
        {"lsc_load.ugm", "VD:d32 FLAT[VA]:a64", "VISA-LSC-011 1:37 lsc_load: expected an address "
                                                "model (flat, bss, ss, bti, arg) or '[', found "
                                                "'FLAT'\n"},
        {"lsc_load.ugm", "VD:d32 flat[VA+VS]:a64", "VISA-LSC-011 1:45 lsc_load: expected an "
                                                   "immediate offset, found 'VS'\n"},
        {"lsc_load.ugm", "VD:d32 flat[VA]:a64 VS", "VISA-LSC-012 1:50 lsc_load: unexpected 'VS' "
                                                   "after the last operand\n"},
        {"lsc_store.ugm", "flat[VA]:a64 %null:d32", "VISA-LSC-012 1:43 lsc_store: the data to "
                                                    "store cannot be %null\n"},
        {"lsc_atomic_iadd.ugm", "VD:d32 flat[VA]:a64 VS", "VISA-LSC-012 1:52 lsc_atomic_iadd: "
                                                          "expected the second atomic source (a "
                                                          "variable or %null), found the end of "
                                                          "the instruction\n"},
        {"lsc_load.ugm", "VD:d32 bti(0x4)[VA32]:a32",
         "VISA-LSC-039 1:37 gpumemsim does not model bti[...] surface addresses; only flat "
         "(stateless) addresses run (IGC emits them with "
         "-cl-intel-greater-than-4GB-buffer-required)\n"},
        {"lsc_load.ugm", "VD:d32 flat[0x4*VA32-0x10]:a32",
         "VISA-LSC-039 1:37 gpumemsim does not model scaled addresses (4*VAR)\n"},
        {"lsc_load.slm", "VD:d32 flat[VA]:a64",
         "VISA-LSC-041 1:37 slm offsets are :a16 or :a32, not :a64\n"},
        {"lsc_load.ugm", "VD:d8c32x2t flat[VA]:a64",
         "VISA-LSC-040 1:30 the widening data size d8u32 cannot be a vector\n"},
        {"lsc_atomic_fadd.slm", "VD:d32 flat[VA32]:a32 VS %null",
         "VISA-LSC-042 1:5 lsc_atomic_fadd works on ugm and ugml only, not on slm\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(operands(bad[i].m, 16, bad[i].ops, &in, &l), 1);
        assert_string_equal(l.text, bad[i].diag);
    }
    /* a fence takes no operands */
    mnemonic("lsc_fence.ugm.none.gpu", &in, &l);
    visa_lsc_lookup look = {find_var, NULL};
    assert_int_equal(visa_lsc_parse_operands(" VD", 3, (visa_lsc_pos){1, 28}, &in, &look, collect,
                                             &l), 1);
    assert_string_equal(l.text, "VISA-LSC-006 1:29 lsc_fence: unexpected 'VD' after the last "
                                "operand\n");
}

static void test_type6_and_native_width(void **state)
{
    (void)state;
    visa_lsc_msg in;
    diags l;
    assert_int_equal(mnemonic("lsc_fence.ugm.type6.gpu", &in, &l), 1);
    assert_string_equal(l.text, "VISA-LSC-007 1:18 fence operation '.type6' is undocumented (IGA "
                                "calls it invalid on PVC); gpumemsim does not model it\n");
    /* d64x8 takes 16 registers even at SIMD1: the native width's lanes are counted */
    assert_int_equal(check("lsc_load.ugm", 1, "d64x8", VISA_LSC_A64, VISA_PLATFORM_PVC, &l), 1);
    assert_int_equal(check("lsc_load.ugm", 1, "d32x8", VISA_LSC_A64, VISA_PLATFORM_PVC, &l), 0);
    assert_int_equal(check("lsc_load.ugm", 1, "d32x8", VISA_LSC_A64, VISA_PLATFORM_DG2, &l), 0);
    assert_int_equal(check("lsc_load.ugm", 1, "d64x8", VISA_LSC_A64, VISA_PLATFORM_DG2, &l), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_consistent),
        cmocka_unit_test(test_names_print_the_u32_spellings),
        cmocka_unit_test(test_mnemonics),
        cmocka_unit_test(test_mnemonic_errors),
        cmocka_unit_test(test_system_is_a_warned_sysrel),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_cache_pairs),
        cmocka_unit_test(test_fences),
        cmocka_unit_test(test_missing_exec_size),
        cmocka_unit_test(test_shapes_and_payload),
        cmocka_unit_test(test_variable_sizes),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_type6_and_native_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

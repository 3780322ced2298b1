/* Unit tests for the lowering of the vISA LSC instructions (src/visa/visa_lsc.c): each form's IR
 * operation, operands and LSC attributes (ir_mem_attrs sfid, fence_op, scope, l1_ctl, l2_ctl),
 * vectors cut into IR accesses with glue, transposed blocks, prefetches, the atomics' implied
 * operands and negations, and the platform a module's GRF size selects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "ir/ir.h"
#include "visa/visa.h"

/* A module of one function around `body` (instruction lines), with variables of 64-byte GRF
 * alignment (PVC) or 32-byte (DG2). */
static ir_module *parse(const char *body, int pvc, diag_list *dl)
{
    static char text[4096];
    const char *align = pvc ? "wordx32" : "hword";
    snprintf(text, sizeof text,
             ".version 4.1\n.kernel \"k\"\n"
             ".decl VA v_type=G type=uq num_elts=16 align=%s\n"
             ".decl VA32 v_type=G type=ud num_elts=16 align=%s\n"
             ".decl VD v_type=G type=d num_elts=128 align=%s\n"
             ".decl VQ v_type=G type=q num_elts=128 align=%s\n"
             ".decl VS v_type=G type=d num_elts=16 align=%s\n"
             ".decl VS2 v_type=G type=d num_elts=16 align=%s\n"
             ".decl VU v_type=G type=ub num_elts=64 align=%s\n"
             ".decl VB v_type=G type=uq num_elts=1 align=qword\n"
             ".decl P1 v_type=P num_elts=16\n"
             ".kernel_attr Target=\"3d\"\n.kernel_attr SimdSize=16\n"
             ".function \"_main_0\"\n\n_main_0:\n%s    ret (M1, 1)\n",
             align, align, align, align, align, align, align, body);
    diag_list_init(dl);
    return visa_parse_module("t.visaasm", text, strlen(text), dl);
}

/* The non-glue instructions of the module's function, k-th of them, and the glue before it. */
static const ir_insn *nth(const ir_module *m, unsigned k, unsigned *glue_before)
{
    const ir_func *f = &m->funcs[0];
    unsigned seen = 0, glue = 0;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        if (f->insns[i].glue) {
            glue++;
            continue;
        }
        if (seen++ == k) {
            if (glue_before)
                *glue_before = glue;
            return &f->insns[i];
        }
        glue = 0;
    }
    return NULL;
}

static void test_loads_and_stores(void **state)
{
    (void)state;
    diag_list dl;
    ir_module *m = parse("    lsc_load.ugm.ca.uc (M1, 16) VD:d32x4 flat[VA+0x10]:a64\n"
                         "    lsc_store.slm.wb.wb (M1, 16) flat[VA32-4]:a32 VD:d32\n"
                         "    lsc_load.ugm (M1, 16) VQ:d64x3 flat[VA]:a64\n",
                         1, &dl);
    assert_non_null(m);
    unsigned glue = 0;
    const ir_insn *ld = nth(m, 0, &glue);
    assert_int_equal(ld->op, IR_LD);
    assert_int_equal(ld->type, IR_T_U32);
    assert_int_equal(ld->mem.vec, 1);
    assert_int_equal(ld->mem.elem_bytes, 4);
    assert_int_equal(ld->mem.space, IR_SPACE_GLOBAL);
    assert_int_equal(ld->mem.sfid, IR_SFID_UGM);
    assert_int_equal(ld->mem.l1_ctl, IR_CC_CACHED);
    assert_int_equal(ld->mem.l2_ctl, IR_CC_UNCACHED);
    assert_int_equal(ld->dst[0].kind, IR_OPND_REG);
    assert_int_equal(ld->src[0].kind, IR_OPND_ADDR);
    assert_int_equal(ld->src[0].imm, 0x10);
    /* elements 3, 2, 1 before it, as glue of its id, at +12, +8, +4 bytes, into four distinct
     * registers (elements 48, 32, 16 and 0 of VD) */
    for (int k = 1; k <= 3; k++) {
        const ir_insn *g = ld - k;
        assert_true(g->glue);
        assert_int_equal(g->op, IR_LD);
        assert_int_equal(g->id, ld->id);
        assert_int_equal(g->src[0].imm, 0x10 + 4 * k);
        assert_int_equal(g->mem.l1_ctl, IR_CC_CACHED);
        assert_int_not_equal(g->dst[0].reg, ld->dst[0].reg);
    }
    const ir_insn *st = nth(m, 1, NULL);
    assert_int_equal(st->op, IR_ST);
    assert_int_equal(st->mem.space, IR_SPACE_SHARED);
    assert_int_equal(st->mem.sfid, IR_SFID_SLM);
    assert_int_equal(st->mem.l1_ctl, IR_CC_WRITE_BACK);
    assert_int_equal(st->src[0].imm, -4);
    assert_int_equal(st->src[1].reg, ld->dst[0].reg);
    /* d64x3: two glue accesses at +16 and +8 bytes, then element 0 */
    const ir_insn *ld3 = nth(m, 2, &glue);
    assert_int_equal(glue, 2);
    assert_int_equal(ld3->mem.vec, 1);
    assert_int_equal(ld3->mem.elem_bytes, 8);
    assert_int_equal(ld3->type, IR_T_U64);
    assert_int_equal((ld3 - 1)->src[0].imm, 8);
    assert_int_equal((ld3 - 2)->src[0].imm, 16);
    assert_int_equal((ld3 - 1)->id, ld3->id);
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

static void test_transposed_and_prefetch(void **state)
{
    (void)state;
    diag_list dl;
    ir_module *m = parse("    lsc_load.ugm.uc.ca (M1, 16) %null:d32 flat[VA]:a64\n"
                         "    lsc_load.ugm (M1_NM, 1) VU:d8x16t flat[VB]:a64\n",
                         1, &dl);
    assert_non_null(m);
    unsigned glue = 0;
    const ir_insn *ld = nth(m, 1, &glue);
    assert_int_equal(glue, 15); /* elements 1..15, one byte each */
    assert_int_equal(ld->type, IR_T_U8);
    assert_int_equal(ld->mem.vec, 1);
    assert_int_equal(ld->src[0].imm, 0);
    assert_int_equal((ld - 1)->src[0].imm, 1);
    assert_int_equal((ld - 15)->src[0].imm, 15);
    const ir_insn *pf = nth(m, 0, NULL);
    assert_int_equal(pf->op, IR_PREFETCH);
    assert_int_equal(pf->mem.cctl, IR_CCTL_PREFETCH);
    assert_int_equal(pf->mem.cctl_levels, IR_LEVEL_L2); /* .uc L1: the L3 (L2) only */
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

static void test_atomics(void **state)
{
    (void)state;
    diag_list dl;
    ir_module *m = parse("    lsc_atomic_icas.ugm.uc.wb (M1, 16) VD:d32 flat[VA]:a64 VS VS2\n"
                         "    lsc_atomic_iinc.ugm (M1, 16) %null:d32 flat[VA]:a64 %null %null\n"
                         "    lsc_atomic_isub.slm (M1, 16) VD:d32 flat[VA32]:a32 VS %null\n"
                         "    lsc_atomic_smax.ugm (M1, 16) VQ:d64 flat[VA]:a64 VQ %null\n",
                         1, &dl);
    assert_non_null(m);
    const ir_insn *cas = nth(m, 0, NULL);
    assert_int_equal(cas->op, IR_ATOM);
    assert_int_equal(cas->sub, IR_ATOM_CAS);
    assert_int_equal(cas->nsrc, 3);
    assert_int_equal(cas->mem.l1_ctl, IR_CC_UNCACHED);
    assert_int_equal(cas->mem.l2_ctl, IR_CC_WRITE_BACK);
    const ir_insn *inc = nth(m, 1, NULL);
    assert_int_equal(inc->sub, IR_ATOM_ADD);
    assert_int_equal(inc->src[1].kind, IR_OPND_IMM);
    assert_int_equal(inc->src[1].imm, 1);
    assert_int_equal(inc->dst[0].kind, IR_OPND_REG); /* %null: a scratch register */
    unsigned glue = 0;
    const ir_insn *sub = nth(m, 2, &glue);
    assert_int_equal(glue, 2); /* the SLM address's bit-28 tag dropped, the source negated */
    const ir_insn *tag = (sub - 1)->op == IR_AND ? sub - 1 : sub - 2;
    const ir_insn *neg = (sub - 1)->op == IR_AND ? sub - 2 : sub - 1;
    assert_int_equal(tag->op, IR_AND);
    assert_int_equal(tag->src[1].imm, 0x0fffffff);
    assert_int_equal(sub->src[0].reg, tag->dst[0].reg);
    assert_int_equal(neg->op, IR_NEG);
    assert_int_equal(sub->sub, IR_ATOM_ADD);
    assert_int_equal(sub->src[1].reg, neg->dst[0].reg);
    assert_int_equal(sub->mem.space, IR_SPACE_SHARED);
    const ir_insn *smax = nth(m, 3, NULL);
    assert_int_equal(smax->sub, IR_ATOM_MAX);
    assert_int_equal(smax->type, IR_T_S64);
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

static void test_fences(void **state)
{
    (void)state;
    diag_list dl;
    ir_module *m = parse("    lsc_fence.ugm.evict.gpu\n"
                         "    lsc_fence.slm.none.group\n"
                         "    lsc_fence.ugml.discard.tile\n"
                         "    lsc_fence.tgm.flushl3.local\n"
                         "    lsc_fence.ugm.clean.system\n"
                         "    lsc_fence.ugm.none.sysacq\n",
                         0, &dl);
    assert_non_null(m);
    static const struct {
        uint8_t sfid, op, scope;
    } want[] = {
        {IR_SFID_UGM, IR_FENCE_OP_EVICT, IR_SCOPE_GPU},
        {IR_SFID_SLM, IR_FENCE_OP_NONE, IR_SCOPE_CTA},
        {IR_SFID_UGML, IR_FENCE_OP_DISCARD, IR_SCOPE_TILE},
        {IR_SFID_TGM, IR_FENCE_OP_FLUSHL3, IR_SCOPE_SM},
        {IR_SFID_UGM, IR_FENCE_OP_CLEAN, IR_SCOPE_SYS},
        {IR_SFID_UGM, IR_FENCE_OP_NONE, IR_SCOPE_SYSACQ},
    };
    for (unsigned k = 0; k < 6; k++) {
        const ir_insn *f = nth(m, k, NULL);
        assert_int_equal(f->op, IR_FENCE);
        assert_int_equal(f->mem.sfid, want[k].sfid);
        assert_int_equal(f->mem.fence_op, want[k].op);
        assert_int_equal(f->mem.scope, want[k].scope);
        assert_false(f->has_guard);
    }
    /* the .system warning, nothing else */
    assert_int_equal(dl.count, 1);
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

/* The GRF size picks the payload limit: d32x8 at SIMD16 is 8 registers on PVC, 16 on DG2. */
static void test_platform_from_the_grf(void **state)
{
    (void)state;
    diag_list dl;
    ir_module *m = parse("    lsc_load.ugm (M1, 16) VD:d32x8 flat[VA]:a64\n", 1, &dl);
    assert_non_null(m);
    ir_module_destroy(m);
    diag_list_fini(&dl);
    m = parse("    lsc_load.ugm (M1, 16) VD:d32x8 flat[VA]:a64\n", 0, &dl);
    assert_null(m);
    assert_non_null(diag_find(&dl, "VISA-LSC-028"));
    diag_list_fini(&dl);
}

/* Variables whose type does not fit the message's register elements. */
static void test_type_fit(void **state)
{
    (void)state;
    diag_list dl;
    ir_module *m = parse("    lsc_load.ugm (M1, 16) VD:d64 flat[VA]:a64\n", 1, &dl);
    assert_null(m);
    const diag *d = diag_find(&dl, "VISA-LSC-043");
    assert_non_null(d);
    char buf[256];
    diag_format(d, buf, sizeof buf);
    assert_string_equal(buf, "t.visaasm:17:27: error: the data variable 'VD' has type d (4 "
                             "bytes); this message needs 8-byte elements [VISA-LSC-043]");
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_and_stores),
        cmocka_unit_test(test_transposed_and_prefetch),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_fences),
        cmocka_unit_test(test_platform_from_the_grf),
        cmocka_unit_test(test_type_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

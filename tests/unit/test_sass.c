/* Unit tests of the SASS-style front-end (src/sass/, docs/sass.md): the good modules of
 * tests/sass_good/ parse, check and lower cleanly (debug builds also run ir_verify on them), their
 * IR listings match the goldens tests/golden/ir/sass_<name>.ir (GMS_UPDATE_GOLDEN=1 rewrites
 * them for review), and the lowering contract holds field by field: the machine, PT's entry glue,
 * constant-bank glue, pair addresses, the CCTL/CCTLL table of the seed page, LDS.U, 64-bit atomics,
 * labels on glue, and the control fields with their defaults. The rules themselves are tested
 * by tests/sass_bad/ (tests/sass_bad.cmake). Runs without the executor: `gpumemsim check` needs
 * the executor to accept the SASS machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_print.h"
#include "sass/sass.h"

static char *read_file(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", GMS_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc((size_t)n + 1, 1);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return text;
}

/* Parses a module given as text; asserts it is clean. */
static ir_module *parse_text(const char *path, const char *text)
{
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = sass_parse_module(path, text, strlen(text), &dl);
    if (dl.count)
        diag_list_print(&dl, stderr);
    assert_int_equal(dl.count, 0);
    assert_non_null(m);
    diag_list_fini(&dl);
    return m;
}

/* The first diagnostic's rule of a bad module given as text. */
static void expect_rule(const char *text, const char *rule, unsigned line, unsigned col)
{
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = sass_parse_module("t.sass", text, strlen(text), &dl);
    assert_null(m);
    assert_true(dl.count >= 1);
    if (strcmp(dl.items[0].rule, rule) != 0 || dl.items[0].line != line || dl.items[0].col != col)
        diag_list_print(&dl, stderr);
    assert_string_equal(dl.items[0].rule, rule);
    assert_int_equal(dl.items[0].line, line);
    assert_int_equal(dl.items[0].col, col);
    diag_list_fini(&dl);
}

static ir_module *parse_good(const char *name)
{
    char rel[256];
    size_t len;
    snprintf(rel, sizeof rel, "tests/sass_good/%s.sass", name);
    char *text = read_file(rel, &len);
    assert_non_null(text);
    ir_module *m = parse_text(rel, text);
    free(text);
    return m;
}

/* The module's listing against tests/golden/ir/sass_<name>.ir. */
static void check_golden(const char *name)
{
    ir_module *m = parse_good(name);
    char *listing = NULL;
    size_t bytes = 0;
    FILE *f = open_memstream(&listing, &bytes);
    assert_non_null(f);
    assert_int_equal(ir_print_module(f, m), 0);
    fclose(f);
    char rel[256], path[4096];
    snprintf(rel, sizeof rel, "tests/golden/ir/sass_%s.ir", name);
    const char *update = getenv("GMS_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        snprintf(path, sizeof path, "%s/%s", GMS_SOURCE_DIR, rel);
        FILE *out = fopen(path, "wb");
        assert_non_null(out);
        fputs(listing, out);
        fclose(out);
    } else {
        size_t len;
        char *golden = read_file(rel, &len);
        assert_non_null(golden);
        if (strcmp(golden, listing) != 0)
            fprintf(stderr, "%s differs; the listing is:\n%s", rel, listing);
        assert_string_equal(golden, listing);
        free(golden);
    }
    free(listing);
    ir_module_destroy(m);
}

static void test_golden_seed_forms(void **state)
{
    (void)state;
    check_golden("seed_forms");
}

static void test_golden_supporting_set(void **state)
{
    (void)state;
    check_golden("supporting_set");
}

static void test_golden_surfaces(void **state)
{
    (void)state;
    check_golden("surfaces");
}

static const ir_insn *main_insn(const ir_func *fn, unsigned line)
{
    for (uint32_t i = 0; i < fn->ninsns; i++)
        if (fn->insns[i].line == line && !fn->insns[i].glue)
            return &fn->insns[i];
    fail_msg("no instruction on line %u", line);
    return NULL;
}

static void test_machine_and_entry(void **state)
{
    (void)state;
    ir_module *m = parse_text("t.sass", ".kernel k\n.param .u32 n\n.param .u64 p\n"
                                        "        MOV R0, c[0x0][0x148] ;\n        EXIT ;\n");
    const ir_machine *mc = &m->machine;
    assert_int_equal(mc->reg_bits, 32);
    assert_int_equal(mc->reg_pairs, 1);
    assert_int_equal(mc->has_zero_reg, 0);
    assert_int_equal(mc->insn_bytes, 8);
    assert_int_equal(mc->ctrl_group, 3);
    assert_int_equal(mc->call_conv, IR_CALL_RETURN_STACK);
    assert_int_equal(mc->window_errors, IR_WINDOW_ZERO);
    assert_int_equal(mc->scoreboards, 6);
    assert_int_equal(mc->params_in_bank, 1);
    assert_int_equal(mc->params_offset, 0x140);
    assert_int_equal(mc->crs_cached, 16);
    assert_int_equal(mc->crs_max, 256);
    assert_int_equal(mc->flag_count, 1);
    assert_int_equal(m->target_sm, 52);
    assert_int_equal(m->ninsns_total, 2);
    const ir_func *fn = &m->funcs[0];
    assert_int_equal(fn->is_entry, 1);
    assert_int_equal(fn->nparams, 2);
    assert_int_equal(fn->params[1].offset, 8); /* natural alignment */
    assert_int_equal(fn->params_bytes, 16);
    assert_int_equal(fn->nregs, 2);              /* R0 and the constant's temporary */
    assert_int_equal(mc->reg_count, 2);
    /* PT is set by glue at the entry; the constant operand is a glue ld.const */
    assert_int_equal(fn->ninsns, 4);
    assert_true(fn->insns[0].glue && fn->insns[0].op == IR_SETP && fn->insns[0].dst[0].reg == 7);
    assert_true(fn->insns[1].glue && fn->insns[1].op == IR_LD);
    assert_int_equal(fn->insns[1].mem.space, IR_SPACE_CONST);
    assert_int_equal(fn->insns[1].src[0].imm, 0x148);
    assert_int_equal(fn->insns[0].id, 0);
    assert_int_equal(fn->insns[1].id, 0);
    assert_int_equal(fn->insns[2].id, 0);
    assert_int_equal(fn->insns[3].id, 1);
    assert_int_equal(fn->ctrl[1].present, 0);
    assert_int_equal(fn->ctrl[2].present, 1);
    assert_int_equal(fn->ctrl[2].stall, 1); /* the default: the op's minimum */
    assert_int_equal(fn->ctrl[3].stall, 5); /* EXIT */
    assert_int_equal(fn->ctrl[2].writes[0], 1u);
    ir_module_destroy(m);
}

static void test_seed_cctl_table(void **state)
{
    (void)state;
    ir_module *m = parse_good("seed_forms");
    const ir_func *fn = &m->funcs[0];
    const ir_insn *in = main_insn(fn, 13); /* CCTL.D.PF1 [R3 + 4] */
    assert_int_equal(in->mem.cctl, IR_CCTL_PREFETCH);
    assert_int_equal(in->mem.cctl_levels, IR_LEVEL_L1 | IR_LEVEL_L2);
    assert_int_equal(in->src[0].reg, 3);
    assert_int_equal(in->src[0].imm, 4);
    in = main_insn(fn, 14); /* CCTL.E.PF2 [R2 + 0x8]: pair base, L2 only */
    assert_int_equal(in->mem.cctl_levels, IR_LEVEL_L2);
    assert_int_equal(in->src[0].count, 2);
    assert_int_equal(in->src[0].vregs[0], 2);
    assert_int_equal(in->src[0].vregs[1], 3);
    in = main_insn(fn, 17); /* CCTL.RS: discard */
    assert_int_equal(in->mem.cctl, IR_CCTL_DISCARD);
    in = main_insn(fn, 19); /* CCTL.U.IVALL is CCTL.D.IVALL */
    assert_int_equal(in->mem.cctl_all, 1);
    assert_int_equal(in->mem.cctl_lines, IR_LINES_GLOBAL);
    assert_int_equal(in->mem.cctl_levels, IR_LEVEL_L1);
    assert_int_equal(in->mem.space, IR_SPACE_GENERIC);
    assert_int_equal(main_insn(fn, 21)->mem.cctl_levels, IR_LEVEL_CONST_L1);
    assert_int_equal(main_insn(fn, 22)->mem.cctl_levels, IR_LEVEL_INSN_L1);
    in = main_insn(fn, 23); /* CCTL.D.PF1 [0x100]: absolute */
    assert_int_equal(in->src[0].has_reg, 0);
    assert_int_equal(in->src[0].imm, 0x100);
    in = main_insn(fn, 28); /* CCTLL.RS [16] */
    assert_int_equal(in->mem.space, IR_SPACE_LOCAL);
    assert_int_equal(in->mem.cctl_lines, IR_LINES_LOCAL);
    in = main_insn(fn, 30); /* CCTLL.CRS.WBALL */
    assert_int_equal(in->mem.cctl, IR_CCTL_WRITEBACK);
    assert_int_equal(in->mem.cctl_levels, IR_LEVEL_CRS);
    assert_int_equal(in->mem.cctl_all, 1);
    assert_int_equal(fn->ctrl[in - fn->insns].stall, 5);
    in = main_insn(fn, 31); /* LDL.32 R0, [R1 - 0x004] */
    assert_int_equal(in->src[0].imm, -4);
    in = main_insn(fn, 37); /* LDS.32 R4, [R1 + 424] */
    assert_int_equal(in->src[0].imm, 424);
    in = main_insn(fn, 38); /* LDS.32 R4, [424]: absolute in the shared window */
    assert_int_equal(in->mem.space, IR_SPACE_SHARED);
    assert_int_equal(in->src[0].has_reg, 0);
    assert_int_equal(in->src[0].imm, 424);
    assert_int_equal(main_insn(fn, 39)->mem.uniform, 1); /* LDS.U */
    in = main_insn(fn, 36); /* LDL.CI.128 R8: a vector of four */
    assert_int_equal(in->dst[0].kind, IR_OPND_VEC);
    assert_int_equal(in->dst[0].count, 4);
    assert_int_equal(in->mem.l1, IR_L1_READ_ONLY);
    /* STL ... &rd=0x3 ?W2 then CCTLL.WB ... &req={3} */
    in = main_insn(fn, 42);
    assert_int_equal(fn->ctrl[in - fn->insns].rd_sb, 3);
    assert_int_equal(fn->ctrl[in - fn->insns].stall, 2);
    assert_int_equal(fn->ctrl[in - fn->insns + 1].wait_mask, 1u << 3);
    ir_module_destroy(m);
}

static void test_defaults_and_prefixes(void **state)
{
    (void)state;
    /* the default stall is raised to 2 when the next instruction waits on this one's board */
    ir_module *m = parse_text("t.sass", ".kernel k\n        LDS R0, [R1] &wr=0x2 ;\n"
                                        "        MOV R2, R0 &req={2} ;\n"
                                        "--:-:1:Y:a      LDS R3, [R0] ;\n"
                                        "[B0----5:R3:W-:-:S12] STS [R0], R3 ;\n"
                                        "        EXIT ;\n");
    const ir_func *fn = &m->funcs[0];
    assert_int_equal(fn->ctrl[1].stall, 2);
    assert_int_equal(fn->ctrl[1].wr_sb, 2);
    assert_int_equal(fn->ctrl[2].wait_mask, 1u << 2);
    assert_int_equal(fn->ctrl[3].wr_sb, 0); /* maxas counts scoreboards from 1 */
    assert_int_equal(fn->ctrl[3].yield, 1);
    assert_int_equal(fn->ctrl[3].stall, 10);
    assert_int_equal(fn->ctrl[4].wait_mask, (1u << 0) | (1u << 5));
    assert_int_equal(fn->ctrl[4].rd_sb, 3);
    assert_int_equal(fn->ctrl[4].stall, 12);
    ir_module_destroy(m);
    expect_rule(".kernel k\n[B1-----:R-:W-:-:S01] EXIT ;\n", "SASS-CTRL-008", 2, 1);
}

static void test_labels_and_atomics(void **state)
{
    (void)state;
    ir_module *m = parse_text("t.sass", ".kernel k\n"
                                        "top:    MOV R0, c[0x0][0x140] ;\n"
                                        "        ATOM.E.ADD.U64 R2, [R4], R6 ;\n"
                                        "        BRA top ;\n");
    const ir_func *fn = &m->funcs[0];
    const ir_insn *bra = main_insn(fn, 4);
    assert_int_equal(bra->src[0].imm, 0); /* the first glue of MOV (the entry's setp) */
    const ir_insn *atom = main_insn(fn, 3);
    assert_int_equal(atom->type, IR_T_U64);
    assert_int_equal(atom->src[0].count, 2);
    assert_true(atom[-1].glue && atom[-1].op == IR_MOV); /* packs {R6, R7} */
    assert_true(atom[1].glue && atom[1].op == IR_MOV);   /* unpacks into {R2, R3} */
    assert_int_equal(atom[1].dst[0].kind, IR_OPND_VEC);
    assert_int_equal(atom[1].dst[0].vregs[0], 2);
    const ir_ctrl *c = &fn->ctrl[atom - fn->insns];
    assert_int_equal(c->writes[0], 0xCu);        /* R2, R3 */
    assert_int_equal(c->reads[0], 0xF0u);        /* R4..R7 */
    ir_module_destroy(m);
    /* a label after the last instruction labels nothing */
    expect_rule(".kernel k\n        BRA end ;\nend:\n", "SASS-LABEL-001", 2, 13);
    /* .E base beyond .registers is absolute, not an error */
    m = parse_text("t.sass", ".kernel k\n.registers 4\n        LDG.E R0, [R9 + 4] ;\n"
                             "        EXIT ;\n");
    assert_int_equal(main_insn(&m->funcs[0], 3)->src[0].has_reg, 0);
    ir_module_destroy(m);
}

/* Seed page 004: SUATOM's operands and attributes in the IR (docs/sass.md, "Surfaces"). */
static void test_surfaces(void **state)
{
    (void)state;
    ir_module *m = parse_good("surfaces");
    assert_int_equal(m->machine.has_image_bank, 1);
    assert_int_equal(m->machine.image_bank, 1);
    const ir_func *fn = &m->funcs[0];
    const ir_insn *in = main_insn(fn, 9); /* SUATOM.D.2D.ADD.IGN R10, [R2], R4, R1 */
    assert_int_equal(in->op, IR_SUATOM);
    assert_int_equal(in->sub, IR_ATOM_ADD);
    assert_int_equal(in->type, IR_T_U32);
    assert_int_equal(in->mem.space, IR_SPACE_GLOBAL);
    assert_int_equal(in->mem.image_dim, IR_IMAGE_2D);
    assert_int_equal(in->mem.image_clamp, IR_CLAMP_IGNORE);
    assert_int_equal(in->mem.image_flags, 0);
    assert_int_equal(in->mem.elem_bytes, 4);
    assert_int_equal(in->src[0].kind, IR_OPND_REG); /* bindless Rc */
    assert_int_equal(in->src[0].reg, 1);
    assert_int_equal(in->src[1].kind, IR_OPND_VEC); /* (x, y) in R2, R3 */
    assert_int_equal(in->src[1].count, 2);
    assert_int_equal(in->src[1].vregs[1], 3);
    assert_int_equal(in->src[2].reg, 4);
    assert_int_equal(in->nsrc, 3);
    assert_int_equal(in->ndst, 1);
    assert_int_equal(in->dst[0].reg, 10);
    in = main_insn(fn, 10); /* SUATOM.D.BA.1D.ADD.U64.TRAP R2, [R3], R4, 0x100 */
    assert_int_equal(in->type, IR_T_U64);
    assert_int_equal(in->mem.elem_bytes, 8);
    assert_int_equal(in->mem.image_clamp, IR_CLAMP_TRAP);
    assert_int_equal(in->mem.image_flags, IR_IMAGE_BYTE_X);
    assert_int_equal(in->src[0].kind, IR_OPND_IMM); /* the slot: a word index */
    assert_int_equal(in->src[0].imm, 0x100);
    assert_int_equal(in->src[1].kind, IR_OPND_REG);
    assert_true(in[-1].glue && in[1].glue); /* {R4, R5} packed, {R2, R3} unpacked */
    in = main_insn(fn, 12); /* the default clamp is .NEAR */
    assert_int_equal(in->mem.image_clamp, IR_CLAMP_NEAR);
    in = main_insn(fn, 16); /* SUATOM.D.1D.ADD P0, R5, ...: the sparse status into dst[1] */
    assert_int_equal(in->ndst, 2);
    assert_int_equal(in->dst[0].reg, 5);
    assert_int_equal(in->dst[1].kind, IR_OPND_PRED);
    assert_int_equal(in->dst[1].reg, 0);
    const ir_ctrl *c = &fn->ctrl[in - fn->insns];
    assert_int_equal(c->writes[0], 1u << 5);
    in = main_insn(fn, 17); /* SUATOM.D.1D.CAS P1, R5, [R3], R6, 0x2: compare R6, new R7 */
    assert_int_equal(in->sub, IR_ATOM_CAS);
    assert_int_equal(in->nsrc, 4);
    assert_int_equal(in->src[2].reg, 6);
    assert_int_equal(in->src[3].reg, 7);
    assert_int_equal(in->dst[1].reg, 1);
    assert_int_equal(main_insn(fn, 18)->ndst, 1); /* PT: the status is dropped */
    in = main_insn(fn, 20); /* SUATOM.D.1D.EXCH R12, [R3] ... */
    assert_int_equal(in->type, IR_T_B32);
    in = main_insn(fn, 40); /* 2D_ARRAY: {R4, R5, R6} */
    assert_int_equal(in->mem.image_dim, IR_IMAGE_2D_ARRAY);
    assert_int_equal(in->src[1].count, 3);
    assert_int_equal(fn->ctrl[in - fn->insns].reads[0], (1u << 1) | (7u << 4) | (1u << 13));
    in = main_insn(fn, 56); /* SUATOM.D.2D.ADD.F16x2.RN */
    assert_int_equal(in->type, IR_T_F16X2);
    ir_module_destroy(m);
}

static void test_registry_entry(void **state)
{
    (void)state;
    assert_string_equal(sass_dialect.name, "sass");
    assert_string_equal(sass_dialect.suffixes[0], ".sass");
    assert_string_equal(sass_dialect.doc, "docs/sass.md");
    /* RZ as a destination is a scratch temporary; as a source the immediate 0 */
    ir_module *m = parse_text("t.sass", ".kernel k\n        IADD RZ, RZ, R1 ;\n        EXIT ;\n");
    const ir_insn *in = main_insn(&m->funcs[0], 2);
    assert_int_equal(in->src[0].kind, IR_OPND_IMM);
    assert_int_equal(in->dst[0].reg, 2); /* R0, R1, then the temporary */
    ir_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_seed_forms),
        cmocka_unit_test(test_golden_supporting_set),
        cmocka_unit_test(test_golden_surfaces),
        cmocka_unit_test(test_surfaces),
        cmocka_unit_test(test_machine_and_entry),
        cmocka_unit_test(test_seed_cctl_table),
        cmocka_unit_test(test_defaults_and_prefixes),
        cmocka_unit_test(test_labels_and_atomics),
        cmocka_unit_test(test_registry_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests for src/ir: the self-tests of the opcode table ir_ops.def (unique rows, every column
 * in range, every shape parses, every op has a handler family, a printer and a verifier shape that
 * accepts a minimal instance of the op), the names of modifiers and sub-operations, the memory
 * attribute visitor, and the printer's exact text for each operand form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir_print.h"
#include "ir/ir_verify.h"
#include "ir_build.h"

static void test_rows_are_unique_and_in_range(void **state)
{
    (void)state;
    unsigned family_used[IR_FAM_COUNT] = {0};
    for (unsigned op = 0; op < IR_OP_COUNT; op++) {
        const ir_op_info *info = ir_op_info_of((ir_opcode)op);
        assert_non_null(info);
        assert_non_null(info->name);
        assert_true(info->name[0] != '\0');
        assert_string_equal(ir_opcode_name((ir_opcode)op), info->name);
        for (unsigned other = 0; other < op; other++)
            if (!strcmp(ir_op_info_of((ir_opcode)other)->name, info->name))
                fail_msg("ops %u and %u are both printed '%s'", other, op, info->name);
        assert_true(info->cls <= IR_CLASS_MISC);
        assert_true(info->family < IR_FAM_COUNT);
        assert_true(info->flow <= IR_FLOW_WAIT);
        assert_true(info->mem <= IR_MEM_ATTRS);
        assert_true(info->subs < IR_SUBS_COUNT);
        assert_int_equal(info->mods & ~((1u << IR_MODBIT_COUNT) - 1), 0);
        ir_shape shape;
        if (!ir_op_shape((ir_opcode)op, &shape))
            fail_msg("the shape \"%s\" of %s does not parse", info->shape, info->name);
        family_used[info->family]++;
        /* memory instructions carry attributes; control flow is the CTRL class or a barrier */
        if (info->cls == IR_CLASS_MEM)
            assert_int_not_equal(info->mem, IR_MEM_NONE);
        if (info->flow != IR_FLOW_NONE)
            assert_true(info->cls == IR_CLASS_CTRL || info->family == IR_FAM_BAR ||
                        info->family == IR_FAM_MBARRIER);
    }
    for (unsigned f = 0; f < IR_FAM_COUNT; f++)
        if (!family_used[f])
            fail_msg("handler family %u is used by no op", f);
    assert_null(ir_op_info_of(IR_OP_COUNT));
    assert_string_equal(ir_opcode_name(IR_OP_COUNT), "?");
}

/* The shape column says what it should, and malformed input is refused. */
static void test_shapes(void **state)
{
    (void)state;
    ir_shape s;
    assert_true(ir_op_shape(IR_ATOM, &s));
    assert_int_equal(s.ndst, 1);
    assert_int_equal(s.nsrc, 4);
    assert_int_equal(s.dst[0], 1u << IR_OPND_REG);
    assert_int_equal(s.src[0], 1u << IR_OPND_ADDR);
    assert_int_equal(s.src[2], (1u << IR_OPND_NONE) | (1u << IR_OPND_REG) | (1u << IR_OPND_IMM));
    assert_int_equal(s.src[3], (1u << IR_OPND_NONE) | (1u << IR_OPND_REG) | (1u << IR_OPND_IMM) |
                                   IR_SLOT_HINT);
    assert_true(ir_op_shape(IR_RET, &s));
    assert_int_equal(s.ndst + s.nsrc, 0);
    assert_true(ir_op_shape(IR_SETP, &s));
    assert_int_equal(s.dst[0], (1u << IR_OPND_PRED) | (1u << IR_OPND_SINK));
    assert_false(ir_op_shape(IR_OP_COUNT, &s));
}

/* Modifier bits keep the values they had as explicit enumerators, and all have names. */
static void test_modifier_and_sub_names(void **state)
{
    (void)state;
    assert_int_equal(IR_MOD_FTZ, 1u << 0);
    assert_int_equal(IR_MOD_CC, 1u << 7);
    assert_int_equal(IR_MOD_UNI, 1u << 9);
    assert_int_equal(IR_MOD_BARRIER, 1u << 20);
    assert_int_equal(IR_MOD_CBCC, 1u << 25);
    assert_int_equal(IR_MOD_COL, 1u << 27);
    assert_int_equal(IR_MOD_BROW, 1u << 29);
    assert_int_equal(IR_MOD_NOINC, 1u << 30);
    assert_int_equal(IR_MODBIT_COUNT, 31);
    for (unsigned bit = 0; bit < IR_MODBIT_COUNT; bit++)
        assert_non_null(ir_modifier_name(bit));
    assert_null(ir_modifier_name(IR_MODBIT_COUNT));
    assert_string_equal(ir_modifier_name(IR_MODBIT_XORSIGN_ABS), "xorsign.abs");
    /* every set but NONE and PRMT starts at 1, and has no holes up to its last member */
    static const struct {
        ir_subs set;
        unsigned last;
    } sets[] = {{IR_SUBS_SHFL, IR_SHFL_IDX},      {IR_SUBS_VOTE, IR_VOTE_BALLOT},
                {IR_SUBS_MATCH, IR_MATCH_ALL},    {IR_SUBS_REDUX, IR_REDUX_XOR},
                {IR_SUBS_ATOM, IR_ATOM_MAX},      {IR_SUBS_BAR, IR_BAR_RED_OR},
                {IR_SUBS_TESTP, IR_TESTP_SUBNORMAL}, {IR_SUBS_POLICY, IR_POLICY_CVT},
                {IR_SUBS_SUQ, IR_SUQ_MEMORY_LAYOUT}, {IR_SUBS_TLD4, IR_TLD4_A},
                {IR_SUBS_TXQ, IR_TXQ_NUM_SAMPLES},
                {IR_SUBS_MATRIX, IR_MATRIX_SHAPES - 1}};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        assert_null(ir_sub_name(sets[i].set, 0));
        for (unsigned sub = 1; sub <= sets[i].last; sub++)
            assert_non_null(ir_sub_name(sets[i].set, sub));
        assert_null(ir_sub_name(sets[i].set, sets[i].last + 1));
    }
    assert_string_equal(ir_sub_name(IR_SUBS_NONE, 0), "");
    assert_null(ir_sub_name(IR_SUBS_NONE, 1));
    assert_string_equal(ir_sub_name(IR_SUBS_PRMT, IR_PRMT_DEFAULT), "");
    assert_string_equal(ir_sub_name(IR_SUBS_PRMT, IR_PRMT_RC16), "rc16");
    assert_string_equal(ir_sub_name(IR_SUBS_BAR, IR_BAR_RED_POPC), "red.popc");
}

/* ---- a minimal instance of every op, from its row alone ---- */
static ir_operand first_kind(irb *b, uint32_t mask, uint32_t reg, uint32_t pred)
{
    if (mask & (1u << IR_OPND_REG))
        return irb_r(reg);
    if (mask & (1u << IR_OPND_PRED))
        return irb_p(pred);
    if (mask & (1u << IR_OPND_IMM))
        return irb_imm(1);
    if (mask & (1u << IR_OPND_ADDR))
        return irb_addr_reg(reg, 0);
    if (mask & (1u << IR_OPND_LABEL))
        return irb_label(0);
    if (mask & (1u << IR_OPND_VEC)) { /* a one-element vector of the register */
        ir_operand v = irb_opnd(IR_OPND_VEC);
        v.count = 1;
        v.vregs[0] = reg;
        return v;
    }
    (void)b;
    fail_msg("no kind to build a slot of mask 0x%x", mask);
    return irb_opnd(IR_OPND_NONE);
}

/* Builds a module whose one function runs `op` (operands from the shape column, the first member
 * of its sub-operation set, attributes as its mem column asks) and then returns. */
static ir_module *minimal_instance(ir_opcode op)
{
    const ir_op_info *info = ir_op_info_of(op);
    ir_shape shape;
    assert_true(ir_op_shape(op, &shape));
    irb b;
    irb_module(&b);
    ir_func *fn = irb_func(&b, "f", 1);
    uint32_t reg = irb_reg(&b, IR_T_U64, "%rd0"), pred = irb_pred(&b, "%p0");
    ir_insn *in = irb_op(&b, op, info->mem == IR_MEM_ACCESS ? IR_T_U32 : IR_T_NONE);
    for (unsigned i = 0; i < shape.ndst; i++)
        if (!(shape.dst[i] & (1u << IR_OPND_NONE)))
            irb_dst(in, i, first_kind(&b, shape.dst[i], reg, pred));
    for (unsigned i = 0; i < shape.nsrc; i++)
        if (!(shape.src[i] & (1u << IR_OPND_NONE)))
            irb_src(in, i, shape.src[i] & (1u << IR_OPND_FUNC) ? irb_func_ref(0)
                                                                  : first_kind(&b, shape.src[i],
                                                                               reg, pred));
    unsigned sub = 0;
    while (!ir_sub_name((ir_subs)info->subs, sub)) sub++;
    in->sub = (uint8_t)sub;
    in->mem.vec = 1;
    if (info->cls == IR_CLASS_MEM)
        in->mem.space = IR_SPACE_GLOBAL;
    if (info->mem == IR_MEM_ACCESS)
        in->mem.elem_bytes = 4;
    if (op == IR_BRX) {
        fn->xops[0] = irb_label(0);
        fn->nxops = 1;
        in->xops_count = 1;
    }
    if (info->flow != IR_FLOW_END)
        irb_op(&b, IR_RET, IR_T_NONE);
    irb_finish(&b);
    return b.m;
}

static void test_every_op_verifies_and_prints(void **state)
{
    (void)state;
    for (unsigned op = 0; op < IR_OP_COUNT; op++) {
        ir_module *m = minimal_instance((ir_opcode)op);
        diag_list dl;
        diag_list_init(&dl);
        if (ir_verify(m, &dl) != 0) {
            diag_list_print(&dl, stderr);
            fail_msg("the minimal %s does not verify", ir_opcode_name((ir_opcode)op));
        }
        char text[256];
        size_t n = ir_print_insn(text, sizeof text, m, &m->funcs[0], &m->funcs[0].insns[0]);
        assert_true(n < sizeof text);
        const char *name = ir_opcode_name((ir_opcode)op);
        if (strncmp(text, name, strlen(name)) || strchr(text, '?'))
            fail_msg("op %s prints as \"%s\"", name, text);
        diag_list_fini(&dl);
        ir_module_destroy(m);
    }
}

/* ---- the printer ---- */
/* A function with one instruction of each operand form; returns the module. */
static ir_module *printer_module(void)
{
    const ir_operand none = irb_opnd(IR_OPND_NONE);
    irb b;
    irb_module(&b);
    uint32_t g = irb_var(&b, "g", IR_SPACE_GLOBAL, 64);
    irb_func(&b, "callee", 0);
    uint32_t x = irb_param_or_ret(&b, "x", IR_T_B32, 0);
    (void)x;
    irb_param_or_ret(&b, "y", IR_T_B32, 1);
    irb_op(&b, IR_RET, IR_T_NONE);
    ir_func *fn = irb_func(&b, "k", 1);
    uint32_t out = irb_param(&b, "out", IR_T_U64);
    uint32_t rd = irb_reg(&b, IR_T_U64, "%rd1"), r = irb_reg(&b, IR_T_U32, "%r1");
    uint32_t h = irb_reg(&b, IR_T_B16, NULL), p = irb_pred(&b, "%p1"), q = irb_pred(&b, NULL);
    ir_insn *in = irb_ld(&b, IR_SPACE_PARAM, IR_T_U64, irb_r(rd), irb_addr_sym(out, 8)); /* 0 */
    in->mem.has_policy = 1;
    irb_src(in, 1, irb_r(rd));
    in = irb_alu(&b, IR_SETP, IR_T_S32, irb_p(p), irb_r(r), irb_imm(-1 & 0xFFFFFFFF), none);
    in->cmp = IR_CMP_LT;                                                                 /* 1 */
    irb_dst(in, 1, irb_p(q));
    irb_guard(irb_bra(&b, 0), p, 1);                                                     /* 2 */
    in = irb_op(&b, IR_MOV, IR_T_B32);                                                   /* 3 */
    ir_operand v = irb_opnd(IR_OPND_VEC);
    v.count = 2;
    v.vregs[0] = h;
    v.vregs[1] = IR_REG_IMM;
    v.imm = 7 << 16;
    irb_src(irb_dst(in, 0, irb_r(r)), 0, v);
    in = irb_op(&b, IR_ATOM, IR_T_U32);                                                  /* 4 */
    in->sub = IR_ATOM_CAS;
    in->mem = (ir_mem_attrs){.space = IR_SPACE_GLOBAL, .sem = IR_SEM_RELAXED,
                             .scope = IR_SCOPE_GPU, .elem_bytes = 4, .vec = 1};
    irb_src(irb_src(irb_src(irb_dst(in, 0, irb_r(r)), 0, irb_addr_reg(rd, -4)), 1, irb_r(r)), 2,
            irb_imm(0));
    in = irb_op(&b, IR_CALL, IR_T_NONE);                                                 /* 5 */
    in->mods = IR_MOD_UNI;
    irb_src(in, 0, irb_func_ref(0));
    fn->xops[0] = irb_sym(g, 16);
    fn->xops[1] = irb_r(r);
    fn->nxops = 2;
    in->xops_first = 0;
    in->xops_count = 1;
    in->xrets_first = 1;
    in->xrets_count = 1;
    in = irb_alu(&b, IR_MOV, IR_T_U32, irb_r(r), irb_sreg(IR_SREG_ENVREG0 + 3), none, none);
    in->loc_file = 1;                                                                    /* 6 */
    in->loc_line = 42;
    irb_op(&b, IR_FENCE, IR_T_NONE)->mem = (ir_mem_attrs){.sem = IR_SEM_ACQ_REL,          /* 7 */
                                                          .scope = IR_SCOPE_SYS, .vec = 1};
    irb_op(&b, IR_EXIT, IR_T_NONE);                                                      /* 8 */
    irb_finish(&b);
    return b.m;
}

static void test_print_each_operand_form(void **state)
{
    (void)state;
    static const char *const expected[] = {
        "ld.u64                  %rd1, [out+8], %rd1 { space=param has_policy=1 elem_bytes=8 } "
        "; 10:3",
        "setp.lt.s32             %p1, p1, %r1, 0xffffffff                ; 11:4",
        "@!%p1 bra               L0                                      ; 12:5",
        "mov.b32                 %r1, {r2, 7}                            ; 13:6",
        "atom.cas.u32            %r1, [%rd1-4], %r1, 0 { space=global sem=relaxed scope=gpu "
        "elem_bytes=4 } ; 14:7",
        "call.uni                callee (g+16) -> (%r1)                  ; 15:8",
        "mov.u32                 %r1, %envreg3                           ; 16:9 .loc 1:42",
        "fence                   { sem=acq_rel scope=sys }               ; 17:10",
        "exit                                                            ; 18:11",
    };
    ir_module *m = printer_module();
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(ir_verify(m, &dl), 0);
    diag_list_fini(&dl);
    const ir_func *fn = &m->funcs[1];
    assert_int_equal(fn->ninsns, sizeof expected / sizeof expected[0]);
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        char text[256];
        size_t n = ir_print_insn(text, sizeof text, m, fn, &fn->insns[i]);
        assert_string_equal(text, expected[i]);
        assert_int_equal(n, strlen(expected[i]));
    }
    ir_module_destroy(m);
}

/* A buffer too small gets a NUL-terminated prefix; the return value is the whole length. */
static void test_print_truncates(void **state)
{
    (void)state;
    ir_module *m = printer_module();
    const ir_func *fn = &m->funcs[1];
    char whole[256], part[12];
    size_t n = ir_print_insn(whole, sizeof whole, m, fn, &fn->insns[4]);
    assert_int_equal(ir_print_insn(part, sizeof part, m, fn, &fn->insns[4]), n);
    assert_int_equal(strlen(part), sizeof part - 1);
    assert_memory_equal(part, whole, sizeof part - 1);
    assert_int_equal(ir_print_insn(NULL, 0, m, fn, &fn->insns[4]), n);
    ir_module_destroy(m);
}

/* The whole-module listing: header, variables, each function with its parameters. */
static void test_print_module(void **state)
{
    (void)state;
    ir_module *m = printer_module();
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    assert_int_equal(ir_print_module(f, m), 0);
    fclose(f);
    const char *head =
        "; IR of built.ir: version 8.0, target sm_80, 64-bit addresses, 2 functions, 1 variable, "
        "10 instructions\n"
        "var 0 g: global b8, 64 bytes, align 8\n"
        "\n"
        "function callee: 1 instruction, 0 registers, 0 predicates; line 2\n"
        "  param 0 x: b32, 4 bytes at 0, align 4\n"
        "  result 0 y: b32, 4 bytes at 0, align 4\n"
        "    0  ret                                                             ; 10:3\n"
        "\n"
        "entry k: 9 instructions, 3 registers, 2 predicates; line 3\n"
        "  param 0 out: u64, 8 bytes at 0, align 8\n"
        "    0  ld.u64 ";
    assert_true(size > strlen(head));
    assert_memory_equal(text, head, strlen(head));
    free(text);
    ir_module_destroy(m);
}

/* Special registers print by name; none falls back to a number. */
static void test_print_special_registers(void **state)
{
    (void)state;
    for (unsigned s = 0; s < IR_SREG_COUNT; s++) {
        irb b;
        irb_module(&b);
        irb_func(&b, "k", 1);
        uint32_t r = irb_reg(&b, IR_T_U64, "%r");
        irb_alu(&b, IR_MOV, IR_T_U64, irb_r(r), irb_sreg((ir_sreg)s), irb_opnd(IR_OPND_NONE),
                irb_opnd(IR_OPND_NONE));
        char text[128];
        ir_print_insn(text, sizeof text, b.m, b.fn, &b.fn->insns[0]);
        if (strstr(text, "%sreg") || !strstr(text, "%r, %"))
            fail_msg("special register %u prints as \"%s\"", s, text);
        ir_module_destroy(b.m);
    }
}

/* ---- memory attributes ---- */
typedef struct visits {
    char text[256];
} visits;

static void record(void *user, const char *field, unsigned value, const char *value_name)
{
    visits *v = user;
    size_t n = strlen(v->text);
    snprintf(v->text + n, sizeof v->text - n, "%s%s=%u/%s", n ? " " : "", field, value,
             value_name ? value_name : "-");
}

static void test_mem_attrs_visit(void **state)
{
    (void)state;
    ir_mem_attrs m = {.vec = 1};
    visits v = {""};
    unsigned bad = 0;
    ir_mem_attrs_visit(&m, record, &v, &bad);
    assert_string_equal(v.text, ""); /* all defaults: vec 1 is one */
    m = (ir_mem_attrs){.space = IR_SPACE_SHARED, .sem = IR_SEM_ACQUIRE, .l2_evict = IR_EVICT_LAST,
                       .fill_bytes = 256, .elem_bytes = 16, .vec = 4, .scope = 77,
                       .write_mode = IR_WRITE_THROUGH, .cctl = IR_CCTL_DISCARD};
    ir_mem_attrs_visit(&m, record, &v, &bad);
    assert_string_equal(v.text, "space=3/shared sem=2/acquire scope=77/- l2_evict=4/last "
                                "write_mode=2/write_through fill_bytes=256/- elem_bytes=16/- "
                                "vec=4/- cctl=4/discard");
    assert_int_equal(bad, 1);
    /* the Intel LSC fields: an SFID, a fence operation, per-level cache controls, new scopes */
    v.text[0] = 0;
    bad = 0;
    m = (ir_mem_attrs){.vec = 1, .scope = IR_SCOPE_TILE, .sfid = IR_SFID_UGM,
                       .fence_op = IR_FENCE_OP_DISCARD};
    ir_mem_attrs_visit(&m, record, &v, &bad);
    assert_string_equal(v.text, "scope=7/tile sfid=1/ugm fence_op=4/discard");
    v.text[0] = 0;
    m = (ir_mem_attrs){.vec = 1, .space = IR_SPACE_GLOBAL, .sfid = IR_SFID_SLM,
                       .l1_ctl = IR_CC_READ_INVALIDATE, .l2_ctl = IR_CC_WRITE_BACK};
    ir_mem_attrs_visit(&m, record, &v, &bad);
    assert_string_equal(v.text, "space=2/global sfid=4/slm l1_ctl=6/ri l2_ctl=3/wb");
    v.text[0] = 0;
    m = (ir_mem_attrs){.vec = 1, .scope = IR_SCOPE_SYSACQ, .sfid = 5, .fence_op = 7, .l1_ctl = 7,
                       .l2_ctl = IR_CC_UNCACHED};
    ir_mem_attrs_visit(&m, record, &v, &bad);
    assert_string_equal(v.text, "scope=8/sysacq sfid=5/- fence_op=7/- l1_ctl=7/- l2_ctl=1/uc");
    assert_int_equal(bad, 3);
}

/* ir_scope_width orders the LSC scopes among the others, narrowest first. */
static void test_scope_width(void **state)
{
    (void)state;
    static const ir_scope order[] = {IR_SCOPE_NONE, IR_SCOPE_CTA,  IR_SCOPE_SM,
                                     IR_SCOPE_CLUSTER, IR_SCOPE_TILE, IR_SCOPE_GPU,
                                     IR_SCOPE_GPUS, IR_SCOPE_SYS,  IR_SCOPE_SYSACQ};
    for (unsigned i = 0; i < sizeof order / sizeof order[0]; i++)
        assert_int_equal(ir_scope_width(order[i]), i);
    assert_int_equal(ir_scope_width((ir_scope)99), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_are_unique_and_in_range),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_modifier_and_sub_names),
        cmocka_unit_test(test_every_op_verifies_and_prints),
        cmocka_unit_test(test_print_each_operand_form),
        cmocka_unit_test(test_print_truncates),
        cmocka_unit_test(test_print_module),
        cmocka_unit_test(test_print_special_registers),
        cmocka_unit_test(test_mem_attrs_visit),
        cmocka_unit_test(test_scope_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

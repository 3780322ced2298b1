/* Unit tests of the executor on the IR the SASS-style front-end produces (docs/sass.md; the shared
 * plan's "How a .sass module lowers"), built by hand (tests/unit/ir_build.h): a machine of 32-bit
 * registers in pairs whose kernel parameters sit in constant bank 0 at 0x140 beside the launch
 * constants; glue instructions that are neither counted nor fetched on their own; 32-bit address
 * arithmetic and register-pair (.E) bases; 64- and 128-bit accesses through vectors of 32-bit
 * registers; xmad and the extended comparison of ISETP.X on many values; 64-bit adds through the
 * carry; cctl (whole caches, lines, the call-return stack's level) and depbar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/gpu_config.h"
#include "exec/alu.h"
#include "exec/exec.h"
#include "ir/ir_verify.h"
#include "ir_build.h"
#include "mem/memsys.h"
#include "sim/sim.h"

enum { BUF_WORDS = 4096, NREGS = 24, PARAMS = 0x140, MAX_IDS = 64 };

/* ---- building SASS-shaped IR ---- */

static const ir_operand none_opnd = {.kind = IR_OPND_NONE, .sym = IR_SYM_NONE};

/* A module for sm_52's machine (the plan's values) with entry "k": registers R0..R(NREGS-1)
 * (b32, IR register n is Rn) and parameters out (u64: the buffer), out16 (u64: the buffer - 16)
 * and x (u32), at c[0][0x140], 0x148 and 0x150. */
static void sass_module(irb *b)
{
    irb_module(b);
    b->m->target_sm = 52;
    b->m->machine = (ir_machine){.reg_bits = 32, .reg_pairs = 1, .flag_count = 1,
                                 .insn_bytes = 8, .ctrl_group = 3, .ctrl_bytes = 8,
                                 .params_in_bank = 1, .params_bank = 0,
                                 .params_offset = PARAMS, .reg_count = NREGS};
    irb_func(b, "k", 1);
    irb_param(b, "out", IR_T_U64);
    irb_param(b, "out16", IR_T_U64);
    irb_param(b, "x", IR_T_U32);
    static const char *const names[NREGS] = {
        "R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11",
        "R12", "R13", "R14", "R15", "R16", "R17", "R18", "R19", "R20", "R21", "R22", "R23"};
    for (unsigned r = 0; r < NREGS; r++) irb_reg(b, IR_T_B32, names[r]);
    for (unsigned p = 0; p < 8; p++) irb_pred(b, "P");
}

static ir_operand vec(unsigned first, unsigned count)
{
    ir_operand o = irb_opnd(IR_OPND_VEC);
    o.count = (uint8_t)count;
    for (unsigned e = 0; e < count; e++) o.vregs[e] = first + e;
    return o;
}

/* [Rlo:Rlo+1 + imm]: a 64-bit base in a register pair (SASS .E). */
static ir_operand addr_pair(unsigned lo, int64_t imm)
{
    ir_operand o = irb_addr_reg(lo, imm);
    o.count = 2;
    o.vregs[0] = lo;
    o.vregs[1] = lo + 1;
    return o;
}

/* c[bank][offset] */
static ir_operand addr_const(unsigned bank, int64_t offset)
{
    ir_operand o = irb_opnd(IR_OPND_ADDR);
    o.bank = bank;
    o.imm = offset;
    return o;
}

/* ld/st of `count` b32 elements (count 1: a scalar register). */
static ir_insn *ld32(irb *b, ir_space sp, unsigned d, unsigned count, ir_operand a)
{
    ir_insn *in = irb_ld(b, sp, IR_T_B32, count == 1 ? irb_r(d) : vec(d, count), a);
    in->mem.vec = (uint8_t)count;
    return in;
}

static ir_insn *st32(irb *b, ir_space sp, ir_operand a, unsigned v, unsigned count)
{
    ir_insn *in = irb_st(b, sp, IR_T_B32, a, count == 1 ? irb_r(v) : vec(v, count));
    in->mem.vec = (uint8_t)count;
    return in;
}

static ir_insn *alu(irb *b, ir_opcode op, ir_type t, ir_operand d, ir_operand a, ir_operand c,
                    ir_operand e)
{
    return irb_alu(b, op, t, d, a, c, e);
}

static ir_insn *mov(irb *b, unsigned d, ir_operand a)
{
    return alu(b, IR_MOV, IR_T_B32, irb_r(d), a, none_opnd, none_opnd);
}

static ir_insn *glue(ir_insn *in)
{
    in->glue = 1;
    return in;
}

/* Rd:Rd+1 = Rbase:Rbase+1 + (Ridx << shift), through the carry (IADD.CC, IADD.X). */
static void index_pair(irb *b, unsigned d, unsigned base, unsigned idx, unsigned shift)
{
    alu(b, IR_SHL, IR_T_B32, irb_r(d), irb_r(idx), irb_imm(shift), none_opnd);
    alu(b, IR_ADD, IR_T_U32, irb_r(d), irb_r(base), irb_r(d), none_opnd)->flag_out = 1;
    alu(b, IR_ADD, IR_T_U32, irb_r(d + 1), irb_r(base + 1), irb_imm(0), none_opnd)->flag_in = 1;
}

/* Static ids: consecutive over the instructions that are not glue; a glue instruction has the id
 * of the instruction after its run of glue, or, with serves_previous set for it, before. */
static void finish(irb *b, const uint8_t *serves_previous)
{
    ir_func *fn = b->fn;
    uint32_t id = 0;
    for (uint32_t i = 0; i < fn->ninsns; i++)
        if (!fn->insns[i].glue)
            fn->insns[i].id = id++;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        if (!fn->insns[i].glue)
            continue;
        uint32_t j = i;
        if (serves_previous && serves_previous[i])
            while (fn->insns[j].glue) j--;
        else
            while (fn->insns[j].glue) j++;
        fn->insns[i].id = fn->insns[j].id;
    }
    b->m->ninsns_total = id;
}

/* ---- running ---- */

typedef struct run_opts {
    uint32_t grid, block, dyn_shared, x;
    uint64_t max_insns;
    const uint32_t *init; /* BUF_WORDS words, or NULL */
    uint32_t threads;     /* exec_machine.host_threads */
} run_opts;

typedef struct run_out {
    int rc;
    exec_stats stats;
    exec_fault fault;
    uint64_t buf; /* the buffer's address */
    uint32_t words[BUF_WORDS];
    uint64_t counts[MAX_IDS];
    mem_counters mc[MAX_IDS];
} run_out;

static exec_program *create(const ir_module *m)
{
    diag_list dl;
    diag_list_init(&dl);
    if (ir_verify(m, &dl))
        diag_list_print(&dl, stderr);
    assert_int_equal(ir_verify(m, &dl), 0);
    exec_program *p = exec_program_create(m, &dl);
    if (!p)
        diag_list_print(&dl, stderr);
    assert_non_null(p);
    diag_list_fini(&dl);
    return p;
}

static void run(const ir_module *m, const run_opts *ro, run_out *o)
{
    exec_program *p = create(m);
    diag_list dl;
    diag_list_init(&dl);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 2;
    memsys *ms = memsys_create(&cfg, &dl);
    assert_non_null(ms);
    assert_true(m->ninsns_total <= MAX_IDS);
    assert_int_equal(memsys_set_insn_count(ms, m->ninsns_total), 0);
    uint64_t buf;
    assert_int_equal(memsys_alloc(ms, sizeof o->words, 256, &buf), 0);
    o->buf = buf;
    if (ro->init)
        assert_int_equal(memsys_host_write(ms, buf, ro->init, sizeof o->words), 0);
    uint8_t params[24] = {0};
    uint64_t buf16 = buf - 16;
    memcpy(params, &buf, 8);
    memcpy(params + 8, &buf16, 8);
    memcpy(params + 16, &ro->x, 4);
    exec_machine mach = {.sm_count = 2, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = 7, .host_threads = ro->threads};
    exec_launch L = {.entry = 0, .grid = {ro->grid ? ro->grid : 1, 1, 1},
                     .block = {ro->block ? ro->block : 32, 1, 1}, .params = params,
                     .params_bytes = 20, .dynamic_shared_bytes = ro->dyn_shared,
                     .max_warp_instructions = ro->max_insns};
    memset(&o->stats, 0, sizeof o->stats);
    char *printf_text = NULL;
    o->rc = exec_run(p, ms, &mach, &L, &o->stats, &o->fault, &printf_text);
    free(printf_text);
    assert_int_equal(memsys_finish(ms), 0);
    assert_int_equal(memsys_host_read(ms, buf, o->words, sizeof o->words), 0);
    memcpy(o->counts, exec_program_insn_counts(p), m->ninsns_total * sizeof *o->counts);
    memcpy(o->mc, memsys_insn_counters(ms), m->ninsns_total * sizeof *o->mc);
    memsys_destroy(ms);
    exec_program_destroy(p);
    diag_list_fini(&dl);
}

/* exec_program_create refuses `m` with `rule` and a message containing `words`. */
static void expect_rejected(const ir_module *m, const char *rule, const char *words)
{
    diag_list dl;
    diag_list_init(&dl);
    assert_null(exec_program_create(m, &dl));
    const diag *d = diag_find(&dl, rule);
    if (!d || !strstr(d->message, words))
        diag_list_print(&dl, stderr);
    assert_non_null(d);
    assert_non_null(strstr(d->message, words));
    diag_list_fini(&dl);
}

/* ---- parameters and launch constants ---- */

/* out[0..7] = c[0][0x0 .. 0x24] (launch constants), out[8] = the u32 parameter, and the
 * u64 parameter out16 through one 64-bit constant load (out[10..11]); parameters read from bank `pbank`. */
static ir_module *launch_constants_kernel(unsigned pbank)
{
    irb b;
    sass_module(&b);
    b.m->machine.params_bank = (uint8_t)pbank;
    ir_var *depot = &b.fn->vars[b.fn->nvars++]; /* .local 40: 48 bytes of frame */
    *depot = (ir_var){.name = "depot", .space = IR_SPACE_LOCAL, .type = IR_T_B8, .align = 8,
                      .size_bytes = 40};
    ld32(&b, IR_SPACE_CONST, 0, 2, addr_const(pbank, PARAMS));
    static const unsigned lc[8] = {0x0, 0x4, 0x8, 0xc, 0x10, 0x14, 0x20, 0x24};
    for (unsigned i = 0; i < 8; i++) {
        ld32(&b, IR_SPACE_CONST, 2, 1, addr_const(0, lc[i]));
        st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 4 * i), 2, 1);
    }
    ld32(&b, IR_SPACE_CONST, 2, 1, addr_const(pbank, PARAMS + 0x10));
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 32), 2, 1);
    ld32(&b, IR_SPACE_CONST, 2, 2, addr_const(pbank, PARAMS + 8));
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 40), 2, 2);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, NULL);
    return b.m;
}

static void test_parameters_and_launch_constants(void **state)
{
    (void)state;
    for (unsigned pbank = 0; pbank <= 3; pbank += 3) {
        ir_module *m = launch_constants_kernel(pbank);
        run_out *o = calloc(1, sizeof *o);
        run_opts ro = {.grid = 3, .block = 40, .dyn_shared = 100, .x = 0xC0FFEE};
        run(m, &ro, o);
        if (o->rc)
            fprintf(stderr, "%s: %s\n", o->fault.rule, o->fault.message);
        assert_int_equal(o->rc, 0);
        const uint32_t want[8] = {40, 1, 1, 3, 1, 1, 48, 100};
        for (unsigned i = 0; i < 8; i++) assert_int_equal(o->words[i], want[i]);
        assert_int_equal(o->words[8], 0xC0FFEE);
        assert_int_equal(o->words[10] | (uint64_t)o->words[11] << 32, o->buf - 16);
        free(o);
        ir_module_destroy(m);
    }
}

static void test_parameter_bank_is_the_launchs(void **state)
{
    (void)state;
    ir_module *m = launch_constants_kernel(0);
    m->machine.params_offset = 0x10;
    expect_rejected(m, "EXEC-CONST-002", "kernel parameters at c[0x0][0x10] "
                    "(machine.params_offset) overlap the launch constants at c[0x0][0x0..0x27]");
    m->machine.params_offset = PARAMS;
    m->machine.params_bank = 40;
    expect_rejected(m, "EXEC-CONST-001", "constant bank 40 of the kernel parameters "
                    "(machine.params_bank) is outside 0..31");
    m->machine.params_bank = 2;
    irb b = {m, &m->funcs[0]};
    uint32_t v = irb_var(&b, "table", IR_SPACE_CONST, 16);
    m->vars[v].const_bank = 2;
    expect_rejected(m, "EXEC-CONST-002", "variable table is in constant bank 2, which the launch "
                    "fills with the kernel parameters (machine.params_in_bank)");
    m->vars[v].const_bank = 0;
    expect_rejected(m, "EXEC-CONST-002", "variable table is in constant bank 0, which the launch "
                    "fills with the launch constants (machine.params_in_bank)");
    m->vars[v].const_bank = 1; /* the module's own bank */
    exec_program_destroy(create(m));
    ir_module_destroy(m);
}

/* ---- glue ---- */

enum { GLUE_SASS = 31 };

/* LDC.64, MOV R2 0, 27 IADDs (the odd ones add c[0][0x150] through a glue load before them; the
 * one at SASS index 6 has a glue mov after it), STG, EXIT: 31 SASS instructions and 15 glue. */
static ir_module *glue_kernel(void)
{
    irb b;
    sass_module(&b);
    uint8_t serves_previous[IRB_MAX_INSNS] = {0};
    ld32(&b, IR_SPACE_CONST, 0, 2, addr_const(0, PARAMS));
    mov(&b, 2, irb_imm(0));
    for (unsigned k = 1; k <= 27; k++) {
        if (k % 2) {
            glue(ld32(&b, IR_SPACE_CONST, 20, 1, addr_const(0, PARAMS + 0x10)));
            alu(&b, IR_ADD, IR_T_U32, irb_r(2), irb_r(2), irb_r(20), none_opnd);
        } else {
            alu(&b, IR_ADD, IR_T_U32, irb_r(2), irb_r(2), irb_imm(1), none_opnd);
        }
        if (k == 5) {
            serves_previous[b.fn->ninsns] = 1;
            glue(mov(&b, 3, irb_r(2)));
        }
    }
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 0), 2, 1);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, serves_previous);
    assert_int_equal(b.m->ninsns_total, GLUE_SASS);
    assert_int_equal(b.fn->ninsns, GLUE_SASS + 15);
    return b.m;
}

static void test_glue_is_neither_counted_nor_fetched_alone(void **state)
{
    (void)state;
    ir_module *m = glue_kernel();
    run_out *o = calloc(1, sizeof *o);
    /* With the limit met exactly, the round runs serially (exec_window.c serial_round); without
     * one, in phases, on one and on two host threads: the same counts every way. */
    static const struct { uint64_t limit; uint32_t threads; } ways[] = {
        {GLUE_SASS, 1}, {0, 1}, {0, 2}};
    run_opts ro = {.block = 32, .x = 1000};
    for (unsigned way = 0; way < sizeof ways / sizeof ways[0]; way++) {
        ro.max_insns = ways[way].limit;
        ro.threads = ways[way].threads;
        run(m, &ro, o);
        assert_int_equal(o->rc, 0);
        assert_int_equal(o->words[0], 14 * 1000 + 13);
        assert_int_equal(o->stats.warp_instructions, GLUE_SASS);
        assert_int_equal(o->stats.thread_instructions, GLUE_SASS * 32);
        for (unsigned id = 0; id < GLUE_SASS; id++) {
            assert_int_equal(o->counts[id], 1);
            /* 8-byte instructions behind a control word per 3: 12 SASS instructions per
             * 128-byte line, so the lines start at SASS instructions 0, 12 and 24, glue or not
             * before them */
            assert_int_equal(o->mc[id].icache.fetches, id % 12 == 0);
        }
    }
    /* the instruction budget counts SASS instructions only */
    ro.threads = 1;
    ro.max_insns = GLUE_SASS - 1;
    run(m, &ro, o);
    assert_int_equal(o->rc, 1);
    assert_string_equal(o->fault.rule, "EXEC-LIMIT-001");
    assert_int_equal(o->fault.insn_id, GLUE_SASS - 1);
    free(o);
    ir_module_destroy(m);
}

/* ---- addresses, register pairs, wide accesses ---- */

static void test_addresses_and_wide_accesses(void **state)
{
    (void)state;
    irb b;
    sass_module(&b);
    ld32(&b, IR_SPACE_CONST, 0, 2, addr_const(0, PARAMS));        /* R0:R1 = out */
    ld32(&b, IR_SPACE_CONST, 6, 2, addr_const(0, PARAMS + 8));    /* R6:R7 = out - 16 */
    /* shared: [R3 + 0x14] with R3 = 0xFFFFFFF0 is offset 4 */
    mov(&b, 3, irb_imm(0xFFFFFFF0));
    mov(&b, 4, irb_imm(0x1234));
    st32(&b, IR_SPACE_SHARED, irb_addr_reg(3, 0x14), 4, 1);
    ld32(&b, IR_SPACE_SHARED, 5, 1, addr_const(0, 4))->src[0].bank = 0;
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 0), 5, 1);
    /* a pair base whose low word carries into the high one: (out - 16) + 20 = out + 4 */
    st32(&b, IR_SPACE_GLOBAL, addr_pair(6, 20), 4, 1);
    /* 64 bits through {R8, R9}, 128 through {R8..R11} and back into {R12..R15} */
    mov(&b, 8, irb_imm(0x11111111));
    mov(&b, 9, irb_imm(0x22222222));
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 8), 8, 2);
    ld32(&b, IR_SPACE_GLOBAL, 10, 2, addr_pair(0, 8));            /* R10:R11 = R8:R9 */
    alu(&b, IR_ADD, IR_T_U32, irb_r(10), irb_r(10), irb_imm(2), none_opnd);
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 16), 8, 4);
    ld32(&b, IR_SPACE_GLOBAL, 12, 4, addr_pair(0, 16));
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 32), 12, 4);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, NULL);
    run_out *o = calloc(1, sizeof *o);
    run_opts ro = {.block = 32, .dyn_shared = 64};
    run(b.m, &ro, o);
    if (o->rc)
        fprintf(stderr, "%s: %s\n", o->fault.rule, o->fault.message);
    assert_int_equal(o->rc, 0);
    assert_int_equal(o->words[0], 0x1234);
    assert_int_equal(o->words[1], 0x1234);
    assert_int_equal(o->words[2], 0x11111111);
    assert_int_equal(o->words[3], 0x22222222);
    const uint32_t quad[4] = {0x11111111, 0x22222222, 0x11111113, 0x22222222};
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(o->words[4 + i], quad[i]);
        assert_int_equal(o->words[8 + i], quad[i]);
    }
    free(o);
    ir_module_destroy(b.m);
}

/* A single 32-bit base register is 32-bit arithmetic in the global space too: the fault names
 * the wrapped address. */
static void test_single_register_base_wraps_in_every_space(void **state)
{
    (void)state;
    irb b;
    sass_module(&b);
    mov(&b, 3, irb_imm(0xFFFFFFF0));
    st32(&b, IR_SPACE_GLOBAL, irb_addr_reg(3, 0x20), 3, 1);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, NULL);
    run_out *o = calloc(1, sizeof *o);
    run_opts ro = {.block = 32};
    run(b.m, &ro, o);
    assert_int_equal(o->rc, 1);
    assert_string_equal(o->fault.rule, "EXEC-MEM-001");
    if (!strstr(o->fault.message, "at address 0x10:"))
        fprintf(stderr, "%s\n", o->fault.message);
    assert_non_null(strstr(o->fault.message, "at address 0x10:"));
    free(o);
    ir_module_destroy(b.m);
}

/* ---- xmad ---- */

/* The lane-wise reference of xmad (docs/semantics.md). */
static uint32_t xmad_ref(uint32_t a, uint32_t b, uint32_t c, uint32_t mods)
{
    uint32_t x = (mods & IR_MOD_H1A) ? a >> 16 : a & 0xFFFF;
    uint32_t y = (mods & IR_MOD_H1B) ? b >> 16 : b & 0xFFFF;
    uint32_t p = x * y;
    if (mods & IR_MOD_PSL)
        p <<= 16;
    if (mods & IR_MOD_CBCC)
        c += b << 16;
    uint32_t d = p + c;
    return (mods & IR_MOD_MRG) ? (d & 0xFFFF) | (b << 16) : d;
}

static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* 32 lanes of xmad with `mods` on a, b, c. */
static void xmad_lanes(uint32_t mods, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                       uint64_t *d)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = IR_XMAD;
    in.type = IR_T_U32;
    in.mods = mods;
    in.nsrc = 3;
    alu_fn fn = alu_lookup(&in);
    assert_non_null(fn);
    alu_args args = {{a, b, c, NULL}, d, NULL, NULL, NULL};
    fn(&in, &args);
}

static void test_xmad(void **state)
{
    (void)state;
    static const uint32_t edge[] = {0, 1, 0xFFFF, 0x10000, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF,
                                    0x12345678, 0xFFFF0000, 0x0000FFFF};
    uint64_t seed = 9, a[ALU_LANES], b[ALU_LANES], c[ALU_LANES], d[ALU_LANES];
    uint64_t t[ALU_LANES], u[ALU_LANES], z[ALU_LANES] = {0};
    for (unsigned round = 0; round < 400; round++) {
        for (unsigned l = 0; l < ALU_LANES; l++) {
            a[l] = round < 10 ? edge[(round + l) % 10] : lcg(&seed);
            b[l] = round < 10 ? edge[(l * 3 + round) % 10] : lcg(&seed);
            c[l] = lcg(&seed);
        }
        for (uint32_t k = 0; k < 32; k++) { /* every combination of the five modifiers */
            uint32_t mods = ((k & 1) ? IR_MOD_H1A : 0) | ((k & 2) ? IR_MOD_H1B : 0) |
                            ((k & 4) ? IR_MOD_PSL : 0) | ((k & 8) ? IR_MOD_MRG : 0) |
                            ((k & 16) ? IR_MOD_CBCC : 0);
            xmad_lanes(mods, a, b, c, d);
            for (unsigned l = 0; l < ALU_LANES; l++)
                assert_int_equal(d[l], xmad_ref((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], mods));
        }
        /* the three-XMAD multiply: t = a*b_lo; u = a*b_hi merged; d = a_hi*u_hi << 16 + ... */
        xmad_lanes(0, a, b, z, t);
        xmad_lanes(IR_MOD_H1B | IR_MOD_MRG, a, b, z, u);
        xmad_lanes(IR_MOD_H1A | IR_MOD_H1B | IR_MOD_PSL | IR_MOD_CBCC, a, u, t, d);
        for (unsigned l = 0; l < ALU_LANES; l++)
            assert_int_equal(d[l], (uint32_t)(a[l] * b[l]));
    }
    ir_insn bad;
    memset(&bad, 0, sizeof bad);
    bad.op = IR_XMAD;
    bad.type = IR_T_S32;
    assert_null(alu_lookup(&bad));
}

/* ---- the extended comparison (ISETP.X) and 64-bit adds through the carry ---- */

static void setp_x_lanes(ir_type t, ir_cmp cmp, const uint64_t *a, const uint64_t *b,
                         const uint64_t *carry, uint64_t *p, uint64_t *q)
{
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = IR_SETP;
    in.type = (uint8_t)t;
    in.cmp = (uint8_t)cmp;
    in.nsrc = 2;
    in.flag_in = IR_FLAG_CARRY;
    alu_fn fn = alu_lookup(&in);
    assert_non_null(fn);
    alu_args args = {{a, b, NULL, NULL}, p, q, carry, NULL};
    fn(&in, &args);
}

static void test_extended_comparison(void **state)
{
    (void)state;
    static const uint32_t edge[] = {0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE,
                                    0xFFFFFFFF};
    uint64_t seed = 77, ahi[ALU_LANES], bhi[ALU_LANES], carry[ALU_LANES], p[ALU_LANES],
             q[ALU_LANES];
    uint64_t alo[ALU_LANES], blo[ALU_LANES];
    for (unsigned round = 0; round < 2000; round++) {
        for (unsigned l = 0; l < ALU_LANES; l++) {
            unsigned k = round * ALU_LANES + l;
            int edgy = round < 128;
            ahi[l] = edgy ? edge[k % 8] : lcg(&seed) >> (round % 3 ? 0 : 30);
            bhi[l] = edgy ? edge[(k / 8) % 8] : (round % 2 ? ahi[l] : lcg(&seed));
            alo[l] = edgy ? edge[(k / 64) % 8] : lcg(&seed) >> (round % 5 ? 0 : 31);
            blo[l] = edgy ? edge[(k / 512 + l) % 8] : (round % 7 ? lcg(&seed) : alo[l]);
            /* IADD RZ.CC, alo, -blo: the carry out of alo + ~blo + 1, i.e. no borrow */
            carry[l] = alo[l] >= blo[l];
        }
        static const struct { ir_type t; ir_cmp cmp; } cases[] = {
            {IR_T_U32, IR_CMP_LT}, {IR_T_U32, IR_CMP_GE}, {IR_T_S32, IR_CMP_LT},
            {IR_T_S32, IR_CMP_GE}, {IR_T_S32, IR_CMP_LO}, {IR_T_S32, IR_CMP_HS}};
        for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            setp_x_lanes(cases[c].t, cases[c].cmp, ahi, bhi, carry, p, q);
            int sgn = cases[c].t == IR_T_S32 && cases[c].cmp <= IR_CMP_GE;
            int ge = cases[c].cmp == IR_CMP_GE || cases[c].cmp == IR_CMP_HS;
            for (unsigned l = 0; l < ALU_LANES; l++) {
                uint64_t ua = ahi[l] << 32 | alo[l], ub = bhi[l] << 32 | blo[l];
                int lt = sgn ? (int64_t)ua < (int64_t)ub : ua < ub;
                assert_int_equal(p[l], (uint64_t)(lt ^ ge));
                assert_int_equal(q[l], (uint64_t)!(lt ^ ge));
            }
        }
    }
    /* equality and the other orderings would need a zero flag: refused */
    ir_insn in;
    memset(&in, 0, sizeof in);
    in.op = IR_SETP;
    in.type = IR_T_U32;
    in.cmp = IR_CMP_EQ;
    in.flag_in = IR_FLAG_CARRY;
    assert_null(alu_lookup(&in));
    in.cmp = IR_CMP_LT;
    in.type = IR_T_U64;
    assert_null(alu_lookup(&in));
    in.type = IR_T_U32;
    in.flag_out = IR_FLAG_CARRY;
    assert_null(alu_lookup(&in));
}

/* The whole sequence in a kernel: per thread t, a = in[4t..4t+1] and b = in[4t+2..4t+3] as 64-bit
 * values; out[2048 + 8t ..] gets a + b (IADD.CC, IADD.X), then from its fifth word a < b and
 * a >= b unsigned and signed (IADD RZ.CC with the carry of alo + ~blo + 1, then ISETP.LT/GE.X on the high words). */
static void test_64_bit_arithmetic_in_a_kernel(void **state)
{
    (void)state;
    irb b;
    sass_module(&b);
    ld32(&b, IR_SPACE_CONST, 0, 2, addr_const(0, PARAMS));
    alu(&b, IR_MOV, IR_T_U32, irb_r(2), irb_sreg(IR_SREG_TID_X), none_opnd, none_opnd);
    index_pair(&b, 4, 0, 2, 4);                                    /* R4:R5 = &in[4t] */
    ld32(&b, IR_SPACE_GLOBAL, 8, 4, addr_pair(4, 0));              /* R8..R11 = alo ahi blo bhi */
    alu(&b, IR_ADD, IR_T_U32, irb_r(12), irb_r(8), irb_r(10), none_opnd)->flag_out = 1;
    alu(&b, IR_ADD, IR_T_U32, irb_r(13), irb_r(9), irb_r(11), none_opnd)->flag_in = 1;
    /* IADD RZ.CC, alo, -blo: glue not, glue carry := 1, then alo + ~blo + carry */
    glue(alu(&b, IR_NOT, IR_T_B32, irb_r(21), irb_r(10), none_opnd, none_opnd));
    glue(alu(&b, IR_ADD, IR_T_U32, irb_r(22), irb_imm(0xFFFFFFFF), irb_imm(1), none_opnd))
        ->flag_out = 1;
    ir_insn *cc = alu(&b, IR_ADD, IR_T_U32, irb_r(22), irb_r(8), irb_r(21), none_opnd);
    cc->flag_in = cc->flag_out = 1;
    static const struct { ir_type t; ir_cmp cmp; } cmps[] = {
        {IR_T_U32, IR_CMP_LT}, {IR_T_U32, IR_CMP_GE}, {IR_T_S32, IR_CMP_LT},
        {IR_T_S32, IR_CMP_GE}};
    for (unsigned c = 0; c < 4; c++) {
        ir_insn *s = alu(&b, IR_SETP, cmps[c].t, irb_p(c), irb_r(9), irb_r(11), none_opnd);
        s->cmp = (uint8_t)cmps[c].cmp;
        s->flag_in = 1;
        alu(&b, IR_SELP, IR_T_B32, irb_r(14 + c), irb_imm(1), irb_imm(0), irb_p(c));
    }
    alu(&b, IR_ADD, IR_T_U32, irb_r(2), irb_r(2), irb_imm(256), none_opnd); /* word 2048 */
    index_pair(&b, 4, 0, 2, 5);                                    /* R4:R5 = &out[8t] */
    st32(&b, IR_SPACE_GLOBAL, addr_pair(4, 0), 12, 2);
    st32(&b, IR_SPACE_GLOBAL, addr_pair(4, 16), 14, 4);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, NULL);
    uint32_t *init = calloc(BUF_WORDS, sizeof *init);
    static const uint32_t edge[] = {0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF};
    uint64_t seed = 5;
    for (unsigned t = 0; t < 256; t++)
        for (unsigned w = 0; w < 4; w++)
            init[4 * t + w] = t < 125 ? edge[(t / (w == 0 ? 1 : w == 1 ? 5 : w == 2 ? 25 : 1)) %
                                             5]
                                      : (t % 3 == 0 && w >= 2) ? init[4 * t + w - 2]
                                                               : lcg(&seed);
    run_out *o = calloc(1, sizeof *o);
    run_opts ro = {.block = 256, .init = init};
    run(b.m, &ro, o);
    if (o->rc)
        fprintf(stderr, "%s: %s\n", o->fault.rule, o->fault.message);
    assert_int_equal(o->rc, 0);
    for (unsigned t = 0; t < 256; t++) {
        uint64_t x = init[4 * t] | (uint64_t)init[4 * t + 1] << 32;
        uint64_t y = init[4 * t + 2] | (uint64_t)init[4 * t + 3] << 32;
        const uint32_t *r = &o->words[2048 + 8 * t];
        assert_int_equal(r[0] | (uint64_t)r[1] << 32, x + y);
        assert_int_equal(r[4], x < y);
        assert_int_equal(r[5], x >= y);
        assert_int_equal(r[6], (int64_t)x < (int64_t)y);
        assert_int_equal(r[7], (int64_t)x >= (int64_t)y);
    }
    free(o);
    free(init);
    ir_module_destroy(b.m);
}

/* ---- cctl and depbar ---- */

static ir_insn *cctl(irb *b, ir_cctl op, uint8_t levels, int all, ir_operand a)
{
    ir_insn *in = irb_op(b, IR_CCTL, IR_T_NONE);
    if (!all)
        irb_src(in, 0, a);
    in->mem.cctl = (uint8_t)op;
    in->mem.cctl_levels = levels;
    in->mem.cctl_all = (uint8_t)all;
    in->mem.space = IR_SPACE_GENERIC;
    return in;
}

/* Reads c[0][0x150] twice with `between` (or nothing) between the reads; returns the second
 * read's constant-cache misses. */
static uint64_t second_read_misses(int with_cctl)
{
    irb b;
    sass_module(&b);
    ld32(&b, IR_SPACE_CONST, 2, 1, addr_const(0, PARAMS + 0x10));     /* id 0 */
    irb_op(&b, IR_DEPBAR, IR_T_NONE);                                  /* id 1 */
    if (with_cctl) /* CCTL.C.IVALL */
        cctl(&b, IR_CCTL_INVALIDATE, IR_LEVEL_CONST_L1, 1, none_opnd);
    else
        irb_op(&b, IR_DEPBAR, IR_T_NONE);
    ld32(&b, IR_SPACE_CONST, 3, 1, addr_const(0, PARAMS + 0x10));     /* id 3 */
    ld32(&b, IR_SPACE_CONST, 0, 2, addr_const(0, PARAMS));
    /* CCTL.E.IV on the buffer's line, CCTLL.IV [R8 + 0] on a local line, CCTL.IVALL */
    cctl(&b, IR_CCTL_INVALIDATE, IR_LEVEL_L1 | IR_LEVEL_L2, 0, addr_pair(0, 0));
    mov(&b, 8, irb_imm(0));
    cctl(&b, IR_CCTL_INVALIDATE, IR_LEVEL_L1, 0, irb_addr_reg(8, 0))->mem.space = IR_SPACE_LOCAL;
    cctl(&b, IR_CCTL_INVALIDATE, IR_LEVEL_L1, 1, none_opnd)->mem.cctl_lines = IR_LINES_GLOBAL;
    alu(&b, IR_ADD, IR_T_U32, irb_r(2), irb_r(2), irb_r(3), none_opnd);
    st32(&b, IR_SPACE_GLOBAL, addr_pair(0, 0), 2, 1);
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, NULL);
    run_out *o = calloc(1, sizeof *o);
    run_opts ro = {.block = 32, .x = 21};
    run(b.m, &ro, o);
    if (o->rc)
        fprintf(stderr, "%s: %s\n", o->fault.rule, o->fault.message);
    assert_int_equal(o->rc, 0);
    assert_int_equal(o->words[0], 42);
    assert_int_equal(o->stats.warp_instructions, b.fn->ninsns);
    uint64_t misses = o->mc[3].constant.misses;
    assert_int_equal(o->mc[0].constant.misses, 1);
    free(o);
    ir_module_destroy(b.m);
    return misses;
}

static void test_cctl_and_depbar(void **state)
{
    (void)state;
    assert_int_equal(second_read_misses(0), 0);
    assert_int_equal(second_read_misses(1), 1);
}

/* CCTLL.CRS.WBALL: the call-return stack's cache is not modelled yet, and says so. */
static void test_cctl_of_the_crs_level_is_not_modelled(void **state)
{
    (void)state;
    irb b;
    sass_module(&b);
    ir_insn *in = cctl(&b, IR_CCTL_WRITEBACK, IR_LEVEL_CRS, 1, none_opnd);
    in->mem.space = IR_SPACE_LOCAL;
    in->mem.cctl_lines = IR_LINES_LOCAL;
    irb_op(&b, IR_EXIT, IR_T_NONE);
    finish(&b, NULL);
    run_out *o = calloc(1, sizeof *o);
    run_opts ro = {.block = 32};
    run(b.m, &ro, o);
    assert_int_equal(o->rc, 1);
    assert_string_equal(o->fault.rule, "EXEC-MEM-001");
    if (!strstr(o->fault.message, "the call-return stack has no modelled cache"))
        fprintf(stderr, "%s\n", o->fault.message);
    assert_non_null(strstr(o->fault.message, "call-return stack write-back"));
    assert_non_null(strstr(o->fault.message, "the call-return stack has no modelled cache"));
    free(o);
    ir_module_destroy(b.m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameters_and_launch_constants),
        cmocka_unit_test(test_parameter_bank_is_the_launchs),
        cmocka_unit_test(test_glue_is_neither_counted_nor_fetched_alone),
        cmocka_unit_test(test_addresses_and_wide_accesses),
        cmocka_unit_test(test_single_register_base_wraps_in_every_space),
        cmocka_unit_test(test_xmad),
        cmocka_unit_test(test_extended_comparison),
        cmocka_unit_test(test_64_bit_arithmetic_in_a_kernel),
        cmocka_unit_test(test_cctl_and_depbar),
        cmocka_unit_test(test_cctl_of_the_crs_level_is_not_modelled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

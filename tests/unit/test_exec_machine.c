/* Unit tests of the machine a module describes (ir.h, ir_machine) and how the executor honours
 * it: PTX's values as the front-end fills them; register-file shapes, flags, calling conventions
 * and instruction layouts the executor rejects by name; condition flags named by the IR; fetch
 * addresses from the instruction size and control words; system calls marked by the front-end,
 * not recognised by name; constant banks c[bank][offset]; 64 bytes per lane through ld and st.
 * Each kernel is parsed from PTX and its IR then changed by hand where a test needs IR that PTX
 * cannot express. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/gpu_config.h"
#include "exec/exec.h"
#include "mem/memsys.h"
#include "ptx/ptx.h"
#include "sim/sim.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

enum { BUF_BYTES = 4096 };

/* One run of a kernel with a single u64 parameter pointing at a BUF_BYTES buffer that starts as
 * `init` (NULL: zeros), on a 2-SM h100-shaped memory system. The memory system stays open so
 * that tests can read its per-instruction counters. */
typedef struct run_out {
    int rc;
    exec_fault fault;
    char *printf_text;
    uint8_t buf[BUF_BYTES];
    memsys *ms;
} run_out;

static ir_module *parse(const char *ptx)
{
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module("t.ptx", ptx, strlen(ptx), &dl);
    if (!m)
        diag_list_print(&dl, stderr);
    assert_non_null(m);
    diag_list_fini(&dl);
    return m;
}

static void run(const ir_module *m, uint32_t threads, const uint8_t *init, run_out *o)
{
    diag_list dl;
    diag_list_init(&dl);
    exec_program *p = exec_program_create(m, &dl);
    if (!p)
        diag_list_print(&dl, stderr);
    assert_non_null(p);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 2;
    o->ms = memsys_create(&cfg, &dl);
    assert_non_null(o->ms);
    assert_int_equal(memsys_set_insn_count(o->ms, m->ninsns_total), 0);
    uint64_t buf;
    assert_int_equal(memsys_alloc(o->ms, BUF_BYTES, 256, &buf), 0);
    if (init)
        assert_int_equal(memsys_host_write(o->ms, buf, init, BUF_BYTES), 0);
    exec_machine mach = {.sm_count = 2, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = 256};
    exec_launch L = {.entry = ir_module_find_func(m, "k"), .grid = {1, 1, 1},
                     .block = {threads, 1, 1}, .params = (const uint8_t *)&buf,
                     .params_bytes = 8, .max_warp_instructions = 100000};
    assert_true(L.entry >= 0);
    exec_stats stats = {0};
    o->printf_text = NULL;
    o->rc = exec_run(p, o->ms, &mach, &L, &stats, &o->fault, &o->printf_text);
    assert_int_equal(memsys_finish(o->ms), 0);
    assert_int_equal(memsys_host_read(o->ms, buf, o->buf, BUF_BYTES), 0);
    exec_program_destroy(p);
    diag_list_fini(&dl);
}

static void run_close(run_out *o)
{
    memsys_destroy(o->ms);
    free(o->printf_text);
}

/* exec_program_create must refuse `m` with `rule`, at (line, col), with a message containing
 * `words`. */
static void expect_rejected(const ir_module *m, const char *rule, unsigned line, unsigned col,
                            const char *words)
{
    diag_list dl;
    diag_list_init(&dl);
    exec_program *p = exec_program_create(m, &dl);
    assert_null(p);
    const diag *d = diag_find(&dl, rule);
    if (!d)
        diag_list_print(&dl, stderr);
    assert_non_null(d);
    assert_int_equal(d->line, line);
    assert_int_equal(d->col, col);
    if (!strstr(d->message, words))
        fprintf(stderr, "message: %s\n", d->message);
    assert_non_null(strstr(d->message, words));
    diag_list_fini(&dl);
}

static ir_func *func(ir_module *m, const char *name)
{
    int f = ir_module_find_func(m, name);
    assert_true(f >= 0);
    return &m->funcs[f];
}

/* The n-th instruction (0-based) of `fn` with opcode `op`. */
static ir_insn *nth_insn(ir_func *fn, ir_opcode op, unsigned n)
{
    for (uint32_t i = 0; i < fn->ninsns; i++)
        if (fn->insns[i].op == op && n-- == 0)
            return &fn->insns[i];
    fail_msg("no instruction %s #%u", ir_opcode_name(op), n);
    return NULL;
}

static uint32_t reg_number(const ir_func *fn, const char *name)
{
    for (uint32_t r = 0; r < fn->nregs; r++)
        if (fn->reg_names[r] && strcmp(fn->reg_names[r], name) == 0)
            return r;
    fail_msg("no register %s", name);
    return 0;
}

static uint32_t word(const run_out *o, uint32_t i)
{
    uint32_t v;
    memcpy(&v, o->buf + 4 * i, 4);
    return v;
}

/* ---- PTX's machine ---- */

/* A 64-bit add from two 32-bit halves: lo = tid + 0xFFFFFFFF with carry out, hi = tid + carry.
 * Thread t stores {t - 1, t + (t >= 1)} at out[2t]. */
static const char carry_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "add.cc.u32 %r2, %r1, 0xFFFFFFFF;\naddc.u32 %r3, %r1, 0;\n"
    "st.global.v2.u32 [%rd3], {%r2, %r3};\nret;\n}\n";

static const char syscall_ptx[] = HEADER
    ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, "
    ".param .b64 vprintf_param_1);\n"
    ".extern .func __assertfail (.param .b64 a0, .param .b64 a1, .param .b32 a2, "
    ".param .b64 a3, .param .b64 a4);\n"
    ".extern .func helper (.param .b64 x);\n"
    ".global .align 1 .b8 $str[4] = {104, 105, 10, 0};\n"
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .b32 %r<3>;\n.reg .b64 %rd<4>;\n"
    "mov.u64 %rd1, $str;\ncvta.global.u64 %rd2, %rd1;\nmov.u64 %rd3, 0;\n"
    "{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd2;\n"
    ".param .b64 param1;\nst.param.b64 [param1+0], %rd3;\n.param .b32 retval0;\n"
    "call.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r1, [retval0+0];\n}\n"
    "ret;\n}\n";

static void test_ptx_fills_its_machine(void **state)
{
    (void)state;
    ir_module *m = parse(carry_ptx);
    const ir_machine *k = &m->machine;
    assert_int_equal(k->reg_count, 0);
    assert_int_equal(k->reg_bits, 0);
    assert_int_equal(k->reg_pairs, 0);
    assert_int_equal(k->has_zero_reg, 0);
    assert_int_equal(k->flag_count, 1);
    assert_int_equal(k->insn_bytes, 16);
    assert_int_equal(k->ctrl_group, 0);
    assert_int_equal(k->call_conv, IR_CALL_PARAM_FRAME);
    ir_func *fn = func(m, "k");
    const ir_insn *lo = nth_insn(fn, IR_ADD, 1), *hi = nth_insn(fn, IR_ADD, 2);
    assert_int_equal(lo->flag_out, IR_FLAG_CARRY);
    assert_int_equal(lo->flag_in, IR_FLAG_NONE);
    assert_int_equal(hi->flag_in, IR_FLAG_CARRY);
    assert_int_equal(hi->flag_out, IR_FLAG_NONE);
    assert_int_equal(nth_insn(fn, IR_ADD, 0)->flag_out, IR_FLAG_NONE); /* add.s64 */
    ir_module_destroy(m);

    m = parse(syscall_ptx);
    assert_int_equal(func(m, "vprintf")->syscall, IR_SYSCALL_VPRINTF);
    assert_int_equal(func(m, "__assertfail")->syscall, IR_SYSCALL_ASSERTFAIL);
    assert_int_equal(func(m, "helper")->syscall, IR_SYSCALL_NONE);
    assert_int_equal(func(m, "k")->syscall, IR_SYSCALL_NONE);
    ir_module_destroy(m);
}

static void expect_carry_values(const run_out *o, int carried)
{
    assert_int_equal(o->rc, 0);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(word(o, 2 * t), t - 1u);
        assert_int_equal(word(o, 2 * t + 1), t + (carried && t >= 1));
    }
}

/* ---- register file shape ---- */

static void test_register_shapes(void **state)
{
    (void)state;
    ir_module *m = parse(carry_ptx);
    unsigned line = m->target_line, col = m->target_col;
    assert_int_equal(line, 2);
    m->machine.reg_bits = 16;
    expect_rejected(m, "EXEC-UNSUP-005", line, col, "16-bit registers (machine.reg_bits)");
    m->machine.reg_bits = 64; /* 64-bit registers are what the executor holds */
    run_out o;
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 1);
    run_close(&o);
    m->machine.reg_pairs = 1;
    expect_rejected(m, "EXEC-UNSUP-005", line, col, "register pairs and quads (machine.reg_pairs) "
                    "are modelled only for 32-bit registers");
    /* 32-bit registers (in pairs): each keeps a slot of its own; the same values */
    m->machine.reg_bits = 32;
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 1);
    run_close(&o);
    m->machine.reg_bits = 64;
    m->machine.reg_pairs = 0;
    m->machine.has_zero_reg = 1;
    m->machine.zero_reg = 255;
    expect_rejected(m, "EXEC-UNSUP-005", line, col,
                    "zero register (machine.zero_reg, register 255)");
    m->machine.has_zero_reg = 0;
    ir_func *fn = func(m, "k");
    m->machine.reg_count = fn->nregs - 1;
    char words[96];
    snprintf(words, sizeof words, "function k uses %u registers, more than the %u of the machine "
             "(machine.reg_count)", fn->nregs, fn->nregs - 1);
    expect_rejected(m, "EXEC-REG-001", fn->line, fn->col, words);
    m->machine.reg_count = fn->nregs; /* a register file just large enough */
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 1);
    run_close(&o);
    ir_module_destroy(m);
}

/* ---- condition flags ---- */

static void test_flags_are_named_state(void **state)
{
    (void)state;
    ir_module *m = parse(carry_ptx);
    ir_func *fn = func(m, "k");
    ir_insn *lo = nth_insn(fn, IR_ADD, 1), *hi = nth_insn(fn, IR_ADD, 2);
    run_out o;
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 1);
    run_close(&o);
    /* The carry moved to a second flag: the same values. */
    m->machine.flag_count = 2;
    lo->flag_out = hi->flag_in = 2;
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 1);
    run_close(&o);
    /* addc reads flag 1, which nothing wrote: no carry reaches the high half. */
    hi->flag_in = 1;
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 0);
    run_close(&o);
    /* Without PTX's .cc spelling the flags alone carry (as a SASS front-end would say it). */
    hi->flag_in = 2;
    lo->mods &= ~(uint32_t)IR_MOD_CC;
    hi->mods &= ~(uint32_t)IR_MOD_CARRY_IN;
    run(m, 32, NULL, &o);
    expect_carry_values(&o, 1);
    run_close(&o);
    /* A flag the machine does not have, and more flags than the executor holds. */
    lo->flag_out = 3;
    expect_rejected(m, "EXEC-UNSUP-006", lo->line, lo->col,
                    "add names condition flag 3, but the machine has 2 (machine.flag_count)");
    lo->flag_out = 2;
    m->machine.flag_count = 5;
    expect_rejected(m, "EXEC-UNSUP-006", m->target_line, m->target_col,
                    "5 condition flags (machine.flag_count) are more than the 4");
    /* .cc that names no flag is refused, not run without its carry. */
    m->machine.flag_count = 1;
    lo->mods |= IR_MOD_CC;
    lo->flag_out = IR_FLAG_NONE;
    hi->flag_in = 1;
    expect_rejected(m, "EXEC-UNSUP-001", lo->line, lo->col, "does not implement add");
    ir_module_destroy(m);
}

/* ---- calling convention ---- */

static void test_call_return_stack_sizes(void **state)
{
    (void)state;
    ir_module *m = parse(carry_ptx);
    /* The call-return stack is modelled (exec_crs.c) when its sizes are ones it holds. */
    m->machine.call_conv = IR_CALL_RETURN_STACK;
    expect_rejected(m, "EXEC-CRS-004", m->target_line, m->target_col,
                    "a call-return stack of 0 entries per thread (machine.crs_max)");
    m->machine.crs_max = 65537;
    expect_rejected(m, "EXEC-CRS-004", m->target_line, m->target_col, "holds 1 to 65536");
    m->machine.crs_max = 65536;
    m->machine.crs_cached = 16;
    diag_list dl;
    diag_list_init(&dl);
    exec_program *p = exec_program_create(m, &dl);
    assert_non_null(p);
    exec_program_destroy(p);
    diag_list_fini(&dl);
    m->machine.call_conv = 7;
    expect_rejected(m, "EXEC-UNSUP-007", m->target_line, m->target_col,
                    "calling convention 7 (machine.call_conv)");
    ir_module_destroy(m);
}

/* ---- system calls ---- */

static void test_syscalls_are_marked_not_named(void **state)
{
    (void)state;
    ir_module *m = parse(syscall_ptx);
    run_out o;
    run(m, 1, NULL, &o);
    assert_int_equal(o.rc, 0);
    assert_string_equal(o.printf_text, "hi\n");
    run_close(&o);
    /* Whatever its name, the function the front-end marked is the machine's printf. */
    ir_func *vp = func(m, "vprintf");
    vp->name = "print_it";
    run(m, 1, NULL, &o);
    assert_string_equal(o.printf_text, "hi\n");
    run_close(&o);
    /* Named vprintf but not marked: an external function gpumemsim does not provide. */
    vp->name = "vprintf";
    vp->syscall = IR_SYSCALL_NONE;
    const ir_insn *call = nth_insn(func(m, "k"), IR_CALL, 0);
    expect_rejected(m, "EXEC-EXTERN-001", call->line, call->col,
                    "external function 'vprintf', which gpumemsim does not provide");
    vp->syscall = IR_SYSCALL_COUNT;
    expect_rejected(m, "EXEC-EXTERN-001", call->line, call->col, "'vprintf'");
    ir_module_destroy(m);

    static const char other_ptx[] = HEADER
        ".extern .func helper (.param .b64 x);\n"
        ".visible .entry k(.param .u64 p0)\n{\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [p0];\n"
        "{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n"
        "call.uni helper, (param0);\n}\nret;\n}\n";
    m = parse(other_ptx);
    call = nth_insn(func(m, "k"), IR_CALL, 0);
    assert_int_equal(call->line, 12);
    expect_rejected(m, "EXEC-EXTERN-001", call->line, call->col,
                    "call to external function 'helper', which gpumemsim does not provide (its "
                    "system calls are vprintf, __assertfail, malloc and free)");
    ir_module_destroy(m);

    /* malloc and free are the heap's system calls only with the signature nvcc declares them
     * with (one .b64 argument; malloc returns a .b64): a free that returns a value is an
     * ordinary external function. */
    static const char heap_ptx[] = HEADER
        ".extern .func (.param .b64 r) malloc (.param .b64 n);\n"
        ".extern .func (.param .b32 r) free (.param .b64 p);\n"
        ".visible .entry k(.param .u64 p0)\n{\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [p0];\n"
        "{\n.param .b64 param0;\n.param .b32 ret0;\nst.param.b64 [param0+0], %rd1;\n"
        "call.uni (ret0), free, (param0);\n}\nret;\n}\n";
    m = parse(heap_ptx);
    assert_int_equal(func(m, "malloc")->syscall, IR_SYSCALL_MALLOC);
    assert_int_equal(func(m, "free")->syscall, IR_SYSCALL_NONE);
    call = nth_insn(func(m, "k"), IR_CALL, 0);
    expect_rejected(m, "EXEC-EXTERN-001", call->line, call->col, "'free'");
    ir_module_destroy(m);
}

/* ---- instruction layout ---- */

enum { STRAIGHT_INSNS = 40 };

/* One warp runs STRAIGHT_INSNS instructions in a row; returns in *fetched a bit mask of the
 * instructions (by index) that fetched an instruction-cache line. */
static void run_straight(ir_module *m, uint64_t *fetched)
{
    run_out o;
    run(m, 32, NULL, &o);
    assert_int_equal(o.rc, 0);
    const ir_func *fn = func(m, "k");
    assert_int_equal(fn->ninsns, STRAIGHT_INSNS);
    const mem_counters *c = memsys_insn_counters(o.ms);
    *fetched = 0;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
        uint64_t f = c[fn->insns[i].id].icache.fetches;
        assert_true(f <= 1);
        *fetched |= f << i;
    }
    run_close(&o);
}

static uint64_t every(unsigned step)
{
    uint64_t mask = 0;
    for (unsigned i = 0; i < STRAIGHT_INSNS; i += step) mask |= 1ull << i;
    return mask;
}

static void test_fetch_addresses_follow_the_layout(void **state)
{
    (void)state;
    char ptx[4096];
    int n = snprintf(ptx, sizeof ptx, HEADER ".visible .entry k(.param .u64 p0)\n{\n"
                                            ".reg .b32 %%r<2>;\nmov.u32 %%r1, 0;\n");
    for (int i = 0; i < STRAIGHT_INSNS - 2; i++)
        n += snprintf(ptx + n, sizeof ptx - (size_t)n, "add.u32 %%r1, %%r1, 1;\n");
    snprintf(ptx + n, sizeof ptx - (size_t)n, "ret;\n}\n");
    ir_module *m = parse(ptx);
    uint64_t fetched;
    /* A fetch whenever the warp enters another 128-byte line: with PTX's 16-byte instructions
     * every 8th instruction. */
    run_straight(m, &fetched);
    assert_int_equal(fetched, every(8));
    m->machine.insn_bytes = 8;
    run_straight(m, &fetched);
    assert_int_equal(fetched, every(16));
    m->machine.insn_bytes = 32;
    run_straight(m, &fetched);
    assert_int_equal(fetched, every(4));
    /* Maxwell: 8-byte instructions behind an 8-byte control word per 3; a 32-byte group, four
     * groups (12 instructions) per line. */
    m->machine.insn_bytes = 8;
    m->machine.ctrl_group = 3;
    m->machine.ctrl_bytes = 8;
    run_straight(m, &fetched);
    assert_int_equal(fetched, every(12));
    /* Kepler: one control word per 7: 64-byte groups, two per line. */
    m->machine.ctrl_group = 7;
    run_straight(m, &fetched);
    assert_int_equal(fetched, every(14));
    m->machine.insn_bytes = 0;
    expect_rejected(m, "EXEC-UNSUP-008", m->target_line, m->target_col,
                    "instructions of 0 bytes (machine.insn_bytes)");
    ir_module_destroy(m);
}

/* ---- constant banks ---- */

static const char const_ptx[] = HEADER
    ".const .align 4 .u32 c0[2] = {5, 6};\n"
    ".const .align 4 .u32 cdata[4] = {11, 22, 33, 44};\n"
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "ld.const.u32 %r1, [cdata+4];\n"
    "ld.const.u32 %r2, [c0+4];\n"
    "mov.u64 %rd2, cdata;\ncvta.const.u64 %rd3, %rd2;\nld.u32 %r3, [%rd3+8];\n"
    "ld.const.u32 %r4, [12];\n"
    "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\nret;\n}\n";

static void expect_words(const run_out *o, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3)
{
    assert_int_equal(o->rc, 0);
    assert_int_equal(word(o, 0), w0);
    assert_int_equal(word(o, 1), w1);
    assert_int_equal(word(o, 2), w2);
    assert_int_equal(word(o, 3), w3);
}

static void test_constant_bank_3(void **state)
{
    (void)state;
    ir_module *m = parse(const_ptx);
    ir_func *fn = func(m, "k");
    ir_insn *absolute = nth_insn(fn, IR_LD, 4); /* ld.const.u32 %r4, [12] */
    assert_int_equal(absolute->src[0].imm, 12);
    run_out o;
    /* Bank 0 holds c0 (bytes 0..7) and cdata (8..23): [12] is cdata[1]. */
    run(m, 1, NULL, &o);
    expect_words(&o, 22, 6, 33, 22);
    run_close(&o);
    /* cdata in bank 3 (its offset 0..15), c0 alone in bank 0; c[3][12] is cdata[3]. By name,
     * by generic address and by bank and offset. */
    m->vars[1].const_bank = 3;
    absolute->src[0].bank = 3;
    run(m, 1, NULL, &o);
    expect_words(&o, 22, 6, 33, 44);
    /* Each bank has its own constant-cache line: two misses, for bank 0 and bank 3. */
    const mem_counters *c = memsys_insn_counters(o.ms);
    assert_int_equal(c[nth_insn(fn, IR_LD, 1)->id].constant.misses, 1);
    assert_int_equal(c[nth_insn(fn, IR_LD, 2)->id].constant.misses, 1);
    assert_int_equal(c[nth_insn(fn, IR_LD, 3)->id].constant.hits, 1);
    assert_int_equal(c[absolute->id].constant.hits, 1);
    run_close(&o);
    ir_module_destroy(m);
}

/* A load by name whose lanes all read one address (h_ld_same, memsys_load_lane) faults as the
 * general path does, at its own instruction, and the parameter load before it went through. */
static void test_constant_by_name_fault(void **state)
{
    (void)state;
    ir_module *m = parse(const_ptx);
    ir_func *fn = func(m, "k");
    ir_insn *by_name = nth_insn(fn, IR_LD, 1); /* ld.const.u32 %r1, [cdata+4] */
    by_name->src[0].imm = 64;                  /* cdata (at 8) + 64: past bank 0's 24 bytes */
    run_out o;
    run(m, 1, NULL, &o);
    assert_int_equal(o.rc, 1);
    assert_string_equal(o.fault.rule, "EXEC-MEM-001");
    assert_string_equal(o.fault.message, "invalid const read of size 4 at address 0x48: "
                                         "address is outside the window's allocated size");
    assert_int_equal(o.fault.ptx_line, by_name->line);
    const mem_counters *c = memsys_insn_counters(o.ms);
    assert_int_equal(c[nth_insn(fn, IR_LD, 0)->id].constant.requests, 1); /* ld.param */
    assert_int_equal(c[by_name->id].constant.requests, 0);
    run_close(&o);
    ir_module_destroy(m);
}

static void test_constant_bank_faults(void **state)
{
    (void)state;
    ir_module *m = parse(const_ptx);
    ir_func *fn = func(m, "k");
    ir_insn *absolute = nth_insn(fn, IR_LD, 4);
    run_out o;
    /* Bank 5 holds nothing. */
    absolute->src[0].bank = 5;
    run(m, 1, NULL, &o);
    assert_int_equal(o.rc, 1);
    assert_string_equal(o.fault.rule, "EXEC-MEM-001");
    assert_string_equal(o.fault.message, "invalid const read of size 4 at address 0x500000c: "
                                         "address is outside the data of its constant bank");
    assert_int_equal(o.fault.ptx_line, absolute->line);
    run_close(&o);
    /* A computed offset beyond the last bank (bank 40). */
    absolute->src[0].bank = 0;
    absolute->src[0].imm = (40ll << 24) + 12;
    run(m, 1, NULL, &o);
    assert_int_equal(o.rc, 1);
    assert_string_equal(o.fault.message, "invalid const read of size 4 at address 0x2800000c: "
                                         "constant bank number is outside 0..31");
    run_close(&o);
    absolute->src[0].imm = 12;
    /* Banks that cannot exist or cannot be meant are refused before the run. */
    absolute->src[0].bank = 32;
    expect_rejected(m, "EXEC-CONST-001", absolute->line, absolute->col,
                    "constant bank 32 of the address of ld in k is outside 0..31");
    absolute->src[0].bank = 2;
    absolute->mem.space = IR_SPACE_GLOBAL;
    expect_rejected(m, "EXEC-CONST-001", absolute->line, absolute->col,
                    "is on an address outside the const space");
    absolute->mem.space = IR_SPACE_CONST;
    ir_insn *by_name = nth_insn(fn, IR_LD, 1);
    by_name->src[0].bank = 2;
    expect_rejected(m, "EXEC-CONST-001", by_name->line, by_name->col,
                    "is given besides a variable, whose bank counts");
    by_name->src[0].bank = 0;
    absolute->src[0].bank = 0;
    m->vars[1].const_bank = 32;
    expect_rejected(m, "EXEC-CONST-001", m->vars[1].line, m->vars[1].col,
                    "constant bank 32 of variable cdata is outside 0..31");
    m->vars[1].const_bank = 4;
    m->vars[1].size_bytes = MEM_WINDOW_BYTES + 4;
    expect_rejected(m, "EXEC-CONST-001", m->vars[1].line, m->vars[1].col,
                    "constant bank 4 of variable cdata cannot hold it");
    ir_module_destroy(m);
}

/* ---- 64 bytes per lane ---- */

static const char wide_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .b32 %r<2>;\n.reg .b64 %rd<20>;\n"
    "ld.param.u64 %rd1, [p0];\ncvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 64;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "ld.global.v2.u64 {%rd10, %rd11}, [%rd3];\n"
    "st.global.v2.u64 [%rd3+2048], {%rd10, %rd11};\n"
    "ret;\n}\n";

/* Makes the v2.u64 operand of `in` (dst[0] or src[1]) eight elements wide: %rd10, %rd11, then
 * the six named registers; 64 bytes per lane, which no PTX instruction moves. */
static void widen(ir_func *fn, ir_insn *in, ir_operand *vec, const char *const more[6])
{
    assert_int_equal(vec->count, 2);
    in->mem.vec = 8;
    vec->count = 8;
    for (int e = 0; e < 6; e++) vec->vregs[2 + e] = reg_number(fn, more[e]);
}

static void test_64_bytes_per_lane(void **state)
{
    (void)state;
    ir_module *m = parse(wide_ptx);
    ir_func *fn = func(m, "k");
    uint8_t init[BUF_BYTES];
    for (uint32_t i = 0; i < BUF_BYTES; i++) init[i] = (uint8_t)(i * 7 + 3);
    ir_insn *ld = nth_insn(fn, IR_LD, 1), *st = nth_insn(fn, IR_ST, 0);
    static const char *const regs[6] = {"%rd12", "%rd13", "%rd14", "%rd15", "%rd16", "%rd17"};
    widen(fn, ld, &ld->dst[0], regs);
    widen(fn, st, &st->src[1], regs);
    run_out o;
    run(m, 32, init, &o);
    /* Each lane copied its 64 bytes. */
    assert_int_equal(o.rc, 0);
    assert_memory_equal(o.buf, init, 2048);
    assert_memory_equal(o.buf + 2048, init, 2048);
    /* One warp request each: 2048 bytes, 16 lines, 64 sectors. */
    const mem_counters *c = memsys_insn_counters(o.ms);
    assert_int_equal(c[ld->id].l1.requests, 1);
    assert_int_equal(c[ld->id].l1.sector_accesses, 64);
    assert_int_equal(c[ld->id].l2.sector_accesses, 64);
    assert_int_equal(c[ld->id].dram.read_bytes, 2048);
    assert_int_equal(c[st->id].l2.sector_accesses, 64);
    run_close(&o);
    /* 128 bytes per lane is more than the memory system takes: refused when it runs. */
    ld->mem.elem_bytes = 16;
    run(m, 32, init, &o);
    assert_int_equal(o.rc, 1);
    assert_string_equal(o.fault.rule, "EXEC-UNSUP-002");
    assert_string_equal(o.fault.message, "access of 128 bytes per lane is not modelled");
    run_close(&o);
    ir_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_fills_its_machine),
        cmocka_unit_test(test_register_shapes),
        cmocka_unit_test(test_flags_are_named_state),
        cmocka_unit_test(test_call_return_stack_sizes),
        cmocka_unit_test(test_syscalls_are_marked_not_named),
        cmocka_unit_test(test_fetch_addresses_follow_the_layout),
        cmocka_unit_test(test_constant_bank_3),
        cmocka_unit_test(test_constant_bank_faults),
        cmocka_unit_test(test_constant_by_name_fault),
        cmocka_unit_test(test_64_bytes_per_lane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

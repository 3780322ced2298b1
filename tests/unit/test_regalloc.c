/* Unit tests for the executor's register allocation (src/exec/exec_regalloc.c): exact slot
 * counts of small kernels and of a real one, and the values the kernels compute with shared
 * slots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "config/gpu_config.h"
#include "exec/exec.h"
#include "mem/memsys.h"
#include "ptx/ptx.h"
#include "sim/sim.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

/* 10 declared registers (%r0..%r6, %rd0..%rd2), 7 referenced, at most 3 live at once: a loop
 * keeps its accumulator and counter live across the back edge, a guarded add must keep the
 * accumulator of lanes whose guard is false. out[t] = 3 * (4+3+2+1 + (t odd ? 4*100 : 0)). */
static const char three_slots_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<7>;\n.reg .b64 %rd<3>;\n"
    "ld.param.u64 %rd1, [p0];\n"        /* 0  rd1 [0,15] */
    "cvta.to.global.u64 %rd1, %rd1;\n"  /* 1 */
    "mov.u32 %r1, %tid.x;\n"            /* 2  r1 [2,5] */
    "mul.wide.u32 %rd2, %r1, 4;\n"      /* 3  rd2 [3,4] */
    "add.s64 %rd1, %rd1, %rd2;\n"       /* 4 */
    "and.b32 %r2, %r1, 1;\n"            /* 5  r2 [5,6] */
    "setp.eq.u32 %p1, %r2, 1;\n"        /* 6 */
    "mov.u32 %r3, 0;\n"                 /* 7  r3 [7,14] */
    "mov.u32 %r4, 4;\n"                 /* 8  r4 [8,13] */
    "$L:\nadd.u32 %r3, %r3, %r4;\n"     /* 9 */
    "@%p1 add.u32 %r3, %r3, 100;\n"     /* 10 */
    "sub.u32 %r4, %r4, 1;\n"            /* 11 */
    "setp.ne.u32 %p2, %r4, 0;\n"        /* 12 */
    "@%p2 bra $L;\n"                    /* 13 */
    "mul.lo.u32 %r5, %r3, 3;\n"         /* 14 r5 [14,15] */
    "st.global.u32 [%rd1], %r5;\n"      /* 15 */
    "ret;\n}\n";

/* A register whose only writes are guarded is read before written on some path, so it keeps a
 * slot of its own, as does a shfl source (a lane may read one that does not execute): %r2 and
 * %r3. The other six need 4 (%rd1, %r1, %rd2 and %rd3 are live at instruction 4). */
static const char pinned_ptx[] = HEADER
    ".visible .entry k(.param .u64 p0)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p0];\n"
    "cvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd2, %r1, 4;\n"
    "add.s64 %rd3, %rd1, %rd2;\n"
    "setp.lt.u32 %p1, %r1, 16;\n"
    "@%p1 mov.u32 %r2, 7;\n"
    "mov.u32 %r3, 5;\n"
    "shfl.sync.idx.b32 %r4, %r3, 0, 31, -1;\n"
    "add.u32 %r5, %r4, %r2;\n"
    "st.global.u32 [%rd3], %r5;\n"
    "ret;\n}\n";

typedef struct program {
    ir_module *m;
    exec_program *p;
    int fi;
} program;

static void load(const char *ptx, program *out)
{
    diag_list dl;
    diag_list_init(&dl);
    out->m = ptx_parse_module("t.ptx", ptx, strlen(ptx), &dl);
    if (!out->m)
        diag_list_print(&dl, stderr);
    assert_non_null(out->m);
    out->p = exec_program_create(out->m, &dl);
    if (!out->p)
        diag_list_print(&dl, stderr);
    assert_non_null(out->p);
    out->fi = ir_module_find_func(out->m, "k");
    diag_list_fini(&dl);
}

static void unload(program *pr)
{
    exec_program_destroy(pr->p);
    ir_module_destroy(pr->m);
}

/* Runs kernel k of `pr` on one CTA of `threads` threads with a zeroed 4 KiB buffer as its only
 * parameter; copies the buffer into out. Returns exec_run's status. */
static int run(program *pr, uint32_t threads, uint32_t out[1024])
{
    diag_list dl;
    diag_list_init(&dl);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 2;
    memsys *ms = memsys_create(&cfg, &dl);
    assert_non_null(ms);
    uint64_t buf;
    assert_int_equal(memsys_alloc(ms, 4096, 256, &buf), 0);
    exec_machine mach = {.sm_count = 2, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = 5};
    exec_launch L = {.entry = pr->fi, .grid = {1, 1, 1}, .block = {threads, 1, 1},
                     .params = (const uint8_t *)&buf, .params_bytes = 8};
    exec_stats st = {0};
    exec_fault fault;
    char *printf_text = NULL;
    int rc = exec_run(pr->p, ms, &mach, &L, &st, &fault, &printf_text);
    assert_int_equal(memsys_finish(ms), 0);
    assert_int_equal(memsys_host_read(ms, buf, out, 4096), 0);
    free(printf_text);
    memsys_destroy(ms);
    diag_list_fini(&dl);
    return rc;
}

static void test_ten_registers_three_slots(void **state)
{
    (void)state;
    program pr;
    load(three_slots_ptx, &pr);
    assert_int_equal(pr.m->funcs[pr.fi].nregs, 10);
    assert_int_equal(exec_program_register_slots(pr.p, (uint32_t)pr.fi), 3);
    uint32_t *out = calloc(1024, sizeof *out);
    assert_int_equal(run(&pr, 64, out), 0);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(out[t], 3 * (10 + (t % 2 ? 400 : 0)));
    free(out);
    unload(&pr);
}

static void test_guarded_and_shuffled_registers_keep_their_slot(void **state)
{
    (void)state;
    program pr;
    load(pinned_ptx, &pr);
    assert_int_equal(pr.m->funcs[pr.fi].nregs, 10);
    assert_int_equal(exec_program_register_slots(pr.p, (uint32_t)pr.fi), 6);
    uint32_t *out = calloc(1024, sizeof *out);
    assert_int_equal(run(&pr, 16, out), 0);
    for (uint32_t t = 0; t < 16; t++) assert_int_equal(out[t], 12);
    free(out);
    unload(&pr);
}

/* The 5-point stencil of tests/kernels/stencil2d declares 119 registers (30 KiB per warp with
 * one 64-bit slot each); 20 slots hold it. */
static void test_stencil_slots(void **state)
{
    (void)state;
    diag_list dl;
    diag_list_init(&dl);
    const char *path = GMS_SOURCE_DIR "/tests/kernels/stencil2d/stencil2d.sm_80.ptx";
    size_t len = 0;
    char *text = sim_read_module(path, NULL, &len, &dl);
    assert_non_null(text);
    ir_module *m = sim_parse_module(path, text, len, NULL, &dl);
    free(text);
    assert_non_null(m);
    exec_program *p = exec_program_create(m, &dl);
    assert_non_null(p);
    int fi = ir_module_find_func(m, "_Z8stencil5PKfPfiiff");
    assert_true(fi >= 0);
    assert_int_equal(m->funcs[fi].nregs, 119);
    assert_int_equal(exec_program_register_slots(p, (uint32_t)fi), 20);
    exec_program_destroy(p);
    ir_module_destroy(m);
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ten_registers_three_slots),
        cmocka_unit_test(test_guarded_and_shuffled_registers_keep_their_slot),
        cmocka_unit_test(test_stencil_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Running hand-built IR (ir_build.h) in unit tests of the executor, with what a test may want to
 * check afterwards: the launch's result and fault, a buffer the kernel wrote, and the memory
 * counters of every instruction.
 *
 *   exec_test_out *o = exec_test_run(b.m, 64, 0);  // one CTA of 64 threads
 *   assert_int_equal(o->rc, 0);                     // o->out[i]: word i of the u64 parameter's
 *   ... o->insn[id].l1.requests ...                 //   buffer; o->insn, o->executions: per
 *                                                   //   static id
 *   free(o);
 *
 * The entry (function 0) takes one u64 parameter: a zeroed buffer of EXEC_TEST_WORDS u32. The
 * module must verify clean. Runs on two SMs of the h100 preset, quantum 5. */
#ifndef GMS_TESTS_UNIT_EXEC_TEST_H
#define GMS_TESTS_UNIT_EXEC_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/gpu_config.h"
#include "exec/exec.h"
#include "ir/ir_verify.h"
#include "mem/memsys.h"
#include "sim/sim.h"

enum { EXEC_TEST_WORDS = 256, EXEC_TEST_INSNS = 64 };

typedef struct exec_test_out {
    int rc;                 /* exec_run's */
    exec_stats stats;
    exec_fault fault;
    uint32_t out[EXEC_TEST_WORDS];
    mem_counters insn[EXEC_TEST_INSNS]; /* per static instruction id */
    uint64_t executions[EXEC_TEST_INSNS]; /* warp-level executions per static id
                                             (stats.insn_executions is NULL: it belonged to
                                             the program, which is gone) */
} exec_test_out;

/* The phases of exec_test_run, for tests that set up more memory (images, samplers) between
 * creating the memory system and the launch, or read more back after it:
 *
 *   exec_test_ctx x;
 *   exec_test_begin(&x, m, o);   // verifies m, creates the program and the memory system, and
 *   ... x.ms, x.buf ...          //   allocates the parameter's buffer x.buf (o->out's size)
 *   exec_test_launch(&x, m, o, &L);  // runs launch L (entry, grid, params: &x.buf filled in),
 *   ... memsys_host_read(x.ms ...    //   fills o, finishes the memory system, reads o->out
 *   exec_test_end(&x);           // frees the program and the memory system */
typedef struct exec_test_ctx {
    diag_list dl;
    exec_program *p;
    memsys *ms;
    uint64_t buf; /* the address of the u64 parameter's buffer */
} exec_test_ctx;

static inline void exec_test_begin(exec_test_ctx *x, const ir_module *m, exec_test_out *o)
{
    diag_list_init(&x->dl);
    int bad = ir_verify(m, &x->dl);
    x->p = bad ? NULL : exec_program_create(m, &x->dl);
    if (!x->p)
        diag_list_print(&x->dl, stderr);
    assert_non_null(x->p);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 2;
    x->ms = memsys_create(&cfg, &x->dl);
    assert_non_null(x->ms);
    assert_true(m->ninsns_total <= EXEC_TEST_INSNS);
    assert_int_equal(memsys_set_insn_count(x->ms, m->ninsns_total), 0);
    assert_int_equal(memsys_alloc(x->ms, sizeof o->out, 256, &x->buf), 0);
}

/* A launch of one CTA of `block` threads of function 0 with the buffer as its parameter; the
 * caller may set further fields (image pool, strict hazards) before exec_test_launch. */
static inline exec_launch exec_test_launch_of(const exec_test_ctx *x, uint32_t block)
{
    exec_launch L = {.entry = 0, .grid = {1, 1, 1}, .block = {block, 1, 1},
                     .params = (const uint8_t *)&x->buf, .params_bytes = sizeof x->buf,
                     .max_warp_instructions = 1000000};
    return L;
}

/* Runs launch L on a 2-SM machine whose warps take turns of `quantum` instructions, then copies
 * the per-instruction counters, executions and the buffer into *o (o->rc: exec_run's result). */
static inline void exec_test_launch_quantum(exec_test_ctx *x, const ir_module *m,
                                            exec_test_out *o, const exec_launch *L,
                                            uint32_t quantum)
{
    exec_machine mach = {.sm_count = 2, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = quantum};
    char *printf_text = NULL;
    o->rc = exec_run(x->p, x->ms, &mach, L, &o->stats, &o->fault, &printf_text);
    free(printf_text);
    memcpy(o->insn, memsys_insn_counters(x->ms), m->ninsns_total * sizeof *o->insn);
    memcpy(o->executions, o->stats.insn_executions, m->ninsns_total * sizeof *o->executions);
    o->stats.insn_executions = NULL;
    assert_int_equal(memsys_finish(x->ms), 0);
    assert_int_equal(memsys_host_read(x->ms, x->buf, o->out, sizeof o->out), 0);
}

/* exec_test_launch_quantum with the tests' usual turn of 5 instructions. */
static inline void exec_test_launch(exec_test_ctx *x, const ir_module *m, exec_test_out *o,
                                    const exec_launch *L)
{
    exec_test_launch_quantum(x, m, o, L, 5);
}

static inline void exec_test_end(exec_test_ctx *x)
{
    memsys_destroy(x->ms);
    exec_program_destroy(x->p);
    diag_list_fini(&x->dl);
}

static inline exec_test_out *exec_test_run(const ir_module *m, uint32_t block, int strict_hazards)
{
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    exec_test_ctx x;
    exec_test_begin(&x, m, o);
    exec_launch L = exec_test_launch_of(&x, block);
    L.strict_hazards = (uint8_t)(strict_hazards != 0);
    exec_test_launch(&x, m, o, &L);
    exec_test_end(&x);
    return o;
}

/* Prints an unexpected fault, so that a failing test says what happened. */
static inline void exec_test_show_fault(const exec_test_out *o)
{
    if (o->fault.faulted)
        fprintf(stderr, "fault %s at line %u: %s\n", o->fault.rule ? o->fault.rule : "?",
                o->fault.ptx_line, o->fault.message);
}

/* Asserts that two runs of one kernel (a fast path and its general twin) ended alike: the
 * result, the fault (rule, message, instruction, thread), the buffer, every static
 * instruction's executions and memory counters. The statistics are left to the caller, which
 * knows which of them the two paths share. */
static inline void exec_test_assert_same_run(const exec_test_out *a, const exec_test_out *b)
{
    assert_int_equal(a->rc, b->rc);
    assert_int_equal(a->fault.faulted, b->fault.faulted);
    if (a->fault.faulted) {
        assert_string_equal(a->fault.rule, b->fault.rule);
        assert_string_equal(a->fault.message, b->fault.message);
        assert_int_equal(a->fault.insn_id, b->fault.insn_id);
        assert_memory_equal(a->fault.tid, b->fault.tid, sizeof a->fault.tid);
    }
    assert_memory_equal(a->out, b->out, sizeof a->out);
    assert_memory_equal(a->executions, b->executions, sizeof a->executions);
    assert_memory_equal(a->insn, b->insn, sizeof a->insn);
}

#endif

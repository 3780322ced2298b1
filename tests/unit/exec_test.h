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

static inline exec_test_out *exec_test_run(const ir_module *m, uint32_t block, int strict_hazards)
{
    exec_test_out *o = calloc(1, sizeof *o);
    assert_non_null(o);
    diag_list dl;
    diag_list_init(&dl);
    int bad = ir_verify(m, &dl);
    exec_program *p = bad ? NULL : exec_program_create(m, &dl);
    if (!p)
        diag_list_print(&dl, stderr);
    assert_non_null(p);
    memsys_config cfg;
    assert_int_equal(sim_memsys_config(gpu_preset_find("h100"), 0, &cfg, "", NULL), 0);
    cfg.sm_count = 2;
    memsys *ms = memsys_create(&cfg, &dl);
    assert_non_null(ms);
    assert_true(m->ninsns_total <= EXEC_TEST_INSNS);
    assert_int_equal(memsys_set_insn_count(ms, m->ninsns_total), 0);
    uint64_t buf;
    assert_int_equal(memsys_alloc(ms, sizeof o->out, 256, &buf), 0);
    exec_machine mach = {.sm_count = 2, .max_threads_per_sm = 2048, .max_ctas_per_sm = 8,
                         .shared_bytes_per_sm = 100000, .max_shared_per_cta = 49152,
                         .quantum = 5};
    exec_launch L = {.entry = 0, .grid = {1, 1, 1}, .block = {block, 1, 1},
                     .params = (const uint8_t *)&buf, .params_bytes = sizeof buf,
                     .max_warp_instructions = 1000000,
                     .strict_hazards = (uint8_t)(strict_hazards != 0)};
    char *printf_text = NULL;
    o->rc = exec_run(p, ms, &mach, &L, &o->stats, &o->fault, &printf_text);
    free(printf_text);
    memcpy(o->insn, memsys_insn_counters(ms), m->ninsns_total * sizeof *o->insn);
    memcpy(o->executions, o->stats.insn_executions, m->ninsns_total * sizeof *o->executions);
    o->stats.insn_executions = NULL;
    assert_int_equal(memsys_finish(ms), 0);
    assert_int_equal(memsys_host_read(ms, buf, o->out, sizeof o->out), 0);
    memsys_destroy(ms);
    exec_program_destroy(p);
    diag_list_fini(&dl);
    return o;
}

/* Prints an unexpected fault, so that a failing test says what happened. */
static inline void exec_test_show_fault(const exec_test_out *o)
{
    if (o->fault.faulted)
        fprintf(stderr, "fault %s at line %u: %s\n", o->fault.rule ? o->fault.rule : "?",
                o->fault.ptx_line, o->fault.message);
}

#endif

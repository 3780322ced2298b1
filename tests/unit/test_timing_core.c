/* The timing core (src/timing/timing.c, timing_issue.c, timing_cal.c; docs/timing.md "Model",
 * "Scheduling", "Stall reasons"): the calendar's order, and launches of small PTX kernels with
 * exact cycle differences, stall reasons that sum to the resident warp-cycles, determinism, the
 * two scheduling policies and the functional mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/gpu_config.h"
#include "gpumemsim/gpumemsim.h"
#include "timing/timing_cal.h"
#include "timing/timing_internal.h"

/* ---- the calendar ---- */

static void test_calendar_order(void **state)
{
    (void)state;
    timing_cal *c = calloc(1, sizeof *c);
    assert_non_null(c);
    uint64_t keys[4] = {5, 5, 10000, 7};
    assert_int_equal(timing_cal_add(c, 0, 5), 0);
    assert_int_equal(timing_cal_add(c, 2, 10000), 0); /* beyond the wheel: the far heap */
    assert_int_equal(timing_cal_add(c, 1, 5), 0);
    assert_int_equal(timing_cal_add(c, 3, 3), 0);     /* stale: keys[3] says 7 */
    assert_int_equal(timing_cal_add(c, 3, 7), 0);
    uint32_t s;
    uint64_t t;
    assert_int_equal(timing_cal_next(c, keys, &s, &t), 1);
    assert_int_equal(s, 0); /* same cycle: in the order they were put in */
    assert_int_equal(t, 5);
    assert_int_equal(timing_cal_next(c, keys, &s, &t), 1);
    assert_int_equal(s, 1);
    assert_int_equal(t, 5);
    assert_int_equal(timing_cal_next(c, keys, &s, &t), 1);
    assert_int_equal(s, 3);
    assert_int_equal(t, 7);
    assert_int_equal(timing_cal_next(c, keys, &s, &t), 1);
    assert_int_equal(s, 2);
    assert_int_equal(t, 10000);
    assert_int_equal(timing_cal_next(c, keys, &s, &t), 0);
    /* Reset starts again at cycle 0. */
    timing_cal_reset(c);
    keys[0] = 1;
    assert_int_equal(timing_cal_add(c, 0, 1), 0);
    assert_int_equal(timing_cal_next(c, keys, &s, &t), 1);
    assert_int_equal(t, 1);
    timing_cal_free(c);
    free(c);
}

/* timing_insn_after finds the record after the last one when it is the next instruction's, and
 * otherwise the one timing_insn finds by id: a jump back, the same instruction again, no last
 * record, and the neighbour of the table's last record (S->more's first) or of the spare. */
static void test_insn_after(void **state)
{
    (void)state;
    ir_insn ins[5];
    memset(ins, 0, sizeof ins);
    tinsn recs[4 + 2]; /* S->insns (4), S->more (1), the empty record after it */
    memset(recs, 0, sizeof recs);
    tstate S;
    memset(&S, 0, sizeof S);
    S.insns = recs;
    S.ninsns = 4;
    S.more = recs + 4;
    S.nmore = 1;
    for (uint32_t i = 0; i < 4; i++) {
        ins[i].id = i;
        recs[i].in = &ins[i];
    }
    ins[4].id = 3; /* glue sharing id 3: its record is in S->more */
    recs[4].in = &ins[4];
    assert_ptr_equal(timing_insn_after(&S, &recs[0], &ins[1]), &recs[1]);
    assert_ptr_equal(timing_insn_after(&S, &recs[2], &ins[3]), &recs[3]);
    assert_ptr_equal(timing_insn_after(&S, &recs[3], &ins[0]), &recs[0]); /* a jump back */
    assert_ptr_equal(timing_insn_after(&S, &recs[1], &ins[1]), &recs[1]); /* itself */
    assert_ptr_equal(timing_insn_after(&S, NULL, &ins[2]), &recs[2]);
    assert_ptr_equal(timing_insn_after(&S, &recs[3], &ins[4]), &recs[4]); /* into S->more */
    assert_ptr_equal(timing_insn_after(&S, &recs[4], &ins[2]), &recs[2]); /* the empty end */
    S.spare[0].in = &ins[4]; /* a spare record: its neighbour is never filled */
    assert_null(S.spare[1].in);
    assert_ptr_equal(timing_insn_after(&S, &S.spare[0], &ins[0]), &recs[0]);
}

/* ---- launches ---- */

/* A kernel that runs a loop `iters` times whose body is `k` 32-bit adds, each depending on the
 * one before (`independent` 0) or `k` moves that depend on nothing in flight (1), then the
 * loop's count, compare and branch. A loop, so that instruction-cache misses happen once and
 * cancel out of the differences the tests take. */
static char *chain_ptx(unsigned k, unsigned iters, int independent)
{
    size_t cap = 1024 + (size_t)k * 64;
    char *text = malloc(cap);
    assert_non_null(text);
    int len = snprintf(text, cap, ".version 7.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry chain()\n{\n.reg .b32 %%r<%u>;\n"
                                  ".reg .pred %%p<2>;\nmov.u32 %%r1, 1;\nmov.u32 %%r2, %u;\n"
                                  "LOOP:\n", k + 8, iters);
    for (unsigned i = 0; i < k; i++)
        len += snprintf(text + len, cap - (size_t)len,
                        independent ? "mov.u32 %%r%u, %u;\n" : "add.s32 %%r1, %%r1, %u;\n",
                        independent ? 3 + i : i + 1, i + 1);
    snprintf(text + len, cap - (size_t)len, "sub.s32 %%r2, %%r2, 1;\nsetp.ne.s32 %%p1, %%r2, 0;"
                                            "\n@%%p1 bra LOOP;\nret;\n}\n");
    return text;
}

typedef struct run_result {
    gms_launch_stats s;
} run_result;

/* Runs chain_ptx(k, iters, independent) on h100 over `ctas` CTAs of `threads` threads with
 * timing on (policy: GMS_SET_SCHEDULER) or off, into *out. */
static void launch_chain(unsigned k, unsigned iters, int independent, uint32_t ctas,
                         uint32_t threads, int timing, int policy, run_result *out)
{
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h100", &dev, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_TIMING, (uint64_t)timing, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_SCHEDULER, (uint64_t)policy, NULL), GMS_OK);
    char *text = chain_ptx(k, iters, independent);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "chain.ptx", text, strlen(text), "ptx", &m, NULL),
                     GMS_OK);
    gms_launch_config c = {.grid = {ctas, 1, 1}, .block = {threads, 1, 1}};
    assert_int_equal(gms_module_launch(m, "chain", &c, NULL), GMS_OK);
    assert_int_equal(gms_device_launch_stats(dev, 0, &out->s), GMS_OK);
    free(text);
    gms_device_destroy(dev);
}

static uint64_t stall_sum(const gms_timing_stats *t)
{
    uint64_t sum = 0;
    for (int i = 0; i < GMS_STALL_COUNT; i++) sum += t->stalls[i];
    return sum;
}

/* Cycles of one loop iteration of chain_ptx(k, ., independent) for one warp: the difference
 * between 200 and 100 iterations over 100, which must be exact (and the same from 300). */
static uint64_t iteration_cycles(unsigned k, int independent)
{
    run_result a, b, c;
    launch_chain(k, 100, independent, 1, 32, 1, 0, &a);
    launch_chain(k, 200, independent, 1, 32, 1, 0, &b);
    launch_chain(k, 300, independent, 1, 32, 1, 0, &c);
    uint64_t d = b.s.timing.cycles - a.s.timing.cycles;
    assert_int_equal(d % 100, 0);
    assert_int_equal(c.s.timing.cycles - b.s.timing.cycles, d);
    assert_int_equal(stall_sum(&c.s.timing), c.s.timing.warp_resident_cycles);
    /* One warp on one SM: it was resident exactly while the SM was active. */
    assert_int_equal(c.s.timing.warp_resident_cycles, c.s.timing.sm_active_cycles);
    return d / 100;
}

/* Eight more dependent adds in the loop cost eight integer-pipe latencies per iteration. */
static void test_dependent_chain_cycles(void **state)
{
    (void)state;
    const gpu_config *h100 = gpu_preset_find("h100");
    assert_non_null(h100);
    uint64_t lat = h100->pipe.int_latency_cycles;
    assert_true(lat >= 2);
    assert_int_equal(iteration_cycles(16, 0) - iteration_cycles(8, 0), 8 * lat);
    run_result r;
    launch_chain(8, 10, 0, 1, 32, 1, 0, &r);
    assert_int_equal(r.s.timing.enabled, 1);
    assert_int_equal(r.s.timing.sm_count, 132);
    assert_int_equal(r.s.timing.max_warps_per_sm, 64);
    assert_true(r.s.timing.clock_mhz == 1980.0);
    assert_int_equal(r.s.timing.stalls[GMS_STALL_SELECTED], r.s.warp_instructions);
    assert_true(r.s.timing.stalls[GMS_STALL_WAIT] > 0);
}

/* Independent moves issue as fast as the integer pipe takes them: eight more cost eight pipe
 * intervals per iteration (h100: a 16-lane pipe, 2 cycles per warp instruction), not eight
 * latencies (moves to registers nobody reads share a register slot; they do not wait for each
 * other). */
static void test_independent_pipe_interval(void **state)
{
    (void)state;
    const gpu_config *h100 = gpu_preset_find("h100");
    assert_non_null(h100);
    assert_int_equal(iteration_cycles(16, 1) - iteration_cycles(8, 1),
                     8 * h100->pipe.int_interval_cycles);
}

/* Eight warps share one SM's four schedulers (two each). Under GTO the greedy warp of a
 * scheduler keeps issuing while the other waits not_selected; under LRR they alternate. Same
 * instructions; the sum rule holds in both; `selected` counts every instruction. */
static void test_gto_and_lrr(void **state)
{
    (void)state;
    run_result gto, lrr;
    launch_chain(16, 50, 1, 1, 256, 1, 0, &gto);
    launch_chain(16, 50, 1, 1, 256, 1, 1, &lrr);
    assert_int_equal(gto.s.warp_instructions, lrr.s.warp_instructions);
    assert_int_equal(stall_sum(&gto.s.timing), gto.s.timing.warp_resident_cycles);
    assert_int_equal(stall_sum(&lrr.s.timing), lrr.s.timing.warp_resident_cycles);
    assert_int_equal(gto.s.timing.stalls[GMS_STALL_SELECTED], gto.s.warp_instructions);
    assert_int_equal(lrr.s.timing.stalls[GMS_STALL_SELECTED], lrr.s.warp_instructions);
    /* GTO lets one warp of each pair finish first: less residency in total than LRR, whose
     * warps all finish near the end. */
    assert_true(gto.s.timing.warp_resident_cycles < lrr.s.timing.warp_resident_cycles);
    assert_true(gto.s.timing.stalls[GMS_STALL_NOT_SELECTED] > 0);
    assert_true(lrr.s.timing.stalls[GMS_STALL_NOT_SELECTED] > 0);
}

/* Same input, same cycles and stall counts; the functional mode gives the same instruction
 * counts and no timing. */
static void test_deterministic_and_functional(void **state)
{
    (void)state;
    run_result a, b, f;
    launch_chain(8, 20, 0, 300, 128, 1, 0, &a);
    launch_chain(8, 20, 0, 300, 128, 1, 0, &b);
    launch_chain(8, 20, 0, 300, 128, 0, 0, &f);
    assert_int_equal(a.s.timing.cycles, b.s.timing.cycles);
    assert_memory_equal(a.s.timing.stalls, b.s.timing.stalls, sizeof a.s.timing.stalls);
    assert_int_equal(f.s.timing.enabled, 0);
    assert_int_equal(f.s.timing.cycles, 0);
    assert_int_equal(f.s.warp_instructions, a.s.warp_instructions);
    assert_int_equal(f.s.thread_instructions_pred_on, a.s.thread_instructions_pred_on);
    assert_int_equal(stall_sum(&a.s.timing), a.s.timing.warp_resident_cycles);
    /* 300 CTAs of 4 warps on 132 SMs all fit at once (occupancy): every SM was active. */
    assert_true(a.s.timing.sm_active_cycles >= 132);
}

/* One warp runs `iters` trips of a loop of two independent moves, a guarded branch that never
 * jumps (its guard is false: it falls through) and the back edge, a branch taken on every trip
 * but the last, on h100 with pipe.branch_latency_cycles = `branch_latency`. Returns the cycles. */
static uint64_t branch_loop_cycles(unsigned iters, unsigned branch_latency)
{
    char text[1024], config[128];
    snprintf(text, sizeof text,
             ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry loop()\n{\n"
             ".reg .b32 %%r<8>;\n.reg .pred %%p<3>;\nmov.u32 %%r2, %u;\n"
             "setp.eq.s32 %%p2, %%r2, 0;\nLOOP:\nmov.u32 %%r3, 3;\nmov.u32 %%r4, 4;\n"
             "@%%p2 bra OUT;\nsub.s32 %%r2, %%r2, 1;\nsetp.ne.s32 %%p1, %%r2, 0;\n"
             "@%%p1 bra LOOP;\nOUT:\nret;\n}\n",
             iters);
    snprintf(config, sizeof config, "{\"base\": \"h100\", \"pipe\": {\"branch_latency_cycles\": %u}}",
             branch_latency);
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create_from_config("b.json", config, strlen(config), &dev, NULL),
                     GMS_OK);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "loop.ptx", text, strlen(text), "ptx", &m, NULL),
                     GMS_OK);
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    assert_int_equal(gms_module_launch(m, "loop", &c, NULL), GMS_OK);
    gms_launch_stats s;
    assert_int_equal(gms_device_launch_stats(dev, 0, &s), GMS_OK);
    assert_int_equal(stall_sum(&s.timing), s.timing.warp_resident_cycles);
    gms_device_destroy(dev);
    return s.timing.cycles;
}

/* A taken branch holds its warp's next instruction until pipe.branch_latency_cycles after it;
 * a branch that falls through costs one issue. 200 trips take 199 taken back edges and 100
 * trips 99 (the last trip falls out of the loop), and each trip has a branch that falls
 * through: 20 cycles more latency cost exactly 100 x 20 cycles more, and h100's 5 against a
 * latency of 1 (no wait) exactly 100 x 4, so the branches that fell through cost nothing. */
static void test_taken_branch_latency(void **state)
{
    (void)state;
    uint64_t trip5 = branch_loop_cycles(200, 5) - branch_loop_cycles(100, 5);
    uint64_t trip25 = branch_loop_cycles(200, 25) - branch_loop_cycles(100, 25);
    uint64_t trip1 = branch_loop_cycles(200, 1) - branch_loop_cycles(100, 1);
    assert_int_equal(trip25 - trip5, 100 * 20);
    assert_int_equal(trip5 - trip1, 100 * 4);
    /* The h100 preset's own value is 5: a device made from the preset alone times the same. */
    const gpu_config *h100 = gpu_preset_find("h100");
    assert_non_null(h100);
    assert_int_equal(h100->pipe.branch_latency_cycles, 5);
}

/* Launches kernel `entry` of the PTX `text` on h100 over `ctas` CTAs of 256 threads under
 * `policy`, with the event loop's GTO copy (general 0) or its general version for every launch
 * (1), and gives the launch's statistics. */
static void launch_ptx_256(const char *text, const char *entry, uint32_t ctas, int policy,
                           int general, gms_launch_stats *out)
{
    timing_event_loop_general_only = general;
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h100", &dev, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_SCHEDULER, (uint64_t)policy, NULL), GMS_OK);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "k.ptx", text, strlen(text), "ptx", &m, NULL), GMS_OK);
    gms_launch_config c = {.grid = {ctas, 1, 1}, .block = {256, 1, 1}};
    assert_int_equal(gms_module_launch(m, entry, &c, NULL), GMS_OK);
    assert_int_equal(gms_device_launch_stats(dev, 0, out), GMS_OK);
    gms_device_destroy(dev);
    timing_event_loop_general_only = 0;
}

/* A kernel with shared-memory stores and loads between barriers, dependent integer work and a
 * loop: memory-pipe throttles, barrier wake-ups, greedy run-ahead and new CTAs taking the
 * slots of finished ones. Launched on h100 over `ctas` CTAs of 256 threads under `policy`,
 * with the event loop's GTO copy (general 0) or its general version for every launch (1). */
static void launch_mix(uint32_t ctas, int policy, int general, gms_launch_stats *out)
{
    static const char text[] =
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry mix()\n{\n"
        ".reg .b32 %r<12>;\n.reg .pred %p<3>;\n.shared .align 4 .b8 buf[1024];\n"
        "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, buf;\n"
        "add.s32 %r4, %r3, %r2;\nmov.u32 %r5, 12;\nmov.u32 %r6, 0;\nLOOP:\n"
        "st.shared.u32 [%r4], %r6;\nbar.sync 0;\nxor.b32 %r7, %r2, 132;\n"
        "add.s32 %r8, %r3, %r7;\nld.shared.u32 %r9, [%r8];\nadd.s32 %r6, %r6, %r9;\n"
        "mul.lo.s32 %r10, %r6, 3;\nadd.s32 %r6, %r10, %r1;\nmov.u32 %r11, 5;\n"
        "bar.sync 0;\nsub.s32 %r5, %r5, 1;\nsetp.ne.s32 %p1, %r5, 0;\n@%p1 bra LOOP;\n"
        "ret;\n}\n";
    launch_ptx_256(text, "mix", ctas, policy, general, out);
}

/* The event loop's copy for GTO launches without control codes against its general version on
 * the same launches: the same cycles, residency, stall counts and memory counters. Also with
 * more CTAs than fit at once, and one launch of the chain kernel whose warps run ahead. */
static void test_gto_copy_twin(void **state)
{
    (void)state;
    static const uint32_t grids[] = {1, 132, 900};
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        gms_launch_stats fast, general;
        launch_mix(grids[i], 0, 0, &fast);
        launch_mix(grids[i], 0, 1, &general);
        assert_int_equal(fast.faulted, 0);
        assert_int_equal(fast.warp_instructions, general.warp_instructions);
        assert_int_equal(fast.timing.cycles, general.timing.cycles);
        assert_int_equal(fast.timing.sm_active_cycles, general.timing.sm_active_cycles);
        assert_int_equal(fast.timing.warp_resident_cycles, general.timing.warp_resident_cycles);
        assert_memory_equal(fast.timing.stalls, general.timing.stalls, sizeof fast.timing.stalls);
        assert_memory_equal(&fast.counters, &general.counters, sizeof fast.counters);
        assert_int_equal(stall_sum(&fast.timing), fast.timing.warp_resident_cycles);
        /* The kernel waits at barriers and on the memory pipe, so both paths were taken. */
        assert_true(fast.timing.stalls[GMS_STALL_BARRIER] > 0);
        assert_true(fast.timing.cycles > 0);
    }
    run_result fast, general;
    launch_chain(16, 20, 1, 300, 256, 1, 0, &fast);
    timing_event_loop_general_only = 1;
    launch_chain(16, 20, 1, 300, 256, 1, 0, &general);
    timing_event_loop_general_only = 0;
    assert_int_equal(fast.s.timing.cycles, general.s.timing.cycles);
    assert_memory_equal(fast.s.timing.stalls, general.s.timing.stalls,
                        sizeof fast.s.timing.stalls);
}

/* A scheduler's choice from the mask of ready entries its last turn saved (tsched.ready_mask)
 * against a scan at every choice (timing_sched_rescan): the mix kernel's barriers wake warps
 * between turns (the saved mask must be dropped then), its memory pipe throttles, and 900 CTAs
 * start in slots that warps left; both event-loop copies, GTO and LRR. The same cycles,
 * residency, stalls and memory counters. */
static void test_saved_mask_twin(void **state)
{
    (void)state;
    static const uint32_t grids[] = {132, 900};
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++)
        for (int general = 0; general < 2; general++)
            for (int policy = 0; policy < 2; policy++) {
                gms_launch_stats saved, rescan;
                launch_mix(grids[i], policy, general, &saved);
                timing_sched_rescan = 1;
                launch_mix(grids[i], policy, general, &rescan);
                timing_sched_rescan = 0;
                assert_int_equal(saved.warp_instructions, rescan.warp_instructions);
                assert_int_equal(saved.timing.cycles, rescan.timing.cycles);
                assert_int_equal(saved.timing.warp_resident_cycles,
                                 rescan.timing.warp_resident_cycles);
                assert_memory_equal(saved.timing.stalls, rescan.timing.stalls,
                                    sizeof saved.timing.stalls);
                assert_memory_equal(&saved.counters, &rescan.counters, sizeof saved.counters);
                assert_true(saved.timing.stalls[GMS_STALL_BARRIER] > 0);
            }
}

/* A kernel whose CTAs loop 1, 3, 5 or 7 times by their index, so that they end at different
 * times and the grid's later CTAs start in slots that others left while older warps of the
 * same schedulers still run (their entries then hold ages out of entry order), with several
 * warps ready at once. Launched on h100 over 1600 CTAs of 256 threads (about 1.5 waves) under
 * `policy`, with the event loop's GTO copy (general 0) or its general version (1). */
static void launch_stagger(int policy, int general, gms_launch_stats *out)
{
    static const char text[] =
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry stagger()\n{\n"
        ".reg .b32 %r<10>;\n.reg .pred %p<2>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
        "and.b32 %r3, %r2, 3;\nshl.b32 %r4, %r3, 1;\nadd.s32 %r5, %r4, 1;\nmov.u32 %r6, 0;\n"
        "LOOP:\nmul.lo.s32 %r7, %r6, 3;\nadd.s32 %r6, %r7, %r1;\nmul.lo.s32 %r8, %r1, 5;\n"
        "add.s32 %r6, %r6, %r8;\nsub.s32 %r5, %r5, 1;\nsetp.ne.s32 %p1, %r5, 0;\n"
        "@%p1 bra LOOP;\nret;\n}\n";
    launch_ptx_256(text, "stagger", 1600, policy, general, out);
}

/* test_age_order_twin's launches: the staggered kernel (kernel 0) or the mix kernel on 900
 * CTAs (1). */
static void launch_age_kernel(int kernel, int policy, int general, gms_launch_stats *out)
{
    if (kernel)
        launch_mix(900, policy, general, out);
    else
        launch_stagger(policy, general, out);
}

/* GTO's oldest eligible entry taken as the first eligible one where a scheduler's live entries
 * hold rising ages in entry order (tsched.by_age) against the comparison of ages at every
 * choice (timing_age_scan), on the staggered kernel (schedulers in and out of age order) and the
 * mix kernel (its memory pipe throttles), both event-loop copies; LRR once (it compares no
 * ages). The same cycles, residency, stalls and memory counters. Checked to fail when every
 * scheduler is taken to be in age order. */
static void test_age_order_twin(void **state)
{
    (void)state;
    for (int kernel = 0; kernel < 2; kernel++)
        for (int general = 0; general < 2; general++)
            for (int policy = 0; policy < 2; policy++) {
                if (policy && general)
                    continue;
                gms_launch_stats by_age, compared;
                launch_age_kernel(kernel, policy, general, &by_age);
                timing_age_scan = 1;
                launch_age_kernel(kernel, policy, general, &compared);
                timing_age_scan = 0;
                assert_int_equal(by_age.warp_instructions, compared.warp_instructions);
                assert_int_equal(by_age.timing.cycles, compared.timing.cycles);
                assert_int_equal(by_age.timing.warp_resident_cycles,
                                 compared.timing.warp_resident_cycles);
                assert_memory_equal(by_age.timing.stalls, compared.timing.stalls,
                                    sizeof by_age.timing.stalls);
                assert_memory_equal(&by_age.counters, &compared.counters,
                                    sizeof by_age.counters);
                assert_true(by_age.timing.stalls[GMS_STALL_NOT_SELECTED] > 0);
                if (kernel)
                    assert_true(by_age.timing.stalls[GMS_STALL_MATH_PIPE_THROTTLE] > 0);
            }
}

/* A kernel whose warps diverge and reconverge inside a loop (taken and fallen-through
 * branches, instruction-cache lines crossed) and whose lanes below 40 return early, launched on
 * h100 over 200 CTAs of 96 threads with the event loop's GTO copy (general 0: the executor's
 * step inlined, exec_step.h) or its general version (1: exec_step called), under a limit of
 * `max_insns` warp instructions (0: the default). Returns the launch's status. */
static gms_status launch_diverge(int general, uint64_t max_insns, gms_launch_stats *out)
{
    static const char text[] =
        ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry diverge()\n{\n"
        ".reg .b32 %r<10>;\n.reg .pred %p<4>;\nmov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 3;\n"
        "mov.u32 %r5, 6;\nmov.u32 %r6, 0;\nLOOP:\nsetp.eq.s32 %p1, %r2, 0;\n@%p1 bra SKIP;\n"
        "add.s32 %r6, %r6, %r1;\nmul.lo.s32 %r7, %r6, 3;\nxor.b32 %r6, %r7, %r2;\nSKIP:\n"
        "add.s32 %r6, %r6, 1;\nsub.s32 %r5, %r5, 1;\nsetp.ne.s32 %p2, %r5, 0;\n@%p2 bra LOOP;\n"
        "setp.lt.u32 %p3, %r1, 40;\n@%p3 ret;\nadd.s32 %r8, %r6, %r2;\n"
        "mul.lo.s32 %r9, %r8, %r8;\nret;\n}\n";
    timing_event_loop_general_only = general;
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h100", &dev, NULL), GMS_OK);
    if (max_insns)
        assert_int_equal(gms_device_set(dev, GMS_SET_MAX_INSTRUCTIONS, max_insns, NULL), GMS_OK);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "div.ptx", text, strlen(text), "ptx", &m, NULL),
                     GMS_OK);
    gms_launch_config c = {.grid = {200, 1, 1}, .block = {96, 1, 1}};
    gms_status st = gms_module_launch(m, "diverge", &c, NULL);
    assert_int_equal(gms_device_launch_stats(dev, 0, out), GMS_OK);
    gms_device_destroy(dev);
    timing_event_loop_general_only = 0;
    return st;
}

/* The executor's step inlined into the event loop's GTO copy (exec_step.h) against exec_step
 * called by the general version: divergence, reconvergence, lanes that return early, taken
 * branches and the instruction limit's fault give the same statuses, instruction and lane
 * counts, cycles, stalls and memory counters. */
static void test_inline_step_twin(void **state)
{
    (void)state;
    static const uint64_t limits[] = {0, 5000};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        gms_launch_stats fast, general;
        gms_status sf = launch_diverge(0, limits[i], &fast);
        gms_status sg = launch_diverge(1, limits[i], &general);
        assert_int_equal(sf, sg);
        assert_int_equal(fast.faulted, general.faulted);
        assert_int_equal(fast.faulted, limits[i] != 0);
        assert_int_equal(fast.warp_instructions, general.warp_instructions);
        assert_int_equal(fast.thread_instructions, general.thread_instructions);
        assert_int_equal(fast.thread_instructions_pred_on, general.thread_instructions_pred_on);
        assert_int_equal(fast.timing.cycles, general.timing.cycles);
        assert_int_equal(fast.timing.warp_resident_cycles, general.timing.warp_resident_cycles);
        assert_memory_equal(fast.timing.stalls, general.timing.stalls, sizeof fast.timing.stalls);
        assert_memory_equal(&fast.counters, &general.counters, sizeof fast.counters);
        /* Lanes were masked off (the skipped body, the early return): the counts differ. */
        assert_true(fast.thread_instructions_pred_on < fast.thread_instructions);
        assert_true(fast.thread_instructions < 32 * fast.warp_instructions);
    }
}

/* GMS_SET_SCHEDULER and GMS_SET_TIMING take 0 or 1 only. */
/* One warp per CTA, each on its own SM: every lane adds 1 to one global counter and stores the
 * old value at out[ctaid x 32 + lane]. The CTAs run the same instructions, so their atomics
 * issue at the same cycle. */
static const char race_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry race(.param .u64 ctr, .param .u64 out)\n{\n"
    ".reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [ctr];\nld.param.u64 %rd2, [out];\n"
    "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\n"
    "atom.global.add.u32 %r3, [%rd1], 1;\n"
    "shl.b32 %r4, %r1, 5;\nadd.u32 %r5, %r4, %r2;\n"
    "mul.wide.u32 %rd3, %r5, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "st.global.u32 [%rd4], %r3;\nret;\n}\n";

/* Runs race_ptx over `ctas` CTAs of 32 threads on h100 with timing on; out (ctas x 32 words)
 * gets the old values, *cycles the launch's cycles. */
static void launch_race(uint32_t ctas, uint32_t *out, uint64_t *cycles)
{
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h100", &dev, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_TIMING, 1, NULL), GMS_OK);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "race.ptx", race_ptx, strlen(race_ptx), "ptx", &m,
                                     NULL),
                     GMS_OK);
    uint64_t ctr = 0, buf = 0;
    uint32_t zero = 0;
    assert_int_equal(gms_device_alloc(dev, 4, &ctr, NULL), GMS_OK);
    assert_int_equal(gms_device_alloc(dev, (uint64_t)ctas * 128, &buf, NULL), GMS_OK);
    assert_int_equal(gms_device_write(dev, ctr, &zero, 4, NULL), GMS_OK);
    gms_arg args[2] = {gms_arg_address(ctr), gms_arg_address(buf)};
    gms_launch_config c = {.grid = {ctas, 1, 1}, .block = {32, 1, 1}, .args = args, .nargs = 2};
    assert_int_equal(gms_module_launch(m, "race", &c, NULL), GMS_OK);
    assert_int_equal(gms_device_read(dev, buf, out, (uint64_t)ctas * 128, NULL), GMS_OK);
    gms_launch_stats st;
    assert_int_equal(gms_device_launch_stats(dev, 0, &st), GMS_OK);
    *cycles = st.timing.cycles;
    gms_device_destroy(dev);
}

/* What reaches beyond an SM runs at the end of its cycle in SM order, whatever order the
 * calendar serves the cycle's schedulers in (docs/timing.md, "Model"): the SMs' atomics of one
 * cycle take the counter's values in SM order, lanes in order, served first to last or last to
 * first (timing_cal_reverse). Fails when the atomics run in the calendar's order. */
static void test_beyond_sm_in_sm_order(void **state)
{
    (void)state;
    enum { CTAS = 8 };
    uint32_t fwd[CTAS * 32], rev[CTAS * 32];
    uint64_t cf = 0, cr = 0;
    launch_race(CTAS, fwd, &cf);
    timing_cal_reverse = 1;
    launch_race(CTAS, rev, &cr);
    timing_cal_reverse = 0;
    for (uint32_t i = 0; i < CTAS * 32; i++) {
        assert_int_equal(fwd[i], i);
        assert_int_equal(rev[i], i);
    }
    assert_int_equal(cf, cr);
}

/* Every CTA (one warp each, each on its own SM) stores out of its shared memory from lane 5 in
 * the same cycle: SM-local work, which may run on any host thread in any order. */
static const char smem_fault_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry smem_fault(.param .u64 out)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
    ".shared .align 4 .b32 buf[32];\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\n"
    "setp.eq.u32 %p1, %r1, 5;\nselp.u32 %r3, 4000000, %r2, %p1;\n"
    "mov.u32 %r4, buf;\nadd.u32 %r5, %r4, %r3;\n"
    "st.shared.u32 [%r5], %r1;\nret;\n}\n";

/* Runs smem_fault_ptx over `ctas` CTAs on h100 with timing on and `threads` host threads; *f
 * gets the fault, *st the launch's statistics. */
static void launch_smem_fault(uint32_t ctas, uint32_t threads, gms_fault *f, gms_launch_stats *st)
{
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h100", &dev, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_TIMING, 1, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_THREADS, threads, NULL), GMS_OK);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "smem_fault.ptx", smem_fault_ptx,
                                     strlen(smem_fault_ptx), "ptx", &m, NULL),
                     GMS_OK);
    uint64_t buf = 0;
    assert_int_equal(gms_device_alloc(dev, 4, &buf, NULL), GMS_OK);
    gms_arg args[1] = {gms_arg_address(buf)};
    gms_launch_config c = {.grid = {ctas, 1, 1}, .block = {32, 1, 1}, .args = args, .nargs = 1};
    assert_int_equal(gms_module_launch(m, "smem_fault", &c, NULL), GMS_ERR_FAULT);
    assert_int_equal(gms_device_fault(dev, f), GMS_OK);
    assert_int_equal(gms_device_launch_stats(dev, 0, st), GMS_OK);
    gms_device_destroy(dev);
}

/* A fault in an SM's own work (docs/timing.md, "Host threads", "Stops"): the cycle's other
 * turns still run and the lowest scheduler's fault is the launch's, whatever order the
 * calendar serves the cycle in (timing_cal_reverse) and however many host threads run the
 * SMs: block 0, lane 5, and the same statistics. Fails when the first fault met wins. */
static void test_sm_fault_lowest_wins(void **state)
{
    (void)state;
    enum { CTAS = 16 };
    gms_fault f[3];
    gms_launch_stats st[3];
    launch_smem_fault(CTAS, 1, &f[0], &st[0]);
    timing_cal_reverse = 1;
    launch_smem_fault(CTAS, 1, &f[1], &st[1]);
    launch_smem_fault(CTAS, 3, &f[2], &st[2]);
    timing_cal_reverse = 0;
    for (unsigned k = 0; k < 3; k++) {
        assert_string_equal(f[k].rule, "EXEC-MEM-001");
        assert_int_equal(f[k].ctaid[0], 0);
        assert_int_equal(f[k].tid[0], 5);
        assert_int_equal(st[k].warp_instructions, st[0].warp_instructions);
        assert_int_equal(st[k].timing.cycles, st[0].timing.cycles);
        assert_memory_equal(st[k].timing.stalls, st[0].timing.stalls, sizeof st[0].timing.stalls);
    }
    /* every CTA ran its store: the other SMs' turns of the fault's cycle were not cut */
    assert_true(st[0].warp_instructions >= (uint64_t)CTAS * 7);
}

static void test_settings_checked(void **state)
{
    (void)state;
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create("h100", &dev, NULL), GMS_OK);
    assert_int_equal(gms_device_set(dev, GMS_SET_SCHEDULER, 2, NULL), GMS_ERR_ARGUMENT);
    assert_int_equal(gms_device_set(dev, GMS_SET_TIMING, 2, NULL), GMS_ERR_ARGUMENT);
    gms_device_destroy(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calendar_order),
        cmocka_unit_test(test_insn_after),
        cmocka_unit_test(test_dependent_chain_cycles),
        cmocka_unit_test(test_independent_pipe_interval),
        cmocka_unit_test(test_gto_and_lrr),
        cmocka_unit_test(test_taken_branch_latency),
        cmocka_unit_test(test_deterministic_and_functional),
        cmocka_unit_test(test_gto_copy_twin),
        cmocka_unit_test(test_inline_step_twin),
        cmocka_unit_test(test_saved_mask_twin),
        cmocka_unit_test(test_age_order_twin),
        cmocka_unit_test(test_beyond_sm_in_sm_order),
        cmocka_unit_test(test_sm_fault_lowest_wins),
        cmocka_unit_test(test_settings_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The SM's memory-issue resource (src/timing/timing_pipe.c; docs/timing.md, "Scheduling", "The
 * memory-issue resource"): the cycle at which an SM takes each memory instruction, exactly, for
 * the presets' rates (one per cycle, one per two cycles, two per cycle), and launches where it
 * is the limit. */
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
#include "timing/timing_pipe.h"

/* gtx980 (and every NVIDIA preset but t4): 4 schedulers, mem_interval_cycles 4: one memory
 * instruction per cycle per SM, whichever scheduler hands it over. */
static void test_one_per_cycle(void **state)
{
    (void)state;
    const gpu_config *g = gpu_preset_find("gtx980");
    assert_non_null(g);
    timing_mio m;
    assert_int_equal(timing_mio_init(&m, g, 2), 0);
    /* Four schedulers at cycle 0: taken at 0, 1, 2, 3, in the order they asked. */
    for (uint64_t i = 0; i < 4; i++) assert_int_equal(timing_mio_take(&m, 0, 0), i);
    assert_int_equal(timing_mio_take(&m, 0, 1), 4); /* behind them */
    assert_int_equal(timing_mio_take(&m, 0, 10), 10); /* idle meanwhile: at once */
    assert_int_equal(timing_mio_take(&m, 0, 10), 11);
    assert_int_equal(timing_mio_take(&m, 1, 0), 0); /* another SM has its own */
    timing_mio_fini(&m);
    timing_mio_fini(&m); /* twice is allowed */
}

/* t4: mem_interval_cycles 8 over 4 schedulers: one per two cycles (58.8 B/clk per SM). */
static void test_one_per_two_cycles(void **state)
{
    (void)state;
    const gpu_config *t4 = gpu_preset_find("t4");
    assert_non_null(t4);
    timing_mio m;
    assert_int_equal(timing_mio_init(&m, t4, 1), 0);
    assert_int_equal(timing_mio_take(&m, 0, 0), 0);
    assert_int_equal(timing_mio_take(&m, 0, 0), 2);
    assert_int_equal(timing_mio_take(&m, 0, 1), 4);
    assert_int_equal(timing_mio_take(&m, 0, 7), 7);
    assert_int_equal(timing_mio_take(&m, 0, 8), 9);
    timing_mio_fini(&m);
}

/* pvc (8 schedulers per Xe-core, mem_interval_cycles 4): two per cycle, so ticks of an eighth
 * of a cycle keep half-cycle occupancies exact. */
static void test_two_per_cycle(void **state)
{
    (void)state;
    const gpu_config *pvc = gpu_preset_find("pvc");
    assert_non_null(pvc);
    assert_int_equal(pvc->sm.schedulers, 8);
    assert_int_equal(pvc->pipe.mem_interval_cycles, 4);
    timing_mio m;
    assert_int_equal(timing_mio_init(&m, pvc, 1), 0);
    assert_int_equal(timing_mio_take(&m, 0, 5), 5);
    assert_int_equal(timing_mio_take(&m, 0, 5), 5);
    assert_int_equal(timing_mio_take(&m, 0, 5), 6);
    assert_int_equal(timing_mio_take(&m, 0, 5), 6);
    assert_int_equal(timing_mio_take(&m, 0, 5), 7);
    timing_mio_fini(&m);
}

/* `warps` warps of one CTA (one per scheduler up to 4) each run `trips` trips of a loop of `k`
 * independent shared loads (every lane reads one word: one wavefront each), on h100 with
 * pipe.mem_interval_cycles = `interval`. Returns the launch's statistics in *out. */
static void loads_run(unsigned k, unsigned trips, unsigned interval, unsigned warps,
                      gms_launch_stats *out)
{
    char text[8192], config[128];
    int len = snprintf(text, sizeof text,
                       ".version 7.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry loads()\n{\n.shared .align 4 .b32 sm[32];\n"
                       ".reg .b32 %%r<80>;\n.reg .pred %%p<2>;\nmov.u32 %%r1, sm;\n"
                       "mov.u32 %%r2, %u;\nLOOP:\n",
                       trips);
    for (unsigned i = 0; i < k; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "ld.shared.u32 %%r%u, [%%r1];\n",
                        8 + i);
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "sub.s32 %%r2, %%r2, 1;\nsetp.ne.s32 %%p1, %%r2, 0;\n@%%p1 bra LOOP;\n"
                    "mov.u32 %%r3, 0;\n");
    /* Every loaded register is read after the loop, so each keeps its own register slot (the
     * executor lets registers nobody reads share one, which would order the loads). */
    for (unsigned i = 0; i < k; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "xor.b32 %%r3, %%r3, %%r%u;\n",
                        8 + i);
    snprintf(text + len, sizeof text - (size_t)len, "st.shared.u32 [%%r1], %%r3;\nret;\n}\n");
    snprintf(config, sizeof config, "{\"base\": \"h100\", \"pipe\": {\"mem_interval_cycles\": %u}}",
             interval);
    gms_device *dev = NULL;
    assert_int_equal(gms_device_create_from_config("m.json", config, strlen(config), &dev, NULL),
                     GMS_OK);
    gms_module *m = NULL;
    assert_int_equal(gms_module_load(dev, "loads.ptx", text, strlen(text), "ptx", &m, NULL),
                     GMS_OK);
    gms_launch_config c = {.grid = {1, 1, 1}, .block = {32 * warps, 1, 1}};
    assert_int_equal(gms_module_launch(m, "loads", &c, NULL), GMS_OK);
    assert_int_equal(gms_device_launch_stats(dev, 0, out), GMS_OK);
    gms_device_destroy(dev);
}

/* Cycles of one trip of loads_run(k, ., interval, warps): the difference of 200 and 100
 * trips. */
static uint64_t loads_trip(unsigned k, unsigned interval, unsigned warps)
{
    gms_launch_stats a, b;
    loads_run(k, 100, interval, warps, &a);
    loads_run(k, 200, interval, warps, &b);
    uint64_t d = b.timing.cycles - a.timing.cycles;
    assert_int_equal(d % 100, 0);
    return d / 100;
}

/* A warp alone on its SM may use the whole SM's rate: eight more loads per trip cost eight
 * cycles at one per cycle (h100's own interval of 4 over 4 schedulers), not the 32 of a
 * scheduler's quarter, and sixteen at mem_interval_cycles 8 (one per two cycles). The trips
 * (40 and 48 loads) outlast the shared latency, so a load never waits for its register's load
 * of the trip before. */
static void test_single_warp_takes_sm_rate(void **state)
{
    (void)state;
    assert_int_equal(loads_trip(48, 4, 1) - loads_trip(40, 4, 1), 8);
    assert_int_equal(loads_trip(48, 8, 1) - loads_trip(40, 8, 1), 16);
}

/* Four warps, one per scheduler, all issuing loads: the SM takes one per cycle from them in
 * turn, so eight more loads per warp and trip cost 32 cycles, and no scheduler is preferred:
 * the four warps end within a few cycles of each other (each resident nearly the whole
 * launch). */
static void test_schedulers_take_turns(void **state)
{
    (void)state;
    assert_int_equal(loads_trip(48, 4, 4) - loads_trip(40, 4, 4), 32);
    gms_launch_stats s;
    loads_run(48, 200, 4, 4, &s);
    assert_true(s.timing.cycles > 4 * 48 * 200);
    /* Each warp ends its loads within a few cycles of the others; what the launch has after
     * the last warp's end is its last store's latency (h100 shared: about 30 cycles). A fixed
     * order would leave the first warp alone with every slot until its 9,600 loads are done:
     * thousands of cycles less residency. */
    assert_true(s.timing.warp_resident_cycles >= 4 * (s.timing.cycles - 64));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_per_cycle),
        cmocka_unit_test(test_one_per_two_cycles),
        cmocka_unit_test(test_two_per_cycle),
        cmocka_unit_test(test_single_warp_takes_sm_rate),
        cmocka_unit_test(test_schedulers_take_turns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

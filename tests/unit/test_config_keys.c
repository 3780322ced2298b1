/* Every configuration key has an effect or is refused (docs/presets.md, "Which keys are
 * modelled"). The test walks every key of every preset, as `gpumemsim presets show` prints it
 * (gpu_config_to_json), and asks the configuration module what the simulator does with it
 * (gpu_config_key_model):
 *   - a modelled key needs a probe below: two overrides that differ in that key only (and in
 *     the key tied to it by a validation rule), run on one launch file; the runs must differ in
 *     some statistic, or the changed run must stop with a named rule (a limit the launch breaks);
 *   - a descriptive key needs a probe whose runs give identical statistics;
 *   - a fixed key needs a row giving another value and the rule that refuses it;
 *   - a key on the not-yet list must refuse any value other than the preset's with CONFIG-123
 *     at the key's line and column, and accept the preset's own value (CONFIG-124, the timing
 *     model's not-yet group, is retired).
 * A key added to the table without one of these fails here. The probes run once each (on the
 * preset they name): whether a key is read does not depend on the preset. Launch files live in
 * tests/config_keys/ (capacity sweeps around the h100 L1 and a cut-down L2) and tests/kernels/,
 * tests/hints/. Temporary override files go to /tmp via mkstemp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "config/gpu_config.h"
#include "gpumemsim/run.h"

#define TESTS_DIR GMS_SOURCE_DIR "/tests/"

/* ---- the probes ---- */

typedef enum probe_outcome {
    PROBE_DIFFERS, /* both runs succeed; some counter, instruction count or status differs */
    PROBE_FAILS,   /* the reference run succeeds; the changed run stops with `rule` */
    PROBE_SAME,    /* both runs succeed with identical statistics (descriptive keys) */
} probe_outcome;

typedef struct key_probe {
    const char *key;      /* the key whose effect the probe shows */
    const char *tied;     /* a key that a rule forces to change with it, or NULL */
    const char *launch;   /* launch file under tests/ */
    const char *before;   /* members of the reference override (the braces are added) */
    const char *after;    /* the same with the key changed */
    probe_outcome outcome;
    const char *rule;     /* PROBE_FAILS: the rule of the changed run's diagnostic or fault */
} key_probe;

#define H100 "\"base\": \"h100\""
/* 16 KiB default carve-out: 240 KiB of L1, 1920 lines; the sweeps read 1900 lines twice. */
#define SWEEP_L1 "config_keys/sweep_l1.json"
/* An L2 of 80 slices with one 16-way set each (1280 lines); the sweep reads 1300 lines twice. */
#define SMALL_L2 "\"size_bytes\": 163840, \"persisting_max_bytes\": 0"
/* tests/hints/gpu_l2.json without its set-aside limit: one SM, a 64 KiB L2, loads skip L1. */
#define HINTS_L2                                                                                 \
    "\"base\": \"a100\", \"sm\": {\"count\": 1}, \"l1\": {\"cache_global_loads\": false}, "      \
    "\"l2\": {\"size_bytes\": 65536, \"slices\": 2"

/* Launch files of the timing probes. */
#define CHASE "kernels/pointer_chase/pointer_chase.json"
#define SMEM "kernels/smem_banks/smem_banks.json"
#define STREAM "kernels/stream_dram/stream_dram.json"
#define STRIDED "kernels/strided_access/strided_access.json"
#define SAXPY "kernels/saxpy_cs/saxpy_cs.json"
#define HORNER "kernels/f64_horner/f64_horner.json"
#define SHFL "kernels/reduce_shfl/reduce_shfl.json"
#define MMA "kernels/mma_sync/mma_sync.json"
#define LOOPS "kernels/divergent_loops/divergent_loops.json"
/* A pipe key set to `value` on h100, run on `launch`. */
#define PIPE_PROBE(key, launch, value)                                                           \
    {"pipe." key, NULL, launch, H100,                                                            \
     H100 ", \"pipe\": {\"" key "\": " #value "}", PROBE_DIFFERS, NULL}

static const key_probe probes[] = {
    /* SM limits: where CTAs run and how many are resident (instruction cache per SM; L1
     * sharing and the order of accesses). */
    {"sm.count", NULL, "config_keys/sweep_grid.json", H100, H100 ", \"sm\": {\"count\": 1}",
     PROBE_DIFFERS, NULL},
    {"sm.max_ctas_per_sm", NULL, "config_keys/sweep_grid.json",
     H100 ", \"sm\": {\"count\": 1}", H100 ", \"sm\": {\"count\": 1, \"max_ctas_per_sm\": 1}",
     PROBE_DIFFERS, NULL},
    {"sm.max_threads_per_sm", "sm.max_warps_per_sm", "config_keys/sweep_grid.json",
     H100 ", \"sm\": {\"count\": 1}",
     H100 ", \"sm\": {\"count\": 1, \"max_threads_per_sm\": 1024, \"max_warps_per_sm\": 32}",
     PROBE_DIFFERS, NULL},
    /* 512-thread blocks on an SM that takes CTAs of at most 256 threads. */
    {"sm.max_threads_per_cta", NULL, "config_keys/sweep_grid.json", H100,
     H100 ", \"sm\": {\"max_threads_per_cta\": 256}", PROBE_FAILS, "SIM-LAUNCH-002"},
    /* L1 capacity and geometry. */
    {"l1.unified_bytes", NULL, SWEEP_L1, H100, H100 ", \"l1\": {\"unified_bytes\": 245760}",
     PROBE_DIFFERS, NULL},
    {"l1.default_shared_carveout_bytes", NULL, SWEEP_L1, H100,
     H100 ", \"l1\": {\"default_shared_carveout_bytes\": 32768}", PROBE_DIFFERS, NULL},
    /* 17,000 bytes of shared memory: 32 KiB is the smallest listed carve-out, or 18 KiB (the
     * h100's 16-way L1 needs carve-outs in steps of 2 KiB). */
    {"l1.shared_carveouts_bytes", NULL, "config_keys/sweep_l1_shared.json", H100,
     H100 ", \"l1\": {\"shared_carveouts_bytes\": [0, 8192, 16384, 18432, 65536, 102400, "
          "135168, 167936, 200704, 233472]}",
     PROBE_DIFFERS, NULL},
    {"l1.max_shared_per_cta_bytes", NULL, "config_keys/sweep_l1_shared.json", H100,
     H100 ", \"l1\": {\"max_shared_per_cta_bytes\": 16384}", PROBE_FAILS, "SIM-LAUNCH-001"},
    {"l1.ways", NULL, SWEEP_L1, H100 ", \"l1\": {\"default_shared_carveout_bytes\": 32768}",
     H100 ", \"l1\": {\"default_shared_carveout_bytes\": 32768, \"ways\": 8}", PROBE_DIFFERS,
     NULL},
    {"l1.sector_bytes", NULL, SWEEP_L1, H100, H100 ", \"l1\": {\"sector_bytes\": 64}",
     PROBE_DIFFERS, NULL},
    /* L1 policies. */
    {"l1.cache_global_loads", NULL, SWEEP_L1, H100,
     H100 ", \"l1\": {\"cache_global_loads\": false}", PROBE_DIFFERS, NULL},
    {"l1.global_store_allocate", NULL, "kernels/pointer_chase/pointer_chase.json", H100,
     H100 ", \"l1\": {\"global_store_allocate\": true}", PROBE_DIFFERS, NULL},
    {"l1.global_store_policy", NULL, "kernels/saxpy_cs/saxpy_cs.json", H100,
     H100 ", \"l1\": {\"global_store_policy\": \"write_back\"}", PROBE_DIFFERS, NULL},
    {"l1.local_store_policy", NULL, "kernels/local_sort/local_sort.json", H100,
     H100 ", \"l1\": {\"local_store_policy\": \"write_through\"}", PROBE_DIFFERS, NULL},
    /* Shared-memory banks. */
    {"shared.banks", NULL, "kernels/smem_banks/smem_banks.json", H100,
     H100 ", \"shared\": {\"banks\": 16}", PROBE_DIFFERS, NULL},
    {"shared.bank_width_bytes", NULL, "kernels/smem_banks/smem_banks.json", H100,
     H100 ", \"shared\": {\"bank_width_bytes\": 8}", PROBE_DIFFERS, NULL},
    /* L2 capacity, geometry and slicing. */
    {"l2.size_bytes", NULL, "config_keys/sweep_l2.json",
     H100 ", \"l2\": {\"persisting_max_bytes\": 0}", H100 ", \"l2\": {" SMALL_L2 "}",
     PROBE_DIFFERS, NULL},
    {"l2.ways", NULL, "config_keys/sweep_l2.json", H100 ", \"l2\": {" SMALL_L2 "}",
     H100 ", \"l2\": {" SMALL_L2 ", \"ways\": 8}", PROBE_DIFFERS, NULL},
    {"l2.slices", NULL, "config_keys/sweep_l2.json", H100 ", \"l2\": {" SMALL_L2 "}",
     H100 ", \"l2\": {" SMALL_L2 ", \"slices\": 40}", PROBE_DIFFERS, NULL},
    /* Lines 80 apart: modulo puts them all in one slice, xor_fold spreads them. */
    {"l2.slice_hash", NULL, "config_keys/stride_l2.json", H100 ", \"l2\": {" SMALL_L2 "}",
     H100 ", \"l2\": {" SMALL_L2 ", \"slice_hash\": \"modulo\"}", PROBE_DIFFERS, NULL},
    {"l2.sector_bytes", NULL, "config_keys/sweep_l2.json", H100,
     H100 ", \"l2\": {\"sector_bytes\": 64}", PROBE_DIFFERS, NULL},
    {"l2.dram_fill_bytes", NULL, "config_keys/sweep_l2.json", H100,
     H100 ", \"l2\": {\"dram_fill_bytes\": 128}", PROBE_DIFFERS, NULL},
    /* The sweep's stores reach DRAM when they are made, not at the final write-back. */
    {"l2.write_policy", NULL, SWEEP_L1, H100,
     H100 ", \"l2\": {\"write_policy\": \"write_through\"}", PROBE_DIFFERS, NULL},
    /* Residency controls: a 16 KiB set-aside asked for, capped at 4 KiB; a 32 KiB window. */
    {"l2.persisting_max_bytes", NULL, "hints/last_vs_plain_stream.json",
     HINTS_L2 ", \"persisting_max_bytes\": 49152}", HINTS_L2 ", \"persisting_max_bytes\": 4096}",
     PROBE_DIFFERS, NULL},
    {"l2.access_policy_max_window_bytes", NULL, "hints/window_reread.json",
     HINTS_L2 ", \"persisting_max_bytes\": 49152}",
     HINTS_L2 ", \"persisting_max_bytes\": 49152, \"access_policy_max_window_bytes\": 4096}",
     PROBE_FAILS, "SIM-WINDOW-001"},
    /* Constant cache: f64_horner reads two 64-byte lines (parameters, coefficients). */
    {"constant.l1_bytes", NULL, "kernels/f64_horner/f64_horner.json",
     H100 ", \"constant\": {\"l1_bytes\": 64, \"l1_ways\": 1}",
     H100 ", \"constant\": {\"l1_bytes\": 192, \"l1_ways\": 1}", PROBE_DIFFERS, NULL},
    {"constant.l1_ways", NULL, "kernels/f64_horner/f64_horner.json",
     H100 ", \"constant\": {\"l1_bytes\": 128, \"l1_ways\": 1}",
     H100 ", \"constant\": {\"l1_bytes\": 128, \"l1_ways\": 2}", PROBE_DIFFERS, NULL},
    {"constant.l1_line_bytes", NULL, "kernels/f64_horner/f64_horner.json", H100,
     H100 ", \"constant\": {\"l1_line_bytes\": 32}", PROBE_DIFFERS, NULL},
    /* Instruction cache. */
    {"instruction.l1_bytes", NULL, "kernels/device_calls/device_calls.json", H100,
     H100 ", \"instruction\": {\"l1_bytes\": 1024}", PROBE_DIFFERS, NULL},
    {"instruction.l1_ways", NULL, "kernels/device_calls/device_calls.json",
     H100 ", \"instruction\": {\"l1_bytes\": 1024}",
     H100 ", \"instruction\": {\"l1_bytes\": 1024, \"l1_ways\": 4}", PROBE_DIFFERS, NULL},
    {"instruction.l1_line_bytes", NULL, SWEEP_L1, H100,
     H100 ", \"instruction\": {\"l1_line_bytes\": 256}", PROBE_DIFFERS, NULL},
    /* The timing model's memory keys (docs/timing.md, "Memory"): they change the cycles. The
     * pointer chase's last chain (256 KiB) leaves the L1 and is read from the L2, where the
     * chasing SM's partition holds no copy of the lines the building CTAs wrote (far hits); its
     * first chain fits the L1. */
    {"latency.l1_hit_cycles", NULL, CHASE, H100, H100 ", \"latency\": {\"l1_hit_cycles\": 50}",
     PROBE_DIFFERS, NULL},
    {"latency.l2_near_hit_cycles", NULL, CHASE, H100 ", \"l2\": {\"partitions\": 1}",
     H100 ", \"l2\": {\"partitions\": 1}, \"latency\": {\"l2_near_hit_cycles\": 300}",
     PROBE_DIFFERS, NULL},
    {"latency.l2_far_hit_cycles", NULL, CHASE, H100,
     H100 ", \"latency\": {\"l2_far_hit_cycles\": 600}", PROBE_DIFFERS, NULL},
    {"l2.partitions", NULL, CHASE, H100, H100 ", \"l2\": {\"partitions\": 1}", PROBE_DIFFERS,
     NULL},
    {"latency.shared_load_cycles", NULL, SMEM, H100,
     H100 ", \"latency\": {\"shared_load_cycles\": 60}", PROBE_DIFFERS, NULL},
    {"latency.shared_conflict_step_cycles", NULL, SMEM, H100,
     H100 ", \"latency\": {\"shared_conflict_step_cycles\": 5}", PROBE_DIFFERS, NULL},
    /* Parameters are read through the constant cache: a miss, then hits. */
    {"latency.constant_l1_hit_cycles", NULL, STREAM, H100,
     H100 ", \"latency\": {\"constant_l1_hit_cycles\": 60}", PROBE_DIFFERS, NULL},
    {"latency.constant_l15_hit_cycles", NULL, STREAM, H100,
     H100 ", \"latency\": {\"constant_l15_hit_cycles\": 300}", PROBE_DIFFERS, NULL},
    /* Streaming from DRAM: rows, channels, bandwidths, MSHRs. */
    {"latency.dram_cycles", NULL, STREAM, H100, H100 ", \"latency\": {\"dram_cycles\": 900}",
     PROBE_DIFFERS, NULL},
    {"latency.dram_row_hit_cycles", NULL, STREAM, H100,
     H100 ", \"latency\": {\"dram_row_hit_cycles\": 300}", PROBE_DIFFERS, NULL},
    {"dram.channels", NULL, STREAM, H100, H100 ", \"dram\": {\"channels\": 1}", PROBE_DIFFERS,
     NULL},
    {"dram.bytes_per_cycle", NULL, STREAM, H100, H100 ", \"dram\": {\"bytes_per_cycle\": 16}",
     PROBE_DIFFERS, NULL},
    /* saxpy reads x and y in turn: with one bank their rows close each other. */
    {"dram.banks_per_channel", NULL, "kernels/saxpy_cs/saxpy_cs.json", H100,
     H100 ", \"dram\": {\"banks_per_channel\": 1}", PROBE_DIFFERS, NULL},
    {"dram.row_bytes", NULL, STREAM, H100, H100 ", \"dram\": {\"row_bytes\": 256}",
     PROBE_DIFFERS, NULL},
    {"l2.slice_bytes_per_cycle", NULL, STREAM, H100,
     H100 ", \"l2\": {\"slice_bytes_per_cycle\": 1}", PROBE_DIFFERS, NULL},
    {"l1.mshrs", NULL, STREAM, H100, H100 ", \"l1\": {\"mshrs\": 1}", PROBE_DIFFERS, NULL},
    /* Strides of 2 to 32 words: several lines per warp load. */
    {"l1.tags_per_cycle", NULL, STRIDED, H100, H100 ", \"l1\": {\"tags_per_cycle\": 1}",
     PROBE_DIFFERS, NULL},
    {"l1.sectors_per_cycle", NULL, STRIDED, H100, H100 ", \"l1\": {\"sectors_per_cycle\": 1}",
     PROBE_DIFFERS, NULL},
    /* The timing core (docs/timing.md, "Scheduling", "Pipes"): each probe's kernel issues from
     * the pipe it names; the changed run's cycles differ. */
    {"sm.schedulers", NULL, SAXPY, H100, H100 ", \"sm\": {\"schedulers\": 1}", PROBE_DIFFERS,
     NULL},
    /* The cycles stay; the seconds and GB/s at the clock change. */
    {"sm.clock_mhz", NULL, SAXPY, H100, H100 ", \"sm\": {\"clock_mhz\": 1000}", PROBE_DIFFERS,
     NULL},
    /* 16 Ki registers per SM hold fewer of the sweep's CTAs at once. */
    {"sm.registers_per_sm", NULL, "config_keys/sweep_grid.json", H100 ", \"sm\": {\"count\": 1}",
     H100 ", \"sm\": {\"count\": 1, \"registers_per_sm\": 16384}", PROBE_DIFFERS, NULL},
    /* 128 work-groups, one per Xe-core, each ending with a tile-scope evict: the tile count
     * decides which SMs' L1s and which L2 slices each evict reaches. */
    {"sm.tiles", NULL, "config_keys/lsc_tile_fence.json", "\"base\": \"pvc-2t\"",
     "\"base\": \"pvc-2t\", \"sm\": {\"tiles\": 1}", PROBE_DIFFERS, NULL},
    PIPE_PROBE("int_latency_cycles", CHASE, 40),
    PIPE_PROBE("int_interval_cycles", CHASE, 16),
    PIPE_PROBE("fp32_latency_cycles", SAXPY, 40),
    PIPE_PROBE("fp32_interval_cycles", SAXPY, 16),
    PIPE_PROBE("fp64_latency_cycles", HORNER, 80),
    PIPE_PROBE("fp64_interval_cycles", HORNER, 64),
    PIPE_PROBE("sfu_latency_cycles", SHFL, 80),
    PIPE_PROBE("sfu_interval_cycles", SHFL, 64),
    PIPE_PROBE("tensor_latency_cycles", MMA, 200),
    PIPE_PROBE("tensor_interval_cycles", MMA, 128),
    PIPE_PROBE("branch_interval_cycles", LOOPS, 32),
    PIPE_PROBE("branch_latency_cycles", LOOPS, 40), /* PTX: a taken branch's next issue */
    PIPE_PROBE("mem_latency_cycles", "sass/hazards_clean.json", 100), /* SASS read scoreboards */
    PIPE_PROBE("mem_shared_latency_cycles", "config_keys/sts_read_sb.json", 100), /* STS &rd */
    PIPE_PROBE("mem_interval_cycles", STRIDED, 32),
    /* Descriptive keys change no statistic. */
    {"name", "description", SWEEP_L1, H100,
     H100 ", \"name\": \"renamed\", \"description\": \"another text\"", PROBE_SAME, NULL},
    {"sm_version", NULL, SWEEP_L1, H100, H100 ", \"sm_version\": 100", PROBE_SAME, NULL},
    {"dram.page_bytes", NULL, SWEEP_L1, H100, H100 ", \"dram\": {\"page_bytes\": 65536}",
     PROBE_SAME, NULL},
};

#define PROBE_COUNT (sizeof probes / sizeof probes[0])

/* Keys with one possible value: another value and the rule that refuses it. */
static const struct {
    const char *key, *value, *rule;
} fixed_keys[] = {
    {"sm.warp_size", "64", "CONFIG-109"},
    {"l1.replacement", "\"fifo\"", "CONFIG-009"},
    {"l2.replacement", "\"random\"", "CONFIG-009"},
};

#define FIXED_COUNT (sizeof fixed_keys / sizeof fixed_keys[0])

/* ---- helpers ---- */

/* Writes `text` to a fresh temporary file; its path goes to `path` (at least 32 bytes). */
static void write_temp(char *path, const char *text)
{
    strcpy(path, "/tmp/gms_keys_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    assert_true(fputs(text, fp) >= 0);
    assert_int_equal(fclose(fp), 0);
}

/* Loads the override "{members}" into *c; returns the status, diagnostics in dl. */
static int load_members(const char *members, gpu_config *c, diag_list *dl)
{
    char text[2048];
    snprintf(text, sizeof text, "{%s}", members);
    return gpu_config_parse_override(text, strlen(text), "probe.json", c, dl);
}

/* Adds to `out` (a JSON array) the path of every key whose value differs between a and b. */
static void differing_keys(const gpu_config *a, const gpu_config *b, json_t *out)
{
    char *text_a = gpu_config_to_json(a), *text_b = gpu_config_to_json(b);
    json_t *ja = json_loads(text_a, 0, NULL), *jb = json_loads(text_b, 0, NULL);
    assert_non_null(ja);
    assert_non_null(jb);
    const char *name;
    json_t *value;
    json_object_foreach(ja, name, value) {
        json_t *other = json_object_get(jb, name);
        if (strcmp(name, "base") == 0 || json_equal(value, other))
            continue;
        if (!json_is_object(value)) {
            json_array_append_new(out, json_string(name));
            continue;
        }
        const char *key;
        json_t *field;
        json_object_foreach(value, key, field) {
            if (json_equal(field, json_object_get(other, key)))
                continue;
            char path[128];
            snprintf(path, sizeof path, "%s.%s", name, key);
            json_array_append_new(out, json_string(path));
        }
    }
    json_decref(ja);
    json_decref(jb);
    free(text_a);
    free(text_b);
}

/* One run of a probe through the public launch-file runner (include/gpumemsim/run.h). */
typedef struct probe_run {
    gms_status status;
    gms_run *run;
    gms_diag_list *dl;
    char *json;   /* the JSON report: every counter of every instruction; NULL when none */
    uint64_t cycles; /* the timing model's cycles over all launches (gms_totals.cycles) */
} probe_run;

/* Runs `launch` (under tests/) with the override "{members}". The caller frees with
 * probe_run_fini. */
static void run_with(const char *launch, const char *members, probe_run *out)
{
    char text[2048], path[64], launch_path[512];
    snprintf(text, sizeof text, "{%s}", members);
    write_temp(path, text);
    snprintf(launch_path, sizeof launch_path, "%s%s", TESTS_DIR, launch);
    gms_run_options opt = {.config_path = path};
    out->dl = gms_diag_list_create();
    assert_non_null(out->dl);
    out->run = NULL;
    out->json = NULL;
    out->cycles = 0;
    out->status = gms_run_file(launch_path, &opt, &out->run, out->dl);
    unlink(path);
    assert_non_null(out->run);
    gms_device *dev = gms_run_device(out->run);
    if (dev && out->status == GMS_OK) {
        assert_int_equal(gms_device_report(dev, GMS_REPORT_JSON, 0, "probe", &out->json, NULL),
                         GMS_OK);
        gms_totals t;
        assert_int_equal(gms_device_totals(dev, &t), GMS_OK);
        out->cycles = t.cycles;
    }
}

static void probe_run_fini(probe_run *r)
{
    gms_free(r->json);
    gms_run_destroy(r->run);
    gms_diag_list_destroy(r->dl);
}

/* Whether two runs of one launch file counted, executed, took and ended alike: the same
 * status, the same timing-model cycles and the same JSON report (every launch, total and
 * per-instruction counter). */
static bool runs_equal(const probe_run *a, const probe_run *b)
{
    if (a->status != b->status || a->cycles != b->cycles)
        return false;
    if (!a->json || !b->json)
        return a->json == b->json;
    /* The report names the GPU; the name is the one thing a descriptive key may change. */
    json_t *ja = json_loads(a->json, 0, NULL), *jb = json_loads(b->json, 0, NULL);
    assert_non_null(ja);
    assert_non_null(jb);
    json_object_del(ja, "gpu");
    json_object_del(jb, "gpu");
    bool equal = json_equal(ja, jb);
    json_decref(ja);
    json_decref(jb);
    return equal;
}

/* Whether the diagnostics or the fault of a run carry `rule`. */
static bool run_stopped_with(const probe_run *r, const char *rule)
{
    if (r->status == GMS_OK)
        return false;
    gms_device *dev = gms_run_device(r->run);
    gms_fault f;
    if (dev && gms_device_fault(dev, &f) == GMS_OK && f.rule && strcmp(f.rule, rule) == 0)
        return true;
    return gms_diag_list_find(r->dl, rule) >= 0;
}

static const key_probe *find_probe(const char *key)
{
    for (size_t i = 0; i < PROBE_COUNT; i++)
        if (strcmp(probes[i].key, key) == 0 || (probes[i].tied && strcmp(probes[i].tied, key) == 0))
            return &probes[i];
    return NULL;
}

/* ---- the walk over every key of every preset ---- */

/* A not-yet key: any other value is refused at the key, the preset's own value is accepted. */
static void check_not_yet_key(const gpu_config *preset, const char *section, const char *key,
                              json_t *value)
{
    assert_true(json_is_integer(value)); /* the not-yet keys are all numbers */
    json_int_t v = json_integer_value(value), changed = v ? v * 2 : 1;
    char text[512], message[512];
    gpu_config c;
    diag_list dl;
    for (int pass = 0; pass < 2; pass++) {
        snprintf(text, sizeof text, "{\n  \"base\": \"%s\",\n  \"%s\": {\n    \"%s\": %lld\n  }\n}",
                 preset->name, section, key, (long long)(pass ? v : changed));
        diag_list_init(&dl);
        int status = gpu_config_parse_override(text, strlen(text), "k.json", &c, &dl);
        if (pass == 1) { /* the preset's own value */
            assert_int_equal(status, 0);
            assert_int_equal(dl.count, 0);
            diag_list_fini(&dl);
            continue;
        }
        if (dl.count != 1)
            diag_list_print(&dl, stderr);
        assert_int_equal(status, -1);
        assert_int_equal(dl.count, 1);
        assert_string_equal(dl.items[0].rule, "CONFIG-123");
        assert_int_equal(dl.items[0].line, 4);
        assert_int_equal(dl.items[0].col, 5);
        snprintf(message, sizeof message, "%s.%s: %lld differs from %s's value (%lld); ", section,
                 key, (long long)changed, preset->name, (long long)v);
        assert_memory_equal(dl.items[0].message, message, strlen(message));
        diag_list_fini(&dl);
    }
}

/* A fixed key: its listed other value is refused with its rule at the key. */
static void check_fixed_key(const gpu_config *preset, const char *section, const char *key,
                            const char *path)
{
    size_t i = 0;
    while (i < FIXED_COUNT && strcmp(fixed_keys[i].key, path) != 0)
        i++;
    if (i == FIXED_COUNT)
        fail_msg("fixed key %s has no row in fixed_keys", path);
    char text[512];
    snprintf(text, sizeof text, "{\n  \"base\": \"%s\",\n  \"%s\": {\n    \"%s\": %s\n  }\n}",
             preset->name, section, key, fixed_keys[i].value);
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_parse_override(text, strlen(text), "k.json", &c, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, fixed_keys[i].rule);
    assert_int_equal(dl.items[0].line, 4);
    assert_int_equal(dl.items[0].col, 5);
    diag_list_fini(&dl);
}

/* One key of one preset: the model is known and its evidence exists. */
static void check_key(const gpu_config *preset, const char *section, const char *key,
                      json_t *value)
{
    char path[128];
    snprintf(path, sizeof path, "%s%s%s", section ? section : "", section ? "." : "", key);
    gpu_key_model model;
    if (gpu_config_key_model(path, &model) != 0)
        fail_msg("%s: printed by presets show, unknown to gpu_config_key_model", path);
    const key_probe *p = find_probe(path);
    switch (model) {
    case GPU_KEY_MODELLED:
        if (!p || p->outcome == PROBE_SAME)
            fail_msg("%s: modelled, but no probe shows its effect", path);
        break;
    case GPU_KEY_DESCRIPTIVE:
        if (!p || p->outcome != PROBE_SAME)
            fail_msg("%s: descriptive, but no probe shows that it changes nothing", path);
        break;
    case GPU_KEY_FIXED:
        assert_non_null(section);
        check_fixed_key(preset, section, key, path);
        break;
    case GPU_KEY_NOT_MODELLED:
        if (p)
            fail_msg("%s: on the not-yet list, but a probe claims an effect", path);
        assert_non_null(section); /* every not-yet key lives in a section */
        check_not_yet_key(preset, section, key, value);
        break;
    }
}

static void test_every_key_of_every_preset(void **state)
{
    (void)state;
    for (size_t i = 0; i < gpu_preset_count(); i++) {
        const gpu_config *preset = gpu_preset_at(i);
        char *text = gpu_config_to_json(preset);
        json_t *root = json_loads(text, 0, NULL);
        assert_non_null(root);
        size_t keys = 0;
        const char *name;
        json_t *value;
        json_object_foreach(root, name, value) {
            if (strcmp(name, "base") == 0) {
                assert_string_equal(json_string_value(value), preset->name);
                continue;
            }
            if (!json_is_object(value)) {
                check_key(preset, NULL, name, value);
                keys++;
                continue;
            }
            const char *key;
            json_t *field;
            json_object_foreach(value, key, field) {
                check_key(preset, name, key, field);
                keys++;
            }
        }
        assert_int_equal(keys, 87); /* docs/presets.md lists as many */
        json_decref(root);
        free(text);
    }
}

/* ---- the probes run ---- */

/* The two overrides of a probe load and differ in exactly its key (and the tied one). */
static void check_probe_configs(const key_probe *p)
{
    gpu_config before, after;
    diag_list dl;
    diag_list_init(&dl);
    int status = load_members(p->before, &before, &dl) | load_members(p->after, &after, &dl);
    diag_list_print(&dl, stderr);
    assert_int_equal(status, 0);
    assert_int_equal(dl.count, 0);
    diag_list_fini(&dl);
    json_t *keys = json_array();
    differing_keys(&before, &after, keys);
    size_t expected = p->tied ? 2 : 1;
    if (json_array_size(keys) != expected) {
        char *list = json_dumps(keys, 0);
        fail_msg("probe of %s changes %s", p->key, list);
    }
    size_t index;
    json_t *path;
    json_array_foreach(keys, index, path) {
        const char *s = json_string_value(path);
        assert_true(strcmp(s, p->key) == 0 || (p->tied && strcmp(s, p->tied) == 0));
    }
    json_decref(keys);
}

static void run_probe(const key_probe *p)
{
    check_probe_configs(p);
    probe_run before, after;
    run_with(p->launch, p->before, &before);
    run_with(p->launch, p->after, &after);
    gms_diag_list_print(before.dl, stderr);
    assert_int_equal(before.status, GMS_OK);
    bool same = runs_equal(&before, &after);
    switch (p->outcome) {
    case PROBE_DIFFERS:
        gms_diag_list_print(after.dl, stderr);
        assert_int_equal(after.status, GMS_OK);
        if (same)
            fail_msg("%s: changing it left every statistic of %s unchanged", p->key, p->launch);
        break;
    case PROBE_FAILS:
        if (!run_stopped_with(&after, p->rule))
            fail_msg("%s: the changed run of %s did not stop with %s", p->key, p->launch,
                     p->rule);
        break;
    case PROBE_SAME:
        assert_int_equal(after.status, GMS_OK);
        if (!same)
            fail_msg("%s: descriptive, but changing it changed a statistic of %s", p->key,
                     p->launch);
        break;
    }
    probe_run_fini(&before);
    probe_run_fini(&after);
}

static void test_probes(void **state)
{
    (void)state;
    for (size_t i = 0; i < PROBE_COUNT; i++) {
        gpu_key_model model;
        assert_int_equal(gpu_config_key_model(probes[i].key, &model), 0);
        assert_int_equal(model, probes[i].outcome == PROBE_SAME ? GPU_KEY_DESCRIPTIVE
                                                                 : GPU_KEY_MODELLED);
        run_probe(&probes[i]);
    }
}

/* ---- single cases ---- */

static void test_key_model_lookup(void **state)
{
    (void)state;
    gpu_key_model model = GPU_KEY_MODELLED;
    assert_int_equal(gpu_config_key_model("l2.slice_hash", &model), 0);
    assert_int_equal(model, GPU_KEY_MODELLED);
    assert_int_equal(gpu_config_key_model("name", &model), 0);
    assert_int_equal(model, GPU_KEY_DESCRIPTIVE);
    assert_int_equal(gpu_config_key_model("latency.dram_cycles", &model), 0);
    assert_int_equal(model, GPU_KEY_MODELLED);
    assert_int_equal(gpu_config_key_model("dram.row_bytes", &model), 0);
    assert_int_equal(model, GPU_KEY_MODELLED);
    assert_int_equal(gpu_config_key_model("crs.entry_bytes", &model), 0);
    assert_int_equal(model, GPU_KEY_NOT_MODELLED);
    static const char *const unknown[] = {"base", "l2", "l2.", "l2.sise_bytes", "l2slices",
                                          ".name", "sm.name", "", NULL};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        assert_int_equal(gpu_config_key_model(unknown[i], &model), -1);
}

/* The override that showed the problem (issue 8, item 4): write-through L2, modulo slices, one
 * partition and one-cycle DRAM gave the statistics of h100. With the timing model every one of
 * these keys is used; the one-cycle DRAM is refused only because its open-row latency would be
 * slower (CONFIG-125), and accepted with it. */
static void test_issue_example(void **state)
{
    (void)state;
    static const char text[] = "{\n"
                               "  \"l2\": {\"write_policy\": \"write_through\",\n"
                               "         \"slice_hash\": \"modulo\", \"partitions\": 1},\n"
                               "  \"latency\": {\"dram_cycles\": 1}\n"
                               "}\n";
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_parse_override(text, strlen(text), "x.json", &c, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "CONFIG-125");
    assert_string_equal(dl.items[0].message, "latency.dram_row_hit_cycles: 610 is above "
                                             "latency.dram_cycles (1)");
    diag_list_fini(&dl);
    static const char fixed[] = "{\"l2\": {\"partitions\": 1}, \"latency\": {\"dram_cycles\": 1, "
                                "\"dram_row_hit_cycles\": 1}}";
    diag_list_init(&dl);
    assert_int_equal(gpu_config_parse_override(fixed, strlen(fixed), "x.json", &c, &dl), 0);
    assert_int_equal(dl.count, 0);
    assert_int_equal(c.l2.partitions, 1);
    assert_int_equal(c.latency.dram_cycles, 1);
    diag_list_fini(&dl);
}

/* A file without "base" is compared with the default preset, whatever its name says: t4's own
 * L1.5 constant size differs from h100's. */
static void test_no_base_compares_with_default(void **state)
{
    (void)state;
    static const char text[] = "{\"name\": \"t4\", \"constant\": {\"l15_bytes\": 47104}}";
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_parse_override(text, strlen(text), "x.json", &c, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "CONFIG-123");
    assert_string_equal(dl.items[0].message, "constant.l15_bytes: 47104 differs from h100's value "
                                             "(65536); the L1.5 constant cache is not modelled "
                                             "yet");
    diag_list_fini(&dl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_model_lookup),
        cmocka_unit_test(test_every_key_of_every_preset),
        cmocka_unit_test(test_probes),
        cmocka_unit_test(test_issue_example),
        cmocka_unit_test(test_no_base_compares_with_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests for src/config: the presets, validation, JSON override loading and printing.
 *
 * The bad override files live in tests/config_bad/, one per rule; the table below gives the
 * exact diagnostic each must produce. Temporary override files go to /tmp via mkstemp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "config/gpu_config.h"

#define BAD_DIR GMS_SOURCE_DIR "/tests/config_bad/"

/* Writes `text` to a fresh temporary file; its path goes to `path` (at least 32 bytes). */
static void write_temp(char *path, const char *text)
{
    strcpy(path, "/tmp/gms_config_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    assert_int_equal(fputs(text, fp) >= 0, 1);
    assert_int_equal(fclose(fp), 0);
}

/* Loads `text` as an override; returns the status and leaves diagnostics in dl. */
static int load_text(const char *text, gpu_config *out, diag_list *dl)
{
    char path[64];
    write_temp(path, text);
    int status = gpu_config_load_override(path, out, dl);
    unlink(path);
    return status;
}

/* ---- presets ---- */

static void test_preset_lookup(void **state)
{
    (void)state;
    static const char *const names[] = {"h100", "a100", "v100", "t4", "gtx980",
                                        "pvc", "pvc-2t", "acm-g10"};
    assert_int_equal(gpu_preset_count(), 8);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(gpu_preset_at(i)->name, names[i]);
        assert_ptr_equal(gpu_preset_find(names[i]), gpu_preset_at(i));
    }
    assert_null(gpu_preset_at(8));
    assert_null(gpu_preset_find("h200"));
    assert_null(gpu_preset_find("H100"));
    assert_null(gpu_preset_find(NULL));
    assert_ptr_equal(gpu_preset_default(), gpu_preset_find("h100"));
}

static void test_every_preset_validates(void **state)
{
    (void)state;
    for (size_t i = 0; i < gpu_preset_count(); i++) {
        diag_list dl;
        diag_list_init(&dl);
        assert_int_equal(gpu_config_validate(gpu_preset_at(i), "preset", &dl), 0);
        assert_int_equal(dl.count, 0);
        diag_list_fini(&dl);
    }
}

static void test_preset_key_numbers(void **state)
{
    (void)state;
    const gpu_config *h100 = gpu_preset_find("h100");
    assert_int_equal(h100->l2.size_bytes, 52428800);
    assert_int_equal(h100->l2.persisting_max_bytes, 39321600);
    assert_int_equal(h100->l2.partitions, 2);
    assert_int_equal(h100->l1.unified_bytes, 262144);
    assert_int_equal(h100->l1.max_shared_per_cta_bytes, 232448);
    assert_int_equal(h100->l1.shared_carveout_count, 10);
    assert_int_equal(h100->l1.shared_carveouts_bytes[9], 233472);
    assert_int_equal(h100->sm_version, 90);

    const gpu_config *a100 = gpu_preset_find("a100");
    assert_int_equal(a100->l2.size_bytes, 41943040);
    assert_int_equal(a100->l2.persisting_max_bytes, 31457280);
    assert_int_equal(a100->l2.access_policy_max_window_bytes, 134213632);
    assert_int_equal(a100->l2.ways, 16);
    assert_int_equal(a100->l2.partitions, 2);
    static const uint32_t a100_carveouts[] = {0, 8192, 16384, 32768, 65536, 102400, 135168,
                                              167936};
    assert_int_equal(a100->l1.shared_carveout_count, 8);
    assert_memory_equal(a100->l1.shared_carveouts_bytes, a100_carveouts, sizeof a100_carveouts);
    assert_int_equal(a100->l1.max_shared_per_cta_bytes, 166912);

    const gpu_config *v100 = gpu_preset_find("v100");
    assert_int_equal(v100->l2.size_bytes, 6291456);
    assert_int_equal(v100->l2.persisting_max_bytes, 0);
    assert_int_equal(v100->l2.partitions, 1);
    assert_int_equal(v100->constant.l1_bytes, 2112);
    assert_int_equal(v100->latency.l1_hit_cycles, 30);

    assert_int_equal(gpu_preset_find("t4")->l2.size_bytes, 4194304);
    assert_int_equal(gpu_preset_find("t4")->l1.unified_bytes, 98304);

    const gpu_config *gtx980 = gpu_preset_find("gtx980");
    assert_int_equal(gtx980->l2.size_bytes, 2097152);
    assert_false(gtx980->l1.cache_global_loads);
    assert_int_equal(gtx980->latency.shared_load_cycles, 28);
    assert_int_equal(gtx980->latency.shared_conflict_step_cycles, 2);
    assert_int_equal(gpu_config_l1_data_bytes(gtx980, 98304), 24576);

    /* The Xe presets (§7 of the figures): Xe-cores, SLM limits, L2 sizes, 64-byte lines, tiles */
    const gpu_config *pvc = gpu_preset_find("pvc"), *pvc2 = gpu_preset_find("pvc-2t");
    const gpu_config *acm = gpu_preset_find("acm-g10");
    assert_int_equal(pvc->sm.count, 56);
    assert_int_equal(pvc->sm.tiles, 1);
    assert_int_equal(pvc->l1.unified_bytes, 512 * 1024);
    assert_int_equal(pvc->l1.max_shared_per_cta_bytes, 128 * 1024);
    assert_int_equal(pvc->l2.size_bytes, 108u << 20);
    assert_int_equal(pvc2->sm.count, 128);
    assert_int_equal(pvc2->sm.tiles, 2);
    assert_int_equal(pvc2->l2.size_bytes, 288u << 20);
    assert_int_equal(acm->l1.unified_bytes, 192 * 1024);
    assert_int_equal(acm->l1.max_shared_per_cta_bytes, 64 * 1024);
    assert_int_equal(acm->l2.size_bytes, 16u << 20);
    for (size_t i = 5; i < gpu_preset_count(); i++) {
        const gpu_config *c = gpu_preset_at(i);
        assert_int_equal(c->l1.line_bytes, 64);
        assert_int_equal(c->l1.sector_bytes, 64);
        assert_int_equal(c->l2.line_bytes, 64);
        assert_int_equal(c->l2.sector_bytes, 64);
        assert_int_equal(c->l1.shared_carveouts_bytes[c->l1.shared_carveout_count - 1],
                         128 * 1024);
    }

    for (size_t i = 0; i < 5; i++) { /* the NVIDIA presets */
        const gpu_config *c = gpu_preset_at(i);
        assert_int_equal(c->sm.tiles, 1);
        assert_int_equal(c->l1.line_bytes, 128);
        assert_int_equal(c->l1.sector_bytes, 32);
        assert_int_equal(c->l2.line_bytes, 128);
        assert_int_equal(c->l2.sector_bytes, 32);
        assert_int_equal(c->l2.dram_fill_bytes, 64);
        assert_int_equal(c->sm.warp_size, 32);
        assert_int_equal(c->shared.banks, 32);
        assert_int_equal(c->shared.bank_width_bytes, 4);
        assert_int_equal(c->l1.global_store_policy, GPU_WRITE_THROUGH);
        assert_int_equal(c->l1.local_store_policy, GPU_WRITE_BACK);
        assert_int_equal(c->l2.write_policy, GPU_WRITE_BACK);
        assert_true(i == 4 ? !c->l1.cache_global_loads : c->l1.cache_global_loads);
    }
}

static void test_small_queries(void **state)
{
    (void)state;
    const gpu_config *h100 = gpu_preset_find("h100");
    assert_int_equal(gpu_config_l1_data_bytes(h100, 16384), 245760);
    assert_int_equal(gpu_config_l1_data_bytes(h100, 300000), 0);
    uint32_t carveout = 1;
    assert_int_equal(gpu_config_pick_carveout(h100, 0, &carveout), 0);
    assert_int_equal(carveout, 0);
    assert_int_equal(gpu_config_pick_carveout(h100, 50000, &carveout), 0);
    assert_int_equal(carveout, 65536);
    assert_int_equal(gpu_config_pick_carveout(h100, 233473, &carveout), -1);
    assert_int_equal(gpu_config_l2_sets(h100), 25600);
    assert_int_equal(gpu_config_l2_sets(gpu_preset_find("a100")), 20480);
    assert_string_equal(gpu_write_policy_name(GPU_WRITE_BACK), "write_back");
    assert_string_equal(gpu_slice_hash_name(GPU_SLICE_HASH_XOR_FOLD), "xor_fold");
    assert_string_equal(gpu_replacement_name(GPU_REPLACEMENT_LRU), "lru");
    assert_null(gpu_write_policy_name((gpu_write_policy)7));
}

/* ---- printing and round trip ---- */

static void test_to_json_shape(void **state)
{
    (void)state;
    char *text = gpu_config_to_json(gpu_preset_find("a100"));
    assert_non_null(text);
    /* Keys sorted, two-space indent; "base" names the preset itself. */
    static const char prefix[] =
        "{\n  \"base\": \"a100\",\n  \"constant\": {\n    \"l15_bytes\": 65536,\n";
    assert_memory_equal(text, prefix, strlen(prefix));
    assert_non_null(strstr(text, "\n  \"l2\": {\n    \"access_policy_max_window_bytes\": "
                                 "134213632,\n"));
    assert_non_null(strstr(text, "\"size_bytes\": 41943040"));
    assert_non_null(strstr(text, "\"write_policy\": \"write_back\""));
    assert_non_null(strstr(text, "\n  \"sm_version\": 80\n}"));
    free(text);
}

/* "base" of a configuration that is no preset: the preset whose not-modelled keys it shares. */
static void test_to_json_base(void **state)
{
    (void)state;
    gpu_config c;
    memcpy(&c, gpu_preset_find("t4"), sizeof c);
    strcpy(c.name, "h100"); /* a name is no base when the keys disagree */
    c.l2.size_bytes /= 2;
    char *text = gpu_config_to_json(&c);
    assert_non_null(text);
    assert_non_null(strstr(text, "{\n  \"base\": \"t4\",\n"));
    free(text);
    c.crs.entry_bytes = 32; /* matches no preset: the closest is named */
    text = gpu_config_to_json(&c);
    assert_non_null(strstr(text, "{\n  \"base\": \"t4\",\n"));
    free(text);
}

/* Dumps c, loads the dump back (from the base it names) and expects an identical struct. */
static void assert_round_trip(const gpu_config *c)
{
    char *text = gpu_config_to_json(c);
    assert_non_null(text);
    gpu_config loaded;
    memset(&loaded, 0xa5, sizeof loaded);
    diag_list dl;
    diag_list_init(&dl);
    int status = load_text(text, &loaded, &dl);
    diag_list_print(&dl, stderr);
    assert_int_equal(status, 0);
    assert_int_equal(dl.count, 0);
    assert_true(gpu_config_equal(&loaded, c));
    assert_memory_equal(&loaded, c, sizeof loaded);
    diag_list_fini(&dl);
    free(text);
}

static void test_round_trip_every_preset(void **state)
{
    (void)state;
    for (size_t i = 0; i < gpu_preset_count(); i++)
        assert_round_trip(gpu_preset_at(i));
}

/* Fields that are equal on every preset must round-trip too: change them all, except the keys
 * that are not modelled yet (crs.*, sm.max_threads_per_cta), which must keep a preset's value
 * to load at all (CONFIG-123; tests/unit/test_config_keys.c). */
static void test_round_trip_changed_fields(void **state)
{
    (void)state;
    gpu_config c;
    memcpy(&c, gpu_preset_find("a100"), sizeof c);
    memset(c.name, 0, sizeof c.name); /* the loader leaves zeros after the NUL */
    memset(c.description, 0, sizeof c.description);
    strcpy(c.name, "custom.a100-2");
    strcpy(c.description, "made-up GPU with \"quotes\" and \xc3\xa9");
    c.l1.global_store_policy = GPU_WRITE_BACK;
    c.l1.global_store_allocate = true;
    c.l1.local_store_policy = GPU_WRITE_THROUGH;
    c.l2.write_policy = GPU_WRITE_THROUGH;
    c.l2.slice_hash = GPU_SLICE_HASH_MODULO;
    c.shared.banks = 16;
    c.shared.bank_width_bytes = 8;
    c.dram.page_bytes = 65536;
    c.l2.dram_fill_bytes = 128;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_validate(&c, NULL, &dl), 0);
    diag_list_fini(&dl);
    assert_round_trip(&c);
    assert_false(gpu_config_equal(&c, gpu_preset_find("a100")));
}

/* ---- loading ---- */

static void test_override_applies_keys(void **state)
{
    (void)state;
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    int status = load_text("{\"base\": \"a100\", \"name\": \"a100-small\",\n"
                           " \"l2\": {\"size_bytes\": 20971520, \"persisting_max_bytes\": 0},\n"
                           " \"l1\": {\"shared_carveouts_bytes\": [0, 65536],\n"
                           "        \"default_shared_carveout_bytes\": 65536,\n"
                           "        \"max_shared_per_cta_bytes\": 32768}}",
                           &c, &dl);
    assert_int_equal(status, 0);
    assert_int_equal(dl.count, 0);
    assert_string_equal(c.name, "a100-small");
    assert_int_equal(c.l2.size_bytes, 20971520);
    assert_int_equal(c.l2.persisting_max_bytes, 0);
    assert_int_equal(c.l1.shared_carveout_count, 2);
    assert_int_equal(c.l1.shared_carveouts_bytes[1], 65536);
    assert_int_equal(c.l1.shared_carveouts_bytes[2], 0);
    /* Everything else is a100. */
    const gpu_config *a100 = gpu_preset_find("a100");
    assert_int_equal(c.l2.ways, a100->l2.ways);
    assert_int_equal(c.latency.dram_cycles, a100->latency.dram_cycles);
    assert_string_equal(c.description, a100->description);
    diag_list_fini(&dl);

    /* No "base": the default preset. */
    diag_list_init(&dl);
    assert_int_equal(load_text("{\"sm\": {\"count\": 114}}", &c, &dl), 0);
    assert_string_equal(c.name, "h100");
    assert_int_equal(c.sm.count, 114);
    assert_int_equal(c.l2.size_bytes, 52428800);
    diag_list_fini(&dl);
}

typedef struct bad_override {
    const char *file;    /* under tests/config_bad/ */
    const char *rule;
    const char *message; /* exact */
    unsigned line, col;
} bad_override;

static const bad_override bad_overrides[] = {
    {"CONFIG-002_syntax_error.json", "CONFIG-002", "string or '}' expected near '}'", 3, 21},
    {"CONFIG-003_duplicate_key.json", "CONFIG-003", "duplicate object key near '\"ways\"'", 5,
     10},
    {"CONFIG-004_top_level_not_object.json", "CONFIG-004", "the top level must be an object", 0,
     0},
    {"CONFIG-005_unknown_base.json", "CONFIG-005",
     "base: no preset \"h200\" (presets: h100, a100, v100, t4, gtx980, pvc, pvc-2t, "
     "acm-g10)", 2, 3},
    {"CONFIG-006_unknown_key.json", "CONFIG-006", "l2.sise_bytes: unknown key", 4, 5},
    {"CONFIG-007_wrong_type.json", "CONFIG-007", "l2.ways: expected an integer", 4, 5},
    {"CONFIG-008_negative_count.json", "CONFIG-008", "sm.count: -1 is out of range 0..4294967295",
     3, 5},
    {"CONFIG-009_unknown_write_policy.json", "CONFIG-009",
     "l2.write_policy: unknown value \"write_around\" (allowed: \"write_through\", "
     "\"write_back\")",
     3, 5},
    {"CONFIG-010_name_too_long.json", "CONFIG-010", "name: is 45 bytes long; at most 31 allowed",
     2, 3},
    {"CONFIG-011_too_many_carveouts.json", "CONFIG-011",
     "l1.shared_carveouts_bytes: has 17 entries; at most 16 allowed", 3, 5},
    {"CONFIG-101_zero_l2_ways.json", "CONFIG-101", "l2.ways: must be positive", 3, 5},
    {"CONFIG-102_page_not_power_of_two.json", "CONFIG-102",
     "dram.page_bytes: 6144 is not a power of two", 3, 5},
    {"CONFIG-103_l1_sector_larger_than_line.json", "CONFIG-103",
     "l1.sector_bytes: 256 must divide l1.line_bytes (128)", 3, 5},
    {"CONFIG-104_l2_size_not_multiple.json", "CONFIG-104",
     "l2.size_bytes: 52429824 is not a multiple of l2.line_bytes x l2.ways (2048)", 3, 5},
    {"CONFIG-105_carveout_fills_unified.json", "CONFIG-105",
     "l1.shared_carveouts_bytes: entry 2 (196608) leaves no L1 in l1.unified_bytes (196608)", 4,
     5},
    {"CONFIG-106_default_carveout_not_listed.json", "CONFIG-106",
     "l1.default_shared_carveout_bytes: 12288 is not one of l1.shared_carveouts_bytes", 3, 5},
    {"CONFIG-107_carveouts_not_ascending.json", "CONFIG-107",
     "l1.shared_carveouts_bytes: entry 3 (16384) is not larger than the one before", 4, 5},
    {"CONFIG-108_shared_per_cta_too_large.json", "CONFIG-108",
     "l1.max_shared_per_cta_bytes: 233472 plus the 1024 reserved bytes exceeds the largest "
     "carve-out (233472)",
     3, 5},
    {"CONFIG-109_warp_size_64.json", "CONFIG-109",
     "sm.warp_size: 64 is not supported: the executor models 32-lane warps only", 3, 5},
    {"CONFIG-110_persisting_larger_than_l2.json", "CONFIG-110",
     "l2.persisting_max_bytes: 60000000 exceeds l2.size_bytes (52428800)", 3, 5},
    {"CONFIG-111_slices_do_not_divide_sets.json", "CONFIG-111",
     "l2.slices: 96 does not divide the 25600 L2 sets", 3, 5},
    {"CONFIG-112_slices_not_multiple_of_partitions.json", "CONFIG-112",
     "l2.slices: 25 is not a multiple of l2.partitions (2)", 3, 5},
    {"CONFIG-113_fill_larger_than_line.json", "CONFIG-113",
     "l2.dram_fill_bytes: 256 must lie between l2.sector_bytes (32) and l2.line_bytes (128)", 3,
     5},
    {"CONFIG-114_threads_not_warps_times_lanes.json", "CONFIG-114",
     "sm.max_threads_per_sm: 1536 differs from sm.max_warps_per_sm x sm.warp_size (2048)", 3, 5},
    /* sm.max_threads_per_cta is not in the file: the diagnostic has no position. */
    {"CONFIG-115_cta_larger_than_sm.json", "CONFIG-115",
     "sm.max_threads_per_cta: 1024 must be a multiple of sm.warp_size no larger than "
     "sm.max_threads_per_sm (512)",
     0, 0},
    {"CONFIG-117_persisting_before_ampere.json", "CONFIG-117",
     "l2.persisting_max_bytes: a persisting set-aside needs sm_version 80 or later (is 70)", 4,
     5},
    {"CONFIG-118_page_smaller_than_l2_line.json", "CONFIG-118",
     "dram.page_bytes: 64 is smaller than l2.line_bytes (128)", 3, 5},
    {"CONFIG-119_name_with_space.json", "CONFIG-119",
     "name: character 1 is not one of [a-z0-9_.-]", 2, 3},
    {"CONFIG-121_too_many_sms.json", "CONFIG-121",
     "sm.count: 100000 is above the largest supported value (4096)", 3, 5},
    {"CONFIG-122_too_many_sectors.json", "CONFIG-122",
     "l2.sector_bytes: 1 gives 128 sectors per l2.line_bytes (128); at most 64 are supported", 3,
     5},
    {"CONFIG-123_l15_not_modelled.json", "CONFIG-123",
     "constant.l15_bytes: 65536 differs from t4's value (47104); the L1.5 constant cache is not "
     "modelled yet",
     4, 5},
    {"CONFIG-116_far_below_near.json", "CONFIG-116",
     "latency.l2_far_hit_cycles: 200 is below latency.l2_near_hit_cycles (211)", 4, 5},
    {"CONFIG-125_row_hit_slower.json", "CONFIG-125",
     "latency.dram_row_hit_cycles: 600 is above latency.dram_cycles (570)", 4, 5},
    {"CONFIG-126_row_below_interleave.json", "CONFIG-126",
     "dram.row_bytes: 128 is smaller than the 256-byte channel interleave", 4, 5},
    {"CONFIG-140_tiles_uneven.json", "CONFIG-140",
     "sm.tiles: 3 must divide sm.count (128) and l2.slices (128)", 4, 5},
};

static void test_bad_overrides(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_overrides / sizeof bad_overrides[0]; i++) {
        const bad_override *b = &bad_overrides[i];
        char path[512];
        snprintf(path, sizeof path, "%s%s", BAD_DIR, b->file);
        gpu_config c;
        diag_list dl;
        diag_list_init(&dl);
        assert_int_equal(gpu_config_load_override(path, &c, &dl), -1);
        if (dl.count != 1)
            diag_list_print(&dl, stderr);
        assert_int_equal(dl.count, 1);
        assert_int_equal(dl.errors, 1);
        assert_string_equal(dl.items[0].rule, b->rule);
        assert_string_equal(dl.items[0].message, b->message);
        assert_string_equal(dl.items[0].file, path);
        assert_int_equal(dl.items[0].line, b->line);
        assert_int_equal(dl.items[0].col, b->col);
        diag_list_fini(&dl);
    }
}

static void test_too_many_errors(void **state)
{
    (void)state;
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(
        gpu_config_load_override(BAD_DIR "CONFIG-013_too_many_errors.json", &c, &dl), -1);
    assert_int_equal(dl.count, 101);
    assert_string_equal(dl.items[0].rule, "CONFIG-006");
    assert_string_equal(dl.items[0].message, "unknown_000: unknown key");
    assert_int_equal(dl.items[99].line, 101);
    assert_string_equal(dl.items[100].rule, "CONFIG-013");
    diag_list_fini(&dl);
}

static void test_missing_file(void **state)
{
    (void)state;
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_load_override(BAD_DIR "no_such_file.json", &c, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "CONFIG-001");
    assert_string_equal(dl.items[0].message, "cannot open the file: No such file or directory");
    diag_list_fini(&dl);

    diag_list_init(&dl); /* a directory opens but cannot be read */
    assert_int_equal(gpu_config_load_override(BAD_DIR, &c, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "CONFIG-001");
    diag_list_fini(&dl);
}

/* Odd but valid JSON shapes: each gives exactly the expected diagnostic and no crash. */
static void test_odd_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *text, *rule, *message;
        unsigned line, col;
    } cases[] = {
        {"{\"l2\": [{\"ways\": 1}]}", "CONFIG-007", "l2: expected an object", 1, 2},
        {"{\"l2\": {\"ways\": 16.0}}", "CONFIG-007", "l2.ways: expected an integer", 1, 9},
        {"{\"l1\": {\"cache_global_loads\": 1}}", "CONFIG-007",
         "l1.cache_global_loads: expected true or false", 1, 9},
        {"{\"base\": 3}", "CONFIG-007", "base: expected a preset name", 1, 2},
        {"{\"sm\": {\"count\": 4294967296}}", "CONFIG-008",
         "sm.count: 4294967296 is out of range 0..4294967295", 1, 9},
        {"{\"l1\": {\"shared_carveouts_bytes\": [0, \"8\"]}}", "CONFIG-007",
         "l1.shared_carveouts_bytes: expected an integer", 1, 9},
        {"{\"l2\": {\"size_bytes\": 123456789012345678901234}}", "CONFIG-002",
         "too big integer", 1, 46},
        /* An escaped key is matched by value; its position is not recovered. */
        {"{\"l2\": {\"wa\\u0079s\": 0}}", "CONFIG-101", "l2.ways: must be positive", 0, 0},
        {"{\"x\": {\"l2\": {\"ways\": 0}}, \"l2\": {\"ways\": 0}}", "CONFIG-006",
         "x: unknown key", 1, 2},
        {"{\"name\": \"ok\", \"description\": \"two\\nlines\"}", "CONFIG-119",
         "description: character 4 is a control character", 1, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpu_config c;
        diag_list dl;
        diag_list_init(&dl);
        assert_int_equal(load_text(cases[i].text, &c, &dl), -1);
        assert_int_equal(dl.count, 1);
        assert_string_equal(dl.items[0].rule, cases[i].rule);
        assert_string_equal(dl.items[0].message, cases[i].message);
        assert_int_equal(dl.items[0].line, cases[i].line);
        assert_int_equal(dl.items[0].col, cases[i].col);
        diag_list_fini(&dl);
    }
}

/* Text in memory: only `length` bytes are read, and a NULL file name becomes "". */
static void test_parse_override_text(void **state)
{
    (void)state;
    static const char text[] = "{\"sm\": {\"count\": 7}}{\"sm\": 1}";
    gpu_config c;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_parse_override(text, 20, NULL, &c, &dl), 0);
    assert_int_equal(dl.count, 0);
    assert_int_equal(c.sm.count, 7);
    assert_int_equal(gpu_config_parse_override(text, 21, NULL, &c, &dl), -1);
    assert_int_equal(dl.count, 1);
    assert_string_equal(dl.items[0].rule, "CONFIG-002");
    assert_string_equal(dl.items[0].file, "");
    diag_list_fini(&dl);
}

/* ---- validation of structs built in code ---- */

typedef struct geometry_case {
    const char *rule;
    const char *message; /* exact */
    void (*mutate)(gpu_config *c);
} geometry_case;

static void zero_l1_ways(gpu_config *c) { c->l1.ways = 0; }
static void line_not_power_of_two(gpu_config *c) { c->instruction.l0_line_bytes = 96; }
static void l1_sector_larger_than_line(gpu_config *c) { c->l1.sector_bytes = 512; }
static void constant_size_not_multiple(gpu_config *c) { c->constant.l1_bytes = 2048; }
static void l1_capacity_not_multiple(gpu_config *c) { c->l1.ways = 3; }
static void carveout_larger_than_unified(gpu_config *c) { c->l1.unified_bytes = 131072; }
static void persisting_larger_than_l2(gpu_config *c) { c->l2.persisting_max_bytes = 52428801; }
static void slices_do_not_divide_sets(gpu_config *c) { c->l2.slices = 48; }
static void enum_out_of_range(gpu_config *c) { c->l2.slice_hash = (gpu_slice_hash)5; }
static void name_not_terminated(gpu_config *c) { memset(c->name, 'a', sizeof c->name); }
static void empty_carveout_list(gpu_config *c) { c->l1.shared_carveout_count = 0; }
static void too_long_carveout_list(gpu_config *c) { c->l1.shared_carveout_count = 17; }
static void partitions_do_not_divide_slices(gpu_config *c) { c->l2.partitions = 3; }
static void cta_not_whole_warps(gpu_config *c) { c->sm.max_threads_per_cta = 1000; }
static void tiles_uneven(gpu_config *c) { c->sm.tiles = 3; }
static void far_hit_below_near_hit(gpu_config *c) { c->latency.l2_far_hit_cycles = 200; }
static void row_hit_above_row_miss(gpu_config *c) { c->latency.dram_row_hit_cycles = 651; }
static void row_below_interleave(gpu_config *c) { c->dram.row_bytes = 128; }
static void window_before_ampere(gpu_config *c)
{
    c->sm_version = 75;
    c->l2.persisting_max_bytes = 0;
}

static const geometry_case geometry_cases[] = {
    {"CONFIG-101", "l1.ways: must be positive", zero_l1_ways},
    {"CONFIG-102", "instruction.l0_line_bytes: 96 is not a power of two", line_not_power_of_two},
    {"CONFIG-103", "l1.sector_bytes: 512 must divide l1.line_bytes (128)",
     l1_sector_larger_than_line},
    {"CONFIG-104", "constant.l1_bytes: 2048 is not a multiple of constant.l1_line_bytes x "
                   "constant.l1_ways (2112)",
     constant_size_not_multiple},
    {"CONFIG-104", "l1.ways: the L1 left by carve-out 0 (262144 bytes) is not a multiple of "
                   "l1.line_bytes x l1.ways (384)",
     l1_capacity_not_multiple},
    {"CONFIG-105", "l1.shared_carveouts_bytes: entry 6 (135168) leaves no L1 in "
                   "l1.unified_bytes (131072)",
     carveout_larger_than_unified},
    {"CONFIG-110", "l2.persisting_max_bytes: 52428801 exceeds l2.size_bytes (52428800)",
     persisting_larger_than_l2},
    {"CONFIG-111", "l2.slices: 48 does not divide the 25600 L2 sets", slices_do_not_divide_sets},
    {"CONFIG-120", "l2.slice_hash: enumeration value 5 is out of range", enum_out_of_range},
    {"CONFIG-119", "name: must be 1 to 31 characters", name_not_terminated},
    {"CONFIG-107", "l1.shared_carveouts_bytes: must list 1 to 16 carve-outs (has 0)",
     empty_carveout_list},
    {"CONFIG-107", "l1.shared_carveouts_bytes: must list 1 to 16 carve-outs (has 17)",
     too_long_carveout_list},
    {"CONFIG-117", "l2.access_policy_max_window_bytes: access-policy windows need sm_version 80 "
                   "or later (is 75)",
     window_before_ampere},
    /* Rules about keys that an override cannot change (CONFIG-123/124) hold for structs. */
    {"CONFIG-112", "l2.slices: 80 is not a multiple of l2.partitions (3)",
     partitions_do_not_divide_slices},
    {"CONFIG-115", "sm.max_threads_per_cta: 1000 must be a multiple of sm.warp_size no larger "
                   "than sm.max_threads_per_sm (2048)",
     cta_not_whole_warps},
    {"CONFIG-116", "latency.l2_far_hit_cycles: 200 is below latency.l2_near_hit_cycles (265)",
     far_hit_below_near_hit},
    {"CONFIG-125", "latency.dram_row_hit_cycles: 651 is above latency.dram_cycles (650)",
     row_hit_above_row_miss},
    {"CONFIG-126", "dram.row_bytes: 128 is smaller than the 256-byte channel interleave",
     row_below_interleave},
    {"CONFIG-140", "sm.tiles: 3 must divide sm.count (132) and l2.slices (80)", tiles_uneven},
};

static void test_validate_rejects_geometry(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof geometry_cases / sizeof geometry_cases[0]; i++) {
        gpu_config c;
        memcpy(&c, gpu_preset_find("h100"), sizeof c);
        geometry_cases[i].mutate(&c);
        diag_list dl;
        diag_list_init(&dl);
        assert_int_equal(gpu_config_validate(&c, "x.json", &dl), -1);
        if (dl.count != 1)
            diag_list_print(&dl, stderr);
        assert_int_equal(dl.count, 1);
        assert_string_equal(dl.items[0].rule, geometry_cases[i].rule);
        assert_string_equal(dl.items[0].message, geometry_cases[i].message);
        assert_string_equal(dl.items[0].file, "x.json");
        assert_int_equal(dl.items[0].line, 0);
        diag_list_fini(&dl);
    }
}

/* Several violations are all reported, not only the first. */
static void test_validate_reports_every_error(void **state)
{
    (void)state;
    gpu_config c;
    memcpy(&c, gpu_preset_find("v100"), sizeof c);
    c.l2.ways = 0;
    c.dram.page_bytes = 3000;
    c.latency.dram_cycles = 0;
    diag_list dl;
    diag_list_init(&dl);
    assert_int_equal(gpu_config_validate(&c, NULL, &dl), -1);
    assert_int_equal(dl.count, 3);
    assert_string_equal(dl.items[0].message, "l2.ways: must be positive");
    assert_string_equal(dl.items[1].message, "dram.page_bytes: 3000 is not a power of two");
    assert_string_equal(dl.items[2].message, "latency.dram_cycles: must be positive");
    diag_list_fini(&dl);
    assert_null(gpu_config_to_json(&(gpu_config){.l2.write_policy = (gpu_write_policy)9}));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preset_lookup),
        cmocka_unit_test(test_every_preset_validates),
        cmocka_unit_test(test_preset_key_numbers),
        cmocka_unit_test(test_small_queries),
        cmocka_unit_test(test_to_json_shape),
        cmocka_unit_test(test_to_json_base),
        cmocka_unit_test(test_round_trip_every_preset),
        cmocka_unit_test(test_round_trip_changed_fields),
        cmocka_unit_test(test_override_applies_keys),
        cmocka_unit_test(test_bad_overrides),
        cmocka_unit_test(test_too_many_errors),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_odd_shapes),
        cmocka_unit_test(test_parse_override_text),
        cmocka_unit_test(test_validate_rejects_geometry),
        cmocka_unit_test(test_validate_reports_every_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

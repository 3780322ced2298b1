/* libFuzzer target for GPU configuration overrides (src/config): parses the input bytes as an
 * override file held in memory and, when they are accepted, checks the round trip that
 * `gpumemsim presets show` promises: the configuration printed as JSON must load back into an
 * identical struct. A broken round trip aborts, so the fuzzer reports it like a crash.
 * Also exercises the derived-geometry helpers on whatever was accepted.
 * Seeds: tests/fuzz/corpus_config/; crashes found so far: tests/fuzz/regressions_config/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/gpu_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints `config` as JSON, parses the text again and aborts unless the result is identical. */
static void check_round_trip(const gpu_config *config)
{
    char *json = gpu_config_to_json(config);
    if (!json)
        abort(); /* an accepted configuration always prints (out of memory aside) */
    gpu_config reloaded;
    diag_list dl;
    diag_list_init(&dl);
    int status = gpu_config_parse_override(json, strlen(json), "fuzz/round_trip.json",
                                           &reloaded, &dl);
    if (status != 0 || dl.errors != 0 || !gpu_config_equal(config, &reloaded))
        abort();
    diag_list_fini(&dl);
    free(json);
}

/* Calls the helpers that derive sizes from an accepted configuration. */
static void exercise_geometry(const gpu_config *config)
{
    uint32_t carveout_bytes = 0;
    (void)gpu_config_l2_sets(config);
    for (uint32_t shared_bytes = 0; shared_bytes <= 256u * 1024; shared_bytes += 48u * 1024) {
        if (gpu_config_pick_carveout(config, shared_bytes, &carveout_bytes) == 0)
            (void)gpu_config_l1_data_bytes(config, carveout_bytes);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gpu_config config;
    diag_list dl;
    diag_list_init(&dl);
    int status = gpu_config_parse_override((const char *)data, size, "fuzz/config.json",
                                           &config, &dl);
    char line[1024];
    for (size_t i = 0; i < dl.count; i++)
        diag_format(&dl.items[i], line, sizeof line);
    if (status == 0 && dl.errors == 0) {
        check_round_trip(&config);
        exercise_geometry(&config);
    }
    diag_list_fini(&dl);
    return 0;
}

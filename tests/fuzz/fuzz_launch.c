/* libFuzzer target for launch files: parses the input bytes as a launch file held in memory, then
 * creates the initial contents of every buffer and checks every expectation against them, and
 * frees everything. Outputs are never written (the fuzzer must not create files). Buffers are
 * capped at 1 MiB in total so that each input stays fast. Seeds: tests/fuzz/corpus_launch/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "launch/launch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const launch_desc *d, diag_list *dl)
{
    uint8_t **contents = calloc(d->nbuffers ? d->nbuffers : 1, sizeof *contents);
    launch_expect_result *results = calloc(d->nexpects ? d->nexpects : 1, sizeof *results);
    int ok = contents && results;
    for (size_t i = 0; ok && i < d->nbuffers; i++) {
        contents[i] = malloc(d->buffers[i].bytes);
        ok = contents[i] && launch_init_buffer(d, i, contents[i], dl) == 0;
    }
    if (ok)
        launch_check_expectations(d, (const uint8_t *const *)contents, results, dl);
    for (size_t i = 0; contents && i < d->nbuffers; i++)
        free(contents[i]);
    free(contents);
    free(results);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    launch_limits limits = launch_limits_default();
    limits.max_total_bytes = 1 << 20;
    diag_list dl;
    diag_list_init(&dl);
    launch_desc *d =
        launch_load_text_limits("fuzz/launch.json", (const char *)data, size, &limits, &dl);
    if (d)
        exercise(d, &dl);
    char line[1024];
    for (size_t i = 0; i < dl.count; i++)
        diag_format(&dl.items[i], line, sizeof line);
    launch_destroy(d);
    diag_list_fini(&dl);
    return 0;
}

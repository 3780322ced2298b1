/* libFuzzer entry point for the PTX front-end: parses arbitrary bytes as a module and frees
 * everything. Built with -DGMS_FUZZ=ON (clang); seeds are in tests/fuzz/corpus_ptx/. */
#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module("fuzz.ptx", (const char *)data, size, &dl);
    ir_module_destroy(m);
    diag_list_fini(&dl);
    return 0;
}

/* libFuzzer target for the PTX front-end: parses arbitrary bytes as a module and, when the module
 * is accepted, prepares it for execution as `gpumemsim check` does (exec_program_create picks the
 * semantics of every instruction), renders every diagnostic, and frees everything. It does not
 * run kernels: that needs a launch file. Built with -DGMS_FUZZ=ON (clang); replayed in every
 * build by replay_ptx. Seeds: tests/fuzz/corpus_ptx/; past crashes: tests/fuzz/regressions_ptx/. */
#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = ptx_parse_module("fuzz.ptx", (const char *)data, size, &dl);
    if (m && dl.errors == 0)
        exec_program_destroy(exec_program_create(m, &dl));
    char line[1024];
    for (size_t i = 0; i < dl.count; i++)
        diag_format(&dl.items[i], line, sizeof line);
    ir_module_destroy(m);
    diag_list_fini(&dl);
    return 0;
}

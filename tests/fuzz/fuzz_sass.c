/* libFuzzer target for the SASS-style front-end (docs/sass.md): parses, checks and lowers
 * arbitrary bytes as a .sass module and, when the module is accepted, verifies the IR it returned
 * (ir_verify) and prepares it for execution as `gpumemsim check` does (exec_program_create).
 * Every diagnostic is rendered, and everything is freed. It does not run kernels: that needs a
 * launch file.
 *
 * Besides crashes, leaks and sanitizer reports, it aborts on what the front-end's contract
 * (sass.h) forbids: a module returned together with errors, NULL returned without an error, an
 * IR-VERIFY-* diagnostic (the lowering broke an IR invariant; debug builds verify inside the
 * front-end), or an accepted module that ir_verify or exec_program_create rejects (the lowering
 * promises a module the executor runs: docs/sass.md, "Lowering"). Built with -DGMS_FUZZ=ON (clang);
 * replayed in every build by replay_sass. Seeds: tests/fuzz/corpus_sass/; past crashes:
 * tests/fuzz/regressions_sass/. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "ir/ir_verify.h"
#include "sass/sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Renders every diagnostic of `dl`; aborts, after printing it, on the first IR-VERIFY one and,
 * when `accepted` (the front-end returned a module), on the first error of any rule. */
static void render_all(const diag_list *dl, bool accepted)
{
    char line[1024];
    for (size_t i = 0; i < dl->count; i++) {
        diag_format(&dl->items[i], line, sizeof line);
        if (strncmp(dl->items[i].rule, "IR-VERIFY-", 10) == 0 ||
            (accepted && dl->items[i].severity == DIAG_ERROR)) {
            fprintf(stderr, "fuzz_sass: %s: %s\n",
                    accepted ? "an accepted module fails" : "the lowering broke the IR", line);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_list dl;
    diag_list_init(&dl);
    ir_module *m = sass_parse_module("fuzz.sass", (const char *)data, size, &dl);
    render_all(&dl, false);
    if ((m != NULL) == (dl.errors != 0)) {
        fprintf(stderr, "fuzz_sass: module %s with %zu error(s)\n", m ? "returned" : "NULL",
                dl.errors);
        abort();
    }
    if (m) {
        ir_verify(m, &dl);
        exec_program_destroy(exec_program_create(m, &dl));
        render_all(&dl, true);
    }
    ir_module_destroy(m);
    diag_list_fini(&dl);
    return 0;
}

/* The simulation layer's own helpers, below the public API that src/sim/gms_*.c implement
 * (include/gpumemsim/): the memory system's configuration from a GPU preset, and reading and
 * parsing kernel files. Module loading goes through sim_parse_module alone, so that the choice of
 * front-end lives in one place. Nothing here prints. */
#ifndef GMS_SIM_SIM_H
#define GMS_SIM_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "config/gpu_config.h"
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "mem/memsys.h"

/* The default runaway limit per launch, warp instructions. */
#define SIM_DEFAULT_MAX_INSTRUCTIONS 2000000000ull
/* The device heap's default size, as CUDA's cudaLimitMallocHeapSize (docs/launch-files.md). */
#define SIM_DEFAULT_HEAP_BYTES (8ull << 20)
#define SIM_MAX_HEAP_BYTES (1ull << 30)
/* The largest kernel file read, bytes (SIM-IO-003; docs/launch-files.md, "Checks of a run"). */
#define SIM_MAX_MODULE_BYTES (256ull << 20)

/* The memory system's geometry and policies from a preset, with the L1/shared split chosen for
 * `shared_per_sm` bytes of shared memory (the largest need of any launch; 0: the preset's default
 * carve-out). Returns 0, or -1 with SIM-SHARED-001 (naming `path`; dl may be NULL) when no
 * carve-out holds it. */
int sim_memsys_config(const gpu_config *g, uint32_t shared_per_sm, memsys_config *c,
                      const char *path, diag_list *dl);

/* Where a problem with a kernel file is reported: at a field of the caller's input (a launch
 * file's "module"), or, when file is NULL, at the kernel file itself. */
typedef struct sim_origin {
    const char *file;
    unsigned line, col;
    const char *field;
} sim_origin;

/* The dialect of a kernel file named `path`, from its suffix and the built-in dialect registry
 * (src/frontend/frontend.h): "ptx" for .ptx; NULL when no dialect claims the suffix. */
const char *sim_dialect_of_path(const char *path);

/* Reports SIM-DIALECT-001 for `path` at `o` (NULL: at the file itself), naming the files the
 * registered dialects read. */
void sim_dialect_error(const char *path, const sim_origin *o, diag_list *dl);

/* Reports SIM-DIALECT-002: no dialect of `reg` (NULL: the built-in ones) is called `name`; at
 * `o` (the launch file's "dialect"), or at `path` when o is NULL. */
void sim_dialect_name_error(const frontend_registry *reg, const char *name, const sim_origin *o,
                            const char *path, diag_list *dl);

/* Reads a whole kernel file into a malloc'd, NUL-terminated buffer; *len receives its bytes.
 * Only a regular file of at most SIM_MAX_MODULE_BYTES is read (a FIFO or device is refused
 * without blocking). Returns NULL with SIM-IO-001 (cannot open or read), SIM-IO-002 (not a
 * regular file) or SIM-IO-003 (too large), at `o` (NULL: at the file itself). */
char *sim_read_module(const char *path, const sim_origin *o, size_t *len, diag_list *dl);

/* Parses, checks and lowers `len` bytes of kernel `text` (borrowed) with the front-end of
 * `dialect` (a registered name; NULL: chosen by the suffix of `path`, which names the text in
 * diagnostics) from `reg` (NULL: frontend_builtin()). The one place that picks a front-end.
 * Returns the module (the caller frees it with ir_module_destroy), or NULL with SIM-DIALECT-001
 * (no dialect claims the suffix), SIM-DIALECT-002 (no dialect has the name) or the front-end's
 * diagnostics (PTX-*). sim_parse_module uses the built-in registry. */
ir_module *sim_parse_module_in(const frontend_registry *reg, const char *path, const char *text,
                               size_t len, const char *dialect, diag_list *dl);
ir_module *sim_parse_module(const char *path, const char *text, size_t len, const char *dialect,
                            diag_list *dl);

/* Writes the listing of `dialect` (NULL: every built-in dialect) to `out`: per dialect a heading
 * line "# dialect NAME: FILES, DOC", then, when `ops`, the instructions it accepts
 * (`gpumemsim check --list-ops`) and, when `rules`, its rule ids with their meaning
 * (`--list-rules`). Returns 0, or -1 when no dialect has that name. */
int sim_list_dialects(const char *dialect, int ops, int rules, FILE *out);

/* The names of the built-in dialects, comma-separated, in `buf` (size bytes); returns buf. */
const char *sim_dialect_names(char *buf, size_t size);

/* Line `line` (1-based) of `len` bytes of `text` without surrounding blanks, malloc'd (the caller
 * frees it; "" past the end); NULL when line is 0 or out of memory. */
char *sim_text_line(const char *text, size_t len, uint32_t line);

#endif

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
#include "ir/ir.h"
#include "mem/memsys.h"

/* The default runaway limit per launch, warp instructions. */
#define SIM_DEFAULT_MAX_INSTRUCTIONS 2000000000ull
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

/* The dialect of a kernel file named `path`, from its suffix: "ptx" for .ptx; NULL otherwise. */
const char *sim_dialect_of_path(const char *path);

/* Reports SIM-DIALECT-001 for `path` at `o` (NULL: at the file itself). */
void sim_dialect_error(const char *path, const sim_origin *o, diag_list *dl);

/* Reads a whole kernel file into a malloc'd, NUL-terminated buffer; *len receives its bytes.
 * Only a regular file of at most SIM_MAX_MODULE_BYTES is read (a FIFO or device is refused
 * without blocking). Returns NULL with SIM-IO-001 (cannot open or read), SIM-IO-002 (not a
 * regular file) or SIM-IO-003 (too large), at `o` (NULL: at the file itself). */
char *sim_read_module(const char *path, const sim_origin *o, size_t *len, diag_list *dl);

/* Parses, checks and lowers `len` bytes of kernel `text` (borrowed) in `dialect` ("ptx"; NULL:
 * chosen from the suffix of `path`, which names the text in diagnostics). The one place that
 * picks a front-end. Returns the module (the caller frees it with ir_module_destroy), or NULL
 * with SIM-DIALECT-001 (at the file) or the front-end's diagnostics (PTX-*). */
ir_module *sim_parse_module(const char *path, const char *text, size_t len, const char *dialect,
                            diag_list *dl);

/* Writes the instructions `dialect` accepts (`gpumemsim check --list-ops`) to `out`. Returns 0,
 * or -1 when the dialect is unknown. */
int sim_list_ops(const char *dialect, FILE *out);

/* Line `line` (1-based) of `len` bytes of `text` without surrounding blanks, malloc'd (the caller
 * frees it; "" past the end); NULL when line is 0 or out of memory. */
char *sim_text_line(const char *text, size_t len, uint32_t line);

#endif

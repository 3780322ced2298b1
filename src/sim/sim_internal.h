/* The outputs of the launch-file runner (sim_run.c): checked before the run and written after it
 * (sim_outputs.c). Nothing outside src/sim/ includes this header. */
#ifndef GMS_SIM_SIM_INTERNAL_H
#define GMS_SIM_SIM_INTERNAL_H

#include <stdint.h>

#include "base/diag.h"
#include "launch/launch.h"

/* Checks every output of the run before it starts (docs/launch-files.md, "Outputs"): the launch
 * file's outputs and json_path (--json; NULL: none). An output must not be the same file (device
 * and inode) as an input (the launch file, the module, the launch file's GPU configuration file
 * or config_path (--config; may be NULL), an init or expectation file):
 * SIM-OUT-001; nor the same file as another output, spelt differently: SIM-OUT-002; it must be
 * absent or a regular file, in a folder where a file can be created (tried by creating and
 * removing a temporary file): SIM-OUT-003. Diagnostics point at the output's field in the launch
 * file, or at the command line ("gpumemsim: ... --json") for the JSON report. Returns 0, or -1
 * after reporting every problem found. */
int sim_outputs_check(const launch_desc *L, const char *config_path, const char *json_path,
                      diag_list *dl);

/* Writes the launch file's outputs from `reader` (launch_stage_outputs_from) and, when
 * json_path is not NULL, json_text (NUL-terminated) to json_path, all or nothing: each goes to a
 * temporary file in its folder first, and the targets are replaced only when every one was
 * written. Returns 0, or -1 with LAUNCH-IO-002 (a launch-file output) or SIM-OUT-004 (the JSON
 * report, or a rename that failed). */
int sim_outputs_write(const launch_desc *L, const launch_buffer_reader *reader,
                      const char *json_path, const char *json_text, diag_list *dl);

#endif

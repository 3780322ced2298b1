/* What the parts of `gpumemsim sweep` share (sweep.h; docs/sweeps.md). The sweep file is
 * expanded into a *manifest* (the folder's manifest.json, schema gpumemsim-sweep/1) that names
 * every run; each run lives in runs/<id>/ of the sweep folder, where its job leaves stats.json
 * (the run's JSON report), stdout, stderr and status (its exit status). The table and the plots
 * are built from those files alone, so that runs made anywhere can be merged. */
#ifndef GMS_TOOLS_SWEEP_INTERNAL_H
#define GMS_TOOLS_SWEEP_INTERNAL_H

#include <jansson.h>
#include <stddef.h>

/* The file names inside a sweep folder. */
#define SWEEP_MANIFEST "manifest.json"
#define SWEEP_JOBS "jobs.txt"
#define SWEEP_SBATCH "sweep.sbatch"
#define SWEEP_CSV "table.csv"
#define SWEEP_JSONL "table.jsonl"

/* Prints `path:line:col: error: message [rule]` (or `path: error: ...` when line is 0) on stderr,
 * the one printed form of the command line's diagnostics. */
void sweep_error(const char *path, unsigned line, unsigned col, const char *rule,
                 const char *format, ...) __attribute__((format(printf, 5, 6)));

/* Reads the sweep file at `path` (docs/sweeps.md, "The sweep file"), checks it and expands its
 * grid into a manifest (returned, owned by the caller; json_decref). Every relative path in it
 * is resolved against the sweep file's folder. Returns NULL after printing the diagnostics
 * (CLI-SWEEP-001 to -009, -011). Creates no file. */
json_t *sweep_file_expand(const char *path);

/* Loads `dir`/manifest.json (owned by the caller), or prints CLI-SWEEP-012 and returns NULL. */
json_t *sweep_manifest_load(const char *dir);

/* The path of this program (/proc/self/exe) in `out` (`len` bytes). Returns 0 or -1. */
int sweep_self_path(char *out, size_t len);

/* Runs run `index` of the sweep folder `dir` (absolute or relative): `gpumemsim run` with the
 * run's preset, configuration and flags, its stdout and stderr in runs/<id>/, and then writes
 * runs/<id>/status. Returns the run's exit status (0, 1 or 2; 128 + N after signal N), or 2 when
 * the run could not be started (printed, CLI-SWEEP-012 or -013). */
int sweep_job(const char *dir, size_t index);

/* Runs every run of the manifest in `dir`, at most `jobs` at a time (a pool of forked
 * processes). Returns 0 when all exited 0, else 1; failures are printed as they end. */
int sweep_pool(const char *dir, const json_t *manifest, unsigned jobs, int quiet);

/* Writes the job list for GNU parallel (dir/jobs.txt) or the Slurm job-array script
 * (dir/sweep.sbatch) and prints how to run it. Returns 0, or 2 (printed). */
int sweep_emit_parallel(const char *dir, const json_t *manifest);
int sweep_emit_slurm(const char *dir, const json_t *manifest);

/* Collects every run of `dir` into dir/table.csv and dir/table.jsonl and draws the manifest's
 * plots. Returns 0; 1 when some runs failed or did not run (listed on stderr; their rows have
 * exit_status set or null); 2 when the table could not be written. */
int sweep_merge(const char *dir, const json_t *manifest, int quiet);

/* Draws `plot` (one object of the manifest's "plots") from the merged rows: writes
 * dir/<stem>.dat and dir/<stem>.gp and runs gnuplot in `dir`. `columns` is the table's column
 * names, `rows` its row objects. Returns 0, or 1 (printed: CLI-SWEEP-014, -015). */
int sweep_plot(const char *dir, const json_t *plot, const json_t *columns, const json_t *rows);

/* Writes `text` (`len` bytes) to `path` through a temporary file renamed over it, so that a
 * reader never sees half a file. Returns 0, or -1 with errno set. */
int sweep_write_file(const char *path, const char *text, size_t len);

#endif

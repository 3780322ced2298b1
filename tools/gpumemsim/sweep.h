/* `gpumemsim sweep` (docs/sweeps.md): runs a grid of launch files x GPU presets x configuration
 * values x run flags, locally with a process pool or through GNU parallel or a Slurm job array,
 * and merges every run's JSON report into one table (CSV and JSON Lines) and optional plots.
 * Part of the command line: it prints and returns an exit status. */
#ifndef GMS_TOOLS_SWEEP_H
#define GMS_TOOLS_SWEEP_H

/* The `sweep` command; argv[0] is "sweep". Returns the exit status: 0 every run succeeded and
 * the table was written; 1 some runs failed or did not run (their rows say so); 2 bad input
 * (a bad sweep file, option or folder), with the diagnostics printed on stderr. */
int sweep_command(int argc, char **argv);

#endif

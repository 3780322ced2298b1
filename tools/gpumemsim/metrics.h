/* `gpumemsim metrics`: lists the Nsight Compute metrics of the JSON report's "ncu" objects and
 * how gpumemsim computes each (docs/statistics.md, "Nsight Compute metrics"). Part of the
 * command line. */
#ifndef GMS_TOOLS_METRICS_H
#define GMS_TOOLS_METRICS_H

/* Runs `gpumemsim metrics [NAME...]`; argv[0] is "metrics". Without a NAME it prints every
 * metric, one per line (name, unit, when it is computed, how), after a header; with NAMEs only
 * those, in the order given. Returns the exit status: 0, or 2 for an unknown option
 * (CLI-METRICS-002) or a name that is not in the mapping (CLI-METRICS-001), each reported on
 * stderr before anything is printed on stdout. */
int metrics_command(int argc, char **argv);

#endif

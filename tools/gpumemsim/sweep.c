/* `gpumemsim sweep` (sweep.h; docs/sweeps.md): its command line and the sweep folder. The
 * sweep file is expanded (sweep_file.c) into the folder's manifest and one folder per run; the
 * runs are then made by the local pool, GNU parallel or Slurm (sweep_run.c), all of which run
 * `gpumemsim sweep --job DIR INDEX`; the table and the plots are built from what the runs left
 * (sweep_table.c, sweep_plot.c). */
#define _GNU_SOURCE /* realpath, readlink, mkstemp */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"
#include "sweep_internal.h"

static const char usage[] =
    "usage: gpumemsim sweep SWEEP.json [options]\n"
    "       gpumemsim sweep --merge DIR [options]\n"
    "       gpumemsim sweep --job DIR INDEX\n"
    "run a grid of launch files x GPU presets x configuration values x run flags and merge the\n"
    "runs' statistics into one table (DIR/table.csv, DIR/table.jsonl) and plots\n"
    "(docs/sweeps.md)\n"
    "\n"
    "options:\n"
    "  --dir DIR              the sweep folder: runs, table and plots (default: SWEEP's name\n"
    "                         without .json, plus .sweep, in the current folder); new or empty\n"
    "  -j N, --jobs N         runs at once in the local pool (default: the machine's cores)\n"
    "  --emit parallel|slurm  do not run: write DIR/jobs.txt for GNU parallel or DIR/sweep.sbatch\n"
    "                         (a Slurm job array); merge their results with --merge DIR\n"
    "  --merge DIR            build DIR's table and plots from the runs made so far\n"
    "  --job DIR INDEX        make run INDEX of DIR (what jobs.txt and sweep.sbatch call)\n"
    "  --quiet                print only failures\n"
    "  --help                 print this help and exit\n"
    "\n"
    "exit status: 0 every run succeeded and the table was written, 1 some runs failed or did not\n"
    "run (their rows say so), 2 bad input; --job exits with its run's status\n";

void sweep_error(const char *path, unsigned line, unsigned col, const char *rule,
                 const char *format, ...)
{
    char message[4096];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    if (line)
        fprintf(stderr, "%s:%u:%u: error: %s [%s]\n", path, line, col, message, rule);
    else
        fprintf(stderr, "%s: error: %s [%s]\n", path, message, rule);
}

int sweep_write_file(const char *path, const char *text, size_t len)
{
    char tmp[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if ((size_t)snprintf(tmp, sizeof tmp, "%.*s.gpumemsim-XXXXXX",
                         slash ? (int)(slash - path + 1) : 0, path) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    size_t written = fwrite(text, 1, len, f);
    int bad = written != len || fflush(f) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (!bad && chmod(tmp, 0644) == 0 && rename(tmp, path) == 0)
        return 0;
    saved = bad ? saved : errno;
    unlink(tmp);
    errno = saved;
    return -1;
}

json_t *sweep_manifest_load(const char *dir)
{
    char path[PATH_MAX];
    json_error_t error;
    snprintf(path, sizeof path, "%s/%s", dir, SWEEP_MANIFEST);
    json_t *m = json_load_file(path, JSON_REJECT_DUPLICATES, &error);
    const char *schema = m ? json_string_value(json_object_get(m, "schema")) : NULL;
    if (!m) {
        sweep_error(path, 0, 0, "CLI-SWEEP-012", "not a sweep folder's manifest: %s",
                    error.text);
        return NULL;
    }
    if (!schema || strcmp(schema, "gpumemsim-sweep/1") ||
        !json_is_array(json_object_get(m, "runs")) ||
        !json_is_array(json_object_get(m, "columns"))) {
        sweep_error(path, 0, 0, "CLI-SWEEP-012",
                    "not a manifest of schema gpumemsim-sweep/1 with runs and columns");
        json_decref(m);
        return NULL;
    }
    return m;
}

int sweep_self_path(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    out[n] = 0;
    return 0;
}

/* What the command line asked for. */
typedef struct sweep_args {
    const char *file, *dir, *merge, *job, *emit;
    unsigned jobs;
    int quiet;
} sweep_args;

enum { OPT_DIR = 256, OPT_EMIT, OPT_MERGE, OPT_JOB, OPT_QUIET, OPT_HELP };

/* Parses the options. Returns 0 to go on, 1 after --help, 2 (printed). */
static int parse_options(int argc, char **argv, sweep_args *a)
{
    static const struct option table[] = {
        {"dir", required_argument, NULL, OPT_DIR},   {"jobs", required_argument, NULL, 'j'},
        {"emit", required_argument, NULL, OPT_EMIT}, {"merge", required_argument, NULL, OPT_MERGE},
        {"job", required_argument, NULL, OPT_JOB},   {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, OPT_HELP},       {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "j:", table, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case OPT_DIR: a->dir = optarg; break;
        case OPT_MERGE: a->merge = optarg; break;
        case OPT_JOB: a->job = optarg; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_EMIT:
            if (strcmp(optarg, "parallel") && strcmp(optarg, "slurm")) {
                fprintf(stderr, "gpumemsim: --emit takes parallel or slurm, not '%s'\n", optarg);
                return 2;
            }
            a->emit = optarg;
            break;
        case 'j':
            errno = 0;
            unsigned long v = strtoul(optarg, &end, 10);
            if (optarg[0] < '0' || optarg[0] > '9' || *end || errno || v < 1 || v > 4096) {
                fprintf(stderr, "gpumemsim: --jobs needs a whole number from 1 to 4096, not "
                        "'%s'\n", optarg);
                return 2;
            }
            a->jobs = (unsigned)v;
            break;
        case OPT_HELP: fputs(usage, stdout); return 1;
        default: fputs(usage, stderr); return 2;
        }
    }
    return 0;
}

/* Checks that the operands fit the mode: one sweep file, or --merge DIR, or --job DIR INDEX. */
static int check_operands(int argc, char **argv, sweep_args *a)
{
    int operands = argc - optind;
    const char *problem = NULL;
    if (a->job && (a->merge || a->emit || a->dir))
        problem = "--job takes no other option";
    else if (a->job && operands != 1)
        problem = "--job DIR needs the run's INDEX after it";
    else if (a->merge && (a->emit || a->dir || operands))
        problem = "--merge DIR takes no sweep file, --dir or --emit";
    else if (a->jobs && (a->emit || a->merge || a->job))
        problem = "-j sets the local pool's size; --emit, --merge and --job run no pool";
    else if (!a->job && !a->merge && operands != 1)
        problem = "expected exactly one sweep file";
    if (problem) {
        fprintf(stderr, "gpumemsim sweep: %s\n", problem);
        return 2;
    }
    if (!a->job && !a->merge)
        a->file = argv[optind];
    return 0;
}

/* The default folder: the sweep file's name without ".json", plus ".sweep", here. */
static void default_dir(const char *file, char *out, size_t len)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    snprintf(out, len, "%.*s.sweep", (int)n, base);
}

/* Whether `dir` is a folder with nothing in it. */
static int is_empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

/* Creates the sweep folder (new, or an existing empty folder) and returns its absolute path in
 * `out`; prints CLI-SWEEP-010 and returns -1 when it cannot. */
static int make_dir(const char *dir, char *out, size_t len)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "cannot create the sweep folder: %s",
                    strerror(errno));
        return -1;
    }
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/%s", dir, SWEEP_MANIFEST);
    if (!is_empty_dir(dir)) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "the sweep folder must be new or empty%s",
                    access(probe, F_OK) == 0 ? " (it holds an earlier sweep: merge it with "
                                               "--merge, or remove it)" : "");
        return -1;
    }
    if (!realpath(dir, out) || strlen(out) + 64 > len) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "cannot resolve the sweep folder's path");
        return -1;
    }
    return 0;
}

/* Writes `value` as indented JSON text ending in a newline. Returns 0 or -1 (errno). */
static int write_json(const char *path, const json_t *value)
{
    char *text = json_dumps(value, JSON_INDENT(2));
    size_t n = text ? strlen(text) : 0;
    char *line = text ? realloc(text, n + 2) : NULL;
    if (!line) {
        free(text);
        errno = ENOMEM;
        return -1;
    }
    memcpy(line + n, "\n", 2);
    int r = sweep_write_file(path, line, n + 1);
    free(line);
    return r;
}

/* Writes one folder per run (with its configuration file) and then the manifest. */
static int write_dir(const char *dir, const json_t *manifest)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/runs", dir);
    int bad = mkdir(path, 0755) != 0;
    size_t i;
    json_t *run;
    json_array_foreach(json_object_get(manifest, "runs"), i, run) {
        const char *id = json_string_value(json_object_get(run, "id"));
        snprintf(path, sizeof path, "%s/runs/%s", dir, id);
        bad = bad || mkdir(path, 0755) != 0;
        const json_t *config = json_object_get(run, "config");
        if (bad || json_is_null(config))
            continue;
        snprintf(path, sizeof path, "%s/runs/%s/config.json", dir, id);
        bad = write_json(path, config) != 0;
    }
    snprintf(path, sizeof path, "%s/%s", dir, SWEEP_MANIFEST);
    if (bad || write_json(path, manifest) != 0) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "cannot write the sweep folder: %s",
                    strerror(errno));
        return -1;
    }
    return 0;
}

/* `sweep SWEEP.json`: expand, write the folder, then run (pool, then merge) or emit. */
static int run_sweep(const sweep_args *a)
{
    json_t *manifest = sweep_file_expand(a->file);
    if (!manifest)
        return 2;
    char name[PATH_MAX], dir[PATH_MAX];
    if (!a->dir)
        default_dir(a->file, name, sizeof name);
    int status = 2;
    if (make_dir(a->dir ? a->dir : name, dir, sizeof dir) == 0 && write_dir(dir, manifest) == 0) {
        if (a->emit && strcmp(a->emit, "parallel") == 0)
            status = sweep_emit_parallel(dir, manifest);
        else if (a->emit)
            status = sweep_emit_slurm(dir, manifest);
        else {
            long cores = sysconf(_SC_NPROCESSORS_ONLN);
            unsigned jobs = a->jobs ? a->jobs : cores > 0 ? (unsigned)cores : 1;
            int ran = sweep_pool(dir, manifest, jobs, a->quiet);
            status = sweep_merge(dir, manifest, a->quiet);
            if (status == 0 && ran)
                status = 1;
        }
    }
    json_decref(manifest);
    return status;
}

/* `sweep --job DIR INDEX`. */
static int run_job(const char *dir, const char *index)
{
    char *end = NULL;
    errno = 0;
    unsigned long long i = strtoull(index, &end, 10);
    if (index[0] < '0' || index[0] > '9' || *end || errno) {
        fprintf(stderr, "gpumemsim sweep: --job needs a run index (0, 1, ...), not '%s'\n", index);
        return 2;
    }
    return sweep_job(dir, (size_t)i);
}

int sweep_command(int argc, char **argv)
{
    sweep_args a = {0};
    int parsed = parse_options(argc, argv, &a);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (check_operands(argc, argv, &a))
        return 2;
    if (a.job)
        return run_job(a.job, argv[optind]);
    if (a.merge) {
        json_t *manifest = sweep_manifest_load(a.merge);
        if (!manifest)
            return 2;
        int status = sweep_merge(a.merge, manifest, a.quiet);
        json_decref(manifest);
        return status;
    }
    return run_sweep(&a);
}

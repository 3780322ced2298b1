/* Making the runs of a sweep (docs/sweeps.md, "Running a sweep"): one run is
 * `gpumemsim sweep --job DIR INDEX`, which starts `gpumemsim run` with the run's preset,
 * configuration and flags and records its exit status; the local pool forks such jobs, the job
 * list of GNU parallel and the Slurm job-array script name them. Every way of running thus
 * leaves the same files, and `--merge` reads only those. */
#define _GNU_SOURCE /* dup2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_internal.h"

/* The arguments of the run's `gpumemsim run` (NULL-terminated, strings borrowed from the
 * manifest or from `paths`, the caller's storage of 2 * PATH_MAX bytes). Returns the count, or
 * 0 when they do not fit `max`. */
static size_t run_arguments(const char *self, const char *dir, const json_t *manifest,
                            const json_t *run, char *paths, const char **argv, size_t max)
{
    const char *id = json_string_value(json_object_get(run, "id"));
    char *stats = paths, *config = paths + PATH_MAX;
    snprintf(stats, PATH_MAX, "%s/runs/%s/stats.json", dir, id);
    snprintf(config, PATH_MAX, "%s/runs/%s/config.json", dir, id);
    size_t n = 0;
    const json_t *options = json_object_get(manifest, "options"),
                 *flags = json_object_get(run, "flags");
    if (json_array_size(options) + json_array_size(flags) + 10 > max)
        return 0;
    argv[n++] = self;
    argv[n++] = "run";
    argv[n++] = "--quiet";
    argv[n++] = "--json";
    argv[n++] = stats;
    if (!json_is_null(json_object_get(run, "config"))) {
        argv[n++] = "--config";
        argv[n++] = config;
    } else if (json_is_string(json_object_get(run, "gpu"))) {
        argv[n++] = "--gpu";
        argv[n++] = json_string_value(json_object_get(run, "gpu"));
    }
    size_t i;
    json_t *e;
    json_array_foreach(options, i, e) argv[n++] = json_string_value(e);
    json_array_foreach(flags, i, e) argv[n++] = json_string_value(e);
    argv[n++] = json_string_value(json_object_get(run, "launch"));
    argv[n] = NULL;
    for (size_t k = 0; k < n; k++)
        if (!argv[k])
            return 0;
    return n;
}

/* Starts the run with its stdout and stderr in runs/<id>/ and waits for it. Returns its exit
 * status (128 + N after signal N), or -1 when it could not start. */
static int start_and_wait(const char *dir, const char *id, const char **argv)
{
    char out[PATH_MAX], err[PATH_MAX];
    snprintf(out, sizeof out, "%s/runs/%s/stdout", dir, id);
    snprintf(err, sizeof err, "%s/runs/%s/stderr", dir, id);
    int fd_out = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int fd_err = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    pid_t pid = fd_out >= 0 && fd_err >= 0 ? fork() : -1;
    if (pid == 0) {
        if (dup2(fd_out, 1) < 0 || dup2(fd_err, 2) < 0)
            _exit(127);
        execv(argv[0], (char *const *)argv);
        fprintf(stderr, "gpumemsim sweep: cannot start %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int saved = errno;
    if (fd_out >= 0)
        close(fd_out);
    if (fd_err >= 0)
        close(fd_err);
    if (pid < 0) {
        errno = saved;
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int sweep_job(const char *dir, size_t index)
{
    json_t *manifest = sweep_manifest_load(dir);
    if (!manifest)
        return 2;
    const json_t *runs = json_object_get(manifest, "runs");
    const json_t *run = json_array_get(runs, index);
    char self[PATH_MAX], paths[2 * PATH_MAX], path[PATH_MAX];
    const char *argv[256];
    if (!run) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-012", "run %zu: the sweep has runs 0 to %zu", index,
                    json_array_size(runs) - 1);
        json_decref(manifest);
        return 2;
    }
    const char *id = json_string_value(json_object_get(run, "id"));
    /* A job made again (a retry) must not leave the outcome of the earlier one behind. */
    snprintf(path, sizeof path, "%s/runs/%s/status", dir, id ? id : "");
    unlink(path);
    snprintf(paths, PATH_MAX, "%s/runs/%s/stats.json", dir, id ? id : "");
    unlink(paths);
    int status = -1;
    if (id && sweep_self_path(self, sizeof self) == 0 &&
        run_arguments(self, dir, manifest, run, paths, argv, sizeof argv / sizeof argv[0]))
        status = start_and_wait(dir, id, argv);
    if (status < 0) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-013", "run %s: cannot start gpumemsim run: %s",
                    id ? id : "?", strerror(errno ? errno : EINVAL));
        json_decref(manifest);
        return 2;
    }
    char text[16];
    int n = snprintf(text, sizeof text, "%d\n", status);
    if (sweep_write_file(path, text, (size_t)n) != 0) {
        sweep_error(path, 0, 0, "CLI-SWEEP-013", "run %s: cannot record the exit status: %s",
                    id, strerror(errno));
        status = 2;
    }
    json_decref(manifest);
    return status;
}

/* Waits for one job of the pool; returns its slot, or -1 when none is left. */
static long reap(const pid_t *pids, unsigned jobs, int *code)
{
    for (;;) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0)
            return -1;
        for (unsigned s = 0; s < jobs; s++)
            if (pids[s] == pid) {
                *code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                return (long)s;
            }
    }
}

int sweep_pool(const char *dir, const json_t *manifest, unsigned jobs, int quiet)
{
    const json_t *runs = json_object_get(manifest, "runs");
    size_t total = json_array_size(runs), next = 0, done = 0, failed = 0;
    pid_t *pids = calloc(jobs, sizeof *pids);
    size_t *index = calloc(jobs, sizeof *index);
    int show = !quiet && isatty(fileno(stderr));
    while (pids && index && done < total) {
        for (unsigned s = 0; s < jobs && next < total; s++) {
            if (pids[s])
                continue;
            fflush(NULL); /* the child must not write our buffers again */
            pid_t pid = fork();
            if (pid == 0)
                _exit(sweep_job(dir, next));
            if (pid < 0) {
                sweep_error(dir, 0, 0, "CLI-SWEEP-013", "cannot start a job: %s",
                            strerror(errno));
                break;
            }
            pids[s] = pid;
            index[s] = next++;
        }
        int code = 0;
        long s = reap(pids, jobs, &code);
        if (s < 0)
            break;
        pids[s] = 0;
        done++;
        const char *id = json_string_value(json_object_get(json_array_get(runs, index[s]), "id"));
        if (code) {
            failed++;
            fprintf(stderr, "%sgpumemsim sweep: run %s exited with status %d; see %s/runs/%s/"
                    "stderr\n", show ? "\r\033[K" : "", id, code, dir, id);
        }
        if (show)
            fprintf(stderr, "\rsweep: %zu of %zu runs done\033[K", done, total);
    }
    if (show)
        fputs("\r\033[K", stderr);
    free(pids);
    free(index);
    return failed || done < total;
}

/* `text` quoted for the POSIX shell: in single quotes, each ' as '\''. */
static void shell_quote(FILE *f, const char *text)
{
    fputc('\'', f);
    for (const char *p = text; *p; p++)
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    fputc('\'', f);
}

/* Writes `dir`/`name` with `write` through a temporary file (sweep_write_file). */
static int write_generated(const char *dir, const char *name, const char *self,
                           const json_t *manifest,
                           void (*write)(FILE *, const char *, const char *, size_t))
{
    char *text = NULL, path[PATH_MAX];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    write(f, self, dir, json_array_size(json_object_get(manifest, "runs")));
    int r = fclose(f) != 0 ? -1 : 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (r == 0)
        r = sweep_write_file(path, text, len);
    free(text);
    return r;
}

static void write_jobs(FILE *f, const char *self, const char *dir, size_t runs)
{
    for (size_t i = 0; i < runs; i++) {
        shell_quote(f, self);
        fputs(" sweep --job ", f);
        shell_quote(f, dir);
        fprintf(f, " %zu\n", i);
    }
}

static void write_sbatch(FILE *f, const char *self, const char *dir, size_t runs)
{
    fprintf(f, "#!/bin/sh\n"
               "# The runs of a gpumemsim sweep as a Slurm job array (docs/sweeps.md, \"Slurm\").\n"
               "# Submit with `sbatch %s/%s` (options given to sbatch override these);\n"
               "# when every task has ended, `gpumemsim sweep --merge %s` builds the table.\n"
               "#SBATCH --job-name=gpumemsim-sweep\n"
               "#SBATCH --array=0-%zu\n"
               "#SBATCH --ntasks=1\n"
               "#SBATCH --cpus-per-task=1\n"
               "#SBATCH --output=%s/runs/slurm-%%A_%%a.out\n",
            dir, SWEEP_SBATCH, dir, runs - 1, dir);
    fputs("exec ", f);
    shell_quote(f, self);
    fputs(" sweep --job ", f);
    shell_quote(f, dir);
    fputs(" \"$SLURM_ARRAY_TASK_ID\"\n", f);
}

int sweep_emit_parallel(const char *dir, const json_t *manifest)
{
    char self[PATH_MAX];
    if (sweep_self_path(self, sizeof self) != 0 ||
        write_generated(dir, SWEEP_JOBS, self, manifest, write_jobs) != 0) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "cannot write %s: %s", SWEEP_JOBS,
                    strerror(errno));
        return 2;
    }
    printf("wrote %s/%s: %zu jobs; run them with\n"
           "  parallel --will-cite -a %s/%s\n"
           "(add --sshloginfile FILE to spread them over machines that see this folder), then\n"
           "  gpumemsim sweep --merge %s\n",
           dir, SWEEP_JOBS, json_array_size(json_object_get(manifest, "runs")), dir, SWEEP_JOBS,
           dir);
    return 0;
}

int sweep_emit_slurm(const char *dir, const json_t *manifest)
{
    char self[PATH_MAX];
    /* #SBATCH lines are not shell: their paths cannot be quoted. */
    if (strpbrk(dir, " \t\n'\"\\%$")) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-017", "a Slurm script's #SBATCH lines cannot name a "
                    "folder with blanks, quotes, '\\', '%%' or '$'; choose another --dir");
        return 2;
    }
    if (sweep_self_path(self, sizeof self) != 0 ||
        write_generated(dir, SWEEP_SBATCH, self, manifest, write_sbatch) != 0) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "cannot write %s: %s", SWEEP_SBATCH,
                    strerror(errno));
        return 2;
    }
    printf("wrote %s/%s: a job array of %zu tasks; submit it with\n"
           "  sbatch %s/%s\n"
           "then, when every task has ended,\n"
           "  gpumemsim sweep --merge %s\n",
           dir, SWEEP_SBATCH, json_array_size(json_object_get(manifest, "runs")), dir,
           SWEEP_SBATCH, dir);
    return 0;
}

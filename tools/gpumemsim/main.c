/* gpumemsim: the command line. Parses arguments with getopt_long from one option table (which
 * also writes the usage text, so the two cannot disagree), calls the public API
 * (include/gpumemsim/, and nothing else of the library) and prints diagnostics, device printf
 * output, faults and reports. The only place that prints or exits. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "gpumemsim/gpumemsim.h"
#include "metrics.h"
#include "gpumemsim/run.h"
#include "sweep.h"

#ifndef GMS_VERSION
#define GMS_VERSION "unknown"
#endif
#ifndef GMS_COMMIT
#define GMS_COMMIT "unknown"
#endif

/* The commands, as bits so that an option can belong to several. */
enum { CMD_RUN = 1, CMD_CHECK = 2, CMD_PRESETS = 4, CMD_EXEC = 8 };

typedef struct cli_command {
    const char *name;
    unsigned bit;
    const char *operands; /* shown after the name in the usage */
    const char *summary;
} cli_command;

static const cli_command commands[] = {
    {"run", CMD_RUN, "LAUNCH.json", "run the kernels of a launch file and print a report"},
    {"check", CMD_CHECK, "FILE...", "parse and check kernel files; exit 0 when all are clean"},
    {"presets", CMD_PRESETS, "[show NAME]",
     "list the GPU presets, or print one as JSON (a --config file)"},
    {"exec", CMD_EXEC, "[--] PROGRAM [ARG...]",
     "run a CUDA program built with `nvcc -cudart shared` on the simulated GPU"},
    {"metrics", 0, "[NAME...]",
     "list the Nsight Compute metrics of the JSON report and how each is computed"},
    {"sweep", 0, "SWEEP.json",
     "run a grid of launch files, presets, configurations and flags and merge their "
     "statistics into one table; also on GNU parallel or Slurm (`gpumemsim sweep --help`)"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* Option ids: getopt_long returns them. */
enum {
    OPT_GPU = 256, OPT_CONFIG, OPT_MAX_INSTRUCTIONS, OPT_QUANTUM, OPT_THREADS, OPT_JSON, OPT_TOP,
    OPT_STRIP_HINTS, OPT_POISON_DISCARD, OPT_QUIET, OPT_PROGRESS, OPT_LIST_OPS, OPT_HELP,
    OPT_DIALECT, OPT_LIST_RULES, OPT_DUMP_IR, OPT_MISALIGNED_ERRORS, OPT_STRICT_HAZARDS,
    OPT_DLOPEN, OPT_NO_TIMING, OPT_SCHEDULER
};

/* One row per option: its long name, the argument's placeholder (NULL: a flag), the commands
 * that take it and its help line. */
typedef struct cli_option {
    const char *name;
    const char *argument;
    unsigned commands;
    int id;
    const char *help;
} cli_option;

static const cli_option options[] = {
    {"gpu", "NAME", CMD_RUN, OPT_GPU, "use this GPU preset instead of the launch file's"},
    {"gpu", "NAME", CMD_EXEC, OPT_GPU, "simulate this GPU preset (default: `presets` marks it)"},
    {"config", "FILE.json", CMD_RUN | CMD_EXEC, OPT_CONFIG,
     "GPU configuration override ({\"base\": \"a100\", ...})"},
    {"max-instructions", "N", CMD_RUN, OPT_MAX_INSTRUCTIONS,
     "runaway limit: warp instructions per launch (default 2000000000)"},
    {"quantum", "N", CMD_RUN, OPT_QUANTUM,
     "warp instructions a warp runs per turn (default 256)"},
    {"threads", "N", CMD_RUN, OPT_THREADS,
     "host threads simulating the SMs (default: one per CPU in the functional mode, one "
     "under the timing model; the results, cycles included, do not depend on it)"},
    {"json", "FILE", CMD_RUN | CMD_EXEC, OPT_JSON,
     "also write the statistics as JSON (docs/statistics.md)"},
    {"top", "N", CMD_RUN | CMD_EXEC, OPT_TOP,
     "hottest instructions listed in the report (default 10)"},
    {"strip-hints", NULL, CMD_RUN | CMD_EXEC, OPT_STRIP_HINTS,
     "treat every cache hint as the default"},
    {"poison-discard", NULL, CMD_RUN, OPT_POISON_DISCARD,
     "discarded L2 lines read back as 0xFF bytes"},
    {"misaligned-errors", NULL, CMD_RUN, OPT_MISALIGNED_ERRORS,
     "report misaligned local/shared addresses that SASS aligns down (EXEC-WINDOW-002)"},
    {"strict-hazards", NULL, CMD_RUN, OPT_STRICT_HAZARDS,
     "fault on register hazards of SASS control codes' scoreboards"},
    {"no-timing", NULL, CMD_RUN, OPT_NO_TIMING,
     "functional mode: no timing model, no cycles or stall reasons (faster)"},
    {"scheduler", "gto|lrr", CMD_RUN, OPT_SCHEDULER,
     "timing model's warp scheduler: greedy-then-oldest (default) or loose round-robin"},
    {"quiet", NULL, CMD_RUN | CMD_EXEC, OPT_QUIET, "print only printf output, faults and failures"},
    {"dlopen", NULL, CMD_EXEC, OPT_DLOPEN,
     "the program opens the CUDA libraries itself (Python with Numba or CuPy): run it although "
     "it does not link them (RT-EXEC-004)"},
    {"progress", NULL, CMD_RUN, OPT_PROGRESS,
     "progress on stderr even when it is not a terminal"},
    {"list-ops", NULL, CMD_CHECK, OPT_LIST_OPS,
     "list the instructions each kernel dialect accepts"},
    {"list-rules", NULL, CMD_CHECK, OPT_LIST_RULES,
     "list each kernel dialect's diagnostic rules"},
    {"dialect", "NAME", CMD_CHECK, OPT_DIALECT,
     "read the files in this dialect whatever their suffix; list only its ops and rules"},
    {"dump-ir", NULL, CMD_CHECK, OPT_DUMP_IR,
     "print each clean file's IR on stdout (docs/architecture.md, \"The IR printer\")"},
    {"help", NULL, CMD_RUN | CMD_CHECK | CMD_PRESETS | CMD_EXEC, OPT_HELP,
     "print this help and exit"},
};
enum { NOPTIONS = sizeof options / sizeof options[0] };

static const char exit_status_text[] =
    "exit status: 0 success, 1 a kernel faulted or reported errors or an expectation failed,\n"
    "2 bad input\n";
static const char exec_status_text[] =
    "exit status: the program's own; 2 bad options or no runtime libraries, 126 a program that\n"
    "cannot run on the simulated GPU (statically linked: rebuild with `nvcc -cudart shared`),\n"
    "127 no such program\n";

/* Prints the options of one command, one per line, the help text in one column; `--help`,
 * which every command takes, only when `with_help`. */
static void print_options(FILE *out, unsigned command, const char *indent, int with_help)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        const cli_option *o = &options[i];
        if (!(o->commands & command) || (o->id == OPT_HELP && !with_help))
            continue;
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->argument ? " " : "",
                 o->argument ? o->argument : "");
        fprintf(out, "%s%-22s %s\n", indent, left, o->help);
    }
}

static void print_usage(FILE *out)
{
    fputs("usage: gpumemsim <command> [options]\n"
          "       gpumemsim <command> --help\n"
          "       gpumemsim --help | --version\n"
          "\n"
          "commands:\n", out);
    for (size_t c = 0; c < NCOMMANDS; c++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", commands[c].name, commands[c].operands);
        fprintf(out, "  %-26s %s\n", left, commands[c].summary);
        print_options(out, commands[c].bit, "      ", 0);
    }
    fputs("\n", out);
    fputs(exit_status_text, out);
    fputs("(exec exits with its program's status: `gpumemsim exec --help`)\n", out);
}

static void print_command_usage(FILE *out, const cli_command *c)
{
    if (c->bit == CMD_EXEC)
        fprintf(out, "usage: gpumemsim %s [options] %s\n%s\n\noptions:\n", c->name, c->operands,
                c->summary);
    else
        fprintf(out, "usage: gpumemsim %s %s [options]\n%s\n\noptions:\n", c->name, c->operands,
                c->summary);
    print_options(out, c->bit, "  ", 1);
    fputs("\n", out);
    fputs(c->bit == CMD_EXEC ? exec_status_text : exit_status_text, out);
}

static const cli_command *find_command(unsigned bit)
{
    for (size_t c = 0; c < NCOMMANDS; c++)
        if (commands[c].bit == bit)
            return &commands[c];
    return NULL;
}

/* getopt_long's table for one command, built from options[] (caller storage, NOPTIONS + 1). */
static void getopt_table(unsigned command, struct option *out)
{
    size_t n = 0;
    for (size_t i = 0; i < NOPTIONS; i++)
        if (options[i].commands & command)
            out[n++] = (struct option){options[i].name,
                                       options[i].argument ? required_argument : no_argument,
                                       NULL, options[i].id};
    out[n] = (struct option){NULL, 0, NULL, 0};
}

/* Parses a decimal whole number in [min, max]: digits only, no sign, no blanks. Returns 0, or
 * -1 after printing what the flag needs. */
static int parse_number(const char *flag, const char *text, uint64_t min, uint64_t max,
                        uint64_t *out)
{
    const char *p = text;
    while (*p >= '0' && *p <= '9')
        p++;
    errno = 0;
    unsigned long long v = *text && !*p ? strtoull(text, NULL, 10) : 0;
    if (!*text || *p || errno == ERANGE || v < min || v > max) {
        fprintf(stderr, "gpumemsim: --%s needs a whole number from %llu to %llu, not '%s'\n",
                flag, (unsigned long long)min, (unsigned long long)max, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* The exit status of a run or check that ended with status `st`: 1 when a kernel faulted or
 * reported errors or an expectation failed, 2 for bad input of any kind. */
static int exit_status(gms_status st)
{
    return st == GMS_OK                                                            ? 0
           : st == GMS_ERR_FAULT || st == GMS_ERR_EXPECT || st == GMS_ERR_KERNEL ? 1
                                                                                   : 2;
}

static void print_fault(const gms_run *r)
{
    gms_fault f;
    gms_module *m = gms_run_module(r);
    if (gms_device_fault(gms_run_device(r), &f) != GMS_OK)
        return;
    fprintf(stderr, "gpumemsim: kernel %s faulted (launch %zu of %zu)\n", f.kernel, f.launch + 1,
            gms_run_launch_count(r));
    if (f.rule)
        fprintf(stderr, "  %s [%s]\n", f.message, f.rule);
    else
        fprintf(stderr, "  %s\n", f.message);
    fprintf(stderr, "  by thread (%u,%u,%u) in block (%u,%u,%u)\n", f.tid[0], f.tid[1], f.tid[2],
            f.ctaid[0], f.ctaid[1], f.ctaid[2]);
    if (f.line) {
        char *line = NULL;
        gms_module_line(m, f.line, &line);
        fprintf(stderr, "  at %s:%u:%u: %s\n", gms_module_path(m), f.line, f.column,
                line ? line : "");
        gms_free(line);
    }
    if (f.source_file)
        fprintf(stderr, "  source %s:%u\n", f.source_file, f.source_line);
    fprintf(stderr, "  no outputs were written\n");
}

static void print_expectations(const gms_run *r)
{
    for (size_t i = 0; i < gms_run_expect_count(r); i++) {
        gms_expect_result e;
        if (gms_run_expect(r, i, &e) != GMS_OK || !e.mismatches)
            continue;
        fprintf(stderr, "expectation failed: %s: %llu of %llu elements differ\n", e.buffer,
                (unsigned long long)e.mismatches, (unsigned long long)e.elements);
        for (size_t j = 0; j < e.shown; j++)
            fprintf(stderr, "  [%llu] got %s, expected %s\n", (unsigned long long)e.first[j].index,
                    e.first[j].got, e.first[j].expected);
    }
}

/* The report of the run of launch file `path`, the host time and what was checked and written.
 * Returns 0, or 2 when the report could not be built. */
static int print_summary(const gms_run *r, const char *path, size_t top)
{
    const gms_device *dev = gms_run_device(r);
    char *text = NULL;
    gms_totals t;
    if (gms_device_report(dev, GMS_REPORT_TEXT, top, path, &text, NULL) != GMS_OK ||
        gms_device_totals(dev, &t) != GMS_OK) {
        fputs("gpumemsim: out of memory building the report\n", stderr);
        return 2;
    }
    fputs(text, stdout);
    gms_free(text);
    printf("host time in kernels: %.3f s", t.seconds);
    if (t.seconds > 0)
        printf(" (%.2f M warp instructions/s)", t.warp_instructions / t.seconds / 1e6);
    printf("\n");
    for (size_t i = 0; i < gms_run_expect_count(r); i++) {
        gms_expect_result e;
        if (gms_run_expect(r, i, &e) == GMS_OK && !e.mismatches)
            printf("  expectation %s: %llu elements match\n", e.buffer,
                   (unsigned long long)e.elements);
    }
    for (size_t i = 0; i < gms_run_output_count(r); i++)
        printf("  wrote %s\n", gms_run_output_path(r, i));
    return 0;
}

/* The progress line of `run` (gms_run_options.progress): drawn at the first report (after 2^18 warp
 * instructions), then redrawn in place on stderr at most four times a second, erased when the
 * run ends. */
typedef struct progress_line {
    double last; /* when it was last drawn, CLOCK_MONOTONIC seconds; 0: never */
    int drawn;
} progress_line;

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void draw_progress(const gms_progress *p, void *user)
{
    progress_line *line = user;
    double now = monotonic_seconds();
    if (line->drawn && now - line->last < 0.25)
        return;
    line->last = now;
    line->drawn = 1;
    fprintf(stderr, "\rlaunch %zu of %zu: %u of %u CTAs done, %.1f M warp instructions "
            "(limit %.1f M), %.1f M/s\033[K", p->launch + 1, p->nlaunches, p->ctas_done,
            p->ctas_total, p->warp_instructions / 1e6, p->max_instructions / 1e6,
            p->seconds > 0 ? p->warp_instructions / p->seconds / 1e6 : 0.0);
    fflush(stderr);
}

/* What `run` was asked for on the command line. */
typedef struct run_args {
    gms_run_options sim;
    int quiet;
    int progress; /* --progress */
    size_t top;
} run_args;

/* Parses the options of `run`. Returns 0 to go on, 1 after --help, or 2 (printed). */
static int parse_run_options(int argc, char **argv, run_args *a)
{
    struct option table[NOPTIONS + 1];
    getopt_table(CMD_RUN, table);
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, "", table, NULL)) != -1) {
        switch (c) {
        case OPT_GPU: a->sim.preset = optarg; break;
        case OPT_CONFIG: a->sim.config_path = optarg; break;
        case OPT_JSON: a->sim.json_path = optarg; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_PROGRESS: a->progress = 1; break;
        case OPT_STRIP_HINTS: a->sim.strip_hints = 1; break;
        case OPT_POISON_DISCARD: a->sim.poison_discard = 1; break;
        case OPT_MISALIGNED_ERRORS: a->sim.misaligned_errors = 1; break;
        case OPT_STRICT_HAZARDS: a->sim.strict_hazards = 1; break;
        case OPT_NO_TIMING: a->sim.no_timing = 1; break;
        case OPT_SCHEDULER:
            if (strcmp(optarg, "gto") && strcmp(optarg, "lrr")) {
                fprintf(stderr, "gpumemsim: --scheduler takes gto or lrr, not '%s'\n", optarg);
                return 2;
            }
            a->sim.scheduler = strcmp(optarg, "lrr") == 0;
            break;
        case OPT_TOP:
            if (parse_number("top", optarg, 0, 1000000, &v))
                return 2;
            a->top = (size_t)v;
            break;
        case OPT_MAX_INSTRUCTIONS:
            if (parse_number("max-instructions", optarg, 1, UINT64_MAX, &v))
                return 2;
            a->sim.max_instructions = v;
            break;
        case OPT_QUANTUM:
            if (parse_number("quantum", optarg, 1, UINT32_MAX, &v))
                return 2;
            a->sim.quantum = (uint32_t)v;
            break;
        case OPT_THREADS:
            if (parse_number("threads", optarg, 1, 1024, &v))
                return 2;
            a->sim.threads = (uint32_t)v;
            break;
        case OPT_HELP: print_command_usage(stdout, find_command(CMD_RUN)); return 1;
        default: print_command_usage(stderr, find_command(CMD_RUN)); return 2;
        }
    }
    if (optind + 1 != argc) {
        fputs("gpumemsim run: expected exactly one launch file\n", stderr);
        return 2;
    }
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    run_args a = {.top = 10};
    int parsed = parse_run_options(argc, argv, &a);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    gms_diag_list *dl = gms_diag_list_create();
    if (!dl) {
        fputs("gpumemsim: out of memory\n", stderr);
        return 2;
    }
    gms_diag_list_set_max_errors(dl, 100);
    progress_line line = {0, 0};
    if (a.progress || (!a.quiet && isatty(fileno(stderr)))) {
        a.sim.progress = draw_progress;
        a.sim.progress_user = &line;
    }
    gms_run *r = NULL;
    gms_status st = gms_run_file(argv[optind], &a.sim, &r, dl);
    if (line.drawn)
        fputs("\r\033[K", stderr);
    gms_diag_list_print(dl, stderr);
    gms_diag_list_destroy(dl);
    if (!r) {
        fputs("gpumemsim: out of memory\n", stderr);
        return 2;
    }
    const char *printf_text = gms_device_printf(gms_run_device(r));
    if (*printf_text)
        fputs(printf_text, stdout);
    int status = exit_status(st);
    if (st == GMS_ERR_FAULT) {
        print_fault(r);
    } else if (st == GMS_OK || st == GMS_ERR_EXPECT || st == GMS_ERR_KERNEL) {
        /* Window errors were printed as diagnostics; the run's report and outputs stand. */
        if (!a.quiet && print_summary(r, argv[optind], a.top))
            status = 2;
        print_expectations(r);
    }
    gms_run_destroy(r);
    return status;
}

/* Whether a dialect called `name` exists; if not, prints which do. */
static int known_dialect(const char *name)
{
    for (size_t i = 0; gms_dialect_at(i); i++)
        if (strcmp(gms_dialect_at(i), name) == 0)
            return 1;
    fprintf(stderr, "gpumemsim: --dialect %s: unknown kernel dialect; the dialects are: ", name);
    for (size_t i = 0; gms_dialect_at(i); i++)
        fprintf(stderr, "%s%s", i ? ", " : "", gms_dialect_at(i));
    fputs("\n", stderr);
    return 0;
}

static int cmd_check(int argc, char **argv)
{
    struct option table[NOPTIONS + 1];
    getopt_table(CMD_CHECK, table);
    int c, list_ops = 0, list_rules = 0, dump_ir = 0;
    const char *dialect = NULL;
    while ((c = getopt_long(argc, argv, "", table, NULL)) != -1) {
        switch (c) {
        case OPT_LIST_OPS: list_ops = 1; break;
        case OPT_LIST_RULES: list_rules = 1; break;
        case OPT_DIALECT: dialect = optarg; break;
        case OPT_DUMP_IR: dump_ir = 1; break;
        case OPT_HELP: print_command_usage(stdout, find_command(CMD_CHECK)); return 0;
        default: print_command_usage(stderr, find_command(CMD_CHECK)); return 2;
        }
    }
    if (dialect && !known_dialect(dialect))
        return 2;
    if (list_ops || list_rules) {
        char *text = NULL;
        unsigned what = (list_ops ? GMS_LIST_OPS : 0) | (list_rules ? GMS_LIST_RULES : 0);
        if (gms_dialect_list(dialect, what, &text, NULL) != GMS_OK) {
            fputs("gpumemsim: out of memory\n", stderr);
            return 2;
        }
        fputs(text, stdout);
        gms_free(text);
    }
    if (optind >= argc && !list_ops && !list_rules) {
        fputs("gpumemsim check: expected one or more kernel files\n", stderr);
        return 2;
    }
    int status = 0;
    for (int i = optind; i < argc; i++) {
        gms_diag_list *dl = gms_diag_list_create();
        if (!dl) {
            fputs("gpumemsim: out of memory\n", stderr);
            return 2;
        }
        gms_diag_list_set_max_errors(dl, 200);
        char *ir = NULL;
        if ((dump_ir ? gms_module_dump_ir(argv[i], NULL, 0, dialect, &ir, dl)
                     : gms_module_check(argv[i], NULL, 0, dialect, dl)) != GMS_OK)
            status = 2;
        if (ir && fputs(ir, stdout) == EOF) {
            fprintf(stderr, "gpumemsim: cannot write the IR of %s to stdout\n", argv[i]);
            status = 2;
        }
        gms_free(ir);
        gms_diag_list_print(dl, stderr);
        gms_diag_list_destroy(dl);
    }
    return status;
}

static int cmd_presets(int argc, char **argv)
{
    struct option table[NOPTIONS + 1];
    getopt_table(CMD_PRESETS, table);
    int c;
    while ((c = getopt_long(argc, argv, "", table, NULL)) != -1) {
        if (c == OPT_HELP) {
            print_command_usage(stdout, find_command(CMD_PRESETS));
            return 0;
        }
        print_command_usage(stderr, find_command(CMD_PRESETS));
        return 2;
    }
    argc -= optind - 1;
    argv += optind - 1;
    if (argc == 1) {
        gms_preset_info p;
        for (size_t i = 0; gms_preset_at(i, &p) == GMS_OK; i++)
            printf("%-8s %s%s\n", p.name, p.description, p.is_default ? " (default)" : "");
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "show") == 0) {
        if (gms_preset_find(argv[2], NULL) != GMS_OK) {
            fprintf(stderr, "gpumemsim: unknown preset '%s'; `gpumemsim presets` lists them\n",
                    argv[2]);
            return 2;
        }
        char *json = NULL;
        if (gms_preset_json(argv[2], &json, NULL) != GMS_OK)
            return 2;
        printf("%s\n", json);
        gms_free(json);
        return 0;
    }
    print_command_usage(stderr, find_command(CMD_PRESETS));
    return 2;
}

/* What `exec` was asked for on the command line; NULL or 0: not given. */
typedef struct exec_args {
    const char *gpu, *config, *json, *top;
    int strip_hints, quiet, dlopen;
} exec_args;

/* Parses the options of `exec`, which end at its first operand (the program) or at `--`.
 * Returns 0 to go on, 1 after --help, or 2 (printed). */
static int parse_exec_options(int argc, char **argv, exec_args *a)
{
    struct option table[NOPTIONS + 1];
    getopt_table(CMD_EXEC, table);
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, "+", table, NULL)) != -1) {
        switch (c) {
        case OPT_GPU: a->gpu = optarg; break;
        case OPT_CONFIG: a->config = optarg; break;
        case OPT_JSON: a->json = optarg; break;
        case OPT_STRIP_HINTS: a->strip_hints = 1; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_DLOPEN: a->dlopen = 1; break;
        case OPT_TOP:
            if (parse_number("top", optarg, 0, 1000000, &v))
                return 2;
            a->top = optarg;
            break;
        case OPT_HELP: print_command_usage(stdout, find_command(CMD_EXEC)); return 1;
        default: print_command_usage(stderr, find_command(CMD_EXEC)); return 2;
        }
    }
    if (optind >= argc) {
        fputs("gpumemsim exec: expected a program to run\n", stderr);
        return 2;
    }
    return 0;
}

/* `path` made absolute against the current folder (the program may change folders before the
 * runtime opens it), in `out` of `len` bytes. Returns 0, or -1 when it does not fit. */
static int absolute_path(const char *path, char *out, size_t len)
{
    char cwd[4096];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return (size_t)snprintf(out, len, "%s", path) < len ? 0 : -1;
    return (size_t)snprintf(out, len, "%s/%s", cwd, path) < len ? 0 : -1;
}

/* Checks the options whose mistakes would otherwise show only when the program ends, and puts
 * every option in the environment (docs/cuda-runtime.md, "Environment"); an option not given
 * removes its variable, so that a stale export cannot change the run. Returns 0 or 2 (printed). */
static int exec_environment(const exec_args *a, const char *runtime_dir)
{
    char config[4096] = "", json[4096] = "", paths[8192];
    if (a->gpu && gms_preset_find(a->gpu, NULL) != GMS_OK) {
        fprintf(stderr, "gpumemsim: error: --gpu %s: unknown GPU preset; `gpumemsim presets` "
                "lists them [SIM-GPU-001]\n", a->gpu);
        return 2;
    }
    if (a->gpu && a->config) {
        fprintf(stderr, "gpumemsim: error: --gpu %s: the GPU configuration %s chooses the GPU "
                "(its \"base\" names the preset); give --gpu or the configuration, not both "
                "[SIM-GPU-002]\n", a->gpu, a->config);
        return 2;
    }
    if (a->config && (absolute_path(a->config, config, sizeof config) || access(config, R_OK))) {
        fprintf(stderr, "%s: error: cannot open the file: %s [CONFIG-001]\n", a->config,
                strerror(errno ? errno : ENAMETOOLONG));
        return 2;
    }
    if (a->json) {
        char folder[4096] = "";
        int fits = absolute_path(a->json, json, sizeof json) == 0;
        if (fits) /* the folder, with its final slash: "/" for a file at the root */
            snprintf(folder, sizeof folder, "%.*s", (int)(strrchr(json, '/') - json + 1), json);
        if (!fits || access(folder, W_OK)) {
            fprintf(stderr, "gpumemsim: error: --json: cannot create a file beside \"%s\": %s "
                    "[SIM-OUT-003]\n", a->json, strerror(errno ? errno : ENAMETOOLONG));
            return 2;
        }
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    snprintf(paths, sizeof paths, "%s%s%s", runtime_dir, old && *old ? ":" : "",
             old && *old ? old : "");
    const char *names[] = {"GPUMEMSIM_GPU", "GPUMEMSIM_CONFIG", "GPUMEMSIM_JSON",
                           "GPUMEMSIM_STRIP_HINTS", "GPUMEMSIM_TOP", "GPUMEMSIM_QUIET",
                           "LD_LIBRARY_PATH"};
    const char *values[] = {a->gpu, a->config ? config : NULL, a->json ? json : NULL,
                            a->strip_hints ? "1" : NULL, a->top, a->quiet ? "1" : NULL, paths};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (values[i] ? setenv(names[i], values[i], 1) : unsetenv(names[i])) {
            fputs("gpumemsim: out of memory\n", stderr);
            return 2;
        }
    return 0;
}

/* Prints a failed check of exec.h as a diagnostic and returns the exit status it calls for. */
static int exec_refused(const char *program, exec_check check, const char *why)
{
    fprintf(stderr, "gpumemsim: error: %s: %s [%s]\n", program, why, exec_check_rule(check));
    return check == EXEC_NOT_FOUND ? 127 : check == EXEC_NO_RUNTIME_DIR ? 2 : 126;
}

/* `exec`: checks the program, finds the runtime libraries, sets the environment and becomes
 * the program, whose exit status (or signal) is then the command's. */
static int cmd_exec(int argc, char **argv)
{
    exec_args a = {0};
    int parsed = parse_exec_options(argc, argv, &a);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    char **program = argv + optind, path[4096], dir[4096], why[512];
    exec_check check = exec_find_program(program[0], path, sizeof path, why, sizeof why);
    if (check == EXEC_OK)
        check = exec_check_program(path, why, sizeof why);
    if (check == EXEC_NO_CUDART && a.dlopen) /* it loads them by name at run time */
        check = EXEC_OK;
    if (check != EXEC_OK)
        return exec_refused(program[0], check, why);
    check = exec_runtime_dir(dir, sizeof dir, why, sizeof why);
    if (check != EXEC_OK)
        return exec_refused("exec", check, why);
    errno = 0;
    if (exec_environment(&a, dir))
        return 2;
    fflush(NULL);
    execv(path, program);
    fprintf(stderr, "gpumemsim: error: %s: cannot run it: %s [RT-EXEC-002]\n", program[0],
            strerror(errno));
    return 126;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gpumemsim %s (commit %s)\n", GMS_VERSION, GMS_COMMIT);
        return 0;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "presets") == 0)
        return cmd_presets(argc - 1, argv + 1);
    if (strcmp(argv[1], "exec") == 0)
        return cmd_exec(argc - 1, argv + 1);
    if (strcmp(argv[1], "metrics") == 0)
        return metrics_command(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return sweep_command(argc - 1, argv + 1);
    fprintf(stderr, "gpumemsim: unknown command '%s'\n\n", argv[1]);
    print_usage(stderr);
    return 2;
}

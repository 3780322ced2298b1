/* gpumemsim: the command line. Parses arguments (getopt_long), calls the sim layer and prints
 * diagnostics, device printf output, faults and reports. The only place that prints or exits. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/gpu_config.h"
#include "ptx/ptx.h"
#include "sim/sim.h"

static const char usage[] =
    "usage: gpumemsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  run LAUNCH.json        run the kernels of a launch file and print a report\n"
    "      --gpu NAME             use this GPU preset instead of the launch file's\n"
    "      --config FILE.json     GPU configuration override ({\"base\": \"a100\", ...})\n"
    "      --max-instructions N   stop a launch after N warp instructions (runaway limit)\n"
    "      --json FILE            also write the statistics as JSON (docs/statistics.md)\n"
    "      --top N                hottest instructions listed in the report (default 10)\n"
    "      --strip-hints          treat every cache hint as the default (compare with and without)\n"
    "      --poison-discard       discarded L2 lines read back as 0xFF bytes\n"
    "      --quiet                print only printf output, faults and failures\n"
    "      --progress             show progress on stderr even when it is not a terminal\n"
    "                             (shown on a terminal unless --quiet)\n"
    "  check FILE.ptx         parse and check a kernel file; exit 0 when clean, 2 otherwise\n"
    "      --list-ops             list the PTX instructions gpumemsim accepts\n"
    "  presets                list the GPU presets\n"
    "  presets show NAME      print one preset as JSON (usable as a --config file)\n"
    "\n"
    "exit status: 0 success, 1 a kernel faulted or an expectation failed, 2 bad input\n";

static void print_fault(const sim_result *r)
{
    const exec_fault *f = &r->fault;
    const launch_kernel *k = &r->launch->kernels[r->fault_launch];
    fprintf(stderr, "gpumemsim: kernel %s faulted (launch %zu of %zu)\n", k->kernel,
            r->fault_launch + 1, r->launch->nkernels);
    if (f->rule)
        fprintf(stderr, "  %s [%s]\n", f->message, f->rule);
    else
        fprintf(stderr, "  %s\n", f->message);
    fprintf(stderr, "  by thread (%u,%u,%u) in block (%u,%u,%u)\n", f->tid[0], f->tid[1],
            f->tid[2], f->ctaid[0], f->ctaid[1], f->ctaid[2]);
    if (f->ptx_line) {
        char *line = sim_module_line(r, f->ptx_line);
        fprintf(stderr, "  at %s:%u: %s\n", r->launch->module_path, f->ptx_line, line ? line : "");
        free(line);
    }
    if (f->loc_line && r->module && f->loc_file < r->module->nfiles &&
        r->module->files[f->loc_file])
        fprintf(stderr, "  source %s:%u\n", r->module->files[f->loc_file], f->loc_line);
    fprintf(stderr, "  no outputs were written\n");
}

static void print_expectations(const sim_result *r)
{
    for (size_t i = 0; i < r->launch->nexpects; i++) {
        const launch_expect_result *e = &r->expects[i];
        if (!e->mismatches)
            continue;
        fprintf(stderr, "expectation failed: %s: %llu of %llu elements differ\n", e->buffer_name,
                (unsigned long long)e->mismatches, (unsigned long long)e->elements);
        for (size_t j = 0; j < e->shown; j++)
            fprintf(stderr, "  [%llu] got %s, expected %s\n",
                    (unsigned long long)e->first[j].index, e->first[j].got,
                    e->first[j].expected);
    }
}

static void print_summary(const sim_result *r, const report_model *m, size_t top)
{
    report_write_text(m, top, stdout);
    printf("host time in kernels: %.3f s", r->seconds);
    if (r->seconds > 0)
        printf(" (%.2f M warp instructions/s)", r->warp_instructions / r->seconds / 1e6);
    printf("\n");
    for (size_t i = 0; i < r->launch->nexpects; i++)
        if (!r->expects[i].mismatches)
            printf("  expectation %s: %llu elements match\n", r->expects[i].buffer_name,
                   (unsigned long long)r->expects[i].elements);
    for (size_t i = 0; i < r->launch->noutputs; i++)
        printf("  wrote %s\n", r->launch->outputs[i].path);
}

/* The progress line of `run` (sim_options.progress): drawn at the first report (after 2^18 warp
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

static void draw_progress(const sim_progress *p, void *user)
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

static int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {{"gpu", required_argument, 0, 'g'},
                                         {"json", required_argument, 0, 'j'},
                                         {"top", required_argument, 0, 't'},
                                         {"config", required_argument, 0, 'c'},
                                         {"max-instructions", required_argument, 0, 'm'},
                                         {"quantum", required_argument, 0, 'Q'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"strip-hints", no_argument, 0, 's'},
                                         {"poison-discard", no_argument, 0, 'p'},
                                         {"progress", no_argument, 0, 'P'},
                                         {0, 0, 0, 0}};
    sim_options opt = {0};
    int quiet = 0, progress = 0, c;
    const char *json_path = NULL;
    size_t top = 10;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'g': opt.gpu = optarg; break;
        case 'c': opt.config_path = optarg; break;
        case 'q': quiet = 1; break;
        case 's': opt.strip_hints = 1; break;
        case 'p': opt.poison_discard = 1; break;
        case 'P': progress = 1; break;
        case 'j': json_path = optarg; break;
        case 't': {
            unsigned long long v = strtoull(optarg, &end, 10);
            if (*end || !*optarg) {
                fprintf(stderr, "gpumemsim: --top needs a number, not '%s'\n", optarg);
                return 2;
            }
            top = (size_t)v;
            break;
        }
        case 'm':
        case 'Q': {
            unsigned long long v = strtoull(optarg, &end, 0);
            if (*end || !*optarg || v == 0) {
                fprintf(stderr, "gpumemsim: --%s needs a positive integer, not '%s'\n",
                        c == 'm' ? "max-instructions" : "quantum", optarg);
                return 2;
            }
            if (c == 'm')
                opt.max_instructions = v;
            else
                opt.quantum = (uint32_t)v;
            break;
        }
        default: fputs(usage, stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fputs("gpumemsim run: expected exactly one launch file\n", stderr);
        return 2;
    }
    diag_list dl;
    diag_list_init(&dl);
    dl.max_errors = 100;
    progress_line line = {0, 0};
    if (progress || (!quiet && isatty(fileno(stderr)))) {
        opt.progress = draw_progress;
        opt.progress_user = &line;
    }
    sim_result *r = sim_run_file(argv[optind], &opt, &dl);
    if (line.drawn)
        fputs("\r\033[K", stderr);
    diag_list_print(&dl, stderr);
    diag_list_fini(&dl);
    if (!r) {
        fputs("gpumemsim: out of memory\n", stderr);
        return 2;
    }
    if (r->printf_text && *r->printf_text)
        fputs(r->printf_text, stdout);
    int status = r->status;
    if (r->faulted) {
        print_fault(r);
    } else if (r->status != SIM_BAD_INPUT) {
        report_model m;
        if (sim_report_model(r, &m)) {
            fputs("gpumemsim: out of memory building the report\n", stderr);
            status = 2;
        } else {
            if (!quiet)
                print_summary(r, &m, top);
            if (json_path) {
                diag_list jd;
                diag_list_init(&jd);
                if (report_write_json_file(&m, json_path, &jd) != REPORT_OK)
                    status = 2;
                diag_list_print(&jd, stderr);
                diag_list_fini(&jd);
            }
        }
        sim_report_model_fini(&m);
        print_expectations(r);
    }
    sim_result_destroy(r);
    return status;
}

static int cmd_check(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list-ops") == 0) {
        ptx_list_ops(stdout);
        return 0;
    }
    if (argc < 2) {
        fputs("gpumemsim check: expected one or more kernel files\n", stderr);
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        diag_list dl;
        diag_list_init(&dl);
        dl.max_errors = 200;
        if (sim_check_file(argv[i], &dl) != SIM_OK)
            status = 2;
        diag_list_print(&dl, stderr);
        diag_list_fini(&dl);
    }
    return status;
}

static int cmd_presets(int argc, char **argv)
{
    if (argc == 1) {
        for (size_t i = 0; i < gpu_preset_count(); i++) {
            const gpu_config *g = gpu_preset_at(i);
            printf("%-8s %s%s\n", g->name, g->description,
                   g == gpu_preset_default() ? " (default)" : "");
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "show") == 0) {
        const gpu_config *g = gpu_preset_find(argv[2]);
        if (!g) {
            fprintf(stderr, "gpumemsim: unknown preset '%s'; `gpumemsim presets` lists them\n",
                    argv[2]);
            return 2;
        }
        char *json = gpu_config_to_json(g);
        if (!json)
            return 2;
        printf("%s\n", json);
        free(json);
        return 0;
    }
    fputs("usage: gpumemsim presets [show NAME]\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "presets") == 0)
        return cmd_presets(argc - 1, argv + 1);
    fprintf(stderr, "gpumemsim: unknown command '%s'\n\n%s", argv[1], usage);
    return 2;
}

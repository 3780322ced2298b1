/* fidelity_figure: turns the timing of a `gpumemsim run --json` report into the figures that the
 * timing-validation cases compare with published hardware measurements (docs/timing.md,
 * "Validation"; tests/fidelity/README.md), and prints one "model vs published" row per case.
 *
 * Usage: fidelity_figure REPORT.json CASES.txt LAUNCH
 *   evaluates every line of CASES.txt whose launch-file field is LAUNCH (a path as written in
 *   the cases file) against REPORT.json, the statistics of running that launch file.
 *
 * A case line is whitespace-separated: NAME LAUNCH FIGURE A B UNITS PUBLISHED TOLERANCE SOURCE...
 *   FIGURE per_unit          (cycles[B] - cycles[A]) / UNITS          e.g. cycles per load
 *          bytes_per_cycle   UNITS / (cycles[B] - cycles[A])          UNITS in bytes
 *          gb_per_s          UNITS / (cycles[B] / clock) in GB/s      UNITS in bytes, A is "-"
 *   cycles[i] is launches[i].timing.cycles and clock launches[B].timing.clock_mhz.
 *   PUBLISHED is the hardware figure ("-": none, the row only shows the model's).
 *   TOLERANCE is relative ("5%") or absolute in the figure's unit ("1").
 *   SOURCE is the rest of the line: where PUBLISHED comes from.
 * Lines that are empty or start with '#' are skipped.
 *
 * Exit status: 0 every case within its tolerance, 1 some case outside it, 2 bad usage,
 * unreadable input, no case for LAUNCH, or a report without timing (timing off, or a simulator
 * without the timing model). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define FIELDS 8

typedef struct fig_case {
    char *field[FIELDS]; /* NAME LAUNCH FIGURE A B UNITS PUBLISHED TOLERANCE */
    const char *source;  /* the rest of the line, "" when none */
} fig_case;

/* Splits `line` (modified in place) into a case. Returns 0, or -1 when fields are missing. */
static int parse_case(char *line, fig_case *c)
{
    char *p = line;
    for (int i = 0; i < FIELDS; i++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '\n')
            return -1;
        c->field[i] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        if (*p)
            *p++ = '\0';
    }
    while (*p == ' ' || *p == '\t')
        p++;
    p[strcspn(p, "\n")] = '\0';
    c->source = p;
    return 0;
}

/* launches[i].timing.<key> as a number into *out. Returns 0, or -1 with a message on stderr. */
static int timing_value(json_t *report, long i, const char *key, double *out)
{
    json_t *launches = json_object_get(report, "launches");
    json_t *launch = json_array_get(launches, (size_t)i);
    if (!launch) {
        fprintf(stderr, "fidelity_figure: the report has no launches[%ld]\n", i);
        return -1;
    }
    json_t *timing = json_object_get(launch, "timing");
    if (!timing) {
        fprintf(stderr, "fidelity_figure: launches[%ld] has no \"timing\" (timing off, or a "
                        "simulator without the timing model)\n", i);
        return -1;
    }
    json_t *v = json_object_get(timing, key);
    if (!json_is_number(v)) {
        fprintf(stderr, "fidelity_figure: launches[%ld].timing.%s is not a number\n", i, key);
        return -1;
    }
    *out = json_number_value(v);
    return 0;
}

/* The model's figure of case `c` into *out. Returns 0, or -1 (message on stderr). */
static int model_figure(json_t *report, const fig_case *c, double *out)
{
    const char *figure = c->field[2];
    double units = strtod(c->field[5], NULL);
    long b = strtol(c->field[4], NULL, 10);
    double cycles_b, cycles_a = 0.0;
    if (timing_value(report, b, "cycles", &cycles_b) != 0)
        return -1;
    if (strcmp(figure, "gb_per_s") == 0) {
        double mhz;
        if (timing_value(report, b, "clock_mhz", &mhz) != 0 || cycles_b <= 0.0)
            return -1;
        *out = units / (cycles_b / (mhz * 1e6)) / 1e9;
        return 0;
    }
    if (timing_value(report, strtol(c->field[3], NULL, 10), "cycles", &cycles_a) != 0)
        return -1;
    double delta = cycles_b - cycles_a;
    if (strcmp(figure, "per_unit") == 0 && units > 0.0) {
        *out = delta / units;
        return 0;
    }
    if (strcmp(figure, "bytes_per_cycle") == 0 && delta > 0.0) {
        *out = units / delta;
        return 0;
    }
    fprintf(stderr, "fidelity_figure: case %s: unknown figure \"%s\" or no cycles between the "
                    "launches\n", c->field[0], figure);
    return -1;
}

/* Prints the row of case `c` with the model's figure `model`. Returns 1 when it is outside the
 * tolerance, else 0. */
static int print_row(const fig_case *c, double model)
{
    if (strcmp(c->field[6], "-") == 0) {
        printf("%-28s model %10.2f   published          -                    %s\n",
               c->field[0], model, c->source);
        return 0;
    }
    double published = strtod(c->field[6], NULL);
    const char *tol_text = c->field[7];
    double tol = strtod(tol_text, NULL);
    int relative = tol_text[strlen(tol_text) - 1] == '%';
    double allowed = relative ? fabs(published) * tol / 100.0 : tol;
    double diff = model - published;
    int ok = fabs(diff) <= allowed + 1e-9;
    printf("%-28s model %10.2f   published %10.2f   %+7.1f%%  (tolerance %s)  %s   %s\n",
           c->field[0], model, published, published != 0.0 ? 100.0 * diff / published : 0.0,
           tol_text, ok ? "ok" : "OUTSIDE", c->source);
    return !ok;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: fidelity_figure REPORT.json CASES.txt LAUNCH\n");
        return 2;
    }
    json_error_t err;
    json_t *report = json_load_file(argv[1], 0, &err);
    FILE *cases = fopen(argv[2], "r");
    if (!report || !cases) {
        fprintf(stderr, "fidelity_figure: cannot read %s\n", report ? argv[2] : argv[1]);
        json_decref(report);
        if (cases)
            fclose(cases);
        return 2;
    }
    char line[1024];
    int matched = 0, outside = 0, bad = 0;
    while (fgets(line, sizeof line, cases)) {
        fig_case c;
        if (line[0] == '#' || parse_case(line, &c) != 0 || strcmp(c.field[1], argv[3]) != 0)
            continue;
        matched++;
        double model;
        if (model_figure(report, &c, &model) != 0) {
            bad = 1;
            continue;
        }
        outside += print_row(&c, model);
    }
    fclose(cases);
    json_decref(report);
    if (!matched)
        fprintf(stderr, "fidelity_figure: no case in %s names %s\n", argv[2], argv[3]);
    if (bad || !matched)
        return 2;
    return outside ? 1 : 0;
}

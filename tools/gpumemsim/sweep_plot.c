/* Plots of a sweep (docs/sweeps.md, "Plots"): a column of the table against a swept column,
 * one line per combination of the other swept values (and launch), drawn by gnuplot. The data
 * (<stem>.dat) and the gnuplot script (<stem>.gp) are written beside the image in the sweep
 * folder, so that a plot can be restyled or redrawn without running anything again. */
#define _GNU_SOURCE /* fork, chdir */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_internal.h"

/* One point of a series. */
typedef struct point {
    double x;
    const json_t *x_value, *y_value; /* borrowed from the rows, printed as the table has them */
} point;

/* The columns that tell the series apart: the swept ones except x, and launch and kernel. */
static int is_series_column(const char *name, const char *x)
{
    return strcmp(name, x) && strcmp(name, "run") && strcmp(name, "exit_status") &&
           strcmp(name, "grid") && strcmp(name, "block");
}

/* A row's series label: "column=value" for each series column whose value differs between
 * rows (so that a one-line plot has no label clutter); `varying` flags them, `nkeys` of them. */
static void series_label(const json_t *row, const json_t *keys, const int *varying, char *out,
                         size_t len)
{
    size_t used = 0, i;
    json_t *key;
    out[0] = 0;
    json_array_foreach(keys, i, key) {
        if (!varying[i] || used >= len)
            continue;
        const json_t *v = json_object_get(row, json_string_value(key));
        char *text = json_is_string(v) ? strdup(json_string_value(v))
                                       : json_dumps(v ? v : json_null(), JSON_ENCODE_ANY);
        used += (size_t)snprintf(out + used, len - used, "%s%s=%s", used ? ", " : "",
                                 json_string_value(key), text ? text : "?");
        free(text);
    }
}

/* The series columns that are in the table before the counters, and which of them vary. */
static json_t *series_keys(const json_t *columns, const json_t *rows, const char *x,
                           int **varying)
{
    json_t *keys = json_array(), *column;
    size_t i;
    json_array_foreach(columns, i, column) {
        const char *name = json_string_value(column);
        if (is_series_column(name, x))
            json_array_append(keys, column);
        if (strcmp(name, "kernel") == 0)
            break; /* the counters follow */
    }
    *varying = calloc(json_array_size(keys) + 1, sizeof **varying);
    json_t *key;
    json_array_foreach(keys, i, key) {
        const json_t *first = json_object_get(json_array_get(rows, 0), json_string_value(key));
        size_t r;
        json_t *row;
        json_array_foreach(rows, r, row) {
            const json_t *v = json_object_get(row, json_string_value(key));
            if (*varying && !(v == first || (v && first && json_equal(v, first))))
                (*varying)[i] = 1;
        }
    }
    return keys;
}

static int compare_points(const void *a, const void *b)
{
    double x = ((const point *)a)->x, y = ((const point *)b)->x;
    return x < y ? -1 : x > y;
}

/* Writes the series of the plotted rows to `f` (gnuplot data blocks, two blank lines apart) and
 * their labels to `labels`. Returns the number of series. */
static size_t write_data(FILE *f, const json_t *rows, const char *x, const char *y,
                         const json_t *keys, const int *varying, json_t *labels)
{
    size_t nrows = json_array_size(rows), n = 0, r;
    point *points = malloc((nrows ? nrows : 1) * sizeof *points);
    json_t *row;
    while (points && json_array_size(labels) < nrows) {
        char label[1024], other[1024];
        n = 0;
        json_array_foreach(rows, r, row) {
            const json_t *xv = json_object_get(row, x), *yv = json_object_get(row, y);
            if (!json_is_number(xv) || !json_is_number(yv))
                continue;
            series_label(row, keys, varying, other, sizeof other);
            size_t l;
            json_t *done;
            int taken = 0;
            json_array_foreach(labels, l, done) taken |=
                strcmp(json_string_value(done), other) == 0;
            if (taken || (n && strcmp(label, other)))
                continue;
            if (!n)
                snprintf(label, sizeof label, "%s", other);
            points[n++] = (point){json_number_value(xv), xv, yv};
        }
        if (!n)
            break;
        qsort(points, n, sizeof *points, compare_points);
        fprintf(f, "%s# %s\n", json_array_size(labels) ? "\n\n" : "", label);
        for (size_t p = 0; p < n; p++) {
            char *xt = json_dumps(points[p].x_value, JSON_ENCODE_ANY),
                 *yt = json_dumps(points[p].y_value, JSON_ENCODE_ANY);
            fprintf(f, "%s %s\n", xt ? xt : "0", yt ? yt : "0");
            free(xt);
            free(yt);
        }
        json_array_append_new(labels, json_string(label));
    }
    free(points);
    return json_array_size(labels);
}

/* `text` as a gnuplot single-quoted string: each ' doubled. */
static void gnuplot_quote(FILE *f, const char *text)
{
    fputc('\'', f);
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputc('\'', f);
        fputc(*p, f);
    }
    fputc('\'', f);
}

static void write_script(FILE *f, const json_t *plot, const char *stem, const json_t *labels)
{
    const char *x = json_string_value(json_object_get(plot, "x")),
               *y = json_string_value(json_object_get(plot, "y")),
               *output = json_string_value(json_object_get(plot, "output")),
               *title = json_string_value(json_object_get(plot, "title"));
    size_t n = strlen(output);
    char default_title[512];
    snprintf(default_title, sizeof default_title, "%s against %s", y, x);
    fprintf(f, "# gnuplot script written by gpumemsim sweep; redraw with `gnuplot %s.gp` in "
               "this folder\n", stem);
    fputs(strcmp(output + n - 4, ".svg") == 0
              ? "set terminal svg size 800,500 dynamic noenhanced background rgb 'white'\n"
              : "set terminal pngcairo size 800,500 noenhanced\n", f);
    fputs("set output ", f);
    gnuplot_quote(f, output);
    fputs("\nset title ", f);
    gnuplot_quote(f, title ? title : default_title);
    fputs("\nset xlabel ", f);
    gnuplot_quote(f, x);
    fputs("\nset ylabel ", f);
    gnuplot_quote(f, y);
    fputs("\nset grid\nset key outside right top\n", f);
    if (json_is_true(json_object_get(plot, "log_x")))
        fputs("set logscale x 2\n", f);
    if (json_is_true(json_object_get(plot, "log_y")))
        fputs("set logscale y\n", f);
    size_t i;
    json_t *label;
    json_array_foreach(labels, i, label) {
        fputs(i ? ", \\\n     " : "plot ", f);
        fprintf(f, "'%s.dat' index %zu using 1:2 with linespoints title ", stem, i);
        gnuplot_quote(f, *json_string_value(label) ? json_string_value(label) : y);
    }
    fputs("\n", f);
}

/* Runs `gnuplot <stem>.gp` in `dir`. Returns its exit status (127: gnuplot is not there). */
static int run_gnuplot(const char *dir, const char *script)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (chdir(dir) != 0 || null < 0 || dup2(null, 1) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(errno == ENOENT ? 127 : 126);
    }
    int st;
    if (pid < 0)
        return 126;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 126;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 126;
}

/* Writes `dir`/`name` from the text `write` produces. Returns 0 or -1. */
static int write_text(const char *dir, const char *name, char *text, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return text ? sweep_write_file(path, text, len) : -1;
}

/* Checks the plot's columns against the table. Returns 0, or 1 (printed). */
static int check_columns(const char *dir, const char *x, const char *y, const json_t *columns,
                         const json_t *rows)
{
    int has_y = 0, numbers = 0;
    size_t i;
    json_t *e;
    json_array_foreach(columns, i, e) has_y |= strcmp(json_string_value(e), y) == 0;
    json_array_foreach(rows, i, e) numbers += json_is_number(json_object_get(e, x)) &&
                                              json_is_number(json_object_get(e, y));
    if (!has_y)
        sweep_error(dir, 0, 0, "CLI-SWEEP-014", "plot of '%s': the table has no such column "
                    "(see the header of %s; \"columns\" may have left it out)", y, SWEEP_CSV);
    else if (!numbers)
        sweep_error(dir, 0, 0, "CLI-SWEEP-014", "plot of '%s' against '%s': no row has numbers "
                    "in both columns", y, x);
    return !has_y || !numbers;
}

int sweep_plot(const char *dir, const json_t *plot, const json_t *columns, const json_t *rows)
{
    const char *x = json_string_value(json_object_get(plot, "x")),
               *y = json_string_value(json_object_get(plot, "y")),
               *output = json_string_value(json_object_get(plot, "output"));
    if (check_columns(dir, x, y, columns, rows))
        return 1;
    char stem[256], name[300];
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(output) - 4), output);
    int *varying = NULL;
    json_t *keys = series_keys(columns, rows, x, &varying), *labels = json_array();
    char *data = NULL, *script = NULL;
    size_t data_len = 0, script_len = 0;
    FILE *f = open_memstream(&data, &data_len);
    if (f && varying)
        write_data(f, rows, x, y, keys, varying, labels);
    if (f)
        fclose(f);
    f = open_memstream(&script, &script_len);
    if (f) {
        write_script(f, plot, stem, labels);
        fclose(f);
    }
    snprintf(name, sizeof name, "%s.dat", stem);
    int bad = write_text(dir, name, data, data_len);
    snprintf(name, sizeof name, "%s.gp", stem);
    bad = bad || write_text(dir, name, script, script_len);
    free(data);
    free(script);
    free(varying);
    json_decref(keys);
    json_decref(labels);
    if (bad) {
        sweep_error(dir, 0, 0, "CLI-SWEEP-010", "cannot write %s: %s", name, strerror(errno));
        return 1;
    }
    int status = run_gnuplot(dir, name);
    if (status == 127)
        fprintf(stderr, "%s: warning: gnuplot is not installed (Debian: apt-get install "
                "gnuplot-nox); %s was not drawn: draw it later with `gnuplot %s` in the sweep "
                "folder [CLI-SWEEP-015]\n", dir, output, name);
    else if (status)
        sweep_error(dir, 0, 0, "CLI-SWEEP-015", "gnuplot failed on %s (exit status %d)", name,
                    status);
    return status != 0 && status != 127;
}

/* The merged table of a sweep (docs/sweeps.md, "The table"): one row per run and launch, built
 * from what the runs left in their folders. The first columns are the run's id and its swept
 * values, then its exit status and the launch's index; then every value of the launch object
 * of the run's JSON report (docs/statistics.md, "JSON report"), nested keys joined with '.'
 * ("l2.hit_rate", "timing.stalls.barrier"), optionally narrowed by the sweep file's "columns".
 * Written as CSV (RFC 4180) and as JSON Lines, the same columns in the same order. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_internal.h"

/* Whether counter column `name` is kept: `filter` (the sweep file's "columns") lists exact
 * names and prefixes ending in '.'; null keeps every column. */
static int kept(const json_t *filter, const char *name)
{
    if (json_is_null(filter) || !filter)
        return 1;
    size_t i;
    json_t *e;
    json_array_foreach(filter, i, e) {
        const char *f = json_string_value(e);
        size_t n = strlen(f);
        if (f[n - 1] == '.' ? strncmp(name, f, n) == 0 : strcmp(name, f) == 0)
            return 1;
    }
    return 0;
}

/* Adds the leaves of `object` to `row` as "prefix.key" columns, and their names to `seen`. */
static void flatten(const json_t *object, const char *prefix, const json_t *filter, json_t *row,
                    json_t *seen)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        char name[512];
        snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", key);
        if (json_is_object(value)) {
            flatten(value, name, filter, row, seen);
        } else if (kept(filter, name)) {
            json_object_set(row, name, value);
            json_object_set_new(seen, name, json_true());
        }
    }
}

/* The exit status recorded in runs/<id>/status: >= 0, or -1 when the run has not ended. */
static int read_status(const char *dir, const char *id)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/runs/%s/status", dir, id);
    FILE *f = fopen(path, "r");
    int status = -1;
    if (f) {
        if (fscanf(f, "%d", &status) != 1 || status < 0)
            status = -1;
        fclose(f);
    }
    return status;
}

/* The first columns of a run's rows: its id, its swept values, its exit status. */
static json_t *row_start(const json_t *manifest, const json_t *run, int status,
                         const json_t *stats)
{
    json_t *row = json_pack("{s:O}", "run", json_object_get(run, "id"));
    const json_t *values = json_object_get(run, "values");
    size_t i;
    json_t *column;
    json_array_foreach(json_object_get(manifest, "columns"), i, column) {
        const char *name = json_string_value(column);
        json_t *value = json_object_get(values, name);
        /* A gpu that was not swept is the launch file's own: its report names it. */
        if (strcmp(name, "gpu") == 0 && json_is_null(value) && stats)
            value = json_object_get(stats, "gpu");
        json_object_set(row, name, value ? value : json_null());
    }
    json_object_set_new(row, "exit_status", status < 0 ? json_null() : json_integer(status));
    return row;
}

/* Appends the rows of one run to `rows`. Returns its exit status (-1: not ended). */
static int run_rows(const char *dir, const json_t *manifest, const json_t *run, json_t *rows,
                    json_t *seen)
{
    const char *id = json_string_value(json_object_get(run, "id"));
    char path[PATH_MAX];
    int status = read_status(dir, id);
    snprintf(path, sizeof path, "%s/runs/%s/stats.json", dir, id);
    json_t *stats = status < 0 ? NULL : json_load_file(path, 0, NULL);
    const json_t *launches = json_object_get(stats, "launches");
    if (json_array_size(launches) == 0) {
        json_t *row = row_start(manifest, run, status, stats);
        json_object_set_new(row, "launch", json_null());
        json_array_append_new(rows, row);
    }
    size_t i;
    json_t *launch;
    json_array_foreach(launches, i, launch) {
        json_t *row = row_start(manifest, run, status, stats);
        json_object_set_new(row, "launch", json_integer((json_int_t)i));
        flatten(launch, "", json_object_get(manifest, "counters"), row, seen);
        json_array_append_new(rows, row);
    }
    json_decref(stats);
    return status;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every column in table order: run, the swept columns, exit_status, launch, then the counter
 * columns: kernel, grid and block first, the others sorted by name. */
static json_t *table_columns(const json_t *manifest, const json_t *seen)
{
    json_t *columns = json_pack("[s]", "run");
    json_array_extend(columns, json_object_get(manifest, "columns"));
    json_array_append_new(columns, json_string("exit_status"));
    json_array_append_new(columns, json_string("launch"));
    static const char *const first[] = {"kernel", "grid", "block"};
    for (size_t i = 0; i < 3; i++)
        if (json_object_get(seen, first[i]))
            json_array_append_new(columns, json_string(first[i]));
    size_t n = json_object_size(seen), k = 0;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    const char *key;
    json_t *unused;
    json_object_foreach((json_t *)seen, key, unused) {
        if (names && strcmp(key, "kernel") && strcmp(key, "grid") && strcmp(key, "block"))
            names[k++] = key;
    }
    if (names) {
        qsort(names, k, sizeof *names, compare_names);
        for (size_t i = 0; i < k; i++)
            json_array_append_new(columns, json_string(names[i]));
    }
    free(names);
    return columns;
}

/* One CSV cell: numbers as the JSON report writes them, strings as they are, arrays (grid,
 * block) as "x,y,z" joined with 'x', null and absent values empty; quoted where needed. */
static void csv_cell(FILE *f, const json_t *v)
{
    char *text = NULL;
    if (json_is_string(v)) {
        text = strdup(json_string_value(v));
    } else if (json_is_array(v)) {
        size_t cap = 32 * json_array_size(v) + 1, used = 0, i;
        json_t *e;
        text = calloc(1, cap);
        json_array_foreach(v, i, e) if (text && json_is_integer(e)) used +=
            (size_t)snprintf(text + used, cap - used, "%s%lld", i ? "x" : "",
                             (long long)json_integer_value(e));
    } else if (v && !json_is_null(v)) {
        text = json_dumps(v, JSON_ENCODE_ANY);
    }
    if (text && strpbrk(text, ",\"\r\n")) {
        fputc('"', f);
        for (const char *p = text; *p; p++) {
            if (*p == '"')
                fputc('"', f);
            fputc(*p, f);
        }
        fputc('"', f);
    } else if (text) {
        fputs(text, f);
    }
    free(text);
}

static char *csv_text(const json_t *columns, const json_t *rows, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    size_t c, r;
    json_t *column, *row;
    json_array_foreach(columns, c, column) {
        fputs(c ? "," : "", f);
        csv_cell(f, column);
    }
    fputs("\n", f);
    json_array_foreach(rows, r, row) {
        json_array_foreach(columns, c, column) {
            fputs(c ? "," : "", f);
            csv_cell(f, json_object_get(row, json_string_value(column)));
        }
        fputs("\n", f);
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* JSON Lines: one compact object per row, its keys in column order (absent ones left out,
 * except the run's own columns, which are always there, null when unknown). */
static char *jsonl_text(const json_t *columns, const json_t *rows, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    size_t c, r;
    json_t *column, *row;
    json_array_foreach(rows, r, row) {
        json_t *ordered = json_object();
        json_array_foreach(columns, c, column) {
            json_t *v = json_object_get(row, json_string_value(column));
            if (v)
                json_object_set(ordered, json_string_value(column), v);
        }
        char *line = json_dumps(ordered, JSON_COMPACT);
        fprintf(f, "%s\n", line ? line : "{}");
        free(line);
        json_decref(ordered);
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Writes both files of the table. Returns 0, or 2 (printed). */
static int write_table(const char *dir, const json_t *columns, const json_t *rows)
{
    const char *names[] = {SWEEP_CSV, SWEEP_JSONL};
    for (int k = 0; k < 2; k++) {
        size_t len = 0;
        char path[PATH_MAX], *text = k ? jsonl_text(columns, rows, &len)
                                       : csv_text(columns, rows, &len);
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (!text || sweep_write_file(path, text, len) != 0) {
            sweep_error(path, 0, 0, "CLI-SWEEP-010", "cannot write the table: %s",
                        strerror(errno ? errno : ENOMEM));
            free(text);
            return 2;
        }
        free(text);
    }
    return 0;
}

/* Prints which runs failed or have not ended; returns how many. */
static size_t report_unfinished(const char *dir, const json_t *runs, const int *status)
{
    size_t failed = 0, missing = 0, i;
    json_t *run;
    json_array_foreach(runs, i, run) {
        failed += status[i] > 0;
        missing += status[i] < 0;
    }
    if (!failed && !missing)
        return 0;
    fprintf(stderr, "%s: error: %zu of %zu runs failed and %zu have no exit status (not run, or "
            "still running) [CLI-SWEEP-016]\n", dir, failed, json_array_size(runs), missing);
    size_t shown = 0;
    json_array_foreach(runs, i, run) {
        if (!status[i] || shown++ >= 10)
            continue;
        const char *id = json_string_value(json_object_get(run, "id"));
        if (status[i] > 0)
            fprintf(stderr, "  run %s: exit status %d (%s/runs/%s/stderr)\n", id, status[i], dir,
                    id);
        else
            fprintf(stderr, "  run %s: no exit status\n", id);
    }
    if (shown > 10)
        fprintf(stderr, "  and %zu more\n", shown - 10);
    return failed + missing;
}

int sweep_merge(const char *dir, const json_t *manifest, int quiet)
{
    const json_t *runs = json_object_get(manifest, "runs");
    size_t nruns = json_array_size(runs), i;
    int *status = calloc(nruns ? nruns : 1, sizeof *status);
    json_t *rows = json_array(), *seen = json_object(), *run;
    if (!status) {
        fputs("gpumemsim: out of memory\n", stderr);
        return 2;
    }
    json_array_foreach(runs, i, run) status[i] = run_rows(dir, manifest, run, rows, seen);
    json_t *columns = table_columns(manifest, seen);
    int result = write_table(dir, columns, rows);
    if (result == 0 && report_unfinished(dir, runs, status))
        result = 1;
    if (result != 2 && !quiet)
        printf("%zu runs, %zu rows: %s/%s, %s/%s\n", nruns, json_array_size(rows), dir,
               SWEEP_CSV, dir, SWEEP_JSONL);
    json_t *plot;
    json_array_foreach(json_object_get(manifest, "plots"), i, plot) {
        if (result != 2 && sweep_plot(dir, plot, columns, rows) && result == 0)
            result = 1;
    }
    json_decref(columns);
    json_decref(seen);
    json_decref(rows);
    free(status);
    return result;
}

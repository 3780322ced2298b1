/* The sweep file of `gpumemsim sweep` (docs/sweeps.md, "The sweep file"): reading it strictly
 * and expanding its grid into the manifest of sweep_internal.h. Nothing here runs a simulation
 * or creates a file; a configuration a run would use is checked by building a device from it
 * (the public API), so that a bad value is found before hundreds of runs fail on it. */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpumemsim/gpumemsim.h"
#include "sweep_internal.h"

/* The run flags a sweep may vary or give every run: those of `gpumemsim run` that change what
 * is simulated. `takes_value`: the flag's value is the next element (or follows '='). The others
 * (--json, --gpu, --config, --quiet, ...) belong to the sweep itself. */
static const struct {
    const char *name;
    int takes_value;
} sweep_flags[] = {
    {"--strip-hints", 0},   {"--no-timing", 0},      {"--poison-discard", 0},
    {"--misaligned-errors", 0}, {"--strict-hazards", 0}, {"--scheduler", 1},
    {"--quantum", 1},       {"--max-instructions", 1},
};

static const char *const top_keys[] = {"launch_files", "gpus",    "parameters", "flags",
                                       "options",      "columns", "plots",      "description"};

/* The sweep file being read: its path and text, for the positions of diagnostics. */
typedef struct sweep_source {
    const char *path;
    const char *text;
    char folder[PATH_MAX]; /* absolute, for relative launch file paths */
} sweep_source;

/* Line and column of the top-level key `key` in the text (jansson keeps no positions of
 * values): a small scan of strings and nesting. 0, 0 when it is not there. */
static void key_position(const char *text, const char *key, unsigned *line, unsigned *col)
{
    unsigned l = 1, c = 1, depth = 0;
    size_t key_len = strlen(key);
    *line = *col = 0;
    for (const char *p = text; *p;) {
        if (*p == '"') {
            unsigned key_line = l, key_col = c;
            const char *start = ++p;
            c++;
            for (; *p && *p != '"'; p++) {
                if (*p == '\\' && p[1]) {
                    p++;
                    c++;
                }
                if (((unsigned char)*p & 0xC0) != 0x80)
                    c++;
            }
            size_t n = (size_t)(p - start);
            if (*p) {
                p++;
                c++;
            }
            const char *q = p + strspn(p, " \t\r\n");
            if (depth == 1 && *q == ':' && n == key_len && memcmp(start, key, n) == 0) {
                *line = key_line;
                *col = key_col;
                return;
            }
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ']') && depth)
            depth--;
        if (*p == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            c++;
        }
        p++;
    }
}

/* Prints an error about the value of top-level key `key`, pointing at the key. Returns NULL so
 * that callers can `return fail(...)`. */
static void *fail(const sweep_source *s, const char *key, const char *rule, const char *message)
{
    unsigned line = 0, col = 0;
    if (key)
        key_position(s->text, key, &line, &col);
    sweep_error(s->path, line, col, rule, "%s", message);
    return NULL;
}

/* As fail, for callers that return a status: returns -1. */
static int refuse(const sweep_source *s, const char *key, const char *rule, const char *message)
{
    fail(s, key, rule, message);
    return -1;
}

/* Whether `v` is a non-empty array of non-empty strings. */
static int is_string_list(const json_t *v)
{
    if (!json_is_array(v) || json_array_size(v) == 0)
        return 0;
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) if (!json_is_string(e) || !*json_string_value(e)) return 0;
    return 1;
}

/* Checks a list of run flags (one flag set of "flags", or "options"). Writes the problem in
 * `why` and returns -1, or returns 0. */
static int check_flag_list(const json_t *list, char *why, size_t why_len)
{
    size_t n = json_array_size(list);
    for (size_t i = 0; i < n; i++) {
        const char *flag = json_string_value(json_array_get(list, i));
        size_t name_len = strcspn(flag, "=");
        size_t f = 0, nflags = sizeof sweep_flags / sizeof sweep_flags[0];
        while (f < nflags && (strlen(sweep_flags[f].name) != name_len ||
                              strncmp(sweep_flags[f].name, flag, name_len)))
            f++;
        if (f == nflags) {
            snprintf(why, why_len, "'%s' is not a run flag a sweep can set (%s)", flag,
                     "--strip-hints, --no-timing, --poison-discard, --misaligned-errors, "
                     "--strict-hazards, --scheduler, --quantum, --max-instructions");
            return -1;
        }
        if (!sweep_flags[f].takes_value && flag[name_len] == '=') {
            snprintf(why, why_len, "'%.*s' takes no value", (int)name_len, flag);
            return -1;
        }
        if (sweep_flags[f].takes_value && !flag[name_len]) {
            if (i + 1 == n) {
                snprintf(why, why_len, "'%s' needs a value as the next element", flag);
                return -1;
            }
            i++;
        }
    }
    return 0;
}

/* The launch files as absolute paths (owned), each checked to be readable. */
static json_t *read_launch_files(const sweep_source *s, const json_t *root)
{
    const json_t *v = json_object_get(root, "launch_files");
    if (!v)
        return fail(s, NULL, "CLI-SWEEP-003", "the sweep file has no \"launch_files\"");
    if (!is_string_list(v))
        return fail(s, "launch_files", "CLI-SWEEP-004",
                    "\"launch_files\" must be a non-empty array of file names");
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        const char *name = json_string_value(e);
        char joined[PATH_MAX * 2], message[PATH_MAX * 3];
        snprintf(joined, sizeof joined, "%s%s%s", name[0] == '/' ? "" : s->folder,
                 name[0] == '/' ? "" : "/", name);
        if (access(joined, R_OK) != 0) {
            snprintf(message, sizeof message, "launch_files[%zu]: cannot read \"%s\": %s", i,
                     name, strerror(errno));
            json_decref(out);
            return fail(s, "launch_files", "CLI-SWEEP-005", message);
        }
        json_array_append_new(out, json_string(joined));
    }
    return out;
}

/* Checks "gpus" (absent: json null is returned, the launch files keep their own preset). */
static json_t *read_gpus(const sweep_source *s, const json_t *root)
{
    json_t *v = json_object_get(root, "gpus");
    if (!v)
        return json_null();
    if (!is_string_list(v))
        return fail(s, "gpus", "CLI-SWEEP-004",
                    "\"gpus\" must be a non-empty array of preset names");
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        char message[512];
        if (gms_preset_find(json_string_value(e), NULL) != GMS_OK) {
            snprintf(message, sizeof message,
                     "gpus[%zu]: unknown GPU preset '%s'; `gpumemsim presets` lists them", i,
                     json_string_value(e));
            return fail(s, "gpus", "CLI-SWEEP-006", message);
        }
        for (size_t j = 0; j < i; j++)
            if (json_equal(e, json_array_get(v, j))) {
                snprintf(message, sizeof message, "gpus[%zu]: '%s' is listed twice", i,
                         json_string_value(e));
                return fail(s, "gpus", "CLI-SWEEP-004", message);
            }
    }
    return json_incref(v);
}

/* Whether `key` is a dotted configuration path: non-empty segments of letters, digits and '_'. */
static int is_config_path(const char *key)
{
    if (!*key || strlen(key) > 200 || *key == '.' || key[strlen(key) - 1] == '.' ||
        strstr(key, ".."))
        return 0;
    for (const char *p = key; *p; p++)
        if (!(*p == '.' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return 0;
    return strcmp(key, "base") && strcmp(key, "name");
}

/* Checks one parameter's key and values; writes the problem in `why`. */
static int check_parameter(const json_t *params, const char *key, const json_t *values,
                           char *why, size_t why_len)
{
    if (!is_config_path(key)) {
        snprintf(why, why_len, "parameters: '%s' is not a configuration key such as "
                 "\"l2.size_bytes\" (\"base\" and \"name\" come from \"gpus\")", key);
        return -1;
    }
    const char *other;
    json_t *unused;
    json_object_foreach((json_t *)params, other, unused) {
        size_t n = strlen(other);
        if (strcmp(other, key) && strncmp(other, key, n) == 0 && key[n] == '.') {
            snprintf(why, why_len, "parameters: '%s' lies inside '%s'; sweep one or the other",
                     key, other);
            return -1;
        }
    }
    if (!json_is_array(values) || json_array_size(values) == 0) {
        snprintf(why, why_len, "parameters: '%s' must have a non-empty array of values", key);
        return -1;
    }
    size_t i;
    json_t *e;
    json_array_foreach(values, i, e) {
        if (json_is_object(e) || json_is_array(e) || json_is_null(e)) {
            snprintf(why, why_len, "parameters: %s[%zu] must be a number, a string or a "
                     "boolean", key, i);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (json_equal(e, json_array_get(values, j))) {
                snprintf(why, why_len, "parameters: %s[%zu] repeats an earlier value", key, i);
                return -1;
            }
    }
    return 0;
}

/* Checks "parameters" (absent: an empty object). They need "gpus": a configuration override
 * starts from a named preset. */
static json_t *read_parameters(const sweep_source *s, const json_t *root, const json_t *gpus)
{
    json_t *v = json_object_get(root, "parameters");
    if (!v)
        return json_object();
    if (!json_is_object(v))
        return fail(s, "parameters", "CLI-SWEEP-004",
                    "\"parameters\" must be an object of configuration keys and their values");
    if (json_object_size(v) && json_is_null(gpus))
        return fail(s, "parameters", "CLI-SWEEP-007",
                    "\"parameters\" need \"gpus\": each configuration starts from a named preset");
    const char *key;
    json_t *values;
    json_object_foreach(v, key, values) {
        char why[512];
        if (check_parameter(v, key, values, why, sizeof why))
            return fail(s, "parameters", "CLI-SWEEP-007", why);
    }
    return json_incref(v);
}

/* Checks "flags" (absent: json null, no flags axis) and "options" (absent: []). */
static int read_flags(const sweep_source *s, const json_t *root, json_t **flags, json_t **options)
{
    char why[512];
    json_t *v = json_object_get(root, "flags");
    *flags = NULL;
    *options = NULL;
    if (v) {
        if (!json_is_array(v) || json_array_size(v) == 0)
            return refuse(s, "flags", "CLI-SWEEP-004", "\"flags\" must be a non-empty array of "
                          "flag lists such as [[], [\"--strip-hints\"]]");
        size_t i;
        json_t *set;
        json_array_foreach(v, i, set) {
            if (!json_is_array(set) || (json_array_size(set) && !is_string_list(set)))
                return refuse(s, "flags", "CLI-SWEEP-004", "\"flags\" must be a non-empty array "
                              "of flag lists such as [[], [\"--strip-hints\"]]");
            if (check_flag_list(set, why, sizeof why))
                return refuse(s, "flags", "CLI-SWEEP-008", why);
            for (size_t j = 0; j < i; j++)
                if (json_equal(set, json_array_get(v, j))) {
                    snprintf(why, sizeof why, "flags[%zu] repeats an earlier flag list", i);
                    return refuse(s, "flags", "CLI-SWEEP-004", why);
                }
        }
    }
    json_t *o = json_object_get(root, "options");
    if (o && !(json_is_array(o) && (json_array_size(o) == 0 || is_string_list(o))))
        return refuse(s, "options", "CLI-SWEEP-004", "\"options\" must be an array of run flags");
    if (o && check_flag_list(o, why, sizeof why))
        return refuse(s, "options", "CLI-SWEEP-008", why);
    *flags = v ? json_incref(v) : json_null();
    *options = o ? json_incref(o) : json_array();
    return 0;
}

/* The swept columns of the table, in grid order. */
static json_t *swept_columns(const json_t *parameters, const json_t *flags)
{
    json_t *columns = json_pack("[ss]", "launch_file", "gpu");
    const char *key;
    json_t *unused;
    json_object_foreach((json_t *)parameters, key, unused) {
        char name[256];
        snprintf(name, sizeof name, "config.%s", key);
        json_array_append_new(columns, json_string(name));
    }
    if (!json_is_null(flags))
        json_array_append_new(columns, json_string("flags"));
    return columns;
}

/* Checks "plots" against the swept columns: each {x, y, output[, title, log_x, log_y]}. */
static json_t *read_plots(const sweep_source *s, const json_t *root, const json_t *columns)
{
    json_t *v = json_object_get(root, "plots");
    if (!v)
        return json_array();
    if (!json_is_array(v))
        return fail(s, "plots", "CLI-SWEEP-004", "\"plots\" must be an array of plot objects");
    size_t i;
    json_t *plot;
    json_array_foreach(v, i, plot) {
        char why[512];
        const char *x = NULL, *y = NULL, *output = NULL, *title = NULL;
        int log_x = 0, log_y = 0;
        json_error_t error;
        if (json_unpack_ex(plot, &error, JSON_STRICT, "{s:s, s:s, s:s, s?:s, s?:b, s?:b}", "x",
                           &x, "y", &y, "output", &output, "title", &title, "log_x", &log_x,
                           "log_y", &log_y)) {
            snprintf(why, sizeof why, "plots[%zu]: %s (a plot is {\"x\", \"y\", \"output\", "
                     "optional \"title\", \"log_x\", \"log_y\"})", i, error.text);
            return fail(s, "plots", "CLI-SWEEP-009", why);
        }
        size_t n = strlen(output), c;
        json_t *e;
        int swept = 0, repeated = 0;
        json_array_foreach(columns, c, e) swept |= strcmp(json_string_value(e), x) == 0;
        for (size_t j = 0; j < i; j++) {
            const char *o = json_string_value(json_object_get(json_array_get(v, j), "output"));
            repeated |= strlen(o) == n && strncmp(o, output, n - 4) == 0;
        }
        if (strchr(output, '/') || n < 5 || output[0] == '.' ||
            (strcmp(output + n - 4, ".svg") && strcmp(output + n - 4, ".png")))
            snprintf(why, sizeof why, "plots[%zu]: output '%s' must be a file name ending in "
                     ".svg or .png (it is written in the sweep folder)", i, output);
        else if (repeated)
            snprintf(why, sizeof why, "plots[%zu]: output '%s' has the name of an earlier "
                     "plot's (they would share their .dat and .gp files)", i, output);
        else if (!swept) {
            char *list = json_dumps(columns, JSON_COMPACT);
            snprintf(why, sizeof why, "plots[%zu]: x '%s' is not a swept column (they are %s)",
                     i, x, list ? list : "?");
            free(list);
        } else {
            continue;
        }
        return fail(s, "plots", "CLI-SWEEP-009", why);
    }
    return json_incref(v);
}

/* The most runs one sweep may have: far more than a machine runs in a day, few enough that the
 * manifest stays a file of some megabytes. */
enum { MAX_RUNS = 100000 };

/* The grid: its axes, outermost first: launch files, gpus, each parameter, flag sets. */
typedef struct sweep_grid {
    json_t *launches, *given_launches, *gpus, *parameters, *flags, *options;
    size_t nparameters;
    size_t sizes[64]; /* of each axis */
    size_t naxes, total;
} sweep_grid;

/* Sets `value` (a new reference, stolen) at dotted `path` of `object`, making sections. */
static void set_path(json_t *object, const char *path, json_t *value)
{
    const char *dot = strchr(path, '.');
    if (!dot) {
        json_object_set_new(object, path, value);
        return;
    }
    char section[256];
    snprintf(section, sizeof section, "%.*s", (int)(dot - path), path);
    json_t *inner = json_object_get(object, section);
    if (!inner) {
        inner = json_object();
        json_object_set_new(object, section, inner);
    }
    set_path(inner, dot + 1, value);
}

/* Counts the axes and the runs; prints CLI-SWEEP-004 when the grid is too large. */
static int grid_size(const sweep_source *s, sweep_grid *g)
{
    g->naxes = 0;
    g->sizes[g->naxes++] = json_array_size(g->launches);
    g->sizes[g->naxes++] = json_is_null(g->gpus) ? 1 : json_array_size(g->gpus);
    g->nparameters = json_object_size(g->parameters);
    if (g->nparameters > 60)
        return refuse(s, "parameters", "CLI-SWEEP-007", "at most 60 parameters");
    const char *key;
    json_t *values;
    json_object_foreach(g->parameters, key, values) g->sizes[g->naxes++] = json_array_size(values);
    g->sizes[g->naxes++] = json_is_null(g->flags) ? 1 : json_array_size(g->flags);
    g->total = 1;
    for (size_t a = 0; a < g->naxes; a++) {
        if (g->total > MAX_RUNS / g->sizes[a]) {
            char why[128];
            snprintf(why, sizeof why, "the grid has more than %d runs", MAX_RUNS);
            return refuse(s, NULL, "CLI-SWEEP-004", why);
        }
        g->total *= g->sizes[a];
    }
    return 0;
}

/* The flag set of a run as one column value: its flags separated by spaces. */
static json_t *joined_flags(const json_t *set)
{
    char text[1024] = "";
    size_t i, used = 0;
    json_t *e;
    json_array_foreach(set, i, e) used += (size_t)snprintf(text + used, used < sizeof text ?
                                                           sizeof text - used : 0, "%s%s",
                                                           i ? " " : "", json_string_value(e));
    return json_string(text);
}

/* Run number `r` of the grid, as a manifest run object (see sweep_internal.h). */
static json_t *grid_run(const sweep_grid *g, size_t r)
{
    size_t choice[64];
    for (size_t a = g->naxes; a-- > 0;) {
        choice[a] = r % g->sizes[a];
        r /= g->sizes[a];
    }
    json_t *gpu = json_is_null(g->gpus) ? json_null() : json_array_get(g->gpus, choice[1]);
    json_t *values = json_object(), *config = json_null();
    json_object_set(values, "launch_file", json_array_get(g->given_launches, choice[0]));
    json_object_set(values, "gpu", gpu);
    if (g->nparameters) {
        config = json_pack("{sO}", "base", gpu);
        size_t a = 2;
        const char *key;
        json_t *list;
        json_object_foreach(g->parameters, key, list) {
            char name[256];
            json_t *value = json_array_get(list, choice[a++]);
            snprintf(name, sizeof name, "config.%s", key);
            json_object_set(values, name, value);
            set_path(config, key, json_incref(value));
        }
    }
    json_t *flags = json_is_null(g->flags) ? json_array()
                                           : json_incref(json_array_get(g->flags,
                                                                        choice[g->naxes - 1]));
    if (!json_is_null(g->flags))
        json_object_set_new(values, "flags", joined_flags(flags));
    return json_pack("{s:s, s:O, s:O, s:o, s:o, s:o}", "id", "", "launch",
                     json_array_get(g->launches, choice[0]), "gpu", gpu, "config", config,
                     "flags", flags, "values", values);
}

/* Builds a device from `config` to see whether the simulator accepts it; prints its
 * diagnostics and CLI-SWEEP-011 when not. */
static int check_config(const sweep_source *s, const json_t *run)
{
    const json_t *config = json_object_get(run, "config");
    if (json_is_null(config))
        return 0;
    char *text = json_dumps(config, JSON_COMPACT);
    char label[PATH_MAX + 64];
    snprintf(label, sizeof label, "%s (configuration of run %s)", s->path,
             json_string_value(json_object_get(run, "id")));
    gms_diag_list *dl = gms_diag_list_create();
    gms_device *dev = NULL;
    gms_status st = text && dl ? gms_device_create_from_config(label, text, strlen(text), &dev, dl)
                               : GMS_ERR_NOMEM;
    gms_device_destroy(dev);
    if (dl)
        gms_diag_list_print(dl, stderr);
    gms_diag_list_destroy(dl);
    if (st != GMS_OK) {
        char why[2048];
        snprintf(why, sizeof why, "run %s: the simulator refuses the configuration %s",
                 json_string_value(json_object_get(run, "id")), text ? text : "(out of memory)");
        fail(s, "parameters", "CLI-SWEEP-011", why);
    }
    free(text);
    return st == GMS_OK ? 0 : -1;
}

/* Expands the grid into the manifest's runs; checks each distinct configuration once (they
 * repeat for every launch file and flag set, which are the outermost and innermost axes). */
static json_t *expand(const sweep_source *s, sweep_grid *g)
{
    if (grid_size(s, g))
        return NULL;
    int width = g->total > 10000 ? 5 : 4; /* MAX_RUNS has 6 digits */
    if (g->total > 100000)
        width = 6;
    json_t *runs = json_array();
    size_t per_launch = g->total / g->sizes[0], per_flags = g->sizes[g->naxes - 1];
    for (size_t r = 0; r < g->total; r++) {
        json_t *run = grid_run(g, r);
        char id[32];
        snprintf(id, sizeof id, "%0*u", width, (unsigned)r);
        json_object_set_new(run, "id", json_string(id));
        json_array_append_new(runs, run);
        if (r < per_launch && r % per_flags == 0 && check_config(s, run)) {
            json_decref(runs);
            return NULL;
        }
    }
    return runs;
}

/* Reads the whole file at `path` (owned, NUL-terminated), or prints CLI-SWEEP-001. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0, cap = 0;
    if (f) {
        for (;;) {
            if (cap - len < 4096) {
                char *grown = realloc(text, cap = cap * 2 + 8192);
                if (!grown)
                    break;
                text = grown;
            }
            size_t n = fread(text + len, 1, cap - len - 1, f);
            len += n;
            if (n == 0)
                break;
        }
        if (ferror(f) || cap - len < 1) {
            free(text);
            text = NULL;
        }
        fclose(f);
    }
    if (!text) {
        sweep_error(path, 0, 0, "CLI-SWEEP-001", "cannot read the sweep file: %s",
                    strerror(errno ? errno : ENOMEM));
        return NULL;
    }
    text[len] = 0;
    return text;
}

/* Parses the text and checks its top-level keys; returns the object or NULL (printed). */
static json_t *parse(const sweep_source *s)
{
    json_error_t error;
    json_t *root = json_loads(s->text, JSON_REJECT_DUPLICATES, &error);
    if (!root) {
        sweep_error(s->path, (unsigned)error.line, (unsigned)error.column, "CLI-SWEEP-002", "%s",
                    error.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        return fail(s, NULL, "CLI-SWEEP-004", "a sweep file is one JSON object");
    }
    const char *key;
    json_t *unused;
    json_object_foreach(root, key, unused) {
        size_t k = 0, n = sizeof top_keys / sizeof top_keys[0];
        while (k < n && strcmp(top_keys[k], key))
            k++;
        if (k == n) {
            char why[512];
            snprintf(why, sizeof why, "unknown key \"%.200s\" (a sweep file has launch_files, "
                     "gpus, parameters, flags, options, columns, plots, description)", key);
            fail(s, key, "CLI-SWEEP-003", why);
            json_decref(root);
            return NULL;
        }
    }
    return root;
}

/* Reads every part of the sweep file into the grid and the manifest's other keys. */
static int read_parts(const sweep_source *s, const json_t *root, sweep_grid *g, json_t *manifest)
{
    json_t *v = json_object_get(root, "description");
    if (v && !json_is_string(v))
        return refuse(s, "description", "CLI-SWEEP-004", "\"description\" must be a string");
    v = json_object_get(root, "columns");
    if (v && !is_string_list(v))
        return refuse(s, "columns", "CLI-SWEEP-004", "\"columns\" must be a non-empty array of "
                      "column names or prefixes ending in '.'");
    json_object_set_new(manifest, "counters", v ? json_incref(v) : json_null());
    g->given_launches = json_object_get(root, "launch_files");
    if (!(g->launches = read_launch_files(s, root)) || !(g->gpus = read_gpus(s, root)) ||
        !(g->parameters = read_parameters(s, root, g->gpus)) ||
        read_flags(s, root, &g->flags, &g->options))
        return -1;
    json_t *columns = swept_columns(g->parameters, g->flags);
    json_object_set_new(manifest, "columns", columns);
    json_object_set(manifest, "options", g->options);
    json_t *plots = read_plots(s, root, columns);
    if (!plots)
        return -1;
    json_object_set_new(manifest, "plots", plots);
    return 0;
}

json_t *sweep_file_expand(const char *path)
{
    sweep_source s = {.path = path};
    char absolute[PATH_MAX];
    if (!realpath(path, absolute)) {
        sweep_error(path, 0, 0, "CLI-SWEEP-001", "cannot read the sweep file: %s",
                    strerror(errno));
        return NULL;
    }
    snprintf(s.folder, sizeof s.folder, "%.*s", (int)(strrchr(absolute, '/') - absolute),
             absolute);
    char *text = read_text(path);
    if (!text)
        return NULL;
    s.text = text;
    json_t *root = parse(&s), *manifest = NULL, *runs = NULL;
    sweep_grid g = {0};
    if (root) {
        manifest = json_pack("{s:s, s:s}", "schema", "gpumemsim-sweep/1", "sweep_file", absolute);
        if (read_parts(&s, root, &g, manifest) == 0)
            runs = expand(&s, &g);
    }
    if (runs) {
        json_object_set_new(manifest, "runs", runs);
    } else {
        json_decref(manifest);
        manifest = NULL;
    }
    json_decref(g.launches);
    json_decref(g.gpus);
    json_decref(g.parameters);
    json_decref(g.flags);
    json_decref(g.options);
    json_decref(root);
    free(text);
    return manifest;
}

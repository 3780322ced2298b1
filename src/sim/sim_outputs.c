/* A run's outputs (sim_internal.h): checked before the run, written all-or-nothing after it.
 *
 * Files are compared as the system sees them (device and inode), not by their spelling, so that
 * "./run.json", a symbolic link or a hard link to the launch file are all recognised as the
 * launch file. An output that does not exist yet is identified by its folder (device and inode)
 * and its name. */
#include "sim/sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"

/* An input of the run, by identity. */
typedef struct input_file {
    const char *what;   /* "the launch file", "the init file of buffer" ... */
    const char *buffer; /* the buffer's name for init and expectation files; NULL otherwise */
    const char *path;
    dev_t dev;
    ino_t ino;
} input_file;

/* An output of the run and where a diagnostic about it points. */
typedef struct output_file {
    const char *path;
    const char *blame_file; /* the launch file, or "gpumemsim" for a command-line flag */
    unsigned line, col;
    char field[96]; /* "outputs.y" or "--json" */
    int exists;     /* the path names an existing file: dev, ino, mode are valid */
    dev_t dev;
    ino_t ino;
    unsigned mode;
    int dir_known;  /* its folder could be looked at: dir_dev, dir_ino are valid */
    dev_t dir_dev;
    ino_t dir_ino;
    const char *name; /* the last path component */
} output_file;

static void add_input(input_file *in, size_t *n, const char *what, const char *buffer,
                      const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return; /* a file that does not exist cannot be overwritten; its reader reports it */
    in[(*n)++] = (input_file){what, buffer, path, st.st_dev, st.st_ino};
}

/* Every file the run reads. Returns the array (malloc'd; the caller frees it) or NULL. */
static input_file *collect_inputs(const launch_desc *L, const char *config_path, size_t *n)
{
    input_file *in = malloc((4 + L->nbuffers + L->nexpects) * sizeof *in);
    *n = 0;
    if (!in)
        return NULL;
    add_input(in, n, "the launch file", NULL, L->path);
    add_input(in, n, "the module", NULL, L->module_path);
    add_input(in, n, "the GPU configuration file", NULL, L->config_path);
    add_input(in, n, "the GPU configuration file", NULL, config_path);
    for (size_t b = 0; b < L->nbuffers; b++)
        if (L->buffers[b].init.kind == LAUNCH_INIT_FILE)
            add_input(in, n, "the init file of buffer", L->buffers[b].name,
                      L->buffers[b].init.path);
    for (size_t e = 0; e < L->nexpects; e++)
        if (L->expects[e].from_file)
            add_input(in, n, "the expectation file of buffer",
                      L->buffers[L->expects[e].buffer].name, L->expects[e].path);
    return in;
}

/* Fills the identity of o->path: the file's own when it exists, its folder's and name always. */
static void identify(output_file *o)
{
    struct stat st;
    if (stat(o->path, &st) == 0) {
        o->exists = 1;
        o->dev = st.st_dev;
        o->ino = st.st_ino;
        o->mode = (unsigned)st.st_mode;
    }
    const char *slash = strrchr(o->path, '/');
    o->name = slash ? slash + 1 : o->path;
    size_t dir_len = !slash ? 1 : slash == o->path ? 1 : (size_t)(slash - o->path);
    char *dir = malloc(dir_len + 1);
    if (!dir)
        return;
    memcpy(dir, slash ? o->path : ".", dir_len);
    dir[dir_len] = '\0';
    if (stat(dir, &st) == 0) {
        o->dir_known = 1;
        o->dir_dev = st.st_dev;
        o->dir_ino = st.st_ino;
    }
    free(dir);
}

static int same_output(const output_file *a, const output_file *b)
{
    if (a->exists && b->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return a->dir_known && b->dir_known && a->dir_dev == b->dir_dev && a->dir_ino == b->dir_ino &&
           strcmp(a->name, b->name) == 0;
}

/* Checks output i against the inputs and the outputs before it; reports and returns -1. */
static int check_one(const output_file *out, size_t i, const input_file *in, size_t nin,
                     diag_list *dl)
{
    const output_file *o = &out[i];
    if (o->exists && !S_ISREG(o->mode)) {
        file_error e = {.status = FILE_ERR_NOT_REGULAR, .mode = o->mode};
        char why[96];
        diag_add(dl, DIAG_ERROR, "SIM-OUT-003", o->blame_file, o->line, o->col,
                 "%s: \"%s\" exists and is %s", o->field, o->path,
                 file_error_text(&e, why, sizeof why));
        return -1;
    }
    for (size_t k = 0; o->exists && k < nin; k++) {
        if (in[k].dev != o->dev || in[k].ino != o->ino)
            continue;
        diag_add(dl, DIAG_ERROR, "SIM-OUT-001", o->blame_file, o->line, o->col,
                 "%s: \"%s\" is the same file as %s%s%s \"%s\"; an output never replaces an "
                 "input", o->field, o->path, in[k].what, in[k].buffer ? " " : "",
                 in[k].buffer ? in[k].buffer : "", in[k].path);
        return -1;
    }
    for (size_t k = 0; k < i; k++) {
        if (!same_output(&out[k], o))
            continue;
        diag_add(dl, DIAG_ERROR, "SIM-OUT-002", o->blame_file, o->line, o->col,
                 "%s: \"%s\" is the same file as %s \"%s\"", o->field, o->path, out[k].field,
                 out[k].path);
        return -1;
    }
    file_error e;
    if (file_probe_output(o->path, &e) != 0) {
        char why[160];
        diag_add(dl, DIAG_ERROR, "SIM-OUT-003", o->blame_file, o->line, o->col,
                 "%s: cannot create a file beside \"%s\": %s", o->field, o->path,
                 file_error_text(&e, why, sizeof why));
        return -1;
    }
    return 0;
}

int sim_outputs_check(const launch_desc *L, const char *config_path, const char *json_path,
                      diag_list *dl)
{
    size_t nout = L->noutputs + (json_path != NULL), nin;
    if (nout == 0)
        return 0;
    input_file *in = collect_inputs(L, config_path, &nin);
    output_file *out = calloc(nout, sizeof *out);
    if (!in || !out) {
        free(in);
        free(out);
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", L->path, 0, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < L->noutputs; i++) {
        output_file *o = &out[i];
        o->path = L->outputs[i].path;
        o->blame_file = L->path;
        o->line = L->outputs[i].line;
        o->col = L->outputs[i].col;
        snprintf(o->field, sizeof o->field, "outputs.%s", L->buffers[L->outputs[i].buffer].name);
    }
    if (json_path) {
        output_file *o = &out[nout - 1];
        o->path = json_path;
        o->blame_file = "gpumemsim";
        snprintf(o->field, sizeof o->field, "--json");
    }
    int rc = 0;
    for (size_t i = 0; i < nout; i++) {
        identify(&out[i]);
        rc |= check_one(out, i, in, nin, dl);
    }
    free(in);
    free(out);
    return rc;
}

int sim_outputs_write(const launch_desc *L, const launch_buffer_reader *reader,
                      const char *json_path, const char *json_text, diag_list *dl)
{
    file_group g;
    file_group_init(&g);
    int rc = launch_stage_outputs_from(L, reader, &g, dl);
    file_error e;
    char why[160];
    if (json_path && file_group_add(&g, json_path, json_text, strlen(json_text), &e) != 0) {
        diag_add(dl, DIAG_ERROR, "SIM-OUT-004", "gpumemsim", 0, 0,
                 "--json: cannot write \"%s\": %s", json_path,
                 file_error_text(&e, why, sizeof why));
        rc = -1;
    }
    size_t failed;
    if (rc == 0 && file_group_commit(&g, &failed, &e) != 0) {
        diag_add(dl, DIAG_ERROR, "SIM-OUT-004", L->path, 0, 0,
                 "cannot rename a temporary file onto \"%s\": %s; the outputs listed before it "
                 "were written, the others were not", g.items[failed].path,
                 file_error_text(&e, why, sizeof why));
        rc = -1;
    }
    file_group_fini(&g);
    return rc;
}

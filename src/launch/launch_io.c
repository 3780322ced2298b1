/* Launch-file input and output: reading the launch file, creating a buffer's initial contents,
 * writing output files atomically, and comparing buffers with expectations
 * (docs/launch-files.md, "Initial contents", "Outputs", "Expectations").
 *
 * This file touches the file system; launch_parse.c only checks that files exist with the right
 * size. Nothing here prints: results go to caller storage and problems to the diag_list. */
#include "launch/launch_internal.h"
#include "base/file.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_BYTES = 1 << 16 }; /* a multiple of every element size */

launch_desc *launch_load_limits(const char *path, const launch_limits *limits, diag_list *dl)
{
    launch_limits lim = limits ? *limits : launch_limits_default();
    file_error e;
    size_t len;
    char *text = file_read_all(path, lim.max_file_bytes, &len, &e);
    if (!text) {
        char why[160];
        file_error_text(&e, why, sizeof why);
        if (e.status == FILE_ERR_TOO_LARGE || e.status == FILE_ERR_NOT_REGULAR)
            diag_add(dl, DIAG_ERROR, "LAUNCH-IO-001", path, 0, 0, "the launch file is %s", why);
        else
            diag_add(dl, DIAG_ERROR, "LAUNCH-IO-001", path, 0, 0, "cannot %s the launch file: %s",
                     e.status == FILE_ERR_OPEN ? "open" : "read", why);
        return NULL;
    }
    launch_desc *d = launch_load_text_limits(path, text, len, &lim, dl);
    free(text);
    return d;
}

launch_desc *launch_load(const char *path, diag_list *dl)
{
    return launch_load_limits(path, NULL, dl);
}

/* ---- initial contents ---- */

/* Opens the data file `path` (an init or expectation file) as a regular file; the launch file's
 * buffers are at most 1 GiB in all, so no file larger than that is accepted. Returns NULL after
 * LAUNCH-FILE-001. */
static FILE *open_data_file(const launch_desc *d, const char *field, const char *path,
                            diag_list *dl)
{
    file_error e;
    FILE *f = file_open_input(path, UINT64_MAX, NULL, &e);
    if (!f) {
        char why[160];
        diag_add(dl, DIAG_ERROR, "LAUNCH-FILE-001", d->path, 0, 0, "%s: cannot open \"%s\": %s",
                 field, path, file_error_text(&e, why, sizeof why));
    }
    return f;
}

/* LAUNCH-FILE-002: the init file's size differs from count x element size. */
static int size_error(const launch_init_stream *s, int extra, diag_list *dl)
{
    const launch_buffer *b = &s->desc->buffers[s->buffer];
    diag_add(dl, DIAG_ERROR, "LAUNCH-FILE-002", s->desc->path, 0, 0,
             "%s: \"%s\" has %s bytes than the %" PRIu64 " expected (count x element size)",
             s->field, b->init.path, extra ? "more" : "fewer", b->bytes);
    return -1;
}

int launch_init_begin(const launch_desc *d, size_t buffer_index, launch_init_stream *s,
                      diag_list *dl)
{
    memset(s, 0, sizeof *s);
    if (buffer_index >= d->nbuffers) {
        diag_add(dl, DIAG_ERROR, "LAUNCH-IO-001", d->path, 0, 0,
                 "buffer index %zu is out of range (%zu buffers)", buffer_index, d->nbuffers);
        return -1;
    }
    s->desc = d;
    s->buffer = buffer_index;
    const launch_buffer *b = &d->buffers[buffer_index];
    if (b->init.kind != LAUNCH_INIT_FILE)
        return 0;
    snprintf(s->field, sizeof s->field, "buffers.%s.init.file", b->name);
    s->file = open_data_file(d, s->field, b->init.path, dl);
    return s->file ? 0 : -1;
}

int launch_init_next(launch_init_stream *s, uint8_t *dst, uint64_t bytes, diag_list *dl)
{
    const launch_buffer *b = &s->desc->buffers[s->buffer];
    if (!s->file) {
        size_t elem = launch_elem_bytes(b->type);
        if (b->init.kind == LAUNCH_INIT_ZERO || elem == 0)
            memset(dst, 0, (size_t)bytes);
        else
            launch_generate_range(b, s->done_bytes / elem, bytes / elem, dst);
        s->done_bytes += bytes;
        return 0;
    }
    uint64_t got = 0;
    while (got < bytes) {
        size_t want = bytes - got > CHUNK_BYTES ? CHUNK_BYTES : (size_t)(bytes - got);
        size_t n = fread(dst + got, 1, want, s->file);
        got += n;
        if (n < want)
            break;
    }
    s->done_bytes += got;
    if (ferror((FILE *)s->file)) {
        diag_add(dl, DIAG_ERROR, "LAUNCH-FILE-001", s->desc->path, 0, 0,
                 "%s: cannot read \"%s\"", s->field, b->init.path);
        return -1;
    }
    return got == bytes ? 0 : size_error(s, 0, dl);
}

int launch_init_end(launch_init_stream *s, diag_list *dl)
{
    if (!s->file)
        return 0;
    const launch_buffer *b = &s->desc->buffers[s->buffer];
    int extra = 0, failed = 0;
    if (s->done_bytes == b->bytes) { /* a short file was reported by launch_init_next */
        extra = fgetc(s->file) != EOF;
        failed = ferror((FILE *)s->file);
    }
    fclose(s->file);
    s->file = NULL;
    if (failed) {
        diag_add(dl, DIAG_ERROR, "LAUNCH-FILE-001", s->desc->path, 0, 0,
                 "%s: cannot read \"%s\"", s->field, b->init.path);
        return -1;
    }
    return extra ? size_error(s, 1, dl) : 0;
}

int launch_init_buffer(const launch_desc *d, size_t buffer_index, uint8_t *dst, diag_list *dl)
{
    launch_init_stream s;
    if (launch_init_begin(d, buffer_index, &s, dl) != 0)
        return -1;
    const launch_buffer *b = &d->buffers[buffer_index];
    if (!s.file) {
        launch_generate(b, dst);
        return 0;
    }
    int rc = launch_init_next(&s, dst, b->bytes, dl);
    return launch_init_end(&s, dl) != 0 || rc != 0 ? -1 : 0;
}

/* ---- reading buffers back ---- */

/* The reader of launch_stage_outputs and launch_check_expectations: whole buffers in memory. */
static int memory_read(void *ctx, size_t buffer, uint64_t offset, uint64_t bytes, uint8_t *out)
{
    const uint8_t *const *data = ctx;
    memcpy(out, data[buffer] + offset, (size_t)bytes);
    return 0;
}

/* ---- outputs ---- */

typedef struct output_source {
    const launch_buffer_reader *reader;
    size_t buffer;
} output_source;

static int output_read(void *ctx, uint64_t offset, size_t bytes, void *out)
{
    const output_source *s = ctx;
    return s->reader->read(s->reader->ctx, s->buffer, offset, bytes, out) ? EIO : 0;
}

/* Stages output i from the reader, or reports why not (LAUNCH-IO-002) and returns -1. A NULL
 * reader means the caller gave no contents for the buffer. */
static int stage_output(const launch_desc *d, size_t i, const launch_buffer_reader *reader,
                        file_group *g, diag_list *dl)
{
    const launch_output *o = &d->outputs[i];
    const launch_buffer *b = &d->buffers[o->buffer];
    char why[256];
    file_error e;
    output_source src = {reader, o->buffer};
    if (!reader)
        snprintf(why, sizeof why, "no contents were given for the buffer");
    else if (file_group_add_from(g, o->path, b->bytes, output_read, &src, &e) == 0)
        return 0;
    else
        file_error_text(&e, why, sizeof why);
    diag_add(dl, DIAG_ERROR, "LAUNCH-IO-002", d->path, o->line, o->col,
             "outputs.%s: cannot write \"%s\": %s", b->name, o->path, why);
    return -1;
}

int launch_stage_outputs_from(const launch_desc *d, const launch_buffer_reader *reader,
                              file_group *g, diag_list *dl)
{
    int rc = 0;
    for (size_t i = 0; i < d->noutputs; i++)
        rc |= stage_output(d, i, reader, g, dl);
    return rc;
}

int launch_stage_outputs(const launch_desc *d, const uint8_t *const *buffer_data, file_group *g,
                         diag_list *dl)
{
    launch_buffer_reader memory = {memory_read, (void *)buffer_data};
    int rc = 0;
    for (size_t i = 0; i < d->noutputs; i++) {
        int given = buffer_data && buffer_data[d->outputs[i].buffer];
        rc |= stage_output(d, i, given ? &memory : NULL, g, dl);
    }
    return rc;
}

int launch_write_outputs(const launch_desc *d, const uint8_t *const *buffer_data, diag_list *dl)
{
    file_group g;
    file_group_init(&g);
    int rc = launch_stage_outputs(d, buffer_data, &g, dl);
    size_t failed;
    file_error e;
    if (rc == 0 && file_group_commit(&g, &failed, &e) != 0) {
        char why[256];
        diag_add(dl, DIAG_ERROR, "LAUNCH-IO-002", d->path, 0, 0, "cannot rename a temporary file "
                 "onto \"%s\": %s", g.items[failed].path, file_error_text(&e, why, sizeof why));
        rc = -1;
    }
    file_group_fini(&g);
    return rc;
}

/* ---- expectations ---- */

static int elements_match(launch_elem t, const launch_expect *e, uint64_t got, uint64_t exp)
{
    if (launch_elem_is_float(t)) {
        double g = launch_float_value(t, got), x = launch_float_value(t, exp);
        if (isnan(g) || isnan(x))
            return isnan(g) && isnan(x);
        if (g == x) /* also covers equal infinities, where g - x is NaN */
            return 1;
        if (isinf(g) || isinf(x)) /* no finite tolerance reaches an infinity */
            return 0;
        return fabs(g - x) <= e->atol + e->rtol * fabs(x);
    }
    uint64_t a = launch_int_value(t, got), b = launch_int_value(t, exp);
    if (a == b)
        return 1;
    /* The tolerance in double as numpy's allclose computes it; the distance exact, without
     * overflow: it is below 2^64 for any two 64-bit values. A distance d (an integer) is within
     * a tolerance t when d <= floor(t). */
    double magnitude = launch_elem_is_signed(t) ? fabs((double)(int64_t)b) : (double)b;
    double tolerance = e->atol + e->rtol * magnitude;
    uint64_t distance = launch_int_compare(t, a, b) > 0 ? a - b : b - a;
    if (tolerance >= 0x1.0p64)
        return 1;
    return distance <= (uint64_t)tolerance;
}

/* Compares `count` elements starting at element `first`: got[0] and `expected` hold element
 * `first` (`expected` holds one element, repeated, when `repeat` is set). */
static void compare_elements(const launch_buffer *b, const launch_expect *e, const uint8_t *got,
                             const uint8_t *expected, int repeat, uint64_t first, uint64_t count,
                             launch_expect_result *r)
{
    size_t bytes = launch_elem_bytes(b->type);
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *g = got + i * bytes, *x = expected + (repeat ? 0 : i * bytes);
        if (elements_match(b->type, e, launch_load_bits(g, bytes), launch_load_bits(x, bytes)))
            continue;
        if (r->shown < LAUNCH_MISMATCHES_SHOWN) {
            launch_mismatch *m = &r->first[r->shown++];
            m->index = first + i;
            launch_format_element(b->type, g, m->got, sizeof m->got);
            launch_format_element(b->type, x, m->expected, sizeof m->expected);
        }
        r->mismatches++;
    }
}

/* Reads bytes [done, done + want) of expectation e's buffer into got; -1 after LAUNCH-IO-001. */
static int read_got(const launch_desc *d, const launch_expect *e,
                    const launch_buffer_reader *reader, uint64_t done, size_t want, uint8_t *got,
                    diag_list *dl)
{
    if (reader->read(reader->ctx, e->buffer, done, want, got) == 0)
        return 0;
    diag_add(dl, DIAG_ERROR, "LAUNCH-IO-001", d->path, 0, 0,
             "expect.%s: cannot read the buffer back", d->buffers[e->buffer].name);
    return -1;
}

/* Compares the buffer with the expectation's file, a chunk of each at a time. `chunks` holds
 * 2 x CHUNK_BYTES. */
static int compare_with_file(const launch_desc *d, const launch_expect *e,
                             const launch_buffer_reader *reader, uint8_t *chunks,
                             launch_expect_result *r, diag_list *dl)
{
    const launch_buffer *b = &d->buffers[e->buffer];
    char field[128];
    snprintf(field, sizeof field, "expect.%s.file", b->name);
    FILE *f = open_data_file(d, field, e->path, dl);
    if (!f)
        return -1;
    uint8_t *expected = chunks, *got = chunks + CHUNK_BYTES;
    size_t elem = launch_elem_bytes(b->type);
    uint64_t done = 0;
    int rc = 0, short_file = 0;
    while (done < b->bytes && rc == 0) {
        size_t want = b->bytes - done > CHUNK_BYTES ? CHUNK_BYTES : (size_t)(b->bytes - done);
        if (fread(expected, 1, want, f) != want)
            rc = short_file = -1;
        else if ((rc = read_got(d, e, reader, done, want, got, dl)) == 0)
            compare_elements(b, e, got, expected, 0, done / elem, want / elem, r);
        done += want;
    }
    if (rc == 0 && fgetc(f) != EOF)
        rc = short_file = -1;
    fclose(f);
    if (short_file)
        diag_add(dl, DIAG_ERROR, "LAUNCH-FILE-002", d->path, 0, 0,
                 "%s: \"%s\" is no longer %" PRIu64 " bytes", field, e->path, b->bytes);
    return rc;
}

/* Checks expectation i into *r; returns 0, or -1 with a diagnostic. */
static int check_expectation(const launch_desc *d, size_t i, const launch_buffer_reader *reader,
                             uint8_t *chunks, launch_expect_result *r, diag_list *dl)
{
    const launch_expect *e = &d->expects[i];
    const launch_buffer *b = &d->buffers[e->buffer];
    if (e->from_file)
        return compare_with_file(d, e, reader, chunks, r, dl);
    uint8_t fill[8];
    size_t elem = launch_elem_bytes(b->type);
    launch_store_bits(fill, elem, e->fill_bits);
    for (uint64_t done = 0; done < b->bytes; done += CHUNK_BYTES) {
        size_t want = b->bytes - done > CHUNK_BYTES ? CHUNK_BYTES : (size_t)(b->bytes - done);
        if (read_got(d, e, reader, done, want, chunks, dl))
            return -1;
        compare_elements(b, e, chunks, fill, 1, done / elem, want / elem, r);
    }
    return 0;
}

/* The loop of both forms of launch_check_expectations; `given` (NULL: all) says which buffers
 * have contents. */
static int check_all(const launch_desc *d, const launch_buffer_reader *reader,
                     const uint8_t *const *given, int check_given, launch_expect_result *results,
                     diag_list *dl)
{
    uint8_t *chunks = d->nexpects ? malloc(2 * CHUNK_BYTES) : NULL;
    if (d->nexpects && !chunks) {
        diag_add(dl, DIAG_ERROR, "LAUNCH-IO-001", d->path, 0, 0, "out of memory");
        return -1;
    }
    int failed = 0;
    for (size_t i = 0; i < d->nexpects && failed >= 0; i++) {
        const launch_expect *e = &d->expects[i];
        const launch_buffer *b = &d->buffers[e->buffer];
        launch_expect_result *r = &results[i];
        memset(r, 0, sizeof *r);
        r->buffer_name = b->name;
        r->elements = b->count;
        if (check_given && !(given && given[e->buffer])) {
            diag_add(dl, DIAG_ERROR, "LAUNCH-IO-001", d->path, 0, 0,
                     "expect.%s: no contents were given for the buffer", b->name);
            failed = -1;
        } else if (check_expectation(d, i, reader, chunks, r, dl) != 0) {
            failed = -1;
        } else {
            failed += r->mismatches != 0;
        }
    }
    free(chunks);
    return failed;
}

int launch_check_expectations(const launch_desc *d, const uint8_t *const *buffer_data,
                              launch_expect_result *results, diag_list *dl)
{
    launch_buffer_reader memory = {memory_read, (void *)buffer_data};
    return check_all(d, &memory, buffer_data, 1, results, dl);
}

int launch_check_expectations_from(const launch_desc *d, const launch_buffer_reader *reader,
                                   launch_expect_result *results, diag_list *dl)
{
    return check_all(d, reader, NULL, 0, results, dl);
}

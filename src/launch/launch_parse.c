/* Launch-file parsing and validation: JSON text -> launch_desc (docs/launch-files.md).
 *
 * jansson does the JSON syntax (duplicate keys rejected); this file walks the document against the
 * launch-file schema, reporting every problem it can find with the field's path, and resolves
 * relative paths against the launch file's folder. It checks that init and expectation files
 * exist with the right size but reads none of them (launch_io.c does), and it knows nothing of
 * kernels' parameter lists or GPU presets. */
#include "launch/launch_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* CUDA's limits on launch dimensions (compute capability 5.0 and later). */
static const uint32_t grid_limit[3] = {2147483647u, 65535u, 65535u};
static const uint32_t block_limit[3] = {1024u, 1024u, 64u};
enum { MAX_THREADS_PER_BLOCK = 1024, MAX_NAME_CHARS = 64 };

/* ---- small helpers ---- */

static void out_of_memory(launch_ctx *c)
{
    diag_add(c->dl, DIAG_ERROR, "LAUNCH-IO-001", c->file, 0, 0, "out of memory");
    c->errors++;
}

static char *copy_string(launch_ctx *c, const char *s)
{
    char *p = arena_strndup(&c->desc->arena, s, strlen(s));
    if (!p)
        out_of_memory(c);
    return p;
}

/* Reports every key of `obj` not in the NULL-terminated `allowed`; returns how many. */
static int check_keys(launch_ctx *c, const launch_path *p, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *value;
    int unknown = 0;
    json_object_foreach(obj, key, value) {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], key) != 0)
            i++;
        if (!allowed[i]) {
            launch_path kp = launch_path_key(p, key);
            launch_error(c, "LAUNCH-KEY-001", &kp, 1, "unknown key \"%s\"", key);
            unknown++;
        }
    }
    return unknown;
}

static int want_object(launch_ctx *c, const launch_path *p, json_t *v)
{
    if (json_is_object(v))
        return 0;
    launch_error(c, "LAUNCH-TYPE-001", p, 0, "expected an object");
    return -1;
}

static int missing(launch_ctx *c, const launch_path *p, const char *key)
{
    launch_path kp = launch_path_key(p, key);
    launch_error(c, "LAUNCH-KEY-002", &kp, 0, "required key \"%s\" is missing", key);
    return -1;
}

/* Reads obj.key as a non-empty string. Returns 1 when present and valid, 0 when absent (an error
 * if required), -1 on error. */
static int get_string(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                      int required, const char **out)
{
    json_t *v = json_object_get(obj, key);
    launch_path kp = launch_path_key(p, key);
    if (!v)
        return required ? missing(c, p, key) : 0;
    if (!json_is_string(v)) {
        launch_error(c, "LAUNCH-TYPE-001", &kp, 0, "expected a string");
        return -1;
    }
    if (json_string_length(v) == 0) {
        launch_error(c, "LAUNCH-STR-001", &kp, 0, "must not be empty");
        return -1;
    }
    *out = json_string_value(v);
    return 1;
}

/* Reads obj.key as a JSON integer in [lo, hi]. Returns as get_string. */
static int get_uint(launch_ctx *c, const launch_path *p, json_t *obj, const char *key, int required,
                    uint64_t lo, uint64_t hi, uint64_t *out)
{
    json_t *v = json_object_get(obj, key);
    launch_path kp = launch_path_key(p, key);
    if (!v)
        return required ? missing(c, p, key) : 0;
    if (!json_is_integer(v)) {
        launch_error(c, "LAUNCH-TYPE-001", &kp, 0, "expected an integer");
        return -1;
    }
    json_int_t i = json_integer_value(v);
    if (i < 0 || (uint64_t)i < lo || (uint64_t)i > hi) {
        launch_error(c, "LAUNCH-RANGE-001", &kp, 0,
                     "%" PRId64 " is outside the allowed range %" PRIu64 "..%" PRIu64, (int64_t)i,
                     lo, hi);
        return -1;
    }
    *out = (uint64_t)i;
    return 1;
}

/* Resolves `rel` against the launch file's folder; an absolute path is kept as it is. */
static const char *resolve_path(launch_ctx *c, const char *rel)
{
    const char *slash = strrchr(c->file, '/');
    size_t prefix = rel[0] == '/' || !slash ? 0 : (size_t)(slash - c->file) + 1;
    size_t n = strlen(rel);
    char *out = arena_alloc(&c->desc->arena, prefix + n + 1);
    if (!out) {
        out_of_memory(c);
        return NULL;
    }
    memcpy(out, c->file, prefix);
    memcpy(out + prefix, rel, n + 1);
    return out;
}

/* Reads obj.key as a path, resolves it, and when `bytes` is non-zero checks that it is a regular
 * file of exactly that size. Returns the resolved path, or NULL (absent or error). */
static const char *get_file(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                            uint64_t bytes)
{
    const char *rel;
    if (get_string(c, p, obj, key, 0, &rel) <= 0)
        return NULL;
    const char *path = resolve_path(c, rel);
    if (!path || !bytes)
        return path;
    launch_path kp = launch_path_key(p, key);
    struct stat st;
    if (stat(path, &st) != 0) {
        launch_error(c, "LAUNCH-FILE-001", &kp, 0, "cannot open \"%s\": %s", path,
                     strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        launch_error(c, "LAUNCH-FILE-001", &kp, 0, "\"%s\" is not a regular file", path);
        return NULL;
    }
    if ((uint64_t)st.st_size != bytes) {
        launch_error(c, "LAUNCH-FILE-002", &kp, 0,
                     "\"%s\" has %" PRIu64 " bytes; expected %" PRIu64 " (count x element size)",
                     path, (uint64_t)st.st_size, bytes);
        return NULL;
    }
    return path;
}

/* Sets *line and *col to the position of the value of key `key` of the object at `p` (0 when it
 * cannot be found), for the sim's diagnostics about that field. */
static void locate_value(launch_ctx *c, const launch_path *p, const char *key, unsigned *line,
                         unsigned *col)
{
    launch_path kp = launch_path_key(p, key);
    size_t value_offset, key_offset;
    *line = *col = 0;
    if (launch_locate(c->text, c->len, &kp, &value_offset, &key_offset) == 0)
        launch_line_col(c->text, c->len, value_offset, line, col);
}

/* Looks up obj.key as the name of a declared buffer. Returns its index, or -1 (reported). */
static long get_buffer_ref(launch_ctx *c, const launch_path *p, json_t *obj, const char *key)
{
    const char *name = NULL; /* GCC with profiles cannot see that get_string sets it */
    if (get_string(c, p, obj, key, 1, &name) <= 0)
        return -1;
    long index = launch_find_buffer(c->desc, name);
    if (index < 0) {
        launch_path kp = launch_path_key(p, key);
        launch_error(c, "LAUNCH-REF-001", &kp, 0, "no buffer named \"%s\" is declared", name);
    }
    return index;
}

long launch_buffer_ref(launch_ctx *c, const launch_path *p, json_t *obj, const char *key)
{
    return get_buffer_ref(c, p, obj, key);
}

/* ---- initial contents ---- */

static int parse_iota_step(launch_ctx *c, const launch_path *p, json_t *v, launch_elem t,
                           launch_number *out)
{
    if (launch_elem_is_float(t) && json_is_number(v)) {
        out->real = json_number_value(v);
        return 0;
    }
    if (!launch_elem_is_float(t) && json_is_integer(v)) {
        out->integer = (uint64_t)json_integer_value(v);
        return 0;
    }
    if (json_is_real(v)) {
        launch_error(c, "LAUNCH-VALUE-002", p, 0, "the step of an integer iota must be a JSON "
                     "integer");
        return -1;
    }
    launch_error(c, "LAUNCH-TYPE-001", p, 0, "expected a number");
    return -1;
}

/* Checks that start + i*step stays representable for i in 0..count-1; a linear sequence does
 * when its first and last elements do. */
static int iota_in_range(const launch_buffer *b)
{
    const launch_init *in = &b->init;
    uint64_t steps = b->count - 1;
    if (launch_elem_is_float(b->type)) {
        double offset = (double)steps * in->iota_step.real; /* as launch_generate computes it */
        double last = in->iota_start.real + offset;
        return isfinite(in->iota_start.real) && isfinite(last) &&
               !launch_float_overflows(b->type, last);
    }
    /* Measure from the type's smallest value so every position is an unsigned offset. */
    uint64_t lo, span;
    launch_int_range(b->type, &lo, &span);
    uint64_t offset = in->iota_start.integer - lo, step = in->iota_step.integer;
    int negative = (int64_t)step < 0;
    uint64_t magnitude = negative ? (uint64_t)0 - step : step;
    if (steps && magnitude > UINT64_MAX / steps)
        return 0;
    uint64_t distance = steps * magnitude;
    return negative ? distance <= offset : distance <= span - offset;
}

static int parse_iota(launch_ctx *c, const launch_path *p, json_t *v, launch_buffer *b)
{
    static const char *const keys[] = {"start", "step", NULL};
    if (want_object(c, p, v) != 0 || check_keys(c, p, v, keys) != 0)
        return -1;
    json_t *start = json_object_get(v, "start"), *step = json_object_get(v, "step");
    int bad = 0;
    if (!start)
        bad |= missing(c, p, "start");
    if (!step)
        bad |= missing(c, p, "step");
    launch_path sp = launch_path_key(p, "start"), tp = launch_path_key(p, "step");
    if (start)
        bad |= launch_parse_number(c, &sp, start, b->type, &b->init.iota_start);
    if (step)
        bad |= parse_iota_step(c, &tp, step, b->type, &b->init.iota_step);
    if (bad)
        return -1;
    if (!iota_in_range(b)) {
        launch_error(c, "LAUNCH-INIT-002", p, 0,
                     "the sequence start + i*step for i < %" PRIu64 " leaves the range of %s",
                     b->count, launch_elem_name(b->type));
        return -1;
    }
    return 0;
}

static int check_random_range(launch_ctx *c, const launch_path *p, launch_buffer *b)
{
    const launch_init *in = &b->init;
    if (launch_elem_is_float(b->type)) {
        double lo = in->random_min.real, hi = in->random_max.real;
        if (!(lo <= hi)) {
            launch_error(c, "LAUNCH-INIT-003", p, 0, "min %g is not <= max %g", lo, hi);
            return -1;
        }
        if (!isfinite(hi - lo)) {
            launch_error(c, "LAUNCH-INIT-004", p, 0, "max - min must be finite");
            return -1;
        }
        return 0;
    }
    if (launch_int_compare(b->type, in->random_min.integer, in->random_max.integer) > 0) {
        launch_error(c, "LAUNCH-INIT-003", p, 0, "min is greater than max");
        return -1;
    }
    return 0;
}

static int parse_random(launch_ctx *c, const launch_path *p, json_t *v, launch_buffer *b)
{
    static const char *const keys[] = {"seed", "min", "max", NULL};
    if (want_object(c, p, v) != 0 || check_keys(c, p, v, keys) != 0)
        return -1;
    struct {
        const char *key;
        launch_elem type;
        launch_number *out;
    } fields[] = {{"seed", LAUNCH_U64, NULL},
                  {"min", b->type, &b->init.random_min},
                  {"max", b->type, &b->init.random_max}};
    launch_number seed;
    fields[0].out = &seed;
    int bad = 0;
    for (size_t i = 0; i < 3; i++) {
        json_t *f = json_object_get(v, fields[i].key);
        launch_path fp = launch_path_key(p, fields[i].key);
        if (!f)
            bad |= missing(c, p, fields[i].key);
        else
            bad |= launch_parse_number(c, &fp, f, fields[i].type, fields[i].out);
    }
    if (bad)
        return -1;
    b->init.random_seed = seed.integer;
    return check_random_range(c, p, b);
}

static int parse_init(launch_ctx *c, const launch_path *p, json_t *v, launch_buffer *b)
{
    static const char *const forms[] = {"fill", "iota", "random", "file", NULL};
    if (want_object(c, p, v) != 0 || check_keys(c, p, v, forms) != 0)
        return -1;
    if (json_object_size(v) != 1) {
        launch_error(c, "LAUNCH-INIT-001", p, 0, "init needs exactly one of \"fill\", \"iota\", "
                     "\"random\", \"file\" (found %zu)", json_object_size(v));
        return -1;
    }
    const char *form = json_object_iter_key(json_object_iter(v));
    json_t *value = json_object_iter_value(json_object_iter(v));
    launch_path fp = launch_path_key(p, form);
    if (strcmp(form, "fill") == 0) {
        launch_number n;
        b->init.kind = LAUNCH_INIT_FILL;
        if (launch_parse_number(c, &fp, value, b->type, &n) != 0)
            return -1;
        b->init.fill_bits = launch_encode(b->type, n);
        return 0;
    }
    if (strcmp(form, "iota") == 0) {
        b->init.kind = LAUNCH_INIT_IOTA;
        return parse_iota(c, &fp, value, b);
    }
    if (strcmp(form, "random") == 0) {
        b->init.kind = LAUNCH_INIT_RANDOM;
        return parse_random(c, &fp, value, b);
    }
    b->init.kind = LAUNCH_INIT_FILE;
    b->init.path = get_file(c, p, v, "file", b->bytes);
    return b->init.path ? 0 : -1;
}

/* ---- buffers ---- */

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > MAX_NAME_CHARS || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!(ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9')))
            return 0;
    }
    return 1;
}

static void parse_buffer(launch_ctx *c, const launch_path *p, const char *name, json_t *v,
                         launch_buffer *b)
{
    static const char *const keys[] = {"type", "count", "init", NULL};
    b->name = copy_string(c, name);
    if (!valid_name(name))
        launch_error(c, "LAUNCH-NAME-001", p, 1, "buffer name \"%.80s\" must be 1 to %d letters, "
                     "digits or '_', not starting with a digit", name, MAX_NAME_CHARS);
    if (want_object(c, p, v) != 0)
        return;
    check_keys(c, p, v, keys);
    const char *type_name;
    int have_type = get_string(c, p, v, "type", 1, &type_name) > 0;
    if (have_type && launch_elem_from_name(type_name, &b->type) != 0) {
        launch_path tp = launch_path_key(p, "type");
        launch_error(c, "LAUNCH-ELEM-001", &tp, 0, "unknown element type \"%.40s\" (expected i8, "
                     "u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32 or f64)", type_name);
        have_type = 0;
    }
    int have_count = get_uint(c, p, v, "count", 1, 1, UINT64_MAX, &b->count) > 0;
    if (!have_type || !have_count)
        return;
    size_t elem = launch_elem_bytes(b->type);
    launch_path cp = launch_path_key(p, "count");
    if (launch_reserve_bytes(c, &cp, b->count, elem) != 0)
        return;
    b->bytes = b->count * elem;
    json_t *init = json_object_get(v, "init");
    launch_path ip = launch_path_key(p, "init");
    if (init)
        parse_init(c, &ip, init, b);
}

int launch_reserve_bytes(launch_ctx *c, const launch_path *p, uint64_t count, size_t elem)
{
    if (c->desc->total_bytes == UINT64_MAX)
        return -1; /* the limit was already reported */
    uint64_t room = c->limits.max_total_bytes - c->desc->total_bytes;
    if (c->desc->total_bytes > c->limits.max_total_bytes || count > room / elem) {
        launch_error(c, "LAUNCH-SIZE-001", p, 0, "%" PRIu64 " x %zu bytes takes the buffers "
                     "past the limit of %" PRIu64 " bytes in total", count, elem,
                     c->limits.max_total_bytes);
        c->desc->total_bytes = UINT64_MAX; /* report the limit once */
        return -1;
    }
    c->desc->total_bytes += count * elem;
    return 0;
}

static void parse_buffers(launch_ctx *c, json_t *root)
{
    launch_path p = launch_path_key(&(launch_path){0}, "buffers");
    json_t *v = json_object_get(root, "buffers");
    if (!v || want_object(c, &p, v) != 0)
        return;
    size_t n = json_object_size(v);
    launch_desc *d = c->desc;
    d->buffers = arena_alloc(&d->arena, (n ? n : 1) * sizeof *d->buffers);
    if (!d->buffers) {
        out_of_memory(c);
        return;
    }
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value) {
        launch_path bp = launch_path_key(&p, name);
        parse_buffer(c, &bp, name, value, &d->buffers[d->nbuffers]);
        if (d->buffers[d->nbuffers].name)
            d->nbuffers++;
    }
}

long launch_find_buffer(const launch_desc *d, const char *name)
{
    for (size_t i = 0; i < d->nbuffers; i++) {
        if (d->buffers[i].name && strcmp(d->buffers[i].name, name) == 0)
            return (long)i;
    }
    return -1;
}

/* ---- launches ---- */

static int parse_dims(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                      uint32_t out[3])
{
    int is_grid = strcmp(key, "grid") == 0;
    const uint32_t *limit = is_grid ? grid_limit : block_limit;
    json_t *v = json_object_get(obj, key);
    launch_path kp = launch_path_key(p, key);
    out[0] = out[1] = out[2] = 1;
    if (!v)
        return missing(c, p, key);
    if (!json_is_array(v)) {
        launch_error(c, "LAUNCH-TYPE-001", &kp, 0, "expected an array of 1 to 3 integers");
        return -1;
    }
    if (json_array_size(v) < 1 || json_array_size(v) > 3) {
        launch_error(c, "LAUNCH-DIM-001", &kp, 0, "needs 1 to 3 dimensions, not %zu",
                     json_array_size(v));
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        launch_path ep = launch_path_index(&kp, i);
        if (!json_is_integer(e)) {
            launch_error(c, "LAUNCH-TYPE-001", &ep, 0, "expected an integer");
            bad = -1;
        } else if (json_integer_value(e) < 1 || json_integer_value(e) > limit[i]) {
            launch_error(c, is_grid ? "LAUNCH-DIM-002" : "LAUNCH-DIM-003", &ep, 0,
                         "%" PRId64 " is outside 1..%" PRIu32, (int64_t)json_integer_value(e),
                         limit[i]);
            bad = -1;
        } else {
            out[i] = (uint32_t)json_integer_value(e);
        }
    }
    if (!bad && !is_grid && (uint64_t)out[0] * out[1] * out[2] > MAX_THREADS_PER_BLOCK) {
        launch_error(c, "LAUNCH-DIM-004", &kp, 0, "%" PRIu64 " threads per block; at most %d",
                     (uint64_t)out[0] * out[1] * out[2], MAX_THREADS_PER_BLOCK);
        bad = -1;
    }
    return bad;
}

static void parse_buffer_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a)
{
    static const char *const keys[] = {"buffer", "offset", NULL};
    check_keys(c, p, v, keys);
    a->kind = LAUNCH_ARG_BUFFER;
    long index = get_buffer_ref(c, p, v, "buffer");
    uint64_t offset = 0;
    if (get_uint(c, p, v, "offset", 0, 0, UINT64_MAX, &offset) < 0 || index < 0)
        return;
    a->buffer = (size_t)index;
    a->offset = offset;
    const launch_buffer *b = &c->desc->buffers[index];
    if (b->image) {
        launch_path bp = launch_path_key(p, "buffer");
        launch_error(c, "LAUNCH-ARG-003", &bp, 0, "\"%s\" is an image: pass it as "
                     "{\"surface\": \"%s\"}", b->name, b->name);
        return;
    }
    if (b->bytes && offset >= b->bytes) {
        launch_path op = launch_path_key(p, "offset");
        launch_error(c, "LAUNCH-ARG-002", &op, 0, "offset %" PRIu64 " is not inside buffer \"%s\" "
                     "(%" PRIu64 " bytes)", offset, b->name, b->bytes);
    }
}

static void parse_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a)
{
    char field[128];
    launch_path_format(p, field, sizeof field);
    a->field = copy_string(c, field);
    size_t value_offset, key_offset;
    if (launch_locate(c->text, c->len, p, &value_offset, &key_offset) == 0)
        launch_line_col(c->text, c->len, value_offset, &a->line, &a->col);
    if (want_object(c, p, v) != 0)
        return;
    if (json_object_get(v, "buffer")) {
        parse_buffer_arg(c, p, v, a);
        return;
    }
    if (json_object_get(v, "surface")) {
        launch_parse_surface_arg(c, p, v, a);
        return;
    }
    if (json_object_get(v, "texture")) {
        launch_parse_texture_arg(c, p, v, a);
        return;
    }
    if (json_object_get(v, "tensor_map")) {
        launch_parse_tensor_map_arg(c, p, v, a);
        return;
    }
    if (json_object_get(v, "local")) {
        launch_parse_local_arg(c, p, v, a);
        return;
    }
    if (json_object_size(v) != 1) {
        launch_error(c, "LAUNCH-ARG-001", p, 0, "an argument has exactly one key: a type name "
                     "(\"u32\": 7) or \"buffer\" (found %zu keys)", json_object_size(v));
        return;
    }
    const char *type_name = json_object_iter_key(json_object_iter(v));
    launch_path tp = launch_path_key(p, type_name);
    a->kind = LAUNCH_ARG_SCALAR;
    if (launch_elem_from_name(type_name, &a->type) != 0) {
        launch_error(c, "LAUNCH-ELEM-001", &tp, 1, "\"%.40s\" is neither \"buffer\" nor an element "
                     "type", type_name);
        return;
    }
    launch_number n;
    if (launch_parse_number(c, &tp, json_object_iter_value(json_object_iter(v)), a->type, &n) == 0)
        a->bits = launch_encode(a->type, n);
}

static void parse_args(launch_ctx *c, const launch_path *p, json_t *obj, launch_kernel *k)
{
    json_t *v = json_object_get(obj, "args");
    launch_path ap = launch_path_key(p, "args");
    if (!v)
        return;
    if (!json_is_array(v)) {
        launch_error(c, "LAUNCH-TYPE-001", &ap, 0, "expected an array");
        return;
    }
    size_t n = json_array_size(v);
    k->args = arena_alloc(&c->desc->arena, (n ? n : 1) * sizeof *k->args);
    if (!k->args) {
        out_of_memory(c);
        return;
    }
    k->nargs = n;
    for (size_t i = 0; i < n; i++) {
        launch_path ep = launch_path_index(&ap, i);
        parse_arg(c, &ep, json_array_get(v, i), &k->args[i]);
    }
}

/* The line and column of the value of `key` inside the object at `p`; left 0 when absent. */
static void locate_key(launch_ctx *c, const launch_path *p, const char *key, unsigned *line,
                       unsigned *col)
{
    launch_path kp = launch_path_key(p, key);
    size_t value_offset, key_offset;
    if (launch_locate(c->text, c->len, &kp, &value_offset, &key_offset) == 0)
        launch_line_col(c->text, c->len, value_offset, line, col);
}

static void parse_launch(launch_ctx *c, const launch_path *p, json_t *v, launch_kernel *k)
{
    static const char *const keys[] = {"kernel", "grid", "block", "shared_bytes", "args",
                                       "access_policy_window", "reset_persisting",
                                       "helper_lanes", "cooperative", "global_size",
                                       "local_size", "payload", NULL};
    char field[64];
    launch_path_format(p, field, sizeof field);
    k->field = copy_string(c, field);
    size_t value_offset, key_offset;
    if (launch_locate(c->text, c->len, p, &value_offset, &key_offset) == 0)
        launch_line_col(c->text, c->len, value_offset, &k->line, &k->col);
    if (want_object(c, p, v) != 0)
        return;
    check_keys(c, p, v, keys);
    locate_key(c, p, "block", &k->block_line, &k->block_col);
    locate_key(c, p, "shared_bytes", &k->shared_line, &k->shared_col);
    const char *kernel;
    if (get_string(c, p, v, "kernel", 1, &kernel) > 0)
        k->kernel = copy_string(c, kernel);
    if (json_object_get(v, "global_size") || json_object_get(v, "payload")) {
        launch_parse_ndrange(c, p, v, k);
    } else {
        parse_dims(c, p, v, "grid", k->grid);
        parse_dims(c, p, v, "block", k->block);
    }
    uint64_t shared = 0;
    get_uint(c, p, v, "shared_bytes", 0, 0, UINT32_MAX, &shared);
    k->shared_bytes = (uint32_t)shared;
    parse_args(c, p, v, k);
    launch_layout_local(c, p, k);
    if (k->ndrange)
        launch_check_payload(c, p, k);
    json_t *window = json_object_get(v, "access_policy_window");
    launch_path wp = launch_path_key(p, "access_policy_window");
    if (window)
        launch_parse_window(c, &wp, window, k);
    json_t *reset = json_object_get(v, "reset_persisting");
    launch_path rp = launch_path_key(p, "reset_persisting");
    if (reset && !json_is_boolean(reset))
        launch_error(c, "LAUNCH-TYPE-001", &rp, 0, "expected true or false");
    k->reset_persisting = reset && json_is_true(reset);
    json_t *coop = json_object_get(v, "cooperative");
    launch_path cp = launch_path_key(p, "cooperative");
    if (coop && !json_is_boolean(coop))
        launch_error(c, "LAUNCH-TYPE-001", &cp, 0, "expected true or false");
    k->cooperative = coop && json_is_true(coop);
    uint64_t helpers = 0;
    get_uint(c, p, v, "helper_lanes", 0, 0, UINT32_MAX, &helpers);
    k->helper_lanes = (uint32_t)helpers;
}

static void parse_launches(launch_ctx *c, json_t *root)
{
    launch_path p = launch_path_key(&(launch_path){0}, "launches");
    json_t *v = json_object_get(root, "launches");
    if (!v) {
        missing(c, &(launch_path){0}, "launches");
        return;
    }
    if (!json_is_array(v)) {
        launch_error(c, "LAUNCH-TYPE-001", &p, 0, "expected an array of launches");
        return;
    }
    size_t n = json_array_size(v);
    if (n == 0) {
        launch_error(c, "LAUNCH-KERNEL-001", &p, 0, "needs at least one launch");
        return;
    }
    launch_desc *d = c->desc;
    d->kernels = arena_alloc(&d->arena, n * sizeof *d->kernels);
    if (!d->kernels) {
        out_of_memory(c);
        return;
    }
    d->nkernels = n;
    for (size_t i = 0; i < n; i++) {
        launch_path lp = launch_path_index(&p, i);
        parse_launch(c, &lp, json_array_get(v, i), &d->kernels[i]);
    }
}

/* ---- outputs and expectations ---- */

/* Returns the index of the buffer named by the key at `p`, or -1 (reported). */
static long key_buffer_ref(launch_ctx *c, const launch_path *p, const char *name)
{
    long index = launch_find_buffer(c->desc, name);
    if (index < 0)
        launch_error(c, "LAUNCH-REF-001", p, 1, "no buffer named \"%.80s\" is declared", name);
    return index;
}

static void parse_outputs(launch_ctx *c, json_t *root)
{
    launch_path p = launch_path_key(&(launch_path){0}, "outputs");
    json_t *v = json_object_get(root, "outputs");
    launch_desc *d = c->desc;
    if (!v || want_object(c, &p, v) != 0)
        return;
    d->outputs = arena_alloc(&d->arena, (json_object_size(v) + 1) * sizeof *d->outputs);
    if (!d->outputs) {
        out_of_memory(c);
        return;
    }
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value) {
        launch_path op = launch_path_key(&p, name);
        long index = key_buffer_ref(c, &op, name);
        const char *path = get_file(c, &p, v, name, 0);
        if (index < 0 || !path)
            continue;
        for (size_t i = 0; i < d->noutputs; i++) {
            if (strcmp(d->outputs[i].path, path) == 0) {
                launch_error(c, "LAUNCH-OUT-001", &op, 0, "\"%s\" is also the output of buffer "
                             "\"%s\"", path, d->buffers[d->outputs[i].buffer].name);
                path = NULL;
                break;
            }
        }
        if (path) {
            launch_output *o = &d->outputs[d->noutputs++];
            *o = (launch_output){(size_t)index, path, 0, 0};
            locate_value(c, &p, name, &o->line, &o->col);
        }
    }
}

static void parse_tolerance(launch_ctx *c, const launch_path *p, json_t *v, const char *key,
                            int *has, double *out)
{
    json_t *t = json_object_get(v, key);
    launch_path kp = launch_path_key(p, key);
    if (!t)
        return;
    if (!json_is_number(t)) {
        launch_error(c, "LAUNCH-TYPE-001", &kp, 0, "expected a number");
        return;
    }
    if (!(json_number_value(t) >= 0)) {
        launch_error(c, "LAUNCH-EXPECT-002", &kp, 0, "%g is negative", json_number_value(t));
        return;
    }
    *has = 1;
    *out = json_number_value(t);
}

static void parse_expect(launch_ctx *c, const launch_path *p, json_t *v, long index,
                         launch_expect *e)
{
    static const char *const keys[] = {"file", "fill", "rtol", "atol", NULL};
    memset(e, 0, sizeof *e);
    if (want_object(c, p, v) != 0)
        return;
    check_keys(c, p, v, keys);
    const launch_buffer *b = index >= 0 ? &c->desc->buffers[index] : NULL;
    json_t *file = json_object_get(v, "file"), *fill = json_object_get(v, "fill");
    if (!file == !fill)
        launch_error(c, "LAUNCH-EXPECT-001", p, 0, "needs exactly one of \"file\" and \"fill\"");
    parse_tolerance(c, p, v, "rtol", &e->has_rtol, &e->rtol);
    parse_tolerance(c, p, v, "atol", &e->has_atol, &e->atol);
    if (!b || !b->bytes)
        return;
    e->buffer = (size_t)index;
    if (file && !fill) {
        e->from_file = 1;
        e->path = get_file(c, p, v, "file", b->bytes);
    } else if (fill && !file) {
        launch_path fp = launch_path_key(p, "fill");
        launch_number n;
        if (launch_parse_number(c, &fp, fill, b->type, &n) == 0)
            e->fill_bits = launch_encode(b->type, n);
    }
}

static void parse_expects(launch_ctx *c, json_t *root)
{
    launch_path p = launch_path_key(&(launch_path){0}, "expect");
    json_t *v = json_object_get(root, "expect");
    launch_desc *d = c->desc;
    if (!v || want_object(c, &p, v) != 0)
        return;
    d->expects = arena_alloc(&d->arena, (json_object_size(v) + 1) * sizeof *d->expects);
    if (!d->expects) {
        out_of_memory(c);
        return;
    }
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value) {
        launch_path ep = launch_path_key(&p, name);
        long index = key_buffer_ref(c, &ep, name);
        parse_expect(c, &ep, value, index, &d->expects[d->nexpects]);
        if (index >= 0)
            d->nexpects++;
    }
}

/* ---- the top level ---- */

static void parse_top(launch_ctx *c, json_t *root)
{
    static const char *const keys[] = {"module", "dialect", "gpu", "config", "buffers",
                                       "launches", "outputs", "expect", "max_instructions",
                                       "l2_persisting_bytes", "heap_bytes", "images", "image_pool_max", "textures",
                                       NULL};
    launch_path top = {0};
    launch_desc *d = c->desc;
    check_keys(c, &top, root, keys);
    const char *s;
    if (get_string(c, &top, root, "module", 1, &s) > 0) {
        d->module_path = resolve_path(c, s);
        locate_value(c, &top, "module", &d->module_line, &d->module_col);
    }
    if (get_string(c, &top, root, "dialect", 0, &s) > 0) {
        d->dialect = copy_string(c, s);
        locate_value(c, &top, "dialect", &d->dialect_line, &d->dialect_col);
    }
    d->gpu = "h100";
    if (get_string(c, &top, root, "gpu", 0, &s) > 0) {
        d->gpu = copy_string(c, s);
        locate_value(c, &top, "gpu", &d->gpu_line, &d->gpu_col);
    }
    if (get_string(c, &top, root, "config", 0, &s) > 0) {
        d->config_path = resolve_path(c, s);
        /* A configuration names its GPU with its "base": a "gpu" beside it would be ignored. */
        if (json_object_get(root, "gpu")) {
            launch_path kp = launch_path_key(&top, "gpu");
            launch_error(c, "LAUNCH-KEY-003", &kp, 0,
                         "\"gpu\" and \"config\" both choose the GPU (a configuration's \"base\" "
                         "names its preset); keep one of them");
        }
    }
    get_uint(c, &top, root, "max_instructions", 0, 1, UINT64_MAX, &d->max_instructions);
    d->has_l2_persisting_bytes =
        get_uint(c, &top, root, "l2_persisting_bytes", 0, 0, UINT64_MAX,
                 &d->l2_persisting_bytes) > 0;
    d->has_heap_bytes = get_uint(c, &top, root, "heap_bytes", 0, 0, LAUNCH_MAX_HEAP_BYTES,
                                 &d->heap_bytes) > 0;
    parse_buffers(c, root);
    launch_parse_images(c, root);
    launch_parse_textures(c, root);
    parse_launches(c, root);
    parse_outputs(c, root);
    parse_expects(c, root);
}

/* ---- for launch_image.c (launch_internal.h) ---- */

int launch_check_keys(launch_ctx *c, const launch_path *p, json_t *obj, const char *const *allowed)
{
    return check_keys(c, p, obj, allowed);
}

int launch_want_object(launch_ctx *c, const launch_path *p, json_t *v)
{
    return want_object(c, p, v);
}

int launch_get_string(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                      int required, const char **out)
{
    return get_string(c, p, obj, key, required, out);
}

int launch_get_uint(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                    int required, uint64_t lo, uint64_t hi, uint64_t *out)
{
    return get_uint(c, p, obj, key, required, lo, hi, out);
}

char *launch_copy_string(launch_ctx *c, const char *s)
{
    return copy_string(c, s);
}

int launch_valid_name(const char *s)
{
    return valid_name(s);
}

int launch_parse_init(launch_ctx *c, const launch_path *p, json_t *v, launch_buffer *b)
{
    return parse_init(c, p, v, b);
}

launch_limits launch_limits_default(void)
{
    launch_limits l = {(uint64_t)1 << 30, (uint64_t)16 << 20};
    return l;
}

static launch_desc *desc_create(const char *path)
{
    arena a;
    arena_init(&a);
    launch_desc *d = arena_alloc(&a, sizeof *d);
    if (!d)
        return NULL;
    d->arena = a; /* from here on the arena lives inside the description */
    const char *slash = strrchr(path, '/');
    char *p = arena_strndup(&d->arena, path, strlen(path));
    char *dir = slash ? arena_strndup(&d->arena, path, slash == path ? 1 : (size_t)(slash - path))
                      : arena_strndup(&d->arena, ".", 1);
    if (!p || !dir) {
        launch_destroy(d);
        return NULL;
    }
    d->path = p;
    d->dir = dir;
    return d;
}

launch_desc *launch_load_text_limits(const char *path, const char *text, size_t len,
                                     const launch_limits *limits, diag_list *dl)
{
    if (!text) {
        text = "";
        len = 0;
    }
    launch_ctx c = {path, text, len, dl, NULL, limits ? *limits : launch_limits_default(), 0};
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        diag_add(dl, DIAG_ERROR, "LAUNCH-JSON-001", path, err.line > 0 ? (unsigned)err.line : 0,
                 err.column > 0 ? (unsigned)err.column : 0, "invalid JSON: %s", err.text);
        return NULL;
    }
    if (!json_is_object(root)) {
        diag_add(dl, DIAG_ERROR, "LAUNCH-JSON-002", path, 1, 1,
                 "a launch file is one JSON object");
        json_decref(root);
        return NULL;
    }
    c.desc = desc_create(path);
    if (!c.desc) {
        out_of_memory(&c);
        json_decref(root);
        return NULL;
    }
    parse_top(&c, root);
    json_decref(root);
    if (c.errors) {
        launch_destroy(c.desc);
        return NULL;
    }
    return c.desc;
}

launch_desc *launch_load_text(const char *path, const char *text, size_t len, diag_list *dl)
{
    return launch_load_text_limits(path, text, len, NULL, dl);
}

void launch_destroy(launch_desc *d)
{
    if (!d)
        return;
    arena a = d->arena; /* d itself lives in the arena */
    arena_fini(&a);
}

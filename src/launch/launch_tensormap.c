/* Tensor map arguments of launch files (docs/launch-files.md, "Tensor maps"): the
 * {"tensor_map": {...}} descriptor, cuTensorMapEncodeTiled's fields by name, over a buffer. This
 * file checks what the description alone can say (names, lengths, ranges); the sim encodes the
 * map with the buffer's device address and applies the remaining rules (alignment, the box
 * against the swizzle span, API-TMAP-001). */
#include <string.h>

#include "launch/launch_internal.h"

static const char *const type_names[] = {
    "uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16", "float32", "float64",
    "bfloat16", "float32_ftz", "tfloat32", "tfloat32_ftz"};
static const char *const swizzle_names[] = {"none", "32B", "64B", "128B"};
static const char *const promotion_names[] = {"none", "64B", "128B", "256B"};
static const char *const fill_names[] = {"zero", "nan"};

/* obj.key as one of `names` (n of them): its index, or `dflt` when absent and not required;
 * -1 after an error. */
static int get_name(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                    const char *const *names, int n, int dflt, int required)
{
    const char *s;
    int got = launch_get_string(c, p, obj, key, required, &s);
    if (got <= 0)
        return got == 0 ? dflt : -1;
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    launch_path kp = launch_path_key(p, key);
    char list[160] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    launch_error(c, "LAUNCH-TMAP-001", &kp, 0, "\"%.40s\" is not one of %s", s, list);
    return -1;
}

/* obj.key as an array of `want` integers in [lo, hi] (want 0: 1..5 of them, the rank, into
 * *count). Absent and optional: every element `dflt`. Returns 0 or -1 after an error. */
static int get_array(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                     unsigned want, uint64_t lo, uint64_t hi, uint64_t dflt, uint64_t *out,
                     unsigned *count)
{
    json_t *v = json_object_get(obj, key);
    launch_path kp = launch_path_key(p, key);
    if (!v) {
        if (want == 0 || dflt == 0) {
            launch_error(c, "LAUNCH-KEY-002", p, 0, "the tensor map needs \"%s\"", key);
            return -1;
        }
        for (unsigned i = 0; i < want; i++) out[i] = dflt;
        return 0;
    }
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (!json_is_array(v) || (want ? n != want : (n < 1 || n > 5))) {
        if (want)
            launch_error(c, "LAUNCH-TMAP-001", &kp, 0, "expected an array of %u integers (one "
                         "per dimension%s)", want, strcmp(key, "strides") == 0 ? " after the first" : "");
        else
            launch_error(c, "LAUNCH-TMAP-001", &kp, 0, "expected an array of 1 to 5 integers");
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        launch_path ep = launch_path_index(&kp, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            (uint64_t)json_integer_value(e) < lo || (uint64_t)json_integer_value(e) > hi) {
            launch_error(c, "LAUNCH-TMAP-001", &ep, 0, "expected an integer in %llu..%llu",
                         (unsigned long long)lo, (unsigned long long)hi);
            bad = -1;
            continue;
        }
        out[i] = (uint64_t)json_integer_value(e);
    }
    if (count)
        *count = (unsigned)n;
    return bad;
}

/* The descriptor's fields after "buffer" and "offset". Returns 0 or -1. */
static int parse_fields(launch_ctx *c, const launch_path *p, json_t *v, launch_tensor_map *t)
{
    int type = get_name(c, p, v, "data_type", type_names, 13, -1, 1);
    int sw = get_name(c, p, v, "swizzle", swizzle_names, 4, 0, 0);
    int l2 = get_name(c, p, v, "l2_promotion", promotion_names, 4, 0, 0);
    int fill = get_name(c, p, v, "oob_fill", fill_names, 2, 0, 0);
    int il = get_name(c, p, v, "interleave", (const char *const[]){"none"}, 1, 0, 0);
    uint64_t dims[5], strides[4] = {0}, box[5], es[5];
    unsigned rank = 0;
    int bad = get_array(c, p, v, "dims", 0, 1, 1ull << 32, 0, dims, &rank);
    if (bad || type < 0 || sw < 0 || l2 < 0 || fill < 0 || il < 0)
        return -1;
    if (rank > 1)
        bad |= get_array(c, p, v, "strides", rank - 1, 16, (1ull << 40) - 1, 0, strides, NULL);
    else if (json_object_get(v, "strides")) {
        launch_path sp = launch_path_key(p, "strides");
        launch_error(c, "LAUNCH-TMAP-001", &sp, 0, "a one-dimensional map has no strides");
        bad = -1;
    }
    bad |= get_array(c, p, v, "box", rank, 1, 256, 0, box, NULL);
    bad |= get_array(c, p, v, "element_strides", rank, 1, 8, 1, es, NULL);
    if (bad)
        return -1;
    t->data_type = (uint8_t)type;
    t->rank = (uint8_t)rank;
    t->swizzle = (uint8_t)sw;
    t->l2_promotion = (uint8_t)l2;
    t->oob_fill = (uint8_t)fill;
    for (unsigned i = 0; i < rank; i++) {
        t->dims[i] = dims[i];
        t->box[i] = (uint32_t)box[i];
        t->elem_strides[i] = (uint32_t)es[i];
        if (i)
            t->strides[i - 1] = strides[i - 1];
    }
    return 0;
}

void launch_parse_tensor_map_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a)
{
    static const char *const keys[] = {"tensor_map", NULL};
    static const char *const fields[] = {"buffer", "offset", "data_type", "dims", "strides",
                                         "box", "element_strides", "interleave", "swizzle",
                                         "l2_promotion", "oob_fill", NULL};
    launch_check_keys(c, p, v, keys);
    a->kind = LAUNCH_ARG_TENSOR_MAP;
    launch_path tp = launch_path_key(p, "tensor_map");
    json_t *d = json_object_get(v, "tensor_map");
    if (launch_want_object(c, &tp, d) != 0)
        return;
    launch_check_keys(c, &tp, d, fields);
    launch_tensor_map *t = arena_alloc(&c->desc->arena, sizeof *t);
    if (!t) {
        launch_error(c, "LAUNCH-IO-001", p, 0, "out of memory");
        return;
    }
    memset(t, 0, sizeof *t);
    long buffer = launch_buffer_ref(c, &tp, d, "buffer");
    uint64_t offset = 0;
    int bad = launch_get_uint(c, &tp, d, "offset", 0, 0, UINT64_MAX, &offset) < 0;
    if (parse_fields(c, &tp, d, t) != 0 || bad || buffer < 0)
        return;
    const launch_buffer *b = &c->desc->buffers[buffer];
    if (b->image) {
        launch_path bp = launch_path_key(&tp, "buffer");
        launch_error(c, "LAUNCH-TMAP-001", &bp, 0, "\"%s\" is an image; a tensor map covers a "
                     "buffer", b->name);
        return;
    }
    if (offset >= b->bytes) {
        launch_path op = launch_path_key(&tp, "offset");
        launch_error(c, "LAUNCH-ARG-002", &op, 0, "offset %llu is not inside buffer \"%s\" "
                     "(%llu bytes)", (unsigned long long)offset, b->name,
                     (unsigned long long)b->bytes);
        return;
    }
    t->buffer = (size_t)buffer;
    t->offset = offset;
    a->tensor_map = t;
}

/* The ND-range form of a launch (docs/launch-files.md, "ND-range launches"): an OpenCL-style
 * launch of a vISA kernel by its global and local sizes, with the kernel's cross-thread data
 * described item by item as IGC's runtime lays it out (the offsets come from the compiler's
 * patch tokens: tools/visa/dump.sh writes them). The grid is global_size / local_size per
 * dimension and the block local_size; the cross-thread data becomes the kernel's one parameter,
 * built by the simulator from the items (src/sim/sim_run.c). */
#include <inttypes.h>
#include <string.h>

#include "launch/launch_internal.h"

static const char *const implicit_names[] = {
    [LAUNCH_IMPLICIT_GLOBAL_OFFSET] = "global_offset",
    [LAUNCH_IMPLICIT_LOCAL_SIZE] = "local_size",
    [LAUNCH_IMPLICIT_ENQUEUED_LOCAL_SIZE] = "enqueued_local_size",
    [LAUNCH_IMPLICIT_GLOBAL_SIZE] = "global_size",
    [LAUNCH_IMPLICIT_NUM_GROUPS] = "num_groups",
    [LAUNCH_IMPLICIT_WORK_DIM] = "work_dim",
};

/* "global_size" or "local_size": 1 to 3 positive integers; returns how many, or 0 after an
 * error. */
static uint32_t sizes(launch_ctx *c, const launch_path *p, json_t *obj, const char *key,
                      uint32_t out[3])
{
    json_t *v = json_object_get(obj, key);
    launch_path kp = launch_path_key(p, key);
    out[0] = out[1] = out[2] = 1;
    if (!v) {
        launch_error(c, "LAUNCH-NDR-002", p, 0, "an ND-range launch needs \"%s\"", key);
        return 0;
    }
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3) {
        launch_error(c, "LAUNCH-TYPE-001", &kp, 0, "expected an array of 1 to 3 integers");
        return 0;
    }
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        launch_path ep = launch_path_index(&kp, i);
        if (!json_is_integer(e) || json_integer_value(e) < 1 ||
            json_integer_value(e) > 2147483647) {
            launch_error(c, "LAUNCH-TYPE-001", &ep, 0, "expected an integer in 1..2147483647");
            return 0;
        }
        out[i] = (uint32_t)json_integer_value(e);
    }
    return (uint32_t)json_array_size(v);
}

static void parse_item(launch_ctx *c, const launch_path *ip, json_t *e, launch_payload_item *it)
{
    static const char *const keys[] = {"offset", "arg", "value", NULL};
    if (launch_want_object(c, ip, e) != 0)
        return;
    launch_check_keys(c, ip, e, keys);
    uint64_t off = 0, arg = 0;
    launch_get_uint(c, ip, e, "offset", 1, 0, UINT32_MAX, &off);
    it->offset = (uint32_t)off;
    int has_arg = launch_get_uint(c, ip, e, "arg", 0, 0, UINT32_MAX, &arg);
    const char *value = NULL;
    int has_value = launch_get_string(c, ip, e, "value", 0, &value);
    if ((has_arg > 0) == (has_value > 0)) {
        launch_error(c, "LAUNCH-NDR-003", ip, 0, "a payload item has exactly one of \"arg\" "
                     "and \"value\"");
        return;
    }
    it->arg = (uint32_t)arg;
    if (has_value <= 0)
        return;
    for (unsigned k = 1; k < sizeof implicit_names / sizeof implicit_names[0]; k++)
        if (strcmp(value, implicit_names[k]) == 0)
            it->implicit = (launch_implicit)k;
    if (!it->implicit) {
        it->arg = UINT32_MAX; /* reported here; launch_check_payload skips it */
        launch_path vp = launch_path_key(ip, "value");
        launch_error(c, "LAUNCH-NDR-006", &vp, 0, "unknown implicit argument \"%s\" (known: "
                     "global_offset, local_size, enqueued_local_size, global_size, num_groups, "
                     "work_dim)", value);
    }
}

static void parse_payload(launch_ctx *c, const launch_path *p, json_t *obj, launch_kernel *k)
{
    static const char *const keys[] = {"bytes", "items", NULL};
    json_t *v = json_object_get(obj, "payload");
    launch_path pp = launch_path_key(p, "payload");
    if (!v) {
        launch_error(c, "LAUNCH-NDR-003", p, 0, "an ND-range launch needs \"payload\"");
        return;
    }
    if (launch_want_object(c, &pp, v) != 0)
        return;
    launch_check_keys(c, &pp, v, keys);
    uint64_t bytes = 0;
    launch_get_uint(c, &pp, v, "bytes", 1, 1, 65536, &bytes);
    k->payload_bytes = (uint32_t)bytes;
    json_t *items = json_object_get(v, "items");
    launch_path ip = launch_path_key(&pp, "items");
    if (!items || !json_is_array(items)) {
        launch_error(c, "LAUNCH-NDR-003", &pp, 0, "\"items\" must be an array");
        return;
    }
    size_t n = json_array_size(items);
    k->payload = arena_alloc(&c->desc->arena, (n ? n : 1) * sizeof *k->payload);
    if (!k->payload) {
        launch_error(c, "LAUNCH-IO-001", p, 0, "out of memory");
        return;
    }
    memset(k->payload, 0, (n ? n : 1) * sizeof *k->payload);
    k->npayload = n;
    for (size_t i = 0; i < n; i++) {
        launch_path ep = launch_path_index(&ip, i);
        parse_item(c, &ep, json_array_get(items, i), &k->payload[i]);
    }
}

void launch_parse_ndrange(launch_ctx *c, const launch_path *p, json_t *v, launch_kernel *k)
{
    k->ndrange = 1;
    if (json_object_get(v, "grid") || json_object_get(v, "block"))
        launch_error(c, "LAUNCH-NDR-002", p, 0, "an ND-range launch gives \"global_size\" and "
                     "\"local_size\", not \"grid\" or \"block\"");
    uint32_t local[3];
    uint32_t gdims = sizes(c, p, v, "global_size", k->global_size);
    uint32_t ldims = sizes(c, p, v, "local_size", local);
    k->work_dim = gdims;
    if (gdims && ldims) {
        launch_path gp = launch_path_key(p, "global_size");
        for (int d = 0; d < 3; d++) {
            if (k->global_size[d] % local[d]) {
                launch_error(c, "LAUNCH-NDR-001", &gp, 0, "global size %" PRIu32 " of dimension "
                             "%d is not a multiple of the local size %" PRIu32,
                             k->global_size[d], d, local[d]);
                break;
            }
            k->grid[d] = k->global_size[d] / local[d];
            k->block[d] = local[d];
        }
        if ((uint64_t)local[0] * local[1] * local[2] > 1024)
            launch_error(c, "LAUNCH-NDR-001", &gp, 0, "%" PRIu64 " work-items per work-group; "
                         "at most 1024", (uint64_t)local[0] * local[1] * local[2]);
    }
    parse_payload(c, p, v, k);
}

void launch_parse_local_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a)
{
    static const char *const keys[] = {"local", "align", NULL};
    launch_check_keys(c, p, v, keys);
    a->kind = LAUNCH_ARG_SCALAR;
    a->type = LAUNCH_U32;
    uint64_t bytes = 0, align = 1;
    if (launch_get_uint(c, p, v, "local", 1, 0, UINT64_MAX, &bytes) < 0 ||
        launch_get_uint(c, p, v, "align", 0, 0, UINT64_MAX, &align) < 0)
        return;
    launch_path lp = launch_path_key(p, "local");
    if (bytes < 1 || bytes > 65536) {
        launch_error(c, "LAUNCH-NDR-007", &lp, 0, "a __local argument's size is %" PRIu64
                     " bytes; expected 1..65536", bytes);
        return;
    }
    if (align < 1 || align > 4096 || (align & (align - 1))) {
        launch_path al = launch_path_key(p, "align");
        launch_error(c, "LAUNCH-NDR-007", &al, 0, "a __local argument's alignment is %" PRIu64
                     "; expected a power of two in 1..4096", align);
        return;
    }
    a->local_bytes = (uint32_t)bytes;
    a->local_align = (uint32_t)align;
}

void launch_layout_local(launch_ctx *c, const launch_path *p, launch_kernel *k)
{
    uint64_t end = 0; /* relative to the end of the static SLM: IGC adds its size itself */
    for (size_t i = 0; i < k->nargs; i++) {
        launch_arg *a = &k->args[i];
        if (!a->local_bytes)
            continue;
        if (!k->ndrange) {
            launch_error(c, "LAUNCH-NDR-008", p, 0, "argument %zu is a __local argument, which "
                         "only an ND-range launch (\"global_size\") takes", i);
            return;
        }
        end = (end + a->local_align - 1) / a->local_align * a->local_align;
        a->bits = end;
        end += a->local_bytes;
        if (k->shared_bytes + end > UINT32_MAX) {
            launch_error(c, "LAUNCH-NDR-007", p, 0, "the __local arguments end at SLM byte %"
                         PRIu64 ", past 4 GiB", k->shared_bytes + end);
            return;
        }
    }
    k->shared_bytes += (uint32_t)end;
}

void launch_check_payload(launch_ctx *c, const launch_path *p, const launch_kernel *k)
{
    launch_path pp = launch_path_key(p, "payload");
    launch_path ip = launch_path_key(&pp, "items");
    for (size_t i = 0; i < k->npayload; i++) {
        const launch_payload_item *it = &k->payload[i];
        launch_path ep = launch_path_index(&ip, i);
        uint32_t size = 12;
        if (!it->implicit && it->arg == UINT32_MAX)
            continue;
        if (it->implicit == LAUNCH_IMPLICIT_WORK_DIM)
            size = 4;
        else if (!it->implicit) {
            if (it->arg >= k->nargs) {
                launch_error(c, "LAUNCH-NDR-004", &ep, 0, "argument %" PRIu32 " does not exist "
                             "(the launch has %zu)", it->arg, k->nargs);
                continue;
            }
            const launch_arg *a = &k->args[it->arg];
            if (a->kind != LAUNCH_ARG_BUFFER && a->kind != LAUNCH_ARG_SCALAR) {
                launch_error(c, "LAUNCH-NDR-004", &ep, 0, "argument %" PRIu32 " is neither a "
                             "buffer nor a scalar", it->arg);
                continue;
            }
            size = a->kind == LAUNCH_ARG_BUFFER ? 8 : (uint32_t)launch_elem_bytes(a->type);
        }
        if ((uint64_t)it->offset + size > k->payload_bytes)
            launch_error(c, "LAUNCH-NDR-005", &ep, 0, "%" PRIu32 " bytes at offset %" PRIu32
                         " do not fit in the %" PRIu32 " bytes of the payload", size,
                         it->offset, k->payload_bytes);
    }
}

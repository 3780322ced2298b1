/* A launch's "access_policy_window" (docs/launch-files.md, "Launches"): the buffer range, the hit
 * ratio and the hit and miss properties of a cudaAccessPolicyWindow, each field checked with its
 * own rule (LAUNCH-APW-001..004). */
#include "launch/launch_internal.h"

#include <inttypes.h>
#include <string.h>

static int prop_from_name(const char *s, int allow_persisting, launch_access_prop *out)
{
    if (strcmp(s, "normal") == 0)
        *out = LAUNCH_ACCESS_NORMAL;
    else if (strcmp(s, "streaming") == 0)
        *out = LAUNCH_ACCESS_STREAMING;
    else if (allow_persisting && strcmp(s, "persisting") == 0)
        *out = LAUNCH_ACCESS_PERSISTING;
    else
        return -1;
    return 0;
}

static void parse_window_props(launch_ctx *c, const launch_path *p, json_t *v,
                               launch_policy_window *w)
{
    json_t *ratio = json_object_get(v, "hit_ratio");
    launch_path rp = launch_path_key(p, "hit_ratio");
    w->hit_ratio = 1.0;
    if (ratio && !json_is_number(ratio))
        launch_error(c, "LAUNCH-TYPE-001", &rp, 0, "expected a number");
    else if (ratio && !(json_number_value(ratio) >= 0 && json_number_value(ratio) <= 1))
        launch_error(c, "LAUNCH-APW-001", &rp, 0, "%g is outside [0, 1]", json_number_value(ratio));
    else if (ratio)
        w->hit_ratio = json_number_value(ratio);
    const char *hit = "persisting", *miss = "normal";
    w->hit_prop = LAUNCH_ACCESS_PERSISTING;
    w->miss_prop = LAUNCH_ACCESS_NORMAL;
    launch_path hp = launch_path_key(p, "hit_prop"), mp = launch_path_key(p, "miss_prop");
    if (launch_get_string(c, p, v, "hit_prop", 0, &hit) > 0 && prop_from_name(hit, 1, &w->hit_prop) != 0)
        launch_error(c, "LAUNCH-APW-002", &hp, 0, "\"%.40s\" is not normal, streaming or "
                     "persisting", hit);
    if (launch_get_string(c, p, v, "miss_prop", 0, &miss) > 0 &&
        prop_from_name(miss, 0, &w->miss_prop) != 0)
        launch_error(c, "LAUNCH-APW-002", &mp, 0, "\"%.40s\" is not normal or streaming", miss);
}

void launch_parse_window(launch_ctx *c, const launch_path *p, json_t *v, launch_kernel *k)
{
    static const char *const keys[] = {"buffer",    "offset",   "bytes",    "hit_ratio",
                                       "hit_prop",  "miss_prop", NULL};
    if (launch_want_object(c, p, v) != 0)
        return;
    launch_check_keys(c, p, v, keys);
    launch_policy_window *w = &k->policy_window;
    k->has_policy_window = 1;
    parse_window_props(c, p, v, w);
    long index = launch_buffer_ref(c, p, v, "buffer");
    uint64_t offset = 0, bytes = 0;
    int have_offset = launch_get_uint(c, p, v, "offset", 0, 0, UINT64_MAX, &offset);
    int have_bytes = launch_get_uint(c, p, v, "bytes", 0, 1, UINT64_MAX, &bytes);
    if (index < 0 || have_offset < 0 || have_bytes < 0 || !c->desc->buffers[index].bytes)
        return;
    const launch_buffer *b = &c->desc->buffers[index];
    if (b->image) {
        launch_path bp = launch_path_key(p, "buffer");
        launch_error(c, "LAUNCH-APW-004", &bp, 0, "\"%s\" is an image: an access policy "
                     "window covers part of a buffer", b->name);
        return;
    }
    if (!have_bytes)
        bytes = offset < b->bytes ? b->bytes - offset : 0;
    if (offset >= b->bytes || bytes == 0 || bytes > b->bytes - offset) {
        launch_error(c, "LAUNCH-APW-003", p, 0, "the window [%" PRIu64 ", %" PRIu64 ") is not "
                     "inside buffer \"%s\" (%" PRIu64 " bytes)", offset, offset + bytes, b->name,
                     b->bytes);
        return;
    }
    w->buffer = (size_t)index;
    w->offset = offset;
    w->bytes = bytes;
}

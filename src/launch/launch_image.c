/* The "images" section of a launch file and "image_pool_max" (docs/launch-files.md, "Images").
 *
 * Each image becomes an entry of launch_desc.buffers after the buffers, with its descriptor in
 * launch_buffer.image: on the host an image is a buffer of its texels in x-fastest order, so
 * that "init", "outputs" and "expect" treat it exactly as a buffer. This file checks the
 * descriptor with the rules mem/mem_image.h applies (each field with its own rule id, so a
 * launch file's author sees which field is wrong); it does not compute the memory layout. */
#include "launch/launch_internal.h"

#include <inttypes.h>
#include <string.h>

#include "ir/ir.h"

enum {
    MAX_SLOT = 8191,          /* SASS #tsPtrIdxU13: 13-bit word indices of the image bank */
    MAX_HEADER_INDEX = 0xFFFFF, /* headerPtr[19:0] */
    MAX_LAYERS = 65535,
    MAX_WIDTH = 0xFFFFFFF,    /* 268435455: a row of 16-byte texels stays below 4 GiB */
    MAX_BLOCK_GOBS = 32,
};

static const char *const dim_names[] = {NULL, "1d", "1d_buffer", "1d_array", "2d", "2d_array",
                                        "3d", "cube", "cube_array"};

/* The channel's element type of a checked format. */
static launch_elem channel_elem(const launch_image *m)
{
    if (m->kind == 2)
        return m->bits == 16 ? LAUNCH_F16 : LAUNCH_F32;
    int s = m->kind == 0;
    return m->bits == 8 ? (s ? LAUNCH_I8 : LAUNCH_U8)
           : m->bits == 16 ? (s ? LAUNCH_I16 : LAUNCH_U16)
                           : (s ? LAUNCH_I32 : LAUNCH_U32);
}

/* "format": {"channels", "bits", "kind"}. Returns 0 or -1. */
static int parse_format(launch_ctx *c, const launch_path *p, json_t *img, launch_image *m)
{
    static const char *const keys[] = {"channels", "bits", "kind", NULL};
    static const char *const kinds[] = {"signed", "unsigned", "float"};
    json_t *v = json_object_get(img, "format");
    launch_path fp = launch_path_key(p, "format");
    if (!v) {
        launch_path kp = launch_path_key(p, "format");
        launch_error(c, "LAUNCH-KEY-002", &kp, 0, "required key \"format\" is missing");
        return -1;
    }
    if (launch_want_object(c, &fp, v) != 0)
        return -1;
    launch_check_keys(c, &fp, v, keys);
    uint64_t channels = 0, bits = 0;
    const char *kind = NULL;
    int bad = 0;
    if (launch_get_uint(c, &fp, v, "channels", 1, 0, UINT64_MAX, &channels) <= 0)
        bad = -1;
    else if (channels != 1 && channels != 2 && channels != 4) {
        launch_path kp = launch_path_key(&fp, "channels");
        launch_error(c, "LAUNCH-IMAGE-002", &kp, 0, "%" PRIu64 " channels; expected 1, 2 or 4",
                     channels);
        bad = -1;
    }
    if (launch_get_uint(c, &fp, v, "bits", 1, 0, UINT64_MAX, &bits) <= 0)
        bad = -1;
    else if (bits != 8 && bits != 16 && bits != 32) {
        launch_path kp = launch_path_key(&fp, "bits");
        launch_error(c, "LAUNCH-IMAGE-003", &kp, 0, "%" PRIu64 " bits per channel; expected 8, "
                     "16 or 32", bits);
        bad = -1;
    }
    if (launch_get_string(c, &fp, v, "kind", 1, &kind) <= 0)
        return -1;
    launch_path kp = launch_path_key(&fp, "kind");
    m->kind = 3;
    for (uint8_t k = 0; k < 3; k++)
        if (strcmp(kind, kinds[k]) == 0)
            m->kind = k;
    if (m->kind == 3) {
        launch_error(c, "LAUNCH-IMAGE-004", &kp, 0, "unknown kind \"%.40s\" (expected signed, "
                     "unsigned or float)", kind);
        return -1;
    }
    if (!bad && m->kind == 2 && bits == 8) {
        launch_error(c, "LAUNCH-IMAGE-004", &kp, 0, "float channels have 16 or 32 bits, not 8");
        return -1;
    }
    m->channels = (uint8_t)channels;
    m->bits = (uint8_t)bits;
    return bad;
}

/* A cube: square faces, 6 layers (a cube array: 6 per cube). Returns 0 or -1. */
static int check_cube(launch_ctx *c, const launch_path *p, const launch_image *m, uint64_t w,
                      uint64_t h, uint64_t l)
{
    const char *key = w != h ? "height" : l % 6 || (m->dim == IR_IMAGE_CUBE && l != 6) ? "layers"
                                                                                     : NULL;
    if (!key)
        return 0;
    launch_path kp = launch_path_key(p, key);
    launch_error(c, "LAUNCH-IMAGE-012", &kp, 0, "a %s image has square faces (height = width) "
                 "and %s (found %" PRIu64 " x %" PRIu64 ", %" PRIu64 " layers)",
                 dim_names[m->dim], m->dim == IR_IMAGE_CUBE ? "6 layers" : "6 layers per cube",
                 w, h, l);
    return -1;
}

/* "levels": 1 up to halving the largest extent down to 1 (not for 1d_buffer). */
static int parse_levels(launch_ctx *c, const launch_path *p, json_t *img, launch_image *m)
{
    uint64_t levels = 1;
    if (launch_get_uint(c, p, img, "levels", 0, 1, UINT64_MAX, &levels) < 0)
        return -1;
    uint32_t n = m->width > m->height ? m->width : m->height, max = 1;
    if (m->dim == IR_IMAGE_3D && m->depth > n)
        n = m->depth;
    while (n >>= 1) max++;
    if (m->dim == IR_IMAGE_1D_BUFFER)
        max = 1;
    if (levels > max) {
        launch_path kp = launch_path_key(p, "levels");
        launch_error(c, "LAUNCH-IMAGE-011", &kp, 0, "%" PRIu64 " mipmap levels; a %s image of "
                     "these extents has at most %u (each level halves the extents, down to 1)",
                     levels, dim_names[m->dim], max);
        return -1;
    }
    m->levels = (uint32_t)levels;
    return 0;
}

/* width, height, depth, layers against the geometry of `dim`, then "levels". Returns 0 or
 * -1. */
static int parse_extent(launch_ctx *c, const launch_path *p, json_t *img, launch_image *m)
{
    uint64_t w = 1, h = 1, d = 1, l = m->dim >= IR_IMAGE_CUBE ? 6 : 1;
    int bad = launch_get_uint(c, p, img, "width", 1, 1, MAX_WIDTH, &w) <= 0;
    bad |= launch_get_uint(c, p, img, "height", 0, 1, UINT32_MAX, &h) < 0;
    bad |= launch_get_uint(c, p, img, "depth", 0, 1, UINT32_MAX, &d) < 0;
    bad |= launch_get_uint(c, p, img, "layers", 0, 1, MAX_LAYERS, &l) < 0;
    if (bad || !m->dim)
        return -1;
    if (m->dim >= IR_IMAGE_CUBE && check_cube(c, p, m, w, h, l) != 0)
        return -1;
    int one_d = m->dim <= IR_IMAGE_1D_ARRAY;
    int array = m->dim == IR_IMAGE_1D_ARRAY || m->dim == IR_IMAGE_2D_ARRAY ||
                m->dim >= IR_IMAGE_CUBE;
    const char *key = one_d && h != 1 ? "height" : m->dim != IR_IMAGE_3D && d != 1 ? "depth"
                      : !array && l != 1 ? "layers" : NULL;
    if (key) {
        launch_path kp = launch_path_key(p, key);
        launch_error(c, "LAUNCH-IMAGE-005", &kp, 0, "a %s image needs %s 1 (height is 1 for 1D "
                     "images, depth 1 unless 3d, layers 1 unless an array)", dim_names[m->dim],
                     key);
        return -1;
    }
    m->width = (uint32_t)w;
    m->height = (uint32_t)h;
    m->depth = (uint32_t)d;
    m->layers = (uint32_t)l;
    return parse_levels(c, p, img, m);
}

/* A block-linear block dimension in GOBs. Returns 0 or -1. */
static int parse_gobs(launch_ctx *c, const launch_path *p, json_t *bl, const char *key,
                      uint8_t *out)
{
    uint64_t v = 1;
    int got = launch_get_uint(c, p, bl, key, 0, 0, UINT64_MAX, &v);
    if (got < 0)
        return -1;
    if (v < 1 || v > MAX_BLOCK_GOBS || (v & (v - 1)) != 0) {
        launch_path kp = launch_path_key(p, key);
        launch_error(c, "LAUNCH-IMAGE-008", &kp, 0, "%" PRIu64 " GOBs; expected a power of two "
                     "from 1 to 32", v);
        return -1;
    }
    *out = (uint8_t)v;
    return 0;
}

/* "layout": {"pitch": BYTES} or {"block_linear": {"block_height", "block_depth"}}. */
static int parse_layout(launch_ctx *c, const launch_path *p, json_t *img, launch_image *m,
                        int format_ok)
{
    static const char *const forms[] = {"pitch", "block_linear", NULL};
    static const char *const gobs[] = {"block_height", "block_depth", NULL};
    json_t *v = json_object_get(img, "layout");
    launch_path lp = launch_path_key(p, "layout");
    if (!v) {
        launch_error(c, "LAUNCH-KEY-002", &lp, 0, "required key \"layout\" is missing");
        return -1;
    }
    if (launch_want_object(c, &lp, v) != 0 || launch_check_keys(c, &lp, v, forms) != 0)
        return -1;
    if (json_object_size(v) != 1) {
        launch_error(c, "LAUNCH-IMAGE-006", &lp, 0, "layout needs exactly one of \"pitch\" and "
                     "\"block_linear\" (found %zu)", json_object_size(v));
        return -1;
    }
    json_t *bl = json_object_get(v, "block_linear");
    if (bl) {
        launch_path bp = launch_path_key(&lp, "block_linear");
        m->block_linear = 1;
        if (launch_want_object(c, &bp, bl) != 0)
            return -1;
        launch_check_keys(c, &bp, bl, gobs);
        return parse_gobs(c, &bp, bl, "block_height", &m->block_height) |
               parse_gobs(c, &bp, bl, "block_depth", &m->block_depth);
    }
    uint64_t pitch;
    if (launch_get_uint(c, &lp, v, "pitch", 1, 1, UINT32_MAX, &pitch) <= 0)
        return -1;
    uint64_t row = (uint64_t)m->width * m->channels * m->bits / 8;
    if (format_ok && m->width && pitch < row) {
        launch_path pp = launch_path_key(&lp, "pitch");
        launch_error(c, "LAUNCH-IMAGE-007", &pp, 0, "pitch %" PRIu64 " is smaller than a row of "
                     "%" PRIu32 " texels (%" PRIu64 " bytes)", pitch, m->width, row);
        return -1;
    }
    m->pitch_bytes = (uint32_t)pitch;
    return 0;
}

/* "slot" and "disabled". */
static void parse_binding(launch_ctx *c, const launch_path *p, json_t *img, launch_image *m)
{
    uint64_t slot;
    if (launch_get_uint(c, p, img, "slot", 0, 0, MAX_SLOT, &slot) > 0) {
        const launch_desc *d = c->desc;
        for (size_t i = 0; i < d->nbuffers; i++) {
            const launch_image *o = d->buffers[i].image;
            if (o && o->has_slot && o->slot == slot) {
                launch_path sp = launch_path_key(p, "slot");
                launch_error(c, "LAUNCH-IMAGE-009", &sp, 0, "slot %" PRIu64 " also holds image "
                             "\"%s\"", slot, d->buffers[i].name);
                return;
            }
        }
        m->has_slot = 1;
        m->slot = (uint32_t)slot;
    }
    json_t *dis = json_object_get(img, "disabled");
    if (dis && !json_is_boolean(dis)) {
        launch_path dp = launch_path_key(p, "disabled");
        launch_error(c, "LAUNCH-TYPE-001", &dp, 0, "expected true or false");
    }
    m->disabled = dis && json_is_true(dis);
}

static void parse_image(launch_ctx *c, const launch_path *p, const char *name, json_t *v,
                        launch_buffer *b)
{
    static const char *const keys[] = {"dim", "format", "width", "height", "depth", "layers",
                                       "layout", "init", "slot", "disabled", "levels", NULL};
    launch_image *m = arena_alloc(&c->desc->arena, sizeof *m);
    b->name = launch_copy_string(c, name);
    if (!m || !b->name)
        return;
    memset(m, 0, sizeof *m);
    if (!launch_valid_name(name))
        launch_error(c, "LAUNCH-NAME-001", p, 1, "image name \"%.80s\" must be 1 to 64 letters, "
                     "digits or '_', not starting with a digit", name);
    else if (launch_find_buffer(c->desc, name) >= 0)
        launch_error(c, "LAUNCH-IMAGE-010", p, 1, "\"%.80s\" is also the name of a buffer", name);
    if (launch_want_object(c, p, v) != 0)
        return;
    launch_check_keys(c, p, v, keys);
    const char *dim;
    if (launch_get_string(c, p, v, "dim", 1, &dim) > 0) {
        for (uint8_t i = 1; i <= IR_IMAGE_CUBE_ARRAY; i++)
            if (strcmp(dim, dim_names[i]) == 0)
                m->dim = i;
        if (!m->dim) {
            launch_path dp = launch_path_key(p, "dim");
            launch_error(c, "LAUNCH-IMAGE-001", &dp, 0, "unknown dim \"%.40s\" (expected 1d, "
                         "1d_buffer, 1d_array, 2d, 2d_array, 3d, cube or cube_array)", dim);
        }
    }
    int format_ok = parse_format(c, p, v, m) == 0;
    int extent_ok = parse_extent(c, p, v, m) == 0;
    int layout_ok = parse_layout(c, p, v, m, format_ok) == 0;
    parse_binding(c, p, v, m);
    b->image = m;
    if (!format_ok || !extent_ok || !layout_ok)
        return;
    b->type = channel_elem(m);
    uint64_t texels = 0; /* every level's, level 0 first (docs/launch-files.md, "Images") */
    for (uint32_t k = 0; k < m->levels; k++)
        texels += (uint64_t)(m->width >> k ? m->width >> k : 1) *
                  (m->height >> k ? m->height >> k : 1) *
                  (m->depth >> k ? m->depth >> k : 1) * m->layers;
    if (texels > UINT64_MAX / 4 / m->channels) /* cannot happen with the limits above */
        return;
    b->count = texels * m->channels;
    launch_path wp = launch_path_key(p, "width");
    if (launch_reserve_bytes(c, &wp, b->count, launch_elem_bytes(b->type)) != 0)
        return;
    b->bytes = b->count * launch_elem_bytes(b->type);
    json_t *init = json_object_get(v, "init");
    launch_path ip = launch_path_key(p, "init");
    if (init)
        launch_parse_init(c, &ip, init, b);
}

/* {"surface": NAME}: the handle of image NAME. */
void launch_parse_surface_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a)
{
    static const char *const keys[] = {"surface", NULL};
    launch_check_keys(c, p, v, keys);
    a->kind = LAUNCH_ARG_SURFACE;
    const char *name;
    if (launch_get_string(c, p, v, "surface", 1, &name) <= 0)
        return;
    long index = launch_find_buffer(c->desc, name);
    launch_path sp = launch_path_key(p, "surface");
    if (index < 0)
        launch_error(c, "LAUNCH-REF-001", &sp, 0, "no image named \"%s\" is declared", name);
    else if (!c->desc->buffers[index].image)
        launch_error(c, "LAUNCH-ARG-003", &sp, 0, "\"%s\" is a buffer, not an image: pass it "
                     "as {\"buffer\": \"%s\"}", name, name);
    else
        a->buffer = (size_t)index;
}

void launch_parse_images(launch_ctx *c, json_t *root)
{
    launch_path top = {0};
    launch_desc *d = c->desc;
    uint64_t pool_max;
    if (launch_get_uint(c, &top, root, "image_pool_max", 0, 0, MAX_HEADER_INDEX, &pool_max) > 0) {
        d->has_image_pool_max = 1;
        d->image_pool_max = (uint32_t)pool_max;
    }
    launch_path p = launch_path_key(&top, "images");
    json_t *v = json_object_get(root, "images");
    if (!v || launch_want_object(c, &p, v) != 0)
        return;
    /* Room for the images after the buffers (the arena keeps the old array). */
    launch_buffer *all = arena_alloc(&d->arena, (d->nbuffers + json_object_size(v) + 1) *
                                                    sizeof *all);
    if (!all) {
        diag_add(c->dl, DIAG_ERROR, "LAUNCH-IO-001", c->file, 0, 0, "out of memory");
        c->errors++;
        return;
    }
    if (d->nbuffers)
        memcpy(all, d->buffers, d->nbuffers * sizeof *all);
    d->buffers = all;
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value) {
        launch_path ip = launch_path_key(&p, name);
        launch_buffer *b = &d->buffers[d->nbuffers];
        memset(b, 0, sizeof *b);
        parse_image(c, &ip, name, value, b);
        if (b->name)
            d->nbuffers++;
    }
}

/* The "textures" section of a launch file and {"texture": NAME} arguments (docs/launch-files.md,
 * "Textures").
 *
 * A texture names an image of the "images" section and gives a sampler as cudaTextureDesc does:
 * an address mode per dimension, a filter, normalized coordinates, a read mode and a border
 * colour. This file checks each field with its own rule id and applies the two rules that tie a
 * sampler to its image's format (the rules mem/mem_texture.h's mem_sampler_check applies when
 * the sim creates the texture, which this layer cannot call: launch/ does not depend on mem/). */
#include "launch/launch_internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ir/ir.h"

enum { MAX_SLOT = 8191 }; /* SASS #tsPtrIdxU13 */

static const char *const address_names[] = {"wrap", "clamp", "mirror", "border"};

/* The index of `s` in names[0..n-1], or -1. */
static int find_name(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Filtered dimensions of an image's geometry: the layer of an array is no address dimension;
 * a cube has none (its faces are clamped). */
static unsigned image_dims(const launch_image *m)
{
    if (m->dim >= IR_IMAGE_CUBE)
        return 0;
    return m->dim == IR_IMAGE_3D ? 3 : (m->dim == IR_IMAGE_2D || m->dim == IR_IMAGE_2D_ARRAY) ? 2
                                                                                              : 1;
}

/* "image": the index of the image it reads, or -1 after LAUNCH-REF-001. */
static long parse_image_ref(launch_ctx *c, const launch_path *p, json_t *v)
{
    const char *name;
    if (launch_get_string(c, p, v, "image", 1, &name) <= 0)
        return -1;
    long index = launch_find_buffer(c->desc, name);
    if (index >= 0 && c->desc->buffers[index].image)
        return index;
    launch_path ip = launch_path_key(p, "image");
    launch_error(c, "LAUNCH-REF-001", &ip, 0, "no image named \"%.80s\" is declared%s", name,
                 index >= 0 ? " (a buffer of that name is not an image)" : "");
    return -1;
}

/* "address": one mode per dimension of the image. Returns 0 or -1. */
static int parse_address(launch_ctx *c, const launch_path *p, json_t *v, unsigned dims,
                         int cube, launch_texture *t)
{
    json_t *a = json_object_get(v, "address");
    if (!a)
        return 0;
    launch_path ap = launch_path_key(p, "address");
    if (!json_is_array(a)) {
        launch_error(c, "LAUNCH-TYPE-001", &ap, 0, "expected an array of address modes");
        return -1;
    }
    if (cube) {
        launch_error(c, "LAUNCH-TEX-002", &ap, 0, "a cube texture takes no address modes: "
                     "coordinates on a face are clamped to it (docs/images.md, \"Cube "
                     "textures\")");
        return -1;
    }
    if (dims && json_array_size(a) != dims) {
        launch_error(c, "LAUNCH-TEX-002", &ap, 0, "%zu address modes for an image of %u "
                     "dimension%s; give one per dimension", json_array_size(a), dims,
                     dims == 1 ? "" : "s");
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < json_array_size(a) && i < 3; i++) {
        launch_path ep = launch_path_index(&ap, i);
        const char *s = json_string_value(json_array_get(a, i));
        int mode = s ? find_name(s, address_names, 4) : -1;
        if (!s) {
            launch_error(c, "LAUNCH-TYPE-001", &ep, 0, "expected a string");
            bad = -1;
        } else if (mode < 0) {
            launch_error(c, "LAUNCH-TEX-001", &ep, 0, "unknown address mode \"%.40s\" (expected "
                         "wrap, clamp, mirror or border)", s);
            bad = -1;
        } else {
            t->address[i] = (uint8_t)mode;
        }
    }
    return bad;
}

/* A key whose value is one of two words: *out = 0 or 1. Returns 0 or -1. */
static int parse_choice(launch_ctx *c, const launch_path *p, json_t *v, const char *key,
                        const char *const words[2], const char *rule, uint8_t *out)
{
    const char *s;
    int got = launch_get_string(c, p, v, key, 0, &s);
    if (got <= 0)
        return got;
    int i = find_name(s, words, 2);
    if (i < 0) {
        launch_path kp = launch_path_key(p, key);
        launch_error(c, rule, &kp, 0, "unknown %s \"%.40s\" (expected %s or %s)", key, s,
                     words[0], words[1]);
        return -1;
    }
    *out = (uint8_t)i;
    return 0;
}

/* "normalized" and "border". Returns 0 or -1. */
static int parse_coords(launch_ctx *c, const launch_path *p, json_t *v, launch_texture *t)
{
    int bad = 0;
    json_t *n = json_object_get(v, "normalized");
    if (n && !json_is_boolean(n)) {
        launch_path np = launch_path_key(p, "normalized");
        launch_error(c, "LAUNCH-TYPE-001", &np, 0, "expected true or false");
        bad = -1;
    }
    t->normalized = n && json_is_true(n);
    json_t *b = json_object_get(v, "border");
    if (!b)
        return bad;
    launch_path bp = launch_path_key(p, "border");
    if (!json_is_array(b) || json_array_size(b) != 4) {
        launch_error(c, "LAUNCH-TEX-005", &bp, 0, "the border colour is an array of 4 numbers "
                     "(one per channel)");
        return -1;
    }
    for (size_t i = 0; i < 4; i++) {
        json_t *e = json_array_get(b, i);
        if (!json_is_number(e)) {
            launch_path ep = launch_path_index(&bp, i);
            launch_error(c, "LAUNCH-TYPE-001", &ep, 0, "expected a number");
            return -1;
        }
        t->border[i] = (float)json_number_value(e);
    }
    return bad;
}

/* The sampler against its image's format: CUDA refuses both at cudaCreateTextureObject. */
static void check_format(launch_ctx *c, const launch_path *p, const launch_texture *t,
                         const launch_image *m)
{
    int integer = m->kind != 2;
    const char *why = NULL;
    if (t->read == 1 && integer && m->bits == 32)
        why = "a normalized_float read needs 8- or 16-bit integer texels";
    else if ((t->filter == 1 || t->mipmap_filter == 1) && integer && t->read == 0)
        why = "linear filtering needs float texels or a normalized_float read";
    if (why)
        launch_error(c, "LAUNCH-TEX-006", p, 1, "%s (image \"%s\" has %u-bit %s channels)", why,
                     c->desc->buffers[t->image].name, m->bits,
                     m->kind == 0 ? "signed" : m->kind == 1 ? "unsigned" : "float");
}

/* "slot": a header-pool word that no image and no other texture holds. */
static void parse_slot(launch_ctx *c, const launch_path *p, json_t *v, launch_texture *t)
{
    uint64_t slot;
    if (launch_get_uint(c, p, v, "slot", 0, 0, MAX_SLOT, &slot) <= 0)
        return;
    const launch_desc *d = c->desc;
    const char *holder = NULL, *what = "image";
    for (size_t i = 0; i < d->nbuffers && !holder; i++) {
        const launch_image *o = d->buffers[i].image;
        if (o && o->has_slot && o->slot == slot)
            holder = d->buffers[i].name;
    }
    for (size_t i = 0; i < d->ntextures && !holder; i++)
        if (d->textures[i].has_slot && d->textures[i].slot == slot)
            holder = d->textures[i].name, what = "texture";
    if (holder) {
        launch_path sp = launch_path_key(p, "slot");
        launch_error(c, "LAUNCH-TEX-007", &sp, 0, "slot %" PRIu64 " also holds %s \"%s\"", slot,
                     what, holder);
        return;
    }
    t->has_slot = 1;
    t->slot = (uint32_t)slot;
}

/* A number key of the mipmap fields into *out (left alone when absent). Returns 0 or -1. */
static int parse_real(launch_ctx *c, const launch_path *p, json_t *v, const char *key,
                      float *out)
{
    json_t *n = json_object_get(v, key);
    if (!n)
        return 0;
    if (!json_is_number(n) || fabs(json_number_value(n)) > 1e6) {
        launch_path kp = launch_path_key(p, key);
        launch_error(c, "LAUNCH-TYPE-001", &kp, 0, "expected a number from -1e6 to 1e6");
        return -1;
    }
    *out = (float)json_number_value(n);
    return 0;
}

/* "mipmap_filter", "mipmap_level_bias", "min_mipmap_level_clamp", "max_mipmap_level_clamp"
 * (cudaTextureDesc's fields; zero when absent, as in a zeroed descriptor). Returns 0 or -1. */
static int parse_mipmap(launch_ctx *c, const launch_path *p, json_t *v, launch_texture *t)
{
    static const char *const filters[] = {"point", "linear"};
    int bad = parse_choice(c, p, v, "mipmap_filter", filters, "LAUNCH-TEX-008",
                           &t->mipmap_filter);
    bad |= parse_real(c, p, v, "mipmap_level_bias", &t->lod_bias);
    int clamps = parse_real(c, p, v, "min_mipmap_level_clamp", &t->min_lod) |
                 parse_real(c, p, v, "max_mipmap_level_clamp", &t->max_lod);
    if (!clamps && t->min_lod > t->max_lod) {
        launch_path kp = launch_path_key(p, "min_mipmap_level_clamp");
        launch_error(c, "LAUNCH-TEX-009", &kp, 0, "the minimum level clamp %g is above the "
                     "maximum %g", (double)t->min_lod, (double)t->max_lod);
        return -1;
    }
    return bad | clamps;
}

static void parse_texture(launch_ctx *c, const launch_path *p, const char *name, json_t *v,
                          launch_texture *t)
{
    static const char *const keys[] = {"image", "address", "filter", "normalized", "read",
                                       "border", "slot", "mipmap_filter", "mipmap_level_bias",
                                       "min_mipmap_level_clamp", "max_mipmap_level_clamp", NULL};
    static const char *const filters[] = {"point", "linear"};
    static const char *const reads[] = {"element", "normalized_float"};
    t->name = launch_copy_string(c, name);
    if (!t->name)
        return;
    if (!launch_valid_name(name))
        launch_error(c, "LAUNCH-NAME-001", p, 1, "texture name \"%.80s\" must be 1 to 64 "
                     "letters, digits or '_', not starting with a digit", name);
    if (launch_want_object(c, p, v) != 0)
        return;
    launch_check_keys(c, p, v, keys);
    long image = parse_image_ref(c, p, v);
    const launch_image *m = image >= 0 ? c->desc->buffers[image].image : NULL;
    t->image = image >= 0 ? (size_t)image : 0;
    int bad = parse_address(c, p, v, m ? image_dims(m) : 0, m && m->dim >= IR_IMAGE_CUBE, t);
    bad |= parse_choice(c, p, v, "filter", filters, "LAUNCH-TEX-003", &t->filter);
    bad |= parse_choice(c, p, v, "read", reads, "LAUNCH-TEX-004", &t->read);
    bad |= parse_coords(c, p, v, t);
    bad |= parse_mipmap(c, p, v, t);
    parse_slot(c, p, v, t);
    if (m && !bad)
        check_format(c, p, t, m);
}

void launch_parse_textures(launch_ctx *c, json_t *root)
{
    launch_path top = {0};
    launch_desc *d = c->desc;
    launch_path p = launch_path_key(&top, "textures");
    json_t *v = json_object_get(root, "textures");
    if (!v || launch_want_object(c, &p, v) != 0)
        return;
    d->textures = arena_alloc(&d->arena, (json_object_size(v) + 1) * sizeof *d->textures);
    if (!d->textures) {
        diag_add(c->dl, DIAG_ERROR, "LAUNCH-IO-001", c->file, 0, 0, "out of memory");
        c->errors++;
        return;
    }
    const char *name;
    json_t *value;
    json_object_foreach(v, name, value) {
        launch_path tp = launch_path_key(&p, name);
        launch_texture *t = &d->textures[d->ntextures];
        memset(t, 0, sizeof *t);
        parse_texture(c, &tp, name, value, t);
        if (t->name)
            d->ntextures++;
    }
}

void launch_parse_texture_arg(launch_ctx *c, const launch_path *p, json_t *v, launch_arg *a)
{
    static const char *const keys[] = {"texture", NULL};
    launch_check_keys(c, p, v, keys);
    a->kind = LAUNCH_ARG_TEXTURE;
    const char *name;
    if (launch_get_string(c, p, v, "texture", 1, &name) <= 0)
        return;
    for (size_t i = 0; i < c->desc->ntextures; i++)
        if (strcmp(c->desc->textures[i].name, name) == 0) {
            a->texture = i;
            return;
        }
    launch_path tp = launch_path_key(p, "texture");
    launch_error(c, "LAUNCH-REF-001", &tp, 0, "no texture named \"%.80s\" is declared", name);
}

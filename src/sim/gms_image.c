/* Images of the public API (gpumemsim.h; docs/api.md, "Images"): creation in device memory and
 * the device's image table (mem/mem_image.h), host copies of all texels converted between the
 * caller's x-fastest order and the image's layout, the SASS header pool's slots, and freeing.
 *
 * The conversion goes through a host copy of the whole layout, so one memsys host copy moves
 * the image: pitch and block-linear padding is written as zero. */
#include <stdlib.h>
#include <string.h>

#include "sim/gms_internal.h"

enum { MAX_SLOT = 8191 }; /* SASS #tsPtrIdxU13 */

static mem_image_desc desc_to_mem(const gms_image_desc *g)
{
    mem_image_desc d;
    memset(&d, 0, sizeof d);
    d.dim = (uint8_t)g->dim;
    d.channels = g->channels > 255 ? 0 : (uint8_t)g->channels;
    d.bits = g->bits > 255 ? 0 : (uint8_t)g->bits;
    d.kind = (unsigned)g->kind > 255 ? 255 : (uint8_t)g->kind;
    d.width = g->width;
    d.height = g->height;
    d.depth = g->depth;
    d.layers = g->layers;
    d.layout = g->block_linear ? MEM_IMAGE_BLOCK_LINEAR : MEM_IMAGE_PITCH;
    d.pitch_bytes = g->pitch_bytes;
    /* 0 fails the power-of-two check, as any value above 32 does. */
    d.block_height = g->block_height > 32 ? 0 : (uint8_t)g->block_height;
    d.block_depth = g->block_depth > 32 ? 0 : (uint8_t)g->block_depth;
    d.disabled = g->disabled != 0;
    d.levels = g->levels > 255 ? 255 : (uint8_t)(g->levels ? g->levels : 1);
    return d;
}

gms_status gms_image_create(gms_device *dev, const gms_image_desc *desc, uint64_t *handle,
                            gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = GMS_OK;
    mem_image_desc d;
    const char *why = NULL;
    if (!dev || !desc || !handle) {
        st = gms_bad_argument(dl, "gms_image_create", "an argument is NULL");
    } else if (d = desc_to_mem(desc), (why = mem_image_check(&d)) != NULL) {
        diag_add(dl, DIAG_ERROR, "API-IMAGE-001", "", 0, 0, "gms_image_create: %s", why);
        st = GMS_ERR_ARGUMENT;
    } else {
        st = gms_device_alloc(dev, mem_image_bytes(&d), &d.base, caller);
    }
    if (st == GMS_OK) {
        uint32_t index = mem_image_table_add(memsys_images(dev->ms), &d);
        if (!index) {
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0,
                     "gms_image_create: the image table is full or host memory ran out");
            st = GMS_ERR_NOMEM;
        }
        *handle = index;
    }
    gms_sink_close(&s);
    return st;
}

/* The live image of `handle`, or NULL. */
static const mem_image_desc *find(const gms_device *dev, uint64_t handle)
{
    return dev && dev->ms ? mem_image_table_at(memsys_images(dev->ms), handle) : NULL;
}

/* Texels of every level. */
static uint64_t texel_count(const mem_image_desc *d)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < (d->levels ? d->levels : 1u); k++) {
        mem_image_desc lv;
        mem_image_level(d, k, &lv);
        n += (uint64_t)lv.width * lv.height * lv.depth * lv.layers;
    }
    return n;
}

gms_status gms_image_info_get(const gms_device *dev, uint64_t handle, gms_image_info *out)
{
    if (!dev || !out)
        return GMS_ERR_ARGUMENT;
    const mem_image_desc *d = find(dev, handle);
    if (!d)
        return GMS_ERR_NOT_FOUND;
    out->base = d->base;
    out->bytes = mem_image_bytes(d);
    out->texel_bytes = mem_image_texel_bytes(d);
    out->texels = texel_count(d);
    return GMS_OK;
}

/* Copies between `texels` (x-fastest order, level after level) and `layout` (the image's
 * memory image): to the layout when `to_layout`, else from it. Each run of up to 16 bytes of a
 * row is contiguous in both layouts. */
static void convert(const mem_image_desc *img, uint8_t *texels, uint8_t *layout, int to_layout)
{
    uint64_t at = 0;
    for (uint32_t k = 0; k < (img->levels ? img->levels : 1u); k++) {
        mem_image_desc lv;
        mem_image_level(img, k, &lv);
        const mem_image_desc *d = &lv;
        uint64_t row = (uint64_t)d->width * mem_image_texel_bytes(d);
        for (uint32_t l = 0; l < d->layers; l++)
            for (uint32_t z = 0; z < d->depth; z++)
                for (uint32_t y = 0; y < d->height; y++)
                    for (uint64_t x = 0; x < row; x += 16) {
                        uint64_t n = row - x < 16 ? row - x : 16;
                        uint8_t *m = layout + (d->base - img->base) +
                                     mem_image_byte_offset(d, x, y, z, l);
                        if (to_layout)
                            memcpy(m, texels + at, n);
                        else
                            memcpy(texels + at, m, n);
                        at += n;
                    }
    }
}

/* gms_image_write and gms_image_read. */
static gms_status copy(gms_device *dev, uint64_t handle, void *host, uint64_t bytes, int writing,
                       diag_list *dl)
{
    const char *call = writing ? "gms_image_write" : "gms_image_read";
    if (!dev || !host)
        return gms_bad_argument(dl, call, !dev ? "dev is NULL" : "the host buffer is NULL");
    const mem_image_desc *d = find(dev, handle);
    if (!d) {
        diag_add(dl, DIAG_ERROR, "API-IMAGE-002", "", 0, 0, "%s: no image has handle %llu", call,
                 (unsigned long long)handle);
        return GMS_ERR_NOT_FOUND;
    }
    uint64_t want = texel_count(d) * mem_image_texel_bytes(d), size = mem_image_bytes(d);
    if (bytes != want) {
        diag_add(dl, DIAG_ERROR, "API-IMAGE-003", "", 0, 0, "%s: %llu bytes given; the image's "
                 "texels are %llu bytes", call, (unsigned long long)bytes,
                 (unsigned long long)want);
        return GMS_ERR_RANGE;
    }
    gms_status st = gms_device_check_range(dev, d->base, size, writing, call, dl);
    if (st != GMS_OK)
        return st;
    uint8_t *layout = calloc(size ? size : 1, 1);
    if (!layout) {
        diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0, "%s: out of host memory", call);
        return GMS_ERR_NOMEM;
    }
    if (writing) {
        convert(d, host, layout, 1);
        st = gms_device_copy_in(dev, d->base, layout, size, dl);
    } else if ((st = gms_device_copy_out(dev, d->base, layout, size, dl)) == GMS_OK) {
        convert(d, host, layout, 0);
    }
    free(layout);
    return st;
}

gms_status gms_image_write(gms_device *dev, uint64_t handle, const void *src, uint64_t bytes,
                           gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = copy(dev, handle, (void *)src, bytes, 1, gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

gms_status gms_image_read(gms_device *dev, uint64_t handle, void *dst, uint64_t bytes,
                          gms_diag_list *caller)
{
    gms_sink s;
    gms_status st = copy(dev, handle, dst, bytes, 0, gms_sink_open(&s, caller));
    gms_sink_close(&s);
    return st;
}

/* API-IMAGE-002 unless `handle` names a live image of dev. */
static gms_status need_image(const gms_device *dev, uint64_t handle, const char *call,
                             diag_list *dl)
{
    if (!dev)
        return gms_bad_argument(dl, call, "dev is NULL");
    if (find(dev, handle))
        return GMS_OK;
    diag_add(dl, DIAG_ERROR, "API-IMAGE-002", "", 0, 0, "%s: no image has handle %llu", call,
             (unsigned long long)handle);
    return GMS_ERR_NOT_FOUND;
}

gms_status gms_image_pool_set(gms_device *dev, uint32_t slot, uint32_t word, const char *call,
                              diag_list *dl)
{
    if (slot > MAX_SLOT)
        return gms_bad_argument(dl, call, "slot is above 8191");
    if (slot >= dev->image_pool_words) {
        uint32_t *pool = realloc(dev->image_pool, ((size_t)slot + 1) * sizeof *pool);
        if (!pool) {
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0, "%s: out of host memory", call);
            return GMS_ERR_NOMEM;
        }
        memset(pool + dev->image_pool_words, 0,
               (slot + 1 - dev->image_pool_words) * sizeof *pool);
        dev->image_pool = pool;
        dev->image_pool_words = slot + 1;
    }
    dev->image_pool[slot] = word;
    return GMS_OK;
}

void gms_image_pool_forget(gms_device *dev, uint32_t word)
{
    for (uint32_t i = 0; i < dev->image_pool_words; i++)
        if (dev->image_pool[i] == word)
            dev->image_pool[i] = 0;
}

gms_status gms_image_set_slot(gms_device *dev, uint64_t handle, uint32_t slot,
                              gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = need_image(dev, handle, "gms_image_set_slot", dl);
    if (st == GMS_OK) /* headerPtr; samplerPtr 0 */
        st = gms_image_pool_set(dev, slot, (uint32_t)handle, "gms_image_set_slot", dl);
    gms_sink_close(&s);
    return st;
}

gms_status gms_image_free(gms_device *dev, uint64_t handle, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = need_image(dev, handle, "gms_image_free", dl);
    if (st == GMS_OK) {
        mem_image_table_remove(memsys_images(dev->ms), handle);
        gms_image_pool_forget(dev, (uint32_t)handle);
    }
    gms_sink_close(&s);
    return st;
}

void gms_image_prepare_launch(gms_device *dev, const gms_module *m, const uint32_t **pool,
                              uint32_t *words)
{
    mem_image_table *t = memsys_images(dev->ms);
    t->pool_max = dev->has_image_pool_max ? dev->image_pool_max : t->count;
    int has_pool = m->ir->machine.has_image_bank;
    *pool = has_pool && dev->image_pool_words ? dev->image_pool : NULL;
    *words = *pool ? dev->image_pool_words : 0;
}

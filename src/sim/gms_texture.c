/* Texture objects of the public API (gpumemsim.h; docs/api.md, "Textures"): a sampler in the
 * memory system's sampler table (mem/mem_texture.h) paired with a live image, the handle
 * `sampler index << 20 | image header index` that kernels read through, its header-pool slots,
 * and freeing. Each texture gets its own sampler, so the sampler index names the texture. */
#include <string.h>

#include "sim/gms_internal.h"

/* The sampler of a texture handle, or NULL when `handle` names no live texture. */
static const mem_sampler *find(const gms_device *dev, uint64_t handle)
{
    if (!dev || !dev->ms || handle >> 32)
        return NULL;
    return mem_sampler_table_get(memsys_samplers(dev->ms), handle >> MEM_TEX_SAMPLER_SHIFT);
}

/* API-TEX-002 unless `handle` names a live texture of dev. */
static gms_status need_texture(const gms_device *dev, uint64_t handle, const char *call,
                               diag_list *dl)
{
    if (!dev)
        return gms_bad_argument(dl, call, "dev is NULL");
    if (find(dev, handle))
        return GMS_OK;
    diag_add(dl, DIAG_ERROR, "API-TEX-002", "", 0, 0, "%s: no texture has handle %llu", call,
             (unsigned long long)handle);
    return GMS_ERR_NOT_FOUND;
}

/* The sampler of `d`; modes out of the enums' ranges stay out of range for mem_sampler_check. */
static mem_sampler sampler_of(const gms_texture_desc *d)
{
    mem_sampler s;
    memset(&s, 0, sizeof s);
    for (unsigned i = 0; i < 3; i++)
        s.address[i] = (unsigned)d->address[i] > 255 ? 255 : (uint8_t)d->address[i];
    s.filter = (unsigned)d->filter > 255 ? 255 : (uint8_t)d->filter;
    s.normalized = d->normalized != 0;
    s.read = (unsigned)d->read > 255 ? 255 : (uint8_t)d->read;
    memcpy(s.border, d->border, sizeof s.border);
    s.mip_filter = (unsigned)d->mipmap_filter > 255 ? 255 : (uint8_t)d->mipmap_filter;
    s.lod_bias = d->mipmap_level_bias;
    s.min_lod = d->min_mipmap_level_clamp;
    s.max_lod = d->max_mipmap_level_clamp;
    return s;
}

gms_status gms_texture_create(gms_device *dev, const gms_texture_desc *desc, uint64_t *handle,
                              gms_diag_list *caller)
{
    gms_sink sk;
    diag_list *dl = gms_sink_open(&sk, caller);
    gms_status st = GMS_OK;
    const mem_image_desc *img = NULL;
    mem_sampler s;
    const char *why;
    if (!dev || !desc || !handle) {
        st = gms_bad_argument(dl, "gms_texture_create", "an argument is NULL");
    } else if (!dev->ms || desc->image > MEM_IMAGE_MAX_INDEX ||
               !(img = mem_image_table_get(memsys_images(dev->ms), desc->image))) {
        diag_add(dl, DIAG_ERROR, "API-IMAGE-002", "", 0, 0, "gms_texture_create: no image has "
                 "handle %llu", (unsigned long long)desc->image);
        st = GMS_ERR_NOT_FOUND;
    } else if (s = sampler_of(desc), (why = mem_sampler_check(&s, img)) != NULL) {
        diag_add(dl, DIAG_ERROR, "API-TEX-001", "", 0, 0, "gms_texture_create: %s", why);
        st = GMS_ERR_ARGUMENT;
    } else {
        uint32_t index = mem_sampler_table_add(memsys_samplers(dev->ms), &s);
        if (!index) {
            diag_add(dl, DIAG_ERROR, "SIM-NOMEM-001", "", 0, 0, "gms_texture_create: the "
                     "sampler table is full (4095) or host memory ran out");
            st = GMS_ERR_NOMEM;
        }
        *handle = (uint64_t)index << MEM_TEX_SAMPLER_SHIFT | desc->image;
    }
    gms_sink_close(&sk);
    return st;
}

gms_status gms_texture_set_slot(gms_device *dev, uint64_t handle, uint32_t slot,
                                gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = need_texture(dev, handle, "gms_texture_set_slot", dl);
    if (st == GMS_OK) /* samplerPtr[31:20] | headerPtr[19:0] */
        st = gms_image_pool_set(dev, slot, (uint32_t)handle, "gms_texture_set_slot", dl);
    gms_sink_close(&s);
    return st;
}

gms_status gms_texture_free(gms_device *dev, uint64_t handle, gms_diag_list *caller)
{
    gms_sink s;
    diag_list *dl = gms_sink_open(&s, caller);
    gms_status st = need_texture(dev, handle, "gms_texture_free", dl);
    if (st == GMS_OK) {
        mem_sampler_table_remove(memsys_samplers(dev->ms), handle >> MEM_TEX_SAMPLER_SHIFT);
        gms_image_pool_forget(dev, (uint32_t)handle);
    }
    gms_sink_close(&s);
    return st;
}

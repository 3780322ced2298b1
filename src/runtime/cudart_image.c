/* CUDA arrays, surface objects and texture objects of gpumemsim's libcudart on the images of the
 * public API (docs/images.md; docs/cuda-runtime.md, "Runtime API"): an array is a gms image in
 * the block-linear layout, a surface object is the image's handle and a texture object the
 * handle of a gms texture over it. Copies into and out of an array move whole images through
 * the host (gms_image_read / gms_image_write), so a copy of part of an array reads the image,
 * patches the rows and writes it back. Texture objects over linear or pitched memory are not
 * supported (cudaErrorNotSupported). */
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart_internal.h"

CUDART_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                 int f);
CUDART_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array,
                                          const struct cudaChannelFormatDesc *desc, size_t width,
                                          size_t height, unsigned flags);
CUDART_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                            const struct cudaChannelFormatDesc *desc,
                                            struct cudaExtent extent, unsigned flags);
CUDART_EXPORT cudaError_t cudaFreeArray(cudaArray_t array);
CUDART_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
                                             cudaArray_t array);
CUDART_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t spitch, size_t width,
                                              size_t height, enum cudaMemcpyKind kind);
CUDART_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src,
                                                size_t wOffset, size_t hOffset, size_t width,
                                                size_t height, enum cudaMemcpyKind kind);
CUDART_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                                  const struct cudaResourceDesc *pResDesc);
CUDART_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
CUDART_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                                  const struct cudaResourceDesc *pResDesc,
                                                  const struct cudaTextureDesc *pTexDesc,
                                                  const void *pResViewDesc);
CUDART_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
CUDART_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind);

enum { ARRAY_MAGIC = 0x41525259 };

struct rt_array {
    unsigned magic;
    uint64_t handle;                   /* the gms image */
    struct cudaChannelFormatDesc desc;
    uint64_t row_bytes, rows;          /* of the texels, x-fastest: width x texel bytes, and
                                          height x depth x layers rows */
};

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

static int bad_array(cudaArray_t a)
{
    return !a || a->magic != ARRAY_MAGIC;
}

/* The gms descriptor of an array of `desc` texels and the extent; 0 or -1 (not modelled). */
static int image_desc(const struct cudaChannelFormatDesc *desc, struct cudaExtent e,
                      unsigned flags, gms_image_desc *out)
{
    int channels = (desc->x > 0) + (desc->y > 0) + (desc->z > 0) + (desc->w > 0);
    int layered = (flags & cudaArrayLayered) != 0;
    *out = (gms_image_desc){0};
    out->channels = (uint32_t)channels;
    out->bits = (uint32_t)desc->x;
    out->kind = (gms_image_kind)desc->f;
    out->width = (uint32_t)e.width;
    out->height = e.height ? (uint32_t)e.height : 1;
    out->depth = e.depth && !layered ? (uint32_t)e.depth : 1;
    out->layers = e.depth && layered ? (uint32_t)e.depth : 1;
    out->dim = layered ? (e.height ? GMS_IMAGE_2D_ARRAY : GMS_IMAGE_1D_ARRAY)
               : e.depth ? GMS_IMAGE_3D
               : e.height ? GMS_IMAGE_2D
                          : GMS_IMAGE_1D;
    out->block_linear = 1;
    out->block_height = out->block_depth = 1;
    return channels == 0 || channels == 3 || e.width == 0 || e.width > UINT32_MAX ||
                   e.height > UINT32_MAX || e.depth > UINT32_MAX
               ? -1
               : 0;
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned flags)
{
    gms_image_desc d;
    gms_device *dev = cudart_device();
    if (!array || !desc || image_desc(desc, extent, flags, &d))
        return cudart_set(cudaErrorInvalidValue);
    if (!dev)
        return cudart_set(cudaErrorInitializationError);
    struct rt_array *a = calloc(1, sizeof *a);
    if (!a)
        return cudart_set(cudaErrorMemoryAllocation);
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_image_create(dev, &d, &a->handle, dl);
    if (st != GMS_OK) {
        rt_print_diags("cudaMallocArray", dl);
        gms_diag_list_destroy(dl);
        free(a);
        return cudart_set(st == GMS_ERR_ARGUMENT ? cudaErrorInvalidValue
                                                 : cudart_from_status(st));
    }
    gms_diag_list_destroy(dl);
    a->magic = ARRAY_MAGIC;
    a->desc = *desc;
    a->row_bytes = (uint64_t)d.width * d.channels * d.bits / 8;
    a->rows = (uint64_t)d.height * d.depth * d.layers;
    *array = a;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned flags)
{
    struct cudaExtent e = {width, height, 0};
    return cudaMalloc3DArray(array, desc, e, flags & ~(unsigned)cudaArrayLayered);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    if (!array)
        return cudaSuccess;
    if (bad_array(array))
        return cudart_set(cudaErrorInvalidResourceHandle);
    gms_image_free(cudart_device(), array->handle, NULL);
    array->magic = 0;
    free(array);
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_t array)
{
    if (!desc || bad_array(array))
        return cudart_set(!desc ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    *desc = array->desc;
    return cudaSuccess;
}

/* Moves `height` rows of `width` bytes between the array's texels (from byte wOffset of row
 * hOffset) and host or device memory `mem` with `pitch` bytes per row. */
static cudaError_t array_copy(cudaArray_t a, size_t wOffset, size_t hOffset, void *mem,
                              size_t pitch, size_t width, size_t height, int to_array)
{
    if (bad_array(a))
        return cudart_set(cudaErrorInvalidResourceHandle);
    if (wOffset + width > a->row_bytes || hOffset + height > a->rows || width > pitch)
        return cudart_set(cudaErrorInvalidValue);
    gms_device *dev = cudart_device();
    uint64_t bytes = a->row_bytes * a->rows;
    uint8_t *texels = malloc(bytes ? bytes : 1);
    if (!texels)
        return cudart_set(cudaErrorMemoryAllocation);
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_image_read(dev, a->handle, texels, bytes, dl);
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; st == GMS_OK && r < height && !e; r++) {
        uint8_t *row = texels + (hOffset + r) * a->row_bytes + wOffset;
        char *m = (char *)mem + r * pitch;
        e = to_array ? cudaMemcpy(row, m, width, cudaMemcpyDefault)
                     : cudaMemcpy(m, row, width, cudaMemcpyDefault);
    }
    if (st == GMS_OK && !e && to_array)
        st = gms_image_write(dev, a->handle, texels, bytes, dl);
    free(texels);
    if (st != GMS_OK) {
        rt_print_diags(to_array ? "cudaMemcpy2DToArray" : "cudaMemcpy2DFromArray", dl);
        e = cudart_from_status(st);
    }
    gms_diag_list_destroy(dl);
    return e ? cudart_set(e) : cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind)
{
    (void)kind; /* the pointer tells host from device memory */
    return array_copy(dst, wOffset, hOffset, (void *)(uintptr_t)src, spitch, width, height, 1);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind)
{
    (void)kind;
    return array_copy(src, wOffset, hOffset, dst, dpitch, width, height, 0);
}

/* The array a resource descriptor names; NULL when it names something else. */
static cudaArray_t resource_array(const struct cudaResourceDesc *r)
{
    if (!r || r->resType != cudaResourceTypeArray || bad_array(r->res.array.array))
        return NULL;
    return r->res.array.array;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc)
{
    cudaArray_t a = resource_array(pResDesc);
    if (!pSurfObject || !a)
        return cudart_set(!pSurfObject || !pResDesc ? cudaErrorInvalidValue
                                                    : cudaErrorNotSupported);
    *pSurfObject = a->handle;
    return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    (void)surfObject; /* the handle is the array's, freed with it */
    return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const void *pResViewDesc)
{
    cudaArray_t a = resource_array(pResDesc);
    if (!pTexObject || !pTexDesc || !pResDesc)
        return cudart_set(cudaErrorInvalidValue);
    if (!a || pResViewDesc)
        return cudart_set(cudaErrorNotSupported);
    gms_texture_desc t = {.image = a->handle,
                          .filter = (gms_tex_filter)pTexDesc->filterMode,
                          .normalized = pTexDesc->normalizedCoords,
                          .read = (gms_tex_read)pTexDesc->readMode};
    for (int i = 0; i < 3; i++)
        t.address[i] = (gms_tex_address)pTexDesc->addressMode[i];
    memcpy(t.border, pTexDesc->borderColor, sizeof t.border);
    uint64_t handle;
    gms_diag_list *dl = gms_diag_list_create();
    gms_status st = gms_texture_create(cudart_device(), &t, &handle, dl);
    if (st != GMS_OK)
        rt_print_diags("cudaCreateTextureObject", dl);
    gms_diag_list_destroy(dl);
    if (st != GMS_OK)
        return cudart_set(st == GMS_ERR_ARGUMENT ? cudaErrorInvalidValue : cudart_from_status(st));
    *pTexObject = handle;
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    gms_device *dev = cudart_device();
    if (!dev || gms_texture_free(dev, texObject, NULL) != GMS_OK)
        return cudart_set(cudaErrorInvalidValue);
    return cudaSuccess;
}

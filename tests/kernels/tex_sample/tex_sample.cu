// Texture reads through texture objects: tex2D<float> of a 2D float image with point and with
// linear filtering (unnormalized coordinates, clamp addressing; some coordinates fall outside
// the image), tex1Dfetch<int> of a 1D buffer image, and a stale texture read: a texel read
// through a texture, overwritten through a surface on the same image, and read through the
// texture again in the same kernel still gives the old value (the texture cache is not kept
// coherent with writes made during the kernel).
#include <cuda_runtime.h>

__global__ void tex_filter(cudaTextureObject_t point, cudaTextureObject_t linear, float *out_point,
                           float *out_linear, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = (i % 20) * 0.7f - 0.9f;
    float y = (i / 20) * 0.55f - 0.35f;
    out_point[i] = tex2D<float>(point, x, y);
    out_linear[i] = tex2D<float>(linear, x, y);
}

__global__ void tex_fetch(cudaTextureObject_t buf, int *out, int n, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int>(buf, (i * 7) % len);
}

__global__ void tex_stale(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out, int width,
                          int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float before = tex2D<float>(tex, x + 0.5f, y + 0.5f);
    surf2Dwrite(-1.0f, surf, x * 4, y);
    float after = tex2D<float>(tex, x + 0.5f, y + 0.5f);
    out[2 * (y * width + x)] = before;
    out[2 * (y * width + x) + 1] = after;
}

// Mipmapped and cube textures through texture objects: tex2DLod<float> of a 3-level float
// image with point and with linear mipmap filtering (normalized coordinates, clamp addressing,
// LOD bias and clamps of the texture descriptor), tex2DGrad<float> (the LOD from gradients),
// texCubemap<float> of a cube image (face selection by major axis) and texCubemapLayered<float>
// of a cube array, and the number of levels a txq reports.
#include <cuda_runtime.h>

__global__ void tex_lod(cudaTextureObject_t point, cudaTextureObject_t linear, float *out_point,
                        float *out_linear, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float u = (i % 16) * 0.07f - 0.05f;
    float v = (i / 16 % 8) * 0.13f + 0.02f;
    float lod = (i / 128) * 0.45f - 0.3f;
    out_point[i] = tex2DLod<float>(point, u, v, lod);
    out_linear[i] = tex2DLod<float>(linear, u, v, lod);
}

__global__ void tex_grad(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float u = (i % 8) * 0.11f + 0.03f;
    float v = (i / 8 % 4) * 0.21f + 0.05f;
    float g = (i / 32) * 0.02f;
    float2 dx = make_float2(g, 0.5f * g);
    float2 dy = make_float2(-0.25f * g, 1.5f * g);
    out[i] = tex2DGrad<float>(tex, u, v, dx, dy);
}

__global__ void tex_cube(cudaTextureObject_t cube, cudaTextureObject_t cube_array, float *out,
                         float *out_layered, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = (i % 5) * 0.5f - 1.0f;
    float y = (i / 5 % 5) * 0.45f - 0.9f;
    float z = (i / 25 % 3) * 0.8f - 0.8f;
    if (x == 0.0f && y == 0.0f && z == 0.0f)
        z = 0.25f;
    out[i] = texCubemap<float>(cube, x, y, z);
    out_layered[i] = texCubemapLayered<float>(cube_array, x, y, z, i % 2);
}

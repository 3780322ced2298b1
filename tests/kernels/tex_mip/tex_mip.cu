// Mipmapped and cube textures through texture objects: tex2DLod<float> of a 3-level float
// image with point and with linear mipmap filtering (normalized coordinates, clamp addressing,
// LOD bias and clamps of the texture descriptor), tex2DGrad<float> (the LOD from gradients),
// texCubemap<float> of a cube image (face selection by major axis) and texCubemapLayered<float>
// of a cube array, and what txq reports of the levels and of the cubes.
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

// What txq reports of the mipmapped image (its level count, each level's extents; a level it
// does not have reads 0) and of the cube array (whole cubes), through inline PTX: CUDA has no
// texture query functions.
__global__ void tex_query(cudaTextureObject_t mip, cudaTextureObject_t cubes, int *out)
{
    int level = threadIdx.x, w, h, n, cubes_n;
    asm("txq.level.width.b32 %0, [%1], %2;" : "=r"(w) : "l"(mip), "r"(level));
    asm("txq.level.height.b32 %0, [%1], %2;" : "=r"(h) : "l"(mip), "r"(level));
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(n) : "l"(mip));
    asm("txq.array_size.b32 %0, [%1];" : "=r"(cubes_n) : "l"(cubes));
    out[4 * level] = w;
    out[4 * level + 1] = h;
    out[4 * level + 2] = n;
    out[4 * level + 3] = cubes_n;
}

// tex3DLod<float> of a 2-level 3D image between its levels: each lane's trilinear footprints
// in both levels (16 texels, rows of their own, pairs across a line boundary) make more lines
// than one warp-level access holds, so the fetch is made level by level.
__global__ void tex_volume(cudaTextureObject_t vol, float *out)
{
    int i = threadIdx.x;
    out[i] = tex3DLod<float>(vol, 0.5f, (2 * i + 1) / 64.0f, 0.5f, 0.5f);
}

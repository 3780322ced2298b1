// Texture gathers: tex2Dgather<float4> returns the four texels of the 2x2 footprint that
// bilinear filtering at (x, y) would blend, without blending them (PTX tld4.r), on a 2D float
// image with clamp addressing and unnormalized coordinates; some coordinates fall outside the
// image, so the footprint clamps at the edges.
#include <cuda_runtime.h>

__global__ void tex_gather(cudaTextureObject_t tex, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = (i % 16) * 0.8f - 1.3f;
    float y = (i / 16) * 0.6f - 0.7f;
    out[i] = tex2Dgather<float4>(tex, x, y, 0);
}

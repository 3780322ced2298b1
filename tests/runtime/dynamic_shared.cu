// Dynamic shared memory above the 48 KiB default, allowed by cudaFuncSetAttribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize): each CTA stages 16384 floats (64 KiB) in shared
// memory and writes them reversed. Without the attribute the same launch must fail.
#include "rt_check.h"

__global__ void reverse(float *out, const float *in, int per_block)
{
    extern __shared__ float stage[];
    const float *src = in + blockIdx.x * per_block;
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        stage[i] = src[i];
    __syncthreads();
    float *dst = out + blockIdx.x * per_block;
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        dst[i] = stage[per_block - 1 - i];
}

int main()
{
    const int per_block = 16384, blocks = 2, n = per_block * blocks;
    const size_t shared = per_block * sizeof(float);
    static float h[n], back[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)(i * 3);
    float *in, *out;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    reverse<<<blocks, 256, shared>>>(out, in, per_block);
    EXPECT(cudaGetLastError() != cudaSuccess, "a launch with 64 KiB of dynamic shared memory "
           "must fail before cudaFuncSetAttribute allows it");
    CHECK(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    reverse<<<blocks, 256, shared>>>(out, in, per_block);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int i = 0; i < per_block; i++)
            EXPECT(back[b * per_block + i] == h[b * per_block + per_block - 1 - i],
                   "out[%d] = %g", b * per_block + i, back[b * per_block + i]);
    std::printf("dynamic_shared: ok\n");
    return 0;
}

// Launches without <<<>>>: cudaLaunchKernel with an argument array, cudaLaunchKernelEx with a
// launch configuration, then the kernel's attributes (cudaFuncGetAttributes) and the occupancy
// calculator.
#include "rt_check.h"

__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1536;
    static float hx[n], hy[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    float *x, *y, a = 3.0f;
    int nn = n;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    void *args[] = {&a, &x, &y, &nn};
    CHECK(cudaLaunchKernel((const void *)axpy, dim3(n / 256), dim3(256), args, 0, 0));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(n / 128);
    config.blockDim = dim3(128);
    CHECK(cudaLaunchKernelEx(&config, axpy, 2.0f, (const float *)x, y, n));
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == 5.0f * i + 1.0f, "y[%d] = %g", i, hy[i]);
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, axpy));
    EXPECT(attr.maxThreadsPerBlock >= 256 && attr.numRegs > 0, "max threads %d, registers %d",
           attr.maxThreadsPerBlock, attr.numRegs);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, axpy, 256, 0));
    EXPECT(blocks >= 1 && blocks <= 32, "occupancy %d blocks of 256 threads", blocks);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    std::printf("launch_api: ok (%d registers, %d blocks per SM)\n", attr.numRegs, blocks);
    return 0;
}

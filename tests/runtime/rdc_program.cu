// A program built with relocatable device code (nvcc -rdc=true): its kernel calls twice(),
// which tests/fatbin/rdc_twice.cu defines, so the registered fat binary (a version-2 wrapper)
// holds cubins only and the PTX of both files is in its prelinked list (docs/cuda-runtime.md,
// "Fat binaries"). Run by tests/runtime/rdc_program.sh; prints "rdc_program: ok".
#include <cstdio>

__device__ float twice(float v);

__global__ void apply_twice(float *x)
{
    x[threadIdx.x] = twice(x[threadIdx.x]);
}

int main()
{
    float host[64], *dev = nullptr;
    for (int i = 0; i < 64; i++)
        host[i] = 0.5f * (float)i - 7.0f;
    if (cudaMalloc(&dev, sizeof host) != cudaSuccess ||
        cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice) != cudaSuccess) {
        printf("rdc_program: setup failed\n");
        return 1;
    }
    apply_twice<<<1, 64>>>(dev);
    cudaError_t launched = cudaGetLastError();
    float back[64];
    cudaError_t copied = cudaMemcpy(back, dev, sizeof back, cudaMemcpyDeviceToHost);
    if (launched != cudaSuccess || copied != cudaSuccess) {
        printf("rdc_program: %s / %s\n", cudaGetErrorName(launched), cudaGetErrorName(copied));
        return 1;
    }
    for (int i = 0; i < 64; i++)
        if (back[i] != 2.0f * host[i]) {
            printf("rdc_program: x[%d] = %g, expected %g\n", i, back[i], 2.0f * host[i]);
            return 1;
        }
    printf("rdc_program: ok\n");
    return 0;
}

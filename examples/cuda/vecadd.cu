// A small, ordinary CUDA program for `gpumemsim exec` (README.md, docs/cuda-runtime.md): it
// adds two vectors on the GPU, checks the sum on the host and prints what it found. Nothing in
// it knows about gpumemsim; built with `nvcc -cudart shared`, it runs on a real GPU or, under
// `gpumemsim exec`, on the simulated one, which reports what the memory hierarchy did.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 10000;
    static float a[n], b[n], c[n];
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.5f;
        b[i] = 2.0f * i;
    }
    float *da, *db, *dc;
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dc, sizeof c);
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    cudaError_t err = cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        std::fprintf(stderr, "vecadd: %s\n", cudaGetErrorString(err));
        return 1;
    }
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += c[i] != a[i] + b[i];
    std::printf("vecadd: %d of %d sums wrong\n", wrong, n);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return wrong != 0;
}

// 256-bin byte histogram: each block counts into a shared-memory histogram with shared atomics,
// then merges its non-zero bins into the global histogram with global atomics.
__global__ void histogram256(const unsigned char *__restrict__ data, int n, unsigned int *hist)
{
    __shared__ unsigned int local_hist[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local_hist[i] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local_hist[data[i]], 1u);
    __syncthreads();

    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        unsigned int count = local_hist[i];
        if (count != 0)
            atomicAdd(&hist[i], count);
    }
}

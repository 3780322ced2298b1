// Sum reduction: grid-stride accumulation per thread, a warp-shuffle tree (__shfl_down_sync),
// one partial per warp in shared memory, a second shuffle tree in warp 0, then one atomicAdd per
// block into the total. Each block's partial is also stored, for an exact check.
__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_shfl(const float *__restrict__ in, float *block_sums, float *total, int n)
{
    __shared__ float warp_sums[32];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = warp_sum(sum);

    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = (lane < (int)(blockDim.x >> 5)) ? warp_sums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0) {
            block_sums[blockIdx.x] = sum;
            atomicAdd(total, sum);
        }
    }
}

// Single-pass sum across blocks (as in the CUDA threadFenceReduction sample): each block reduces
// its slice in shared memory and stores a partial; thread 0 then issues __threadfence() so the
// partial is visible device-wide before it takes a ticket from a global atomic counter. The block
// that draws the last ticket reads every partial (volatile loads) and writes the total, then
// resets the counter so the kernel can be launched again.
__device__ unsigned int blocks_done = 0;

__device__ float block_reduce(float *sdata, float value)
{
    unsigned int tid = threadIdx.x;
    sdata[tid] = value;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    return sdata[0];
}

__global__ void reduce_last_block(const float *__restrict__ in, float *partials, float *result,
                                  int n)
{
    __shared__ float sdata[256];
    __shared__ bool is_last_block;
    unsigned int tid = threadIdx.x;

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = block_reduce(sdata, sum);

    if (tid == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();
        unsigned int ticket = atomicInc(&blocks_done, gridDim.x);
        is_last_block = ticket == gridDim.x - 1;
    }
    __syncthreads();

    if (is_last_block) {
        const volatile float *vpartials = partials;
        float value = tid < gridDim.x ? vpartials[tid] : 0.0f;
        __syncthreads();
        value = block_reduce(sdata, value);
        if (tid == 0) {
            *result = value;
            blocks_done = 0;
        }
    }
}

// Shared-memory bank conflicts: thread t stores to word t * stride and then reads its neighbour's
// word ((t + 1) mod blockDim) * stride. With 32 banks of 4 bytes, a warp's access is conflict-free
// for odd strides and 2-way, 4-way ... 32-way conflicted for strides 2, 4 ... 32. One launch per
// stride.
__global__ void bank_stride(unsigned int *out, unsigned int stride)
{
    __shared__ unsigned int words[32 * 128];
    unsigned int t = threadIdx.x;
    words[t * stride] = t * 1000u + blockIdx.x;
    __syncthreads();
    unsigned int neighbour = (t + 1) % blockDim.x;
    out[blockIdx.x * blockDim.x + t] = words[neighbour * stride] + stride;
}

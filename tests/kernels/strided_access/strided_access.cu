// Global-memory access with a word stride: thread i reads in[(i * stride) mod n]. One launch per
// stride (1 to 32 words), so a warp touches from 4 sectors (stride 1) up to 32 separate lines
// (stride 32): the coalescing and sector counts differ while the values stay simple.
__global__ void strided_gather(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(int)(((long long)i * stride) % n)] + 0.5f;
}

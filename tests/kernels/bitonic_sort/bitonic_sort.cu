// Bitonic sort of 512 unsigned keys per block in shared memory (256 threads, one compare-exchange
// each per step), ascending. Each block sorts its own 512-key segment.
#define SEGMENT 512

__device__ __forceinline__ void compare_exchange(unsigned int &a, unsigned int &b, bool ascending)
{
    if ((a > b) == ascending) {
        unsigned int t = a;
        a = b;
        b = t;
    }
}

__global__ void bitonic_sort_block(unsigned int *keys)
{
    __shared__ unsigned int s[SEGMENT];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * SEGMENT;
    s[tid] = keys[base + tid];
    s[tid + SEGMENT / 2] = keys[base + tid + SEGMENT / 2];

    for (unsigned int size = 2; size <= SEGMENT; size <<= 1) {
        // The final merge (size == SEGMENT) is ascending for every thread.
        bool ascending = (tid & (size / 2)) == 0 || size == SEGMENT;
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned int pos = 2 * tid - (tid & (stride - 1));
            compare_exchange(s[pos], s[pos + stride], ascending);
        }
    }
    __syncthreads();
    keys[base + tid] = s[tid];
    keys[base + tid + SEGMENT / 2] = s[tid + SEGMENT / 2];
}

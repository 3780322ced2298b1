// Inclusive prefix sum in three launches: scan_block scans each block's slice with a
// double-buffered Hillis-Steele scan in dynamic shared memory (2 * blockDim ints) and emits the
// block total; the same kernel then scans the block totals; add_block_offsets adds each
// preceding blocks' total to a block's elements.
__global__ void scan_block(const int *__restrict__ in, int *__restrict__ out,
                           int *__restrict__ block_totals, int n)
{
    extern __shared__ int buffer[];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int width = blockDim.x;
    int pout = 0;

    buffer[tid] = gid < n ? in[gid] : 0;
    __syncthreads();
    for (int offset = 1; offset < width; offset <<= 1) {
        int pin = pout;
        pout = 1 - pout;
        int value = buffer[pin * width + tid];
        if (tid >= offset)
            value += buffer[pin * width + tid - offset];
        buffer[pout * width + tid] = value;
        __syncthreads();
    }
    if (gid < n)
        out[gid] = buffer[pout * width + tid];
    if (tid == width - 1)
        block_totals[blockIdx.x] = buffer[pout * width + tid];
}

__global__ void add_block_offsets(int *data, const int *__restrict__ scanned_totals, int n)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && gid < n)
        data[gid] += scanned_totals[blockIdx.x - 1];
}

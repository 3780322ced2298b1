// Pointer chasing, the classic latency probe: build_chain links a footprint of `footprint` words
// into one cycle (next = (i + stride) mod footprint), and chase follows it for `steps` dependent
// loads from a single thread. Launched for a few footprints, from L1-resident to L2-sized.
__global__ void build_chain(unsigned int *chain, unsigned int footprint, unsigned int stride)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < footprint;
         i += blockDim.x * gridDim.x)
        chain[i] = (i + stride) % footprint;
}

__global__ void chase(const unsigned int *chain, unsigned int *result, unsigned int steps)
{
    unsigned int p = 0;
    unsigned int checksum = 0;
    for (unsigned int s = 0; s < steps; ++s) {
        p = chain[p];
        checksum += p;
    }
    result[0] = p;
    result[1] = checksum;
}

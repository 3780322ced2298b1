// Cache capacity steps: one word per 128-byte line over `lines` lines, swept twice in one launch
// with a CTA barrier between the sweeps. Whether the second sweep hits depends only on whether the
// footprint fits: half the capacity fits (all hits), twice the capacity thrashes an LRU cache when
// both sweeps visit the lines in the same order (no hits). Grid-stride loops; `#pragma unroll 1`
// keeps each sweep one load instruction. The sum is stored so that the loads are not removed.
// tests/hier.cmake finds each sweep's load in the PTX by its text (ld.global.u32, .ca, .cg: two of
// each, the first sweep's first).
__global__ void sweep_plain(const int *data, unsigned lines, int *out)
{
    unsigned first = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    int sum = 0;
#pragma unroll 1
    for (unsigned i = first; i < lines; i += stride)
        sum += data[i * 32u];
    __syncthreads();
#pragma unroll 1
    for (unsigned i = first; i < lines; i += stride)
        sum += data[i * 32u];
    out[first] = sum;
}

// The same with ld.global.ca (__ldca): cached in L1 even where plain loads are not (gtx980).
__global__ void sweep_ca(const int *data, unsigned lines, int *out)
{
    unsigned first = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    int sum = 0;
#pragma unroll 1
    for (unsigned i = first; i < lines; i += stride)
        sum += __ldca(&data[i * 32u]);
    __syncthreads();
#pragma unroll 1
    for (unsigned i = first; i < lines; i += stride)
        sum += __ldca(&data[i * 32u]);
    out[first] = sum;
}

// The same with ld.global.cg (__ldcg): cached in L2 only, for the L2 steps.
__global__ void sweep_cg(const int *data, unsigned lines, int *out)
{
    unsigned first = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    int sum = 0;
#pragma unroll 1
    for (unsigned i = first; i < lines; i += stride)
        sum += __ldcg(&data[i * 32u]);
    __syncthreads();
#pragma unroll 1
    for (unsigned i = first; i < lines; i += stride)
        sum += __ldcg(&data[i * 32u]);
    out[first] = sum;
}

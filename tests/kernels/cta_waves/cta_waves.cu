// Many waves of CTAs on a small GPU (cta_waves.json: 4 SMs, so that each SM's slots take new
// CTAs many times over): each CTA stages its indices in shared memory, waits at a barrier and
// stores its neighbour's value plus its block index. Under the timing model the SMs run on
// several host threads (tests/threads_same.sh): a CTA that retires on any SM must start the
// grid's next CTA in its slot whatever thread simulates that SM.
__global__ void cta_waves(int *out, int n)
{
    __shared__ int staged[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staged[threadIdx.x] = i * 3;
    __syncthreads();
    if (i < n)
        out[i] = staged[(threadIdx.x + 1) % blockDim.x] + (int)blockIdx.x;
}

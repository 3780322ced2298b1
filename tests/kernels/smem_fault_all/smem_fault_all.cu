// Every CTA faults at once: lane 5 of each CTA's first warp stores far outside the CTA's shared
// memory, in the same cycle on every SM. The launch's fault must be the lowest SM's (block 0),
// however many host threads simulate the SMs (docs/timing.md, "Host threads"); the functional
// mode reports the same block.
__global__ void smem_fault_all(int *out, int far)
{
    __shared__ int buf[32];
    int t = threadIdx.x;
    buf[t == 5 ? far : t] = t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = buf[(t + 1) % 32];
}

// Streaming bandwidth (docs/timing.md, "Validation"): the STREAM triad a[i] = b[i] + s * c[i],
// one element per thread, 12 bytes moved per element (two 4-byte reads, one 4-byte write).
// Over arrays whose sum is 4x the L2 it streams from DRAM; over arrays that fit in the L2, run a
// second time, it streams from the L2.

extern "C" __global__ void triad(float *a, const float *b, const float *c, float s, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}

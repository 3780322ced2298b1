// Twin kernel (tests/twins/README.md): 64-bin histogram of the low 6 bits of each input word
// with global atomics (the result is unused, so nvcc emits red.global.add). histogram.sass is its
// hand translation.
extern "C" __global__ void histogram(unsigned *bins, const unsigned *in, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] & 63], 1u);
}

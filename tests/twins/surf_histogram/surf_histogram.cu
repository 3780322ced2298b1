// Twin kernel (tests/twins/README.md): 64-bin histogram of the low 6 bits of each input word,
// the bins being the texels of a 1D surface of 64 u32 texels. CUDA C++ has no surface atomics,
// so the reduction is PTX's sured.b.add (x in bytes) written as inline assembly.
// surf_histogram.sass is its hand translation.
#include <cuda_runtime.h>

extern "C" __global__ void surf_histogram(cudaSurfaceObject_t bins, const unsigned *in,
                                          unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;"
                     :
                     : "l"(bins), "r"((in[i] & 63) * 4), "r"(1u)
                     : "memory");
}

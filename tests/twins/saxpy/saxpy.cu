// Twin kernel (tests/twins/README.md): integer saxpy, y[i] = a * x[i] + y[i] (mod 2^32), one
// element per thread, with a partial last warp. saxpy.sass is its hand translation.
extern "C" __global__ void saxpy(unsigned n, unsigned a, const unsigned *x, unsigned *y)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

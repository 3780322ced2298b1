// The bundled example: single-precision a*x + y, one element per thread.
// saxpy.ptx is this file compiled by `nvcc -ptx -arch=sm_90 -O3 -lineinfo` (see gen.sh).
__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

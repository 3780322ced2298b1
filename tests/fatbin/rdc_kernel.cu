// Relocatable device code (nvcc -rdc): a kernel that calls a function another file defines.
__device__ float twice(float v);

__global__ void apply_twice(float *x)
{
    x[threadIdx.x] = twice(x[threadIdx.x]);
}

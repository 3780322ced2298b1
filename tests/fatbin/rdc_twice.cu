// The function rdc_kernel.cu calls (nvcc -rdc).
__device__ float twice(float v)
{
    return 2.0f * v;
}

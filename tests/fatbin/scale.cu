// scale: x[i] *= a for i < n (the fat binary tests only read its PTX).
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

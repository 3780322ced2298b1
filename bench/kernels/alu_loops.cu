// ALU-dominated benchmark kernels: each thread iterates a chain of integer or float arithmetic
// with no memory traffic inside the loop, so simulation speed is the executor's ALU path.
__global__ void int_chain(unsigned *out, int iters)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, h = 2166136261u;
    for (int i = 0; i < iters; i++) {
        h = (h ^ (x + i)) * 16777619u;
        x = (x << 5) + (x >> 3) + h;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = h ^ x;
}

__global__ void fp32_chain(float *out, int iters)
{
    float a = threadIdx.x * 0.001f, b = 1.0001f, c = 0.5f;
    for (int i = 0; i < iters; i++) {
        a = fmaf(a, b, c);
        c = a * 0.999f - c;
        b = b + 1e-7f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c;
}

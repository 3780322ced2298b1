// Double precision: a degree-7 polynomial (coefficients in __constant__ memory) evaluated with
// Horner's rule using fma, plus a per-block dot product of the results with a weight vector
// reduced as a tree in shared memory.
__constant__ double coefficients[8] = {1.0, -0.5, 0.25, -0.125, 0.0625, 0.3, -0.7, 0.011};

__global__ void horner_dot(const double *__restrict__ x, const double *__restrict__ w,
                           double *__restrict__ poly, double *__restrict__ block_dots, int n)
{
    __shared__ double sdata[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double p = 0.0;
    double contribution = 0.0;
    if (i < n) {
        double xi = x[i];
        p = coefficients[7];
        for (int k = 6; k >= 0; --k)
            p = fma(p, xi, coefficients[k]);
        poly[i] = p;
        contribution = p * w[i];
    }
    sdata[threadIdx.x] = contribution;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        block_dots[blockIdx.x] = sdata[0];
}

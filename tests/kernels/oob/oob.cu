// Fault test: an off-by-one bounds check (<= instead of <) makes thread n store one element past
// the end of the output buffer. The simulator must report the faulting access and fail.
__global__ void scale_off_by_one(const float *__restrict__ in, float *out, int n, float factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i] = (i < n ? in[i] : 0.0f) * factor;
}

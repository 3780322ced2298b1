// saxpy with streaming cache hints: every element is touched once, so loads and the store use
// the evict-first ("cache streaming") operators __ldcs/__stcs. Grid-stride loop.
__global__ void saxpy_cs(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float xi = __ldcs(x + i);
        float yi = __ldcs(y + i);
        __stcs(y + i, a * xi + yi);
    }
}

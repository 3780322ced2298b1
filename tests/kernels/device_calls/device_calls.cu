// Real calls: __noinline__ device functions taking several parameters and returning a value
// (through .param space), including a doubly recursive one (the height of a binary tree stored as
// left/right child arrays, -1 for no child) that nvcc cannot turn into a loop.
__device__ __noinline__ float blend(float a, float b, int scale, float weight)
{
    return (a * weight + b * (1.0f - weight)) * (float)scale;
}

__device__ __noinline__ int subtree_height(const int *left, const int *right, int node)
{
    if (node < 0)
        return 0;
    int hl = subtree_height(left, right, left[node]);
    int hr = subtree_height(left, right, right[node]);
    return 1 + max(hl, hr);
}

__device__ __noinline__ unsigned long long combine(unsigned long long seed, int height,
                                                   unsigned int node, float blended)
{
    return seed * 31ull + (unsigned long long)height * 1000ull + node + (unsigned int)(int)blended;
}

__global__ void tree_heights(const int *__restrict__ left, const int *__restrict__ right,
                             int num_nodes, const float *__restrict__ x, int *heights,
                             float *blended, unsigned long long *combined, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int node = i % num_nodes;
    int height = subtree_height(left, right, node);
    float value = blend(x[i], x[(i + 1) % n], height, 0.25f);
    heights[i] = height;
    blended[i] = value;
    combined[i] = combine((unsigned long long)i, height, (unsigned int)node, value);
}

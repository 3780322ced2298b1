// Calls with more than eight arguments, as cuda-samples' FunctionPointers makes them: a
// __noinline__ device function of twelve parameters called directly, and two functions of ten
// parameters called through a function pointer that each warp picks from a table.
typedef int (*combine_fn)(int, int, int, int, int, int, int, int, int, float);

__device__ __noinline__ int weigh12(int a, int b, int c, int d, int e, int f, int g, int h, int i,
                                    int j, int k, int l)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j + 11 * k +
           12 * l;
}

__device__ __noinline__ int sum10(int a, int b, int c, int d, int e, int f, int g, int h, int i,
                                  float scale)
{
    return (int)((a + b + c + d + e + f + g + h + i) * scale);
}

__device__ __noinline__ int alt10(int a, int b, int c, int d, int e, int f, int g, int h, int i,
                                  float scale)
{
    return (int)((a - b + c - d + e - f + g - h + i) * scale);
}

__device__ combine_fn table[2] = {sum10, alt10};

__global__ void call_many_args(const int *__restrict__ in, int *weighted, int *combined, float scale)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int *v = in + 12 * t;
    weighted[t] = weigh12(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]);
    combine_fn f = table[(t / 32) & 1]; // one target per warp
    combined[t] = f(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], scale);
}

// Per-thread sorting in local memory: each thread gathers a 16-sample window (stride apart,
// wrapping at n) into a private array, insertion-sorts it with data-dependent indices (which
// keeps the array in local memory), and writes the window's median and range.
#define WINDOW 16

__global__ void window_median(const float *__restrict__ in, float *median, float *range, int n,
                              int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float window[WINDOW];
    for (int k = 0; k < WINDOW; ++k)
        window[k] = in[(i + k * stride) % n];
    for (int a = 1; a < WINDOW; ++a) {
        float v = window[a];
        int b = a - 1;
        while (b >= 0 && window[b] > v) {
            window[b + 1] = window[b];
            --b;
        }
        window[b + 1] = v;
    }
    median[i] = 0.5f * (window[WINDOW / 2 - 1] + window[WINDOW / 2]);
    range[i] = window[WINDOW - 1] - window[0];
}

// Data-dependent control flow: each lane runs the Collatz iteration from its own start value, so
// trip counts differ per lane; a step cap makes some lanes `break` early, and start value 0 takes
// an early `return` (marked with 0xffffffff steps).
__global__ void collatz_steps(const unsigned int *__restrict__ start, unsigned int *steps,
                              unsigned int *peak, int n, unsigned int max_steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int x = start[i];
    if (x == 0) {
        steps[i] = 0xffffffffu;
        return;
    }
    unsigned int count = 0;
    unsigned int highest = x;
    while (x != 1) {
        if (count >= max_steps)
            break;
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        highest = max(highest, x);
        ++count;
    }
    steps[i] = count;
    peak[i] = highest;
}

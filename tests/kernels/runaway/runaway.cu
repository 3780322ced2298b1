// Fault test: a spin-wait on a flag that nothing ever sets. The volatile load keeps the loop in
// the program; the launch file's instruction limit must stop it.
__global__ void spin_forever(const volatile int *flag, int *spins)
{
    int count = 0;
    while (*flag == 0)
        ++count;
    spins[blockIdx.x * blockDim.x + threadIdx.x] = count;
}

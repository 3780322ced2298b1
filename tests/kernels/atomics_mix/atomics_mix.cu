// A variety of global atomics whose final values do not depend on the order threads run in:
// float maximum through an atomicCAS loop, atomicExch electing one thread per block,
// atomicInc/atomicDec wrapping at their limits, signed and unsigned atomicMin/atomicMax,
// atomicAnd/Or/Xor, and atomicAdd on doubles (values chosen so every partial sum is exact).
__device__ float atomic_max_float(float *address, float value)
{
    int *as_int = (int *)address;
    int old = *as_int;
    int assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(as_int, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void atomics_mix(const float *__restrict__ values, const int *__restrict__ ints,
                            float *float_max, int *block_flags, unsigned int *winners,
                            unsigned int *inc_counter, unsigned int *dec_counter, int *smin,
                            int *smax, unsigned int *umin, unsigned int *umax, unsigned int *bits,
                            double *dsum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = ints[i];
    atomic_max_float(float_max, values[i]);
    if (atomicExch(&block_flags[blockIdx.x], 1) == 0)
        atomicAdd(winners, 1u);
    atomicInc(inc_counter, 100u);
    atomicDec(dec_counter, 50u);
    atomicMin(smin, v);
    atomicMax(smax, v);
    atomicMin(umin, (unsigned int)v);
    atomicMax(umax, (unsigned int)v);
    if (v % 41 == 0)
        atomicAnd(&bits[0], ~(1u << ((v >> 6) & 31)));
    if (v % 37 == 0)
        atomicOr(&bits[1], 1u << ((v >> 6) & 31));
    atomicXor(&bits[2], (unsigned int)v);
    atomicAdd(dsum, (double)(v % 64) * 0.25);
}

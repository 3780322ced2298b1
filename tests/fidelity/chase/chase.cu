// Latency staircase (docs/timing.md, "Validation"; gpu-figures.md §9 "Validation recipes"): a
// single warp follows a chain of 64-bit global addresses laid out with a 64-byte stride, the
// gpu-benches pointer-chase method. The chain visits every 64-byte line of its footprint once,
// in a pseudo-random order, before it repeats, so a footprint larger than a cache level misses
// that level on every step once the chain has gone round once.
//
// chase_build links the n lines: line perm(k) holds the address of line perm(k + 1 mod n), where
// perm is a bijection of [0, n) (cycle-walking a multiply/xor-shift mix of [0, 2^bits)) with
// perm(0) = 0, so the chain starts at the buffer's first line and is one cycle of length n.
// chase follows it for `steps` steps (a multiple of 16), 16 steps per loop trip, each step one
// ld.global.u64 whose address is the value the step before loaded; the add beside it sums the
// addresses for the check and waits for nothing the chain waits for.

__device__ static unsigned int mix(unsigned int x, unsigned int mask, unsigned int bits)
{
    x = (x * 0x9E3779B1u) & mask;
    x ^= x >> ((bits + 1) / 2);
    x = (x * 0x85EBCA6Bu) & mask;
    x ^= x >> ((bits + 2) / 3);
    return x;
}

// The k-th line of the visiting order, 0 <= k < n.
__device__ static unsigned int line_perm(unsigned int k, unsigned int n)
{
    unsigned int bits = n > 1 ? 32 - __clz(n - 1) : 1;
    unsigned int mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
    unsigned int x = mix(k, mask, bits);
    while (x >= n)
        x = mix(x, mask, bits);
    return x;
}

// One thread per line: n lines of 64 bytes (8 elements) each. The thread writes the whole first
// 32-byte sector of its line (the link and three zeros), so that the L2 holds whole sectors the
// chase can hit: a sector only partly written must be filled from DRAM before a read.
extern "C" __global__ void chase_build(unsigned long long *chain, unsigned int n)
{
    unsigned int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    unsigned int from = line_perm(k, n);
    unsigned int to = line_perm(k + 1 == n ? 0 : k + 1, n);
    ulonglong2 *sector = (ulonglong2 *)(chain + (size_t)from * 8);
    sector[0] = make_ulonglong2(
        (unsigned long long)__cvta_generic_to_global(chain + (size_t)to * 8), 0ull);
    sector[1] = make_ulonglong2(0ull, 0ull);
}

// Launched as one warp. Every lane follows the same chain (one sector per warp load). Lane 0
// writes the line the chain ended on and the sum of the line indices it visited: after `steps`
// = p * n steps, line 0 and p * n * (n - 1) / 2.
extern "C" __global__ void chase(const unsigned long long *chain, unsigned long long steps,
                                 unsigned long long *end_line, unsigned long long *line_sum)
{
    unsigned long long base = (unsigned long long)__cvta_generic_to_global(chain);
    unsigned long long p = base;
    unsigned long long sum = 0;
    for (unsigned long long s = 0; s < steps; s += 16) {
#pragma unroll
        for (int u = 0; u < 16; u++) {
            unsigned long long q;
            asm volatile("ld.global.u64 %0, [%2];\n\tadd.u64 %1, %1, %2;"
                         : "=l"(q), "+l"(sum)
                         : "l"(p));
            p = q;
        }
    }
    if (threadIdx.x == 0) {
        *end_line = (p - base) / 64;
        *line_sum = (sum - steps * base) / 64;
    }
}

// L1 behaviour of the PTX cache operators and L1 eviction-priority hints (PTX ISA 9.1 §9.7.9.1,
// §9.7.9.2, §9.7.9.15), run on gpu_l1.json: one SM whose 16 KiB L1 has 32 sets of 4 ways, so the
// lines k * SET_STRIDE words apart (4 KiB) all fall in set 0. One warp; each load is one line.
// docs/cache-hints.md explains each kernel; the .check files hold the expected counts.
#include "hint_asm.cuh"

// .cg never allocates in L1 and st.cg drops the L1 copy; plain loads (.ca) allocate.
extern "C" __global__ void cg_reread(const unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD(".cg", v, line_ptr(data, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD(".cg", v, line_ptr(data, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD("", v, line_ptr(data, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD("", v, line_ptr(data, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) ST(".cg", line_ptr((unsigned *)data, l), l);
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD("", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// .L1::no_allocate: lines B miss without displacing the resident lines A of the same set.
extern "C" __global__ void l1_no_allocate(const unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned k = 0; k < 4; k++) { LD("", v, line_ptr(data, k * 32)); sum += v; }
#pragma unroll 1
    for (unsigned k = 4; k < 8; k++) { LD(".L1::no_allocate", v, line_ptr(data, k * 32)); sum += v; }
#pragma unroll 1
    for (unsigned k = 4; k < 8; k++) { LD(".L1::no_allocate", v, line_ptr(data, k * 32)); sum += v; }
#pragma unroll 1
    for (unsigned k = 0; k < 4; k++) { LD("", v, line_ptr(data, k * 32)); sum += v; }
    out[threadIdx.x] = sum;
}

// Set 0 holds Y1..Y3 (normal) and X0; a fifth line Z needs a victim; then Y1 and X0 are read
// again. `X0_HINT` is how X0 was last touched.
#define EVICTION_ORDER_KERNEL(name, x0_first, x0_second)                                         \
    extern "C" __global__ void name(const unsigned *data, unsigned *out)                         \
    {                                                                                            \
        unsigned v, sum = 0;                                                                     \
        x0_first;                                                                                \
        _Pragma("unroll 1") for (unsigned k = 1; k < 4; k++)                                     \
        {                                                                                        \
            LD("", v, line_ptr(data, k * 32));                                                   \
            sum += v;                                                                            \
        }                                                                                        \
        x0_second;                                                                               \
        LD("", v, line_ptr(data, 4 * 32)); /* Z */                                               \
        sum += v;                                                                                \
        LD("", v, line_ptr(data, 1 * 32)); /* Y1 again */                                        \
        sum += v;                                                                                \
        LD("", v, line_ptr(data, 0)); /* X0 again */                                             \
        sum += v;                                                                                \
        out[threadIdx.x] = sum;                                                                  \
    }

// X0 loaded first (least recently used) with evict_last: Z must evict Y1 instead.
EVICTION_ORDER_KERNEL(l1_evict_last, LD(".L1::evict_last", v, line_ptr(data, 0)), (void)0)
// X0 loaded last (most recently used) with evict_first: Z evicts X0 rather than Y1.
EVICTION_ORDER_KERNEL(l1_evict_first, (void)0, LD(".L1::evict_first", v, line_ptr(data, 0)))
// X0 loaded evict_first, then touched again with evict_normal: it becomes normal, so Z evicts Y1.
EVICTION_ORDER_KERNEL(l1_evict_normal, (void)0,
                      LD(".L1::evict_first", v, line_ptr(data, 0));
                      LD(".L1::evict_normal", v, line_ptr(data, 0)))
// The same with evict_unchanged: X0 stays evict-first, so Z evicts X0.
EVICTION_ORDER_KERNEL(l1_evict_unchanged, (void)0,
                      LD(".L1::evict_first", v, line_ptr(data, 0));
                      LD(".L1::evict_unchanged", v, line_ptr(data, 0)))

// prefetch.global.L1 and prefetchu.L1 bring lines into L1 before the loads that use them.
extern "C" __global__ void l1_prefetch(const unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++)
        asm volatile("prefetch.global.L1 [%0];" ::"l"(line_ptr(data, l)) : "memory");
#pragma unroll 1
    for (unsigned l = 8; l < 16; l++)
        asm volatile("prefetchu.L1 [%0];" ::"l"(line_ptr(data, l)) : "memory");
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD("", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

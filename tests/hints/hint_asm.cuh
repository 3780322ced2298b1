// Inline-PTX helpers shared by the cache-hint demonstration kernels (tests/hints/). Each helper
// emits exactly one PTX instruction with exactly the qualifiers its name says, so the committed
// PTX shows the hint under test and the reports can pick the instruction out by its text. All
// kernels run as one warp: lane i touches 32-bit word i of a 128-byte line, so one warp access
// is one line, i.e. four 32-byte sectors.
#pragma once

#define LINE_WORDS 32u   // 32-bit words in a 128-byte line
#define SET_STRIDE 1024u // words between lines of the same set: 4 KiB (32 sets x 128 B) in the
                         // L1 and L2 of gpu_l1.json and gpu_l2.json

// One 32-bit load or store with the cache qualifiers `q` (a string literal such as ".cg").
#define LD(q, v, p) asm volatile("ld.global" q ".u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory")
#define ST(q, p, v) asm volatile("st.global" q ".u32 [%0], %1;" ::"l"(p), "r"(v) : "memory")
// The same with an L2 cache-policy descriptor operand (.L2::cache_hint).
#define LD_HINT(q, v, p, pol)                                                                  \
    asm volatile("ld.global" q ".L2::cache_hint.u32 %0, [%1], %2;"                             \
                 : "=r"(v) : "l"(p), "l"(pol) : "memory")

static __device__ __forceinline__ const unsigned *line_ptr(const unsigned *base, unsigned line)
{
    return base + line * LINE_WORDS + (threadIdx.x & 31u);
}
static __device__ __forceinline__ unsigned *line_ptr(unsigned *base, unsigned line)
{
    return base + line * LINE_WORDS + (threadIdx.x & 31u);
}

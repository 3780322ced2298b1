// .L2::evict_last and .L2::evict_first written directly on ld and st (PTX ISA 8.8, sm_100;
// PTX ISA 9.1 §9.7.9.2), run on gpu_l2.json with a 128-line set-aside: a working set of 64
// lines, a stream of 1024 lines (twice the L2), the working set read again. ptxas 13.0 accepts
// these qualifiers only on 256-bit accesses (.v8.b32 / .v4.b64), so every access here is a
// .v8.b32 of one 32-byte sector per lane: one warp access covers 8 lines (32 sectors).
// Compiled with -arch=sm_100 (gen_ptx.sh).
#define WS_LINES 64
#define STREAM_LINES 1024

#define LD8(q, v, p)                                                                             \
    asm volatile("ld.global" q ".v8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"                 \
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]),       \
                   "=r"(v[6]), "=r"(v[7])                                                        \
                 : "l"(p) : "memory")
#define ST8(q, p, x)                                                                             \
    asm volatile("st.global" q ".v8.b32 [%0], {%1, %1, %1, %1, %1, %1, %1, %1};" ::"l"(p), "r"(x) \
                 : "memory")

// Lane i's sector in the group of 8 lines starting at line `line` (a multiple of 8).
static __device__ __forceinline__ const unsigned *sector_ptr(const unsigned *base, unsigned line)
{
    return base + line * 32u + (threadIdx.x & 31u) * 8u;
}

// The working-set access of each kernel, one instruction each.
static __device__ __forceinline__ unsigned ws_ld_last(unsigned *p, unsigned)
{
    unsigned v[8];
    LD8(".L2::evict_last", v, p);
    return v[0];
}
static __device__ __forceinline__ unsigned ws_ld_plain(unsigned *p, unsigned)
{
    unsigned v[8];
    LD8("", v, p);
    return v[0];
}
static __device__ __forceinline__ unsigned ws_st_last(unsigned *p, unsigned x)
{
    ST8(".L2::evict_last", p, x);
    return 0;
}

#define WORKING_SET_KERNEL(name, ws_access, stream_q)                                            \
    extern "C" __global__ void name(unsigned *ws, const unsigned *stream, unsigned *out)          \
    {                                                                                            \
        unsigned v[8], sum = 0;                                                                  \
        _Pragma("unroll 1") for (unsigned l = 0; l < WS_LINES; l += 8)                           \
            sum += ws_access((unsigned *)sector_ptr(ws, l), l);                                  \
        _Pragma("unroll 1") for (unsigned l = 0; l < STREAM_LINES; l += 8)                       \
        {                                                                                        \
            LD8(stream_q, v, sector_ptr(stream, l));                                             \
            sum += v[0];                                                                         \
        }                                                                                        \
        _Pragma("unroll 1") for (unsigned l = 0; l < WS_LINES; l += 8)                           \
        {                                                                                        \
            LD8("", v, sector_ptr(ws, l));                                                       \
            sum += v[0];                                                                         \
        }                                                                                        \
        out[threadIdx.x] = sum;                                                                  \
    }

// Working set loaded evict_last, plain stream.
WORKING_SET_KERNEL(ld_evict_last, ws_ld_last, "")
// Plain working set, stream loaded evict_first.
WORKING_SET_KERNEL(ld_evict_first, ws_ld_plain, ".L2::evict_first")
// Working set written with st.L2::evict_last, plain stream.
WORKING_SET_KERNEL(st_evict_last, ws_st_last, "")

// L2 behaviour of the PTX cache operators, cache-policy descriptors, prefetch, applypriority and
// discard (PTX ISA 9.1 §9.7.9.1, §9.7.9.15-18), mostly run on gpu_l2.json: one SM whose loads
// skip L1 (so every load reaches L2) and a 64 KiB L2 of 32 sets x 16 ways, i.e. 512 lines, with
// lines SET_STRIDE words (4 KiB) apart in the same set. One warp; each access is one 128-byte
// line. docs/cache-hints.md explains each kernel; the .check files hold the expected counts.
#include "hint_asm.cuh"

#define WS_LINES 64       // a working set of 8 KiB: 2 lines in each L2 set
#define STREAM_LINES 1024 // a stream of 128 KiB: twice the L2, 32 lines per set

static __device__ __forceinline__ unsigned long long policy_evict_last(void)
{
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    return pol;
}

// Working set WS read, a stream twice the L2 read, WS read again. Three variants of the hints.
#define WORKING_SET_KERNEL(name, ws_load, stream_load)                                           \
    extern "C" __global__ void name(const unsigned *ws, const unsigned *stream, unsigned *out)    \
    {                                                                                            \
        unsigned long long pol = policy_evict_last();                                            \
        unsigned v, sum = 0;                                                                     \
        _Pragma("unroll 1") for (unsigned l = 0; l < WS_LINES; l++)                              \
        {                                                                                        \
            ws_load;                                                                             \
            sum += v;                                                                            \
        }                                                                                        \
        _Pragma("unroll 1") for (unsigned l = 0; l < STREAM_LINES; l++)                          \
        {                                                                                        \
            stream_load;                                                                         \
            sum += v;                                                                            \
        }                                                                                        \
        _Pragma("unroll 1") for (unsigned l = 0; l < WS_LINES; l++)                              \
        {                                                                                        \
            ws_load;                                                                             \
            sum += v;                                                                            \
        }                                                                                        \
        out[threadIdx.x] = sum + (unsigned)pol;                                                  \
    }

WORKING_SET_KERNEL(last_vs_cs_stream, LD_HINT("", v, line_ptr(ws, l), pol),
                   LD(".cs", v, line_ptr(stream, l)))
WORKING_SET_KERNEL(last_vs_plain_stream, LD_HINT("", v, line_ptr(ws, l), pol),
                   LD("", v, line_ptr(stream, l)))
WORKING_SET_KERNEL(normal_vs_cs_stream, LD("", v, line_ptr(ws, l)),
                   LD(".cs", v, line_ptr(stream, l)))
// No hint at all: what --strip-hints must reproduce for the three kernels above.
WORKING_SET_KERNEL(all_plain, LD("", v, line_ptr(ws, l)), LD("", v, line_ptr(stream, l)))

// One 4-byte word per lane, lanes 512 bytes apart: 32 lines, one sector each, per instruction;
// each region of 16 KiB is read with a different prefetch size.
extern "C" __global__ void sparse_fill(const unsigned *data, unsigned *out)
{
    const unsigned *p = data + (threadIdx.x & 31u) * 128u;
    unsigned a, b, c, d;
    LD("", a, p);
    LD(".L2::64B", b, p + 4096);
    LD(".L2::128B", c, p + 8192);
    LD(".L2::256B", d, p + 12288);
    out[threadIdx.x] = a + b + c + d;
}

// .cv: eight lines are stored (dirty in L2), then read four times with ld.cv.
extern "C" __global__ void cv_refetch(unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++) ST("", line_ptr(data, l), l + 1);
#pragma unroll 1
    for (unsigned rep = 0; rep < 4; rep++)
#pragma unroll 1
        for (unsigned l = 0; l < 8; l++) { LD(".cv", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// Store operators: eight lines write-through, eight lines write-back (the default).
extern "C" __global__ void wt_store(unsigned *data)
{
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++) ST(".wt", line_ptr(data, l), l);
#pragma unroll 1
    for (unsigned l = 8; l < 16; l++) ST(".wb", line_ptr(data, l), l);
}

// Eviction classes left by streaming operators: st.cs, plain st, ld.cs (8 lines each).
extern "C" __global__ void stream_classes(unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++) ST(".cs", line_ptr(data, l), l);
#pragma unroll 1
    for (unsigned l = 8; l < 16; l++) ST("", line_ptr(data, l), l);
#pragma unroll 1
    for (unsigned l = 16; l < 24; l++) { LD(".cs", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// ld.global.lu behaves as ld.global.cs: 8 lines that should be left evict-first.
extern "C" __global__ void lu_global(const unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++) { LD(".lu", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// .ca asks for L1 even where plain global loads skip it (gpu_l2.json, like the GTX 980).
extern "C" __global__ void ca_vs_plain(const unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned rep = 0; rep < 2; rep++)
#pragma unroll 1
        for (unsigned l = 0; l < 8; l++) { LD(".ca", v, line_ptr(data, l)); sum += v; }
#pragma unroll 1
    for (unsigned rep = 0; rep < 2; rep++)
#pragma unroll 1
        for (unsigned l = 8; l < 16; l++) { LD("", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// prefetch.global.L2 of 16 lines, then one load of each.
extern "C" __global__ void prefetch_l2(const unsigned *data, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(line_ptr(data, l)) : "memory");
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++) { LD("", v, line_ptr(data, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// prefetch.global.L2::evict_last of 16 lines; with `demote`, prefetch.global.L2::evict_normal
// of the same lines afterwards.
extern "C" __global__ void prefetch_l2_last(const unsigned *data, unsigned demote)
{
#pragma unroll 1
    for (unsigned l = 0; l < 16; l++)
        asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(line_ptr(data, l)) : "memory");
    if (demote)
#pragma unroll 1
        for (unsigned l = 0; l < 16; l++)
            asm volatile("prefetch.global.L2::evict_normal [%0];" ::"l"(line_ptr(data, l))
                         : "memory");
}

// The working set is read evict-last; with `demote`, applypriority makes each line normal again
// before a plain stream twice the L2 passes; then the working set is read again.
extern "C" __global__ void applypriority_demote(const unsigned *ws, const unsigned *stream,
                                                unsigned *out, unsigned demote)
{
    unsigned long long pol = policy_evict_last();
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < WS_LINES; l++) { LD_HINT("", v, line_ptr(ws, l), pol); sum += v; }
    if (demote)
#pragma unroll 1
        for (unsigned l = 0; l < WS_LINES; l++)
            asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(ws + l * 32u)
                         : "memory");
#pragma unroll 1
    for (unsigned l = 0; l < STREAM_LINES; l++) { LD("", v, line_ptr(stream, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < WS_LINES; l++) { LD("", v, line_ptr(ws, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// Eight lines are stored (dirty in L2); with `discard` each is discarded; then each is read.
extern "C" __global__ void discard_line(unsigned *data, unsigned *out, unsigned discard)
{
    unsigned v;
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++) ST("", line_ptr(data, l), 99u);
    if (discard)
#pragma unroll 1
        for (unsigned l = 0; l < 8; l++)
            asm volatile("discard.global.L2 [%0], 128;" ::"l"(data + l * 32u) : "memory");
#pragma unroll 1
    for (unsigned l = 0; l < 8; l++) {
        LD("", v, line_ptr(data, l));
        out[l * 32u + (threadIdx.x & 31u)] = v;
    }
}

// A 32 KiB window (256 lines) read in order, a plain stream twice the L2, then the window's
// second half (lines 128..255, the most recently used) and its first half read again.
extern "C" __global__ void window_reread(const unsigned *win, const unsigned *stream,
                                         unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < 256; l++) { LD("", v, line_ptr(win, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < STREAM_LINES; l++) { LD("", v, line_ptr(stream, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 128; l < 256; l++) { LD("", v, line_ptr(win, l)); sum += v; }
#pragma unroll 1
    for (unsigned l = 0; l < 128; l++) { LD("", v, line_ptr(win, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// Three kernels for reset_persisting: mark a working set evict-last, stream, read it again.
extern "C" __global__ void mark_last(const unsigned *ws, unsigned *out)
{
    unsigned long long pol = policy_evict_last();
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < WS_LINES; l++) { LD_HINT("", v, line_ptr(ws, l), pol); sum += v; }
    out[threadIdx.x] = sum;
}
extern "C" __global__ void stream_plain(const unsigned *stream, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < STREAM_LINES; l++) { LD("", v, line_ptr(stream, l)); sum += v; }
    out[threadIdx.x] = sum;
}
extern "C" __global__ void reread_plain(const unsigned *ws, unsigned *out)
{
    unsigned v, sum = 0;
#pragma unroll 1
    for (unsigned l = 0; l < WS_LINES; l++) { LD("", v, line_ptr(ws, l)); sum += v; }
    out[threadIdx.x] = sum;
}

// 4096 consecutive lines (512 KiB) loaded with one descriptor each (run on the a100 preset).
#define POLICY_KERNEL(name, create)                                                              \
    extern "C" __global__ void name(const unsigned *data, unsigned *out)                         \
    {                                                                                            \
        unsigned long long pol;                                                                  \
        asm volatile(create : "=l"(pol) : "l"(data));                                            \
        unsigned v, sum = 0;                                                                     \
        _Pragma("unroll 1") for (unsigned l = 0; l < 4096; l++)                                  \
        {                                                                                        \
            LD_HINT("", v, line_ptr(data, l), pol);                                              \
            sum += v;                                                                            \
        }                                                                                        \
        out[threadIdx.x] = sum;                                                                  \
    }
POLICY_KERNEL(fraction_half, "createpolicy.fractional.L2::evict_last.b64 %0, 0.5; // %1")
POLICY_KERNEL(fraction_quarter_first,
              "createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.25; // %1")
// Primary 128 KiB from the buffer's start, total 512 KiB: 4 KiB blocks, 32 of them primary.
POLICY_KERNEL(range_primary,
              "createpolicy.range.global.L2::evict_last.b64 %0, [%1], 131072, 524288;")

// Every createpolicy form of the reference table, stored for comparison with ptxas's values.
// `base` must be 1 MiB aligned (the first buffer of a launch is).
extern "C" __global__ void policy_values(unsigned long long *out, const char *base)
{
    unsigned long long p[21];
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p[0]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.9375;" : "=l"(p[1]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.51;" : "=l"(p[2]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.5;" : "=l"(p[3]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.44;" : "=l"(p[4]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.4375;" : "=l"(p[5]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.3;" : "=l"(p[6]));
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.25;"
                 : "=l"(p[7]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.0625;" : "=l"(p[8]));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0.01;" : "=l"(p[9]));
    asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %0, 0.75;"
                 : "=l"(p[10]));
    asm volatile("createpolicy.fractional.L2::evict_unchanged.L2::evict_first.b64 %0, 0.5;"
                 : "=l"(p[11]));
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_first.b64 %0, 0.5;"
                 : "=l"(p[12]));
    asm volatile("createpolicy.fractional.L2::evict_unchanged.b64 %0, 0.125;" : "=l"(p[13]));
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0;" : "=l"(p[14]));
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(p[15]));
    asm volatile("createpolicy.fractional.L2::evict_unchanged.b64 %0, 1.0;" : "=l"(p[16]));
    asm volatile("createpolicy.range.global.L2::evict_last.b64 %0, [%1], 3145728, 4194304;"
                 : "=l"(p[17]) : "l"(base + 0x100000));
    asm volatile("createpolicy.range.global.L2::evict_last.b64 %0, [%1], 1048576, 1048576;"
                 : "=l"(p[18]) : "l"(base));
    asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %0, [%1], "
                 "524288, 1048576;" : "=l"(p[19]) : "l"(base));
    asm volatile("createpolicy.cvt.L2.b64 %0, %1;" : "=l"(p[20]) : "l"(p[0]));
    if (threadIdx.x == 0)
        for (int i = 0; i < 21; i++) out[i] = p[i];
}

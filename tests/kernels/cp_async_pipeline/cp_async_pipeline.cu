// Asynchronous copies into shared memory (PTX ISA 9.1 §9.7.9.25; docs/semantics.md,
// "Asynchronous copies"), with the exact sectors each copy moves checked by
// tests/hints/cp_async.check.
//
// pipeline_fma: a double-buffered pipeline. Block b reduces `tiles` consecutive tiles of 256
//   floats (1 KiB); each of its 64 threads copies 16 bytes of the next tile (cp.async.cg) while
//   the block computes on the current one, then waits for all but the newest group and meets
//   the others at a barrier before reading a neighbour's element.
// zfill: 16-byte copies with a source size (the bytes past n are zero-filled; a thread past the
//   end reads nothing), then copies with an ignore-src predicate (inline PTX; every fourth
//   thread gets zeros).
// copy_twice: one warp copies the same 512 bytes twice, with .ca (allocating in L1, so the
//   second copy hits there) or .cg (cached at L2 only), and writes what arrived.
// hinted: one warp, each lane copies 8 bytes from its own line (512 bytes apart): plainly
//   (which 0), with the L2 prefetch size .L2::256B (1), or with .L2::cache_hint and an
//   evict-last policy from createpolicy (2).
// half_wait: every lane of one warp copies 16 bytes, then only lanes 0..15 wait: their copies
//   land, the others' do not (groups are per thread), so lanes 16..31 read the old zeros; their
//   copies land when the warp exits.
#include <cuda_pipeline.h>

__global__ void pipeline_fma(const float4 *in, float4 *out, int tiles, float a)
{
    __shared__ float4 buf[2][64];
    int t = threadIdx.x;
    const float4 *src = in + (size_t)blockIdx.x * tiles * 64;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    __pipeline_memcpy_async(&buf[0][t], &src[t], 16);
    __pipeline_commit();
    for (int i = 0; i < tiles; i++) {
        if (i + 1 < tiles)
            __pipeline_memcpy_async(&buf[(i + 1) & 1][t], &src[(i + 1) * 64 + t], 16);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[i & 1][(t + 1) % 64];
        acc.x = fmaf(a, v.x, acc.x);
        acc.y = fmaf(a, v.y, acc.y);
        acc.z = fmaf(a, v.z, acc.z);
        acc.w = fmaf(a, v.w, acc.w);
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = acc;
}

__global__ void zfill(const float4 *in, float4 *out, int n)
{
    __shared__ float4 s[2][64];
    int t = threadIdx.x;
    s[0][t] = make_float4(-1.f, -1.f, -1.f, -1.f);
    s[1][t] = make_float4(-2.f, -2.f, -2.f, -2.f);
    __syncthreads();
    int have = n - 4 * t;
    have = have < 0 ? 0 : have > 4 ? 4 : have;
    __pipeline_memcpy_async(&s[0][t], &in[t], 16, 16 - 4 * have);
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[1][t]);
    int ignore = (t & 3) == 3;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t"
                 "cp.async.ca.shared.global [%0], [%1], 16, p;\n\t}"
                 :: "r"(dst), "l"(&in[64 + t]), "r"(ignore) : "memory");
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[t] = s[0][t];
    out[64 + t] = s[1][t];
}

__global__ void copy_twice(const float4 *in, float4 *out, int cg)
{
    __shared__ float4 s[2][32];
    int t = threadIdx.x;
    unsigned d0 = (unsigned)__cvta_generic_to_shared(&s[0][t]);
    unsigned d1 = (unsigned)__cvta_generic_to_shared(&s[1][t]);
    if (cg) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d0), "l"(&in[t]) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d1), "l"(&in[t]) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
    } else {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(d0), "l"(&in[t]) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(d1), "l"(&in[t]) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
    }
    out[t] = s[0][t];
    out[32 + t] = s[1][t];
}

__global__ void hinted(const float2 *in, float2 *out, int which)
{
    __shared__ float2 s[32];
    int t = threadIdx.x;
    unsigned d = (unsigned)__cvta_generic_to_shared(&s[t]);
    const float2 *src = &in[t * 64];
    if (which == 0) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d), "l"(src) : "memory");
    } else if (which == 1) {
        asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 8;" :: "r"(d), "l"(src)
                     : "memory");
    } else {
        unsigned long long policy;
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
        asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], 8, %2;"
                     :: "r"(d), "l"(src), "l"(policy) : "memory");
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    out[t] = s[t];
}

__global__ void half_wait(const float4 *in, float4 *out)
{
    __shared__ float4 s[32];
    int t = threadIdx.x;
    s[t] = make_float4(0.f, 0.f, 0.f, 0.f);
    unsigned d = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(d), "l"(&in[t]) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    if (t < 16)
        asm volatile("cp.async.wait_group 0;" ::: "memory");
    out[t] = s[t];
}

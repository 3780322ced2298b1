/* What the host CPU can execute, for the hot loops that have a second build for a newer x86-64
 * extension (the ALU lane functions, lane_addresses, the timing model's scans, f32/f64 fma).
 * Such a build is chosen once, when a module is prepared or a launch starts, and must give the
 * same bits as the plain one. On hosts other than x86-64 with GCC or Clang the answers are 0. */
#ifndef GMS_BASE_CPU_H
#define GMS_BASE_CPU_H

/* 1 when the host CPU executes AVX2 instructions, else 0. */
static inline int cpu_has_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2") != 0;
#else
    return 0;
#endif
}

/* 1 when the host CPU executes the FMA extension's fused multiply-adds, else 0. */
static inline int cpu_has_fma(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("fma") != 0;
#else
    return 0;
#endif
}

#endif

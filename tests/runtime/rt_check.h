/* The checks the programs of tests/runtime/ make, as CUDA programs do: every runtime call is
 * wrapped in CHECK, which names the call and its error and exits 1 on failure; EXPECT compares a
 * host-computed value. Each program exits 0 only when all its results are right. */
#ifndef RT_CHECK_H
#define RT_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                               \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s, %d)\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorName(e_), cudaGetErrorString(e_), (int)e_);               \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

#define EXPECT(cond, ...)                                                                      \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            std::fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);           \
            std::fprintf(stderr, __VA_ARGS__);                                                 \
            std::fputc('\n', stderr);                                                          \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

#endif

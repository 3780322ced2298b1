/* The entry points of the real libcudart.so.13 that gpumemsim does not implement, generated
 * from the STUB rows of cudart_entries.def: each prints its name once on stderr and returns
 * cudaErrorNotSupported (801), whatever arguments it was given (docs/cuda-runtime.md, "Entry
 * points"). Taking no parameters is safe in the C calling convention: the caller's arguments
 * are left unread. */
#include <stdio.h>

#include "runtime/cudart_internal.h"

/* Prints "gpumemsim: NAME is not supported" the first time `*said` is 0. */
static cudaError_t unsupported(const char *name, int *said)
{
    rt_lock();
    if (!*said)
        fprintf(stderr, "gpumemsim: %s is not supported by gpumemsim's CUDA runtime; it "
                        "returns cudaErrorNotSupported [RT-CUDART-005]\n", name);
    *said = 1;
    rt_unlock();
    return cudart_set(cudaErrorNotSupported);
}

#define IMPL(name)
#define STUB(name)                                                                              \
    CUDART_EXPORT cudaError_t name(void);                                                       \
    cudaError_t name(void)                                                                      \
    {                                                                                           \
        static int said;                                                                        \
        return unsupported(#name, &said);                                                       \
    }
#define CUDART_ENTRY(name, how) how(name)
#include "runtime/cudart_entries.def"

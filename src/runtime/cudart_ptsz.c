/* The per-thread default stream forms (nvcc --default-stream per-thread, which renames calls to
 * NAME_ptsz and NAME_ptds) of the implemented entry points. Streams all run in issue order here
 * (cudart_stream.c), so each form is its plain call. */
#include "runtime/cudart_internal.h"

/* Declares NAME_SUFFIX with the parameters `params` and defines it to return NAME(args). */
#define FORWARD(name, suffix, params, args)                                                     \
    CUDART_EXPORT cudaError_t name##suffix params;                                              \
    cudaError_t name params;                                                                    \
    cudaError_t name##suffix params                                                             \
    {                                                                                           \
        return name args;                                                                       \
    }

FORWARD(cudaMemcpy, _ptds, (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind),
        (dst, src, count, kind))
FORWARD(cudaMemcpyAsync, _ptsz,
        (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s),
        (dst, src, count, kind, s))
FORWARD(cudaMemcpy2D, _ptds,
        (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
         enum cudaMemcpyKind kind),
        (dst, dp, src, sp, w, h, kind))
FORWARD(cudaMemcpy2DAsync, _ptsz,
        (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
         enum cudaMemcpyKind kind, cudaStream_t s),
        (dst, dp, src, sp, w, h, kind, s))
FORWARD(cudaMemset, _ptds, (void *p, int v, size_t n), (p, v, n))
FORWARD(cudaMemsetAsync, _ptsz, (void *p, int v, size_t n, cudaStream_t s), (p, v, n, s))
FORWARD(cudaMemcpyToSymbol, _ptds,
        (const void *sym, const void *src, size_t n, size_t off, enum cudaMemcpyKind kind),
        (sym, src, n, off, kind))
FORWARD(cudaMemcpyFromSymbol, _ptds,
        (void *dst, const void *sym, size_t n, size_t off, enum cudaMemcpyKind kind),
        (dst, sym, n, off, kind))
FORWARD(cudaMemcpyToSymbolAsync, _ptsz,
        (const void *sym, const void *src, size_t n, size_t off, enum cudaMemcpyKind kind,
         cudaStream_t s),
        (sym, src, n, off, kind, s))
FORWARD(cudaMemcpyFromSymbolAsync, _ptsz,
        (void *dst, const void *sym, size_t n, size_t off, enum cudaMemcpyKind kind,
         cudaStream_t s),
        (dst, sym, n, off, kind, s))
FORWARD(cudaLaunchKernel, _ptsz,
        (const void *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s),
        (f, g, b, args, shared, s))
FORWARD(cudaLaunchCooperativeKernel, _ptsz,
        (const void *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s),
        (f, g, b, args, shared, s))
FORWARD(cudaLaunchKernelExC, _ptsz, (const cudaLaunchConfig_t *c, const void *f, void **args),
        (c, f, args))
FORWARD(cudaStreamSynchronize, _ptsz, (cudaStream_t s), (s))
FORWARD(cudaStreamQuery, _ptsz, (cudaStream_t s), (s))
FORWARD(cudaStreamWaitEvent, _ptsz, (cudaStream_t s, cudaEvent_t e, unsigned flags),
        (s, e, flags))
FORWARD(cudaStreamSetAttribute, _ptsz, (cudaStream_t s, int attr, const cudaStreamAttrValue *v),
        (s, attr, v))
FORWARD(cudaStreamGetAttribute, _ptsz, (cudaStream_t s, int attr, cudaStreamAttrValue *v),
        (s, attr, v))
FORWARD(cudaEventRecord, _ptsz, (cudaEvent_t e, cudaStream_t s), (e, s))
FORWARD(cudaEventRecordWithFlags, _ptsz, (cudaEvent_t e, cudaStream_t s, unsigned flags),
        (e, s, flags))

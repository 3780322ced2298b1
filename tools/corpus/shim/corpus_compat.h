/* Force-included (-include) by tools/corpus/one.sh into every corpus source: host-side runtime
 * calls that CUDA 13 removed or changed, mapped onto their replacements so that older suites
 * compile. They only touch host code; the PTX of the kernels is what nvcc would emit anyway. */
#include <cuda_runtime.h>

#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig

#ifdef __cplusplus
/* CUDA 13 takes a cudaMemLocation where CUDA 12 took a device number (cudaCpuDeviceId: host). */
static inline cudaMemLocation corpus_location(int device)
{
    cudaMemLocation where;
    where.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    where.id = device == cudaCpuDeviceId ? 0 : device;
    return where;
}
static inline cudaError_t cudaMemAdvise(const void *ptr, size_t bytes, cudaMemoryAdvise advice,
                                        int device)
{
    return cudaMemAdvise(ptr, bytes, advice, corpus_location(device));
}
static inline cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device,
                                               cudaStream_t stream = 0)
{
    return cudaMemPrefetchAsync(ptr, bytes, corpus_location(device), 0, stream);
}
#endif

/* Force-included (-include) by tools/corpus/one.sh into every corpus source: host-side runtime
 * calls that CUDA 13 removed, renamed to their replacements so that older suites compile. They
 * only touch host code; the PTX of the kernels is what nvcc would emit anyway. */
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig

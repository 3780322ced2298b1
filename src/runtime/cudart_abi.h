/* The binary interface of the CUDA runtime library, as gpumemsim's libcudart.so.13 implements
 * it: the handful of types, enumerations and structure layouts that programs compiled by nvcc
 * pass across the library boundary. Written for this project from the published interface
 * (CUDA Runtime API reference, CUDA 13.0); the layouts must match the real ones byte for byte,
 * which tests/unit/test_cudart_abi.c checks against offsets noted from the reference. The
 * project builds without CUDA installed. */
#ifndef GMS_RUNTIME_CUDART_ABI_H
#define GMS_RUNTIME_CUDART_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Error codes: cudart_errors.def. */
typedef enum cudaError {
#define CUDART_ERROR(name, value, text) name = value,
#include "runtime/cudart_errors.def"
#undef CUDART_ERROR
} cudaError_t;

typedef struct dim3 {
    unsigned x, y, z;
} dim3;

/* Handles: the runtime's own records. */
typedef struct rt_stream *cudaStream_t;
typedef struct rt_event *cudaEvent_t;
typedef struct rt_kernel *cudaKernel_t;
typedef struct rt_kernel *cudaFunction_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};

/* cudaPointerGetAttributes' answer. */
struct cudaPointerAttributes {
    int type; /* enum cudaMemoryType */
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

/* The access-policy window (cudaAccessPolicyWindow). */
struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    int hitProp;  /* cudaAccessProperty: 0 normal, 1 streaming, 2 persisting */
    int missProp;
};

/* Launch attributes (cudaLaunchAttribute): an id and a 64-byte value union. */
enum {
    cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2
};
typedef union cudaLaunchAttributeValue {
    char pad[64];
    struct cudaAccessPolicyWindow accessPolicyWindow;
    int cooperative;
} cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute {
    int id;
    char pad[8 - sizeof(int)];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned numAttrs;
} cudaLaunchConfig_t;

/* cudaFuncGetAttributes' answer. */
struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
    int maxDynamicSharedSizeBytes, preferredShmemCarveout, clusterDimMustBeSet;
    int requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
    int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
    int reserved[16];
};

enum {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

/* cudaDeviceSetLimit / GetLimit. */
enum {
    cudaLimitStackSize = 0,
    cudaLimitPrintfFifoSize = 1,
    cudaLimitMallocHeapSize = 2,
    cudaLimitPersistingL2CacheSize = 6
};

/* cudaGetDeviceProperties' answer (1008 bytes; the offsets test_cudart_abi.c checks). */
struct cudaDeviceProp {
    char name[256];
    unsigned char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment, texturePitchAlignment;
    int multiProcessorCount, integrated, canMapHostMemory;
    int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2];
    int maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3];
    int maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3];
    int maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver;
    int asyncEngineCount, unifiedAddressing, memoryBusWidth, l2CacheSize;
    int persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported;
    int globalL1CacheSupported, localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID;
    int hostNativeAtomicSupported, pageableMemoryAccess, concurrentManagedAccess;
    int computePreemptionSupported, canUseHostPointerForRegisteredMem, cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch;
    int unifiedFunctionPointers, deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
    unsigned gpuPciDeviceID, gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp is 1008 bytes");
_Static_assert(offsetof(struct cudaDeviceProp, multiProcessorCount) == 384, "layout");
_Static_assert(offsetof(struct cudaDeviceProp, l2CacheSize) == 596, "layout");
_Static_assert(offsetof(struct cudaDeviceProp, sharedMemPerBlockOptin) == 672, "layout");
_Static_assert(offsetof(struct cudaDeviceProp, accessPolicyMaxWindowSize) == 692, "layout");
_Static_assert(offsetof(struct cudaDeviceProp, clusterLaunch) == 748, "layout");

/* CUDA arrays and the texture and surface objects over them (cudart_image.c). */
typedef struct rt_array *cudaArray_t;
typedef unsigned long long cudaTextureObject_t, cudaSurfaceObject_t;
struct cudaChannelFormatDesc {
    int x, y, z, w; /* bits per channel; 0: no such channel */
    int f;          /* cudaChannelFormatKind: 0 signed, 1 unsigned, 2 float */
};
struct cudaExtent {
    size_t width, height, depth;
};
enum { cudaArrayLayered = 1, cudaResourceTypeArray = 0 };
struct cudaResourceDesc {
    int resType;
    union {
        struct {
            cudaArray_t array;
        } array;
        int reserved[32];
    } res;
    unsigned flags;
};
struct cudaTextureDesc {
    int addressMode[3], filterMode, readMode, sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization, seamlessCubemap;
};

/* cudaStreamSetAttribute ids share the launch attributes' numbering. */
typedef cudaLaunchAttributeValue cudaStreamAttrValue;

#endif

// Source of device_runtime.ptx (nvcc -ptx -arch=sm_90 -rdc=true -O3 device_runtime.cu): a kernel
// that launches a child grid (dynamic parallelism: __cudaCDP2GetParameterBufferV2 and
// __cudaCDP2LaunchDeviceV2) and a graph (cudaGraphLaunch). gpumemsim refuses both by name.
#include <cuda_runtime.h>

__global__ void child(int *p) { p[threadIdx.x] = 1; }

__global__ void parent(int *p, cudaGraphExec_t g)
{
    if (threadIdx.x == 0) {
        child<<<1, 32>>>(p);
        cudaGraphLaunch(g, cudaStreamGraphTailLaunch);
    }
}

// Programmatic dependent launch: a producer grid signals that its dependents may start
// (cudaTriggerProgrammaticLaunchCompletion, griddepcontrol.launch_dependents on sm_90) and a
// consumer grid waits for its prerequisites before reading what they wrote
// (cudaGridDependencySynchronize, griddepcontrol.wait). The simulator runs launches one after
// another, so both are no-ops there and the consumer always sees the producer's values. nvcc emits
// griddepcontrol for sm_80 too, which ptxas refuses there: the calls are for sm_90 only.
__global__ void produce(const int *__restrict__ in, int *mid)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    mid[i] = 3 * in[i] + 1;
#if __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}

__global__ void consume(const int *__restrict__ in, const int *mid, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int own = in[i] * in[i];  // work that does not depend on the producer
#if __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
    out[i] = own - mid[(i + 1) % (gridDim.x * blockDim.x)];
}

// Corpus self-test: dynamic parallelism, which nvcc compiles only as relocatable device code
// (the script retries with -rdc=true) and gpumemsim refuses by name (EXEC-EXTERN-002).
__global__ void child(int *p) { p[threadIdx.x] = 1; }
__global__ void parent(int *p) { child<<<1, 32>>>(p); }

// Fault test: a device printf whose format contains %n, which would make printf write the count of
// characters printed so far through a pointer argument. The simulator must refuse it as a kernel
// fault (EXEC-PRINTF-002) instead of letting the host's formatter write through the pointer.
#include <cstdio>

__global__ void printf_count(int *out)
{
    int written = 0;
    printf("thread %d%n is done\n", threadIdx.x, &written);
    out[threadIdx.x] = written;
}

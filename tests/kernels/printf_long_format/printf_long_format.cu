// Fault test: a device printf whose format string comes from a buffer with no NUL in its first
// 4,096 bytes. The simulator must stop the kernel (EXEC-PRINTF-003) instead of printing a format
// cut at an arbitrary length.
#include <cstdio>

__global__ void printf_from_buffer(const char *format)
{
    printf(format);
}

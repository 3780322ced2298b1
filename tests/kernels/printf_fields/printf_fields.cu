// Device printf with fields that the simulator must format itself, within bounds: '*' widths and
// precisions taken from the argument buffer (a negative width left-justifies), a conversion spec
// longer than 60 characters, %s with a NULL and with an unreadable pointer, length modifiers,
// %% and an unknown conversion (printed as written).
#include <cstdio>

__global__ void printf_fields(int width)
{
    int tid = threadIdx.x;
    const char *word = "simulator";
    printf("lane %d [%*d] [%*d] [%.*s]\n", tid, width, tid * 111, -width, tid, tid * 3, word);
    if (tid == 0) {
        // 61 characters from the flags to the conversion letter: repeated '0' flags, a width and a precision.
        printf("[%0000000000000000000000000000000000000000000000000000000012.5d]\n", 42);
        printf("[%s] [%s] [%-8s|]\n", (const char *)0, (const char *)0x10, "ok");
        printf("[%hhx] [%hd] [%+lld] [%#o] [%c] [%5.1f] [%%] [%y]\n", 0x1234, 70000,
               1ll << 40, 8, 'A' + width, 2.25);
    }
}

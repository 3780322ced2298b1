/* Reference for heap_alloc: each thread's sum of its malloc'd, new[]'d and new'd values, and the
 * blocks the 65536-byte heap grants to 2000-byte requests (two launches, each with an empty
 * heap) and the oversized requests that return NULL. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: heap_alloc LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 2);
    int32_t *in = ref_input("in", "i32", n);
    int32_t *out = ref_input("out", "i32", n);
    for (size_t i = 0; i < n; ++i) {
        int count = 1 + (int)(i % 7);
        uint32_t sum = 0; /* the kernel's int sum, wrapping as the hardware does */
        for (int k = 0; k < count; ++k) {
            uint32_t p = (uint32_t)in[i] * (uint32_t)(k + 1);
            uint32_t q = (uint32_t)in[i] * (uint32_t)(count - k) + (uint32_t)k;
            sum += p + 3u * q;
        }
        sum += (uint32_t)(in[i] ^ 0x55);
        out[i] = (int32_t)sum;
    }
    ref_write_expected("out", out, n * sizeof *out);
    uint32_t size = (uint32_t)ref_arg_int(1, 2), heap = 65536;
    uint32_t rounded = (size + 15) / 16 * 16;
    int32_t granted = 2 * (int32_t)(heap / rounded), huge = 2;
    ref_require(granted < 2 * 3 * 64, "some requests must find the heap full");
    ref_write_expected("granted", &granted, sizeof granted);
    ref_write_expected("huge", &huge, sizeof huge);
    return 0;
}

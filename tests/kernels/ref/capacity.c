/* Reference for capacity: in every launch, thread t of T threads adds data[i * 32] over
 * i = t, t + T, ... < lines, once per sweep, and stores the sum of both sweeps in out[t]
 * (int arithmetic, wrapping as the kernel's 32-bit adds do). */
#include "ref_common.h"

#include <stdint.h>
#include <stdlib.h>

static void sweep(const int32_t *data, size_t launch, const char *out_name, size_t count)
{
    size_t threads = ref_launch_threads(launch);
    uint32_t lines = (uint32_t)ref_arg_int(launch, 1);
    ref_require(threads == count, "one output element per thread");
    ref_require((size_t)lines * 32 <= 32768, "the sweep stays inside data");
    int32_t *out = ref_input(out_name, "i32", count);
    for (size_t t = 0; t < threads; ++t) {
        uint32_t sum = 0;
        for (int pass = 0; pass < 2; ++pass)
            for (size_t i = t; i < lines; i += threads)
                sum += (uint32_t)data[i * 32];
        out[t] = (int32_t)sum;
    }
    ref_write_expected(out_name, out, count * sizeof *out);
    free(out);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: capacity LAUNCH.json");
    ref_open(argv[1]);
    ref_require(ref_launch_count() == 3, "three launches: plain, ca, cg");
    int32_t *data = ref_input("data", "i32", 32768);
    sweep(data, 0, "out_plain", 256);
    sweep(data, 1, "out_ca", 256);
    sweep(data, 2, "out_cg", 256);
    free(data);
    return 0;
}

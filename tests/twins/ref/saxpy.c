/* Reference for the saxpy twin: y[i] = a * x[i] + y[i] (mod 2^32) for i < n. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: saxpy LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 0), count = 4096;
    uint32_t a = (uint32_t)ref_arg_int(0, 1);
    uint32_t *x = ref_input("x", "u32", count), *y = ref_input("y", "u32", count);
    ref_require(n < count && n % 32 != 0 && ref_launch_threads(0) == count,
                "the launch must cover the buffer and leave a partial warp");
    for (size_t i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    ref_write_expected("y", y, sizeof *y * count);
    free(x);
    free(y);
    return 0;
}

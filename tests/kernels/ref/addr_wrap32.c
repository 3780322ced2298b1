/* Reference for addr_wrap32 (hand-written PTX, see its header): one block of 32 threads per
 * kernel. shared_wrap: out[t] = tile[t+1] = 7(t+1)+3 read through a pointer 64 bytes below the
 * tile, out[32+t] = twice that, stored through the same pointer. local_wrap: with j = t & 7,
 * out[t] = buf[j+1] = 100t+j+1, out[32+t] = three times that, stored through buf + j - 16. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: addr_wrap32 LAUNCH.json");
    ref_open(argv[1]);
    ref_require(ref_launch_threads(0) == 32 && ref_launch_threads(1) == 32, "one block of 32");
    uint32_t *shared_out = ref_input("shared_out", "u32", 64);
    uint32_t *local_out = ref_input("local_out", "u32", 64);
    for (uint32_t t = 0; t < 32; ++t) {
        uint32_t a = 7 * (t + 1) + 3, j = t & 7, b = 100 * t + j + 1;
        shared_out[t] = a;
        shared_out[32 + t] = 2 * a;
        local_out[t] = b;
        local_out[32 + t] = 3 * b;
    }
    ref_write_expected("shared_out", shared_out, 64 * sizeof *shared_out);
    ref_write_expected("local_out", local_out, 64 * sizeof *local_out);
    free(shared_out);
    free(local_out);
    return 0;
}

/* Reference for histogram: counts of each byte value. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: histogram LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 1);
    unsigned char *data = ref_input("data", "u8", n);
    uint32_t *hist = ref_input("hist", "u32", 256);
    for (size_t i = 0; i < n; ++i)
        hist[data[i]]++;
    ref_write_expected("hist", hist, 256 * sizeof(uint32_t));
    free(data);
    free(hist);
    return 0;
}

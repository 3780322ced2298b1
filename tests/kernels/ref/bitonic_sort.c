/* Reference for bitonic_sort: every 512-key segment sorted ascending. */
#include "ref_common.h"

#include <stdlib.h>

#define SEGMENT 512

static int compare_keys(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: bitonic_sort LAUNCH.json");
    ref_open(argv[1]);
    size_t blocks = ref_launch_threads(0) / 256, n = blocks * SEGMENT;
    uint32_t *keys = ref_input("keys", "u32", n);
    for (size_t b = 0; b < blocks; ++b)
        qsort(keys + b * SEGMENT, SEGMENT, sizeof *keys, compare_keys);
    ref_write_expected("keys", keys, n * sizeof *keys);
    free(keys);
    return 0;
}

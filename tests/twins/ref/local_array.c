/* Reference for the local_array twin: a[j] = v + j, out[i] = sum over j < 4 of a[(v + 5j) & 15]
 * with v = in[i]. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: local_array LAUNCH.json");
    ref_open(argv[1]);
    size_t n = ref_launch_threads(0);
    uint32_t *in = ref_input("in", "u32", n), *out = ref_input("out", "u32", n);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = in[i], s = 0;
        for (uint32_t j = 0; j < 4; j++)
            s += v + ((v + 5 * j) & 15);
        out[i] = s;
    }
    ref_write_expected("out", out, sizeof *out * n);
    free(in);
    free(out);
    return 0;
}

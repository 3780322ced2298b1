/* Reference for the volatile_fence twin: data[i] += 1; then out[i] = data[i ^ 1] + data[i ^ 2] +
 * data[i] (all read after every store of the warp). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: volatile_fence LAUNCH.json");
    ref_open(argv[1]);
    size_t n = ref_launch_threads(0);
    uint32_t *data = ref_input("data", "u32", n), *out = ref_input("out", "u32", n);
    for (size_t i = 0; i < n; i++)
        data[i] += 1;
    for (size_t i = 0; i < n; i++)
        out[i] = data[i ^ 1] + data[i ^ 2] + data[i];
    ref_write_expected("data", data, sizeof *data * n);
    ref_write_expected("out", out, sizeof *out * n);
    free(data);
    free(out);
    return 0;
}

/* Reference for dependent_launch: mid[i] = 3 * in[i] + 1 (producer), then
 * out[i] = in[i]^2 - mid[(i + 1) % n] (consumer, after its dependency wait). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: dependent_launch LAUNCH.json");
    ref_open(argv[1]);
    size_t n = ref_launch_threads(0);
    int32_t *in = ref_input("in", "i32", n);
    int32_t *mid = ref_input("mid", "i32", n);
    int32_t *out = ref_input("out", "i32", n);
    for (size_t i = 0; i < n; ++i)
        mid[i] = 3 * in[i] + 1;
    for (size_t i = 0; i < n; ++i)
        out[i] = in[i] * in[i] - mid[(i + 1) % n];
    ref_write_expected("mid", mid, n * sizeof(int32_t));
    ref_write_expected("out", out, n * sizeof(int32_t));
    free(in), free(mid), free(out);
    return 0;
}

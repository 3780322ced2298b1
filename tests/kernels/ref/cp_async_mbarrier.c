/* Reference for cp_async_mbarrier: in both kernels, round r of thread t writes the float4 that
 * thread (t + 1) mod 64 copied in that round, in[r * 64 + (t + 1) mod 64]. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: cp_async_mbarrier LAUNCH.json");
    ref_open(argv[1]);
    int rounds = (int)ref_arg_int(0, 2);
    ref_require(rounds == (int)ref_arg_int(1, 2) && rounds * 256 == 1536, "rounds cover the input");
    float *in = ref_input("in", "f32", 1536);
    float out[1536];
    for (int r = 0; r < rounds; r++)
        for (int t = 0; t < 64; t++)
            for (int c = 0; c < 4; c++)
                out[(r * 64 + t) * 4 + c] = in[(r * 64 + (t + 1) % 64) * 4 + c];
    ref_write_expected("out_barrier", out, sizeof out);
    ref_write_expected("out_noinc", out, sizeof out);
    free(in);
    return 0;
}

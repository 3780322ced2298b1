/* Reference for call_many_args: thread t's twelve inputs in[12t .. 12t+11] weighted by 1..12,
 * and the first nine summed (threads of even warps, t / 32) or alternately added and subtracted
 * (odd warps), times the f32 scale and truncated toward zero as the kernel's (int) cast does. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: call_many_args LAUNCH.json");
    ref_open(argv[1]);
    size_t threads = ref_launch_threads(0);
    int32_t *in = ref_input("in", "i32", 12 * threads);
    int32_t *weighted = ref_input("weighted", "i32", threads);
    int32_t *combined = ref_input("combined", "i32", threads);
    float scale = (float)ref_arg_float(0, 3);
    for (size_t t = 0; t < threads; ++t) {
        const int32_t *v = in + 12 * t;
        int32_t w = 0, c = 0;
        for (int k = 0; k < 12; ++k)
            w += (k + 1) * v[k];
        for (int k = 0; k < 9; ++k)
            c += ((t / 32) & 1) && (k & 1) ? -v[k] : v[k];
        weighted[t] = w;
        combined[t] = (int32_t)((float)c * scale);
    }
    ref_write_expected("weighted", weighted, threads * sizeof(int32_t));
    ref_write_expected("combined", combined, threads * sizeof(int32_t));
    free(in), free(weighted), free(combined);
    return 0;
}

/* Reference for mbarrier_phases: per block, rounds of "publish, wait, read the neighbour
 * (t + 1 + r) mod width, wait"; the upper half of the block leaves after stay_upper rounds, and
 * later rounds exchange within the lower half. acc = acc * 3 + neighbour, wrapping as int. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: mbarrier_phases LAUNCH.json");
    ref_open(argv[1]);
    size_t blocks = 3, n = 128, half = n / 2;
    int rounds = (int)ref_arg_int(0, 2), stay = (int)ref_arg_int(0, 3);
    ref_require(stay > 0 && stay < rounds, "the upper half must leave before the last round");
    ref_require(ref_launch_threads(0) == blocks * n, "3 blocks of 128 threads");
    int32_t *in = ref_input("in", "i32", blocks * (size_t)rounds * n);
    int32_t *out = ref_input("out", "i32", blocks * n);
    for (size_t b = 0; b < blocks; b++) {
        const int32_t *mine = in + b * (size_t)rounds * n;
        for (size_t t = 0; t < n; t++) {
            uint32_t acc = 0;
            for (int r = 0; r < rounds; r++) {
                size_t width = r < stay ? n : half;
                if (t >= half && r >= stay)
                    break;
                acc = acc * 3u + (uint32_t)mine[(size_t)r * n + (t + 1 + (size_t)r) % width];
            }
            out[b * n + t] = (int32_t)acc;
        }
    }
    ref_write_expected("out", out, blocks * n * sizeof *out);
    return 0;
}

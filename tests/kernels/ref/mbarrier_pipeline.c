/* Reference for mbarrier_pipeline: per block, round r puts in[r*32 + l] * (r + 1) into slot
 * r % 2; consumer thread t (32..127) accumulates acc = acc * 5 + slot[(t + r) % 32], wrapping as
 * int. The probe's ten values per block follow from the mbarrier rules (PTX ISA 9.1 "mbarrier"):
 * see the comments in mbarrier_pipeline.cu. */
#include "ref_common.h"

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: mbarrier_pipeline LAUNCH.json");
    ref_open(argv[1]);
    size_t blocks = 4;
    int rounds = (int)ref_arg_int(0, 3);
    ref_require(ref_launch_threads(0) == blocks * 128, "4 blocks of 128 threads");
    ref_require(rounds > 4, "each slot must be reused more than once");
    int32_t *in = ref_input("in", "i32", blocks * (size_t)rounds * 32);
    int32_t *out = ref_input("out", "i32", blocks * 96);
    int32_t *probe = ref_input("probe", "i32", blocks * 10);
    static const int32_t probe_values[10] = {3, 2, 0, 1, 0, 1, 10, 1, 1, 1};
    for (size_t b = 0; b < blocks; b++) {
        const int32_t *mine = in + b * (size_t)rounds * 32;
        for (size_t t = 32; t < 128; t++) {
            uint32_t acc = 0;
            for (int r = 0; r < rounds; r++) {
                size_t l = (t + (size_t)r) % 32;
                uint32_t v = (uint32_t)mine[(size_t)r * 32 + l] * (uint32_t)(r + 1);
                acc = acc * 5u + v;
            }
            out[b * 96 + t - 32] = (int32_t)acc;
        }
        for (size_t i = 0; i < 10; i++) probe[b * 10 + i] = probe_values[i];
    }
    ref_write_expected("out", out, blocks * 96 * sizeof *out);
    ref_write_expected("probe", probe, blocks * 10 * sizeof *probe);
    return 0;
}

/* Reference for divergent_loops: Collatz step counts capped at max_steps, and the highest value
 * seen; start value 0 yields 0xffffffff steps and leaves peak at 0. Checks that the input covers
 * all three exits (reaching 1, hitting the cap, the early return). */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: divergent_loops LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 3);
    uint32_t max_steps = (uint32_t)ref_arg_int(0, 4);
    uint32_t *start = ref_input("start", "u32", n);
    uint32_t *steps = ref_input("steps", "u32", n);
    uint32_t *peak = ref_input("peak", "u32", n);
    int zeros = 0, capped = 0, finished = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t x = start[i];
        if (x == 0) {
            steps[i] = 0xffffffffu;
            ++zeros;
            continue;
        }
        uint32_t count = 0, highest = x;
        while (x != 1 && count < max_steps) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            highest = x > highest ? x : highest;
            ++count;
        }
        capped += x != 1;
        finished += x == 1;
        steps[i] = count;
        peak[i] = highest;
    }
    ref_require(zeros > 0 && capped > 0 && finished > 0, "input covers every loop exit");
    ref_write_expected("steps", steps, n * sizeof *steps);
    ref_write_expected("peak", peak, n * sizeof *peak);
    free(start), free(steps), free(peak);
    return 0;
}

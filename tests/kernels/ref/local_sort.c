/* Reference for local_sort: the median and range of each thread's 16-sample window. */
#include "ref_common.h"

#include <stdlib.h>

#define WINDOW 16

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: local_sort LAUNCH.json");
    ref_open(argv[1]);
    size_t n = (size_t)ref_arg_int(0, 3), stride = (size_t)ref_arg_int(0, 4);
    float *in = ref_input("in", "f32", n);
    float *median = ref_input("median", "f32", n);
    float *range = ref_input("range", "f32", n);
    for (size_t i = 0; i < n; ++i) {
        float window[WINDOW];
        for (size_t k = 0; k < WINDOW; ++k)
            window[k] = in[(i + k * stride) % n];
        qsort(window, WINDOW, sizeof *window, compare_floats);
        median[i] = 0.5f * (window[WINDOW / 2 - 1] + window[WINDOW / 2]);
        range[i] = window[WINDOW - 1] - window[0];
    }
    ref_write_expected("median", median, n * sizeof *median);
    ref_write_expected("range", range, n * sizeof *range);
    free(in), free(median), free(range);
    return 0;
}

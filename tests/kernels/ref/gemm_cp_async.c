/* Reference for gemm_cp_async: C = A B over f16 inputs, each product exact, the sum over k in
 * long double and rounded once to f32. The kernel's mma.sync rounds its f32 accumulator once per
 * k16 step (eight steps for K = 128; docs/semantics.md, "Matrix instructions"), so the launch file
 * allows rtol = atol = 1e-5. */
#include "ref_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: gemm_cp_async LAUNCH.json");
    ref_open(argv[1]);
    int M = (int)ref_arg_int(0, 3), N = (int)ref_arg_int(0, 4), K = (int)ref_arg_int(0, 5);
    uint16_t *A = ref_input("A", "f16", (size_t)M * K), *B = ref_input("B", "f16", (size_t)K * N);
    float *C = malloc(sizeof(float) * (size_t)M * N);
    ref_require(C != NULL, "out of memory");
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            long double acc = 0;
            for (int k = 0; k < K; k++)
                acc += (long double)ref_f16_to_double(A[m * K + k]) * ref_f16_to_double(B[k * N + n]);
            C[m * N + n] = (float)acc;
        }
    ref_write_expected("C", C, sizeof(float) * (size_t)M * N);
    free(A);
    free(B);
    free(C);
    return 0;
}

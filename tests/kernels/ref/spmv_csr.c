/* Reference for spmv_csr. Also generates the CSR matrix (1000 x 1000, 0 to 12 entries per row at
 * random columns, values in [-2, 2)) as row_ptr/col_idx/values.in.bin. Each row's sum is the same
 * fma chain the kernel runs. */
#include "ref_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 1000
#define MAX_PER_ROW 12

int main(int argc, char **argv)
{
    ref_require(argc == 2, "usage: spmv_csr LAUNCH.json");
    int32_t *row_ptr = malloc((ROWS + 1) * sizeof *row_ptr);
    int32_t *col_idx = malloc(ROWS * MAX_PER_ROW * sizeof *col_idx);
    float *values = malloc(ROWS * MAX_PER_ROW * sizeof *values);
    ref_require(row_ptr && col_idx && values, "out of memory");
    uint64_t state = 1001;
    int32_t nnz = 0;
    for (int row = 0; row < ROWS; ++row) {
        row_ptr[row] = nnz;
        int length = (int)ref_random_int(&state, 0, MAX_PER_ROW);
        for (int k = 0; k < length; ++k, ++nnz) {
            col_idx[nnz] = (int32_t)ref_random_int(&state, 0, ROWS - 1);
            values[nnz] = (float)ref_random_int(&state, -2000, 2000) / 1000.0f;
        }
    }
    row_ptr[ROWS] = nnz;
    ref_write_file("row_ptr.in.bin", row_ptr, (ROWS + 1) * sizeof *row_ptr);
    ref_write_file("col_idx.in.bin", col_idx, (size_t)nnz * sizeof *col_idx);
    ref_write_file("values.in.bin", values, (size_t)nnz * sizeof *values);
    fprintf(stderr, "spmv_csr: %d non-zeros\n", (int)nnz);

    ref_open(argv[1]);
    ref_require(ref_arg_int(0, 0) == ROWS, "rows argument");
    int32_t *rp = ref_input("row_ptr", "i32", ROWS + 1);
    int32_t *ci = ref_input("col_idx", "i32", (size_t)nnz);
    float *va = ref_input("values", "f32", (size_t)nnz);
    float *x = ref_input("x", "f32", ROWS);
    float *y = ref_input("y", "f32", ROWS);
    for (int row = 0; row < ROWS; ++row) {
        float sum = 0.0f;
        for (int j = rp[row]; j < rp[row + 1]; ++j)
            sum = fmaf(va[j], x[ci[j]], sum);
        y[row] = sum;
    }
    ref_write_expected("y", y, ROWS * sizeof *y);
    free(row_ptr), free(col_idx), free(values), free(rp), free(ci), free(va), free(x), free(y);
    return 0;
}

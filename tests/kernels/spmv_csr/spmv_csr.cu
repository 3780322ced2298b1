// Sparse matrix-vector product y = A x with A in CSR form, one thread per row. All inputs go
// through the read-only data path (__ldg, ld.global.nc); the gather of x is irregular.
__global__ void spmv_csr_scalar(int rows, const int *__restrict__ row_ptr,
                                const int *__restrict__ col_idx, const float *__restrict__ values,
                                const float *__restrict__ x, float *__restrict__ y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    int begin = __ldg(row_ptr + row);
    int end = __ldg(row_ptr + row + 1);
    float sum = 0.0f;
    for (int j = begin; j < end; ++j)
        sum += __ldg(values + j) * __ldg(x + __ldg(col_idx + j));
    y[row] = sum;
}

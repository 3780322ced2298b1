// cp.async copies land in shared memory only when a wait retires their group: a read before
// the wait sees what was there before (PTX ISA 9.1 §9.7.9.25; docs/semantics.md, "Asynchronous
// copies"). Each of 64 threads owns one 16-byte slot of `slot` and one 4-byte word of `word`.
// The slots are filled with a marker, then each thread
//   - copies 16 bytes of src into its slot (group A, committed),
//   - copies 4 bytes into its word (group B, committed),
//   - reads both: the old markers;
//   - waits until at most one group is pending (A lands, B does not) and reads again;
//   - waits for everything and reads again.
// A __syncthreads() between the first copy and the first read does not make it land either.
#include <cuda_pipeline.h>

__global__ void stale_until_wait(const int4 *src, const int *src_words, int *out)
{
    __shared__ int4 slot[64];
    __shared__ int word[64];
    int t = threadIdx.x;
    slot[t] = make_int4(-1, -2, -3, -4);
    word[t] = -5;
    __syncthreads();
    __pipeline_memcpy_async(&slot[t], &src[t], 16);
    __pipeline_commit();
    __pipeline_memcpy_async(&word[t], &src_words[t], 4);
    __pipeline_commit();
    __syncthreads();
    int n = t ^ 1; // a neighbour in the same warp: its copy has not landed either
    out[0 * 64 + t] = slot[t].x;
    out[1 * 64 + t] = slot[n].w;
    out[2 * 64 + t] = word[t];
    __pipeline_wait_prior(1);
    out[3 * 64 + t] = slot[t].x;
    out[4 * 64 + t] = slot[t].w;
    out[5 * 64 + t] = word[t];
    __pipeline_wait_prior(0);
    out[6 * 64 + t] = word[t];
    __syncthreads();
    out[7 * 64 + t] = slot[n].y + word[n];
}

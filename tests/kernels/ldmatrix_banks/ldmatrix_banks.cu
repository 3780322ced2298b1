// ldmatrix.x4 from a 32 x 64 tile of 16-bit elements in shared memory (128-byte rows), each lane
// naming the first 16 bytes of one row: without a swizzle the 8 rows of each phase sit in the
// same four banks (8 wavefronts a phase), with the 16-byte chunks of row r stored at chunk
// c ^ (r % 8) they cover all 32 banks (one wavefront a phase). Both write the registers out.
#include <stdint.h>

__device__ __forceinline__ void ldmatrix_x4(unsigned *r, const void *p)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}

__global__ void ldmatrix_banks(const uint16_t *in, unsigned *plain, unsigned *swizzled)
{
    __shared__ __align__(128) uint16_t tile[32 * 64];
    __shared__ __align__(128) uint16_t tile_sw[32 * 64];
    int lane = threadIdx.x;
    for (int i = lane; i < 32 * 64; i += 32) {
        int row = i / 64, col = i % 64, chunk = col / 8;
        tile[i] = in[i];
        tile_sw[row * 64 + ((chunk ^ (row % 8)) * 8) + col % 8] = in[i];
    }
    __syncwarp();
    unsigned r[4];
    ldmatrix_x4(r, &tile[lane * 64]);
    for (int i = 0; i < 4; i++) plain[lane * 4 + i] = r[i];
    ldmatrix_x4(r, &tile_sw[lane * 64 + (lane % 8) * 8]);
    for (int i = 0; i < 4; i++) swizzled[lane * 4 + i] = r[i];
}

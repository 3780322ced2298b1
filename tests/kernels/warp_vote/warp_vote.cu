// Warp vote, match and reduce intrinsics in a 3D grid of 3D blocks (8x4x2 threads, so each warp
// spans several y and z rows). Per thread, writes 12 results to out[12*gid ..].
#define FULL 0xffffffffu

__global__ void warp_votes(const int *__restrict__ in, unsigned int *out)
{
    unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned int gid = block * (blockDim.x * blockDim.y * blockDim.z) + tid;
    unsigned int lane = tid & 31;
    int v = in[gid];
    unsigned int *o = out + 12 * gid;

    o[0] = __ballot_sync(FULL, v > 3);
    o[1] = __any_sync(FULL, v == 7);
    o[2] = __all_sync(FULL, v >= 0) | (__all_sync(FULL, v > 0) << 1);
    o[3] = __match_any_sync(FULL, v);
    int block_same = 0, value_same = 0;
    unsigned int block_mask = __match_all_sync(FULL, (int)block, &block_same);
    unsigned int value_mask = __match_all_sync(FULL, v, &value_same);
    o[4] = (block_mask == FULL) | (block_same << 1) | ((value_mask != 0) << 2) | (value_same << 3);
    o[5] = __reduce_add_sync(FULL, (unsigned int)v);
    o[6] = __reduce_min_sync(FULL, (unsigned int)v);
    o[7] = (unsigned int)__reduce_max_sync(FULL, v - 4);
    o[8] = __reduce_or_sync(FULL, 1u << v);
    o[9] = __reduce_and_sync(FULL, (unsigned int)v | 0x10u) ^ __reduce_xor_sync(FULL, lane * (unsigned int)v);
    unsigned int partial = 0;
    if (lane < 20) {
        unsigned int mask = __activemask();
        partial = __ballot_sync(0x000fffffu, v & 1) ^ (mask << 1);
    }
    o[10] = partial;
    o[11] = __popc(__ballot_sync(FULL, lane < (unsigned int)v));
}

/* The tensor map of the bulk tensor copies (CUDA's CUtensorMap, a 128-byte kernel parameter): its
 * fields, which are cuTensorMapEncodeTiled's, and gpumemsim's own encoding of them in the 128
 * bytes (CUDA keeps its encoding opaque; docs/semantics.md, "Bulk copies and tensor maps").
 * Pure functions: the launch side (src/sim) encodes a map from a launch file's descriptor, the
 * executor decodes the bytes a kernel names. Only tiled maps without interleave exist here.
 *
 *   bytes  0..3    magic "GMTM"           4      version (1)
 *          5       data type              6      rank (1..5)
 *          7       swizzle                8      L2 promotion      9  OOB fill
 *          10..15  zero                   16..23 global address
 *          24..63  dims[5] (u64, elements)
 *          64..95  strides[4] (u64, bytes from one index of dimension d+1 to the next)
 *          96..115 box[5] (u32, elements)   116..120 element strides[5] (u8)   121..127 zero */
#ifndef GMS_EXEC_TENSOR_MAP_H
#define GMS_EXEC_TENSOR_MAP_H

#include <stddef.h>
#include <stdint.h>

enum { TENSOR_MAP_BYTES = 128, TENSOR_MAP_MAX_RANK = 5 };

/* CUtensorMapDataType, with CUDA's values (the sub-byte sm_100 types are not modelled). */
typedef enum tensor_map_type {
    TMAP_UINT8 = 0, TMAP_UINT16, TMAP_UINT32, TMAP_INT32, TMAP_UINT64, TMAP_INT64, TMAP_FLOAT16,
    TMAP_FLOAT32, TMAP_FLOAT64, TMAP_BFLOAT16, TMAP_FLOAT32_FTZ, TMAP_TFLOAT32,
    TMAP_TFLOAT32_FTZ, TMAP_TYPE_COUNT
} tensor_map_type;

/* CUtensorMapSwizzle (NONE, 32B, 64B, 128B), CUtensorMapL2promotion (NONE, 64B, 128B, 256B) and
 * CUtensorMapFloatOOBfill (NONE: zeros, NAN_REQUEST_ZERO_FMA: NaN), with CUDA's values. */
enum { TMAP_SWIZZLE_NONE = 0, TMAP_SWIZZLE_32B, TMAP_SWIZZLE_64B, TMAP_SWIZZLE_128B };
enum { TMAP_L2_NONE = 0, TMAP_L2_64B, TMAP_L2_128B, TMAP_L2_256B };
enum { TMAP_OOB_ZERO = 0, TMAP_OOB_NAN };

typedef struct tensor_map {
    uint8_t type;        /* tensor_map_type */
    uint8_t rank;        /* 1..5 */
    uint8_t swizzle, l2_promotion, oob_fill;
    uint64_t address;    /* global address of element (0, ..., 0); 16-byte aligned */
    uint64_t dims[TENSOR_MAP_MAX_RANK];    /* elements per dimension, innermost first, 1..2^32 */
    uint64_t strides[TENSOR_MAP_MAX_RANK]; /* bytes between consecutive indices of dimension d;
                                              strides[0] is the element size, strides[1..rank-1]
                                              multiples of 16 below 2^40 */
    uint32_t box[TENSOR_MAP_MAX_RANK];     /* elements the copy moves per dimension, 1..256 */
    uint32_t elem_strides[TENSOR_MAP_MAX_RANK]; /* traversal step per dimension, 1..8 */
} tensor_map;

/* Bytes of one element of `type`: 1, 2, 4 or 8; 0 when out of range. */
unsigned tensor_map_elem_bytes(unsigned type);

/* Checks the fields as cuTensorMapEncodeTiled does (the list is docs/launch-files.md, "Tensor
 * maps"). Returns NULL when valid, else a static sentence naming the first field that is not. */
const char *tensor_map_check(const tensor_map *m);

/* Writes m (checked first) into out[0..127]. Returns NULL, or tensor_map_check's sentence
 * (out is then untouched). */
const char *tensor_map_encode(const tensor_map *m, uint8_t out[TENSOR_MAP_BYTES]);

/* Reads the 128 bytes back into *m (OUT) and checks them. Returns NULL, or a static sentence:
 * not a gpumemsim tensor map (magic or version), or the first invalid field. */
const char *tensor_map_decode(const uint8_t in[TENSOR_MAP_BYTES], tensor_map *m);

/* Bytes one copy of the box moves (what completes on the mbarrier): the product over the
 * dimensions of ceil(box / elem_stride), times the element size. */
uint64_t tensor_map_box_bytes(const tensor_map *m);

#endif

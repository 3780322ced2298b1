/* The 64-bit L2 cache-policy descriptor (NVIDIA's hardware encoding; the bit layout is documented
 * in docs/cache-hints.md) and CUDA access-policy windows: encoding fractional and range
 * descriptors, and deciding, per accessed address, which eviction priority an access gives its L2
 * line. Pure functions; no state. */
#ifndef GMS_MEM_MEM_POLICY_H
#define GMS_MEM_MEM_POLICY_H

#include <stdint.h>

#include "ir/ir.h"

/* Descriptor priority codes (bits 58-57 primary, bit 56 secondary). */
enum { POLICY_CODE_UNCHANGED = 0, POLICY_CODE_FIRST = 1, POLICY_CODE_LAST = 2,
       POLICY_CODE_NORMAL = 3 };

/* A fractional descriptor: primary and secondary as ir_evict (NORMAL, FIRST, LAST, UNCHANGED;
 * secondary FIRST or UNCHANGED), fraction in (0, 1]. F = ceil(16 * fraction) - 1, as NVIDIA's
 * assembler computes it. Returns the descriptor. */
uint64_t policy_encode_fractional(uint8_t primary, uint8_t secondary, float fraction);
/* A range descriptor: `base` byte address, sizes in bytes (primary <= total <= 4 GiB).
 * Blocks of 4 KiB << E cover 2^ceil(log2(total)) in 128 blocks; the primary range is rounded
 * outward to blocks and its count clamped to 1..127. */
uint64_t policy_encode_range(uint8_t primary, uint8_t secondary, uint64_t base,
                             uint32_t primary_bytes, uint32_t total_bytes);

/* The priority a descriptor gives an access to byte address `addr`, as an ir_evict value:
 * IR_EVICT_NONE (no descriptor: mode 0), UNCHANGED, FIRST, LAST or NORMAL (demote). Fractional
 * descriptors choose by a hash of the 128-byte line number (deterministic); range descriptors by
 * the block number modulo 128. Sets *valid to 0 for reserved mode 1 (treated as no policy). */
uint8_t policy_priority(uint64_t desc, uint64_t addr, int *valid);

/* Whether the fractional selector puts the line of `addr` in the first `parts` sixteenths
 * (1..16): the model's deterministic stand-in for "a fraction of the accesses". */
int policy_line_selected(uint64_t addr, uint32_t parts);

/* A CUDA access-policy window (cudaAccessPolicyWindow). Properties use CUDA's numbering:
 * 0 normal, 1 streaming, 2 persisting. */
typedef struct policy_window {
    uint64_t base, bytes;
    double hit_ratio;
    uint8_t hit_prop, miss_prop;
} policy_window;

/* The priority the window gives an access to `addr`: IR_EVICT_NONE outside the window, otherwise
 * hit_prop for the selected share (hit_ratio rounded to sixteenths... see policy_line_selected),
 * miss_prop for the rest; persisting -> LAST, streaming -> FIRST, normal -> NORMAL (demote). */
uint8_t policy_window_priority(const policy_window *w, uint64_t addr);

#endif

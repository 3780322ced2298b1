/* The mbarrier object as a 64-bit word of shared memory: its encoding and its state machine
 * (PTX ISA 9.1, "Parallel Synchronization and Communication Instructions: mbarrier").
 * PTX keeps the encoding opaque; this is gpumemsim's own (docs/semantics.md, "mbarrier"). The
 * functions are pure: they take and return words, so the executor decides where the word lives
 * (a CTA's shared memory) and who may touch it (mbarrier.*, cp.async.mbarrier.arrive, the
 * completion of bulk copies).
 *
 *   bits  0..19  pending arrivals of the current phase   (0 .. 2^20-1)
 *   bits 20..39  expected arrivals of every later phase  (0 .. 2^20-1; init sets 1 .. 2^20-1)
 *   bits 40..60  tx-count, 21-bit two's complement       (-(2^20-1) .. 2^20-1)
 *   bit  61      the current phase's parity
 *   bit  62      zero
 *   bit  63      initialized (mbarrier.init sets it, mbarrier.inval clears the word)
 *
 * A phase completes when its pending arrivals and its tx-count are both zero: the parity flips,
 * the pending arrivals reload from the expected count and the tx-count restarts at zero.
 *
 * The state token that arrive returns (the `state` operand of test_wait and pending_count) is
 * bit 63 set, bit 61 the parity of the phase the arrival counted in, bits 0..19 the pending
 * arrivals that phase had left right after the arrival. */
#ifndef GMS_EXEC_MBARRIER_WORD_H
#define GMS_EXEC_MBARRIER_WORD_H

#include <stdint.h>

enum {
    MBAR_COUNT_MAX = (1 << 20) - 1, /* largest arrival count, and largest |tx-count| */
};

/* What an update did. MBAR_OK and MBAR_COMPLETED leave a new word; every error leaves the
 * word as it was. */
typedef enum {
    MBAR_OK = 0,         /* applied; the phase is still open */
    MBAR_COMPLETED,      /* applied, and the update completed the phase */
    MBAR_ERR_UNINIT,     /* the word is not an initialized mbarrier */
    MBAR_ERR_COUNT,      /* a count outside 1 .. 2^20-1 (init, arrive count) */
    MBAR_ERR_UNDERFLOW,  /* more arrivals than the phase has pending (or, with drop, expects) */
    MBAR_ERR_TX_RANGE,   /* the tx-count would leave -(2^20-1) .. 2^20-1, or a byte count does */
} mbar_status;

/* The word mbarrier.init writes for `count` expected arrivals: phase 0, nothing pending beyond
 * `count`, tx-count 0. *word (OUT). Returns MBAR_OK, or MBAR_ERR_COUNT when count is outside
 * 1 .. 2^20-1 (the word is then not written). */
mbar_status mbar_init(uint32_t count, uint64_t *word);

/* 1 when `word` holds an initialized mbarrier. */
int mbar_is_valid(uint64_t word);

/* An arrival of `count` (1 .. 2^20-1) on *word (IN/OUT). With `drop` set (arrive_drop) the
 * expected count of later phases also falls by `count`. *token (OUT, may be NULL) receives
 * the state token of the phase the arrival counted in. Returns MBAR_OK, MBAR_COMPLETED,
 * MBAR_ERR_UNINIT, MBAR_ERR_COUNT, or MBAR_ERR_UNDERFLOW when count exceeds the pending
 * arrivals (or, with drop, the expected count). */
mbar_status mbar_arrive(uint64_t *word, uint32_t count, int drop, uint64_t *token);

/* expect_tx: the tx-count of the current phase rises by `bytes` (0 .. 2^20-1). Never completes
 * a phase. Returns MBAR_OK, MBAR_ERR_UNINIT or MBAR_ERR_TX_RANGE. */
mbar_status mbar_expect_tx(uint64_t *word, uint32_t bytes);

/* complete_tx (an explicit mbarrier.complete_tx, or the end of an asynchronous copy that
 * signals the barrier): the tx-count falls by `bytes` (0 .. 2^20-1). Returns MBAR_OK,
 * MBAR_COMPLETED, MBAR_ERR_UNINIT or MBAR_ERR_TX_RANGE. */
mbar_status mbar_complete_tx(uint64_t *word, uint32_t bytes);

/* The pending arrivals of the current phase rise by `count` (1 .. 2^20-1): an arrival that will
 * come later and was not in the expected count (cp.async.mbarrier.arrive without .noinc counts
 * itself in when it is issued, and arrives when its copies complete). Never completes a phase.
 * Returns MBAR_OK, MBAR_ERR_UNINIT, or MBAR_ERR_COUNT when count is outside 1 .. 2^20-1 or the
 * pending arrivals would exceed 2^20-1. */
mbar_status mbar_add_pending(uint64_t *word, uint32_t count);

/* test_wait / try_wait with a state token: 1 when the phase the token was taken in has
 * completed (the barrier's parity differs from the token's), else 0. An invalid word or
 * token gives 0. */
int mbar_token_phase_done(uint64_t word, uint64_t token);

/* test_wait.parity / try_wait.parity: 1 when the phase of parity `parity` (0 or 1; other bits
 * ignored) has completed, i.e. the current phase has the other parity; else 0. */
int mbar_parity_phase_done(uint64_t word, uint32_t parity);

/* mbarrier.pending_count: the pending arrivals recorded in a state token (0 .. 2^20-1). */
uint32_t mbar_token_pending(uint64_t token);

/* Field access for reports, tests and fault messages. */
uint32_t mbar_pending(uint64_t word);
uint32_t mbar_expected(uint64_t word);
int32_t mbar_tx_count(uint64_t word);
uint32_t mbar_parity(uint64_t word);

#endif

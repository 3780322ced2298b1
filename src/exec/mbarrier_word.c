/* The mbarrier state machine on gpumemsim's 64-bit encoding (mbarrier_word.h, docs/semantics.md
 * "mbarrier"). Pure functions of words: no memory, no warps. */
#include "exec/mbarrier_word.h"

enum {
    EXPECTED_SHIFT = 20,
    TX_SHIFT = 40,
    PARITY_BIT = 61,
    VALID_BIT = 63,
};

#define FIELD20 UINT64_C(0xFFFFF)
#define FIELD21 UINT64_C(0x1FFFFF)

uint32_t mbar_pending(uint64_t word) { return (uint32_t)(word & FIELD20); }
uint32_t mbar_expected(uint64_t word) { return (uint32_t)((word >> EXPECTED_SHIFT) & FIELD20); }
uint32_t mbar_parity(uint64_t word) { return (uint32_t)(word >> PARITY_BIT) & 1u; }
int mbar_is_valid(uint64_t word) { return (int)(word >> VALID_BIT); }

int32_t mbar_tx_count(uint64_t word)
{
    uint32_t raw = (uint32_t)((word >> TX_SHIFT) & FIELD21);
    return (raw & 0x100000u) ? (int32_t)raw - (1 << 21) : (int32_t)raw;
}

static uint64_t pack(uint32_t pending, uint32_t expected, int32_t tx, uint32_t parity)
{
    return ((uint64_t)1 << VALID_BIT) | ((uint64_t)(parity & 1u) << PARITY_BIT) |
           (((uint64_t)(uint32_t)tx & FIELD21) << TX_SHIFT) |
           ((uint64_t)expected << EXPECTED_SHIFT) | (uint64_t)pending;
}

/* Writes the word for the given fields, completing the phase when nothing is left of it. */
static mbar_status settle(uint64_t *word, uint32_t pending, uint32_t expected, int32_t tx,
                          uint32_t parity)
{
    if (pending == 0 && tx == 0) {
        *word = pack(expected, expected, 0, parity ^ 1u);
        return MBAR_COMPLETED;
    }
    *word = pack(pending, expected, tx, parity);
    return MBAR_OK;
}

mbar_status mbar_init(uint32_t count, uint64_t *word)
{
    if (count < 1 || count > MBAR_COUNT_MAX)
        return MBAR_ERR_COUNT;
    *word = pack(count, count, 0, 0);
    return MBAR_OK;
}

mbar_status mbar_arrive(uint64_t *word, uint32_t count, int drop, uint64_t *token)
{
    uint64_t w = *word;
    if (!mbar_is_valid(w))
        return MBAR_ERR_UNINIT;
    if (count < 1 || count > MBAR_COUNT_MAX)
        return MBAR_ERR_COUNT;
    uint32_t pending = mbar_pending(w), expected = mbar_expected(w);
    if (count > pending || (drop && count > expected))
        return MBAR_ERR_UNDERFLOW;
    pending -= count;
    if (drop)
        expected -= count;
    if (token)
        *token = ((uint64_t)1 << VALID_BIT) | ((uint64_t)mbar_parity(w) << PARITY_BIT) | pending;
    return settle(word, pending, expected, mbar_tx_count(w), mbar_parity(w));
}

/* Moves the tx-count by delta (a byte count of at most 2^20-1 either way). */
static mbar_status move_tx(uint64_t *word, int32_t delta)
{
    uint64_t w = *word;
    if (!mbar_is_valid(w))
        return MBAR_ERR_UNINIT;
    int32_t tx = mbar_tx_count(w) + delta;
    if (tx > MBAR_COUNT_MAX || tx < -MBAR_COUNT_MAX)
        return MBAR_ERR_TX_RANGE;
    return settle(word, mbar_pending(w), mbar_expected(w), tx, mbar_parity(w));
}

mbar_status mbar_expect_tx(uint64_t *word, uint32_t bytes)
{
    if (bytes > MBAR_COUNT_MAX)
        return mbar_is_valid(*word) ? MBAR_ERR_TX_RANGE : MBAR_ERR_UNINIT;
    /* Raising the tx-count never completes a phase. The one word with nothing pending and a
     * zero tx-count is a barrier whose expected count was dropped to zero; expect_tx of 0
     * bytes leaves it as it is. */
    uint64_t before = *word;
    mbar_status s = move_tx(word, (int32_t)bytes);
    if (s == MBAR_COMPLETED) {
        *word = before;
        return MBAR_OK;
    }
    return s;
}

mbar_status mbar_complete_tx(uint64_t *word, uint32_t bytes)
{
    if (bytes > MBAR_COUNT_MAX)
        return mbar_is_valid(*word) ? MBAR_ERR_TX_RANGE : MBAR_ERR_UNINIT;
    return move_tx(word, -(int32_t)bytes);
}

mbar_status mbar_add_pending(uint64_t *word, uint32_t count)
{
    uint64_t w = *word;
    if (!mbar_is_valid(w))
        return MBAR_ERR_UNINIT;
    if (count < 1 || count > MBAR_COUNT_MAX || mbar_pending(w) + count > MBAR_COUNT_MAX)
        return MBAR_ERR_COUNT;
    *word = pack(mbar_pending(w) + count, mbar_expected(w), mbar_tx_count(w), mbar_parity(w));
    return MBAR_OK;
}

int mbar_token_phase_done(uint64_t word, uint64_t token)
{
    if (!mbar_is_valid(word) || !(token >> VALID_BIT))
        return 0;
    return mbar_parity(word) != ((uint32_t)(token >> PARITY_BIT) & 1u);
}

int mbar_parity_phase_done(uint64_t word, uint32_t parity)
{
    if (!mbar_is_valid(word))
        return 0;
    return mbar_parity(word) != (parity & 1u);
}

uint32_t mbar_token_pending(uint64_t token) { return (uint32_t)(token & FIELD20); }

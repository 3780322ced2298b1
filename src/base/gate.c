/* base/gate.h: spin, then sleep on the word that must change.
 *
 * A wake is a system call, needed only when a thread sleeps: a sleeper counts itself before
 * it checks the word one last time, and a waker reads the count after it changed the word
 * (both sequentially consistent), so one of the two sees the other. */
#define _GNU_SOURCE
#include "base/gate.h"

#include <limits.h>
#include <sched.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

enum { SPINS = 100, YIELD_EVERY = 64 };

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void sleep_while(atomic_uint *word, unsigned value)
{
#if defined(__linux__)
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
#else
    (void)word;
    (void)value;
    sched_yield();
#endif
}

static void wake(atomic_uint *word)
{
#if defined(__linux__)
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}

/* Waits while *word == value, spinning `spins` times before it sleeps; `sleepers` counts the
 * threads asleep on word. */
static void wait_change_spin(atomic_uint *word, atomic_uint *sleepers, unsigned value,
                             unsigned spins)
{
    for (unsigned i = 0; i < spins; i++) {
        if (atomic_load_explicit(word, memory_order_acquire) != value)
            return;
        relax();
        /* A long spin gives the CPU away now and then: with more runnable threads than CPUs
         * the thread it waits for may be the one it keeps off a CPU (sched_yield returns at
         * once when nothing else waits for this one). */
        if (spins > SPINS && (i & (YIELD_EVERY - 1)) == YIELD_EVERY - 1)
            sched_yield();
    }
    while (atomic_load_explicit(word, memory_order_acquire) == value) {
        atomic_fetch_add(sleepers, 1);
        if (atomic_load(word) == value) /* seq_cst: else the waker sees this thread counted */
            sleep_while(word, value);
        atomic_fetch_sub(sleepers, 1);
    }
}

static void wait_change(atomic_uint *word, atomic_uint *sleepers, unsigned value)
{
    wait_change_spin(word, sleepers, value, SPINS);
}

void gate_open_ranges(gate *g, const uint32_t *starts, uint32_t nranges)
{
    uint64_t next = (uint64_t)atomic_load_explicit(&g->phase, memory_order_relaxed) + 1;
    for (uint32_t r = 0; r < GATE_RANGES; r++) {
        uint64_t from = r < nranges ? starts[r] : 0, to = r < nranges ? starts[r + 1] : 0;
        atomic_store_explicit(&g->range[r].claim, next << 32 | to << 16 | from,
                              memory_order_release);
    }
    atomic_fetch_add(&g->phase, 1); /* seq_cst: before the read of the sleepers */
    if (atomic_load(&g->phase_sleepers))
        wake(&g->phase);
}

void gate_open(gate *g, uint32_t items)
{
    const uint32_t starts[2] = {0, items};
    gate_open_ranges(g, starts, 1);
}

unsigned gate_wait_open(gate *g, unsigned seen)
{
    wait_change(&g->phase, &g->phase_sleepers, seen);
    return atomic_load_explicit(&g->phase, memory_order_acquire);
}

int gate_claim_ordered(gate *g, const uint8_t *order, uint32_t n, uint32_t *item)
{
again:;
    /* the phase of the look: every range word must carry it (gate_open_ranges writes them
     * one after the other) */
    uint64_t phase =
        atomic_load_explicit(&g->range[order[0] & ~GATE_FROM_END].claim, memory_order_acquire) >>
        32;
    for (uint32_t i = 0; i < n; i++) {
        _Atomic uint64_t *w = &g->range[order[i] & ~GATE_FROM_END].claim;
        int from_end = (order[i] & GATE_FROM_END) != 0;
        uint64_t c = atomic_load_explicit(w, memory_order_acquire);
        for (;;) {
            if (c >> 32 != phase)
                goto again; /* a phase opened (or is opening) during the look */
            uint32_t next = (uint32_t)c & 0xffff, end = (uint32_t)(c >> 16) & 0xffff;
            if (next >= end)
                break;
            /* the front's item (next moves up) or the end's (end moves down); acquire: the
             * leader's writes before it opened the phase */
            uint64_t taken = from_end ? c - ((uint64_t)1 << 16) : c + 1;
            if (atomic_compare_exchange_weak_explicit(w, &c, taken, memory_order_acquire,
                                                      memory_order_acquire)) {
                *item = from_end ? end - 1 : next;
                return 1;
            }
        }
    }
    return 0;
}

int gate_claim(gate *g, uint32_t *item)
{
    static const uint8_t in_order[GATE_RANGES] = {0, 1, 2, 3, 4, 5, 6, 7,
                                                  8, 9, 10, 11, 12, 13, 14, 15};
    return gate_claim_ordered(g, in_order, GATE_RANGES, item);
}

unsigned gate_word_wait(atomic_uint *word, atomic_uint *sleepers, unsigned seen)
{
    wait_change(word, sleepers, seen);
    return atomic_load_explicit(word, memory_order_acquire);
}

unsigned gate_word_wait_spin(atomic_uint *word, atomic_uint *sleepers, unsigned seen,
                             unsigned spins)
{
    wait_change_spin(word, sleepers, seen, spins);
    return atomic_load_explicit(word, memory_order_acquire);
}

void gate_word_bump(atomic_uint *word, atomic_uint *sleepers)
{
    atomic_fetch_add(word, 1); /* seq_cst, as in gate_open */
    if (atomic_load(sleepers))
        wake(word);
}

void gate_word_set(atomic_uint *word, atomic_uint *sleepers, unsigned value)
{
    atomic_store(word, value); /* seq_cst, as in gate_open */
    if (atomic_load(sleepers))
        wake(word);
}

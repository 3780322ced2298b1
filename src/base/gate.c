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

enum { SPINS = 100 };

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

/* Waits while *word == value; `sleepers` counts the threads asleep on word. */
static void wait_change(atomic_uint *word, atomic_uint *sleepers, unsigned value)
{
    for (int i = 0; i < SPINS; i++) {
        if (atomic_load_explicit(word, memory_order_acquire) != value)
            return;
        relax();
    }
    while (atomic_load_explicit(word, memory_order_acquire) == value) {
        atomic_fetch_add(sleepers, 1);
        if (atomic_load(word) == value) /* seq_cst: else the waker sees this thread counted */
            sleep_while(word, value);
        atomic_fetch_sub(sleepers, 1);
    }
}

void gate_open(gate *g, uint32_t items)
{
    unsigned next = atomic_load_explicit(&g->phase, memory_order_relaxed) + 1;
    atomic_store_explicit(&g->claim, (uint64_t)next << 32 | (uint64_t)items << 16,
                          memory_order_release);
    atomic_fetch_add(&g->phase, 1); /* seq_cst: before the read of the sleepers */
    if (atomic_load(&g->phase_sleepers))
        wake(&g->phase);
}

unsigned gate_wait_open(gate *g, unsigned seen)
{
    wait_change(&g->phase, &g->phase_sleepers, seen);
    return atomic_load_explicit(&g->phase, memory_order_acquire);
}

int gate_claim(gate *g, uint32_t *item)
{
    uint64_t c = atomic_load_explicit(&g->claim, memory_order_acquire);
    for (;;) {
        uint32_t next = (uint32_t)c & 0xffff, items = (uint32_t)(c >> 16) & 0xffff;
        if (next >= items)
            return 0;
        /* acquire: the leader's writes before it opened the phase */
        if (atomic_compare_exchange_weak_explicit(&g->claim, &c, c + 1, memory_order_acquire,
                                                  memory_order_acquire)) {
            *item = next;
            return 1;
        }
    }
}

unsigned gate_word_wait(atomic_uint *word, atomic_uint *sleepers, unsigned seen)
{
    wait_change(word, sleepers, seen);
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

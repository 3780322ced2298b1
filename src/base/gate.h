/* Work shared out in phases between host threads (the executor's SMs on several host threads,
 * exec_window.c). A phase is a set of numbered items; every thread takes items one at a time
 * until none is left, so a thread that is asleep or preempted delays nothing: its share is taken
 * by whoever runs. Who waits for what (every item done, a decision) is told through words that
 * a thread waits on (gate_word_wait). A waiting thread spins briefly (phases are often a few
 * microseconds apart), then sleeps in the kernel (a futex on Linux, sched_yield elsewhere), so
 * idle threads cost no CPU time. */
#ifndef GMS_BASE_GATE_H
#define GMS_BASE_GATE_H

#include <stdatomic.h>
#include <stdint.h>

/* A phase's items come in up to GATE_RANGES ranges of consecutive numbers. A thread claims
 * from the ranges in an order of its own (gate_claim_ordered): each thread first its own range,
 * so that the same items (an SM, a part of the L2) go to the same thread from phase to phase
 * while the threads keep pace, and their data stay in that thread's core's caches; then the
 * others' ranges, so that an idle thread still takes what a slow one has not begun. */
enum { GATE_RANGES = 16 };

/* A range's claim word, alone in its host cache line (threads claim from different ranges at
 * once): phase number << 32 | end << 16 | next item. The number makes a claim of a phase that
 * has ended fail, so a late thread cannot take, as the old phase's, an item of the next (whose
 * parameters it would not have read). */
typedef struct gate_range {
    _Alignas(64) _Atomic uint64_t claim;
} gate_range;

typedef struct gate {
    gate_range range[GATE_RANGES];
    atomic_uint phase;   /* bumped after each phase's claim words: what idle helpers sleep on */
    atomic_uint phase_sleepers; /* threads asleep (or about to be) on `phase`: without one, a
                                   wake is skipped */
} gate;

/* Opens the next phase with `items` items (at most 65535; 0: none, e.g. to wake the helpers
 * so that they quit), all in range 0, and wakes the helpers. One thread at a time opens
 * phases, after every item of the phase before is done; everything it wrote before is seen by
 * a thread that takes one of the new phase's items. */
void gate_open(gate *g, uint32_t items);
/* gate_open with the items 0 .. starts[nranges] - 1 in `nranges` ranges (1 to GATE_RANGES):
 * range r holds items starts[r] .. starts[r + 1] - 1 (starts rising, starts[0] = 0, the last
 * at most 65535; an empty range has starts[r] = starts[r + 1]). Ranges past nranges are
 * empty. */
void gate_open_ranges(gate *g, const uint32_t *starts, uint32_t nranges);
/* Helper: waits until a phase after `seen` is open and returns its number (the new `seen`). */
unsigned gate_wait_open(gate *g, unsigned seen);
/* Any thread: takes the current phase's next item into *item (OUT) and returns 1, or returns 0
 * when every item of the phase has been taken; the ranges in the order 0, 1, ... */
int gate_claim(gate *g, uint32_t *item);
/* gate_claim taking from the ranges order[0], order[1], ..., order[n - 1] (each a range below
 * GATE_RANGES, with GATE_FROM_END or not) the first with an item left: that range's lowest
 * item left, or with GATE_FROM_END its highest (a thread taking from another's range takes
 * from its end, so that the owner, which takes from the front, keeps the items it had in the
 * phases before and the thief takes the same few ones each time). Every range is looked at in
 * one phase: a range found empty is empty in that phase, and when a new phase opens during the
 * look the look starts again in it, so a thread never takes an item of a later range of its
 * order while an earlier one of the same phase still has items. */
enum { GATE_FROM_END = 0x80 };
int gate_claim_ordered(gate *g, const uint8_t *order, uint32_t n, uint32_t *item);

/* A word that other threads wait on: gate_word_wait returns once *word != seen (acquire), and
 * returns it; gate_word_set stores value and wakes the waiters. `sleepers` counts the threads
 * asleep on the word. */
unsigned gate_word_wait(atomic_uint *word, atomic_uint *sleepers, unsigned seen);
/* gate_word_wait spinning `spins` times (a pause each, some 10 to 140 ns; above 100, a
 * sched_yield every 64, so that a waiter does not keep the thread it waits for off a busy
 * host's CPUs) before it sleeps: for hand-overs that come every few tens of microseconds (the
 * timing model's cycles), where a sleep and its wake would cost more than the wait. */
unsigned gate_word_wait_spin(atomic_uint *word, atomic_uint *sleepers, unsigned seen,
                             unsigned spins);
void gate_word_set(atomic_uint *word, atomic_uint *sleepers, unsigned value);
/* Adds 1 to *word in one atomic step and wakes the waiters: a count of events that several
 * threads bump, which a load followed by gate_word_set could move back (a thread that loaded
 * it, was preempted and stored later would undo the others' bumps, and a waiter could then see
 * its old value again and sleep through the event that followed). */
void gate_word_bump(atomic_uint *word, atomic_uint *sleepers);

#endif

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

typedef struct gate {
    /* The phase's claim word: phase number << 32 | items << 16 | next item. The number makes
     * a claim of a phase that has ended fail, so a late thread cannot take, as the old phase's,
     * an item of the next (whose parameters it would not have read). */
    _Atomic uint64_t claim;
    atomic_uint phase;   /* bumped after each new claim word: what idle helpers sleep on */
    atomic_uint phase_sleepers; /* threads asleep (or about to be) on `phase`: without one, a
                                   wake is skipped */
} gate;

/* Opens the next phase with `items` items (at most 65535; 0: none, e.g. to wake the helpers
 * so that they quit) and wakes the helpers. One thread at a time opens phases, after every
 * item of the phase before is done; everything it wrote before is seen by a thread that takes
 * one of the new phase's items. */
void gate_open(gate *g, uint32_t items);
/* Helper: waits until a phase after `seen` is open and returns its number (the new `seen`). */
unsigned gate_wait_open(gate *g, unsigned seen);
/* Any thread: takes the current phase's next item into *item (OUT) and returns 1, or returns 0
 * when every item of the phase has been taken. */
int gate_claim(gate *g, uint32_t *item);

/* A word that other threads wait on: gate_word_wait returns once *word != seen (acquire), and
 * returns it; gate_word_set stores value and wakes the waiters. `sleepers` counts the threads
 * asleep on the word. */
unsigned gate_word_wait(atomic_uint *word, atomic_uint *sleepers, unsigned seen);
void gate_word_set(atomic_uint *word, atomic_uint *sleepers, unsigned value);
/* Adds 1 to *word in one atomic step and wakes the waiters: a count of events that several
 * threads bump, which a load followed by gate_word_set could move back (a thread that loaded
 * it, was preempted and stored later would undo the others' bumps, and a waiter could then see
 * its old value again and sleep through the event that followed). */
void gate_word_bump(atomic_uint *word, atomic_uint *sleepers);

#endif

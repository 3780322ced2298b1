/* Work shared out in phases between one leading thread and a pool of helper threads (the
 * executor's SMs on several host threads, exec_window.c). The leader opens a phase of numbered
 * items; every thread, the leader included, takes items one at a time until none is left; the
 * leader then waits until every item is done, not until every helper has checked in, so a
 * helper that is asleep or preempted delays nothing: its share is taken by whoever is running.
 * A waiting thread spins briefly (phases are often a few microseconds apart), then sleeps in
 * the kernel (a futex on Linux, sched_yield elsewhere), so idle helpers cost no CPU time. */
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
    atomic_uint done;    /* items done, over every phase */
    atomic_uint phase_sleepers, done_sleepers; /* threads asleep (or about to be) on each
                                                  word: without one, a wake is skipped */
} gate;

/* Leader: opens the next phase with `items` items (at most 65535; 0: none, to wake the helpers,
 * e.g. to let them quit) and wakes the helpers. Everything the leader wrote before is seen by
 * a thread that takes one of its items. */
void gate_open(gate *g, uint32_t items);
/* Helper: waits until a phase after `seen` is open and returns its number (the new `seen`). */
unsigned gate_wait_open(gate *g, unsigned seen);
/* Any thread: takes the current phase's next item into *item (OUT) and returns 1, or returns 0
 * when every item of the phase has been taken. */
int gate_claim(gate *g, uint32_t *item);
/* Any thread: reports an item it took done (its writes are seen by the leader after
 * gate_wait_done). */
void gate_item_done(gate *g);
/* Leader: waits until `target` items are done (every phase's items opened so far). */
void gate_wait_done(gate *g, unsigned target);

/* A flag word besides the phases (0 until set): gate_flag_wait waits until *word != 0 and
 * returns it; gate_flag_set stores value (non-zero) and wakes the waiters. `sleepers` counts
 * the threads asleep on the word. */
unsigned gate_flag_wait(atomic_uint *word, atomic_uint *sleepers);
void gate_flag_set(atomic_uint *word, atomic_uint *sleepers, unsigned value);

#endif

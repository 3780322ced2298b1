/* Hand-offs between one leading thread and a pool of helper threads that work in phases (the
 * executor's SMs on several host threads, exec_window.c): the leader opens a phase, every
 * helper works through it and reports done, the leader waits for all of them. A waiting thread
 * spins briefly (phases are often a few microseconds apart), then sleeps in the kernel (a
 * futex on Linux, sched_yield elsewhere), so idle helpers cost no CPU time. */
#ifndef GMS_BASE_GATE_H
#define GMS_BASE_GATE_H

#include <stdatomic.h>

typedef struct gate {
    atomic_uint phase;   /* bumped by the leader to open a phase */
    atomic_uint done;    /* bumped by each helper when it finished its part of a phase */
    atomic_uint phase_sleepers, done_sleepers; /* threads asleep (or about to be) on each
                                                  word: without one, a wake is skipped */
} gate;

/* Opens the next phase (leader) and wakes the helpers. */
void gate_open(gate *g);
/* Helper: waits until a phase after `seen` is open and returns its number (the new `seen`). */
unsigned gate_wait_open(gate *g, unsigned seen);
/* Helper: reports its part of the current phase done. */
void gate_report(gate *g, unsigned helpers);
/* Leader: waits until the `done` count reaches `target` (helpers x phases opened so far). */
void gate_wait_done(gate *g, unsigned target);

#endif

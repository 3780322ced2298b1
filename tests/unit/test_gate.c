/* Unit tests for base/gate.h, the phases of items and the waited-on words that the executor's
 * host threads share (docs/architecture.md, "SMs on several host threads", "Hand-overs"):
 *
 * - gate_claim hands out a phase's items once each, in order, and nothing past them, also to
 *   five threads claiming one large phase at once;
 * - gate_claim_ordered takes from a thread's ranges in its order, each from the front or (with
 *   GATE_FROM_END) the end, skips empty ranges, and, with four threads each in its own order
 *   through 400 phases of ranges (empty ones among them), takes every item exactly once;
 * - a leader and three helpers through 400 phases of 0 to 199 items: every item of every phase
 *   is taken exactly once, by whichever thread claims it, and the leader sees the phase done
 *   through a word the takers bump (gate_word_bump) and it waits on (gate_word_wait);
 * - gate_word_bump from four threads at once loses no bump (a load and a later store would:
 *   the fault session 18 fixed), and a waiter on the word wakes at each change it waits for. */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "base/gate.h"

static void test_claim_items(void **state)
{
    (void)state;
    gate g;
    memset(&g, 0, sizeof g);
    uint32_t item = 99;
    assert_int_equal(gate_claim(&g, &item), 0); /* no phase open yet: nothing to take */
    gate_open(&g, 5);
    for (uint32_t k = 0; k < 5; k++) {
        assert_int_equal(gate_claim(&g, &item), 1);
        assert_int_equal(item, k);
    }
    assert_int_equal(gate_claim(&g, &item), 0);
    assert_int_equal(gate_claim(&g, &item), 0);
    gate_open(&g, 0);
    assert_int_equal(gate_claim(&g, &item), 0);
    gate_open(&g, 3); /* a new phase starts at item 0 again */
    assert_int_equal(gate_claim(&g, &item), 1);
    assert_int_equal(item, 0);
    gate_open(&g, 65535); /* the most a phase holds */
    uint32_t n = 0;
    while (gate_claim(&g, &item)) {
        assert_int_equal(item, n);
        n++;
    }
    assert_int_equal(n, 65535);
    assert_int_equal(atomic_load(&g.phase), 4);
}

static void test_claim_ranges_in_order(void **state)
{
    (void)state;
    gate g;
    memset(&g, 0, sizeof g);
    /* range 0: items 0..2, range 1: none, range 2: 3..6, range 3: 7 */
    const uint32_t starts[] = {0, 3, 3, 7, 8};
    gate_open_ranges(&g, starts, 4);
    const uint8_t order[] = {2, 1 | GATE_FROM_END, 0 | GATE_FROM_END, 3};
    const uint32_t want[] = {3, 4, 5, 6, 2, 1, 0, 7};
    uint32_t item = 99;
    for (unsigned k = 0; k < sizeof want / sizeof want[0]; k++) {
        assert_int_equal(gate_claim_ordered(&g, order, 4, &item), 1);
        assert_int_equal(item, want[k]);
    }
    assert_int_equal(gate_claim_ordered(&g, order, 4, &item), 0);
    assert_int_equal(gate_claim(&g, &item), 0);
    /* a new phase: every range again, and gate_claim takes them in range order */
    gate_open_ranges(&g, starts, 4);
    const uint8_t own3[] = {3};
    assert_int_equal(gate_claim_ordered(&g, own3, 1, &item), 1);
    assert_int_equal(item, 7);
    assert_int_equal(gate_claim_ordered(&g, own3, 1, &item), 0); /* its range only: empty */
    for (uint32_t k = 0; k < 7; k++) {
        assert_int_equal(gate_claim(&g, &item), 1);
        assert_int_equal(item, k);
    }
    assert_int_equal(gate_claim(&g, &item), 0);
    /* gate_open puts every item in range 0, the others empty */
    gate_open(&g, 2);
    const uint8_t back[] = {5, 0 | GATE_FROM_END};
    assert_int_equal(gate_claim_ordered(&g, back, 2, &item), 1);
    assert_int_equal(item, 1);
}

enum { PHASES = 400, MAX_ITEMS = 200, HELPERS = 3 };

/* What the leader and the helpers share: the gate, the current phase's items, how many times
 * each item of each phase was taken, and the word counting the items done. */
typedef struct shared {
    gate g;
    atomic_int quit;
    atomic_uint taken[PHASES][MAX_ITEMS];
    atomic_uint phase_index; /* the phase whose items the claims take (set before gate_open) */
    atomic_uint done, done_sleepers;
    int ranges;     /* 1: the phases come in four ranges, each thread claiming in its order */
} shared;

/* The order of the four ranges for thread t: its own first, from the front, then the others
 * from their ends (as exec_window.c's workers claim). */
static void order_of(uint32_t t, uint8_t order[4])
{
    for (uint32_t i = 0; i < 4; i++) order[i] = (uint8_t)((t + i) % 4 | (i ? GATE_FROM_END : 0));
}

/* Takes the open phase's items until none is left, counting each and bumping `done`. The
 * item's phase is read after its claim (whose acquire sees what the leader wrote before it
 * opened the phase): a thread late from the phase before may claim the next one's items, and
 * the next phase after that opens only once this item is counted. */
static void take_all(shared *sh, uint32_t t)
{
    uint32_t item;
    uint8_t order[4];
    order_of(t, order);
    while (sh->ranges ? gate_claim_ordered(&sh->g, order, 4, &item) : gate_claim(&sh->g, &item)) {
        unsigned p = atomic_load_explicit(&sh->phase_index, memory_order_relaxed);
        atomic_fetch_add(&sh->taken[p][item], 1);
        gate_word_bump(&sh->done, &sh->done_sleepers);
    }
}

typedef struct helper_arg {
    shared *sh;
    uint32_t index; /* 1 .. HELPERS; the leader is 0 */
} helper_arg;

static void *helper(void *arg)
{
    helper_arg *h = arg;
    unsigned seen = 0;
    for (;;) {
        seen = gate_wait_open(&h->sh->g, seen);
        if (atomic_load(&h->sh->quit))
            return NULL;
        take_all(h->sh, h->index);
    }
}

/* A leader and three helpers through PHASES phases; with `ranges`, each phase's items in four
 * ranges at bounds that move from phase to phase (empty ranges among them). */
static void phases_across_threads(int ranges)
{
    static shared sh; /* 320 KB: not on the stack */
    memset(&sh, 0, sizeof sh);
    sh.ranges = ranges;
    pthread_t t[HELPERS];
    helper_arg args[HELPERS];
    for (int i = 0; i < HELPERS; i++) {
        args[i] = (helper_arg){&sh, (uint32_t)i + 1};
        assert_int_equal(pthread_create(&t[i], NULL, helper, &args[i]), 0);
    }
    unsigned done = 0;
    uint32_t total = 0;
    for (uint32_t p = 0; p < PHASES; p++) {
        uint32_t items = (p * 37u + p / 7u) % MAX_ITEMS; /* some phases have none */
        atomic_store_explicit(&sh.phase_index, p, memory_order_relaxed);
        if (ranges) {
            uint32_t a = items * (p % 5) / 8, b = a + items * (p % 3) / 8;
            const uint32_t starts[] = {0, a, b, b + (items - b) / 2, items};
            gate_open_ranges(&sh.g, starts, 4);
        } else {
            gate_open(&sh.g, items);
        }
        take_all(&sh, 0); /* the leader takes items too */
        total += items;
        while (done != total) /* every item taken and counted, by whoever took it */
            done = gate_word_wait(&sh.done, &sh.done_sleepers, done);
        for (uint32_t k = 0; k < MAX_ITEMS; k++)
            assert_int_equal(atomic_load(&sh.taken[p][k]), k < items ? 1 : 0);
    }
    atomic_store(&sh.quit, 1);
    gate_open(&sh.g, 0); /* wakes the helpers, which quit */
    for (int i = 0; i < HELPERS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(done, total);
}

static void test_phases_across_threads(void **state)
{
    (void)state;
    phases_across_threads(0);
}

static void test_ranges_across_threads(void **state)
{
    (void)state;
    phases_across_threads(1);
}

enum { RACERS = 4, RACE_ITEMS = 65535, RACE_PHASES = 8 };

/* Threads that claim the items of one large phase at once. */
typedef struct race {
    gate g;
    atomic_uint start; /* the phase the racers may claim from: set once it is open */
    atomic_uchar taken[RACE_ITEMS];
} race;

static void *racer(void *arg)
{
    race *r = arg;
    while (atomic_load(&r->start) == 0) sched_yield();
    uint32_t item;
    while (gate_claim(&r->g, &item)) atomic_fetch_add(&r->taken[item], 1);
    return NULL;
}

/* Four threads and the caller claim the 65,535 items of a phase in tight loops, eight times:
 * each item is taken once (a claim made of a load and a store would hand some out twice). */
static void test_claims_race(void **state)
{
    (void)state;
    static race r;
    for (int p = 0; p < RACE_PHASES; p++) {
        memset(&r, 0, sizeof r);
        pthread_t t[RACERS];
        for (int i = 0; i < RACERS; i++) assert_int_equal(pthread_create(&t[i], NULL, racer, &r), 0);
        gate_open(&r.g, RACE_ITEMS);
        atomic_store(&r.start, 1);
        uint32_t item;
        while (gate_claim(&r.g, &item)) atomic_fetch_add(&r.taken[item], 1);
        for (int i = 0; i < RACERS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
        for (uint32_t k = 0; k < RACE_ITEMS; k++) assert_int_equal(atomic_load(&r.taken[k]), 1);
    }
}

enum { BUMPERS = 4, BUMPS = 50000 };

typedef struct counted {
    atomic_uint word, sleepers;
    atomic_int stop;
    unsigned waits; /* the waiter's returns, each with a larger count */
    int rose;       /* 1 while every return was larger than the count before */
} counted;

static void *bumper(void *arg)
{
    counted *c = arg;
    for (int i = 0; i < BUMPS; i++) gate_word_bump(&c->word, &c->sleepers);
    return NULL;
}

/* Waits on the word until told to stop (a last bump wakes it for that). */
static void *waiter(void *arg)
{
    counted *c = arg;
    unsigned seen = 0;
    while (!atomic_load(&c->stop)) {
        unsigned now = gate_word_wait(&c->word, &c->sleepers, seen);
        c->rose &= now > seen;
        c->waits++;
        seen = now;
    }
    return NULL;
}

static void test_word_bump_loses_nothing(void **state)
{
    (void)state;
    counted c;
    memset(&c, 0, sizeof c);
    c.rose = 1;
    pthread_t t[BUMPERS], w;
    assert_int_equal(pthread_create(&w, NULL, waiter, &c), 0);
    for (int i = 0; i < BUMPERS; i++) assert_int_equal(pthread_create(&t[i], NULL, bumper, &c), 0);
    for (int i = 0; i < BUMPERS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(atomic_load(&c.word), BUMPERS * BUMPS);
    atomic_store(&c.stop, 1);
    gate_word_bump(&c.word, &c.sleepers);
    assert_int_equal(pthread_join(w, NULL), 0);
    assert_true(c.rose);
    assert_true(c.waits >= 1);
    /* gate_word_set: a waiter on another value returns at once with the word's value */
    gate_word_set(&c.word, &c.sleepers, 7);
    assert_int_equal(gate_word_wait(&c.word, &c.sleepers, 3), 7);
}

int main(void)
{
    alarm(60); /* a gate that loses a wake or a bump hangs a test: end the run instead */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claim_items),
        cmocka_unit_test(test_claims_race),
        cmocka_unit_test(test_word_bump_loses_nothing),
        cmocka_unit_test(test_phases_across_threads),
        cmocka_unit_test(test_claim_ranges_in_order),
        cmocka_unit_test(test_ranges_across_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SASS control codes in time: when a warp's next instruction may issue under its stall counts,
 * scoreboards, &req waits and DEPBAR.LE (docs/timing.md, "Control codes";
 * ../reference/sass-dialect.md 2.2, 2.3 and 5.1-5.2).
 *
 * Pure and per warp: the state is a timing_ctrl_warp the caller owns; nothing here knows SMs,
 * schedulers, pipes or memory. The core tells it when an instruction issued and when its
 * sources were read and its results written; this module answers the earliest issue of the next
 * one. It never checks what the hardware would compute wrongly under too short stalls (that is
 * the executor's --strict-hazards): like the hardware, it follows the controls. */
#include "timing/timing_ctrl.h"

#include <string.h>

unsigned timing_ctrl_stall_cycles(const ir_ctrl *c)
{
    if (!c->present)
        return 0;
    if (c->stall > TIMING_CTRL_STALL_NO_YIELD_MAX && !c->yield)
        return TIMING_CTRL_STALL_NO_YIELD_LONG;
    return c->stall;
}

unsigned timing_ctrl_count(const timing_ctrl_warp *w, unsigned sb, uint64_t at)
{
    if (sb >= IR_SCOREBOARDS)
        return 0;
    unsigned n = 0;
    for (unsigned e = 0; e < w->pending[sb]; e++)
        n += w->active[sb][e] <= at && w->release[sb][e] > at;
    return n;
}

/* Earliest cycle >= at at which scoreboard sb holds at most `le` of the operations an
 * instruction issuing at `at` counts; *is_long: whether the operation whose clear decides it is
 * an L1TEX access. Operations that become active after `at` are left out: the caller asks again
 * at the answer, where they may count (see scoreboards_ready). */
static uint64_t board_ready(const timing_ctrl_warp *w, unsigned sb, unsigned le, uint64_t at,
                            int *is_long)
{
    uint64_t clears[TIMING_CTRL_PENDING_MAX];
    uint8_t longs[TIMING_CTRL_PENDING_MAX];
    unsigned m = 0;
    for (unsigned e = 0; e < w->pending[sb]; e++) {
        if (w->active[sb][e] > at || w->release[sb][e] <= at)
            continue;
        /* insertion sort by clear cycle: at most 16 entries */
        unsigned k = m++;
        while (k > 0 && clears[k - 1] > w->release[sb][e]) {
            clears[k] = clears[k - 1];
            longs[k] = longs[k - 1];
            k--;
        }
        clears[k] = w->release[sb][e];
        longs[k] = (uint8_t)((w->long_entries[sb] >> e) & 1u);
    }
    if (m <= le)
        return at;
    /* once the (m - le) earliest have cleared, at most le remain */
    *is_long = longs[m - le - 1];
    return clears[m - le - 1];
}

/* The earliest cycle >= start at which every waited scoreboard is clear and DEPBAR.LE holds.
 * Counts only rise when an operation becomes active and only fall when one clears, so a gate
 * that is shut at a cycle opens no earlier than the clear it needs: jump there and check again
 * (a newly active operation may hold it shut longer). Ends because cycles only grow and every
 * operation clears. */
static uint64_t scoreboards_ready(const timing_ctrl_warp *w, const ir_ctrl *c, uint64_t start,
                                  int *is_long)
{
    uint64_t at = start;
    for (;;) {
        uint64_t need = at;
        for (unsigned sb = 0; sb < IR_SCOREBOARDS; sb++) {
            if (!w->pending[sb])
                continue;
            unsigned le;
            if (c->wait_mask & (1u << sb))
                le = 0;
            else if (c->depbar_sb == sb)
                le = c->depbar_le;
            else
                continue;
            int l = 0;
            uint64_t r = board_ready(w, sb, le, at, &l);
            if (r > need) {
                need = r;
                *is_long = l;
            }
        }
        if (need == at)
            return at;
        at = need;
    }
}

timing_ctrl_wait timing_ctrl_explain(const timing_ctrl_warp *w, const ir_ctrl *c, uint64_t now)
{
    timing_ctrl_wait r = {now, now, TIMING_STALL_SELECTED};
    if (!c->present)
        return r;
    r.stall_until = w->next_issue > now ? w->next_issue : now;
    int is_long = 0;
    r.issue = scoreboards_ready(w, c, r.stall_until, &is_long);
    if (r.issue > r.stall_until)
        r.scoreboard = is_long ? TIMING_STALL_LONG_SCOREBOARD : TIMING_STALL_SHORT_SCOREBOARD;
    return r;
}

uint64_t timing_ctrl_earliest(const timing_ctrl_warp *w, const ir_ctrl *c, uint64_t now,
                              timing_stall *why)
{
    timing_ctrl_wait r = timing_ctrl_explain(w, c, now);
    if (why) {
        if (r.issue > r.stall_until)
            *why = r.scoreboard;
        else if (r.issue > now)
            *why = TIMING_STALL_WAIT;
        else
            *why = TIMING_STALL_SELECTED;
    }
    return r.issue;
}

/* Drops the entries of sb that have cleared by cycle `at`. */
static void board_prune(timing_ctrl_warp *w, unsigned sb, uint64_t at)
{
    unsigned kept = 0;
    uint16_t longs = 0;
    for (unsigned e = 0; e < w->pending[sb]; e++) {
        if (w->release[sb][e] <= at)
            continue;
        w->release[sb][kept] = w->release[sb][e];
        w->active[sb][kept] = w->active[sb][e];
        longs |= (uint16_t)(((w->long_entries[sb] >> e) & 1u) << kept);
        kept++;
    }
    w->pending[sb] = (uint8_t)kept;
    w->long_entries[sb] = longs;
}

/* Index of the entry of sb that clears first, other than `skip`. */
static unsigned board_earliest(const timing_ctrl_warp *w, unsigned sb, unsigned skip)
{
    unsigned best = skip == 0 ? 1 : 0;
    for (unsigned e = 0; e < w->pending[sb]; e++)
        if (e != skip && w->release[sb][e] < w->release[sb][best])
            best = e;
    return best;
}

/* A full scoreboard: the two entries that clear first become one that clears with the later of
 * them and is active from the earlier activation (it keeps their registers pending as long as
 * both would; the count is one short, documented in the header). */
static void board_merge(timing_ctrl_warp *w, unsigned sb)
{
    unsigned a = board_earliest(w, sb, TIMING_CTRL_PENDING_MAX);
    unsigned b = board_earliest(w, sb, a);
    if (w->active[sb][a] < w->active[sb][b])
        w->active[sb][b] = w->active[sb][a];
    if ((w->long_entries[sb] >> a) & 1u)
        w->long_entries[sb] |= (uint16_t)(1u << b);
    unsigned last = w->pending[sb] - 1u;
    w->release[sb][a] = w->release[sb][last];
    w->active[sb][a] = w->active[sb][last];
    uint16_t last_long = (uint16_t)((w->long_entries[sb] >> last) & 1u);
    w->long_entries[sb] = (uint16_t)((w->long_entries[sb] & ~(1u << a)) | (last_long << a));
    w->long_entries[sb] &= (uint16_t)~(1u << last);
    w->pending[sb]--;
}

/* Raises scoreboard sb for one operation issued at `issue` that clears at `clear`. */
static void board_raise(timing_ctrl_warp *w, unsigned sb, uint64_t issue, uint64_t clear,
                        int long_latency)
{
    uint64_t active = issue + TIMING_CTRL_ACTIVATION_CYCLES;
    w->long_latency[sb] = (uint8_t)(long_latency != 0);
    if (clear <= active) /* cleared before any wait could see it */
        return;
    board_prune(w, sb, issue);
    if (w->pending[sb] == TIMING_CTRL_PENDING_MAX)
        board_merge(w, sb);
    unsigned e = w->pending[sb]++;
    w->release[sb][e] = clear;
    w->active[sb][e] = active;
    w->long_entries[sb] = (uint16_t)((w->long_entries[sb] & ~(1u << e)) |
                                     ((long_latency != 0 ? 1u : 0u) << e));
}

void timing_ctrl_issued(timing_ctrl_warp *w, const ir_ctrl *c, uint64_t issue,
                        uint64_t sources_read, uint64_t result_ready, int long_latency)
{
    if (!c->present)
        return;
    w->next_issue = issue + timing_ctrl_stall_cycles(c);
    w->yielded = c->yield;
    if (c->rd_sb < IR_SCOREBOARDS)
        board_raise(w, c->rd_sb, issue, sources_read, long_latency);
    if (c->wr_sb < IR_SCOREBOARDS)
        board_raise(w, c->wr_sb, issue, result_ready, long_latency);
}

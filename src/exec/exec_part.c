/* A host thread's share of an open session (exec.h, "parts"): a copy of the launch's run state
 * with its own counters, fault record, per-instruction counts and memory tally, for a caller
 * that steps the SM work of some SMs on that thread (the timing model on several host threads;
 * docs/architecture.md, "The timing model on several threads"). */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

struct exec_part {
    exec_run_state rs;  /* what the part's warps step with: the tally's view of the memory (its
                           `tally` stays NULL: that is the functional window's parallel phases,
                           whose loads park and stores defer; the part's work needs neither) */
    memsys_tally *tally;
    exec_launch launch; /* the launch with the part's access hook user and clock */
    exec_stats stats;
    exec_fault fault;
};

exec_part *exec_part_create(exec_session *s, void *access_user, const uint64_t *clock)
{
    exec_part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->launch = *s->launch;
    p->launch.access_user = access_user;
    p->launch.clock = clock;
    p->rs = *s;
    p->rs.launch = &p->launch;
    p->rs.stats = &p->stats;
    p->rs.fault = &p->fault;
    p->rs.faulted = p->rs.oom = 0;
    p->rs.budget = UINT64_MAX;
    p->rs.clock = clock ? clock : s->clock;
    p->rs.insn_counts = calloc(s->prog->module->ninsns_total + 1, sizeof(uint64_t));
    p->rs.tally = NULL;
    p->tally = p->rs.insn_counts ? memsys_tally_create(s->ms) : NULL;
    if (!p->tally) {
        free(p->rs.insn_counts);
        free(p);
        return NULL;
    }
    p->rs.ms = memsys_tally_view(p->tally);
    return p;
}

exec_session *exec_part_session(exec_part *p)
{
    return &p->rs;
}

void exec_part_gather(exec_session *s, exec_part *p)
{
    exec_stats *st = s->stats;
    st->warp_instructions += p->stats.warp_instructions;
    st->thread_instructions += p->stats.thread_instructions;
    st->thread_instructions_pred_on += p->stats.thread_instructions_pred_on;
    p->stats.warp_instructions = p->stats.thread_instructions = 0;
    p->stats.thread_instructions_pred_on = 0;
}

void exec_part_destroy(exec_session *s, exec_part *p)
{
    if (!p)
        return;
    exec_part_gather(s, p);
    for (uint32_t i = 0; i <= s->prog->module->ninsns_total; i++)
        s->insn_counts[i] += p->rs.insn_counts[i];
    memsys_tally_merge(s->ms, p->tally);
    memsys_tally_destroy(p->tally);
    free(p->rs.insn_counts);
    free(p);
}

void exec_warp_bind(exec_session *s, exec_warp *w, exec_part *p)
{
    w->run = p ? &p->rs : s;
}

int exec_session_take_stop(exec_session *s, exec_fault *out)
{
    if (!s->faulted && !s->oom)
        return 0;
    int rc = s->oom ? -1 : 1;
    *out = *s->fault;
    memset(s->fault, 0, sizeof *s->fault);
    s->faulted = s->oom = 0;
    return rc;
}

void exec_session_stop_with(exec_session *s, const exec_fault *f, int oom)
{
    if (s->faulted || s->oom)
        return;
    *s->fault = *f;
    if (oom)
        s->oom = 1;
    else
        s->faulted = 1;
}

void exec_session_set_budget(exec_session *s, uint64_t budget)
{
    s->budget = budget;
}

uint64_t exec_session_budget(const exec_session *s)
{
    return s->budget;
}

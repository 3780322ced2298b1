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

int exec_run_copy_init(exec_run_state *copy, const exec_run_state *rs, exec_stats *stats,
                       exec_fault *fault)
{
    *copy = *rs;
    memset(stats, 0, sizeof *stats);
    memset(fault, 0, sizeof *fault);
    copy->stats = stats;
    copy->fault = fault;
    copy->faulted = copy->oom = 0;
    copy->budget = UINT64_MAX;
    copy->insn_counts = calloc(rs->prog->module->ninsns_total + 1, sizeof(uint64_t));
    copy->tally = memsys_tally_create(rs->ms);
    if (copy->tally)
        copy->ms = memsys_tally_view(copy->tally);
    return copy->insn_counts && copy->tally ? 0 : -1;
}

void exec_run_copy_fini(const exec_run_state *rs, exec_run_state *copy)
{
    if (copy->insn_counts)
        for (uint32_t i = 0; i <= rs->prog->module->ninsns_total; i++)
            rs->insn_counts[i] += copy->insn_counts[i];
    if (copy->tally)
        memsys_tally_merge(rs->ms, copy->tally);
    free(copy->insn_counts);
    memsys_tally_destroy(copy->tally);
    copy->insn_counts = NULL;
    copy->tally = NULL;
}

void exec_stats_gather(exec_stats *to, exec_stats *from)
{
    to->warp_instructions += from->warp_instructions;
    to->thread_instructions += from->thread_instructions;
    to->thread_instructions_pred_on += from->thread_instructions_pred_on;
    from->warp_instructions = from->thread_instructions = from->thread_instructions_pred_on = 0;
}

exec_part *exec_part_create(exec_session *s, void *access_user, const uint64_t *clock)
{
    exec_part *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (exec_run_copy_init(&p->rs, s, &p->stats, &p->fault)) {
        exec_run_copy_fini(s, &p->rs);
        free(p);
        return NULL;
    }
    p->launch = *s->launch;
    p->launch.access_user = access_user;
    p->launch.clock = clock;
    p->rs.launch = &p->launch;
    p->rs.clock = clock ? clock : s->clock;
    p->tally = p->rs.tally;
    p->rs.tally = NULL;
    return p;
}

exec_session *exec_part_session(exec_part *p)
{
    return &p->rs;
}

void exec_part_gather(exec_session *s, exec_part *p)
{
    exec_stats_gather(s->stats, &p->stats);
}

void exec_part_destroy(exec_session *s, exec_part *p)
{
    if (!p)
        return;
    exec_part_gather(s, p);
    p->rs.tally = p->tally;
    exec_run_copy_fini(s, &p->rs);
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

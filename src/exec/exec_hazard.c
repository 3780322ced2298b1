/* Register hazards of the issue controls (SASS control codes), checked functionally under
 * --strict-hazards (exec_launch.strict_hazards) on machines with scoreboards (ir_machine
 * .scoreboards, ir_func.ctrl); docs/architecture.md, "Issue controls".
 *
 * An instruction whose control sets a write scoreboard (ir_ctrl.wr_sb) leaves the registers it
 * writes pending on that scoreboard until a later instruction waits on it (wait_mask) or a
 * DEPBAR lets it go; one that sets a read scoreboard (rd_sb) leaves the registers it reads
 * pending likewise. Reading a register with a pending write is EXEC-HAZARD-001, writing one with
 * a pending read EXEC-HAZARD-002. Nothing here models time: a scoreboard clears only when the
 * program waits on it, which is what a correct program must do whatever the latencies.
 *
 * This file is reached only from the instruction loop made for strict hazards (exec_warp.c,
 * warp_run), so the other loops pay nothing for it. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

/* Operations a scoreboard remembers one by one; beyond that the two oldest are merged (their
 * registers stay pending until both would have cleared), which only makes DEPBAR keep more
 * pending than it would with an exact count. */
enum { HAZARD_OPS = 32, WORDS = IR_CTRL_REG_WORDS };

typedef struct hazard_op {
    uint32_t reads[WORDS], writes[WORDS]; /* the registers it leaves pending */
    uint32_t line;                        /* of the instruction that set it */
} hazard_op;

/* One scoreboard: its pending operations, oldest first (a ring), and the union of their
 * registers. */
typedef struct hazard_board {
    hazard_op ops[HAZARD_OPS];
    uint32_t first, count;
    uint32_t reads[WORDS], writes[WORDS];
} hazard_board;

struct exec_hazards {
    hazard_board sb[IR_SCOREBOARDS];
};

void exec_hazard_reset(exec_warp *w)
{
    if (w->hazards)
        memset(w->hazards, 0, sizeof *w->hazards);
}

void exec_hazard_free(exec_warp *w)
{
    free(w->hazards);
    w->hazards = NULL;
}

static hazard_op *op_at(hazard_board *b, uint32_t k)
{
    return &b->ops[(b->first + k) % HAZARD_OPS];
}

static void recompute_union(hazard_board *b)
{
    memset(b->reads, 0, sizeof b->reads);
    memset(b->writes, 0, sizeof b->writes);
    for (uint32_t k = 0; k < b->count; k++) {
        const hazard_op *o = op_at(b, k);
        for (unsigned i = 0; i < WORDS; i++) {
            b->reads[i] |= o->reads[i];
            b->writes[i] |= o->writes[i];
        }
    }
}

/* Keeps only the `keep` most recent operations of a scoreboard pending (0: clears it). */
static void board_keep(hazard_board *b, uint32_t keep)
{
    if (b->count <= keep)
        return;
    b->first = (b->first + b->count - keep) % HAZARD_OPS;
    b->count = keep;
    recompute_union(b);
}

static void board_add(hazard_board *b, const uint32_t *reads, const uint32_t *writes,
                      uint32_t line)
{
    if (b->count == HAZARD_OPS) { /* merge the oldest into the next one */
        hazard_op *oldest = op_at(b, 0), *next = op_at(b, 1);
        for (unsigned i = 0; i < WORDS; i++) {
            next->reads[i] |= oldest->reads[i];
            next->writes[i] |= oldest->writes[i];
        }
        b->first = (b->first + 1) % HAZARD_OPS;
        b->count--;
    }
    hazard_op *o = op_at(b, b->count++);
    for (unsigned i = 0; i < WORDS; i++) {
        o->reads[i] = reads ? reads[i] : 0;
        o->writes[i] = writes ? writes[i] : 0;
        b->reads[i] |= o->reads[i];
        b->writes[i] |= o->writes[i];
    }
    o->line = line;
}

/* The first register of `regs` that is pending in the `pending` set of some scoreboard: returns
 * 1 with *reg, *sb and *line (the newest operation that holds it); 0 when there is none. */
static int find_pending(exec_hazards *h, const uint32_t *regs, int writes, uint32_t *reg,
                        uint32_t *sb, uint32_t *line)
{
    for (unsigned i = 0; i < WORDS; i++) {
        if (!regs[i])
            continue;
        for (uint32_t s = 0; s < IR_SCOREBOARDS; s++) {
            hazard_board *b = &h->sb[s];
            uint32_t hit = regs[i] & (writes ? b->writes[i] : b->reads[i]);
            if (!hit)
                continue;
            *reg = i * 32 + (uint32_t)__builtin_ctz(hit);
            *sb = s;
            for (uint32_t k = b->count; k-- > 0;) {
                const hazard_op *o = op_at(b, k);
                if (((writes ? o->writes[i] : o->reads[i]) >> (*reg % 32)) & 1u) {
                    *line = o->line;
                    break;
                }
            }
            return 1;
        }
    }
    return 0;
}

/* Reads against pending writes, then writes against pending reads, for the instruction's
 * executing lanes. Returns 1 after a fault. */
static int check(exec_warp *w, const exec_xinsn *x, uint32_t mask, const ir_ctrl *c)
{
    uint32_t reg, sb, line = 0;
    unsigned lane = (unsigned)__builtin_ctz(mask);
    if (find_pending(w->hazards, c->reads, 1, &reg, &sb, &line)) {
        warp_fault(w, x, lane, "EXEC-HAZARD-001", "%s reads R%u while the write scoreboard "
                   "SB%u of the instruction at line %u that writes it has not been waited on",
                   ir_opcode_name((ir_opcode)x->in->op), reg, sb, line);
        return 1;
    }
    if (find_pending(w->hazards, c->writes, 0, &reg, &sb, &line)) {
        warp_fault(w, x, lane, "EXEC-HAZARD-002", "%s writes R%u while the read scoreboard SB%u "
                   "of the instruction at line %u that reads it is still pending",
                   ir_opcode_name((ir_opcode)x->in->op), reg, sb, line);
        return 1;
    }
    return 0;
}

int exec_hazard_issue(exec_warp *w, const exec_xinsn *x, uint32_t mask)
{
    const ir_ctrl *table = w->frames[w->depth - 1].fn->ir->ctrl;
    if (!table)
        return 0;
    const ir_ctrl *c = &table[w->pc];
    if (!c->present) /* glue: its instruction's control covers it */
        return 0;
    if (!w->hazards && !(w->hazards = calloc(1, sizeof *w->hazards))) {
        exec_oom(w->run, w->run->fault, "EXEC-NOMEM-004", "out of host memory for the "
                 "scoreboards of a warp (%zu bytes)", sizeof *w->hazards);
        w->state = WARP_FAULTED;
        return 1;
    }
    exec_hazards *h = w->hazards;
    /* The waits come first: the instruction issues once they are satisfied. */
    for (uint32_t s = 0; s < IR_SCOREBOARDS; s++)
        if ((c->wait_mask >> s) & 1u)
            board_keep(&h->sb[s], 0);
    if (c->depbar_sb < IR_SCOREBOARDS)
        board_keep(&h->sb[c->depbar_sb], c->depbar_le);
    /* A predicated-off instruction reads and writes nothing, but sets its scoreboards. */
    if (mask && check(w, x, mask, c))
        return 1;
    if (c->wr_sb < IR_SCOREBOARDS && c->wr_sb == c->rd_sb) {
        board_add(&h->sb[c->wr_sb], c->reads, c->writes, x->in->line);
    } else {
        if (c->rd_sb < IR_SCOREBOARDS)
            board_add(&h->sb[c->rd_sb], c->reads, NULL, x->in->line);
        if (c->wr_sb < IR_SCOREBOARDS)
            board_add(&h->sb[c->wr_sb], NULL, c->writes, x->in->line);
    }
    return 0;
}

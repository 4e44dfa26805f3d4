/* The reorder buffer and register renaming: the operations that are not on every op's path
 * (rob.h says what the ROB is and holds the inline ones). */
#include <string.h>
#include "cores/core_internal.h"

void rob_init(Core *c)
{
    c->rob_size = (guint)c->cfg->core.rob;
    guint slots = 1;
    while (slots < c->rob_size)
        slots *= 2;
    c->rob_mask = slots - 1;
    c->rob = g_aligned_alloc0(slots, sizeof(RobEntry), 64);
    for (guint r = 0; r < ISA_NREG_SLOTS; r++)
        c->rename[r] = SEQ_NONE;
}

void rob_free(Core *c)
{
    g_aligned_free(c->rob);
    c->rob = NULL;
}

void rob_rename_rebuild(Core *c)
{
    for (guint r = 0; r < ISA_NREG_SLOTS; r++)
        c->rename[r] = SEQ_NONE;
    for (uint64_t s = c->head_seq; s < c->next_seq; s++) {
        const RobEntry *en = rob_at(c, s);
        if (en->in->rd != ISA_NO_REG)
            c->rename[en->in->rd] = s;
    }
}

/* Removes `seq` and every younger op (and everything fetched behind them), undoing their
 * effects on the return-address stack youngest first so that it is exact again.  Returns the
 * number of ROB entries squashed.  The caller redirects fetch. */
guint rob_squash_from(Core *c, uint64_t seq)
{
    g_assert(seq >= c->head_seq && seq <= c->next_seq);
    core_trace_mem(c, CORE_TRACE_SQUASH, seq, -1, 0, 0);
    for (guint i = c->fq_count; i-- > 0;) {
        const FetchSlot *f = &c->fq[ring_at(c->fq_head, i, c->fq_size)];
        if (f->ras_sp >= 0) {
            c->ras_sp = f->ras_sp;
            c->ras[f->ras_sp % RAS_DEPTH] = f->ras_val;
        }
    }
    c->fq_count = 0;
    guint n = 0;
    for (uint64_t s = c->next_seq; s-- > seq;) {
        RobEntry *en = rob_at(c, s);
        if (en->ras_sp >= 0) {
            c->ras_sp = en->ras_sp;
            c->ras[en->ras_sp % RAS_DEPTH] = en->ras_val;
        }
        IsaOp op = en->in->op;
        if (core_op_takes_lb(op))
            c->lb_used--;
        if ((op == OP_PAUSE || op == OP_WORK) && en->state != E_DONE)
            c->dispatch_blocked_until = 0;
        if (op == OP_WFE && c->wfe_sleeping) {
            c->wfe_sleeping = FALSE;
            c->st.wfe_sleep_cycles += c->now - c->wfe_since;
        }
        n++;
    }
    c->next_seq = seq;
    c->exec_lo = MIN(c->exec_lo, seq);
    /* Their timers go stale: a reused seq's new timer is told apart by its time. */
    sb_truncate_from(c, seq);
    rob_rename_rebuild(c);
    c->fetch_stopped = FALSE;
    return n;
}

/* Squash from `seq` (inclusive) and refetch at `pc` after `penalty` cycles. */
guint rob_squash_refetch(Core *c, uint64_t seq, int32_t pc, gint64 penalty)
{
    guint n = rob_squash_from(c, seq);
    c->fetch_pc = pc;
    c->fetch_resume_at = c->now + (Cycle)penalty;
    core_profile_note_head(c);
    return n;
}

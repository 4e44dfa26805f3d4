/* The execute stage's walk over the window: each cycle it completes the ops whose timer ran
 * out and gives each waiting op whose turn has come its start (exec_start_op), oldest first,
 * carrying the ordering state of the ops passed.  The walk skips what cannot have changed
 * since the last one: the memo it keeps for that, what invalidates it and why the result is
 * exact are described at their fields in struct Core (core_internal.h).  The in-order policy
 * walks the whole window instead.  What an op does when it starts is core_execute.c's and
 * core_memops.c's business; the ordering rules are core_internal.h's.
 *
 * Included by core.c only, which compiles the stages as one unit (core_internal.h says why). */
#ifndef QSIM_CORE_SCAN_H
#define QSIM_CORE_SCAN_H

#include "cores/core_internal.h"

/* ==================== the scan ==================== */

/* An op whose timer ran out is done; fences and atomics count their cycles. */
static void complete_timer(Core *c, RobEntry *en, Cycle now)
{
    exec_done(en, now);
    if (en->in->op == OP_FENCE) {
        c->st.fence_ops++;
        c->st.fence_cycles += now - en->head_since;
    } else if (isa_op_is_rmw(en->in->op)) {
        c->st.atomic_cycles += now - en->head_since; /* an x86 locked op's tail ran out */
    }
}

/* Takes the timers due by now off the heap (the scan completes their entries); returns the
 * oldest seq among them, and widens *end past the youngest. */
static uint64_t timers_due(Core *c, Cycle now, uint64_t *end)
{
    if (now < c->timer_next)
        return SEQ_NONE;
    uint64_t due = SEQ_NONE;
    while (c->timers.len && c->timers.v[0].at <= now) {
        CoreTimer t = timer_heap_pop(&c->timers);
        if (!timer_current(c, &t))
            continue;
        due = MIN(due, t.seq);
        *end = MAX(*end, t.seq + 1);
    }
    exec_timers_purge(c);
    return due;
}

/* One op's turn in the scan: complete its timer or start it; then fold it into `o`. */
static gboolean scan_entry(Core *c, uint64_t s, Older *o, Cycle now)
{
    RobEntry *en = rob_at(c, s);
    gboolean did = FALSE, head = s == c->head_seq;
    if (head && en->head_since == CYCLE_NEVER)
        en->head_since = now;
    if (en->state == E_EXEC && en->req_id == 0) {
        if (en->complete_at <= now) {
            complete_timer(c, en, now);
            c->scan_end = MAX(c->scan_end, en->last_use + 1); /* its readers: this scan looks */
            did = TRUE;
        } else if (en->ll == LL_LOADED || en->ll == LL_RETRY) {
            did |= memop_step_llsc(c, en);
        }
    }
    if (en->state == E_WAIT && !(*o & OLDER_BLOCK_ALL))
        did |= exec_start_op(c, en, head, o);
    note_older(en, o);
    en->older = *o;
    return did;
}

/* Looks at the window oldest first, starting ops whose turn has come and completing timers.
 * An op whose inputs did not change since the last scan would do nothing, so the scan starts
 * at the oldest that may act, resuming with the ordering state memoised behind it. */
static gboolean stage_execute(Core *c)
{
    Cycle now = c->now;
    gboolean did = FALSE;
    /* Finished ops order nothing younger: start the scan after them. */
    c->exec_lo = MAX(c->exec_lo, c->head_seq);
    while (c->exec_lo < c->next_seq && rob_at(c, c->exec_lo)->state == E_DONE)
        c->exec_lo++;
    uint64_t due_end = 0;
    uint64_t due = timers_due(c, now, &due_end);
    uint64_t from = MAX(MIN(c->scan_from, due), c->exec_lo);
    uint64_t end = MAX(c->scan_end, due_end);
    gboolean head_dirty = c->head_dirty;
    c->scan_from = SEQ_NONE;
    c->scan_end = 0;
    c->head_dirty = FALSE;
    if (c->wfe_sleeping && c->cfg->core.wfe_timeout > 0 &&
        now >= c->wfe_since + (Cycle)c->cfg->core.wfe_timeout)
        head_dirty = TRUE; /* the sleeping WFE at the head times out */
    /* Whether the ordering state carried into `from` is the one the last scan carried. */
    gboolean same = TRUE;
    if (head_dirty && c->head_seq == c->exec_lo && c->head_seq < MIN(from, c->next_seq)) {
        /* Nothing older orders the head.  Younger ops need a look only if it moved. */
        Older o = 0;
        if (scan_entry(c, c->head_seq, &o, now)) {
            did = TRUE;
            from = c->head_seq + 1;
            same = FALSE;
        }
    }
    if (from >= c->next_seq)
        goto out;
    Older o = 0;
    if (from > c->exec_lo)
        o = rob_at(c, from - 1)->older;
    /* Walk the slots directly (a squash only lowers next_seq).  A finished op other than the
     * head has nothing to start or complete, nor has a waiting one whose start_op would fail
     * for want of the producer it noted: only fold them into `o`.  Past the touched ops
     * (widened as ops complete or stores learn their address and data), once the ordering
     * state is what the last scan carried there, every younger op would decide as it did. */
    guint slot = (c->head_slot + (guint)(from - c->head_seq)) & c->rob_mask;
    for (uint64_t s = from; s < c->next_seq; s++) {
        if (same && s >= end && s >= c->scan_end)
            break;
        RobEntry *en = &c->rob[slot];
        slot = (slot + 1) & c->rob_mask;
        Older before = en->older;
        if (s != c->head_seq &&
            (en->state == E_DONE ||
             (en->state == E_WAIT && (cannot_start(en, o) ||
                                      (en->wait_on != SEQ_NONE && !rob_src_ready(c, en->wait_on)))))) {
            note_older(en, &o);
            en->older = o;
        } else {
            did |= scan_entry(c, s, &o, now);
        }
        same = before == o;
    }
out:
    /* What this scan widened it has looked at; touches for the next one stand. */
    if (c->scan_from == SEQ_NONE)
        c->scan_end = 0;
    return did;
}

/* The in-order policy (core.issue: in-order, e.g. ThunderX's dual-issue pipeline): ops start
 * in program order, at most fetch_width per cycle; an op starts only when every older op has
 * completed or started in this same cycle without a memory access, so ops complete in order
 * and an outstanding load blocks everything younger (stall on miss).  The window is small, so
 * each cycle looks at it whole from the oldest unfinished op. */
static gboolean stage_execute_in_order(Core *c)
{
    Cycle now = c->now;
    gboolean did = FALSE, blocked = FALSE;
    guint issued = 0, width = c->fetch_width;
    c->exec_lo = MAX(c->exec_lo, c->head_seq);
    while (c->exec_lo < c->next_seq && rob_at(c, c->exec_lo)->state == E_DONE)
        c->exec_lo++;
    uint64_t due_end = 0;
    (void)timers_due(c, now, &due_end); /* keeps the timer list pruned, as the out-of-order scan does */
    c->scan_from = SEQ_NONE;
    c->scan_end = 0;
    c->sb_waiter = SEQ_NONE;
    c->head_dirty = FALSE;
    Older o = 0;
    for (uint64_t s = c->exec_lo; s < c->next_seq; s++) {
        RobEntry *en = rob_at(c, s);
        gboolean waiting = en->state == E_WAIT;
        if (waiting && (blocked || issued == width)) {
            if (!blocked)
                did = TRUE; /* out of issue slots, not of work: look again next cycle */
            blocked = TRUE;
            continue;       /* younger ops started at dispatch (pause, work) still complete */
        }
        did |= scan_entry(c, s, &o, now);
        if (en->state == E_DONE)
            continue;
        if (waiting && en->state != E_WAIT)
            issued++;
        /* Not finished: younger ops wait, unless it started just now beside them and is not
         * a memory access (loads block; a store only writes the store buffer). */
        if (!(waiting && en->state == E_EXEC && en->req_id == 0 && !core_op_is_load(en->in->op)))
            blocked = TRUE;
    }
    return did;
}

#endif

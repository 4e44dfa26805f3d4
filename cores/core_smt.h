/* SMT: the two hardware threads of one core (topology.threads_per_core 2) share its front end
 * and retirement, and split or share its buffers as the config's smt.* keys say (each thread is
 * a Core; c->sib is the other, NULL on a core with one thread, where none of this applies).
 *
 * Turns.  Fetch, dispatch and retirement are one thread's per cycle: even cycles are thread 0's,
 * odd ones thread 1's, and a thread whose turn it is and that has nothing for the stage leaves it
 * to the other.  Execution is not taken in turns: the model's issue width is unlimited, so every
 * ready op starts (the oldest first, as ever).  The threads tick one after the other in a cycle
 * (the lower CPU id first), so the first, on its sibling's turn, judges from the sibling's state
 * as it stands whether the sibling can use the stage; the sibling's own tick may change that,
 * and then the stage goes unused for the cycle, never to both.  A thread that loses a stage it
 * had work for ticks again the next cycle (smt_denied) and counts the cycle (smt_stage_waits).
 *
 * Limits.  A partitioned structure gives each thread half (at least one entry) while both are
 * active, and all of it to a thread whose sibling has not started, has halted or stopped, or has
 * no thread (the OS model's idle core: a thread asleep in futex_wait); a thread that pauses, or
 * waits in WFE, is active.  A shared one lets the two hold at most its size together (a thread
 * stalled on it looks again each cycle, since the sibling's retirements free it); a replicated
 * one gives each the full size.
 *
 * Included by core_internal.h once struct Core is complete: include that instead. */
#ifndef QSIM_CORE_SMT_H
#define QSIM_CORE_SMT_H

typedef enum { SMT_FETCH, SMT_DISPATCH, SMT_RETIRE } SmtStage;

/* Whether hardware thread `o` runs a thread now. */
static inline gboolean smt_active(const Core *o)
{
    return o->started && !o->halted && !o->parked;
}

/* How much of a structure of `size` entries thread c (with a sibling) may hold, the sibling
 * holding `sib_used`. */
static inline guint smt_limit(const Core *c, SmtSharing how, guint size, guint sib_used)
{
    if (how == SMT_REPLICATED || !smt_active(c->sib))
        return size;
    if (how == SMT_PARTITIONED)
        return MAX(size / 2, 1);
    return size > sib_used ? size - sib_used : 0;
}

static inline guint core_rob_limit(const Core *c)
{
    return G_LIKELY(!c->sib) ? c->rob_size : smt_limit(c, c->cfg->smt.rob, c->rob_size, rob_count(c->sib));
}

static inline guint core_fq_limit(const Core *c)
{
    return G_LIKELY(!c->sib) ? c->fq_size : smt_limit(c, c->cfg->smt.fetch_queue, c->fq_size, c->sib->fq_count);
}

/* What keeps the op at the fetch queue's head (there is one) of thread c (with a sibling) from
 * dispatching now. */
static inline StallCause smt_dispatch_stall(const Core *c)
{
    const Core *o = c->sib;
    int32_t pc = c->fq[c->fq_head].pc;
    if (rob_count(c) >= core_rob_limit(c))
        return STALL_ROB;
    if (c->dec[pc].takes_lb && c->lb_used >= smt_limit(c, c->cfg->smt.load_buffer, c->load_buffer, o->lb_used))
        return STALL_LB;
    if (c->code[pc].op == OP_ST && c->sb_count >= smt_limit(c, c->cfg->smt.store_buffer, c->sb_size, o->sb_count))
        return STALL_SB;
    return STALL_NONE;
}

/* Whether c's limits may grow by the sibling's doing alone (a shared structure, the sibling
 * running): a thread stalled on one looks again each cycle. */
static inline gboolean smt_limits_move(const Core *c)
{
    const QsimConfig *g = c->cfg;
    return smt_active(c->sib) && (g->smt.rob == SMT_SHARED || g->smt.load_buffer == SMT_SHARED ||
                                  g->smt.store_buffer == SMT_SHARED || g->smt.fetch_queue == SMT_SHARED);
}

/* Whether thread o can use stage s at cycle `now`, judged from its state as it stands. */
static inline gboolean smt_wants(Core *o, SmtStage s, Cycle now)
{
    switch (s) {
    case SMT_FETCH:
        return !o->fetch_stopped && now >= o->fetch_resume_at && o->fq_count < core_fq_limit(o);
    case SMT_DISPATCH:
        return o->fq_count > 0 && now >= o->dispatch_blocked_until && smt_dispatch_stall(o) == STALL_NONE;
    case SMT_RETIRE:
        if (!rob_count(o))
            return FALSE;
        const RobEntry *h = rob_at(o, o->head_seq);
        return h->state == E_DONE && h->done_at < now;
    }
    return FALSE;
}

/* Thread c (with a sibling) has work for stage s this cycle: TRUE when the stage is c's (it is
 * marked used), FALSE when it is the sibling's (see the turns above). */
static inline gboolean smt_take(Core *c, SmtStage s)
{
    Core *o = c->sib;
    Cycle now = c->now;
    gboolean mine;
    if (o->stage_used[s] == now)
        mine = FALSE;
    else if ((now & 1) == (c->hw_thread & 1) || o->hw_thread < c->hw_thread)
        mine = TRUE; /* c's turn, or the sibling ticked first this cycle and left it */
    else
        mine = o->tick_at != now || !smt_wants(o, s, now);
    if (!mine) {
        c->st.smt_stage_waits++;
        c->smt_denied = TRUE;
        return FALSE;
    }
    c->stage_used[s] = now;
    return TRUE;
}

#endif

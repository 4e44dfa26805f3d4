/* Retirement: ops leave the ROB head in program order, at most retire_width a cycle and at
 * the earliest the cycle after they completed; each makes its effect architectural (its
 * register, a store's commit to the store buffer, a mark's timestamp, an SEV).  An op that
 * faulted (a bad address, la of a thread that does not exist, a call nested too deep, a ret
 * with nothing to return to) stops the core here, where the interpreter would, and so does an
 * op whose next pc is outside the program; a retired halt ends the thread.
 *
 * Included by core.c only, which compiles the stages as one unit (core_internal.h says why). */
#ifndef QSIM_CORE_RETIRE_H
#define QSIM_CORE_RETIRE_H

#include "cores/core_internal.h"

/* The core stops where it is: no more ticks, and the stall it was counting ends. */
static void retire_stop(Core *c)
{
    Cycle now = c->now;
    c->halted = TRUE;
    dispatch_set_stall(c, STALL_NONE);
    c->st.cycles = now - c->start_cycle;
    c->tick_at = CYCLE_NEVER;
    engine_tick_cancel(c->e, c->id);
    if (c->sib)
        smt_thread_left(c);
}

/* The thread faulted: the core stops for good and says so (the machine ends the run).  It is
 * no thread's exit: the OS model is not told, and leaves the core frozen (c->stopped). */
static void raise_fault(Core *c, CoreFault f)
{
    c->fault = f;
    c->stopped = TRUE;
    retire_stop(c);
    if (c->fault_fn)
        c->fault_fn(c->fault_ctx, c->id, &c->fault);
}

/* What `en` does as it retires, beside writing its register. */
static void retire_effects(Core *c, const RobEntry *en, Cycle now)
{
    const IsaInsn *in = en->in;
    if (c->dec[in - c->code].takes_lb) /* decoded once per pc */
        c->lb_used--;
    switch (in->op) {
    case OP_LD:
    case OP_LDX:
        c->st.loads_retired++;
        break;
    case OP_ST:
        /* x86: st.rel is a plain store (TSO orders it already). */
        sb_commit(c, en->seq, !c->x86 && (in->order == ORD_REL || in->order == ORD_ACQREL));
        c->st.stores_retired++;
        break;
    case OP_FENCE:
        if (!c->x86 && in->fence != FENCE_LOAD)
            sb_bump_epoch(c); /* dmb ish / ishst: later stores drain after earlier ones */
        break;
    case OP_MARK:
        c->ff.taint++; /* a mark is a timestamp: no two periods record the same */
        c->st.marks++;
        if (c->mark_fn)
            c->mark_fn(c->mark_ctx, c->id, in->n, now);
        break;
    case OP_SEV:
        c->ff.taint++;
        if (c->sev_fn)
            c->sev_fn(c->sev_ctx, c->id);
        else
            core_signal_event(c);
        break;
    case OP_PAUSE: {
        /* Its hold, counted once it retires: a PAUSE fetched down a mispredicted path held
         * dispatch too, but the program never ran it. */
        guint64 p = (guint64)c->cfg->core.pause_cycles;
        c->st.pause_ops++;
        c->st.paused_cycles += p;
        CORE_PROFILE_ADD(&c->prof, en->pc, pause_cycles, p);
        break;
    }
    case OP_SEVL:
        c->event_reg = TRUE;
        c->event_cause = WAKE_SEV;
        break;
    case OP_BR:
    case OP_JMP:
        if (en->pred_next <= en->pc)
            ff_lead(c)->ff.want_snap = TRUE; /* a loop closed: the state may repeat from here */
        break;
    default:
        break;
    }
}

/* SMT: whether retirement is this thread's this cycle (it is when its head cannot retire). */
static gboolean retire_turn(Core *c)
{
    if (!rob_count(c))
        return TRUE;
    const RobEntry *h = rob_at(c, c->head_seq);
    return h->state != E_DONE || h->done_at >= c->now || smt_take(c, SMT_RETIRE);
}

static gboolean stage_retire(Core *c)
{
    Cycle now = c->now;
    guint n = 0;
    if (G_UNLIKELY(c->sib) && !retire_turn(c))
        return FALSE;
    while (n < c->retire_width && rob_count(c) > 0) {
        RobEntry *en = rob_at(c, c->head_seq);
        if (en->state != E_DONE || en->done_at >= now)
            break; /* an op retires at the earliest the cycle after it completes */
        if (en->fault != ISA_FAULT_NONE) {
            raise_fault(c, (CoreFault){ (IsaFaultKind)en->fault, en->pc, en->addr, en->in->size });
            break;
        }
        if (c->trace_fn)
            core_trace_mem(c, CORE_TRACE_RETIRE, en->seq, en->pc, 0, 0);
        retire_effects(c, en, now);
        rob_retire_head(c, en);
        c->st.insns_retired++;
        CORE_PROFILE_ADD(&c->prof, en->pc, executions, 1);
        c->last_retire = now;
        n++;
        if (en->in->op == OP_HALT) {
            /* The thread ends: the OS model runs another on the core, if it has one. */
            c->halt_pc = en->pc;
            retire_stop(c);
            if (c->halt_fn)
                c->halt_fn(c->os_ctx, c);
            break;
        }
        if (G_UNLIKELY((guint)en->pred_next >= c->ncode)) {
            /* Its successor (the path it resolved) is outside the program: the thread runs off
             * it, where the interpreter faults. */
            int32_t pc = en->pred_next;
            raise_fault(c, (CoreFault){ ISA_FAULT_OFF_PROGRAM, pc, (uint64_t)(gint64)pc, 0 });
            break;
        }
    }
    if (n > 0)
        core_touch_head(c); /* a new head; committed stores and events changed */
    return n > 0;
}

#endif

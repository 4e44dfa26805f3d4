/* The front end: fetch follows the predicted path into the fetch queue (the branch predictor
 * for conditional branches, the return-address stack for calls and returns); dispatch moves
 * ops from the queue into the ROB in order, taking their load-buffer and store-buffer entries,
 * and counts the cycles it stalls for want of one.
 *
 * Included by core.c only, which compiles the stages as one unit (core_internal.h says why). */
#ifndef QSIM_CORE_FRONTEND_H
#define QSIM_CORE_FRONTEND_H

#include "cores/core_internal.h"

/* ==================== fetch ==================== */

static gboolean stage_fetch(Core *c)
{
    Cycle now = c->now;
    if (c->fetch_stopped || now < c->fetch_resume_at)
        return FALSE;
    guint fq_max = core_fq_limit(c);
    if (G_UNLIKELY(c->sib)) {
        if (c->fq_count >= fq_max) {
            c->smt_denied |= smt_limits_move(c);
            return FALSE;
        }
        if (!smt_take(c, SMT_FETCH))
            return FALSE;
    }
    guint n = 0;
    while (n < c->fetch_width && c->fq_count < fq_max) {
        int32_t pc = c->fetch_pc;
        if (pc < 0 || (guint)pc >= c->ncode) {
            c->fetch_stopped = TRUE; /* off the program: the op before faults as it retires */
            break;
        }
        const IsaInsn *in = &c->code[pc];
        FetchSlot *f = &c->fq[ring_at(c->fq_head, c->fq_count, c->fq_size)];
        f->pc = pc;
        f->ras_sp = -1;
        f->fault = ISA_FAULT_NONE;
        int32_t next = pc + 1;
        switch (in->op) {
        case OP_BR:
            if (bp_predict(c, pc))
                next = in->target;
            break;
        case OP_JMP:
            next = in->target;
            break;
        case OP_CALL:
            if (c->ras_sp >= RAS_DEPTH) {
                /* Calls nested past the return stack (the ISA's limit): the call faults if it
                 * retires, rather than wrap and return to the wrong place.  Fetch stops behind
                 * it; a squash restarts it if this was a wrong path. */
                f->fault = ISA_FAULT_CALL_DEPTH;
                c->fetch_stopped = TRUE;
                break;
            }
            f->ras_sp = c->ras_sp;
            f->ras_val = c->ras[c->ras_sp % RAS_DEPTH];
            c->ras[c->ras_sp % RAS_DEPTH] = pc + 1;
            c->ras_sp++;
            next = in->target;
            break;
        case OP_RET:
            if (c->ras_sp == 0) {
                f->fault = ISA_FAULT_EMPTY_RET; /* nothing to return to: likewise */
                c->fetch_stopped = TRUE;
                break;
            }
            f->ras_sp = c->ras_sp;
            f->ras_val = c->ras[c->ras_sp % RAS_DEPTH];
            c->ras_sp--;
            next = c->ras[c->ras_sp % RAS_DEPTH];
            break;
        case OP_HALT:
            c->fetch_stopped = TRUE;
            break;
        default:
            break;
        }
        f->pred_next = next;
        c->fq_count++;
        n++;
        c->fetch_pc = next;
        if (c->fetch_stopped || next != pc + 1)
            break; /* a taken control transfer ends the fetch group */
    }
    return n > 0;
}

/* ==================== dispatch ==================== */

/* What keeps the op at the fetch queue's head (there is one) from dispatching now. */
static inline StallCause dispatch_stall(const Core *c)
{
    if (G_UNLIKELY(c->sib))
        return smt_dispatch_stall(c);
    int32_t pc = c->fq[c->fq_head].pc;
    if (rob_count(c) == c->rob_size)
        return STALL_ROB;
    if (c->dec[pc].takes_lb && c->lb_used == c->load_buffer)
        return STALL_LB;
    if (c->code[pc].op == OP_ST && c->sb_count == c->sb_size)
        return STALL_SB;
    return STALL_NONE;
}

/* The ROB has room for `en` (a store its store-buffer entry): the buffers it holds. */
static void dispatch_take_buffers(Core *c, RobEntry *en, const FetchSlot *f)
{
    const IsaInsn *in = en->in;
    if (c->dec[f->pc].takes_lb)
        c->lb_used++;
    if (in->op == OP_ST) {
        SbEntry *sb = sb_alloc(c, en->seq, &en->sb_slot);
        sb->size = in->size;
        sb->pc = f->pc;
        /* Known from dispatch on, so that a younger LDAR waits for an STLR that has not
         * retired yet either (RCsc: SB+dmb.sy+rel-acq is forbidden). */
        sb->release = !c->x86 && (in->order == ORD_REL || in->order == ORD_ACQREL);
    }
}

/* SMT: whether dispatch is this thread's this cycle (it is when it has nothing to dispatch, or
 * is stalled: the stage then only counts the stall). */
static gboolean dispatch_turn(Core *c)
{
    if (c->fq_count == 0 || c->now < c->dispatch_blocked_until)
        return TRUE;
    if (dispatch_stall(c) != STALL_NONE) {
        c->smt_denied |= smt_limits_move(c);
        return TRUE;
    }
    if (smt_take(c, SMT_DISPATCH))
        return TRUE;
    dispatch_set_stall(c, STALL_NONE);
    return FALSE;
}

static gboolean stage_dispatch(Core *c)
{
    Cycle now = c->now;
    StallCause cause = STALL_NONE;
    guint n = 0;
    if (G_UNLIKELY(c->sib) && !dispatch_turn(c))
        return FALSE;
    while (n < c->fetch_width && c->fq_count > 0 &&
           now >= c->dispatch_blocked_until) {
        const FetchSlot *f = &c->fq[c->fq_head];
        cause = dispatch_stall(c);
        if (cause != STALL_NONE)
            break;
        RobEntry *en = rob_dispatch(c, f);
        const IsaInsn *in = en->in;
        IsaOp op = in->op;
        core_touch(c, en->seq);
        dispatch_take_buffers(c, en, f);
        c->fq_head = ring_at(c->fq_head, 1, c->fq_size);
        c->fq_count--;
        n++;
        if (op == OP_WORK && in->n > work_window(c)) {
            /* A long chain fills the window: nothing younger enters until it has started and
             * is down to its last window's worth (start_work reopens dispatch). */
            c->dispatch_blocked_until = CYCLE_NEVER;
            break;
        }
        if (op == OP_PAUSE) {
            /* PAUSE holds back everything younger; that bounds a spin loop's loads in flight. */
            gint64 p = c->cfg->core.pause_cycles;
            c->dispatch_blocked_until = now + (Cycle)p;
            exec_timer(c, en, p); /* counted when it retires (retire_effects): a wrong path's is not */
            if (p > 0)
                break;
        }
    }
    dispatch_set_stall(c, cause);
    return n > 0;
}

#endif

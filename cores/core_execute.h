/* What an op does when its turn comes in the execute scan, for the ops that do not touch
 * memory: ALU ops, la, branches (and their mispredicts), `work` chains, wfe and halt; the
 * completion of an op whose timer ran out; and the decoding, once per pc, of what each op
 * means for the ordering of the ops behind it (applied by note_older, core_internal.h).
 *
 * Included by core.c only, which compiles the stages as one unit (core_internal.h says why). */
#ifndef QSIM_CORE_EXECUTE_H
#define QSIM_CORE_EXECUTE_H

#include "cores/core_internal.h"
#include "cores/isa/isa_exec.h"

/* ==================== decoding ==================== */

/* What each op means for the ops behind it (the ordering rules, applied by note_older), what
 * keeps it from starting, and its buffers: decided once per op of the program. */
static OpDecode exec_decode_op(const Core *c, const IsaInsn *in)
{
    OpDecode d = { ORDK_NONE, STARTK_OTHER, core_op_takes_lb(in->op), core_op_has_mem(in->op) };
    if (isa_op_writes_at_head(in->op)) {
        /* x86: LOCK'd ops are full barriers.  arm64: see the simplifications (core.c). */
        d.ordk = ORDK_LOADS_UNTIL_DONE;
        d.startk = STARTK_HEAD;
        return d;
    }
    switch (in->op) {
    case OP_FENCE:
        if (c->x86)
            d.ordk = in->fence == FENCE_FULL ? ORDK_LOADS_UNTIL_DONE : in->fence == FENCE_LOAD ? ORDK_ALL_UNTIL_DONE
                                                                                          : ORDK_NONE;
        else
            d.ordk = in->fence != FENCE_STORE ? ORDK_LOADS_UNTIL_DONE : ORDK_NONE;
        d.startk = STARTK_HEAD;
        break;
    case OP_LD: case OP_LDX:
        d.ordk = !c->x86 && in->order == ORD_ACQ ? ORDK_LDAR : ORDK_NONE;
        d.startk = STARTK_LOAD;
        break;
    case OP_ST:
        d.ordk = ORDK_STORE;
        break;
    case OP_WFE:
        /* Nothing runs ahead of a wait: a load behind it would re-arm the monitor early. */
        d.ordk = c->x86 ? ORDK_NONE : ORDK_ALL_UNTIL_DONE;
        d.startk = STARTK_HEAD;
        break;
    case OP_HALT:
        d.startk = STARTK_HEAD;
        break;
    case OP_FUTEX_WAIT: case OP_FUTEX_WAKE:
        /* Nothing runs ahead of a system call: the kernel entry serialises. */
        d.ordk = ORDK_ALL_UNTIL_DONE;
        d.startk = STARTK_HEAD;
        break;
    default:
        break;
    }
    return d;
}

/* ==================== starting ==================== */

/* A branch resolved against its prediction: the ops behind it were on the wrong path. */
static void mispredict(Core *c, RobEntry *en, int32_t actual)
{
    gint64 pen = c->cfg->core.branch_mispredict_penalty;
    c->st.branch_mispredicts++;
    guint squashed = rob_squash_refetch(c, en->seq + 1, actual, pen);
    c->st.bm_squashed_ops += squashed;
    c->st.bm_penalty_cycles += (guint64)pen;
    en->pred_next = actual;
    core_trace(c, CORE_TRACE_MISPREDICT, en->pc, actual, squashed, pen);
}

static gboolean start_wfe(Core *c, RobEntry *en, gboolean head)
{
    Cycle now = c->now;
    if (!head)
        return FALSE;
    if (c->x86) {
        exec_timer(c, en, 1);
        return TRUE;
    }
    gboolean timeout = c->wfe_sleeping && c->cfg->core.wfe_timeout > 0 &&
                       now >= c->wfe_since + (Cycle)c->cfg->core.wfe_timeout;
    if (c->event_reg || timeout) {
        if (c->wfe_sleeping) {
            c->wfe_sleeping = FALSE;
            c->st.wfe_sleep_cycles += now - c->wfe_since;
            CORE_PROFILE_ADD(&c->prof, en->pc, pause_cycles, now - c->wfe_since);
            if (c->event_reg && c->event_cause == WAKE_MONITOR)
                c->st.wfe_wake_monitor++;
            else if (c->event_reg)
                c->st.wfe_wake_sev++;
            else
                c->st.wfe_wake_timeout++;
        }
        c->event_reg = FALSE;
        c->event_cause = WAKE_NONE;
        exec_timer(c, en, 1);
        return TRUE;
    }
    if (!c->wfe_sleeping) {
        c->ff.taint++;
        c->wfe_sleeping = TRUE;
        c->wfe_since = now;
        c->st.wfe_sleeps++;
        core_trace(c, CORE_TRACE_WFE_SLEEP, en->pc, en->pc, 0, 0);
        return TRUE;
    }
    return FALSE;
}

/* `work N` stands for a dependent chain of N one-cycle ops, far longer than the window, that
 * consumes what the ops before it produced (a critical section works on the data the lock
 * protects): it starts once every older op has completed and runs serially for N cycles.  A
 * chain longer than the window kept dispatch closed from its dispatch on (stage_dispatch);
 * younger ops enter for its last window's worth, so no two long chains run at once. */
static gboolean start_work(Core *c, RobEntry *en)
{
    if (en->seq != c->exec_lo) {
        core_touch(c, en->seq); /* look again once the older ops are done */
        return FALSE;
    }
    gint64 w = en->in->n;
    if (c->work_jitter) {
        w += g_rand_int_range(c->work_rand, 0, (gint32)c->work_jitter + 1);
        c->ff.taint++; /* the draw differs from period to period */
    }
    exec_timer(c, en, w);
    /* Whether this chain closed dispatch is what it did at its dispatch (it is the youngest op
     * and dispatch stands closed), not what the window says now: an SMT thread's window doubles
     * when its sibling halts, and a chain that closed dispatch on the half window must still
     * reopen it, or its thread never fetches past it to its `halt`. */
    gboolean closed = c->dispatch_blocked_until == CYCLE_NEVER && en->seq + 1 == c->next_seq;
    if (closed || en->in->n > work_window(c))
        c->dispatch_blocked_until = c->now + (Cycle)MAX(w - work_window(c), 0);
    return TRUE;
}

/* Whether sources a and b are ready; if not, notes the one waited for: while it is not ready,
 * start_op of an ALU op or branch returns FALSE and does nothing. */
static inline gboolean src2_ready(Core *c, RobEntry *en)
{
    if (!rob_src_ready(c, en->src[0])) {
        en->wait_on = en->src[0];
        return FALSE;
    }
    if (!rob_src_ready(c, en->src[1])) {
        en->wait_on = en->src[1];
        return FALSE;
    }
    return TRUE;
}

/* Starts an op whose turn has come; returns whether it did anything.  It sets en->wait_on only
 * where it returns FALSE, with no side effect, because that producer is not done, whatever the
 * ordering state and wherever the op is: the scan skips such an op while the producer is not
 * done.  The ops that do not touch memory are started here; the others in core_memops.c
 * (loads, stores, atomics, fences) and core_os.c (system calls). */
static gboolean exec_start_op(Core *c, RobEntry *en, gboolean head, const Older *o)
{
    const IsaInsn *in = en->in;
    if (isa_op_writes_at_head(in->op))
        return memop_start_atomic(c, en, head);
    switch (in->op) {
    case OP_NOP: case OP_MARK: case OP_JMP: case OP_CALL: case OP_RET: case OP_SEV:
    case OP_SEVL:
        exec_timer(c, en, 1);
        return TRUE;
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_SHR: case OP_MUL:
    case OP_SAR: case OP_SEXT: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU: case OP_SEQ: case OP_SNE:
    case OP_SLT: case OP_SGE: case OP_SLTU: case OP_SGEU:
        if (!src2_ready(c, en))
            return FALSE;
        en->value = isa_alu(in->op, rob_src_value(c, &in->a, en->src[0]),
                            rob_src_value(c, &in->b, en->src[1]));
        /* mul 3 cycles; a divide ~20 (a 64-bit DIV/IDIV's latency on recent x86 and arm64
         * cores is 10..40 cycles by operand size); everything else 1. */
        exec_timer(c, en, in->op == OP_MUL ? 3 : (in->op >= OP_DIV && in->op <= OP_REMU) ? 20 : 1);
        return TRUE;
    case OP_LA: {
        if (!rob_src_ready(c, en->src[2])) {
            en->wait_on = en->src[2];
            return FALSE;
        }
        guint t = c->tid;
        if (in->rt != ISA_NO_REG) {
            uint64_t want = rob_reg_value(c, in->rt, en->src[2]);
            t = want < c->nthreads ? (guint)want : 0;
            if (want >= c->nthreads) {
                en->fault = ISA_FAULT_NO_THREAD; /* as the interpreter: if it retires */
                en->addr = want;
            }
        }
        en->value = isa_sym_addr(c->lay, (guint)in->target, t);
        exec_timer(c, en, 1);
        return TRUE;
    }
    case OP_WORK:
        return start_work(c, en);
    case OP_BR: {
        if (!src2_ready(c, en))
            return FALSE;
        gboolean taken = isa_cond(in->cond, rob_src_value(c, &in->a, en->src[0]),
                                  rob_src_value(c, &in->b, en->src[1]));
        int32_t actual = taken ? in->target : en->pc + 1;
        bp_update(c, en->pc, taken);
        exec_timer(c, en, 1);
        if (actual != en->pred_next)
            mispredict(c, en, actual);
        return TRUE;
    }
    case OP_LD: case OP_LDX:
        return memop_start_load(c, en, o);
    case OP_ST:
        return memop_start_store(c, en);
    case OP_FENCE:
        return memop_start_fence(c, en, head);
    case OP_WFE:
        return start_wfe(c, en, head);
    case OP_HALT:
        /* Halting leaves nothing behind: every store has drained. */
        if (!head || c->sb_count)
            return FALSE;
        exec_timer(c, en, 1);
        return TRUE;
    case OP_FUTEX_WAIT: case OP_FUTEX_WAKE:
        return syscall_start(c, en, head);
    case OP_PAUSE: /* started at dispatch */
    case OP__COUNT:
        break;
    default: /* the ops that write at the head, started above */
        break;
    }
    return FALSE;
}

#endif

/* One op of one thread (see thread_step.h).  Values come from cores/isa/isa_exec.h; this file
 * adds the order of effects and the thread's control, monitor and event state. */
#include "cores/isa/thread_step.h"
#include "cores/isa/isa_exec.h"

static IsaThread *thread_of(const IsaStepWorld *w, guint t) { return w->ops->thread(w->ctx, t); }

static void leave_run(const IsaStepWorld *w, guint t, IsaThreadState state)
{
    thread_of(w, t)->state = state;
    if (w->ops->left_run)
        w->ops->left_run(w->ctx, t);
}

static void rejoin_run(const IsaStepWorld *w, guint t)
{
    thread_of(w, t)->state = THREAD_RUNNABLE;
    if (w->ops->rejoined_run)
        w->ops->rejoined_run(w->ctx, t);
}

void isa_thread_fault(const IsaStepWorld *w, guint t, IsaFaultKind kind, uint64_t addr, unsigned size)
{
    leave_run(w, t, THREAD_FAULT);
    if (w->ops->fault)
        w->ops->fault(w->ctx, t, kind, addr, size);
}

/* An event arrives at thread u: wakes it from wfe (consuming the event), else latches it. */
static void deliver_event(const IsaStepWorld *w, guint u)
{
    if (thread_of(w, u)->state == THREAD_WFE)
        rejoin_run(w, u);
    else
        thread_of(w, u)->event = TRUE;
}

void isa_thread_write_seen(const IsaStepWorld *w, guint t, uint64_t addr)
{
    uint64_t line = addr / w->line_size;
    for (guint u = 0; u < w->nthreads; u++) {
        IsaThread *o = thread_of(w, u);
        if (u == t || !o->monitor || o->ldx_line != line)
            continue;
        o->monitor = FALSE;
        deliver_event(w, u);
    }
}

/* ======================================================================= the ops */

/* la: this thread's copy of a variable, or thread rT's.  FALSE after a fault. */
static gboolean exec_la(const IsaStepWorld *w, guint t, IsaThread *th, const IsaInsn *i)
{
    uint64_t *r = th->regs;
    guint owner = t;
    if (i->rt != ISA_NO_REG) {
        if (r[i->rt] >= w->nthreads) {
            isa_thread_fault(w, t, ISA_FAULT_NO_THREAD, r[i->rt], 0);
            return FALSE;
        }
        owner = (guint)r[i->rt];
    }
    r[i->rd] = isa_sym_addr(w->layout, (guint)i->target, owner);
    return TRUE;
}

/* A read-modify-write: one atomic step, rd := the old value. */
static void exec_rmw(const IsaStepWorld *w, guint t, IsaThread *th, const IsaInsn *i, uint64_t addr, uint64_t a,
                     uint64_t b)
{
    uint64_t nv = 0;
    uint64_t old = w->ops->read(w->ctx, t, addr, i->size);
    /* Compare at the access width: cas32 with an expected value of -1 means 0xffffffff. */
    if (isa_rmw(i->op, old, i->op == OP_CAS ? isa_truncate(a, i->size) : a, b, &nv))
        w->ops->write(w->ctx, t, addr, i->size, isa_truncate(nv, i->size));
    th->regs[i->rd] = old;
}

/* ldx arms the monitor on its line; stx stores only while it is still armed there. */
static void exec_exclusive(const IsaStepWorld *w, guint t, IsaThread *th, const IsaInsn *i, uint64_t addr,
                           uint64_t a)
{
    if (i->op == OP_LDX) {
        th->regs[i->rd] = w->ops->read(w->ctx, t, addr, i->size);
        th->monitor = TRUE;
        th->has_ldx_line = TRUE;
        th->ldx_line = addr / w->line_size;
        return;
    }
    if (th->monitor && th->has_ldx_line && th->ldx_line == addr / w->line_size) {
        w->ops->write(w->ctx, t, addr, i->size, isa_truncate(a, i->size));
        th->regs[i->rd] = 0;
    } else {
        th->regs[i->rd] = 1;
    }
    th->monitor = FALSE;
}

/* wfe, sev, sevl: the event register. */
static void exec_event(const IsaStepWorld *w, guint t, IsaThread *th, IsaOp op)
{
    if (op == OP_WFE) {
        if (th->event)
            th->event = FALSE;
        else
            leave_run(w, t, THREAD_WFE);
    } else if (op == OP_SEV) {
        for (guint u = 0; u < w->nthreads; u++) {
            IsaThreadState st = thread_of(w, u)->state;
            if (st == THREAD_RUNNABLE || st == THREAD_WFE)
                deliver_event(w, u);
        }
    } else {
        th->event = TRUE;
    }
}

/* futex_wait compares and queues in one step, as the kernel does under the hash-bucket lock. */
static void exec_futex_wait(const IsaStepWorld *w, guint t, IsaThread *th, const IsaInsn *i, uint64_t addr,
                            uint64_t a)
{
    if (w->ops->read(w->ctx, t, addr, 4) != isa_truncate(a, 4)) {
        th->regs[i->rd] = 1;
        return;
    }
    th->regs[i->rd] = 0; /* what it returns once woken */
    th->state = THREAD_FUTEX;
    th->futex_addr = addr;
    if (w->ops->futex_slept)
        w->ops->futex_slept(w->ctx, t);
    leave_run(w, t, THREAD_FUTEX);
}

/* Wakes up to n sleepers on addr, those that slept first first (Linux queues a futex's waiters
 * in priority order, FIFO among equals); returns how many woke. */
static uint64_t futex_wake(const IsaStepWorld *w, uint64_t addr, uint64_t n)
{
    uint64_t woken = 0;
    while (woken < n) {
        guint best = G_MAXUINT;
        uint64_t best_order = 0;
        for (guint u = 0; u < w->nthreads; u++) {
            const IsaThread *o = thread_of(w, u);
            if (o->state != THREAD_FUTEX || o->futex_addr != addr)
                continue;
            uint64_t order = w->ops->futex_order(w->ctx, u);
            if (best == G_MAXUINT || order < best_order) {
                best = u;
                best_order = order;
            }
        }
        if (best == G_MAXUINT)
            break;
        thread_of(w, best)->state = THREAD_RUNNABLE;
        if (w->ops->futex_woken)
            w->ops->futex_woken(w->ctx, best);
        rejoin_run(w, best);
        woken++;
    }
    return woken;
}

gboolean isa_thread_step(const IsaStepWorld *w, guint t)
{
    IsaThread *th = thread_of(w, t);
    const IsaInsn *i = isa_thread_insn(w->p, th);
    if (!i) {
        isa_thread_fault(w, t, ISA_FAULT_OFF_PROGRAM, (uint64_t)(gint64)th->pc, 0);
        return FALSE;
    }
    uint64_t *r = th->regs;
    int32_t next = th->pc + 1;
    uint64_t a = isa_src(&i->a, r), b = isa_src(&i->b, r);
    uint64_t addr = 0;
    if (isa_op_info[i->op].is_load || isa_op_info[i->op].is_store) {
        addr = isa_address(&i->mem, w->layout, t, r);
        IsaFaultKind k = isa_access_check(w->layout, addr, i->size);
        if (k != ISA_FAULT_NONE) {
            isa_thread_fault(w, t, k, addr, i->size);
            return FALSE;
        }
    }
    gboolean ok = TRUE;
    switch (i->op) {
    case OP_NOP: case OP_FENCE: case OP_PAUSE: case OP_WORK:
        break;
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_SHR: case OP_MUL:
    case OP_SAR: case OP_SEXT: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU: case OP_SEQ: case OP_SNE:
    case OP_SLT: case OP_SGE: case OP_SLTU: case OP_SGEU:
        r[i->rd] = isa_alu(i->op, a, b);
        break;
    case OP_LA:
        ok = exec_la(w, t, th, i);
        break;
    case OP_LD:
        r[i->rd] = w->ops->load(w->ctx, t, addr, i->size);
        break;
    case OP_ST:
        w->ops->store(w->ctx, t, addr, i->size, isa_truncate(a, i->size), th->pc);
        break;
    case OP_LDX: case OP_STX:
        exec_exclusive(w, t, th, i, addr, a);
        break;
    case OP_WFE: case OP_SEV: case OP_SEVL:
        exec_event(w, t, th, i->op);
        break;
    case OP_BR: case OP_JMP: case OP_CALL: case OP_RET: {
        IsaFaultKind k = isa_next_pc(i, th->pc, a, b, th->stack, &th->depth, &next);
        if (k != ISA_FAULT_NONE) {
            isa_thread_fault(w, t, k, 0, 0);
            ok = FALSE;
        }
        break;
    }
    case OP_MARK:
        th->marks[i->n >= 1 && i->n <= 3 ? i->n : 0]++;
        break;
    case OP_FUTEX_WAIT:
        exec_futex_wait(w, t, th, i, addr, a);
        break;
    case OP_FUTEX_WAKE:
        r[i->rd] = futex_wake(w, addr, a);
        break;
    case OP_HALT:
        leave_run(w, t, THREAD_HALTED);
        next = th->pc;
        break;
    default:
        /* The read-modify-writes, as the op table names them. */
        g_assert(isa_op_is_rmw(i->op));
        exec_rmw(w, t, th, i, addr, a, b);
        break;
    }
    if (ok)
        th->pc = next;
    return TRUE;
}

/* Ops on an explorer state (see explore_exec.h).  Each part follows the reference interpreter
 * (cores/isa/interp.c) rule for rule, so that `--model sc` explores exactly the executions the
 * interpreter can take. */
#include <string.h>
#include "sim/explore/explore_exec.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"

const IsaInsn *explore_insn(const ExploreWorld *w, const ExploreState *s, guint t)
{
    int32_t pc = s->th[t].pc;
    if (pc < 0 || (guint)pc >= w->p->insns->len)
        return NULL;
    return &g_array_index(w->p->insns, IsaInsn, pc);
}

gboolean explore_op_is_private(const IsaInsn *i)
{
    switch (i->op) {
    case OP_NOP: case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_SHR: case OP_MUL: case OP_LA: case OP_BR: case OP_JMP: case OP_CALL: case OP_RET: case OP_WORK:
    case OP_MARK: case OP_PAUSE: case OP_SEVL: case OP_HALT:
        return TRUE;
    default:
        return FALSE;
    }
}

gboolean explore_op_is_atomic_step(const IsaInsn *i)
{
    return isa_op_is_rmw(i->op) || i->op == OP_LDX || i->op == OP_STX || isa_op_info[i->op].is_syscall;
}

static void fault(ExploreState *s, guint t, int kind, uint64_t addr, unsigned size)
{
    ExploreThread *th = &s->th[t];
    th->state = THREAD_FAULT;
    th->fault_kind = kind;
    th->fault_addr = addr;
    th->fault_size = size;
}

/* ======================================================================= memory and events */

/* An event arrives at thread u: wakes it from wfe (consuming the event), else latches it. */
static void deliver_event(ExploreThread *o)
{
    if (o->state == THREAD_WFE)
        o->state = THREAD_RUNNABLE;
    else
        o->event = TRUE;
}

void explore_mem_store(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                       uint64_t value, ExploreNote *note)
{
    guint8 *m = s->mem + (addr - w->layout->base);
    for (unsigned i = 0; i < size; i++)
        m[i] = (guint8)(value >> (8 * i));
    if (note) {
        note->wrote = TRUE;
        note->waddr = addr;
        note->wsize = size;
        note->wvalue = value;
    }
    uint64_t line = addr / w->line_size;
    for (guint u = 0; u < w->nthreads; u++) {
        ExploreThread *o = &s->th[u];
        if (u == t || !o->monitor || o->ldx_line != line)
            continue;
        o->monitor = FALSE;
        deliver_event(o);
    }
}

uint64_t explore_mem_read(const ExploreWorld *w, const ExploreState *s, uint64_t addr, unsigned size,
                          ExploreNote *note)
{
    uint64_t v = explore_mem_load(w, s, addr, size);
    if (note) {
        note->read = TRUE;
        note->raddr = addr;
        note->rsize = size;
        note->rvalue = v;
        memset(note->from_buffer, -1, sizeof note->from_buffer);
    }
    return v;
}

/* Wakes up to n sleepers on addr, the longest asleep first; returns how many woke.  Ranks stay
 * 0..k-1 over the sleepers left. */
static uint64_t futex_wake(const ExploreWorld *w, ExploreState *s, uint64_t addr, uint64_t n)
{
    uint64_t woken = 0;
    while (woken < n) {
        guint best = G_MAXUINT;
        for (guint u = 0; u < w->nthreads; u++) {
            const ExploreThread *o = &s->th[u];
            if (o->state == THREAD_FUTEX && o->futex_addr == addr &&
                (best == G_MAXUINT || o->futex_rank < s->th[best].futex_rank))
                best = u;
        }
        if (best == G_MAXUINT)
            break;
        guint rank = s->th[best].futex_rank;
        s->th[best].state = THREAD_RUNNABLE;
        s->th[best].futex_addr = 0;
        s->th[best].futex_rank = 0;
        for (guint u = 0; u < w->nthreads; u++)
            if (s->th[u].state == THREAD_FUTEX && s->th[u].futex_rank > rank)
                s->th[u].futex_rank--;
        woken++;
    }
    return woken;
}

/* ======================================================================= the ops */

static gboolean exec_la(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i)
{
    uint64_t *r = s->th[t].regs;
    guint owner = t;
    if (i->rt != ISA_NO_REG) {
        if (r[i->rt] >= w->nthreads) {
            fault(s, t, ISA_FAULT_NO_THREAD, r[i->rt], 0);
            return FALSE;
        }
        owner = (guint)r[i->rt];
    }
    r[i->rd] = isa_sym_addr(w->layout, (guint)i->target, owner);
    return TRUE;
}

static void exec_rmw(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i, uint64_t addr, uint64_t a,
                     uint64_t b, ExploreNote *note)
{
    uint64_t nv = 0;
    uint64_t old = explore_mem_read(w, s, addr, i->size, note);
    /* Compare at the access width, as the interpreter does. */
    if (isa_rmw(i->op, old, i->op == OP_CAS ? isa_truncate(a, i->size) : a, b, &nv))
        explore_mem_store(w, s, t, addr, i->size, isa_truncate(nv, i->size), note);
    s->th[t].regs[i->rd] = old;
}

static void exec_exclusive(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i, uint64_t addr,
                           uint64_t a, ExploreNote *note)
{
    ExploreThread *th = &s->th[t];
    if (i->op == OP_LDX) {
        th->regs[i->rd] = explore_mem_read(w, s, addr, i->size, note);
        th->monitor = TRUE;
        th->has_ldx_line = TRUE;
        th->ldx_line = addr / w->line_size;
        return;
    }
    if (th->monitor && th->has_ldx_line && th->ldx_line == addr / w->line_size) {
        explore_mem_store(w, s, t, addr, i->size, isa_truncate(a, i->size), note);
        th->regs[i->rd] = 0;
    } else {
        th->regs[i->rd] = 1;
    }
    th->monitor = FALSE;
}

static void exec_event(const ExploreWorld *w, ExploreState *s, guint t, IsaOp op)
{
    ExploreThread *th = &s->th[t];
    if (op == OP_WFE) {
        if (th->event)
            th->event = FALSE;
        else
            th->state = THREAD_WFE;
    } else if (op == OP_SEV) {
        for (guint u = 0; u < w->nthreads; u++)
            if (s->th[u].state == THREAD_RUNNABLE || s->th[u].state == THREAD_WFE)
                deliver_event(&s->th[u]);
    } else {
        th->event = TRUE;
    }
}

static void exec_futex_wait(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i, uint64_t addr,
                            uint64_t a, ExploreNote *note)
{
    ExploreThread *th = &s->th[t];
    if (explore_mem_read(w, s, addr, 4, note) != isa_truncate(a, 4)) {
        th->regs[i->rd] = 1;
        return;
    }
    th->regs[i->rd] = 0;
    th->state = THREAD_FUTEX;
    th->futex_addr = addr;
    th->futex_rank = explore_count_in(w, s, THREAD_FUTEX) - 1;
}

void explore_exec_op(const ExploreWorld *w, const ExploreModel *m, ExploreState *s, guint t, ExploreNote *note)
{
    ExploreThread *th = &s->th[t];
    const IsaInsn *i = explore_insn(w, s, t);
    if (!i) {
        fault(s, t, ISA_FAULT_OFF_PROGRAM, (uint64_t)(gint64)th->pc, 0);
        return;
    }
    if (note)
        note->pc = th->pc;
    uint64_t *r = th->regs;
    int32_t next = th->pc + 1;
    uint64_t a = isa_src(&i->a, r), b = isa_src(&i->b, r);
    uint64_t addr = 0;
    if (isa_op_info[i->op].is_load || isa_op_info[i->op].is_store) {
        addr = isa_address(&i->mem, w->layout, t, r);
        IsaFaultKind k = isa_access_check(w->layout, addr, i->size);
        if (k != ISA_FAULT_NONE) {
            fault(s, t, k, addr, i->size);
            return;
        }
    }
    gboolean ok = TRUE;
    switch (i->op) {
    case OP_NOP: case OP_FENCE: case OP_PAUSE: case OP_WORK:
        break;
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_SHR: case OP_MUL:
        r[i->rd] = isa_alu(i->op, a, b);
        break;
    case OP_LA:
        ok = exec_la(w, s, t, i);
        break;
    case OP_LD:
        r[i->rd] = m->load(w, s, t, addr, i->size, note);
        break;
    case OP_ST:
        m->store(w, s, t, addr, i->size, isa_truncate(a, i->size), th->pc, note);
        break;
    case OP_LDX: case OP_STX:
        exec_exclusive(w, s, t, i, addr, a, note);
        break;
    case OP_WFE: case OP_SEV: case OP_SEVL:
        exec_event(w, s, t, i->op);
        break;
    case OP_BR: case OP_JMP: case OP_CALL: case OP_RET: {
        IsaFaultKind k = isa_next_pc(i, th->pc, a, b, th->stack, &th->depth, &next);
        if (k != ISA_FAULT_NONE) {
            fault(s, t, k, 0, 0);
            ok = FALSE;
        }
        break;
    }
    case OP_MARK:
        th->marks[i->n >= 1 && i->n <= 3 ? i->n : 0]++;
        break;
    case OP_FUTEX_WAIT:
        exec_futex_wait(w, s, t, i, addr, a, note);
        break;
    case OP_FUTEX_WAKE:
        r[i->rd] = futex_wake(w, s, addr, a);
        break;
    case OP_HALT:
        th->state = THREAD_HALTED;
        next = th->pc;
        break;
    default:
        g_assert(isa_op_is_rmw(i->op));
        exec_rmw(w, s, t, i, addr, a, b, note);
        break;
    }
    if (ok)
        th->pc = next;
}

/* ======================================================================= local runs */

static void run_local(const ExploreWorld *w, const ExploreModel *m, ExploreState *s, guint t)
{
    ExploreThread *th = &s->th[t];
    for (guint n = 0; th->state == THREAD_RUNNABLE; n++) {
        const IsaInsn *i = explore_insn(w, s, t);
        if (i && !m->local(w, s, t, i))
            return;
        if (n >= EXPLORE_RUNAWAY_OPS) {
            fault(s, t, EXPLORE_FAULT_RUNAWAY, (uint64_t)(gint64)th->pc, 0);
            return;
        }
        if (m->exec && i)
            m->exec(w, s, t, NULL);
        else
            explore_exec_op(w, m, s, t, NULL); /* off the program: faults */
    }
}

void explore_settle(const ExploreWorld *w, const ExploreModel *m, ExploreState *s)
{
    for (guint t = 0; t < w->nthreads; t++)
        run_local(w, m, s, t);
    explore_state_canonicalize(w, s);
}

/* Ops on an explorer state (see explore_exec.h).  The op itself is the thread step the reference
 * interpreter runs too (cores/isa/thread_step.h), so that `--model sc` explores exactly the
 * executions the interpreter can take; here is only how it reaches the explorer's state. */
#include <string.h>
#include "sim/explore/explore_exec.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/thread_step.h"

const IsaInsn *explore_insn(const ExploreWorld *w, const ExploreState *s, guint t)
{
    return isa_thread_insn(w->p, &s->th[t].isa);
}

gboolean explore_op_is_private(const IsaInsn *i)
{
    return isa_op_is_private(i->op);
}

gboolean explore_op_is_atomic_step(const IsaInsn *i)
{
    return isa_op_is_atomic_step(i->op);
}

/* ======================================================================= the world the step sees */

/* One step's view of the explorer: the state, the model its plain accesses go through, and the
 * note the step fills in. */
typedef struct {
    const ExploreWorld *w;
    const ExploreModel *m;
    ExploreState *s;
    ExploreNote *note;
} StepCtx;

static IsaThread *step_thread(void *ctx, guint t)
{
    StepCtx *c = ctx;
    return &c->s->th[t].isa;
}

static uint64_t step_load(void *ctx, guint t, uint64_t addr, unsigned size)
{
    StepCtx *c = ctx;
    return c->m->load(c->w, c->s, t, addr, size, c->note);
}

static void step_store(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value, int32_t pc)
{
    StepCtx *c = ctx;
    c->m->store(c->w, c->s, t, addr, size, value, pc, c->note);
}

static uint64_t step_read(void *ctx, guint t, uint64_t addr, unsigned size)
{
    StepCtx *c = ctx;
    (void)t;
    return explore_mem_read(c->w, c->s, addr, size, c->note);
}

static void step_write(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value)
{
    StepCtx *c = ctx;
    explore_mem_store(c->w, c->s, t, addr, size, value, c->note);
}

static void step_fault(void *ctx, guint t, IsaFaultKind kind, uint64_t addr, unsigned size)
{
    ExploreThread *th = &((StepCtx *)ctx)->s->th[t];
    th->fault_kind = kind;
    th->fault_addr = addr;
    th->fault_size = size;
}

/* The futex queue as the canonical state keeps it: ranks 0..k-1 over today's sleepers, 0 the
 * one asleep longest. */
static void step_futex_slept(void *ctx, guint t)
{
    StepCtx *c = ctx;
    c->s->th[t].futex_rank = explore_count_in(c->w, c->s, THREAD_FUTEX) - 1;
}

static uint64_t step_futex_order(void *ctx, guint t)
{
    return ((StepCtx *)ctx)->s->th[t].futex_rank;
}

static void step_futex_woken(void *ctx, guint t)
{
    StepCtx *c = ctx;
    ExploreThread *th = &c->s->th[t];
    guint rank = th->futex_rank;
    th->futex_addr = 0;
    th->futex_rank = 0;
    for (guint u = 0; u < c->w->nthreads; u++)
        if (c->s->th[u].state == THREAD_FUTEX && c->s->th[u].futex_rank > rank)
            c->s->th[u].futex_rank--;
}

static const IsaStepOps explore_step_ops = {
    .thread = step_thread,
    .load = step_load,
    .store = step_store,
    .read = step_read,
    .write = step_write,
    .fault = step_fault,
    .futex_slept = step_futex_slept,
    .futex_order = step_futex_order,
    .futex_woken = step_futex_woken,
};

static IsaStepWorld step_world(StepCtx *c)
{
    return (IsaStepWorld){ &explore_step_ops, c, c->w->p, c->w->layout, c->w->nthreads, c->w->line_size };
}

static void fault(const ExploreWorld *w, ExploreState *s, guint t, int kind, uint64_t addr, unsigned size)
{
    StepCtx c = { w, NULL, s, NULL };
    IsaStepWorld sw = step_world(&c);
    isa_thread_fault(&sw, t, kind, addr, size);
}

/* ======================================================================= memory */

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
    StepCtx c = { w, NULL, s, note };
    IsaStepWorld sw = step_world(&c);
    isa_thread_write_seen(&sw, t, addr);
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

/* ======================================================================= the ops */

void explore_exec_op(const ExploreWorld *w, const ExploreModel *m, ExploreState *s, guint t, ExploreNote *note)
{
    if (note && explore_insn(w, s, t))
        note->pc = s->th[t].pc;
    StepCtx c = { w, m, s, note };
    IsaStepWorld sw = step_world(&c);
    isa_thread_step(&sw, t);
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
            fault(w, s, t, EXPLORE_FAULT_RUNAWAY, (uint64_t)(gint64)th->pc, 0);
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

/* The reference interpreter (see interp.h for the conventions it implements).
 *
 * Invariants: `run[0..nrun)` holds exactly the threads in THREAD_RUNNABLE; memory is the byte
 * range [layout->base, layout->base + layout->size); the outcome only leaves INTERP_RUNNING once. */
#include <string.h>
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/asm.h"
#include "cores/isa/thread_step.h"

G_DEFINE_QUARK(qsim-interp-error-quark, interp_error)

struct Interp {
    const IsaProgram *p;
    IsaLayout *layout;
    guint8 *mem;
    guint nthreads;
    InterpThread *th;
    guint *run;
    guint nrun;
    GRand *rand;
    uint64_t steps, max_steps;
    uint32_t line_size;
    uint64_t futex_seq;          /* futex_waits that slept so far: their order */
    InterpOutcome outcome;
    IsaStepWorld step;           /* this run as the thread step sees it */
};

static const IsaStepOps interp_step_ops;

static void poke(void *ctx, uint64_t addr, unsigned size, uint64_t value)
{
    Interp *in = ctx;
    guint8 *m = in->mem + (addr - in->layout->base);
    for (unsigned i = 0; i < size; i++)
        m[i] = (guint8)(value >> (8 * i));
}

Interp *interp_new(const IsaProgram *p, const InterpOptions *o, GError **error)
{
    const char *entry = o->entry ? o->entry : "main";
    int pc = isa_program_find_entry(p, entry);
    if (pc < 0) {
        g_set_error(error, INTERP_ERROR, INTERP_ERROR_SETUP,
                    "%s: no entry point `%s` (declare it with `.entry %s`)", p->filename, entry, entry);
        return NULL;
    }
    if (o->threads == 0) {
        g_set_error(error, INTERP_ERROR, INTERP_ERROR_SETUP, "a run needs at least one thread");
        return NULL;
    }
    Interp *in = g_new0(Interp, 1);
    in->p = p;
    in->nthreads = o->threads;
    in->line_size = o->line_size ? o->line_size : 64;
    in->max_steps = o->max_steps ? o->max_steps : 10000000;
    in->layout = isa_layout_new(p, o->threads, in->line_size, INTERP_BASE);
    in->mem = g_malloc0(in->layout->size ? in->layout->size : 1);
    isa_layout_init_memory(in->layout, p, poke, in);
    in->th = g_new0(InterpThread, o->threads);
    in->run = g_new(guint, o->threads);
    for (guint t = 0; t < o->threads; t++) {
        in->th[t].pc = pc;
        in->th[t].regs[ISA_REG_TID] = t;
        in->th[t].regs[ISA_REG_NTHREADS] = o->threads;
        in->run[in->nrun++] = t;
    }
    in->step = (IsaStepWorld){ &interp_step_ops, in, p, in->layout, in->nthreads, in->line_size };
    in->rand = g_rand_new_with_seed((guint32)(o->seed ^ (o->seed >> 32)));
    in->outcome = INTERP_RUNNING;
    return in;
}

void interp_free(Interp *in)
{
    if (!in)
        return;
    for (guint t = 0; t < in->nthreads; t++)
        g_free(in->th[t].fault);
    g_free(in->th);
    g_free(in->run);
    g_free(in->mem);
    isa_layout_free(in->layout);
    g_rand_free(in->rand);
    g_free(in);
}

/* ======================================================================= the world the step sees */

static void unrun(Interp *in, guint t)
{
    for (guint i = 0; i < in->nrun; i++)
        if (in->run[i] == t) {
            in->run[i] = in->run[--in->nrun];
            return;
        }
}

static IsaThread *step_thread(void *ctx, guint t)
{
    Interp *in = ctx;
    return &in->th[t].isa;
}

static void step_left_run(void *ctx, guint t)
{
    unrun(ctx, t);
}

static void step_rejoined_run(void *ctx, guint t)
{
    Interp *in = ctx;
    in->run[in->nrun++] = t;
}

/* The one definition of a fault (cores/isa/isa_fault.h), in the words every back end uses. */
static void step_fault(void *ctx, guint t, IsaFaultKind kind, uint64_t addr, unsigned size)
{
    Interp *in = ctx;
    in->th[t].fault = isa_fault_describe(in->p, in->layout, kind, addr, size);
    in->outcome = INTERP_FAULT;
}

static uint64_t mem_load(const Interp *in, uint64_t addr, unsigned size)
{
    const guint8 *m = in->mem + (addr - in->layout->base);
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)m[i] << (8 * i);
    return v;
}

static uint64_t step_read(void *ctx, guint t, uint64_t addr, unsigned size)
{
    (void)t;
    return mem_load(ctx, addr, size);
}

/* Every write reaches memory at once, and other threads' monitors see it. */
static void step_write(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value)
{
    Interp *in = ctx;
    poke(in, addr, size, value);
    isa_thread_write_seen(&in->step, t, addr);
}

static void step_store(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value, int32_t pc)
{
    (void)pc;
    step_write(ctx, t, addr, size, value);
}

/* The futex queue's order: when each sleeper went to sleep. */
static void step_futex_slept(void *ctx, guint t)
{
    Interp *in = ctx;
    in->th[t].futex_seq = in->futex_seq++;
    in->th[t].futex_sleeps++;
}

static uint64_t step_futex_order(void *ctx, guint t)
{
    Interp *in = ctx;
    return in->th[t].futex_seq;
}

static const IsaStepOps interp_step_ops = {
    .thread = step_thread,
    .load = step_read,
    .store = step_store,
    .read = step_read,
    .write = step_write,
    .fault = step_fault,
    .left_run = step_left_run,
    .rejoined_run = step_rejoined_run,
    .futex_slept = step_futex_slept,
    .futex_order = step_futex_order,
};

/* ======================================================================= memory for checkers */

gboolean interp_read(const Interp *in, uint64_t addr, unsigned size, uint64_t *value)
{
    const IsaLayout *l = in->layout;
    if (addr < l->base || addr + size > l->base + l->size)
        return FALSE;
    *value = mem_load(in, addr, size);
    return TRUE;
}

gboolean interp_write(Interp *in, uint64_t addr, unsigned size, uint64_t value)
{
    const IsaLayout *l = in->layout;
    if (addr < l->base || addr + size > l->base + l->size)
        return FALSE;
    poke(in, addr, size, value);
    return TRUE;
}

gboolean interp_read_sym(const Interp *in, const char *sym, guint t, unsigned size, uint64_t *value)
{
    int s = isa_program_find_sym(in->p, sym);
    if (s < 0 || t >= in->nthreads)
        return FALSE;
    return interp_read(in, isa_sym_addr(in->layout, (guint)s, t), size, value);
}

guint interp_futex_sleepers(const Interp *in)
{
    guint n = 0;
    for (guint t = 0; t < in->nthreads; t++)
        n += in->th[t].state == THREAD_FUTEX;
    return n;
}

InterpOutcome interp_step(Interp *in)
{
    if (in->outcome != INTERP_RUNNING)
        return in->outcome;
    if (in->nrun == 0) {
        gboolean all_halted = TRUE;
        for (guint t = 0; t < in->nthreads; t++)
            all_halted &= in->th[t].state == THREAD_HALTED;
        in->outcome = all_halted ? INTERP_FINISHED : INTERP_DEADLOCK;
        return in->outcome;
    }
    if (in->steps >= in->max_steps) {
        in->outcome = INTERP_LIVELOCK;
        return in->outcome;
    }
    guint t = in->run[in->nrun == 1 ? 0 : g_rand_int_range(in->rand, 0, (gint32)in->nrun)];
    in->steps++;
    if (isa_thread_step(&in->step, t))
        in->th[t].steps++;
    return in->outcome;
}

InterpOutcome interp_run(Interp *in)
{
    while (interp_step(in) == INTERP_RUNNING)
        ;
    return in->outcome;
}

InterpOutcome interp_outcome(const Interp *in) { return in->outcome; }
uint64_t interp_steps(const Interp *in) { return in->steps; }
const IsaLayout *interp_layout(const Interp *in) { return in->layout; }

const InterpThread *interp_thread(const Interp *in, guint t)
{
    return t < in->nthreads ? &in->th[t] : NULL;
}

const char *interp_outcome_name(InterpOutcome o)
{
    switch (o) {
    case INTERP_RUNNING: return "running";
    case INTERP_FINISHED: return "finished";
    case INTERP_DEADLOCK: return "deadlock";
    case INTERP_LIVELOCK: return "livelock (step bound reached)";
    case INTERP_FAULT: return "runtime error";
    }
    return "?";
}

char *interp_describe(const Interp *in)
{
    static const char *const state_names[] = { "runnable", "waiting in wfe", "asleep in futex_wait", "halted",
                                                "fault" };
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "%s after %" G_GUINT64_FORMAT " steps\n", interp_outcome_name(in->outcome), in->steps);
    for (guint t = 0; t < in->nthreads; t++) {
        const InterpThread *th = &in->th[t];
        g_string_append_printf(g, "  thread %u: %s, %" G_GUINT64_FORMAT " ops, %" G_GUINT64_FORMAT " acquisitions",
                               t, state_names[th->state], th->steps, th->marks[2]);
        if (th->pc >= 0 && (guint)th->pc < in->p->insns->len) {
            const IsaInsn *i = &g_array_index(in->p->insns, IsaInsn, th->pc);
            g_autofree char *pos = asm_format_pos(in->p, i);
            g_autofree char *txt = asm_format_insn(in->p, i);
            g_string_append_printf(g, ", at @%d %s `%s`", th->pc, pos, txt);
        }
        if (th->state == THREAD_FUTEX)
            g_string_append_printf(g, " (on the word at 0x%" G_GINT64_MODIFIER "x)", th->futex_addr);
        if (th->fault)
            g_string_append_printf(g, ": %s", th->fault);
        g_string_append(g, "\n    regs:");
        for (guint k = 0; k < ISA_NREGS; k++)
            if (th->regs[k])
                g_string_append_printf(g, " r%u=0x%" G_GINT64_MODIFIER "x", k, th->regs[k]);
        g_string_append_c(g, '\n');
    }
    return g_string_free(g, FALSE);
}

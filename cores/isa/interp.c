/* The reference interpreter (see interp.h for the conventions it implements).
 *
 * Invariants: `run[0..nrun)` holds exactly the threads in THREAD_RUNNABLE; memory is the byte
 * range [layout->base, layout->base + layout->size); the outcome only leaves INTERP_RUNNING once. */
#include <string.h>
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/asm.h"

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
};

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

/* ======================================================================= scheduling */

static void unrun(Interp *in, guint t)
{
    for (guint i = 0; i < in->nrun; i++)
        if (in->run[i] == t) {
            in->run[i] = in->run[--in->nrun];
            return;
        }
}

static void wake(Interp *in, guint t)
{
    in->th[t].state = THREAD_RUNNABLE;
    in->run[in->nrun++] = t;
}

/* An event arrives at thread t: wakes it from wfe (consuming the event), else latches it. */
static void deliver_event(Interp *in, guint t)
{
    if (in->th[t].state == THREAD_WFE)
        wake(in, t);
    else
        in->th[t].event = TRUE;
}

static void fault(Interp *in, guint t, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void fault(Interp *in, guint t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    in->th[t].fault = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    in->th[t].state = THREAD_FAULT;
    unrun(in, t);
    in->outcome = INTERP_FAULT;
}

/* A call nested too deep, a ret with nothing to return to, a pc outside the program
 * (cores/isa/isa_fault.h): in the words every back end uses. */
static void control_fault(Interp *in, guint t, IsaFaultKind kind, int32_t pc)
{
    g_autofree char *why = isa_fault_describe(in->p, in->layout, kind, (uint64_t)(gint64)pc, 0);
    fault(in, t, "%s", why);
}

/* ======================================================================= memory */

/* The one definition of a bad access (cores/isa/isa_fault.h), in the words every back end uses. */
static gboolean check_access(Interp *in, guint t, uint64_t addr, unsigned size)
{
    IsaFaultKind k = isa_access_check(in->layout, addr, size);
    if (k != ISA_FAULT_NONE) {
        g_autofree char *why = isa_fault_describe(in->p, in->layout, k, addr, size);
        fault(in, t, "%s", why);
        return FALSE;
    }
    return TRUE;
}

static uint64_t mem_load(const Interp *in, uint64_t addr, unsigned size)
{
    const guint8 *m = in->mem + (addr - in->layout->base);
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)m[i] << (8 * i);
    return v;
}

/* A store by thread t: clears other threads' armed monitors on the line, and each such clearing
 * is an event (it wakes a wfe, or stays pending).  A thread whose monitor is not armed gets no
 * event, even when it last ldx-ed this line: on arm64 the wake-up event is the clearing of the
 * global monitor (the Arm ARM's list of WFE wake-up events), so a wfe after the monitor was
 * cleared, and not re-armed, sleeps through later stores: the lost wake-up verify must catch. */
static void mem_store(Interp *in, guint t, uint64_t addr, unsigned size, uint64_t v)
{
    poke(in, addr, size, v);
    uint64_t line = addr / in->line_size;
    for (guint u = 0; u < in->nthreads; u++) {
        InterpThread *o = &in->th[u];
        if (u == t || !o->monitor || o->ldx_line != line)
            continue;
        o->monitor = FALSE;
        deliver_event(in, u);
    }
}

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

/* Wakes up to n sleepers on addr, those that slept first first (Linux queues a futex's waiters
 * in priority order, FIFO among equals); returns how many woke. */
static uint64_t futex_wake(Interp *in, uint64_t addr, uint64_t n)
{
    uint64_t woken = 0;
    while (woken < n) {
        guint best = G_MAXUINT;
        for (guint u = 0; u < in->nthreads; u++) {
            const InterpThread *o = &in->th[u];
            if (o->state == THREAD_FUTEX && o->futex_addr == addr &&
                (best == G_MAXUINT || o->futex_seq < in->th[best].futex_seq))
                best = u;
        }
        if (best == G_MAXUINT)
            break;
        wake(in, best);
        woken++;
    }
    return woken;
}

guint interp_futex_sleepers(const Interp *in)
{
    guint n = 0;
    for (guint t = 0; t < in->nthreads; t++)
        n += in->th[t].state == THREAD_FUTEX;
    return n;
}

/* ======================================================================= execution */

/* la: this thread's copy of a variable, or thread rT's.  FALSE after a fault. */
static gboolean exec_la(Interp *in, guint t, const IsaInsn *i)
{
    uint64_t *r = in->th[t].regs;
    guint owner = t;
    if (i->rt != ISA_NO_REG) {
        if (r[i->rt] >= in->nthreads) {
            g_autofree char *why = isa_fault_describe(in->p, in->layout, ISA_FAULT_NO_THREAD, r[i->rt], 0);
            fault(in, t, "%s", why);
            return FALSE;
        }
        owner = (guint)r[i->rt];
    }
    r[i->rd] = isa_sym_addr(in->layout, (guint)i->target, owner);
    return TRUE;
}

/* A read-modify-write: one atomic step, rd := the old value. */
static void exec_rmw(Interp *in, guint t, const IsaInsn *i, uint64_t addr, uint64_t a, uint64_t b)
{
    uint64_t nv = 0;
    uint64_t old = mem_load(in, addr, i->size);
    /* Compare at the access width: cas32 with an expected value of -1 means 0xffffffff. */
    if (isa_rmw(i->op, old, i->op == OP_CAS ? isa_truncate(a, i->size) : a, b, &nv))
        mem_store(in, t, addr, i->size, isa_truncate(nv, i->size));
    in->th[t].regs[i->rd] = old;
}

/* ldx arms the monitor on its line; stx stores only while it is still armed there. */
static void exec_exclusive(Interp *in, guint t, const IsaInsn *i, uint64_t addr, uint64_t a)
{
    InterpThread *th = &in->th[t];
    if (i->op == OP_LDX) {
        th->regs[i->rd] = mem_load(in, addr, i->size);
        th->monitor = TRUE;
        th->has_ldx_line = TRUE;
        th->ldx_line = addr / in->line_size;
        return;
    }
    if (th->monitor && th->has_ldx_line && th->ldx_line == addr / in->line_size) {
        mem_store(in, t, addr, i->size, isa_truncate(a, i->size));
        th->regs[i->rd] = 0;
    } else {
        th->regs[i->rd] = 1;
    }
    th->monitor = FALSE;
}

/* wfe, sev, sevl: the event register. */
static void exec_event(Interp *in, guint t, IsaOp op)
{
    InterpThread *th = &in->th[t];
    switch (op) {
    case OP_WFE:
        if (th->event) {
            th->event = FALSE;
        } else {
            th->state = THREAD_WFE;
            unrun(in, t);
        }
        break;
    case OP_SEV:
        for (guint u = 0; u < in->nthreads; u++)
            if (in->th[u].state == THREAD_RUNNABLE || in->th[u].state == THREAD_WFE)
                deliver_event(in, u);
        break;
    default:
        th->event = TRUE;
        break;
    }
}

/* futex_wait compares and queues in one step, as the kernel does under the hash-bucket lock. */
static void exec_futex_wait(Interp *in, guint t, const IsaInsn *i, uint64_t addr, uint64_t a)
{
    InterpThread *th = &in->th[t];
    if (mem_load(in, addr, 4) != isa_truncate(a, 4)) {
        th->regs[i->rd] = 1;
        return;
    }
    th->regs[i->rd] = 0; /* what it returns once woken */
    th->state = THREAD_FUTEX;
    th->futex_addr = addr;
    th->futex_seq = in->futex_seq++;
    th->futex_sleeps++;
    unrun(in, t);
}

static void exec(Interp *in, guint t)
{
    InterpThread *th = &in->th[t];
    const IsaProgram *p = in->p;
    if (th->pc < 0 || (guint)th->pc >= p->insns->len) {
        control_fault(in, t, ISA_FAULT_OFF_PROGRAM, th->pc);
        return;
    }
    const IsaInsn *i = &g_array_index(p->insns, IsaInsn, th->pc);
    uint64_t *r = th->regs;
    int32_t next = th->pc + 1;
    uint64_t a = isa_src(&i->a, r), b = isa_src(&i->b, r);
    uint64_t addr = 0;
    if (isa_op_info[i->op].is_load || isa_op_info[i->op].is_store) {
        addr = isa_address(&i->mem, in->layout, t, r);
        if (!check_access(in, t, addr, i->size))
            return;
    }
    th->steps++;
    gboolean ok = TRUE;
    switch (i->op) {
    case OP_NOP: case OP_FENCE: case OP_PAUSE: case OP_WORK:
        break;
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_SHR: case OP_MUL:
        r[i->rd] = isa_alu(i->op, a, b);
        break;
    case OP_LA:
        ok = exec_la(in, t, i);
        break;
    case OP_LD:
        r[i->rd] = mem_load(in, addr, i->size);
        break;
    case OP_ST:
        mem_store(in, t, addr, i->size, isa_truncate(a, i->size));
        break;
    case OP_LDX: case OP_STX:
        exec_exclusive(in, t, i, addr, a);
        break;
    case OP_WFE: case OP_SEV: case OP_SEVL:
        exec_event(in, t, i->op);
        break;
    case OP_BR: case OP_JMP: case OP_CALL: case OP_RET: {
        IsaFaultKind k = isa_next_pc(i, th->pc, a, b, th->stack, &th->depth, &next);
        if (k != ISA_FAULT_NONE) {
            control_fault(in, t, k, 0);
            ok = FALSE;
        }
        break;
    }
    case OP_MARK:
        th->marks[i->n >= 1 && i->n <= 3 ? i->n : 0]++;
        break;
    case OP_FUTEX_WAIT:
        exec_futex_wait(in, t, i, addr, a);
        break;
    case OP_FUTEX_WAKE:
        r[i->rd] = futex_wake(in, addr, a);
        break;
    case OP_HALT:
        th->state = THREAD_HALTED;
        unrun(in, t);
        next = th->pc;
        break;
    default:
        /* The read-modify-writes, as the op table names them. */
        g_assert(isa_op_is_rmw(i->op));
        exec_rmw(in, t, i, addr, a, b);
        break;
    }
    if (ok)
        th->pc = next;
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
    exec(in, t);
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

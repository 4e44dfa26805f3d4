/* The machine: cores + memory system + program, run on the engine with a stall watchdog. */
#include "sim/machine/machine.h"
#include <string.h>
#include "cores/isa/isa_exec.h"
#include "sim/os/os_model.h"
#include "sim/machine/mark_log.h"
#include "sim/base/echo.h"

/* With an OS model, a core's port answers are routed here first: the model's own requests (the
 * futex hash buckets) to it, the rest to the core. */
typedef struct {
    OsModel *os;
    Core *core;
    guint id;
} PortShim;

struct Machine {
    const QsimConfig *cfg;
    Engine *e;
    const MemSystemOps *ops;
    void *ms;
    const IsaProgram *prog;
    const IsaLayout *layout;
    guint n;                  /* cores made: one per thread, or with an OS one per core used */
    Core **cores;
    Cycle *delay;
    GString *report;
    Cycle end;
    OsModel *os;              /* NULL: one core per thread, no system calls */
    PortShim *shims;
    Core **by_id;             /* hardware core id -> its Core, NULL when not made */
    Cycle longest_work;      /* the program's longest `work` */
    guint work_jitter;       /* what each `work` may take more */
    CoreMarkFn mark_fn;      /* the caller's mark hook, behind the machine's own */
    void *mark_ctx;
    Cycle last_mark;
    Cycle progress_window;   /* 0: no progress watchdog */
    gint fault_core;         /* the index in cores of the core whose op faulted, -1: none */
    CoreFault fault;         /* its fault (the core's own, or the OS model's for a futex word) */
    guint fault_thread;      /* the thread it was running */
    Cycle fault_cycle;
    Cycle last_retire;       /* the latest retirement on any core the watchdog has seen */
    gboolean stalled_idle;   /* the stall: nothing was left to happen within the window */
};

static void shim_done(void *obj, const MemResponse *r)
{
    PortShim *s = obj;
    if (r->tag & OS_MODEL_TAG)
        os_model_mem_done(s->os, s->id, r);
    else
        core_port_client()->done(s->core, r);
}

static void shim_line_lost(void *obj, uint64_t line, LineLossCause cause)
{
    PortShim *s = obj;
    core_port_client()->line_lost(s->core, line, cause);
}

static void shim_catch_up(void *obj)
{
    PortShim *s = obj;
    core_port_client()->catch_up(s->core);
}


/* The OS model's own accesses are no op's: only the core's are charged to it. */
static void shim_counted(void *obj, const MemRequest *r, MemCount what)
{
    PortShim *s = obj;
    if (!(r->tag & OS_MODEL_TAG))
        core_port_client()->counted(s->core, r, what);
}

static const PortClient shim_client = { shim_done, shim_line_lost, shim_catch_up, shim_counted };

static void sev_all(void *ctx, guint from G_GNUC_UNUSED)
{
    Machine *m = ctx;
    for (guint i = 0; i < m->n; i++)
        core_signal_event(m->cores[i]);
}

/* An acquisition or a release is progress (mark_is_progress), no other mark; the caller's hook
 * hears every mark, after the machine. */
static void on_mark(void *ctx, guint core, int64_t n, Cycle when)
{
    Machine *m = ctx;
    if (mark_is_progress(n))
        m->last_mark = when;
    if (m->mark_fn)
        m->mark_fn(m->mark_ctx, core, n, when);
}

/* An op faulted (the core says so, or the OS model for a futex op's word): nothing else runs,
 * so the state is the fault's (the engine drains what is in flight to cores that no longer
 * listen, and the OS model's own events are dropped). */
static void on_fault(void *ctx, guint core, const CoreFault *f)
{
    Machine *m = ctx;
    for (guint i = 0; i < m->n; i++) {
        if (core_id(m->cores[i]) == core && m->fault_core < 0) {
            m->fault_core = (gint)i;
            m->fault = *f;
            m->fault_thread = core_tid(m->cores[i]);
            m->fault_cycle = engine_now(m->e);
        }
        core_stop(m->cores[i]);
    }
    if (m->os)
        os_model_stop(m->os);
}

/* A `work` retires nothing for its whole length: the stall watchdog waits that much longer. */
static Cycle longest_work(const IsaProgram *prog)
{
    Cycle w = 0;
    for (guint pc = 0; pc < prog->insns->len; pc++) {
        const IsaInsn *in = &g_array_index(prog->insns, IsaInsn, pc);
        if (in->op == OP_WORK && in->n > 0)
            w = MAX(w, (Cycle)in->n);
    }
    return w;
}

/* SMT: two hardware threads of one core, both used, share its pipeline (core_smt_pair). */
static void pair_siblings(Machine *m)
{
    guint cores = config_total_cores(m->cfg);
    for (guint i = 0; i < m->n; i++) {
        guint id = core_id(m->cores[i]);
        for (guint t = 1; id < cores && t < (guint)m->cfg->topology.threads_per_core; t++) {
            Core *sib = m->by_id[id + t * cores];
            if (sib)
                core_smt_pair(m->cores[i], sib);
        }
    }
}

static void poke_cb(void *ctx, uint64_t addr, unsigned size, uint64_t value)
{
    Machine *m = ctx;
    m->ops->poke(m->ms, addr, size, value);
}

Machine *machine_new(const QsimConfig *cfg, Engine *e, const MemSystemOps *ops, void *ms,
                     const IsaProgram *prog, const IsaLayout *layout, guint nthreads,
                     const guint *cores, GError **error)
{
    /* Threads run on logical CPUs (config.h): with one hardware thread per core, the cores. */
    guint total = config_total_cpus(cfg);
    /* the config's name is the user's text: echoed as such (sim/base/echo.h) */
    g_autofree char *name = echo_clip(cfg->name ? cfg->name : "?");
    g_autofree char *units = cfg->topology.threads_per_core > 1 ? g_strdup_printf("%u logical CPUs", total)
                                                                : g_strdup_printf("%u cores", total);
    /* Threads beyond the cores share them through the OS model's run queues. */
    if (nthreads == 0 || (!cores && nthreads > total)) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID, "%u threads do not fit machine %s (%s)",
                    nthreads, name, units);
        return NULL;
    }
    for (guint i = 0; cores && i < nthreads; i++)
        if (cores[i] >= total) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID,
                        "thread %u placed on %s %u: machine %s has %s", i,
                        cfg->topology.threads_per_core > 1 ? "CPU" : "core", cores[i], name, units);
            return NULL;
        }
    int entry = isa_program_find_entry(prog, "main");
    if (entry < 0) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID,
                    "%s: no entry point `main`", prog->filename ? prog->filename : "program");
        return NULL;
    }
    Machine *m = g_new0(Machine, 1);
    m->cfg = cfg;
    m->e = e;
    m->ops = ops;
    m->ms = ms;
    m->cores = g_new0(Core *, nthreads);
    m->delay = g_new0(Cycle, nthreads);
    m->by_id = g_new0(Core *, total);
    m->report = g_string_new("");
    m->prog = prog;
    m->layout = layout;
    m->longest_work = longest_work(prog);
    m->fault_core = -1;
    isa_layout_init_memory(layout, prog, poke_cb, m);
    /* A core per thread; with more threads than cores, a core for each core used, made with the
     * first thread placed on it. */
    for (guint i = 0; i < nthreads; i++) {
        guint id = cores ? cores[i] : i;
        if (m->by_id[id])
            continue;
        m->cores[m->n] = m->by_id[id] = core_new(e, cfg, id, prog, layout, i, nthreads, entry, ops->issue, ms);
        core_set_sev_hook(m->cores[m->n], sev_all, m);
        core_set_mark_hook(m->cores[m->n], on_mark, m);
        core_set_fault_hook(m->cores[m->n], on_fault, m);
        core_set_fast_forward(m->cores[m->n], ops->ff);
        m->n++;
    }
    pair_siblings(m);
    if (os_model_needed(prog, nthreads, m->n)) {
        m->os = os_model_new(cfg, e, prog, layout, ops->issue, ms, nthreads);
        m->shims = g_new0(PortShim, m->n);
        for (guint k = 0; k < m->n; k++) {
            m->shims[k] = (PortShim){ m->os, m->cores[k], core_id(m->cores[k]) };
            os_model_add_core(m->os, m->cores[k]);
            ops->attach(ms, core_id(m->cores[k]), &shim_client, &m->shims[k]);
        }
        for (guint i = 0; i < nthreads; i++) {
            CoreContext ctx;
            core_context_init(&ctx, i, nthreads, entry);
            os_model_add_thread(m->os, i, cores ? cores[i] : i, &ctx);
        }
    } else {
        for (guint k = 0; k < m->n; k++)
            ops->attach(ms, core_id(m->cores[k]), core_port_client(), m->cores[k]);
    }
    return m;
}

void machine_free(Machine *m)
{
    if (!m)
        return;
    for (guint i = 0; i < m->n; i++)
        core_free(m->cores[i]);
    os_model_free(m->os);
    g_free(m->shims);
    g_free(m->by_id);
    g_free(m->cores);
    g_free(m->delay);
    g_string_free(m->report, TRUE);
    g_free(m);
}

void machine_set_start_delay(Machine *m, guint core, Cycle delay)
{
    g_return_if_fail(core < m->n);
    m->delay[core] = delay;
}

void machine_set_fast_forward(Machine *m, gboolean on)
{
    for (guint i = 0; i < m->n; i++)
        core_set_fast_forward(m->cores[i], on ? m->ops->ff : NULL);
}

void machine_set_trace_hook(Machine *m, CoreTraceFn fn, void *ctx)
{
    for (guint i = 0; i < m->n; i++)
        core_set_trace_hook(m->cores[i], fn, ctx);
}

void machine_set_work_jitter(Machine *m, guint jitter)
{
    m->work_jitter = jitter;
    for (guint i = 0; i < m->n; i++)
        core_set_work_jitter(m->cores[i], jitter);
}

void machine_randomize_start(Machine *m, Cycle max_skew)
{
    GRand *r = engine_rand_new(m->e, "machine.skew", 0);
    for (guint i = 0; i < m->n; i++)
        m->delay[i] = (Cycle)g_rand_int_range(r, 0, (gint32)MIN(max_skew, (Cycle)G_MAXINT32 - 1) + 1);
    g_rand_free(r);
}

void machine_set_mark_hook(Machine *m, CoreMarkFn fn, void *ctx)
{
    m->mark_fn = fn;
    m->mark_ctx = ctx;
}

void machine_set_progress_window(Machine *m, Cycle cycles)
{
    m->progress_window = cycles;
}

static gboolean all_halted(const Machine *m)
{
    if (m->os)
        return os_model_all_done(m->os);
    for (guint i = 0; i < m->n; i++)
        if (!core_halted(m->cores[i]))
            return FALSE;
    return TRUE;
}

static void stall_report(Machine *m, const char *why)
{
    g_string_truncate(m->report, 0);
    g_string_append_printf(m->report, "stalled at cycle %" G_GUINT64_FORMAT ": %s\n",
                           engine_now(m->e), why);
    for (guint i = 0; i < m->n; i++) {
        core_describe_wait(m->cores[i], m->report);
        g_string_append_c(m->report, '\n');
    }
    if (m->os)
        os_model_describe(m->os, m->report);
}

/* Every core does everything up to the end of cycle `until`, as the engine did: those asleep
 * in steady loops (cores/core_ff.c) catch up, and the clock stands at `until` then, as it
 * would with their events pending. */
static void catch_up_all(Machine *m, Cycle until)
{
    for (guint i = 0; i < m->n; i++)
        if (core_asleep(m->cores[i])) {
            engine_advance(m->e, until);
            break;
        }
    for (guint i = 0; i < m->n; i++)
        core_catch_up(m->cores[i], until + 1);
}

void machine_catch_up(Machine *m)
{
    for (guint i = 0; i < m->n; i++)
        core_catch_up(m->cores[i], engine_now(m->e));
}

static void fault_report(Machine *m)
{
    const Core *c = m->cores[m->fault_core];
    const CoreFault *f = &m->fault;
    g_autofree char *what = isa_fault_report(m->prog, m->layout, m->fault_thread, f->pc, f->kind, f->addr,
                                             f->size);
    g_string_truncate(m->report, 0);
    g_string_append_printf(m->report, "%s (core %u, cycle %" G_GUINT64_FORMAT ")\n", what, core_id(c),
                           m->fault_cycle);
}

Cycle machine_memory_quiet(const Machine *m)
{
    return m->ops->longest_access ? (Cycle)(m->n + 1) * m->ops->longest_access(m->ms) : 0;
}

Cycle machine_stall_window(const Machine *m)
{
    Cycle os = m->os ? os_model_quiet(m->os).retire : 0;
    return MAX((Cycle)m->cfg->run.stall_cycles, machine_memory_quiet(m)) + m->longest_work + m->work_jitter + os;
}

Cycle machine_last_retire(const Machine *m) { return m->last_retire; }
gboolean machine_stalled_idle(const Machine *m) { return m->stalled_idle; }

/* The watchdogs run the engine in windows of run.stall_cycles (the progress window when that
 * is shorter): cheap, and a window with no retirement anywhere is exactly a stall.  The window
 * is longer by the program's longest `work` (with jitter), which retires nothing for as long,
 * and by what the OS model's costs may keep every core from retiring (machine_stall_window).
 * Cores asleep in steady loops catch up at each window's end, so that what the watchdogs read
 * is what it would have been without fast-forward (a sleeper retires no mark: the progress
 * watchdog fires at the same cycle). */
MachineOutcome machine_run(Machine *m, Cycle max_cycles)
{
    Cycle start = engine_now(m->e);
    for (guint i = 0; i < m->n; i++)
        core_start(m->cores[i], m->delay[i]);
    if (m->os)
        os_model_start(m->os);
    Cycle window = machine_stall_window(m), last_progress = start;
    Cycle step = m->progress_window ? MIN(window, m->progress_window) : window;
    Cycle limit = max_cycles == CYCLE_NEVER ? CYCLE_NEVER : start + max_cycles;
    m->last_mark = start;
    MachineOutcome out;
    for (;;) {
        if (m->fault_core >= 0) {
            fault_report(m);
            out = MACHINE_FAULT;
            break;
        }
        if (all_halted(m)) {
            out = MACHINE_DONE;
            break;
        }
        if (engine_idle(m->e)) {
            m->stalled_idle = TRUE;
            stall_report(m, "no core has anything left to do");
            out = MACHINE_STALLED;
            break;
        }
        Cycle until = MIN(engine_now(m->e) + step, limit);
        if (m->progress_window)
            until = MIN(until, MAX(m->last_mark + m->progress_window, engine_now(m->e) + 1));
        engine_run_until(m->e, until);
        catch_up_all(m, until);
        for (guint i = 0; i < m->n; i++)
            last_progress = MAX(last_progress, core_last_retire(m->cores[i]));
        if (m->fault_core >= 0)
            continue; /* reported at the top */
        if (all_halted(m)) {
            out = MACHINE_DONE;
            break;
        }
        if (engine_now(m->e) >= limit) {
            out = MACHINE_LIMIT;
            break;
        }
        if (engine_now(m->e) >= last_progress + window) {
            stall_report(m, "no instruction retired for the stall window");
            out = MACHINE_STALLED;
            break;
        }
        if (engine_next_cycle(m->e) > last_progress + window) {
            /* Nothing is due before the window would close: it ends now, as it would then. */
            m->stalled_idle = TRUE;
            stall_report(m, engine_next_cycle(m->e) == CYCLE_NEVER
                                ? "no core has anything left to do"
                                : "nothing is due to happen before the stall window closes");
            out = MACHINE_STALLED;
            break;
        }
        if (m->progress_window && engine_now(m->e) >= m->last_mark + m->progress_window) {
            stall_report(m, "no core retired an acquisition or a release for the progress window");
            out = MACHINE_NO_PROGRESS;
            break;
        }
    }
    m->last_retire = last_progress;
    m->end = engine_now(m->e);
    return out;
}

const char *machine_stall_report(const Machine *m) { return m->report->str; }
guint machine_ncores(const Machine *m) { return m->n; }

guint64 machine_cycles_fast_forwarded(const Machine *m)
{
    guint64 n = 0;
    for (guint i = 0; i < m->n; i++)
        n += core_cycles_fast_forwarded(m->cores[i]);
    return n;
}

const OsModel *machine_os(const Machine *m) { return m->os; }

guint machine_thread_on_core(const Machine *m, guint core_id)
{
    g_assert(core_id < config_total_cpus(m->cfg) && m->by_id[core_id]);
    return core_tid(m->by_id[core_id]);
}
Core *machine_core(const Machine *m, guint i) { return i < m->n ? m->cores[i] : NULL; }
const CoreStats *machine_core_stats(const Machine *m, guint i) { return core_stats(m->cores[i]); }
Cycle machine_cycles(const Machine *m) { return m->end; }

void machine_total_stats(const Machine *m, CoreStats *out)
{
    memset(out, 0, sizeof *out);
    for (guint i = 0; i < m->n; i++)
        core_stats_add(out, core_stats(m->cores[i]));
}

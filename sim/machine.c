/* The machine: cores + memory system + program, run on the engine with a stall watchdog. */
#include "sim/machine.h"
#include <string.h>
#include "cores/isa_exec.h"

struct Machine {
    const QsimConfig *cfg;
    Engine *e;
    const MemSystemOps *ops;
    void *ms;
    guint n;
    Core **cores;
    Cycle *delay;
    GString *report;
    Cycle end;
};

static void sev_all(void *ctx, guint from G_GNUC_UNUSED)
{
    Machine *m = ctx;
    for (guint i = 0; i < m->n; i++)
        core_signal_event(m->cores[i]);
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
    if (nthreads == 0 || nthreads > config_total_cores(cfg)) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID,
                    "%u threads do not fit machine %s (%u cores)", nthreads,
                    cfg->name ? cfg->name : "?", config_total_cores(cfg));
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
    m->n = nthreads;
    m->cores = g_new0(Core *, nthreads);
    m->delay = g_new0(Cycle, nthreads);
    m->report = g_string_new("");
    isa_layout_init_memory(layout, prog, poke_cb, m);
    for (guint i = 0; i < nthreads; i++) {
        guint id = cores ? cores[i] : i;
        m->cores[i] = core_new(e, cfg, id, prog, layout, i, nthreads, entry, ops->issue, ms);
        core_set_sev_hook(m->cores[i], sev_all, m);
        core_set_fast_forward(m->cores[i], ops->ff);
        ops->attach(ms, id, core_port_client(), m->cores[i]);
    }
    return m;
}

void machine_free(Machine *m)
{
    if (!m)
        return;
    for (guint i = 0; i < m->n; i++)
        core_free(m->cores[i]);
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
    for (guint i = 0; i < m->n; i++)
        core_set_mark_hook(m->cores[i], fn, ctx);
}

static gboolean all_halted(const Machine *m)
{
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

/* The watchdog runs the engine in windows of run.stall_cycles: cheap, and a window with no
 * retirement anywhere is exactly a stall.  Cores asleep in steady loops catch up at each
 * window's end, so that what it reads is what it would have been without fast-forward. */
MachineOutcome machine_run(Machine *m, Cycle max_cycles)
{
    Cycle start = engine_now(m->e);
    for (guint i = 0; i < m->n; i++)
        core_start(m->cores[i], m->delay[i]);
    Cycle window = (Cycle)m->cfg->run.stall_cycles, last_progress = start;
    Cycle limit = max_cycles == CYCLE_NEVER ? CYCLE_NEVER : start + max_cycles;
    MachineOutcome out;
    for (;;) {
        if (all_halted(m)) {
            out = MACHINE_DONE;
            break;
        }
        if (engine_idle(m->e)) {
            stall_report(m, "no core has anything left to do");
            out = MACHINE_STALLED;
            break;
        }
        Cycle until = MIN(engine_now(m->e) + window, limit);
        engine_run_until(m->e, until);
        catch_up_all(m, until);
        for (guint i = 0; i < m->n; i++)
            last_progress = MAX(last_progress, core_last_retire(m->cores[i]));
        if (all_halted(m)) {
            out = MACHINE_DONE;
            break;
        }
        if (engine_now(m->e) >= limit) {
            out = MACHINE_LIMIT;
            break;
        }
        if (engine_now(m->e) >= last_progress + window ||
            engine_next_cycle(m->e) > last_progress + window) {
            stall_report(m, "no instruction retired for run.stall_cycles");
            out = MACHINE_STALLED;
            break;
        }
    }
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
Core *machine_core(const Machine *m, guint i) { return i < m->n ? m->cores[i] : NULL; }
const CoreStats *machine_core_stats(const Machine *m, guint i) { return core_stats(m->cores[i]); }
Cycle machine_cycles(const Machine *m) { return m->end; }

void machine_total_stats(const Machine *m, CoreStats *out)
{
    memset(out, 0, sizeof *out);
    for (guint i = 0; i < m->n; i++)
        core_stats_add(out, core_stats(m->cores[i]));
}

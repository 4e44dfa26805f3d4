/* The lock benchmark run, in its steps: check the options; wire the run (config, program,
 * memory system, machine, hooks); run it; judge it (mutual exclusion, stall); report it (the
 * builder in sim/report/run_report.c); free it.  Every number in the report comes from a counter or
 * a timestamp of the modelled run. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "sim/base/input_file.h"
#include "sim/run/run.h"
#include "sim/report/run_report.h"
#include "sim/report/run_profile.h"
#include "sim/machine/mark_log.h"
#include "sim/base/engine.h"
#include "sim/machine/machine.h"
#include "sim/os/os_model.h"
#include "sim/workload/placement.h"
#include "sim/workload/lock_find.h"
#include "sim/workload/scenario.h"
#include "sim/report/provenance.h"
#include "sim/run/run_vars.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "coherence/memsys.h"
#include "sim/trace/trace_events.h"
#include "sim/trace/trace_text.h"
#include "sim/trace/trace_perfetto.h"
#include "sim/trace/trace_html.h"

/* Programs are placed from here; any nonzero, line-aligned base works. */
#define RUN_MEMORY_BASE 0x10000
/* Without --jitter, threads still start a few cycles apart (seeded), so that seeds differ. */
#define RUN_DEFAULT_SKEW 32

void run_options_init(RunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->config = "haswell";
    workload_init(&o->workload, WL_RUN);
    o->seed = 1;
    o->host_time = TRUE;
    o->fast_forward = TRUE;
}

guint64 run_progress_default(const WorkloadOptions *w, guint64 stall_cycles, guint64 longest_access)
{
    /* Each term is bounded by the workload table's maxima and the config schema's (an access
     * under 10^8 cycles): no sum here can wrap. */
    guint64 compute = (guint64)w->cs_work + w->think + 3 * (guint64)w->jitter;
    guint64 quiet = MAX(stall_cycles, ((guint64)w->threads + 1) * longest_access);
    guint64 handoff = MAX(10000, 6 * longest_access);
    return MIN(quiet + 4 * compute + handoff * (guint64)w->threads, RUN_PROGRESS_MAX);
}

void run_result_clear(RunResult *r)
{
    if (r->report)
        json_node_unref(r->report);
    g_free(r->failure);
    g_free(r->config_yaml);
    g_free(r->lock_source);
    run_headline_clear(&r->headline);
    memset(r, 0, sizeof *r);
}

/* ---- wiring ---- */

/* Everything one run owns, from wiring to freeing. */
typedef struct {
    QsimConfig *cfg;
    guint *cores;                 /* per thread: its (first) core */
    char *lock_name;
    char *lock_text;              /* the lock's source and the harness's, for the profile's lines */
    char *lock_path, *config_path; /* the files they came from (provenance), or NULL */
    char *harness_text;
    IsaProgram *prog;
    IsaLayout *layout;
    Engine *engine;
    MemSys *ms;
    Machine *m;
    MarkLog log;                  /* the measured window (after --warmup) */
    MarkLog warmup_log;           /* acquisitions and releases during the warm-up */
    Cycle window_start;           /* the first cycle measured: --warmup, else 0 */
    gboolean snapped;             /* the counters at window_start are below */
    CoreStats warm_cores;
    MemStats warm_memory;
    LineStats warm_lock_line;
    RunVars *vars;                /* per-variable counters (sim/run/run_vars.h) */
    OsStats warm_os;
    ProfileRow *warm_profile;     /* --profile: the cores' rows summed at window_start */
    TraceNames *names;            /* when tracing */
    TraceStream *trace;           /* when tracing: the event stream and its writers */
    TraceHtmlCut page_cut;        /* --trace-html: filled when the stream finishes */
    double host_seconds, host_cpu_seconds, fast_forward_share;
    MachineOutcome outcome;
    guint64 progress;             /* the progress watchdog's window */
    int64_t *last_mark;           /* per thread: its last harness mark (0: none yet) ... */
    Cycle *last_mark_at;          /* ... and when */
    /* In the measured window: who acquired last, how many times in a row, and the most times
     * one thread acquired in a row (a run locked into one interleaving shows as a long one). */
    guint streak_thread;
    guint64 streak, longest_streak;
} RunWiring;

/* The machine's mark hook speaks of cores; the log of threads.  An acquisition counts in the
 * window it completes in; a lock call that began in the warm-up and completed after it counts,
 * with its whole latency, in the window. */
static void on_mark(void *ctx, guint core, int64_t n, Cycle when)
{
    RunWiring *w = ctx;
    guint t = machine_thread_on_core(w->m, core);
    w->last_mark[t] = n;
    w->last_mark_at[t] = when;
    if (n == 1)
        w->warmup_log.threads[t]->call_began = when;
    if (when < w->window_start) {
        mark_log_mark(&w->warmup_log, t, n, when);
    } else {
        if (n == 2) {
            w->log.threads[t]->call_began = w->warmup_log.threads[t]->call_began;
            w->streak = w->streak && w->streak_thread == t ? w->streak + 1 : 1;
            w->streak_thread = t;
            w->longest_streak = MAX(w->longest_streak, w->streak);
        }
        mark_log_mark(&w->log, t, n, when);
    }
    if (w->trace)
        trace_stream_mark(w->trace, core, n, when);
}

/* The lock word's line counters, or FALSE when the lock has no lock_word. */
static gboolean lock_line_stats(const RunWiring *w, LineStats *out)
{
    int lock_sym = isa_program_find_sym(w->prog, HARNESS_LOCK_WORD);
    memset(out, 0, sizeof *out);
    if (lock_sym < 0)
        return FALSE;
    *out = memsys_line_stats(w->ms, isa_sym_addr(w->layout, (guint)lock_sym, 0));
    return TRUE;
}

/* --profile: every core's rows (cores/core_profile.h) summed, one per op; NULL when off. */
static ProfileRow *profile_rows_now(const RunWiring *w)
{
    guint n = w->prog->insns->len;
    ProfileRow *sum = NULL;
    for (guint i = 0; i < machine_ncores(w->m); i++) {
        guint rows;
        const ProfileRow *r = core_profile_rows(machine_core(w->m, i), &rows);
        if (!r)
            continue;
        g_assert(rows == n);
        if (!sum)
            sum = g_new0(ProfileRow, MAX(n, 1));
        profile_rows_add(sum, r, n);
    }
    return sum;
}

/* The engine reaches the end of the warm-up: every counter as it stands, to subtract at the end. */
static void snapshot_event(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    RunWiring *w = obj;
    machine_catch_up(w->m); /* cores asleep in steady loops: their counters up to here */
    machine_total_stats(w->m, &w->warm_cores);
    const MemStats *ms = memsys_stats(w->ms);
    mem_stats_init(&w->warm_memory, ms->n_inval_received, ms->n_cache_rows_fired, ms->n_dir_rows_fired);
    counters_add(&mem_stats_registry, &w->warm_memory, ms);
    lock_line_stats(w, &w->warm_lock_line);
    run_vars_snapshot(w->vars, w->ms, w->m);
    if (machine_os(w->m))
        os_model_stats(machine_os(w->m), &w->warm_os);
    w->warm_profile = profile_rows_now(w);
    w->snapped = TRUE;
}

static void wiring_free(RunWiring *w)
{
    if (w->snapped)
        mem_stats_clear(&w->warm_memory);
    trace_stream_free(w->trace);
    trace_names_free(w->names);
    run_vars_free(w->vars);
    machine_free(w->m);
    memsys_free(w->ms);
    if (w->engine)
        engine_free(w->engine);
    if (w->layout)
        isa_layout_free(w->layout);
    if (w->prog)
        isa_program_free(w->prog);
    if (w->log.nthreads)
        mark_log_clear(&w->log);
    if (w->warmup_log.nthreads)
        mark_log_clear(&w->warmup_log);
    g_free(w->lock_name);
    g_free(w->lock_text);
    g_free(w->lock_path);
    g_free(w->config_path);
    g_free(w->harness_text);
    g_free(w->warm_profile);
    g_free(w->last_mark);
    g_free(w->last_mark_at);
    g_free(w->cores);
    if (w->cfg)
        config_free(w->cfg);
    memset(w, 0, sizeof *w);
}

static gboolean validate_options(const RunOptions *o, GError **error)
{
    if ((o->lock != NULL) + (o->lock_file != NULL) + (o->scenario != NULL) != 1) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "give one of --lock NAME, --lock-file PATH (`qsim list locks`) or --scenario NAME (`qsim list "
                    "scenarios`)");
        return FALSE;
    }
    if (o->progress_cycles && (o->progress_cycles < RUN_PROGRESS_MIN || o->progress_cycles > RUN_PROGRESS_MAX)) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--progress-cycles %" G_GUINT64_FORMAT ": out of range [%d, %" G_GUINT64_FORMAT "]",
                    o->progress_cycles, RUN_PROGRESS_MIN, RUN_PROGRESS_MAX);
        return FALSE;
    }
    return workload_validate(&o->workload, WL_RUN, error);
}

/* The lock's name (as reports show it), source text (a C lock's translated for `arch`) and the
 * file it came from (NULL for a replay's text). */
static gboolean load_lock(const RunOptions *o, ArchTarget target, char **name, char **text, char **from, GError **error)
{
    g_autofree char *path = NULL;
    const char *given = o->lock_file ? o->lock_file : o->lock ? o->lock : o->scenario;
    if (o->lock_text) {
        *name = g_strdup(given);
        *text = g_strdup(o->lock_text);
        return TRUE;
    }
    if (o->lock_file) {
        path = g_strdup(o->lock_file);
        *name = g_strdup(o->lock_file);
    } else {
        path = o->scenario ? scenario_find(o->scenario, error) : lock_find(o->lock, error);
        if (!path)
            return FALSE;
        *name = g_strdup(given);
    }
    if (!(o->scenario ? input_file_read(path, INPUT_LOCK, text, NULL, error) : lock_read(path, target, text, error))) {
        g_clear_pointer(name, g_free);
        return FALSE;
    }
    *from = g_steal_pointer(&path);
    return TRUE;
}

/* The config, thread placement and program (lock + harness, assembled for the config's arch and
 * atomics). */
static gboolean wire_program(const RunOptions *o, RunWiring *w, GError **error)
{
    const WorkloadOptions *wl = &o->workload;
    if (o->config_text) {
        w->cfg = config_load_string(o->config_text, o->config, o->sets, error);
    } else {
        w->config_path = config_resolve_path(o->config, NULL);
        w->cfg = config_load(o->config, o->sets, error);
    }
    if (!w->cfg)
        return FALSE;
    w->cores = g_new0(guint, wl->threads);
    if (!placement_assign(w->cfg, &wl->placement, wl->threads, w->cores, error))
        return FALSE;
    if (!load_lock(o, asm_target_for_config(w->cfg), &w->lock_name, &w->lock_text, &w->lock_path, error))
        return FALSE;
    HarnessOptions h;
    workload_harness(wl, &h);
    h.mode = o->scenario ? HARNESS_SCENARIO : HARNESS_LOCK;
    w->harness_text = harness_source(&h);
    /* The config's arch and core.atomics select the lock's conditional code (`.if`). */
    w->prog = harness_assemble(w->lock_name, w->lock_text, &h, asm_target_for_config(w->cfg), o->lock_params, error);
    return w->prog != NULL;
}

static gboolean tracing(const RunTraceOptions *t) { return t->text || t->perfetto || t->html; }

/* The core ids a trace names: the cores, and (SMT) the logical CPUs past them that threads use. */
static guint trace_cpus(const QsimConfig *cfg, const guint *cpus, guint threads)
{
    guint n = config_total_cores(cfg);
    for (guint t = 0; t < threads; t++)
        n = MAX(n, cpus[t] + 1);
    return n;
}

TraceStream *run_trace_open(const RunTraceOptions *to, const TraceContext *ctx, guint64 limit, TraceHtmlCut *page_cut,
                            GError **error)
{
    g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (guint i = 0; to->lines && to->lines[i]; i++) {
        uint64_t line;
        if (!trace_names_find(ctx->names, to->lines[i], &line)) {
            GString *known = g_string_new(NULL);
            const GArray *all = trace_names_lines(ctx->names);
            for (guint k = 0; k < all->len; k++)
                g_string_append_printf(known, "%s%s", k ? ", " : "",
                                       trace_names_line_vars(ctx->names, g_array_index(all, uint64_t, k)));
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--trace-line %s: no such variable in the program (variables: %s; or give an address, 0x...)",
                        to->lines[i], known->str);
            g_string_free(known, TRUE);
            return NULL;
        }
        g_array_append_val(lines, line);
    }
    TraceFilter filter = { to->show ? to->show : TRACE_SHOW_DEFAULT, lines };
    TraceStream *t = trace_stream_new(ctx, &filter);
    if (to->text)
        trace_stream_add_sink(t, trace_text_new(to->text, filter.show, !to->show, limit));
    if (to->perfetto) {
        TraceSink *sink = trace_perfetto_new(to->perfetto, limit, error);
        if (!sink) {
            trace_stream_free(t);
            return NULL;
        }
        trace_stream_add_sink(t, sink);
    }
    if (to->html)
        trace_stream_add_sink(t, trace_html_new(to->html, limit, page_cut));
    return t;
}

/* Where a time-shared thread is, for the step-through page (TraceContext.thread_where). */
static TraceThreadWhere trace_thread_where(void *arg, guint t, guint *cpu)
{
    switch (os_model_thread_where(arg, t, cpu)) {
    case OS_THREAD_RUNNING: return TRACE_THREAD_RUNNING;
    case OS_THREAD_READY: return TRACE_THREAD_READY;
    case OS_THREAD_ASLEEP: return TRACE_THREAD_ASLEEP;
    case OS_THREAD_LOADING: return TRACE_THREAD_LOADING;
    case OS_THREAD_DONE: break;
    }
    return TRACE_THREAD_DONE;
}

/* The trace stream with the writers asked for, fed by the memory system's, the cores' and the
 * marks' hooks (sim/trace/trace_events.h). */
static gboolean wire_trace(const RunOptions *o, RunWiring *w, GError **error)
{
    w->names = trace_names_new(w->prog, w->layout);
    int lock_sym = isa_program_find_sym(w->prog, HARNESS_LOCK_WORD);
    TraceContext ctx = {
        .config = w->cfg->name,
        .lock = w->lock_name,
        .proto = memsys_protocol(w->ms),
        .prog = w->prog,
        .names = w->names,
        .nthreads = o->workload.threads,
        .cores = w->cores,
        .ncores = trace_cpus(w->cfg, w->cores, o->workload.threads),
        .lock_line = lock_sym >= 0 ? trace_names_line_of(w->names, isa_sym_addr(w->layout, (guint)lock_sym, 0)) : 0,
        .machine_cores = config_total_cores(w->cfg),
        .threads_per_core = (guint)w->cfg->topology.threads_per_core,
        .harness = o->scenario ? TRACE_HARNESS_SCENARIO : TRACE_HARNESS_LOCK,
        .thread_where = machine_os(w->m) ? trace_thread_where : NULL,
        .thread_where_arg = (void *)machine_os(w->m),
    };
    w->trace = run_trace_open(&o->trace, &ctx, (guint64)w->cfg->run.trace_limit, &w->page_cut, error);
    if (!w->trace)
        return FALSE;
    memsys_set_trace(w->ms, trace_stream_mem, w->trace);
    trace_stream_follow_rows(w->trace, w->ms);
    machine_set_trace_hook(w->m, trace_stream_core, w->trace);
    return TRUE;
}

/* The engine, memory system and machine, with the mark, trace and jitter hooks. */
static gboolean wire_machine(const RunOptions *o, RunWiring *w, GError **error)
{
    const WorkloadOptions *wl = &o->workload;
    w->layout = isa_layout_new(w->prog, wl->threads, (uint32_t)w->cfg->line_size, RUN_MEMORY_BASE);
    w->vars = run_vars_new(w->prog, w->layout, harness_is_support_var);
    w->engine = engine_new(o->seed);
    w->ms = memsys_new(w->cfg, w->engine, error);
    if (!w->ms)
        return FALSE;
    memsys_set_check(w->ms, o->check);
    w->m = machine_new(w->cfg, w->engine, &machine_memsys_ops, w->ms, w->prog, w->layout, wl->threads, w->cores,
                       error);
    if (!w->m)
        return FALSE;
    mark_log_init(&w->log, wl->threads, MARK_LOG_EVERY_SAMPLE);
    mark_log_init(&w->warmup_log, wl->threads, 0);
    w->window_start = wl->duration ? wl->warmup : 0;
    if (w->window_start)
        engine_schedule_at(w->engine, w->window_start, snapshot_event, w, 0);
    machine_set_mark_hook(w->m, on_mark, w);
    w->last_mark = g_new0(int64_t, wl->threads);
    w->last_mark_at = g_new0(Cycle, wl->threads);
    /* The OS model's costs (a lock holder preempted, a thread woken from idle) hold acquisitions
     * back as long as they take, whatever the workload: the default waits for them too. */
    guint64 os_quiet = machine_os(w->m) ? os_model_quiet(machine_os(w->m)).progress : 0;
    w->progress = o->progress_cycles ? o->progress_cycles
                                     : MIN(run_progress_default(wl, (guint64)w->cfg->run.stall_cycles,
                                                                memsys_longest_access(w->ms)) + os_quiet,
                                           RUN_PROGRESS_MAX);
    machine_set_progress_window(w->m, w->progress);
    if (tracing(&o->trace) && !wire_trace(o, w, error))
        return FALSE;
    /* A trace records every event as it happens: the cores simulate every cycle meanwhile. */
    machine_set_fast_forward(w->m, o->fast_forward && !tracing(&o->trace));
    if (o->profile)
        for (guint i = 0; i < machine_ncores(w->m); i++)
            core_enable_profile(machine_core(w->m, i));
    machine_randomize_start(w->m, wl->jitter ? wl->jitter : RUN_DEFAULT_SKEW);
    if (wl->jitter)
        machine_set_work_jitter(w->m, wl->jitter);
    return TRUE;
}

/* ---- running ---- */

/* Process CPU time, user and system: what `make bench` compares (a busy host does not inflate it). */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void run_machine(const RunOptions *o, RunWiring *w)
{
    gint64 host_start = g_get_monotonic_time();
    double cpu_start = cpu_seconds();
    const WorkloadOptions *wl = &o->workload;
    w->outcome = machine_run(w->m, wl->duration ? wl->warmup + wl->duration : CYCLE_NEVER);
    w->host_seconds = (g_get_monotonic_time() - host_start) / 1e6;
    w->host_cpu_seconds = cpu_seconds() - cpu_start;
    CoreStats st;
    machine_total_stats(w->m, &st);
    w->fast_forward_share = st.cycles ? (double)machine_cycles_fast_forwarded(w->m) / (double)st.cycles : 0;
}

/* What the report was made of (sim/report/provenance.h); a replay reports its first run's. */
static JsonObject *run_provenance(const RunOptions *o, const RunWiring *w)
{
    if (o->replayed_provenance)
        return json_object_ref(o->replayed_provenance);
    g_autofree char *yaml = config_to_yaml(w->cfg);
    ProvenanceInput in = {
        .command = o->command,
        .config_name = w->cfg->name,
        .config_path = w->config_path,
        .config_yaml = yaml,
        .sets = o->sets,
        .lock_name = w->lock_name,
        .lock_path = w->lock_path,
        .lock_text = w->lock_text,
    };
    return provenance_build(&in);
}

/* ---- verdicts ---- */

typedef struct {
    gboolean mutual_exclusion;
    gboolean stalled;            /* either watchdog */
    gboolean faulted;
    gboolean halted_in_lock;
} RunJudgement;

static uint64_t peek_sym(const RunWiring *w, const char *name)
{
    int sym = isa_program_find_sym(w->prog, name);
    g_assert(sym >= 0);
    return memsys_peek(w->ms, isa_sym_addr(w->layout, (guint)sym, 0), 8);
}

/* Where thread t is in the harness's loop, from its last mark, for people. */
static void describe_phase(const RunWiring *w, guint t, GString *out)
{
    static const char *const phase[] = {
        [0] = "has not called the lock yet",
        [1] = "in `lock` since cycle %" G_GUINT64_FORMAT,
        [2] = "holding the lock (critical section or `unlock`) since cycle %" G_GUINT64_FORMAT,
        [3] = "between its release and its next `lock` since cycle %" G_GUINT64_FORMAT,
    };
    int64_t m = w->last_mark[t];
    guint64 acq = w->log.threads[t]->acquisitions + w->warmup_log.threads[t]->acquisitions;
    g_string_append_printf(out, "  thread %u: ", t);
    g_string_append_printf(out, phase[m >= 0 && m <= 3 ? m : 0], w->last_mark_at[t]);
    g_string_append_printf(out, ", %" G_GUINT64_FORMAT " acquisition%s; ", acq, acq == 1 ? "" : "s");
    /* with the OS model a thread may be off every core (asleep, or waiting in a run queue) */
    Core *c = NULL;
    for (guint i = 0; i < machine_ncores(w->m) && !c; i++)
        if (core_tid(machine_core(w->m, i)) == t)
            c = machine_core(w->m, i);
    if (c)
        core_describe_wait(c, out);
    else
        g_string_append(out, "on no core (asleep or waiting for one: see the OS model below)");
    g_string_append_c(out, '\n');
}

/* Whether every thread released the lock as often as its fixed work asks (never in fixed time). */
static gboolean all_work_done(const RunOptions *o, const RunWiring *w)
{
    const WorkloadOptions *wl = &o->workload;
    if (wl->duration)
        return FALSE;
    for (guint t = 0; t < wl->threads; t++)
        if (w->log.threads[t]->releases + w->warmup_log.threads[t]->releases < wl->iterations)
            return FALSE;
    return TRUE;
}

/* The stall watchdog's verdict in words: since when nothing retired, whether the window ran out
 * or nothing was left to happen in it (the run then ends early, as it would have at the window's
 * end), what the window is made of, and, when every thread had finished its work, that the
 * model failed to end the run, not the lock. */
static void describe_stall(const RunOptions *o, const RunWiring *w, GString *why)
{
    Cycle window = machine_stall_window(w->m), since = machine_last_retire(w->m);
    GString *parts = g_string_new("run.stall_cycles");
    if ((Cycle)w->cfg->run.stall_cycles < machine_memory_quiet(w->m))
        g_string_assign(parts, "the memory system's longest accesses, one per core, queued");
    if (window != MAX((Cycle)w->cfg->run.stall_cycles, machine_memory_quiet(w->m)))
        g_string_append(parts, machine_os(w->m) ? ", the program's longest `work` and the OS model's os.* costs"
                                                : " and the program's longest `work`");
    if (machine_stalled_idle(w->m))
        g_string_append_printf(why, "the run stalled: no core retired anything after cycle %" G_GUINT64_FORMAT
                                    ", and nothing was left to happen before the stall window (%" G_GUINT64_FORMAT
                                    " cycles: %s) closed\n",
                               since, window, parts->str);
    else
        g_string_append_printf(why, "the run stalled: no core retired anything for %" G_GUINT64_FORMAT
                                    " cycles, from cycle %" G_GUINT64_FORMAT " (the stall window: %s)\n",
                               window, since, parts->str);
    if (all_work_done(o, w))
        g_string_append_printf(why, "every thread had finished its %u iteration%s: a thread that never halted "
                                    "after its work is the model's failure, not the lock's (please report it)\n",
                               o->workload.iterations, o->workload.iterations == 1 ? "" : "s");
    g_string_append(why, machine_stall_report(w->m));
    g_string_free(parts, TRUE);
}

/* The threads that halted at a `halt` of the lock's own code, said as such; how many of them
 * had already added to the counter (halted between the increment and mark 3). */
static guint64 halts_in_lock(const RunWiring *w, GString *why)
{
    guint64 halted = 0;
    /* each core's last halt, and the thread that ran it (with the OS model a core runs several) */
    for (guint i = 0; i < machine_ncores(w->m); i++) {
        const Core *c = machine_core(w->m, i);
        int32_t pc = core_halt_pc(c);
        if (pc < 0 || !harness_pc_in_lock(w->prog, pc))
            continue;
        guint t = core_tid(c);
        const IsaInsn *in = &g_array_index(w->prog->insns, IsaInsn, pc);
        g_autofree char *pos = asm_format_pos(w->prog, in);
        guint64 acq = w->log.threads[t]->acquisitions + w->warmup_log.threads[t]->acquisitions;
        g_string_append_printf(why, "thread %u halted inside the lock at %s (`halt`) after %" G_GUINT64_FORMAT
                                    " acquisition%s: its loop was left unfinished\n", t, pos, acq, acq == 1 ? "" : "s");
        halted++;
    }
    return halted;
}

/* Mutual exclusion from the harness's counter and overlap flag; the stall, the lack of
 * progress and the fault from the machine; halts inside the lock from where the cores halted.
 * Sets r->ok, and r->failure when not ok. */
static RunJudgement judge_run(const RunOptions *o, const RunWiring *w, RunResult *r);

/* A scenario has no lock to judge: only whether it ran to its end.  Sets r as judge_run does. */
static RunJudgement judge_scenario(const RunWiring *w, RunResult *r)
{
    RunJudgement v = { .mutual_exclusion = TRUE,
                       .stalled = w->outcome == MACHINE_STALLED || w->outcome == MACHINE_NO_PROGRESS,
                       .faulted = w->outcome == MACHINE_FAULT };
    r->ok = !v.stalled && !v.faulted;
    if (!r->ok)
        r->failure = g_strdup_printf("the scenario %s: %s", v.faulted ? "faulted" : w->outcome == MACHINE_STALLED
                                                                          ? "stalled (no core retired anything)"
                                                                          : "made no progress (no iteration ended)",
                                     machine_stall_report(w->m));
    return v;
}

static RunJudgement judge_run(const RunOptions *o, const RunWiring *w, RunResult *r)
{
    const WorkloadOptions *wl = &o->workload;
    uint64_t counter = peek_sym(w, HARNESS_COUNTER);
    uint64_t violations = peek_sym(w, HARNESS_VIOLATIONS);
    guint64 writer_releases = 0;
    for (guint t = wl->readers; t < wl->threads; t++)
        writer_releases += w->log.threads[t]->releases + w->warmup_log.threads[t]->releases;
    GString *why = g_string_new(NULL);
    RunJudgement v = { .stalled = w->outcome == MACHINE_STALLED || w->outcome == MACHINE_NO_PROGRESS,
                       .faulted = w->outcome == MACHINE_FAULT };
    guint64 halted = halts_in_lock(w, why);
    v.halted_in_lock = halted > 0;
    /* Every completed writer critical section added one.  A released increment may still sit
     * in a store buffer, not yet in memory: one per writer at most.  Cut off by --duration, a
     * writer may have added its one but not yet marked the release: inside still, or past the
     * release of the lock word but not of the whole unlock (a futex_wake), so several may be
     * between; every increment still followed an acquisition.  A thread that halted inside the
     * lock may have added its increment and not released. */
    guint64 writers = wl->threads - wl->readers, writer_acquisitions = 0;
    for (guint t = wl->readers; t < wl->threads; t++)
        writer_acquisitions += w->log.threads[t]->acquisitions + w->warmup_log.threads[t]->acquisitions;
    gboolean counter_ok = wl->duration ? counter + writers >= writer_releases && counter <= writer_acquisitions
                          : halted     ? counter >= writer_releases && counter <= writer_releases + halted
                                       : counter == writers * wl->iterations;
    /* A run that did not finish its work (stalled, faulted) leaves the counter saying nothing;
     * the flag still does. */
    v.mutual_exclusion = (counter_ok || v.stalled || v.faulted) && violations == 0;
    r->ok = v.mutual_exclusion && !v.stalled && !v.faulted && !v.halted_in_lock;
    if (v.faulted)
        g_string_append_printf(why, "the run faulted: %s", machine_stall_report(w->m));
    if (w->outcome == MACHINE_STALLED)
        describe_stall(o, w, why);
    if (w->outcome == MACHINE_NO_PROGRESS) {
        g_string_append_printf(why, "the run made no progress: no thread acquired or released the lock for "
                                    "%" G_GUINT64_FORMAT " cycles (--progress-cycles%s), up to cycle %"
                                    G_GUINT64_FORMAT "\n", w->progress,
                               o->progress_cycles ? ""
                               : machine_os(w->m) ? "; its default follows the workload and the OS model's costs"
                                                  : "; its default follows the workload",
                               machine_cycles(w->m));
        for (guint t = 0; t < wl->threads; t++)
            describe_phase(w, t, why);
        if (machine_os(w->m))
            os_model_describe(machine_os(w->m), why);
    }
    if (!v.mutual_exclusion)
        g_string_append_printf(why, "mutual exclusion violated: counter %" G_GUINT64_FORMAT
                                    " after %" G_GUINT64_FORMAT " writer releases, %" G_GUINT64_FORMAT
                                    " overlapping critical sections\n",
                               counter, writer_releases, violations);
    if (r->ok)
        g_string_free(why, TRUE);
    else
        r->failure = g_string_free(why, FALSE);
    return v;
}

/* ---- the report ---- */

/* --profile: the measured window's rows by source line (sim/report/run_profile.h). */
static JsonNode *report_profile(const RunWiring *w)
{
    g_autofree ProfileRow *rows = profile_rows_now(w);
    if (!rows)
        return NULL;
    if (w->warm_profile)
        profile_rows_sub(rows, w->warm_profile, w->prog->insns->len);
    guint nfiles = w->prog->files ? w->prog->files->len : 0;
    g_autofree const char **texts = g_new0(const char *, MAX(nfiles, 1));
    for (guint i = 0; i < nfiles; i++)
        texts[i] = !g_strcmp0(w->prog->files->pdata[i], HARNESS_SOURCE) ? w->harness_text : w->lock_text;
    return run_profile_build(w->prog, texts, rows);
}

/* The model's counter groups, stats filled in per run (report_run); docs/report.md is made
 * from the same table. */
const CounterGroup run_counter_groups[RUN_GROUPS] = {
    [RUN_GROUP_CORE] = { "core", &core_stats_registry, NULL, "cores_summed", NULL },
    [RUN_GROUP_MEMORY] = { "memory", &mem_stats_registry, NULL, "memory_system", NULL },
    [RUN_GROUP_LOCK_LINE] = { "lock_line", &line_stats_registry, NULL, NULL, NULL },
    [RUN_GROUP_LOCK_LINES] = { "lock_lines", &var_stats_registry, NULL, NULL, NULL },
    [RUN_GROUP_OS] = { "os", &os_stats_registry, NULL, "os_counters", NULL },
};
const char *const run_counter_group_sums[RUN_GROUPS] = {
    [RUN_GROUP_CORE] = ", each summed over the cores",
    [RUN_GROUP_MEMORY] = "; a per-core or per-table-row counter as its total",
    [RUN_GROUP_OS] = "; only in runs where the OS model ran (a lock with futex calls)",
};

/* The cores on more than one of whose hardware threads the threads ran (placed on CPUs
 * `cpus`): one member each, {"core": c, "threads": "0+1"} (every thread on the core), in core
 * order. */
static JsonArray *smt_siblings(const QsimConfig *cfg, const guint *cpus, guint threads)
{
    JsonArray *a = json_array_new();
    guint cores = config_total_cores(cfg);
    for (guint c = 0; c < cores; c++) {
        GString *ts = g_string_new(NULL);
        guint n = 0, hw = 0;
        for (guint t = 0; t < threads; t++)
            if (config_cpu_core(cfg, cpus[t]) == c) {
                hw |= 1u << config_cpu_thread(cfg, cpus[t]);
                g_string_append_printf(ts, "%s%u", n++ ? "+" : "", t);
            }
        if (hw & (hw - 1)) {
            JsonObject *o = json_object_new();
            json_object_set_int_member(o, "core", c);
            json_object_set_string_member(o, "threads", ts->str);
            json_array_add_object_element(a, o);
        }
        g_string_free(ts, TRUE);
    }
    return a;
}

/* What the headline and the warnings say (sim/run/run_headline.h), from what the report is made
 * of: the window's cores and lock lines, its merged marks, its length and the verdicts. */
static void fill_headline(const RunOptions *o, const RunWiring *w, const RunJudgement *v, const CoreStats *cores,
                          const VarStats *lock_lines, const char *lock_names, Cycle cycles, RunHeadline *h)
{
    const WorkloadOptions *wl = &o->workload;
    h->scenario = o->scenario != NULL;
    h->lock = g_strdup(w->lock_name);
    h->config = g_strdup(w->cfg->name);
    h->arch = arch_name(w->cfg->arch);
    h->data = workload_value_text(workload_key_find("data"), wl);
    if (wl->placement.policy == PLACE_CPUS) {
        h->cpu_list = placement_text(&wl->placement);
        h->cpu_list_len = wl->placement.ncpus;
    }
    h->threads = wl->threads;
    h->readers = wl->readers;
    h->jitter = wl->jitter;
    h->fixed_time = wl->duration != 0;
    h->cycles = cycles;
    h->acquisitions = mark_log_acquisitions(&w->log);
    h->thread_acquisitions = g_new(guint64, wl->threads);
    for (guint t = 0; t < wl->threads; t++)
        h->thread_acquisitions[t] = w->log.threads[t]->acquisitions;
    h->longest_streak = w->longest_streak;
    h->mutual_exclusion = v->mutual_exclusion;
    h->stalled = v->stalled;
    h->faulted = v->faulted;
    h->halted_in_lock = v->halted_in_lock;
    h->lock_lines = g_strdup(lock_names);
    h->memory_ordering_clears = cores->machine_clears;
    h->paused_cycles = cores->paused_cycles;
    h->atomics = cores->atomics;
    h->failed_cas = cores->cas_failed;
    h->atomic_cycles = cores->atomic_cycles;
    h->lock_lines_rfo = lock_lines->rfo;
    h->lock_lines_invalidations = lock_lines->invalidations;
    h->lock_lines_l1_misses = lock_lines->l1_misses;
}

/* The report, and in *h what its headline and warnings say: both from the same counters. */
static JsonNode *report_run(const RunOptions *o, RunWiring *w, const RunJudgement *v, RunHeadline *h)
{
    /* The counters of the measured window: at the end, less the snapshot after the warm-up. */
    CoreStats cores;
    machine_total_stats(w->m, &cores);
    LineStats lock_line;
    gboolean has_lock_line = lock_line_stats(w, &lock_line);
    const MemStats *now = memsys_stats(w->ms);
    MemStats memory = { 0 };
    mem_stats_init(&memory, now->n_inval_received, now->n_cache_rows_fired, now->n_dir_rows_fired);
    counters_add(&mem_stats_registry, &memory, now);
    if (w->snapped) {
        counters_sub(&core_stats_registry, &cores, &w->warm_cores);
        counters_sub(&mem_stats_registry, &memory, &w->warm_memory);
        counters_sub(&line_stats_registry, &lock_line, &w->warm_lock_line);
    }
    /* The OS model's counters only where it ran: other runs' reports stay as they were. */
    const OsModel *os = machine_os(w->m);
    OsStats os_st = { 0 };
    if (os) {
        os_model_stats(os, &os_st);
        if (w->snapped)
            counters_sub(&os_stats_registry, &os_st, &w->warm_os);
    }
    CounterGroup groups[G_N_ELEMENTS(run_counter_groups)];
    memcpy(groups, run_counter_groups, sizeof groups);
    groups[RUN_GROUP_CORE].stats = &cores;
    groups[RUN_GROUP_MEMORY].stats = &memory;
    groups[RUN_GROUP_LOCK_LINE].stats = has_lock_line ? &lock_line : NULL;
    VarStats lock_lines;
    g_autofree char *lock_names = NULL;
    JsonObject *vars = run_vars_report(w->vars, w->ms, w->m, &lock_lines, &lock_names);
    groups[RUN_GROUP_LOCK_LINES].stats = &lock_lines;
    groups[RUN_GROUP_OS].stats = os ? &os_st : NULL;
    /* The identity's members of the runner's own, each added to the one object (an empty one
     * adds nothing): a scenario says so; on an SMT machine, which threads shared a core; the
     * lock's `.param` values as run, for a lock that has any. */
    JsonObject *identity = json_object_new();
    if (o->scenario)
        json_object_set_string_member(identity, "harness", "scenario");
    if (w->cfg->topology.threads_per_core > 1)
        json_object_set_array_member(identity, "smt_siblings", smt_siblings(w->cfg, w->cores, o->workload.threads));
    if (w->prog->params && w->prog->params->len) {
        JsonObject *params = json_object_new();
        for (guint i = 0; i < w->prog->params->len; i++) {
            const IsaParam *prm = &g_array_index(w->prog->params, IsaParam, i);
            json_object_set_int_member(params, prm->name, prm->value);
        }
        json_object_set_object_member(identity, "lock_params", params);
    }
    JsonObject *end = json_object_new();
    json_object_set_string_member(end, "lock_lines", lock_names);
    json_object_set_object_member(end, "variables", vars);
    json_object_set_object_member(end, "provenance", run_provenance(o, w));
    JsonNode *profile = report_profile(w);
    if (profile)
        json_object_set_member(end, "profile", profile);
    mark_log_merge(&w->log);
    /* The measured window: the whole run, or --duration after --warmup. */
    Cycle cycles = machine_cycles(w->m);
    if (o->workload.duration)
        cycles = MIN(cycles, w->window_start + o->workload.duration) - MIN(cycles, w->window_start);
    fill_headline(o, w, v, &cores, &lock_lines, lock_names, cycles, h);
    const RunVerdict verdicts[] = {
        { "mutual_exclusion", h->mutual_exclusion },
        { "stalled", h->stalled },
        { "faulted", h->faulted },
        { "halted_in_lock", h->halted_in_lock },
    };
    guint skip = o->scenario ? 1 : 0; /* a scenario has no mutual-exclusion verdict (nor a lock to halt in) */
    /* A thread on a core's second hardware thread has a logical CPU that is not its core:
     * per_thread then names both (a run with a thread per core reports as it always has). */
    g_autofree guint *phys = NULL;
    gboolean siblings = FALSE;
    for (guint t = 0; t < o->workload.threads; t++)
        siblings |= w->cores[t] >= config_total_cores(w->cfg);
    if (siblings) {
        phys = g_new(guint, o->workload.threads);
        for (guint t = 0; t < o->workload.threads; t++)
            phys[t] = w->cores[t] % config_total_cores(w->cfg);
    }
    RunReportInput in = {
        .config = w->cfg->name,
        .arch = arch_name(w->cfg->arch),
        .lock = w->lock_name,
        .workload = &o->workload,
        .command = WL_RUN,
        .seed = &o->seed,
        .cycles = &h->cycles,
        .marks = &w->log,
        .place_key = "core",
        .place = phys ? phys : w->cores,
        .place_cpu = phys ? w->cores : NULL,
        .verdicts = verdicts + skip,
        .nverdicts = o->scenario ? 2 : G_N_ELEMENTS(verdicts),
        .groups = groups,
        .ngroups = G_N_ELEMENTS(groups),
        .host_time = o->host_time,
        .host_seconds = w->host_seconds,
        .host_cpu_seconds = &w->host_cpu_seconds,
        .fast_forward_share = &w->fast_forward_share,
        .longest_streak = &h->longest_streak,
        .extra = { [RUN_REPORT_IDENTITY] = identity, [RUN_REPORT_END] = end },
    };
    JsonNode *report = run_report_build(&in);
    json_object_unref(identity);
    if (end)
        json_object_unref(end);
    mem_stats_clear(&memory);
    return report;
}

gboolean run_simulation(const RunOptions *o, RunResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    if (!validate_options(o, error))
        return FALSE;
    RunWiring w = { 0 };
    if (!wire_program(o, &w, error) || !wire_machine(o, &w, error)) {
        wiring_free(&w);
        return FALSE;
    }
    run_machine(o, &w);
    if (w.trace) {
        Cycle end = machine_cycles(w.m);
        if (o->workload.duration)
            end = MIN(end, o->workload.duration);
        if (!trace_stream_finish(w.trace, end, error)) {
            wiring_free(&w);
            return FALSE;
        }
    }
    RunJudgement v = o->scenario ? judge_scenario(&w, r) : judge_run(o, &w, r);
    r->report = report_run(o, &w, &v, &r->headline);
    r->config_yaml = config_to_yaml(w.cfg);
    r->lock_source = g_strdup(w.lock_text);
    r->page_cut = w.page_cut;
    wiring_free(&w);
    return TRUE;
}

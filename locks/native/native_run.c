/* The native runner (see native_run.h and docs/native.md): threads, the start barrier, marks,
 * verdicts, and what the report builder needs.
 *
 * Each thread runs the translated harness's `main`, as a simulated core does.  Fixed-time runs
 * (--duration-ms) assemble the harness with a loop count no run reaches (as the simulator
 * does); when the time is up the main thread sets `stop`, and each thread's mark hook, at its
 * next `mark 1` (between iterations, the lock not held), returns nonzero, which ends `main` as
 * `halt` would.  So every acquisition a thread made was also released and counted, and the
 * counter check is exact in both modes.  A thread that does finish the loop count first simply
 * enters `main` again.
 *
 * The main thread watches the run while it waits: a thread that faults (its program ends with
 * the fault recorded) or halts inside the lock ends the run at once; no mark from any thread
 * for the progress window ends it too.  Threads still in the program then are taken out of it
 * (locks/native/native_escape.h), joined, and the run is an error saying what happened where. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"
#include "locks/native/native_escape.h"
#include "locks/native/native_abi.h"
#include "locks/native/native_c.h"
#include "locks/native/native_compile.h"
#include "locks/native/native_perf.h"
#include "locks/native/native_run.h"
#include "sim/report/provenance.h"
#include "locks/native/native_sched.h"
#include "locks/native/native_tsc.h"
#include "sim/machine/mark_log.h"
#include "sim/report/run_report.h"

/* Latency samples kept, all threads together: about 256 MiB at most ... */
#define RUN_MAX_SAMPLES ((guint64)32 << 20)
/* ... but never fewer than this per thread. */
#define RUN_MIN_SAMPLES ((guint64)4096)
/* Samples kept per thread in a fixed-time run (its count is not known in advance). */
#define RUN_TIMED_SAMPLES ((guint64)1 << 20)

/* How often the main thread looks at the run while it waits: an eighth of the progress window,
 * within these bounds, so that it wakes (and may take a CPU from a worker) at most 10 times a
 * second.  A worker that finishes or fails wakes it at once. */
#define WATCH_TICK_MIN_US 1000
#define WATCH_TICK_MAX_US 100000

guint native_progress_default(const WorkloadOptions *w)
{
    guint64 work = ((guint64)w->cs_work + w->think) * w->threads * 4 / 1000000;
    return (guint)MIN(2000 + work, (guint64)NATIVE_PROGRESS_MAX_MS);
}

void native_run_options_init(NativeRunOptions *o)
{
    memset(o, 0, sizeof *o);
    workload_init(&o->workload, WL_NATIVE);
}

guint64 native_run_sample_limit(const WorkloadOptions *w, guint threads)
{
    /* Natively fixed time is duration_ms (the model's duration in cycles has no effect). */
    guint64 want = w->duration_ms ? RUN_TIMED_SAMPLES : w->iterations;
    return MIN(want, MAX(RUN_MIN_SAMPLES, RUN_MAX_SAMPLES / MAX(threads, 1u)));
}

/* ------------------------------------------------------------------------------------------ */
/* The program                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The workload as the host runs it: the rows `qsim native` does not take at their defaults
 * (native_run.h), the rest checked as the command line checks them. */
static gboolean host_workload(const WorkloadOptions *given, WorkloadOptions *w, GError **error)
{
    WorkloadOptions def;
    workload_init(&def, WL_NATIVE);
    *w = *given;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (k->commands & WL_NATIVE)
            continue;
        /* The field as the default has it (a row not set has no text to read back). */
        memcpy((char *)w + k->offset, (const char *)&def + k->offset,
               k->type == WL_UINT64 ? sizeof(guint64) : k->type == WL_UINT ? sizeof(guint) : sizeof(int));
    }
    g_autoptr(GError) bad = NULL;
    if (!workload_validate(w, WL_NATIVE, &bad)) {
        g_set_error_literal(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, bad->message);
        return FALSE;
    }
    return TRUE;
}

/* The lock with its harness, assembled (*prog) and translated (the result).  Fixed time: the
 * simulator's loop count, which the stop flag cuts short (workload_harness). */
static char *build_program(const NativeLock *lock, const WorkloadOptions *w, const char *const *params,
                           IsaProgram **prog, GError **error)
{
    HarnessOptions h;
    workload_harness(w, &h);
    ArchTarget target;
    if (!native_host_target(&target, error))
        return NULL;
    *prog = native_lock_with_harness(lock, &h, target, params, error);
    if (!*prog)
        return NULL;
    char *csrc = native_translate_c(*prog, target.arch, "main", error);
    if (!csrc)
        g_clear_pointer(prog, isa_program_free);
    return csrc;
}

char *native_program_c(const NativeLock *lock, const NativeRunOptions *o, GError **error)
{
    WorkloadOptions w;
    if (!host_workload(&o->workload, &w, error))
        return NULL;
    IsaProgram *prog = NULL;
    char *csrc = build_program(lock, &w, o->lock_params, &prog, error);
    if (prog)
        isa_program_free(prog);
    return csrc;
}

/* The compiled program's `main`. */
static QnEntryFn load_main(const NativeModule *m, const char *what, GError **error)
{
    const QnProgram *d = native_module_symbol(m, QN_PROGRAM_SYMBOL);
    if (!d || d->abi != QN_ABI_VERSION) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_LOAD, "%s: the compiled program %s", what,
                    d ? "has another ABI version" : "lacks " QN_PROGRAM_SYMBOL);
        return NULL;
    }
    for (guint i = 0; i < d->nentries; i++)
        if (!strcmp(d->entries[i].name, "main"))
            return d->entries[i].fn;
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_LOAD, "%s: the compiled program has no `main`", what);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Threads                                                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef struct Run Run;

/* One thread's state, in lines of its own (the runner allocates it line-aligned and rounded
 * up) so that its bookkeeping does not share a line with another thread's. */
typedef struct {
    QnThread qt;
    Run *run;
    guint cpu;
    uint64_t *mine;            /* this thread's copy of each symbol: QnThread.mine */
    MarkLogThread *marks;      /* this thread's record in the run's mark log */
    NativePerf perf;
    NativeThreadSched sched0, sched; /* scheduling at the start of the timed loop; then over it */
    /* What the watchdog reads (written by this thread only): */
    guint64 nmarks;            /* acquisitions and releases so far (mark_is_progress) */
    int64_t last_mark;         /* the last harness mark (1, 2, 3; 0: none yet) */
    int done;                  /* out of the program for good */
    int escaped;               /* taken out of it (locks/native/native_escape.h) */
    NativeEscape escape;
    pthread_t tid;
} Worker;

struct Run {
    QnEntryFn main;
    const IsaProgram *prog;    /* to tell a `halt` of the lock from the harness's */
    gboolean fixed_time;
    gboolean count_clears;
    /* Start: each worker counts itself ready, then waits for `go` (1 run, -1 abandon), so that
     * all start together and a failed thread start can still release the others. */
    int ready, go;
    int stop;                  /* fixed time: set by the main thread when time is up */
    /* End: each worker counts itself done under the mutex and signals the main thread. */
    GMutex lock;
    GCond done;
    guint finished;
};

static int worker_mark(QnThread *qt, int64_t n)
{
    Worker *w = qt->runner;
    /* The stop is taken at the harness's `mark 1`, between iterations (after a release or
     * before the first call); a `mark 1` of the lock's own, inside it, is no place to leave. */
    if (n == 1 && (w->last_mark == 0 || w->last_mark == 3) && __atomic_load_n(&w->run->stop, __ATOMIC_RELAXED))
        return 1;
    mark_log_thread_mark(w->marks, n, native_tsc_read());
    if (n >= 1 && n <= 3)
        __atomic_store_n(&w->last_mark, n, __ATOMIC_RELAXED);
    if (mark_is_progress(n))
        __atomic_store_n(&w->nmarks, w->nmarks + 1, __ATOMIC_RELAXED);
    return 0;
}

/* The thread's program ended with a fault, or at a `halt` inside the lock: the run is over. */
static gboolean worker_failed(const Worker *w)
{
    return w->qt.fault || w->qt.fault_pc >= 0 || w->escape.signal ||
           (w->qt.halt_pc >= 0 && harness_pc_in_lock(w->run->prog, w->qt.halt_pc));
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Run *r = w->run;
    native_perf_open(&w->perf, r->count_clears);
    __atomic_fetch_add(&r->ready, 1, __ATOMIC_SEQ_CST);
    int go;
    while (!(go = __atomic_load_n(&r->go, __ATOMIC_ACQUIRE)))
        sched_yield(); /* the main thread may share this CPU: let it release us */
    if (go > 0) {
        /* After the wait: its sched_yield calls are switches we asked for. */
        native_sched_sample(&w->sched0);
        native_perf_start(&w->perf);
        native_escape_bind(&w->escape);
        if (sigsetjmp(w->escape.jmp, 1) == 0) {
            native_escape_enter(&w->escape);
            do
                r->main(&w->qt);
            while (r->fixed_time && !worker_failed(w) && !__atomic_load_n(&r->stop, __ATOMIC_RELAXED));
        } else {
            w->escaped = 1;
        }
        native_escape_leave(&w->escape);
    }
    native_perf_stop(&w->perf);
    if (go > 0) {
        NativeThreadSched end;
        native_sched_sample(&end);
        w->sched = native_sched_delta(&w->sched0, &end);
    }
    g_mutex_lock(&r->lock);
    w->done = 1;
    r->finished++;
    g_cond_signal(&r->done);
    g_mutex_unlock(&r->lock);
    return NULL;
}

static void poke(void *ctx, uint64_t addr, unsigned size, uint64_t value)
{
    (void)ctx;
    void *p = (void *)(uintptr_t)addr;
    switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)value; break;
    case 2: *(uint16_t *)p = (uint16_t)value; break;
    case 4: *(uint32_t *)p = (uint32_t)value; break;
    default: *(uint64_t *)p = value; break;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Verdicts and the report                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* What the harness's variables say after the run, read as the simulator reads them. */
typedef struct {
    uint64_t counter;          /* h_counter: one per completed critical section */
    uint64_t violations;       /* h_violations: critical sections entered while another was inside */
    gboolean mutex_ok;
} Verdict;

static uint64_t read_var(const IsaProgram *p, const IsaLayout *lay, const char *name)
{
    int s = isa_program_find_sym(p, name);
    g_assert(s >= 0);
    return *(const uint64_t *)(uintptr_t)isa_sym_addr(lay, (guint)s, 0);
}

static Verdict judge(const IsaProgram *p, const IsaLayout *lay, const MarkLog *log)
{
    Verdict v = { 0 };
    v.counter = read_var(p, lay, HARNESS_COUNTER);
    v.violations = read_var(p, lay, HARNESS_VIOLATIONS);
    /* Every thread stops between iterations (module comment), so every acquisition's
     * increment is in the counter: exact, in both modes. */
    v.mutex_ok = v.violations == 0 && v.counter == mark_log_acquisitions(log);
    return v;
}

/* The timed span: from the release of the threads to the last join. */
typedef struct {
    uint64_t ns0, ns1;         /* CLOCK_MONOTONIC */
    uint64_t st0, st1;         /* the time-stamp counter */
    gint others_runnable;      /* other tasks runnable at the release (-1: unknown) */
} Span;

/* The members only the host has, at their places in the report (docs/native.md); the caller
 * unrefs them. */
static void host_members(JsonObject *extra[RUN_REPORT_PLACES], const guint *cpus, guint nt, const Span *s,
                         const MarkLog *log, const Verdict *v, uint32_t line, double work_ns)
{
    for (guint i = 0; i < RUN_REPORT_PLACES; i++)
        extra[i] = json_object_new();
    JsonArray *cpu_list = json_array_sized_new(nt);
    for (guint t = 0; t < nt; t++)
        json_array_add_int_element(cpu_list, cpus[t]);
    json_object_set_array_member(extra[RUN_REPORT_IDENTITY], "cpus", cpu_list);
    uint64_t ns = s->ns1 - s->ns0;
    guint64 acquisitions = mark_log_acquisitions(log);
    json_object_set_int_member(extra[RUN_REPORT_TOTALS], "ns", (gint64)ns);
    if (acquisitions)
        json_object_set_double_member(extra[RUN_REPORT_TOTALS], "ns_per_acquisition", (double)ns / (double)acquisitions);
    else
        json_object_set_null_member(extra[RUN_REPORT_TOTALS], "ns_per_acquisition");
    json_object_set_string_member(extra[RUN_REPORT_LATENCY], "unit", native_tsc_unit());
    json_object_set_int_member(extra[RUN_REPORT_LATENCY], "samples", log->latency.samples->len);
    json_object_set_int_member(extra[RUN_REPORT_VERDICTS], "counter", (gint64)v->counter);
    json_object_set_int_member(extra[RUN_REPORT_VERDICTS], "in_cs_violations", (gint64)v->violations);
    json_object_set_int_member(extra[RUN_REPORT_VERDICTS], "line_size", line);
    json_object_set_double_member(extra[RUN_REPORT_VERDICTS], "work_unit_ns", work_ns);
}

/* The `scheduling` member (native_sched.h), from the workers' samples and the latency the
 * report builder computed.  QSIM_TEST_NATIVE_RUN_DELAY_NS (tests only) adds that much waiting
 * and one preemption to thread 0, so the warning's path can be tested on any host. */
static JsonObject *scheduling_member(JsonNode *report, Worker **ws, guint nt, const guint *cpus, const Span *s)
{
    g_autofree NativeThreadSched *threads = g_new0(NativeThreadSched, nt);
    for (guint t = 0; t < nt; t++)
        threads[t] = ws[t]->sched;
    const char *inject = g_getenv("QSIM_TEST_NATIVE_RUN_DELAY_NS");
    if (inject && nt) {
        threads[0].involuntary++;
        threads[0].run_delay_ns = MAX(threads[0].run_delay_ns, 0) + g_ascii_strtoll(inject, NULL, 10);
    }
    JsonObject *r = json_node_get_object(report);
    JsonObject *lat = json_object_get_object_member(r, "latency");
    NativeSchedInput in = {
        .nthreads = nt,
        .threads = threads,
        .cpus = cpus,
        .span_ns = s->ns1 - s->ns0,
        .others_runnable = s->others_runnable,
        .online_cpus = (guint)MAX(sysconf(_SC_NPROCESSORS_ONLN), 1),
        .latency_mean = json_object_get_double_member_with_default(lat, "mean", 0),
        .latency_p99 = json_object_get_double_member_with_default(lat, "p99", 0),
        .latency_samples = (guint64)json_object_get_int_member_with_default(lat, "samples", 0),
        .latency_unit = json_object_get_string_member_with_default(lat, "unit", NULL),
    };
    return native_sched_report(&in);
}

/* The report, from the simulator's builder: the workload as run, the mark log (its times in
 * native_tsc_unit()), the verdict, the hardware counters as a counter group, and the host's
 * own members. */
static JsonNode *build_report(const NativeLock *lock, const IsaProgram *prog, const WorkloadOptions *w, Arch arch,
                              Worker **ws, guint nt, MarkLog *log, const Verdict *v, const Span *s, uint32_t line,
                              double work_ns, uint64_t host_t0, const char *command)
{
    double per_tick = native_tsc_unit_per_tick();
    if (per_tick != 1.0)
        mark_log_convert(log, per_tick);
    mark_log_merge(log);
    g_autofree guint *cpus = g_new(guint, nt);
    g_autofree NativePerf **perf = g_new(NativePerf *, nt);
    for (guint t = 0; t < nt; t++) {
        cpus[t] = ws[t]->cpu;
        perf[t] = &ws[t]->perf;
    }
    NativePerfStats total;
    CounterInfo rows[NATIVE_CTR_N];
    CounterRegistry counted;
    g_autofree char *unavailable = native_perf_total(perf, nt, &total, rows, &counted);
    const CounterGroup groups[] = {
        { "host", unavailable ? &native_perf_registry : &counted, unavailable ? NULL : &total, "counters",
          unavailable },
    };
    const RunVerdict verdicts[] = { { "mutual_exclusion", v->mutex_ok } };
    guint64 ticks = s->st1 - s->st0;
    RunReportInput in = {
        .config = "native",
        .arch = arch_name(arch),
        .lock = native_lock_name(lock),
        .workload = w,
        .command = WL_NATIVE,
        .cycles = native_tsc_is_cycles() ? &ticks : NULL,
        .marks = log,
        .place_key = "cpu",
        .place = cpus,
        .verdicts = verdicts,
        .nverdicts = G_N_ELEMENTS(verdicts),
        .groups = groups,
        .ngroups = G_N_ELEMENTS(groups),
        .host_time = TRUE,
        .host_seconds = (double)(native_now_ns() - host_t0) / 1e9,
    };
    host_members(in.extra, cpus, nt, s, log, v, line, work_ns);
    /* What it was made of, as the model's reports say (no config: the host is the machine). */
    ProvenanceInput pin = { .command = command, .lock_name = native_lock_name(lock),
                            .lock_path = native_lock_path(lock), .lock_text = native_lock_text(lock) };
    json_object_set_object_member(in.extra[RUN_REPORT_END], "provenance", provenance_build(&pin));
    /* The lock's `.param` values as run, as the model reports them. */
    if (prog->params && prog->params->len) {
        JsonObject *params = json_object_new();
        for (guint i = 0; i < prog->params->len; i++) {
            const IsaParam *prm = &g_array_index(prog->params, IsaParam, i);
            json_object_set_int_member(params, prm->name, prm->value);
        }
        json_object_set_object_member(in.extra[RUN_REPORT_IDENTITY], "lock_params", params);
    }
    JsonNode *root = run_report_build(&in);
    for (guint i = 0; i < RUN_REPORT_PLACES; i++)
        json_object_unref(in.extra[i]);
    /* Last among the host's own members, after work_unit_ns: it judges the latency above. */
    JsonObject *sched = scheduling_member(root, ws, nt, cpus, s);
    JsonObject *r = json_node_get_object(root);
    if (json_object_has_member(r, "counters")) {
        /* Keep the report's order: the host's members before the counter dump. */
        JsonObject *ordered = json_object_new();
        g_autoptr(GList) members = json_object_get_members(r);
        for (GList *l = members; l; l = l->next) {
            if (!strcmp(l->data, "counters"))
                json_object_set_object_member(ordered, "scheduling", json_object_ref(sched));
            json_object_set_member(ordered, l->data, json_node_copy(json_object_get_member(r, l->data)));
        }
        json_node_take_object(root, ordered);
    } else {
        json_object_set_object_member(r, "scheduling", json_object_ref(sched));
    }
    json_object_unref(sched);
    return root;
}

/* ------------------------------------------------------------------------------------------ */
/* The run                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Waits for the workers, watching them: returns when all are done, when one failed (a fault, a
 * halt inside the lock), or when none marked anything for `progress_ms` (*stalled).  Fixed time:
 * sets `stop` when the duration is up.  Called with r->lock held. */
static void watch_threads(Run *r, Worker **ws, guint started, guint duration_ms, guint progress_ms, gboolean *stalled)
{
    gint64 now = g_get_monotonic_time(), stop_at = r->fixed_time ? now + (gint64)duration_ms * 1000 : G_MAXINT64;
    gint64 quiet_since = now, tick = CLAMP((gint64)progress_ms * 1000 / 8, WATCH_TICK_MIN_US, WATCH_TICK_MAX_US);
    guint64 seen = 0;
    while (r->finished < started) {
        gint64 wake = now + tick;
        if (!r->stop && stop_at < wake)
            wake = stop_at;
        g_cond_wait_until(&r->done, &r->lock, wake);
        now = g_get_monotonic_time();
        if (r->fixed_time && now >= stop_at)
            __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
        guint64 marks = 0;
        for (guint t = 0; t < started; t++) {
            if (ws[t]->done && worker_failed(ws[t]))
                return;
            marks += __atomic_load_n(&ws[t]->nmarks, __ATOMIC_RELAXED);
        }
        if (marks != seen) {
            seen = marks;
            quiet_since = now;
        } else if (now - quiet_since >= (gint64)progress_ms * 1000) {
            *stalled = TRUE;
            return;
        }
    }
}

/* Starts the workers pinned, releases them together, waits for them (after the duration in a
 * fixed-time run) while watching them (watch_threads); takes the ones left in the program out
 * of it.  FALSE with an error when a thread cannot be started. */
static gboolean run_threads(Run *r, Worker **ws, guint nt, guint duration_ms, guint progress_ms, Span *s,
                            gboolean *stalled, GError **error)
{
    guint started = 0;
    int create_err = 0;
    for (; started < nt; started++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        native_pin_attr(&attr, ws[started]->cpu);
        create_err = pthread_create(&ws[started]->tid, &attr, worker_main, ws[started]);
        pthread_attr_destroy(&attr);
        if (create_err)
            break;
    }
    while (__atomic_load_n(&r->ready, __ATOMIC_SEQ_CST) < (int)started)
        g_usleep(100);
    if (create_err) {
        __atomic_store_n(&r->go, -1, __ATOMIC_RELEASE);
        for (guint t = 0; t < started; t++)
            pthread_join(ws[t]->tid, NULL);
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_SYSTEM, "cannot start a thread pinned to CPU %u: %s",
                    ws[started]->cpu, g_strerror(create_err));
        return FALSE;
    }
    /* Ours: this thread and the workers spinning in sched_yield. */
    s->others_runnable = native_sched_others_runnable(started + 1);
    s->ns0 = native_now_ns();
    s->st0 = native_tsc_read();
    g_mutex_lock(&r->lock);
    __atomic_store_n(&r->go, 1, __ATOMIC_RELEASE);
    watch_threads(r, ws, started, duration_ms, progress_ms, stalled);
    /* The run is over: take out every thread still in the program, again each tick, since one
     * that had not yet entered it when signalled would enter it afterwards. */
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
    while (r->finished < started) {
        for (guint t = 0; t < started; t++)
            if (!ws[t]->done)
                native_escape_abandon(ws[t]->tid);
        g_cond_wait_until(&r->done, &r->lock, g_get_monotonic_time() + WATCH_TICK_MIN_US);
    }
    g_mutex_unlock(&r->lock);
    for (guint t = 0; t < started; t++)
        pthread_join(ws[t]->tid, NULL);
    s->st1 = native_tsc_read();
    s->ns1 = native_now_ns();
    return TRUE;
}

/* Where thread t was in the harness's loop, for people. */
static void describe_worker(const Worker *w, guint t, GString *out)
{
    static const char *const phase[] = {
        [0] = "had not called the lock yet",
        [1] = "in `lock`",
        [2] = "holding the lock (critical section or `unlock`)",
        [3] = "between its release and its next `lock`",
    };
    int64_t m = w->last_mark;
    g_string_append_printf(out, "  thread %u (CPU %u): %s, %" G_GUINT64_FORMAT " acquisition%s\n", t, w->cpu,
                           w->escaped ? phase[m >= 0 && m <= 3 ? m : 0] : "finished", w->marks->acquisitions,
                           w->marks->acquisitions == 1 ? "" : "s");
}

/* What went wrong at run time, or FALSE: a fault (the model's words), a signal, a halt inside
 * the lock, no progress. */
static gboolean run_failed(const Run *r, Worker **ws, guint nt, const IsaLayout *lay, gboolean stalled,
                           guint progress_ms, gboolean progress_given, GError **error)
{
    g_autoptr(GString) why = g_string_new(NULL);
    for (guint t = 0; t < nt; t++) {
        const Worker *w = ws[t];
        if (w->qt.fault) {
            g_string_append_printf(why, "thread %u faulted at %s\n", t, w->qt.fault);
        } else if (w->qt.fault_pc >= 0) {
            IsaFaultKind k = w->qt.fault_size ? isa_access_check(lay, w->qt.fault_addr, w->qt.fault_size)
                                              : ISA_FAULT_NO_THREAD;
            g_autofree char *what = isa_fault_report(r->prog, lay, t, w->qt.fault_pc, k, w->qt.fault_addr,
                                                     w->qt.fault_size);
            g_string_append_printf(why, "%s\n", what);
        } else if (w->escape.signal) {
            g_string_append_printf(why, "thread %u was stopped by %s inside the lock program\n", t,
                                   g_strsignal(w->escape.signal));
        } else if (w->qt.halt_pc >= 0 && harness_pc_in_lock(r->prog, w->qt.halt_pc)) {
            const IsaInsn *in = &g_array_index(r->prog->insns, IsaInsn, w->qt.halt_pc);
            g_autofree char *pos = asm_format_pos(r->prog, in);
            g_string_append_printf(why, "thread %u halted inside the lock at %s (`halt`) after %" G_GUINT64_FORMAT
                                        " acquisition%s: its loop was left unfinished\n", t, pos,
                                   w->marks->acquisitions, w->marks->acquisitions == 1 ? "" : "s");
        }
    }
    if (why->len) {
        g_string_truncate(why, why->len - 1);
        g_set_error_literal(error, NATIVE_ERROR, NATIVE_ERROR_INVALID, why->str);
        return TRUE;
    }
    if (!stalled)
        return FALSE;
    g_string_append_printf(why, "the run made no progress for %u ms (--progress-ms%s): no thread acquired "
                                "or released the lock\n", progress_ms,
                           progress_given ? "" : "; its default follows the workload");
    for (guint t = 0; t < nt; t++)
        describe_worker(ws[t], t, why);
    g_string_truncate(why, why->len - 1);
    g_set_error_literal(error, NATIVE_ERROR, NATIVE_ERROR_NO_PROGRESS, why->str);
    return TRUE;
}

/* The line size memory is laid out for: 64, or the host's L1 line if it reports a larger one. */
static uint32_t host_line_size(void)
{
    long host_line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    return host_line > 64 && host_line <= 4096 ? (uint32_t)host_line : 64;
}

JsonNode *native_run(const NativeLock *lock, const NativeRunOptions *o, GError **error)
{
    uint64_t host_t0 = native_now_ns();
    Arch arch;
    WorkloadOptions w;
    if (!native_host_arch(&arch, error) || !host_workload(&o->workload, &w, error))
        return NULL;
    guint nt = w.threads;
    g_autoptr(GArray) cpus = native_choose_cpus(o->cpus, nt, error);
    if (!cpus)
        return NULL;
    g_autoptr(IsaProgram) prog = NULL;
    g_autofree char *csrc = build_program(lock, &w, o->lock_params, &prog, error);
    if (!csrc)
        return NULL;
    g_autoptr(NativeModule) module = native_module_load(csrc, native_lock_compiler(lock),
                                                        native_lock_name(lock), error);
    if (!module)
        return NULL;
    if (o->progress_ms && (o->progress_ms < NATIVE_PROGRESS_MIN_MS || o->progress_ms > NATIVE_PROGRESS_MAX_MS)) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "--progress-ms %u: out of range [%d, %d]", o->progress_ms,
                    NATIVE_PROGRESS_MIN_MS, NATIVE_PROGRESS_MAX_MS);
        return NULL;
    }
    guint progress_ms = o->progress_ms ? o->progress_ms : native_progress_default(&w);
    Run r = { 0 };
    r.main = load_main(module, native_lock_name(lock), error);
    if (!r.main)
        return NULL;
    r.prog = prog;
    r.fixed_time = w.duration_ms != 0;
    r.count_clears = arch == ARCH_X86 && native_perf_host_is_intel();

    /* Memory: one zeroed block, aligned to the line, laid out exactly as the simulator lays it
     * out (a probe at base 0 gives the size). */
    uint32_t line = host_line_size();
    IsaLayout *probe = isa_layout_new(prog, nt, line, 0);
    uint64_t bytes = MAX((probe->size + line - 1) / line * line, (uint64_t)line);
    isa_layout_free(probe);
    void *block = aligned_alloc(line, bytes);
    memset(block, 0, bytes);
    IsaLayout *lay = isa_layout_new(prog, nt, line, (uint64_t)(uintptr_t)block);
    isa_layout_init_memory(lay, prog, poke, NULL);

    /* Every thread's record and sample room, allocated now: the threads never allocate. */
    MarkLog log;
    mark_log_init(&log, nt, native_run_sample_limit(&w, nt));
    gsize wsize = (sizeof(Worker) + 127) / 128 * 128;
    Worker **ws = g_new0(Worker *, nt);
    for (guint t = 0; t < nt; t++) {
        Worker *wk = aligned_alloc(128, wsize);
        memset(wk, 0, wsize);
        wk->run = &r;
        wk->cpu = g_array_index(cpus, guint, t);
        wk->marks = log.threads[t];
        wk->mine = g_new0(uint64_t, lay->nsyms + 1);
        for (guint s = 0; s < lay->nsyms; s++)
            wk->mine[s] = isa_sym_addr(lay, s, t);
        wk->qt.mine = wk->mine;
        wk->qt.addr = lay->addr;
        wk->qt.tid = t;
        wk->qt.nthreads = nt;
        wk->qt.mark = worker_mark;
        wk->qt.runner = wk;
        wk->qt.mem_lo = lay->base;
        wk->qt.mem_size = lay->size;
        wk->qt.fault_pc = wk->qt.halt_pc = -1;
        ws[t] = wk;
    }
    double work_ns = native_work_unit_ns();
    JsonNode *root = NULL;
    Span span;
    gboolean stalled = FALSE;
    g_mutex_init(&r.lock);
    g_cond_init(&r.done);
    if (native_escape_install(error)) {
        gboolean ran = run_threads(&r, ws, nt, w.duration_ms, progress_ms, &span, &stalled, error);
        native_escape_restore();
        if (ran && !run_failed(&r, ws, nt, lay, stalled, progress_ms, o->progress_ms != 0, error)) {
            Verdict v = judge(prog, lay, &log);
            root = build_report(lock, prog, &w, arch, ws, nt, &log, &v, &span, line, work_ns, host_t0, o->command);
        }
    }
    g_mutex_clear(&r.lock);
    g_cond_clear(&r.done);
    for (guint t = 0; t < nt; t++) {
        g_free(ws[t]->mine);
        free(ws[t]);
    }
    g_free(ws);
    mark_log_clear(&log);
    isa_layout_free(lay);
    free(block);
    return root;
}

/* The native runner (see native_run.h and docs/native.md): threads, the start barrier, marks,
 * verdicts and the report.
 *
 * Each thread runs the translated harness's `main`, as a simulated core does.  Fixed-time runs
 * (--duration-ms) assemble the harness with a loop count no run reaches (as the simulator
 * does); when the time is up the main thread sets `stop`, and each thread's mark hook, at its
 * next `mark 1` (between iterations, the lock not held), returns nonzero, which ends `main` as
 * `halt` would.  So every acquisition a thread made was also released and counted, and the
 * counter check is exact in both modes.  A thread that does finish the loop count first simply
 * enters `main` again. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cores/isa_exec.h"
#include "locks/native_abi.h"
#include "locks/native_c.h"
#include "locks/native_compile.h"
#include "locks/native_marks.h"
#include "locks/native_perf.h"
#include "locks/native_run.h"
#include "locks/native_tsc.h"
#include "sim/base/latency_stats.h"
#include "sim/base/report.h"

/* Latency samples kept, all threads together: about 256 MiB at most. */
#define RUN_MAX_SAMPLES ((guint64)32 << 20)
/* Samples kept per thread in a fixed-time run (its count is not known in advance). */
#define RUN_TIMED_SAMPLES ((guint64)1 << 20)

void native_options_init(NativeOptions *o)
{
    memset(o, 0, sizeof *o);
    o->iterations = 10000;
}

/* ------------------------------------------------------------------------------------------ */
/* The program                                                                                */
/* ------------------------------------------------------------------------------------------ */

static gboolean check_options(const NativeOptions *o, GError **error)
{
    if (!o->iterations && !o->duration_ms) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "give --iterations or --duration-ms");
        return FALSE;
    }
    /* The harness text holds these as 32-bit immediates. */
    if (o->iterations > G_MAXUINT32 || o->cs_work > G_MAXUINT32 || o->think > G_MAXUINT32) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--iterations, --cs-work and --think must be at most %u", G_MAXUINT32);
        return FALSE;
    }
    return TRUE;
}

/* The harness options of a run (fixed time: the simulator's loop count, which the stop flag
 * cuts short). */
static void harness_options(const NativeOptions *o, guint threads, HarnessOptions *h)
{
    harness_options_init(h);
    h->threads = threads;
    h->iterations = o->iterations ? (guint)o->iterations : G_MAXINT32;
    h->cs_writes = o->cs_writes;
    h->data = o->data_same_line ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
    h->cs_work = (guint)o->cs_work;
    h->think = (guint)o->think;
}

/* The lock with its harness, assembled (*prog) and translated (the result). */
static char *build_program(const NativeLock *lock, const NativeOptions *o, guint threads, Arch arch,
                           IsaProgram **prog, GError **error)
{
    HarnessOptions h;
    harness_options(o, threads, &h);
    *prog = native_lock_with_harness(lock, &h, arch, error);
    if (!*prog)
        return NULL;
    char *csrc = native_translate_c(*prog, arch, "main", error);
    if (!csrc)
        g_clear_pointer(prog, isa_program_free);
    return csrc;
}

char *native_program_c(const NativeLock *lock, const NativeOptions *o, GError **error)
{
    Arch arch;
    if (!native_host_arch(&arch, error) || !check_options(o, error))
        return NULL;
    IsaProgram *prog = NULL;
    char *csrc = build_program(lock, o, o->threads ? o->threads : 2, arch, &prog, error);
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
    NativeMarks marks;
    NativePerf perf;
} Worker;

struct Run {
    QnEntryFn main;
    gboolean fixed_time;
    gboolean count_clears;
    /* Start: each worker counts itself ready, then waits for `go` (1 run, -1 abandon), so that
     * all start together and a failed thread start can still release the others. */
    int ready, go;
    int stop;                  /* fixed time: set by the main thread when time is up */
};

static int worker_mark(QnThread *qt, int64_t n)
{
    Worker *w = qt->runner;
    if (n == 1 && __atomic_load_n(&w->run->stop, __ATOMIC_RELAXED))
        return 1;
    native_marks_note(&w->marks, n, native_tsc_read());
    return 0;
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
        native_perf_start(&w->perf);
        do
            r->main(&w->qt);
        while (r->fixed_time && !w->qt.fault && !__atomic_load_n(&r->stop, __ATOMIC_RELAXED));
    }
    native_perf_stop(&w->perf);
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
    uint64_t acquisitions;     /* mark 2s, all threads */
    gboolean mutex_ok;
} Verdict;

static uint64_t read_var(const IsaProgram *p, const IsaLayout *lay, const char *name)
{
    int s = isa_program_find_sym(p, name);
    g_assert(s >= 0);
    return *(const uint64_t *)(uintptr_t)isa_sym_addr(lay, (guint)s, 0);
}

static Verdict judge(const IsaProgram *p, const IsaLayout *lay, Worker **ws, guint nt)
{
    Verdict v = { 0 };
    v.counter = read_var(p, lay, HARNESS_COUNTER);
    v.violations = read_var(p, lay, HARNESS_VIOLATIONS);
    for (guint t = 0; t < nt; t++)
        v.acquisitions += ws[t]->marks.acquisitions;
    /* Every thread stops between iterations (module comment), so every acquisition's
     * increment is in the counter: exact, in both modes. */
    v.mutex_ok = v.violations == 0 && v.counter == v.acquisitions;
    return v;
}

/* The timed span: from the release of the threads to the last join. */
typedef struct {
    uint64_t ns0, ns1;         /* CLOCK_MONOTONIC */
    uint64_t st0, st1;         /* the time-stamp counter */
} Span;

static JsonNode *build_report(const NativeLock *lock, const NativeOptions *o, Arch arch, Worker **ws,
                              guint nt, const Verdict *v, const Span *s, uint32_t line, double work_ns,
                              uint64_t host_t0)
{
    guint64 total = v->acquisitions, min_a = G_MAXUINT64, max_a = 0;
    g_autofree NativeMarks **marks = g_new(NativeMarks *, nt);
    for (guint t = 0; t < nt; t++) {
        min_a = MIN(min_a, ws[t]->marks.acquisitions);
        max_a = MAX(max_a, ws[t]->marks.acquisitions);
        marks[t] = &ws[t]->marks;
    }
    LatencySamples lat;
    latency_init(&lat);
    native_marks_latency(marks, nt, &lat);
    uint64_t ticks = s->st1 - s->st0, ns = s->ns1 - s->ns0;

    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", "native");
    report_add_string(b, "arch", arch_name(arch));
    report_add_string(b, "lock", native_lock_name(lock));
    report_add_int(b, "threads", nt);
    json_builder_set_member_name(b, "cpus");
    json_builder_begin_array(b);
    for (guint t = 0; t < nt; t++)
        json_builder_add_int_value(b, ws[t]->cpu);
    json_builder_end_array(b);
    if (o->iterations)
        report_add_int(b, "iterations", (gint64)o->iterations);
    else
        report_add_int(b, "duration_ms", o->duration_ms);
    report_add_int(b, "cs_writes", o->cs_writes);
    report_add_string(b, "data", o->data_same_line ? "same-line" : "separate-line");
    report_add_int(b, "cs_work", (gint64)o->cs_work);
    report_add_int(b, "think", (gint64)o->think);
    if (native_tsc_is_cycles())
        report_add_int(b, "cycles", (gint64)ticks);
    report_add_int(b, "ns", (gint64)ns);
    report_add_int(b, "acquisitions", (gint64)total);
    if (total && native_tsc_is_cycles())
        report_add_double(b, "cycles_per_acquisition", (double)ticks / (double)total);
    if (total)
        report_add_double(b, "ns_per_acquisition", (double)ns / (double)total);
    if (lat.samples->len) {
        json_builder_set_member_name(b, "latency");
        json_builder_begin_object(b);
        report_add_string(b, "unit", native_tsc_unit());
        report_add_double(b, "mean", latency_mean(&lat) * native_tsc_to_unit(1));
        report_add_double(b, "p50", native_tsc_to_unit(latency_percentile(&lat, 50)));
        report_add_double(b, "p99", native_tsc_to_unit(latency_percentile(&lat, 99)));
        report_add_int(b, "samples", lat.samples->len);
        json_builder_end_object(b);
    }
    json_builder_set_member_name(b, "per_thread");
    json_builder_begin_array(b);
    for (guint t = 0; t < nt; t++) {
        json_builder_begin_object(b);
        report_add_int(b, "cpu", ws[t]->cpu);
        report_add_int(b, "acquisitions", (gint64)ws[t]->marks.acquisitions);
        report_add_double(b, "cycles_waiting", native_tsc_to_unit(ws[t]->marks.waiting));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "fairness");
    json_builder_begin_object(b);
    report_add_int(b, "min", (gint64)min_a);
    report_add_double(b, "avg", (double)total / nt);
    report_add_int(b, "max", (gint64)max_a);
    json_builder_end_object(b);
    report_add_bool(b, "mutual_exclusion", v->mutex_ok);
    report_add_int(b, "counter", (gint64)v->counter);
    report_add_int(b, "in_cs_violations", (gint64)v->violations);
    report_add_int(b, "line_size", line);
    report_add_double(b, "work_unit_ns", work_ns);
    json_builder_set_member_name(b, "counters");
    g_autofree char *unavailable = native_perf_unavailable(&ws[0]->perf);
    if (unavailable) {
        json_builder_add_string_value(b, unavailable);
    } else {
        json_builder_begin_object(b);
        for (int i = 0; i < NATIVE_CTR_N; i++) {
            if (!ws[0]->perf.counted[i])
                continue; /* e.g. not an Intel core: no such event */
            guint64 sum = 0;
            for (guint t = 0; t < nt; t++)
                sum += ws[t]->perf.value[i];
            report_add_int(b, native_perf_names[i], (gint64)sum);
        }
        json_builder_end_object(b);
    }
    report_add_double(b, "host_seconds", (double)(native_now_ns() - host_t0) / 1e9);
    json_builder_end_object(b);
    latency_clear(&lat);
    return json_builder_get_root(b);
}

/* ------------------------------------------------------------------------------------------ */
/* The run                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Starts the workers pinned, releases them together, waits for them (after the duration in a
 * fixed-time run).  FALSE with an error when a thread cannot be started. */
static gboolean run_threads(Run *r, Worker **ws, guint nt, const NativeOptions *o, Span *s, GError **error)
{
    g_autofree pthread_t *tids = g_new0(pthread_t, nt);
    guint started = 0;
    int create_err = 0;
    for (; started < nt; started++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        native_pin_attr(&attr, ws[started]->cpu);
        create_err = pthread_create(&tids[started], &attr, worker_main, ws[started]);
        pthread_attr_destroy(&attr);
        if (create_err)
            break;
    }
    while (__atomic_load_n(&r->ready, __ATOMIC_SEQ_CST) < (int)started)
        g_usleep(100);
    if (create_err) {
        __atomic_store_n(&r->go, -1, __ATOMIC_RELEASE);
        for (guint t = 0; t < started; t++)
            pthread_join(tids[t], NULL);
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_SYSTEM, "cannot start a thread pinned to CPU %u: %s",
                    ws[started]->cpu, g_strerror(create_err));
        return FALSE;
    }
    s->ns0 = native_now_ns();
    s->st0 = native_tsc_read();
    __atomic_store_n(&r->go, 1, __ATOMIC_RELEASE);
    if (r->fixed_time) {
        g_usleep((gulong)o->duration_ms * 1000);
        __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
    }
    for (guint t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    s->st1 = native_tsc_read();
    s->ns1 = native_now_ns();
    return TRUE;
}

/* The line size memory is laid out for: 64, or the host's L1 line if it reports a larger one. */
static uint32_t host_line_size(void)
{
    long host_line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    return host_line > 64 && host_line <= 4096 ? (uint32_t)host_line : 64;
}

JsonNode *native_run(const NativeLock *lock, const NativeOptions *o, GError **error)
{
    uint64_t host_t0 = native_now_ns();
    Arch arch;
    if (!native_host_arch(&arch, error) || !check_options(o, error))
        return NULL;
    guint nt;
    g_autoptr(GArray) cpus = native_choose_cpus(o->cpus, o->threads, &nt, error);
    if (!cpus)
        return NULL;
    g_autoptr(IsaProgram) prog = NULL;
    g_autofree char *csrc = build_program(lock, o, nt, arch, &prog, error);
    if (!csrc)
        return NULL;
    g_autoptr(NativeModule) module = native_module_load(csrc, native_lock_compiler(lock),
                                                        native_lock_name(lock), error);
    if (!module)
        return NULL;
    Run r = { 0 };
    r.main = load_main(module, native_lock_name(lock), error);
    if (!r.main)
        return NULL;
    r.fixed_time = o->iterations == 0;
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

    guint64 cap = o->iterations ? o->iterations : RUN_TIMED_SAMPLES;
    cap = MIN(cap, MAX((guint64)4096, RUN_MAX_SAMPLES / nt));
    gsize wsize = (sizeof(Worker) + 127) / 128 * 128;
    Worker **ws = g_new0(Worker *, nt);
    for (guint t = 0; t < nt; t++) {
        Worker *w = aligned_alloc(128, wsize);
        memset(w, 0, wsize);
        w->run = &r;
        w->cpu = g_array_index(cpus, guint, t);
        native_marks_init(&w->marks, cap);
        w->mine = g_new0(uint64_t, lay->nsyms + 1);
        for (guint s = 0; s < lay->nsyms; s++)
            w->mine[s] = isa_sym_addr(lay, s, t);
        w->qt.mine = w->mine;
        w->qt.addr = lay->addr;
        w->qt.tid = t;
        w->qt.nthreads = nt;
        w->qt.mark = worker_mark;
        w->qt.runner = w;
        ws[t] = w;
    }
    double work_ns = native_work_unit_ns();
    JsonNode *root = NULL;
    Span span;
    if (run_threads(&r, ws, nt, o, &span, error)) {
        const char *fault = NULL;
        for (guint t = 0; t < nt && !fault; t++)
            fault = ws[t]->qt.fault;
        if (fault) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_INVALID, "%s", fault);
        } else {
            Verdict v = judge(prog, lay, ws, nt);
            root = build_report(lock, o, arch, ws, nt, &v, &span, line, work_ns, host_t0);
        }
    }
    for (guint t = 0; t < nt; t++) {
        native_marks_clear(&ws[t]->marks);
        g_free(ws[t]->mine);
        free(ws[t]);
    }
    g_free(ws);
    isa_layout_free(lay);
    free(block);
    return root;
}

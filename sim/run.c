/* The lock benchmark run: assemble lock + harness, build the machine, run it, and turn the
 * counters into the report.  Every number in the report comes from a counter or a timestamp
 * of the modelled run. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "sim/run.h"
#include "sim/base/report.h"
#include "sim/base/engine.h"
#include "sim/base/latency_stats.h"
#include "sim/machine.h"
#include "sim/verify.h"
#include "cores/asm.h"
#include "cores/isa_exec.h"
#include "coherence/memsys.h"

/* Programs are placed from here; any nonzero, line-aligned base works. */
#define RUN_MEMORY_BASE 0x10000
/* Without --jitter, threads still start a few cycles apart (seeded), so that seeds differ. */
#define RUN_DEFAULT_SKEW 32

void run_options_init(RunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->config = "haswell";
    o->threads = 2;
    o->iterations = 1000;
    o->cs_writes = 1;
    o->data = HARNESS_SEPARATE_LINE;
    o->seed = 1;
    o->placement = PLACE_FILL;
    o->host_time = TRUE;
}

void run_result_clear(RunResult *r)
{
    if (r->report)
        json_node_unref(r->report);
    g_free(r->failure);
    memset(r, 0, sizeof *r);
}

/* ---- marks: per-thread acquisition timestamps ---- */

typedef struct {
    guint nthreads;
    guint *thread_of_core;        /* indexed by core id */
    Cycle *call_began;            /* per thread: the open lock call's mark 1 */
    guint64 *acquisitions;
    guint64 *releases;
    guint64 *waiting;             /* cycles from mark 1 to mark 2, summed */
    LatencySamples latency;
} MarkLog;

static void on_mark(void *ctx, guint core, int64_t n, Cycle when)
{
    MarkLog *log = ctx;
    guint t = log->thread_of_core[core];
    switch (n) {
    case 1:
        log->call_began[t] = when;
        break;
    case 2:
        log->acquisitions[t]++;
        log->waiting[t] += when - log->call_began[t];
        latency_add(&log->latency, when - log->call_began[t]);
        break;
    case 3:
        log->releases[t]++;
        break;
    default:
        break;
    }
}

/* ---- report building ---- */

static double ratio(double a, double b) { return b ? a / b : 0; }

static gboolean load_lock(const RunOptions *o, char **name, char **text, GError **error)
{
    g_autofree char *path = NULL;
    if (o->lock_file) {
        path = g_strdup(o->lock_file);
        *name = g_strdup(o->lock_file);
    } else {
        path = verify_find_lock(o->lock ? o->lock : "", error);
        if (!path)
            return FALSE;
        *name = g_strdup(o->lock);
    }
    GError *local = NULL;
    if (!g_file_get_contents(path, text, NULL, &local)) {
        g_set_error(error, G_FILE_ERROR, local->code, "%s: %s", path, local->message);
        g_error_free(local);
        g_clear_pointer(name, g_free);
        return FALSE;
    }
    return TRUE;
}

/* --trace: each protocol table row as it fires, with the cycle and who it fired for. */
typedef struct {
    Engine *e;
    FILE *out;
} TraceCtx;

static void trace_row(void *user, guint core, uint64_t line, const char *row)
{
    TraceCtx *t = user;
    if (core == G_MAXUINT)
        fprintf(t->out, "%10" G_GUINT64_FORMAT "  home    line 0x%" G_GINT64_MODIFIER "x  %s\n", engine_now(t->e), line, row);
    else
        fprintf(t->out, "%10" G_GUINT64_FORMAT "  core %-3u line 0x%" G_GINT64_MODIFIER "x  %s\n", engine_now(t->e), core,
                line, row);
}

static void trace_core(void *user, guint core, Cycle when, const char *event)
{
    TraceCtx *t = user;
    fprintf(t->out, "%10" G_GUINT64_FORMAT "  core %-3u %s\n", when, core, event);
}

gboolean run_simulation(const RunOptions *o, RunResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    g_autoptr(QsimConfig) cfg = config_load(o->config, o->sets, error);
    if (!cfg)
        return FALSE;
    g_autofree guint *cores = g_new0(guint, MAX(o->threads, 1u));
    if (!placement_assign(cfg, o->placement, o->threads, cores, error))
        return FALSE;
    if (o->readers > o->threads) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--readers %u: more readers than threads (%u)", o->readers, o->threads);
        return FALSE;
    }
    if (o->duration == 0 && o->iterations == 0) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--iterations must be at least 1");
        return FALSE;
    }
    g_autofree char *lock_name = NULL, *lock_text = NULL;
    if (!load_lock(o, &lock_name, &lock_text, error))
        return FALSE;

    HarnessOptions h;
    harness_options_init(&h);
    h.threads = o->threads;
    /* Fixed-time runs loop "forever"; the cycle limit ends them. */
    h.iterations = o->duration ? G_MAXINT32 : o->iterations;
    h.cs_writes = o->cs_writes;
    h.data = o->data;
    h.cs_work = o->cs_work;
    h.think = o->think;
    h.readers = o->readers;
    g_autofree char *harness = harness_source(&h);
    AsmSource sources[] = { { lock_name, lock_text }, { "<harness>", harness } };
    g_autoptr(IsaProgram) prog = asm_assemble_sources(sources, G_N_ELEMENTS(sources), cfg->arch, error);
    if (!prog)
        return FALSE;

    gint64 host_start = g_get_monotonic_time();
    IsaLayout *layout = isa_layout_new(prog, o->threads, (uint32_t)cfg->line_size, RUN_MEMORY_BASE);
    Engine *engine = engine_new(o->seed);
    MemSys *ms = memsys_new(cfg, engine, error);
    if (!ms) {
        engine_free(engine);
        isa_layout_free(layout);
        return FALSE;
    }
    memsys_set_check(ms, o->check);
    TraceCtx trace = { engine, o->trace };
    if (o->trace)
        memsys_set_trace(ms, trace_row, &trace);
    Machine *m = machine_new(cfg, engine, &machine_memsys_ops, ms, prog, layout, o->threads, cores, error);
    if (!m) {
        memsys_free(ms);
        engine_free(engine);
        isa_layout_free(layout);
        return FALSE;
    }
    guint ncores = config_total_cores(cfg);
    MarkLog log = { .nthreads = o->threads };
    log.thread_of_core = g_new0(guint, ncores);
    for (guint t = 0; t < o->threads; t++)
        log.thread_of_core[cores[t]] = t;
    log.call_began = g_new0(Cycle, o->threads);
    log.acquisitions = g_new0(guint64, o->threads);
    log.releases = g_new0(guint64, o->threads);
    log.waiting = g_new0(guint64, o->threads);
    latency_init(&log.latency);
    machine_set_mark_hook(m, on_mark, &log);
    if (o->trace)
        machine_set_trace_hook(m, trace_core, &trace);
    machine_randomize_start(m, o->jitter ? o->jitter : RUN_DEFAULT_SKEW);
    if (o->jitter)
        machine_set_work_jitter(m, o->jitter);

    MachineOutcome outcome = machine_run(m, o->duration ? o->duration : CYCLE_NEVER);
    double host_seconds = (g_get_monotonic_time() - host_start) / 1e6;

    /* ---- verdicts ---- */
    int counter_sym = isa_program_find_sym(prog, HARNESS_COUNTER);
    int viol_sym = isa_program_find_sym(prog, HARNESS_VIOLATIONS);
    int lock_sym = isa_program_find_sym(prog, HARNESS_LOCK_WORD);
    g_assert(counter_sym >= 0 && viol_sym >= 0);
    uint64_t counter = memsys_peek(ms, isa_sym_addr(layout, (guint)counter_sym, 0), 8);
    uint64_t violations = memsys_peek(ms, isa_sym_addr(layout, (guint)viol_sym, 0), 8);
    guint64 acquisitions = 0, writer_releases = 0;
    for (guint t = 0; t < o->threads; t++) {
        acquisitions += log.acquisitions[t];
        if (t >= o->readers)
            writer_releases += log.releases[t];
    }
    /* Every completed writer critical section added one.  A run cut off by --duration may
     * leave one writer inside, its increment stored but not released, and a released
     * increment may still sit in a store buffer, not yet in memory: one per writer at most. */
    guint64 w = harness_writers(&h);
    gboolean counter_ok = o->duration ? counter + w >= writer_releases && counter <= writer_releases + 1
                                      : counter == w * o->iterations;
    gboolean stalled = outcome == MACHINE_STALLED;
    /* A stalled run never finished its work: the counter says nothing then, the flag still does. */
    gboolean mutex_ok = (counter_ok || stalled) && violations == 0;
    r->ok = mutex_ok && !stalled;
    if (!r->ok) {
        GString *why = g_string_new(NULL);
        if (stalled)
            g_string_append_printf(why, "the run stalled: no core retired anything for %" G_GINT64_FORMAT
                                        " cycles (run.stall_cycles)\n%s", cfg->run.stall_cycles,
                                   machine_stall_report(m));
        if (!mutex_ok)
            g_string_append_printf(why, "mutual exclusion violated: counter %" G_GUINT64_FORMAT
                                        " after %" G_GUINT64_FORMAT " writer releases, %" G_GUINT64_FORMAT
                                        " overlapping critical sections\n",
                                   counter, writer_releases, violations);
        r->failure = g_string_free(why, FALSE);
    }

    /* ---- the report ---- */
    CoreStats tot;
    machine_total_stats(m, &tot);
    const MemStats *mst = memsys_stats(ms);
    Cycle cycles = o->duration ? MIN(machine_cycles(m), o->duration) : machine_cycles(m);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", cfg->name);
    report_add_string(b, "arch", arch_name(cfg->arch));
    report_add_string(b, "lock", lock_name);
    report_add_int(b, "threads", o->threads);
    report_add_string(b, "placement", placement_name(o->placement));
    report_add_string(b, "data", o->data == HARNESS_SAME_LINE ? "same-line" : "separate-line");
    report_add_string(b, "mode", o->duration ? "fixed-time" : "fixed-work");
    report_add_int(b, "seed", (gint64)o->seed);
    report_add_int(b, "cycles", (gint64)cycles);
    report_add_int(b, "acquisitions", (gint64)acquisitions);
    report_add_double(b, "cycles_per_acquisition", ratio((double)cycles, (double)acquisitions));
    json_builder_set_member_name(b, "latency");
    json_builder_begin_object(b);
    report_add_double(b, "mean", latency_mean(&log.latency));
    report_add_int(b, "p50", (gint64)latency_percentile(&log.latency, 50));
    report_add_int(b, "p99", (gint64)latency_percentile(&log.latency, 99));
    json_builder_end_object(b);
    json_builder_set_member_name(b, "per_thread");
    json_builder_begin_array(b);
    guint64 amin = G_MAXUINT64, amax = 0;
    for (guint t = 0; t < o->threads; t++) {
        json_builder_begin_object(b);
        report_add_int(b, "core", cores[t]);
        report_add_string(b, "role", t < o->readers ? "reader" : "writer");
        report_add_int(b, "acquisitions", (gint64)log.acquisitions[t]);
        report_add_int(b, "cycles_waiting", (gint64)log.waiting[t]);
        json_builder_end_object(b);
        amin = MIN(amin, log.acquisitions[t]);
        amax = MAX(amax, log.acquisitions[t]);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "fairness");
    json_builder_begin_object(b);
    report_add_int(b, "min", (gint64)amin);
    report_add_double(b, "avg", ratio((double)acquisitions, o->threads));
    report_add_int(b, "max", (gint64)amax);
    json_builder_end_object(b);
    report_add_bool(b, "mutual_exclusion", mutex_ok);
    report_add_bool(b, "stalled", stalled);
    json_builder_set_member_name(b, "machine_clears");
    json_builder_begin_object(b);
    report_add_int(b, "memory_ordering", (gint64)tot.machine_clears);
    report_add_int(b, "branch", (gint64)tot.branch_mispredicts);
    report_add_int(b, "cycles_lost", (gint64)(tot.mc_penalty_cycles + tot.bm_penalty_cycles));
    report_add_int(b, "squashed_ops", (gint64)(tot.mc_squashed_ops + tot.bm_squashed_ops));
    json_builder_end_object(b);
    report_add_int(b, "pause_cycles", (gint64)tot.pause_cycles);
    json_builder_set_member_name(b, "atomics");
    json_builder_begin_object(b);
    report_add_int(b, "count", (gint64)tot.atomics);
    report_add_int(b, "failed_cas", (gint64)tot.cas_failed);
    report_add_int(b, "cycles", (gint64)tot.atomic_cycles);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "coherence");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "messages");
    json_builder_begin_object(b);
    for (guint i = 0; i < MSG__N; i++)
        report_add_int(b, memsys_msg_name((MsgType)i), (gint64)mst->msgs[i]);
    json_builder_end_object(b);
    guint64 inval = 0;
    for (guint c = 0; c < ncores; c++)
        inval += mst->inval_received[c];
    report_add_int(b, "invalidations", (gint64)inval);
    report_add_int(b, "rfo", (gint64)mst->rfos);
    report_add_int(b, "home_queue_cycles", (gint64)mst->home_queue_cycles);
    report_add_int(b, "hold_wait_cycles", (gint64)mst->hold_wait_cycles);
    if (lock_sym >= 0) {
        LineStats ls = memsys_line_stats(ms, isa_sym_addr(layout, (guint)lock_sym, 0));
        json_builder_set_member_name(b, "lock_line");
        json_builder_begin_object(b);
        report_add_int(b, "messages", (gint64)ls.msgs);
        report_add_int(b, "invalidations", (gint64)ls.invalidations);
        report_add_int(b, "rfo", (gint64)ls.rfos);
        report_add_int(b, "c2c_transfers", (gint64)ls.c2c_transfers);
        report_add_int(b, "home_queue_cycles", (gint64)ls.home_queue_cycles);
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
    report_add_double(b, "l1_hit_rate", ratio((double)mst->l1_hits, (double)(mst->l1_hits + mst->l1_misses)));
    report_add_int(b, "sim_instructions", (gint64)tot.insns_retired);
    /* Every core counter by name, summed over cores: the full explanation. */
    json_builder_set_member_name(b, "core_counters");
    json_builder_begin_object(b);
    for (guint i = 0; i < core_stats_count; i++)
        report_add_int(b, core_stats_table[i].name, (gint64)core_stats_get(&tot, i));
    json_builder_end_object(b);
    if (o->host_time) {
        report_add_double(b, "host_seconds", host_seconds);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        report_add_int(b, "host_peak_rss_kib", ru.ru_maxrss); /* Linux reports KiB */
    }
    json_builder_end_object(b);
    r->report = json_builder_get_root(b);

    latency_clear(&log.latency);
    g_free(log.thread_of_core);
    g_free(log.call_began);
    g_free(log.acquisitions);
    g_free(log.releases);
    g_free(log.waiting);
    machine_free(m);
    memsys_free(ms);
    engine_free(engine);
    isa_layout_free(layout);
    return TRUE;
}

static gint64 member_int(JsonObject *o, const char *path)
{
    g_auto(GStrv) parts = g_strsplit(path, ".", -1);
    for (guint i = 0; parts[i + 1]; i++) {
        if (!json_object_has_member(o, parts[i]))
            return 0;
        o = json_object_get_object_member(o, parts[i]);
    }
    guint last = g_strv_length(parts) - 1;
    return json_object_has_member(o, parts[last]) ? json_object_get_int_member(o, parts[last]) : 0;
}

char *run_headline(JsonNode *report)
{
    JsonObject *o = json_node_get_object(report);
    gint64 acq = MAX(json_object_get_int_member(o, "acquisitions"), 1);
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%s on %s (%s), %" G_GINT64_FORMAT " threads, %s data: %.1f cycles per acquisition%s\n",
                           json_object_get_string_member(o, "lock"), json_object_get_string_member(o, "config"),
                           json_object_get_string_member(o, "arch"), json_object_get_int_member(o, "threads"),
                           json_object_get_string_member(o, "data"),
                           json_object_get_double_member(o, "cycles_per_acquisition"),
                           json_object_get_boolean_member(o, "mutual_exclusion") ? "" : "  ** MUTUAL EXCLUSION VIOLATED **");
    g_string_append_printf(s, "  per acquisition: %.2f memory-ordering machine clears, %.2f lock-line RFOs, "
                              "%.2f lock-line invalidations, %.2f atomics (%.2f failed CAS), %.1f atomic cycles, "
                              "%.1f pause cycles\n\n",
                           (double)member_int(o, "machine_clears.memory_ordering") / acq,
                           (double)member_int(o, "coherence.lock_line.rfo") / acq,
                           (double)member_int(o, "coherence.lock_line.invalidations") / acq,
                           (double)member_int(o, "atomics.count") / acq,
                           (double)member_int(o, "atomics.failed_cas") / acq,
                           (double)member_int(o, "atomics.cycles") / acq,
                           (double)member_int(o, "pause_cycles") / acq);
    return g_string_free(s, FALSE);
}

/* Building a run's report (see run_report.h).  The headline counters are declared as a table
 * of formulas over named counters, so this file never reads a stats struct by field. */
#include <string.h>
#include <sys/resource.h>
#include "sim/report/run_report.h"
#include "sim/base/report.h"
#include "sim/report/run_profile.h"

typedef enum {
    HEAD_SUM,       /* the counters added up (an array or vector counts as its total) */
    HEAD_SHARE,     /* the first counter over the sum of all listed (0 when they are all 0) */
    HEAD_ELEMENTS,  /* an array counter's elements, as an object of their names */
} HeadlineKind;

typedef struct {
    const char *path;              /* dotted: parents become objects; a stable report key */
    const char *group;             /* CounterGroup id */
    HeadlineKind kind;
    const char *counters[3];       /* NULL-terminated when fewer */
    const char *doc;               /* what the figure means (docs/report.md); the unit is the
                                    * first counter's (a share has none) */
} HeadlineRow;

/* The figures that explain a lock's cost, in report order; rows with the same parent object
 * must be adjacent.  Full counter sets follow under each group's dump_key.  The keys are
 * stable: a change here is a change of docs/report.md and of everything that reads reports. */
static const HeadlineRow headline[] = {
    { "machine_clears.memory_ordering", "core", HEAD_SUM, { "machine_clears" },
      "memory-ordering machine clears: a load that ran early lost its line and was squashed with "
      "everything after it (all cores)" },
    { "machine_clears.sibling", "core", HEAD_SUM, { "machine_clears_sibling" },
      "of them, clears caused by the other hardware thread of a core (SMT): its store or atomic wrote a line "
      "in their shared L1 that a load had read before it retired (all cores; 0 without SMT siblings)" },
    { "machine_clears.penalty_cycles", "core", HEAD_SUM, { "mc_penalty_cycles" },
      "pipeline refill paid for them, core.machine_clear_penalty each (all cores; the squashed ops' "
      "re-execution is not included)" },
    { "machine_clears.squashed_ops", "core", HEAD_SUM, { "mc_squashed_ops" },
      "ops they squashed, which ran again (all cores)" },
    { "branch_mispredicts.count", "core", HEAD_SUM, { "branch_mispredicts" },
      "mispredicted branches (all cores)" },
    { "branch_mispredicts.penalty_cycles", "core", HEAD_SUM, { "bm_penalty_cycles" },
      "fetch refill paid for them, core.branch_mispredict_penalty each (all cores)" },
    { "branch_mispredicts.squashed_ops", "core", HEAD_SUM, { "bm_squashed_ops" },
      "wrong-path ops they squashed (all cores)" },
    { "paused_cycles", "core", HEAD_SUM, { "paused_cycles" },
      "cycles dispatch was held by PAUSE (arm64 YIELD), summed over cores" },
    { "atomics.count", "core", HEAD_SUM, { "atomics" }, "atomic read-modify-writes completed (all cores)" },
    { "atomics.failed_cas", "core", HEAD_SUM, { "cas_failed" },
      "compare-and-swaps that found another value (all cores)" },
    { "atomics.cycles", "core", HEAD_SUM, { "atomic_cycles" },
      "cycles atomics spent at the head of the ROB, summed over cores" },
    { "coherence.messages", "memory", HEAD_ELEMENTS, { "msgs" }, "coherence messages sent, one member per type" },
    { "coherence.invalidations", "memory", HEAD_SUM, { "inval_received" },
      "invalidations (Inv, Fwd-GetM) the cores received" },
    { "coherence.rfo", "memory", HEAD_SUM, { "rfos" }, "requests for ownership (GetM, Upgrade)" },
    { "coherence.home_queue_cycles", "memory", HEAD_SUM, { "home_queue_cycles" },
      "cycles requests waited at their home for a busy line, summed over requests" },
    { "coherence.hold_wait_cycles", "memory", HEAD_SUM, { "hold_wait_cycles" },
      "cycles snoops waited for an atomic's hold on its line, summed over snoops" },
    { "coherence.lock_line.messages", "lock_line", HEAD_SUM, { "msgs" }, "messages about the lock word's line" },
    { "coherence.lock_line.invalidations", "lock_line", HEAD_SUM, { "invalidations" },
      "copies of the lock's line invalidated" },
    { "coherence.lock_line.rfo", "lock_line", HEAD_SUM, { "rfos" },
      "requests for ownership of the lock's line" },
    { "coherence.lock_line.c2c_transfers", "lock_line", HEAD_SUM, { "c2c_transfers" },
      "cache-to-cache transfers of the lock's line" },
    { "coherence.lock_line.home_queue_cycles", "lock_line", HEAD_SUM, { "home_queue_cycles" },
      "cycles requests for the lock's line waited at its home" },
    { "coherence.lock_line.mem_writes", "lock_line", HEAD_SUM, { "mem_writes" },
      "DRAM writes of the lock's line" },
    { "coherence.lock_line.l1_misses", "lock_line", HEAD_SUM, { "l1_misses" },
      "accesses to the lock word's line that missed in their L1" },
    { "coherence.lock_lines.messages", "lock_lines", HEAD_SUM, { "messages" },
      "messages about the lock's lines: every line a variable the lock declares lives in (lock_word, "
      "queue nodes, slots; `lock_lines` names them), per-thread copies together" },
    { "coherence.lock_lines.invalidations", "lock_lines", HEAD_SUM, { "invalidations" },
      "copies of the lock's lines invalidated" },
    { "coherence.lock_lines.rfo", "lock_lines", HEAD_SUM, { "rfo" }, "requests for ownership of the lock's lines" },
    { "coherence.lock_lines.c2c_transfers", "lock_lines", HEAD_SUM, { "c2c_transfers" },
      "cache-to-cache transfers of the lock's lines" },
    { "coherence.lock_lines.l1_misses", "lock_lines", HEAD_SUM, { "l1_misses" },
      "accesses to the lock's lines that missed in their L1" },
    { "coherence.lock_lines.machine_clears", "lock_lines", HEAD_SUM, { "machine_clears" },
      "memory-ordering machine clears the lock's lines caused" },
    { "os.futex_syscalls", "os", HEAD_SUM, { "futex_syscalls" }, "futex_wait and futex_wake calls (all threads)" },
    { "os.sleeps", "os", HEAD_SUM, { "sleeps" }, "futex_wait calls that put their thread to sleep" },
    { "os.wakes", "os", HEAD_SUM, { "wakes" }, "threads woken by futex_wake" },
    { "os.context_switches", "os", HEAD_SUM, { "context_switches" }, "a core switching from one thread to another" },
    { "os.cycles_asleep", "os", HEAD_SUM, { "cycles_asleep" }, "cycles threads spent asleep in futex_wait, summed" },
    { "os.runqueue_wait_cycles", "os", HEAD_SUM, { "runqueue_wait_cycles" },
      "cycles runnable threads waited in a run queue for a core, summed" },
    { "os.wake_to_run_cycles", "os", HEAD_SUM, { "wake_to_run_cycles" },
      "cycles from a thread's wake-up to its running again, summed" },
    { "os.kernel_cycles", "os", HEAD_SUM, { "kernel_cycles" }, "cycles threads spent in the modelled kernel, summed" },
    { "l1_hit_rate", "memory", HEAD_SHARE, { "l1_hits", "l1_misses" },
      "share of core loads and stores that hit in the L1 (0 to 1)" },
    { "sim_instructions", "core", HEAD_SUM, { "insns_retired" }, "instructions retired, all cores" },
};

static double ratio(double a, double b) { return b ? a / b : 0; }

static const CounterGroup *find_group(const RunReportInput *in, const char *id)
{
    for (guint i = 0; i < in->ngroups; i++)
        if (!strcmp(in->groups[i].id, id))
            return in->groups[i].stats ? &in->groups[i] : NULL;
    return NULL;
}

static const CounterInfo *counter_of(const CounterGroup *g, const char *name)
{
    const CounterInfo *c = counters_find(g->registry, name);
    if (!c)
        g_error("report headline: %s has no counter '%s'", g->registry->name, name);
    return c;
}

/* ---- nested members from dotted paths ---- */

/* The objects open below the root, outermost first; objects once closed stay closed (a
 * second opening would write the key twice). */
typedef struct {
    JsonBuilder *b;
    GPtrArray *open;      /* of char * */
    GHashTable *closed;   /* dotted paths of closed objects */
} PathWriter;

static char *joined(GPtrArray *parts, guint n)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(s, "%s%s", i ? "." : "", (char *)parts->pdata[i]);
    return g_string_free(s, FALSE);
}

static void close_to(PathWriter *w, guint depth)
{
    while (w->open->len > depth) {
        g_hash_table_add(w->closed, joined(w->open, w->open->len));
        g_ptr_array_remove_index(w->open, w->open->len - 1);
        json_builder_end_object(w->b);
    }
}

/* Opens the parents of `path` and returns its last part, where the caller adds the member. */
static const char *enter(PathWriter *w, const char *path, char ***parts_out)
{
    char **parts = g_strsplit(path, ".", -1);
    guint n = g_strv_length(parts) - 1, same = 0;
    while (same < w->open->len && same < n && !strcmp(w->open->pdata[same], parts[same]))
        same++;
    close_to(w, same);
    for (guint i = same; i < n; i++) {
        g_ptr_array_add(w->open, g_strdup(parts[i]));
        g_autofree char *p = joined(w->open, w->open->len);
        g_assert(!g_hash_table_contains(w->closed, p)); /* headline rows of one object are adjacent */
        json_builder_set_member_name(w->b, parts[i]);
        json_builder_begin_object(w->b);
    }
    *parts_out = parts;
    return parts[n];
}

static void add_headline(PathWriter *w, const HeadlineRow *row, const CounterGroup *g)
{
    char **parts;
    const char *leaf = enter(w, row->path, &parts);
    const CounterInfo *first = counter_of(g, row->counters[0]);
    switch (row->kind) {
    case HEAD_SUM: {
        guint64 sum = 0;
        for (guint i = 0; i < G_N_ELEMENTS(row->counters) && row->counters[i]; i++)
            sum += counter_total(counter_of(g, row->counters[i]), g->stats);
        report_add_int(w->b, leaf, (gint64)sum);
        break;
    }
    case HEAD_SHARE: {
        guint64 all = 0;
        for (guint i = 0; i < G_N_ELEMENTS(row->counters) && row->counters[i]; i++)
            all += counter_total(counter_of(g, row->counters[i]), g->stats);
        report_add_double(w->b, leaf, ratio((double)counter_total(first, g->stats), (double)all));
        break;
    }
    case HEAD_ELEMENTS:
        g_assert(first->shape == COUNTER_ARRAY);
        json_builder_set_member_name(w->b, leaf);
        json_builder_begin_object(w->b);
        for (guint k = 0; k < first->len; k++)
            report_add_int(w->b, first->elem_name(k), (gint64)counter_elem(first, g->stats, k));
        json_builder_end_object(w->b);
        break;
    }
    g_strfreev(parts);
}

/* ---- the sections ---- */

/* The runner's own members at `at` (see RunReportInput.extra). */
static void add_extra(JsonBuilder *b, const RunReportInput *in, RunReportPlace at)
{
    JsonObject *o = in->extra[at];
    if (!o)
        return;
    g_autoptr(GList) names = json_object_get_members(o);
    for (GList *l = names; l; l = l->next) {
        json_builder_set_member_name(b, l->data);
        json_builder_add_value(b, json_node_copy(json_object_get_member(o, l->data)));
    }
}

static void add_identity(JsonBuilder *b, const RunReportInput *in)
{
    report_add_string(b, "config", in->config);
    report_add_string(b, "arch", in->arch);
    report_add_string(b, "lock", in->lock);
    workload_add_json(in->workload, in->command, b);
    report_add_string(b, "mode", workload_fixed_time(in->workload) ? "fixed-time" : "fixed-work");
    if (in->seed)
        report_add_int(b, "seed", (gint64)*in->seed);
    add_extra(b, in, RUN_REPORT_IDENTITY);
}

static void add_marks(JsonBuilder *b, const RunReportInput *in)
{
    MarkLog *log = in->marks;
    g_assert(log->merged);
    guint64 acquisitions = mark_log_acquisitions(log);
    if (in->cycles)
        report_add_int(b, "cycles", (gint64)*in->cycles);
    report_add_int(b, "acquisitions", (gint64)acquisitions);
    if (in->cycles) {
        /* No acquisition, no cost per acquisition: null, never a 0 that reads as free. */
        if (acquisitions) {
            report_add_double(b, "cycles_per_acquisition", (double)*in->cycles / (double)acquisitions);
        } else {
            json_builder_set_member_name(b, "cycles_per_acquisition");
            json_builder_add_null_value(b);
        }
        /* throughput, which unfair runs cannot distort the way a fixed amount of work can */
        report_add_double(b, "acquisitions_per_kcycle", ratio(1000.0 * (double)acquisitions, (double)*in->cycles));
    }
    add_extra(b, in, RUN_REPORT_TOTALS);
    json_builder_set_member_name(b, "latency");
    json_builder_begin_object(b);
    report_add_double(b, "mean", latency_mean(&log->latency));
    report_add_int(b, "p50", (gint64)latency_percentile(&log->latency, 50));
    report_add_int(b, "p99", (gint64)latency_percentile(&log->latency, 99));
    add_extra(b, in, RUN_REPORT_LATENCY);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "per_thread");
    json_builder_begin_array(b);
    guint64 amin = G_MAXUINT64, amax = 0;
    for (guint t = 0; t < log->nthreads; t++) {
        const MarkLogThread *r = log->threads[t];
        json_builder_begin_object(b);
        report_add_int(b, in->place_key, in->place[t]);
        if (in->place_cpu)
            report_add_int(b, "cpu", in->place_cpu[t]);
        report_add_string(b, "role", t < in->workload->readers ? "reader" : "writer");
        report_add_int(b, "acquisitions", (gint64)r->acquisitions);
        report_add_int(b, "cycles_waiting", (gint64)r->waiting);
        json_builder_end_object(b);
        amin = MIN(amin, r->acquisitions);
        amax = MAX(amax, r->acquisitions);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "fairness");
    json_builder_begin_object(b);
    report_add_int(b, "min", (gint64)(log->nthreads ? amin : 0));
    report_add_double(b, "avg", ratio((double)acquisitions, log->nthreads));
    report_add_int(b, "max", (gint64)amax);
    if (in->longest_streak)
        report_add_int(b, "longest_streak", (gint64)*in->longest_streak);
    json_builder_end_object(b);
}

static void add_counters(JsonBuilder *b, const RunReportInput *in)
{
    PathWriter w = { b, g_ptr_array_new_with_free_func(g_free),
                     g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
    for (guint i = 0; i < G_N_ELEMENTS(headline); i++) {
        const CounterGroup *g = find_group(in, headline[i].group);
        if (g)
            add_headline(&w, &headline[i], g);
    }
    close_to(&w, 0);
    g_ptr_array_unref(w.open);
    g_hash_table_unref(w.closed);
    for (guint i = 0; i < in->ngroups; i++) {
        const CounterGroup *g = &in->groups[i];
        if (!g->dump_key)
            continue;
        if (!g->stats) {
            if (g->unavailable) {
                g_autofree char *why = g_strdup_printf("unavailable (%s)", g->unavailable);
                report_add_string(b, g->dump_key, why);
            }
            continue;
        }
        json_builder_set_member_name(b, g->dump_key);
        json_builder_begin_object(b);
        counters_add_json(g->registry, g->stats, b);
        json_builder_end_object(b);
    }
}

JsonNode *run_report_build(const RunReportInput *in)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    add_identity(b, in);
    add_marks(b, in);
    for (guint i = 0; i < in->nverdicts; i++)
        report_add_bool(b, in->verdicts[i].key, in->verdicts[i].value);
    add_extra(b, in, RUN_REPORT_VERDICTS);
    add_counters(b, in);
    add_extra(b, in, RUN_REPORT_END);
    if (in->host_time) {
        report_add_double(b, "host_seconds", in->host_seconds);
        if (in->host_cpu_seconds)
            report_add_double(b, "host_cpu_seconds", *in->host_cpu_seconds);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        report_add_int(b, "host_peak_rss_kib", ru.ru_maxrss); /* Linux reports KiB */
        if (in->fast_forward_share)
            report_add_double(b, "host_fast_forward_share", *in->fast_forward_share);
    }
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

static const char *headline_made_of(const HeadlineRow *row, GString *s)
{
    static const char *const joiner[] = { [HEAD_SUM] = " + ", [HEAD_SHARE] = " + ", [HEAD_ELEMENTS] = "" };
    GString *terms = g_string_new(NULL);
    for (guint k = 0; k < G_N_ELEMENTS(row->counters) && row->counters[k]; k++)
        g_string_append_printf(terms, "%s`%s`", k ? joiner[row->kind] : "", row->counters[k]);
    switch (row->kind) {
    case HEAD_SUM:
        g_string_append(s, terms->str);
        break;
    case HEAD_SHARE:
        g_string_append_printf(s, "`%s` / (%s)", row->counters[0], terms->str);
        break;
    case HEAD_ELEMENTS:
        g_string_append_printf(s, "%s, one member per element", terms->str);
        break;
    }
    g_string_free(terms, TRUE);
    return s->str;
}

char *run_report_headline_markdown(void)
{
    GString *s = g_string_new("| key | group | value |\n|---|---|---|\n");
    for (guint i = 0; i < G_N_ELEMENTS(headline); i++) {
        g_string_append_printf(s, "| `%s` | %s | ", headline[i].path, headline[i].group);
        headline_made_of(&headline[i], s);
        g_string_append(s, " |\n");
    }
    return g_string_free(s, FALSE);
}

/* ---- the key reference (docs/report.md) ---- */

/* A key the builder writes itself; `N` in a key stands for an array index. */
typedef struct {
    const char *key;
    const char *unit;
    const char *doc;
} ReportKeyDoc;

/* In report order, split where the workload echo and the counters go between them. */
static const ReportKeyDoc identity_keys[] = {
    { "schema_version", "1", "the version of docs/report.schema.json the document follows (JSON and CSV)" },
    { "kind", "report, summary, pair, ...", "what the document is (below: One schema); a run's is `report`" },
    { "config", "name", "the machine config's `name` (`native` for a run on the host)" },
    { "arch", "x86, arm64", "the architecture the lock ran as" },
    { "lock", "name or path", "the lock as given to --lock (or --lock-file)" },
};
static const ReportKeyDoc result_keys[] = {
    { "mode", "fixed-work, fixed-time", "whether the run did a number of iterations or ran for a duration" },
    { "harness", "scenario", "only in a `--scenario` run: each thread called the scenario's `body`, no lock and no "
                             "mutual-exclusion verdict (docs/teaching.md); `acquisitions` then counts those calls" },
    { "seed", "integer", "the seed of every random stream of the run (model runs)" },
    { "smt_siblings", "list", "the threads that share a core (SMT), one `{core, threads: \"A+B\"}` per core; empty "
                              "when none do" },
    { "cycles", "cycles", "the run's length: from the start to the last thread's end, or the duration "
                          "(model: simulated core cycles; host: time-stamp-counter cycles, x86 only)" },
    { "acquisitions", "acquisitions", "lock acquisitions, all threads together" },
    { "cycles_per_acquisition", "cycles", "cycles / acquisitions: the run's length per acquisition of any thread "
                                          "(null when there was no acquisition)" },
    { "acquisitions_per_kcycle", "acquisitions", "1000 x acquisitions / cycles: throughput, which a fixed-time run "
                                                 "measures without the bias an unfair lock gives fixed work" },
    { "latency.mean", "cycles", "mean time from calling `lock` to holding the lock, over all acquisitions "
                                "(host: see latency.unit)" },
    { "latency.p50", "cycles", "its median" },
    { "latency.p99", "cycles", "its 99th percentile" },
    { "per_thread.N.core", "core index", "thread N: the core it ran on (model runs; `cpu` on the host)" },
    { "per_thread.N.cpu", "logical CPU", "thread N: the logical CPU it ran on, as Linux numbers them (the host's; on "
                                         "the model, only when a thread runs on a core's second hardware thread: CPU c "
                                         "is thread c / cores of core c mod cores)" },
    { "per_thread.N.role", "reader, writer", "thread N: which side of the lock it took" },
    { "per_thread.N.acquisitions", "acquisitions", "thread N: its acquisitions" },
    { "per_thread.N.cycles_waiting", "cycles", "thread N: time between calling `lock` and holding it, summed" },
    { "fairness.min", "acquisitions", "the fewest acquisitions of any thread (near 0: starvation)" },
    { "fairness.avg", "acquisitions", "acquisitions per thread" },
    { "fairness.max", "acquisitions", "the most acquisitions of any thread" },
    { "fairness.longest_streak", "acquisitions", "the most acquisitions one thread made in a row, none by another "
                                                 "between (model runs): a run locked into one interleaving shows a "
                                                 "long one (`qsim run` warns)" },
    { "mutual_exclusion", "boolean", "no two threads were inside a critical section at once and the shared "
                                     "counter holds every increment" },
    { "stalled", "boolean", "a watchdog of the model ended the run (exit 1): no core retired for run.stall_cycles, or "
                            "no thread acquired or released the lock for --progress-cycles "
                            "(docs/robustness.md)" },
    { "faulted", "boolean", "an op of the lock faulted (an unaligned access, one outside the program's memory, `la` "
                            "of a thread that does not exist, calls nested past 64, a `ret` with nothing to return "
                            "to) and every core stopped there (model runs; exit 1)" },
    { "halted_in_lock", "boolean", "a thread reached a `halt` in the lock's code, leaving its loop unfinished "
                                   "(model runs; exit 1)" },
};
static const ReportKeyDoc host_keys[] = {
    { "host_seconds", "seconds", "host time the run took (left out by --no-host-time)" },
    { "host_cpu_seconds", "seconds", "CPU time (user + system) the simulation took, model runs (left out by "
                                     "--no-host-time; docs/performance.md)" },
    { "host_peak_rss_kib", "KiB", "the qsim process's peak resident memory (left out by --no-host-time)" },
    { "host_fast_forward_share", "share", "core-cycles fast-forwarded over all core-cycles, model runs (left out "
                                          "by --no-host-time; docs/performance.md)" },
};

static const ReportKeyDoc variable_keys[] = {
    { "lock_lines", "names", "the lock's lines, as `variables` names them (space-separated): every line a variable the "
                             "lock declares lives in; `coherence.lock_lines.*` sums their counters" },
    { "variables.*", "per counter", "every line the program's variables live in, under their names (variables sharing "
                                    "a line together, `+`-joined; a per-thread variable's copies together): `lines`, "
                                    "then messages, invalidations, rfo, c2c_transfers, l1_misses and machine_clears "
                                    "over the measured window (model runs); over all names they add up to "
                                    "`coherence.rfo`, `coherence.invalidations`, `memory_system.c2c_transfers`, "
                                    "`memory_system.l1_misses` and `machine_clears.memory_ordering`" },
};

static const ReportKeyDoc provenance_keys[] = {
    { "provenance.qsim", "version", "the qsim that made the report" },
    { "provenance.commit", "git commit", "its commit (`-dirty`: with changes not committed; `unknown`: built from a "
                                         "tree without git)" },
    { "provenance.command", "text", "the command line, as a shell reads it back (absent for runs a sweep or a study "
                                    "makes)" },
    { "provenance.config.name", "name", "the config's `name`" },
    { "provenance.config.path", "path", "the file it was read from (absent when it came as text: a replay)" },
    { "provenance.config.sha256", "hex", "SHA-256 of the effective config as `qsim config NAME --set ...` prints it: "
                                         "two reports with the same hash ran on the same machine model" },
    { "provenance.config.sets", "key=value", "the --set overrides, in order (already in the hash)" },
    { "provenance.lock.name", "name", "the lock as given" },
    { "provenance.lock.path", "path", "the source file read" },
    { "provenance.lock.sha256", "hex", "SHA-256 of that source" },
};

static void key_rows(GString *s, const ReportKeyDoc *rows, guint n)
{
    for (guint i = 0; i < n; i++)
        g_string_append_printf(s, "| `%s` | %s | %s |\n", rows[i].key, rows[i].unit, rows[i].doc);
}

static const CounterGroup *doc_group(const CounterGroup *groups, guint n, const char *id)
{
    for (guint i = 0; i < n; i++)
        if (!strcmp(groups[i].id, id))
            return &groups[i];
    return NULL;
}

/* `key` is `pattern`, where an `N` component of the pattern stands for an array index. */
static gboolean key_matches(const char *pattern, const char *key)
{
    g_auto(GStrv) p = g_strsplit(pattern, ".", -1), k = g_strsplit(key, ".", -1);
    if (g_strv_length(p) != g_strv_length(k))
        return FALSE;
    for (guint i = 0; p[i]; i++) {
        gboolean index = !strcmp(p[i], "N") && *k[i] && strspn(k[i], "0123456789") == strlen(k[i]);
        if (!index && strcmp(p[i], k[i]))
            return FALSE;
    }
    return TRUE;
}

static const char *unit_in(const ReportKeyDoc *rows, guint n, const char *key)
{
    for (guint i = 0; i < n; i++)
        if (key_matches(rows[i].key, key))
            return rows[i].unit;
    return NULL;
}

const char *run_report_key_unit(const CounterGroup *groups, guint ngroups, const char *key)
{
    const ReportKeyDoc *tables[] = { identity_keys, result_keys, host_keys, provenance_keys, variable_keys };
    const guint lens[] = { G_N_ELEMENTS(identity_keys), G_N_ELEMENTS(result_keys), G_N_ELEMENTS(host_keys),
                           G_N_ELEMENTS(provenance_keys), G_N_ELEMENTS(variable_keys) };
    for (guint t = 0; t < G_N_ELEMENTS(tables); t++) {
        const char *u = unit_in(tables[t], lens[t], key);
        if (u)
            return u;
    }
    for (guint i = 0; i < workload_schema_len; i++)
        if (!strcmp(workload_schema[i].name, key))
            return workload_schema[i].unit ? workload_schema[i].unit : "count";
    for (guint i = 0; i < G_N_ELEMENTS(headline); i++) {
        const HeadlineRow *row = &headline[i];
        gsize len = strlen(row->path);
        gboolean here = !strcmp(key, row->path) ||
                        (row->kind == HEAD_ELEMENTS && !strncmp(key, row->path, len) && key[len] == '.');
        const CounterGroup *g = here ? doc_group(groups, ngroups, row->group) : NULL;
        if (g)
            return row->kind == HEAD_SHARE ? "share" : counter_of(g, row->counters[0])->unit;
    }
    /* every counter of a group under its dump key: "cores_summed.atomic_cycles" */
    for (guint i = 0; i < ngroups; i++) {
        const char *dk = groups[i].dump_key;
        gsize len = dk ? strlen(dk) : 0;
        if (!dk || strncmp(key, dk, len) || key[len] != '.')
            continue;
        g_autofree char *name = g_strdup(key + len + 1);
        char *dot = strchr(name, '.');   /* an array counter's element */
        if (dot)
            *dot = 0;
        const CounterInfo *c = counters_find(groups[i].registry, name);
        if (c)
            return c->unit;
    }
    return NULL;
}

char *run_report_reference_markdown(const CounterGroup *groups, const char *const *dump_docs, guint ngroups)
{
    GString *s = g_string_new("| key | unit | meaning |\n|---|---|---|\n");
    key_rows(s, identity_keys, G_N_ELEMENTS(identity_keys));
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & WL_RUN))
            continue;
        g_autofree char *unit = k->choices ? g_strjoinv(", ", (char **)k->choices)
                                                    : g_strdup(k->unit ? k->unit : "count");
        g_string_append_printf(s, "| `%s` | %s | workload (`--%s`): %s%s |\n", k->name, unit, k->flag, k->help,
                               k->mode == WL_FIXED_WORK   ? "; fixed-work runs only"
                               : k->mode == WL_FIXED_TIME ? "; fixed-time runs only"
                                                          : "");
    }
    key_rows(s, result_keys, G_N_ELEMENTS(result_keys));
    g_string_append(s, "\nThe headline counters follow, each a sum or share of the counters of a group "
                       "(docs/counters.md):\n\n| key | unit | meaning | made of |\n|---|---|---|---|\n");
    for (guint i = 0; i < G_N_ELEMENTS(headline); i++) {
        const HeadlineRow *row = &headline[i];
        const CounterGroup *g = doc_group(groups, ngroups, row->group);
        g_assert(g); /* every headline group has a registry */
        const CounterInfo *first = counter_of(g, row->counters[0]);
        g_string_append_printf(s, "| `%s%s` | %s | %s | ", row->path, row->kind == HEAD_ELEMENTS ? ".*" : "",
                               row->kind == HEAD_SHARE ? "share" : first->unit, row->doc);
        headline_made_of(row, s);
        g_string_append_printf(s, " (%s) |\n", g->registry->name);
    }
    g_string_append(s, "\nThen every counter of each group, under its own key:\n\n"
                       "| key | unit | meaning |\n|---|---|---|\n");
    for (guint i = 0; i < ngroups; i++)
        if (groups[i].dump_key)
            g_string_append_printf(s, "| `%s.*` | per counter | every %s counter by name (docs/counters.md)%s |\n",
                                   groups[i].dump_key, groups[i].registry->name,
                                   dump_docs && dump_docs[i] ? dump_docs[i] : "");
    g_string_append(s, "\nThen the counters of each variable's lines (sim/run/run_vars.h):\n\n"
                       "| key | unit | meaning |\n|---|---|---|\n");
    key_rows(s, variable_keys, G_N_ELEMENTS(variable_keys));
    g_string_append(s, "\nThen where the report came from (model runs; sim/report/provenance.h), so that it can be traced "
                       "to its inputs, and `qsim run --out DIR` keeps the inputs themselves:\n\n"
                       "| key | unit | meaning |\n|---|---|---|\n");
    key_rows(s, provenance_keys, G_N_ELEMENTS(provenance_keys));
    g_autofree char *profile = run_profile_keys_markdown();
    g_string_append_printf(s, "\nWith `qsim run --profile` (model runs), the per-instruction profile: one object per "
                              "source line holding an op, in source order (the lock's lines, then the harness's):\n\n"
                              "| key | unit | meaning |\n|---|---|---|\n%s", profile);
    g_string_append(s, "\nLast, unless --no-host-time:\n\n| key | unit | meaning |\n|---|---|---|\n");
    key_rows(s, host_keys, G_N_ELEMENTS(host_keys));
    g_string_append(
        s, "\n## One schema: the documents around reports\n\n"
           "Every JSON document qsim writes for results starts with `schema_version` (1) and `kind`, and "
           "docs/report.schema.json (JSON Schema, draft 2020-12) describes each kind; `make check` validates every "
           "mode's output against it (tests/test_report_schema.c). Two runs side by side are keyed by role, `a` "
           "(`--lock`, or the model) and `b` (`--vs`, or the host for `--native`), never by lock name. A summary of "
           "runs over seeds keeps the report's layout, each measured number replaced by its statistics `{n, mean, "
           "sd, median, min, max, ci95_low, ci95_high, interval}`; what was asked for (threads, iterations, the "
           "first `seed`; run i has seed + i) stays a plain number; a property such as `mutual_exclusion` holds if "
           "it held in every run, a fault flag (`stalled`, `faulted`, `halted_in_lock`, `disturbed`) if it held in "
           "any.\n\n"
           "| command | `kind` | the document |\n|---|---|---|\n"
           "| `qsim run`, `qsim native` | `report` | the report above (native: docs/native.md) |\n"
           "| `qsim run --repeat N`, `qsim native --repeat N` | `summary` | the report's layout summarised, `repeat` "
           "(N) after `mode`; the model's adds `ok`, the host's `disturbed_runs` and `runs` (each report) |\n"
           "| `qsim run --vs B`, `--native` | `pair` | `{labels: {a, b}, a: report, b: report, b_over_a}`: b / a at "
           "every number both hold at the same place (null where a's is 0) |\n"
           "| `qsim run --repeat N --vs B` | `pair` | `{labels, a: summary, b: summary, b_over_a}`: at each number "
           "both summarised, `{ratio, ci95_low, ci95_high, significant, interval}` |\n"
           "| `qsim validate --host` | `validate-host` | `{config, unit, placement, rows: [{lock, threads, data, "
           "host: stats, model: stats, model_over_host, mutual_exclusion, host_runs_disturbed}], median_abs_error, "
           "spearman, provenance}` |\n"
           "| `qsim validate` | `validation` | `{rows, failed, provenance}` (docs/validation.md) |\n"
           "| `qsim compare` | `compare` | `{config, a, b, ratio, seeds, iterations, jitter, summary, timings?, "
           "check_seeds?, window?, warmup?, rows: [{workload, data, threads, placement, b_over_a, "
           "a_without_rollback, published?, per_acquisition, verdict, regimes, window?, timing?, clear_penalty?}], "
           "study, ok, provenance}` |\n"
           "\nCSV, in every mode that has it (run, native, their `--repeat`, `--vs`, `--native`): the same document "
           "flattened, one header and one row, nested keys joined with dots (`cycles.mean`, `a.config`, "
           "`b_over_a.cycles.ratio`), so the identity columns (`schema_version`, `kind`, `config`, `lock`, "
           "`threads`, ...) are in every row. The version goes up when a key changes meaning or goes away; a new "
           "key keeps it.\n"
           "\nIntervals: 95%, of the mean over the runs; for numbers that are never below 0, Student's t on the log "
           "of the mean (delta method; `interval: t-log`), so never below 0; a ratio of two means likewise on the log "
           "scale; a sample with a value below 0 keeps the symmetric t interval (`interval: t`; sim/base/sample_stats.h "
           "says why); one run has none (`point`). The text output names the method and n.\n");
    return g_string_free(s, FALSE);
}

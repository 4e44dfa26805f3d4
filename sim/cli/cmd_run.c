/* `qsim run`: the lock benchmark on a machine model (also `qsim --config X --lock Y`). */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/report.h"
#include "sim/run.h"
#include "locks/native_run.h"

/* The keys `--vs` prints side by side: the result and the counters that explain it. */
static const char *const compare_keys[] = {
    "cycles", "cycles_per_acquisition", "latency.mean", "latency.p99", "fairness.min", "fairness.max",
    "mutual_exclusion", "machine_clears.memory_ordering", "machine_clears.branch", "machine_clears.cycles_lost",
    "machine_clears.squashed_ops", "pause_cycles", "atomics.count", "atomics.failed_cas", "atomics.cycles",
    "coherence.rfo", "coherence.invalidations", "coherence.lock_line.messages", "coherence.lock_line.rfo",
    "coherence.lock_line.invalidations", "coherence.lock_line.c2c_transfers", "coherence.hold_wait_cycles",
    "l1_hit_rate", "sim_instructions", NULL,
};

/* The keys a model run and a native run share, for `--native`. */
static const char *const native_keys[] = {
    "threads", "acquisitions", "cycles_per_acquisition", "latency.mean", "latency.p50", "latency.p99",
    "fairness.min", "fairness.avg", "fairness.max", "mutual_exclusion", NULL,
};

static JsonNode *select_keys(JsonNode *report, const char *const *compare_keys)
{
    GArray *f = report_flatten(report);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    for (guint k = 0; compare_keys[k]; k++)
        for (guint i = 0; i < f->len; i++) {
            ReportField *r = &g_array_index(f, ReportField, i);
            if (strcmp(r->key, compare_keys[k]))
                continue;
            json_builder_set_member_name(b, r->key);
            if (r->numeric)
                json_builder_add_double_value(b, r->number);
            else
                json_builder_add_string_value(b, r->value);
        }
    json_builder_end_object(b);
    report_fields_free(f);
    return json_builder_get_root(b);
}

/* The same lock and workload on the host, printed beside the model's report.  Cycles differ in
 * kind: the model's are the modelled core's, the host's are its time-stamp counter's. */
static int run_native_beside(const RunOptions *o, JsonNode *model)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(NativeLock) lock = o->lock_file ? native_lock_from_file(o->lock_file, &error)
                                              : native_lock_builtin(o->lock, &error);
    if (!lock)
        return cli_fail(error);
    NativeOptions n;
    native_options_init(&n);
    n.threads = o->threads;
    n.iterations = o->iterations;
    n.cs_writes = o->cs_writes;
    n.data_same_line = o->data == HARNESS_SAME_LINE;
    n.cs_work = o->cs_work;
    n.think = o->think;
    JsonNode *host = native_run(lock, &n, &error);
    if (!host)
        return cli_fail(error);
    g_autofree char *head = run_headline(model);
    JsonNode *a = select_keys(model, native_keys), *b = select_keys(host, native_keys);
    g_autofree char *table = report_compare_text(a, b, "model", "host");
    printf("%s(host cycles are time-stamp-counter cycles of this machine; model cycles are the modelled core's)\n\n%s",
           head, table);
    gboolean ok = json_object_get_boolean_member(json_node_get_object(host), "mutual_exclusion");
    json_node_unref(a);
    json_node_unref(b);
    json_node_unref(host);
    if (!ok)
        fprintf(stderr, "qsim run: the native run violated mutual exclusion\n");
    return ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}

int cmd_run(int argc, char **argv)
{
    RunOptions o;
    run_options_init(&o);
    g_auto(GStrv) sets = NULL;
    g_autofree char *config = NULL, *lock = NULL, *lock_file = NULL, *data = NULL, *format = NULL,
                    *placement = NULL, *vs = NULL;
    gint threads = (gint)o.threads, iterations = (gint)o.iterations, cs_writes = (gint)o.cs_writes;
    gint cs_work = 0, think = 0, jitter = 0, readers = 0, writers = -1;
    gint64 duration = 0, seed = (gint64)o.seed;
    gboolean check = FALSE, no_host_time = FALSE, native = FALSE, trace = FALSE;
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Machine config: a name from `qsim list configs` or a path (default haswell)", "CFG" },
        { "lock", 'l', 0, G_OPTION_ARG_STRING, &lock, "Built-in lock (`qsim list locks`)", "NAME" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME, &lock_file, "Your own lock source (see docs/isa.md)", "PATH" },
        { "threads", 't', 0, G_OPTION_ARG_INT, &threads, "Threads, one per core (default 2)", "N" },
        { "iterations", 'i', 0, G_OPTION_ARG_INT, &iterations, "Fixed-work mode: acquisitions per thread (default 1000)", "N" },
        { "duration", 'd', 0, G_OPTION_ARG_INT64, &duration, "Fixed-time mode: run this many cycles, count operations", "CYCLES" },
        { "cs-writes", 0, 0, G_OPTION_ARG_INT, &cs_writes, "Extra shared words written in each critical section (default 1)", "N" },
        { "data", 0, 0, G_OPTION_ARG_STRING, &data, "Critical-section data in the lock's line (workload A) or its own (B; default)", "same-line|separate-line" },
        { "cs-work", 0, 0, G_OPTION_ARG_INT, &cs_work, "Compute cycles inside the critical section (hold time)", "CYCLES" },
        { "think", 0, 0, G_OPTION_ARG_INT, &think, "Compute cycles between release and the next acquire", "CYCLES" },
        { "jitter", 0, 0, G_OPTION_ARG_INT, &jitter, "Randomise think time and start skew by up to this much (seeded)", "CYCLES" },
        { "readers", 0, 0, G_OPTION_ARG_INT, &readers, "qrwlock: threads taking the read side", "N" },
        { "writers", 0, 0, G_OPTION_ARG_INT, &writers, "qrwlock: threads taking the write side (threads = readers + writers)", "N" },
        { "placement", 0, 0, G_OPTION_ARG_STRING, &placement, "Thread placement: fill (socket by socket; default) or spread (round-robin over sockets)", "fill|spread" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of every random stream (default 1)", "S" },
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a config value (repeatable), e.g. --set core.pause_cycles=140", "KEY=VALUE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Report format (default text)", "text|json|csv" },
        { "check", 0, 0, G_OPTION_ARG_NONE, &check, "Check coherence invariants after every transition (slow)", NULL },
        { "trace", 0, 0, G_OPTION_ARG_NONE, &trace, "Print every coherence protocol row as it fires (cycle, core or home, line, row) on stderr: for watching MESI/MOESI at work on a short run", NULL },
        { "no-host-time", 0, 0, G_OPTION_ARG_NONE, &no_host_time, "Leave host_seconds out, so that reports compare byte for byte", NULL },
        { "vs", 0, 0, G_OPTION_ARG_STRING, &vs, "Also run built-in lock NAME with the same options; print both side by side", "NAME" },
        { "native", 0, 0, G_OPTION_ARG_NONE, &native, "Also run the same lock and workload natively on this host (`qsim native`); print model and host side by side", NULL },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, NULL,
                           "Run a lock on a machine model and report where the cycles went.\n"
        "Each thread loops: acquire; critical section (a shared counter and --cs-writes words);\n"
        "release; think.  Exit 0 on success, 1 if mutual exclusion failed or the run stalled,\n"
        "2 on bad input.  `qsim --config X --lock Y` is short for `qsim run --config X --lock Y`.",
                           entries))
        return QSIM_EXIT_USAGE;
    if (argc > 1) {
        fprintf(stderr, "qsim run: unexpected argument '%s'\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    if (!lock == !lock_file) {
        fprintf(stderr, "qsim run: give one of --lock NAME or --lock-file PATH (`qsim list locks`)\n");
        return QSIM_EXIT_USAGE;
    }
    if (writers >= 0)
        threads = readers + writers;
    if (threads < 1 || iterations < 0 || cs_writes < 0 || cs_work < 0 || think < 0 || jitter < 0 || readers < 0 ||
        duration < 0) {
        fprintf(stderr, "qsim run: counts and cycles must not be negative, and --threads at least 1\n");
        return QSIM_EXIT_USAGE;
    }
    ReportFormat fmt = REPORT_TEXT;
    if (format && !report_format_parse(format, &fmt, &error))
        return cli_fail(error);
    if (placement && !placement_parse(placement, &o.placement, &error))
        return cli_fail(error);
    if (data) {
        if (!strcmp(data, "same-line"))
            o.data = HARNESS_SAME_LINE;
        else if (!strcmp(data, "separate-line"))
            o.data = HARNESS_SEPARATE_LINE;
        else {
            fprintf(stderr, "qsim run: --data %s: one of same-line, separate-line\n", data);
            return QSIM_EXIT_USAGE;
        }
    }
    if (config)
        o.config = config;
    o.sets = (const char *const *)sets;
    o.lock = lock;
    o.lock_file = lock_file;
    o.threads = (guint)threads;
    o.iterations = (guint)iterations;
    o.duration = (guint64)duration;
    o.cs_writes = (guint)cs_writes;
    o.cs_work = (guint)cs_work;
    o.think = (guint)think;
    o.jitter = (guint)jitter;
    o.readers = (guint)readers;
    o.seed = (guint64)seed;
    o.check = check;
    o.host_time = !no_host_time;
    o.trace = trace ? stderr : NULL;

    RunResult r;
    if (!run_simulation(&o, &r, &error))
        return cli_fail(error);
    int rc = r.ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
    if (vs) {
        RunOptions o2 = o;
        o2.lock = vs;
        o2.lock_file = NULL;
        RunResult r2;
        if (!run_simulation(&o2, &r2, &error)) {
            run_result_clear(&r);
            return cli_fail(error);
        }
        g_autofree char *h1 = run_headline(r.report), *h2 = run_headline(r2.report);
        JsonNode *a = select_keys(r.report, compare_keys), *b = select_keys(r2.report, compare_keys);
        g_autofree char *table = report_compare_text(a, b, o.lock_file ? o.lock_file : o.lock, vs);
        printf("%s%s%s\n", h1, h2, table);
        json_node_unref(a);
        json_node_unref(b);
        if (!r2.ok) {
            fprintf(stderr, "qsim run: %s: %s", vs, r2.failure);
            rc = QSIM_EXIT_FAILED;
        }
        run_result_clear(&r2);
    } else if (native) {
        int nrc = run_native_beside(&o, r.report); /* not inside MAX(): it would run twice */
        rc = MAX(rc, nrc);
    } else {
        g_autofree char *out = report_format(r.report, fmt);
        if (fmt == REPORT_TEXT) {
            g_autofree char *head = run_headline(r.report);
            fputs(head, stdout);
        }
        fputs(out, stdout);
    }
    if (!r.ok)
        fprintf(stderr, "qsim run: %s", r.failure);
    run_result_clear(&r);
    return rc;
}

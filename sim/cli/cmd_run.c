/* `qsim run`: the lock benchmark on a machine model (also `qsim --config X --lock Y`). */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/input_file.h"
#include "sim/base/report.h"
#include "sim/run.h"
#include "sim/run_profile.h"
#include "sim/repeat.h"
#include "sim/trace/trace_events.h"
#include "locks/native/native_run.h"

/* The keys `--vs` prints side by side: the result and the counters that explain it. */
static const char *const compare_keys[] = {
    "cycles", "cycles_per_acquisition", "latency.mean", "latency.p99", "fairness.min", "fairness.max",
    "mutual_exclusion", "machine_clears.memory_ordering", "machine_clears.penalty_cycles",
    "machine_clears.squashed_ops", "branch_mispredicts.count", "branch_mispredicts.penalty_cycles", "paused_cycles",
    "atomics.count", "atomics.failed_cas", "atomics.cycles",
    "coherence.rfo", "coherence.invalidations", "coherence.lock_line.messages", "coherence.lock_line.rfo",
    "coherence.lock_line.invalidations", "coherence.lock_line.c2c_transfers", "coherence.hold_wait_cycles",
    "l1_hit_rate", "sim_instructions", NULL,
};

/* The results a model run and a native run share, for `--native`; the workload both ran comes
 * first, from the schema (the rows of both commands). */
static const char *const native_result_keys[] = {
    "acquisitions", "cycles_per_acquisition", "latency.mean", "latency.p50", "latency.p99",
    "fairness.min", "fairness.avg", "fairness.max", "mutual_exclusion",
};

static GPtrArray *native_keys(void)
{
    GPtrArray *keys = g_ptr_array_new();
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if ((k->commands & WL_RUN) && (k->commands & WL_NATIVE) && k->mode != WL_FIXED_TIME)
            g_ptr_array_add(keys, (gpointer)k->name);
    }
    for (guint i = 0; i < G_N_ELEMENTS(native_result_keys); i++)
        g_ptr_array_add(keys, (gpointer)native_result_keys[i]);
    g_ptr_array_add(keys, NULL);
    return keys;
}

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

/* Two reports side by side: text shows the headlines and the keys that explain them; json and
 * csv carry both whole reports and the ratio of every number (report_compare_format). */
static void print_compare(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b,
                          const char *const *keys, const char *text_note, ReportFormat fmt)
{
    if (fmt != REPORT_TEXT) {
        g_autofree char *out = report_compare_format(a, b, label_a, label_b, fmt);
        fputs(out, stdout);
        return;
    }
    g_autofree char *ha = run_headline(a);
    g_autofree char *hb = text_note ? g_strdup(text_note) : run_headline(b);
    JsonNode *sa = select_keys(a, keys), *sb = select_keys(b, keys);
    g_autofree char *table = report_compare_text(sa, sb, label_a, label_b);
    printf("%s%s%s", ha, hb, table);
    json_node_unref(sa);
    json_node_unref(sb);
}

/* The same lock and workload on the host, printed beside the model's report.  Cycles differ in
 * kind: the model's are the modelled core's, the host's are its time-stamp counter's. */
static int run_native_beside(const RunOptions *o, JsonNode *model, ReportFormat fmt)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(NativeLock) lock = o->lock_file ? native_lock_from_file(o->lock_file, &error)
                                              : native_lock_builtin(o->lock, &error);
    if (!lock)
        return cli_fail(error);
    /* The model's workload as it is: the host runs the rows it takes (native_run.h); the
     * model's fixed time is in cycles, which the host does not take, so it runs the iterations. */
    NativeRunOptions n;
    native_run_options_init(&n);
    n.workload = o->workload;
    n.lock_params = o->lock_params;
    JsonNode *host = native_run(lock, &n, &error);
    if (!host)
        return cli_fail(error);
    g_autoptr(GPtrArray) keys = native_keys();
    print_compare(model, host, "model", "host", (const char *const *)keys->pdata,
                  "(host cycles are time-stamp-counter cycles of this machine; model cycles are the modelled core's)\n\n",
                  fmt);
    gboolean ok = json_object_get_boolean_member(json_node_get_object(host), "mutual_exclusion");
    json_node_unref(host);
    if (!ok)
        fprintf(stderr, "qsim run: the native run violated mutual exclusion\n");
    return ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}

/* --repeat: N seeds of the lock (and of --vs), summarised; exit 1 when any run failed. */
static int run_repeat_command(const RunOptions *o, guint n, const char *vs, ReportFormat fmt)
{
    g_autoptr(GError) error = NULL;
    RepeatResult a, b;
    if (!run_repeated(o, n, &a, &error))
        return cli_fail(error);
    const char *label_a = o->lock_file ? o->lock_file : o->lock;
    gboolean ok = a.ok;
    g_autofree char *out = NULL;
    if (vs) {
        RunOptions o2 = *o;
        o2.lock = vs;
        o2.lock_file = NULL;
        if (!run_repeated(&o2, n, &b, &error)) {
            repeat_result_clear(&a);
            return cli_fail(error);
        }
        ok = ok && b.ok;
        if (fmt == REPORT_JSON) {
            g_autoptr(JsonNode) root = repeat_compare_json(&a, &b, label_a, vs);
            out = report_to_json(root);
        } else if (fmt == REPORT_CSV) {
            out = repeat_compare_csv(&a, &b);
        } else {
            out = repeat_compare_text(&a, &b, label_a, vs, compare_keys);
        }
        if (!b.ok)
            fprintf(stderr, "qsim run: %s: %s", vs, b.failure);
        repeat_result_clear(&b);
    } else if (fmt == REPORT_JSON) {
        g_autoptr(JsonNode) root = repeat_json(&a);
        out = report_to_json(root);
    } else if (fmt == REPORT_CSV) {
        out = repeat_csv(&a);
    } else {
        out = repeat_text(&a, compare_keys);
    }
    fputs(out, stdout);
    if (!a.ok)
        fprintf(stderr, "qsim run: %s", a.failure);
    repeat_result_clear(&a);
    return ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}

int cmd_run(int argc, char **argv)
{
    RunOptions o;
    run_options_init(&o);
    WorkloadFlags wf;
    workload_flags_init(&wf, &o.workload, WL_RUN);
    g_auto(GStrv) sets = NULL, lock_params = NULL, trace_lines = NULL;
    g_autofree char *trace_only = NULL, *trace_out = NULL, *trace_html = NULL;
    g_autofree char *config = NULL, *lock = NULL, *lock_file = NULL, *format = NULL, *vs = NULL;
    gint64 seed = (gint64)o.seed, writers = -1, repeat = 0, progress = -1;
    gboolean check = FALSE, no_host_time = FALSE, native = FALSE, trace = FALSE, no_ff = FALSE, profile = FALSE;
    const GOptionEntry what[] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Machine config: a name from `qsim list configs` or a path (default haswell)", "CFG" },
        { "lock", 'l', 0, G_OPTION_ARG_STRING, &lock, "Lock: a name from `qsim list locks` (or $QSIM_LOCK_PATH), or a path to a .qs file", "NAME|PATH" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME, &lock_file, "Your own lock source, as --lock PATH (the ISA: " QSIM_DOC("isa.md") ")", "PATH" },
        { "lock-param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &lock_params, "Set a lock's tunable (its `.param`), e.g. "
          "--lock-param spin_count=1000 (repeatable; with --vs, for both locks)", "NAME=VALUE" },
        { NULL },
    };
    const GOptionEntry how[] = {
        { "writers", 0, 0, G_OPTION_ARG_INT64, &writers, "qrwlock: threads taking the write side (sets --threads to readers + writers)", "N" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of every random stream (default 1)", "S" },
        { "progress-cycles", 0, 0, G_OPTION_ARG_INT64, &progress, "End the run as stalled (exit 1) when no thread "
          "acquires or releases the lock for N cycles (default: run.stall_cycles + 4 x (cs-work + think + 3 x jitter) "
          "+ 10000 per thread, + the OS model's costs; " QSIM_DOC("robustness.md") ")", "CYCLES" },
        { "repeat", 'r', 0, G_OPTION_ARG_INT64, &repeat, "Run N seeds (from --seed) with timing noise (--jitter, default "
          G_STRINGIFY(REPEAT_DEFAULT_JITTER) ") and report every number as mean, sd, range and 95% interval; with --vs, "
          "the ratio of means with its interval", "N" },
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a config value (repeatable), e.g. --set core.pause_cycles=140", "KEY=VALUE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Report format (default text); with --vs or --native: both reports and the ratio b/a of every number", "text|json|csv" },
        { "profile", 'p', 0, G_OPTION_ARG_NONE, &profile, "Per-instruction profile: for each source line of the lock "
          "(and of the harness), summed over the cores: instructions retired, cycles at the ROB head, machine clears, "
          "L1 misses, RFOs, failed CAS/store-exclusives, pause and WFE cycles (text: a table after the report; json/csv: "
          "the \"profile\" array; not with --repeat, --vs or --native; " QSIM_DOC("report.md") ")", NULL },
        { "check", 0, 0, G_OPTION_ARG_NONE, &check, "Check coherence invariants after every transition (slow)", NULL },
        { "trace", 0, 0, G_OPTION_ARG_NONE, &trace, "Print the coherence trace on stderr: each protocol row as it fires (cycle, core or home, line, row, its messages), lock phases, pipeline events; hits and stalls collapsed. `qsim protocol --legend` explains it", NULL },
        { "trace-line", 0, 0, G_OPTION_ARG_STRING_ARRAY, &trace_lines, "Trace only the line holding this variable (lock_word, h_counter, node[1], or 0x10040); repeatable; implies --trace unless --trace-out/--trace-html", "NAME" },
        { "trace-only", 0, 0, G_OPTION_ARG_STRING, &trace_only, "Trace only these kinds of event, comma-separated: transitions, hits (every hit and stall row), messages, pipeline, locks, all; implies --trace unless --trace-out/--trace-html", "KINDS" },
        { "trace-out", 0, 0, G_OPTION_ARG_FILENAME, &trace_out, "Write the trace as Chrome Trace Event JSON for Perfetto (ui.perfetto.dev) or chrome://tracing: core and cache-line tracks, message arrows", "FILE.json" },
        { "trace-html", 0, 0, G_OPTION_ARG_FILENAME, &trace_html, "Write a self-contained step-through page of the trace (for small runs): states, messages, rows explained; open it in a browser", "FILE.html" },
        { "no-host-time", 0, 0, G_OPTION_ARG_NONE, &no_host_time, "Leave host_seconds out, so that reports compare byte for byte", NULL },
        { "no-fast-forward", 0, 0, G_OPTION_ARG_NONE, &no_ff, "Simulate every cycle of cores spinning in steady loops (the report is the same; " QSIM_DOC("performance.md") ")", NULL },
        { "vs", 0, 0, G_OPTION_ARG_STRING, &vs, "Also run lock NAME|PATH (b) with the same options; print both side by side with b/a", "NAME|PATH" },
        { "native", 0, 0, G_OPTION_ARG_NONE, &native, "Also run the same lock and workload natively on this host (`qsim native`); print model (a) and host (b) side by side", NULL },
        { NULL },
    };
    gboolean parsed = cli_parse_workload_command(&argc, &argv, NULL,
                           "Run a lock on a machine model and report where the cycles went.\n"
        "Each thread loops: acquire; critical section (a shared counter and --cs-writes words);\n"
        "release; think.  Exit 0 on success, 1 if mutual exclusion failed or the run stalled,\n"
        "2 on bad input.  `qsim --config X --lock Y` is short for `qsim run --config X --lock Y`.",
                           what, &wf, how);
    gboolean jitter_given = parsed && workload_flags_given(&wf, "jitter");
    gboolean threads_given = parsed && workload_flags_given(&wf, "threads");
    workload_flags_clear(&wf);
    if (!parsed)
        return QSIM_EXIT_USAGE;
    if (argc > 1) {
        fprintf(stderr, "qsim run: unexpected argument '%s'\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    if (!lock == !lock_file) {
        fprintf(stderr, "qsim run: give one of --lock NAME|PATH or --lock-file PATH (`qsim list locks`)\n");
        return QSIM_EXIT_USAGE;
    }
    /* The runner reads the file; a device or an oversized one is refused before it does. */
    if (lock_file && !input_file_check(lock_file, INPUT_LOCK, &error))
        return cli_fail(error);
    if (writers != -1) {
        if (writers < 0 || writers > G_MAXINT32) {
            fprintf(stderr, "qsim run: --writers %" G_GINT64_FORMAT ": out of range [0, %d]\n", writers, G_MAXINT32);
            return QSIM_EXIT_USAGE;
        }
        /* --writers says how many threads there are: a different --threads contradicts it. */
        guint64 total = (guint64)o.workload.readers + (guint64)writers;
        if (threads_given && total != o.workload.threads) {
            fprintf(stderr, "qsim run: --writers %" G_GINT64_FORMAT " with --readers %u makes %" G_GUINT64_FORMAT
                            " threads, but --threads %u was given (give --threads or --writers)\n",
                    writers, o.workload.readers, total, o.workload.threads);
            return QSIM_EXIT_USAGE;
        }
        if (total > G_MAXUINT) {
            fprintf(stderr, "qsim run: --writers %" G_GINT64_FORMAT ": too many threads\n", writers);
            return QSIM_EXIT_USAGE;
        }
        o.workload.threads = (guint)total;
    }
    if (progress != -1) {
        if (progress < RUN_PROGRESS_MIN || (guint64)progress > RUN_PROGRESS_MAX) {
            fprintf(stderr, "qsim run: --progress-cycles %" G_GINT64_FORMAT ": out of range [%d, %" G_GUINT64_FORMAT
                            "]\n", progress, RUN_PROGRESS_MIN, RUN_PROGRESS_MAX);
            return QSIM_EXIT_USAGE;
        }
        o.progress_cycles = (guint64)progress;
    }
    ReportFormat fmt = REPORT_TEXT;
    if (format && !report_format_parse(format, &fmt, &error))
        return cli_fail(error);
    if (config)
        o.config = config;
    o.sets = (const char *const *)sets;
    o.lock_params = (const char *const *)lock_params;
    o.lock = lock;
    o.lock_file = lock_file;
    o.seed = (guint64)seed;
    o.check = check;
    o.host_time = !no_host_time;
    o.fast_forward = !no_ff;
    if (trace_only && !trace_show_parse(trace_only, &o.trace.show, &error))
        return cli_fail(error);
    /* a filter alone asks for the text trace */
    if ((trace_only || trace_lines) && !trace_out && !trace_html)
        trace = TRUE;
    o.trace.text = trace ? stderr : NULL;
    o.trace.perfetto = trace_out;
    o.trace.html = trace_html;
    o.trace.lines = (const char *const *)trace_lines;
    /* A profile explains one run: a sum over seeds, or two locks' rows side by side, would not. */
    if (profile && (repeat || vs || native)) {
        fprintf(stderr, "qsim run: --profile profiles one run: not with --repeat, --vs or --native (profile each "
                        "lock or seed on its own)\n");
        return QSIM_EXIT_USAGE;
    }
    o.profile = profile;
    if ((o.trace.text || trace_out || trace_html) && (vs || native)) {
        fprintf(stderr, "qsim run: the trace options trace one run: not with --vs or --native\n");
        return QSIM_EXIT_USAGE;
    }

    if (repeat) {
        if (repeat < 2 || repeat > 10000) {
            fprintf(stderr, "qsim run: --repeat %" G_GINT64_FORMAT ": out of range [2, 10000]\n", repeat);
            return QSIM_EXIT_USAGE;
        }
        if (native || o.trace.text || trace_out || trace_html) {
            fprintf(stderr, "qsim run: --repeat does not go with --native or the trace options\n");
            return QSIM_EXIT_USAGE;
        }
        if (!jitter_given)
            o.workload.jitter = REPEAT_DEFAULT_JITTER;
        return run_repeat_command(&o, (guint)repeat, vs, fmt);
    }
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
        print_compare(r.report, r2.report, o.lock_file ? o.lock_file : o.lock, vs, compare_keys, NULL, fmt);
        if (!r2.ok) {
            fprintf(stderr, "qsim run: %s: %s", vs, r2.failure);
            rc = QSIM_EXIT_FAILED;
        }
        run_result_clear(&r2);
    } else if (native) {
        int nrc = run_native_beside(&o, r.report, fmt); /* not inside MAX(): it would run twice */
        rc = MAX(rc, nrc);
    } else if (fmt == REPORT_TEXT) {
        /* The profile is a table of its own after the report, not flattened keys. */
        JsonObject *root = json_node_get_object(r.report);
        JsonNode *prof = json_object_has_member(root, "profile") ? json_object_dup_member(root, "profile") : NULL;
        if (prof)
            json_object_remove_member(root, "profile");
        g_autofree char *head = run_headline(r.report);
        g_autofree char *out = report_format(r.report, fmt);
        g_autofree char *table = prof ? run_profile_text(json_node_get_array(prof)) : NULL;
        printf("%s%s%s%s", head, out, table ? "\n" : "", table ? table : "");
        if (prof)
            json_node_unref(prof);
    } else {
        g_autofree char *out = report_format(r.report, fmt);
        fputs(out, stdout);
    }
    if (!r.ok)
        fprintf(stderr, "qsim run: %s", r.failure);
    run_result_clear(&r);
    return rc;
}

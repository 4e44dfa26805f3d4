/* `qsim run`: the lock benchmark on a machine model (also `qsim --config X --lock Y`). */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/report/provenance.h"
#include "sim/report/run_folder.h"
#include "sim/base/input_file.h"
#include "sim/base/report.h"
#include "sim/run/run.h"
#include "sim/run/access_script_run.h"
#include "sim/report/run_profile.h"
#include "sim/run/repeat.h"
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

/* Two reports side by side: text shows the headlines (a's, and b's or `text_note`) and the keys
 * that explain them; json and csv carry both whole reports and the ratio of every number
 * (report_compare_format). */
static void print_compare(JsonNode *a, JsonNode *b, const RunHeadline *head_a, const RunHeadline *head_b,
                          const char *label_a, const char *label_b, const char *const *keys, const char *text_note,
                          ReportFormat fmt)
{
    if (fmt != REPORT_TEXT) {
        g_autofree char *out = report_compare_format(a, b, label_a, label_b, fmt);
        fputs(out, stdout);
        return;
    }
    g_autofree char *ha = run_headline(head_a);
    g_autofree char *hb = text_note ? g_strdup(text_note) : run_headline(head_b);
    JsonNode *sa = select_keys(a, keys), *sb = select_keys(b, keys);
    g_autofree char *table = report_compare_text(sa, sb, label_a, label_b);
    printf("%s%s%s", ha, hb, table);
    json_node_unref(sa);
    json_node_unref(sb);
}

/* The same lock and workload on the host, printed beside the model's report.  Cycles differ in
 * kind: the model's are the modelled core's, the host's are its time-stamp counter's. */
static int run_native_beside(const RunOptions *o, const RunResult *model, ReportFormat fmt)
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
    n.command = o->command;
    JsonNode *host = native_run(lock, &n, &error);
    if (!host)
        return cli_fail(error);
    g_autoptr(GPtrArray) keys = native_keys();
    print_compare(model->report, host, &model->headline, NULL, "model", "host", (const char *const *)keys->pdata,
                  "(host cycles are time-stamp-counter cycles of this machine; model cycles are the modelled core's)\n\n",
                  fmt);
    gboolean ok = json_object_get_boolean_member(json_node_get_object(host), "mutual_exclusion");
    json_node_unref(host);
    if (!ok)
        cli_eprintf("qsim run: the native run violated mutual exclusion\n");
    return ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}

/* --repeat: N seeds of the lock (and of --vs), summarised; exit 1 when any run failed.  A config
 * problem from a scenario's header is put at its line (`header`). */
static int run_repeat_command(const RunOptions *o, guint n, const char *vs, ReportFormat fmt,
                              const CliScenarioHeader *header)
{
    g_autoptr(GError) error = NULL;
    RepeatResult a, b;
    if (!run_repeated(o, n, &a, &error))
        return cli_scenario_fail(header, error);
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
        if (fmt != REPORT_TEXT) {
            g_autoptr(JsonNode) root = repeat_compare_json(&a, &b, label_a, vs);
            out = report_document_format(root, "pair", fmt);
        } else {
            out = repeat_compare_text(&a, &b, label_a, vs, compare_keys);
        }
        if (!b.ok)
            cli_eprintf("qsim run: %s: %s", vs, b.failure);
        repeat_result_clear(&b);
    } else if (fmt != REPORT_TEXT) {
        g_autoptr(JsonNode) root = repeat_json(&a);
        out = report_document_format(root, "summary", fmt);
    } else {
        out = repeat_text(&a, compare_keys);
    }
    fputs(out, stdout);
    if (!a.ok)
        cli_eprintf("qsim run: %s", a.failure);
    repeat_result_clear(&a);
    return ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}

/* ---- which modes combine ---- */

/* The modes of a run beyond one plain run, a bit each (the order of run_modes). */
enum { MODE_REPEAT = 1u << 0, MODE_VS = 1u << 1, MODE_NATIVE = 1u << 2, MODE_TRACE = 1u << 3, MODE_PROFILE = 1u << 4,
       MODE_OUT = 1u << 5 };

const CliMode run_modes[] = {
    { "--repeat", "--repeat 2" },
    { "--vs", "--vs tas" },
    { "--native", "--native" },
    { "the trace options (--trace, --trace-line, --trace-only, --trace-out, --trace-html)", "--trace" },
    { "--profile", "--profile" },
    { "--out", "--out DIR" },
    { NULL, NULL },
};

#define PROFILE_ALONE \
    "--profile profiles one run: not with --repeat, --vs or --native (profile each lock or seed on its own)"
#define TRACE_ALONE "the trace options trace one run: not with --vs or --native"
#define REPEAT_ALONE "--repeat does not go with --native or the trace options"
#define OUT_ALONE "--out keeps one model run and its inputs: not with --repeat, --vs, --native or the trace options"

/* Checked in order: the first refused pair given is the message.  A profile or a trace explains
 * one run: a sum over seeds, or two runs' events side by side, would not. */
const CliModeRule run_mode_rules[] = {
    { MODE_PROFILE | MODE_REPEAT, FALSE, PROFILE_ALONE },
    { MODE_PROFILE | MODE_VS, FALSE, PROFILE_ALONE },
    { MODE_PROFILE | MODE_NATIVE, FALSE, PROFILE_ALONE },
    { MODE_PROFILE | MODE_TRACE, TRUE, "the run is traced and profiled" },
    { MODE_TRACE | MODE_VS, FALSE, TRACE_ALONE },
    { MODE_TRACE | MODE_NATIVE, FALSE, TRACE_ALONE },
    { MODE_REPEAT | MODE_NATIVE, FALSE, REPEAT_ALONE },
    { MODE_REPEAT | MODE_TRACE, FALSE, REPEAT_ALONE },
    { MODE_REPEAT | MODE_VS, TRUE, "both locks over the seeds, and the ratio of means with its interval" },
    { MODE_VS | MODE_NATIVE, FALSE, "--vs and --native each put a second run beside the first: give one of them" },
    { MODE_OUT | MODE_REPEAT, FALSE, OUT_ALONE },
    { MODE_OUT | MODE_VS, FALSE, OUT_ALONE },
    { MODE_OUT | MODE_NATIVE, FALSE, OUT_ALONE },
    { MODE_OUT | MODE_TRACE, FALSE, OUT_ALONE },
    { MODE_OUT | MODE_PROFILE, TRUE, "the profile is in the kept report" },
};
const guint run_mode_rules_len = G_N_ELEMENTS(run_mode_rules);

/* ---- the command line ---- */

/* What `qsim run` parses; the RunOptions made from it point into it. */
typedef struct {
    LockFlags lock;
    char *config, *format, *vs, *scenario, *script, *trace_only, *trace_out, *trace_html, *out, *replay, *fault;
    char **sets, **trace_lines;
    gint64 seed, writers, repeat, progress;
    gboolean check, no_host_time, native, trace, no_ff, profile, force;
    WorkloadFlags wf;          /* the workload's options, and which were given */
} RunFlags;

static void run_flags_clear(RunFlags *f)
{
    workload_flags_clear(&f->wf);
    lock_flags_clear(&f->lock);
    g_free(f->config);
    g_free(f->format);
    g_free(f->vs);
    g_free(f->scenario);
    g_free(f->script);
    g_free(f->trace_only);
    g_free(f->trace_out);
    g_free(f->trace_html);
    g_free(f->out);
    g_free(f->replay);
    g_free(f->fault);
    g_strfreev(f->sets);
    g_strfreev(f->trace_lines);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RunFlags, run_flags_clear)

/* Parses argv into `f` and the workload of `o`; FALSE when the command line is not a run (the
 * problem is printed). */
static gboolean run_parse(int *argc, char ***argv, RunFlags *f, RunOptions *o)
{
    /* One script a run: a second --script would silently replace the first (its accesses go in
     * one, separated by `,`). */
    guint scripts = 0;
    for (int i = 1; i < *argc && strcmp((*argv)[i], "--"); i++)
        scripts += !strcmp((*argv)[i], "--script") || g_str_has_prefix((*argv)[i], "--script=");
    if (scripts > 1) {
        cli_eprintf("qsim run: --script given %u times: one script a run (put its accesses in one, separated "
                    "by `,`)\n", scripts);
        return FALSE;
    }
    workload_flags_init(&f->wf, &o->workload, WL_RUN);
    GOptionEntry what[1 + LOCK_FLAGS_N + 3] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &f->config, "Machine config: a name from `qsim list configs` or a path (default haswell)", "CFG" },
    };
    lock_flags_entries(&f->lock, what + 1);
    what[1 + LOCK_FLAGS_N] = (GOptionEntry){ "scenario", 0, 0, G_OPTION_ARG_STRING, &f->scenario,
        "Run a scenario instead of a lock: a name from `qsim list scenarios` (or $QSIM_SCENARIO_PATH), or a path "
        "to a .qs file with an entry point `body`, which each thread calls --iterations times; no lock, no "
        "mutual-exclusion verdict (exit 0 unless it stalls or faults); its `#:` header lines give its options, "
        "which the command line's override (" QSIM_DOC("teaching.md") ")", "NAME|PATH" };
    what[2 + LOCK_FLAGS_N] = (GOptionEntry){ "script", 0, 0, G_OPTION_ARG_STRING, &f->script,
        "Run scripted accesses instead of a program, one after another on the memory system alone, e.g. "
        "'0:ld x, 1:st x, 0:ld x' (THREAD:OP VAR[=VALUE], OP ld, st, xchg, fadd or evict; THREAD N is core N, "
        "C.T core C's hardware thread T, as in '0.0:ld x, 0.1:st x=5'; or a file of them): a "
        "table of each access's latency, who answered and the line's states after it; with the trace options, "
        "each access's transitions (" QSIM_DOC("teaching.md") ")", "SCRIPT|FILE" };
    const GOptionEntry how[] = {
        { "writers", 0, 0, G_OPTION_ARG_INT64, &f->writers, "qrwlock: threads taking the write side (sets --threads to readers + writers)", "N" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &f->seed, "Seed of every random stream (default 1)", "S" },
        { "progress-cycles", 0, 0, G_OPTION_ARG_INT64, &f->progress, "End the run as stalled (exit 1) when no thread "
          "acquires or releases the lock for N cycles (default: run.stall_cycles + 4 x (cs-work + think + 3 x jitter) "
          "+ 10000 per thread, + the OS model's costs; " QSIM_DOC("robustness.md") ")", "CYCLES" },
        { "repeat", 'r', 0, G_OPTION_ARG_INT64, &f->repeat, "Run N seeds (from --seed) with timing noise (--jitter, default "
          G_STRINGIFY(REPEAT_DEFAULT_JITTER) ") and report every number as mean, sd, range and 95% interval; with --vs, "
          "the ratio of means with its interval", "N" },
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &f->sets, "Override a config value (repeatable), e.g. --set core.pause_cycles=140", "KEY=VALUE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &f->format, "Report format (default text); with --vs or --native: both reports and the ratio b/a of every number", "text|json|csv" },
        { "profile", 'p', 0, G_OPTION_ARG_NONE, &f->profile, "Per-instruction profile: for each source line of the lock "
          "(and of the harness), summed over the cores: instructions retired, cycles at the ROB head, machine clears, "
          "L1 misses, RFOs, failed CAS/store-exclusives, pause and WFE cycles (text: a table after the report; json/csv: "
          "the \"profile\" array; not with --repeat, --vs or --native; " QSIM_DOC("report.md") ")", NULL },
        { "check", 0, 0, G_OPTION_ARG_NONE, &f->check, "Check coherence invariants after every transition (slow)", NULL },
        { "fault", 0, 0, G_OPTION_ARG_STRING, &f->fault, "With --script: plant a fault in the protocol's table for a "
          "class to find (missing-inv, wrong-next, dropped-ack; implies --check, which stops the script at the first "
          "complaint; " QSIM_DOC("teaching.md") ")", "NAME" },
        { "trace", 0, 0, G_OPTION_ARG_NONE, &f->trace, "Print the coherence trace on stderr: each protocol row as it fires (cycle, core or home, line, row, its messages), lock phases, pipeline events; hits and stalls collapsed. `qsim protocol --legend` explains it", NULL },
        { "trace-line", 0, 0, G_OPTION_ARG_STRING_ARRAY, &f->trace_lines, "Trace only the line holding this variable (lock_word, h_counter, node[1], or 0x10040); repeatable; implies --trace unless --trace-out/--trace-html", "NAME" },
        { "trace-only", 0, 0, G_OPTION_ARG_STRING, &f->trace_only, "Trace only these kinds of event, comma-separated: transitions, hits (every hit and stall row), messages, pipeline, locks, all; implies --trace unless --trace-out/--trace-html", "KINDS" },
        { "trace-out", 0, 0, G_OPTION_ARG_FILENAME, &f->trace_out, "Write the trace as Chrome Trace Event JSON for Perfetto (ui.perfetto.dev) or chrome://tracing: core and cache-line tracks, message arrows", "FILE.json" },
        { "trace-html", 0, 0, G_OPTION_ARG_FILENAME, &f->trace_html, "Write a self-contained step-through page of the trace (for small runs): states, messages, rows explained; open it in a browser", "FILE.html" },
        { "no-host-time", 0, 0, G_OPTION_ARG_NONE, &f->no_host_time, "Leave host_seconds out, so that reports compare byte for byte", NULL },
        { "no-fast-forward", 0, 0, G_OPTION_ARG_NONE, &f->no_ff, "Simulate every cycle of cores spinning in steady loops (the report is the same; " QSIM_DOC("performance.md") ")", NULL },
        { "vs", 0, 0, G_OPTION_ARG_STRING, &f->vs, "Also run lock NAME|PATH (b) with the same options, --lock-param too; print both side by side with b/a", "NAME|PATH" },
        { "native", 0, 0, G_OPTION_ARG_NONE, &f->native, "Also run the same lock and workload natively on this host (`qsim native`); print model (a) and host (b) side by side", NULL },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &f->out, "Also keep the run in folder DIR: the report (without host times), the effective config, the lock's source and the command, which `--replay DIR` makes again byte for byte (" QSIM_DOC("report.md") ")", "DIR" },
        { "force", 0, 0, G_OPTION_ARG_NONE, &f->force, "With --out: keep the run in a folder that is not empty, replacing the files of the same names (without it, --out takes only a new or empty folder)", NULL },
        { "replay", 0, 0, G_OPTION_ARG_FILENAME, &f->replay, "Run again what `--out DIR` kept, from the folder's own copies of the config and lock, print the report, and exit 1 unless it is the kept one byte for byte (no other option)", "DIR" },
        { NULL },
    };
    /* Not given: --writers and --progress-cycles -1, --repeat 0, each below its range. */
    const CliIntRange ranges[] = {
        { "writers", 0, (gint64)workload_key_find("threads")->max }, { "seed", 0, G_MAXINT64 },
        { "progress-cycles", RUN_PROGRESS_MIN, (gint64)RUN_PROGRESS_MAX }, { "repeat", 2, 10000 }, { NULL },
    };
    gboolean parsed = cli_parse_workload_command(argc, argv, NULL,
                           "Run a lock on a machine model and report where the cycles went.\n"
        "Each thread loops: acquire; critical section (a shared counter and --cs-writes words);\n"
        "release; think.  Exit 0 on success, 1 if mutual exclusion failed or the run stalled,\n"
        "2 on bad input.  `qsim --config X --lock Y` is short for `qsim run --config X --lock Y`.",
                           what, &f->wf, how, ranges);
    return parsed;
}

/* --writers N: the threads are the readers and N writers, as many as --threads takes.  FALSE
 * after printing the problem, which names --writers (it set the count). */
static gboolean apply_writers(const RunFlags *f, WorkloadOptions *w)
{
    const WorkloadKey *threads = workload_key_find("threads");
    guint64 total = (guint64)w->readers + (guint64)f->writers;
    /* --writers says how many threads there are: a different --threads contradicts it. */
    if (workload_flags_given(&f->wf, "threads") && total != w->threads) {
        cli_eprintf("qsim run: --writers %" G_GINT64_FORMAT " with --readers %u makes %" G_GUINT64_FORMAT
                    " threads, but --threads %u was given (give --threads or --writers)\n",
            f->writers, w->readers, total, w->threads);
        return FALSE;
    }
    if (total < threads->min || total > threads->max) {
        cli_eprintf("qsim run: --writers %" G_GINT64_FORMAT " with --readers %u makes %" G_GUINT64_FORMAT
                    " threads: out of range [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]\n",
            f->writers, w->readers, total, threads->min, threads->max);
        return FALSE;
    }
    w->threads = (guint)total;
    return TRUE;
}

/* The modes given, checked against run_mode_rules; FALSE after printing the refusal. */
static gboolean check_modes(const RunFlags *f)
{
    gboolean traced = f->trace || f->trace_lines || f->trace_only || f->trace_out || f->trace_html;
    guint given = (f->repeat ? MODE_REPEAT : 0) | (f->vs ? MODE_VS : 0) | (f->native ? MODE_NATIVE : 0) |
                  (traced ? MODE_TRACE : 0) | (f->profile ? MODE_PROFILE : 0) | (f->out ? MODE_OUT : 0);
    const CliModeRule *refused = cli_mode_conflict(run_mode_rules, run_mode_rules_len, given);
    if (refused)
        cli_eprintf("qsim run: %s\n", refused->message);
    return !refused;
}

/* RunOptions from the flags (pointing into them); FALSE with an error for a bad trace filter. */
static gboolean run_options_from_flags(RunFlags *f, RunOptions *o, GError **error)
{
    if (f->config)
        o->config = f->config;
    o->sets = (const char *const *)f->sets;
    o->lock_params = (const char *const *)f->lock.params;
    o->lock = f->lock.lock;
    o->lock_file = f->lock.lock_file;
    o->scenario = f->scenario;
    o->seed = (guint64)f->seed;
    o->check = f->check;
    o->host_time = !f->no_host_time;
    o->fast_forward = !f->no_ff;
    o->profile = f->profile;
    if (f->trace_only && !trace_show_parse(f->trace_only, &o->trace.show, error))
        return FALSE;
    /* a filter alone asks for the text trace */
    gboolean text = f->trace || ((f->trace_only || f->trace_lines) && !f->trace_out && !f->trace_html);
    o->trace.text = text ? stderr : NULL;
    o->trace.perfetto = f->trace_out;
    o->trace.html = f->trace_html;
    o->trace.lines = (const char *const *)f->trace_lines;
    if (f->repeat && !workload_flags_given(&f->wf, "jitter"))
        o->workload.jitter = REPEAT_DEFAULT_JITTER;
    return TRUE;
}

/* One report as printed; the profile, in text, is a table of its own after it, not flattened
 * keys (the report loses its "profile" member to it). */
static char *report_string(JsonNode *report, const RunHeadline *headline, ReportFormat fmt)
{
    if (fmt != REPORT_TEXT)
        return report_document_format(report, "report", fmt);
    JsonObject *root = json_node_get_object(report);
    JsonNode *prof = json_object_has_member(root, "profile") ? json_object_dup_member(root, "profile") : NULL;
    if (prof)
        json_object_remove_member(root, "profile");
    g_autofree char *head = run_headline(headline);
    g_autofree char *out = report_format(report, fmt);
    g_autofree char *lines = prof ? run_profile_text(json_node_get_array(prof)) : NULL;
    g_autofree char *vars = prof && json_object_has_member(root, "variables")
                                ? run_profile_variables_text(json_object_get_object_member(root, "variables"))
                                : NULL;
    g_autofree char *table = lines ? g_strconcat(lines, vars ? vars : "", NULL) : NULL;
    if (prof)
        json_node_unref(prof);
    return g_strdup_printf("%s%s%s%s", head, out, table ? "\n" : "", table ? table : "");
}

static const char *format_name(ReportFormat fmt)
{
    return fmt == REPORT_JSON ? "json" : fmt == REPORT_CSV ? "csv" : "text";
}

/* The command's words as typed, less `--out DIR` and `--force` (a replay keeps nothing again). */
static GStrv words_without_out(int argc, char **argv)
{
    GPtrArray *w = g_ptr_array_new();
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out") || !strcmp(argv[i], "-o")) {
            i++;
            continue;
        }
        if (g_str_has_prefix(argv[i], "--out=") || (g_str_has_prefix(argv[i], "-o") && argv[i][2]) ||
            !strcmp(argv[i], "--force"))
            continue;
        g_ptr_array_add(w, g_strdup(argv[i]));
    }
    g_ptr_array_add(w, NULL);
    return (GStrv)g_ptr_array_free(w, FALSE);
}

/* --out DIR: the report as printed, and what it was made of (sim/report/run_folder.h). */
static int keep_run(const char *dir, gboolean force, GStrv words, const RunResult *r, const char *printed,
                    ReportFormat fmt)
{
    g_autoptr(GError) error = NULL;
    RunFolder f = {
        .argv = words,
        .format = (char *)format_name(fmt),
        .report = (char *)printed,
        .config_yaml = r->config_yaml,
        .lock_text = r->lock_source,
        .provenance = json_object_get_object_member(json_node_get_object(r->report), "provenance"),
    };
    if (!run_folder_write(dir, &f, force, &error))
        return cli_fail(error);
    return QSIM_EXIT_OK;
}

static void print_warnings(const RunHeadline *headline, const char *who)
{
    g_autoptr(GPtrArray) w = run_warnings(headline);
    for (guint i = 0; i < w->len; i++)
        cli_eprintf("qsim run: warning: %s%s%s\n", who ? who : "", who ? ": " : "", (char *)w->pdata[i]);
}

void cli_warn_page_cut(const char *path, const TraceHtmlCut *cut)
{
    if (path && cut->left_out)
        cli_eprintf("qsim run: warning: --trace-html %s: the page holds the first %" G_GUINT64_FORMAT " steps of the run "
                    "and leaves out %" G_GUINT64_FORMAT " more: trace a shorter run (fewer --iterations, --trace-line, "
                    "--trace-only)\n", path, cut->steps, cut->left_out);
}

/* One run of the lock, and of the --vs lock or the host beside it; its exit status.  With
 * `out`, the run is kept there too (`words`: the command line to keep).  A config problem from a
 * scenario's header is put at its line (`header`). */
static int run_once(const RunOptions *o, const char *vs, gboolean native, ReportFormat fmt, const char *out,
                    gboolean force, GStrv words, const CliScenarioHeader *header)
{
    g_autoptr(GError) error = NULL;
    RunResult r;
    if (!run_simulation(o, &r, &error))
        return cli_scenario_fail(header, error);
    int rc = r.ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
    if (vs) {
        RunOptions o2 = *o;
        o2.lock = vs;
        o2.lock_file = NULL;
        RunResult r2;
        if (!run_simulation(&o2, &r2, &error)) {
            run_result_clear(&r);
            return cli_fail(error);
        }
        const char *label = o->lock_file ? o->lock_file : o->lock;
        print_compare(r.report, r2.report, &r.headline, &r2.headline, label, vs, compare_keys, NULL, fmt);
        print_warnings(&r.headline, label);
        print_warnings(&r2.headline, vs);
        if (fmt == REPORT_TEXT)
            printf("(one seed is one sample of each lock: `--repeat 10` gives each ratio its interval, or `qsim "
                   "compare` a verdict per workload and thread count)\n");
        if (!r2.ok) {
            cli_eprintf("qsim run: %s: %s", vs, r2.failure);
            rc = QSIM_EXIT_FAILED;
        }
        run_result_clear(&r2);
    } else if (native) {
        int nrc = run_native_beside(o, &r, fmt); /* not inside MAX(): it would run twice */
        rc = MAX(rc, nrc);
    } else {
        print_warnings(&r.headline, NULL);
        cli_warn_page_cut(o->trace.html, &r.page_cut);
        g_autofree char *printed = report_string(r.report, &r.headline, fmt);
        fputs(printed, stdout);
        int krc = out ? keep_run(out, force, words, &r, printed, fmt) : QSIM_EXIT_OK; /* not inside MAX() */
        rc = MAX(rc, krc);
    }
    if (!r.ok)
        cli_eprintf("qsim run: %s", r.failure);
    run_result_clear(&r);
    return rc;
}

/* What a scenario refuses, a row each: it has no lock to compare, run natively or split into
 * readers, and no critical section to shape. */
static const struct {
    const char *option;        /* a workload row's flag, or NULL for one of run's own */
    const char *message;
} scenario_refuses[] = {
    { NULL, "--vs compares two locks; a scenario has none (run each scenario on its own)" },
    { NULL, "--native runs a lock on the host; a scenario runs on the model only" },
    { NULL, "--writers and --readers take the sides of a reader/writer lock; a scenario has none" },
    { "readers", "--writers and --readers take the sides of a reader/writer lock; a scenario has none" },
    { "cs-writes", "--cs-writes shapes the lock's critical section; a scenario has none (its `body` is all it runs)" },
    { "cs-work", "--cs-work shapes the lock's critical section; a scenario has none (its `body` is all it runs)" },
    { "data", "--data places the lock's critical-section data; a scenario places its own variables" },
};

/* --scenario with an option it cannot take: FALSE after printing the refusal. */
static gboolean scenario_flags_ok(const RunFlags *f)
{
    const gboolean own[] = { f->vs != NULL, f->native, f->writers != -1 };
    for (guint i = 0; i < G_N_ELEMENTS(scenario_refuses); i++) {
        gboolean given = scenario_refuses[i].option ? workload_flags_given(&f->wf, scenario_refuses[i].option)
                                                    : own[i];
        if (given) {
            cli_eprintf("qsim run: --scenario: %s\n", scenario_refuses[i].message);
            return FALSE;
        }
    }
    return TRUE;
}

/* From the parsed flags to the options and format: -1 when all is well, else the exit status
 * (the problem printed).  A replay reads its lock from the folder, not from --lock-file. */
static int prepare_run(RunFlags *f, RunOptions *o, ReportFormat *fmt, gboolean replaying)
{
    g_autoptr(GError) error = NULL;
    if ((f->lock.lock != NULL) + (f->lock.lock_file != NULL) + (f->scenario != NULL) != 1) {
        cli_eprintf("qsim run: give one of --lock NAME|PATH or --lock-file PATH (`qsim list locks`), or --scenario "
                    "NAME|PATH (`qsim list scenarios`)\n");
        return QSIM_EXIT_USAGE;
    }
    if (f->scenario && !scenario_flags_ok(f))
        return QSIM_EXIT_USAGE;
    /* The runner reads the file; a device or an oversized one is refused before it does. */
    if (!replaying && f->lock.lock_file && !input_file_check(f->lock.lock_file, INPUT_LOCK, &error))
        return cli_fail(error);
    if (!workload_flags_check(&f->wf, &error))
        return cli_fail(error);
    if ((f->trace_out && !cli_output_file_ok("--trace-out", f->trace_out)) ||
        (f->trace_html && !cli_output_file_ok("--trace-html", f->trace_html)) ||
        (f->out && !cli_output_path_ok("--out", f->out)))   /* before the run, not after it */
        return QSIM_EXIT_USAGE;
    if (f->writers != -1 && !apply_writers(f, &o->workload))
        return QSIM_EXIT_USAGE;
    if (f->progress != -1)
        o->progress_cycles = (guint64)f->progress;
    if (f->format && !report_format_parse(f->format, fmt, &error))
        return cli_fail(error);
    const char *run_locks[] = { f->lock.lock, f->lock.lock_file, f->vs };
    if (!cc_flags_apply(&f->lock.cc, run_locks, G_N_ELEMENTS(run_locks), &error))
        return cli_fail(error);
    if (!run_options_from_flags(f, o, &error))
        return cli_fail(error);
    if (!check_modes(f))
        return QSIM_EXIT_USAGE;
    if (f->out && (!cli_output_path_ok("--out", f->out) || !run_folder_check(f->out, f->force, &error)))
        return error ? cli_fail(error) : QSIM_EXIT_USAGE;
    /* A kept report is made again by a replay: host times, which no rerun repeats, stay out. */
    if (f->out || replaying)
        o->host_time = FALSE;
    return -1;
}

/* --script: the accesses on the memory system alone; of the rest only the config, --set, --seed,
 * --check, the format and the trace options apply, and any other option is refused. */
static int run_script(RunFlags *f)
{
    g_autoptr(GError) error = NULL;
    const struct {
        gboolean given;
        const char *what;
    } others[] = {
        { f->lock.lock || f->lock.lock_file || f->lock.params || f->lock.cc.cc || f->lock.cc.cflags,
          "--lock, --lock-file, --lock-param, --cc and --cflags" },
        { f->scenario != NULL, "--scenario" },
        { f->wf.given != 0, "the workload options (a script's accesses name their threads)" },
        { f->vs || f->native || f->repeat || f->out || f->profile || f->writers != -1 || f->progress != -1 ||
          f->no_ff, "--vs, --native, --repeat, --out, --profile, --writers, --progress-cycles and --no-fast-forward" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(others); i++)
        if (others[i].given) {
            cli_eprintf("qsim run: --script runs accesses on the memory system alone: not with %s\n", others[i].what);
            return QSIM_EXIT_USAGE;
        }
    ReportFormat fmt = REPORT_TEXT;
    if (f->format && !report_format_parse(f->format, &fmt, &error))
        return cli_fail(error);
    if (fmt == REPORT_CSV) {
        cli_eprintf("qsim run: --script reports as text or json\n");
        return QSIM_EXIT_USAGE;
    }
    if ((f->trace_out && !cli_output_file_ok("--trace-out", f->trace_out)) ||
        (f->trace_html && !cli_output_file_ok("--trace-html", f->trace_html)))
        return QSIM_EXIT_USAGE;
    RunOptions o;
    run_options_init(&o);
    if (!run_options_from_flags(f, &o, &error))
        return cli_fail(error);
    ScriptRunOptions so = { .config = o.config, .sets = o.sets, .seed = o.seed, .check = o.check || f->fault,
                            .fault = f->fault, .trace = o.trace };
    return cli_run_script(f->script, &so, fmt);
}

/* What a kept command line may hold besides one plain run, a row each: none of it can be
 * replayed (--out refuses each beside itself), so a folder whose run.json has one was not written
 * by --out, and replaying it without would call a different run "the same report". */
static const char *replay_refusal(const RunFlags *f)
{
    const struct {
        gboolean given;
        const char *what;
    } refused[] = {
        { f->vs != NULL, "--vs" },
        { f->native, "--native" },
        { f->repeat != 0, "--repeat" },
        { f->trace || f->trace_lines || f->trace_only, "a trace option (--trace, --trace-line, --trace-only)" },
        { f->trace_out != NULL, "--trace-out" },
        { f->trace_html != NULL, "--trace-html" },
        { f->script != NULL, "--script" },
        { f->out != NULL, "--out" },
        { f->force, "--force" },
        { f->replay != NULL, "--replay" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(refused); i++)
        if (refused[i].given)
            return refused[i].what;
    return NULL;
}

/* --replay DIR: the kept command line again, on the folder's config and lock; exit 1 unless the
 * report is the kept one byte for byte, exit 2 when the folder asks for what a replay cannot
 * make again. */
static int replay_run(const char *dir)
{
    g_autoptr(GError) error = NULL;
    g_auto(RunFolder) folder = { 0 };
    if (!run_folder_read(dir, &folder, &error))
        return cli_fail(error);
    /* the parse moves the words about: it gets a copy of the pointers */
    int argc = (int)g_strv_length(folder.argv);
    g_autofree char **argv = g_memdup2(folder.argv, sizeof(char *) * (argc + 1));
    RunOptions o;
    run_options_init(&o);
    g_auto(RunFlags) f = { .seed = (gint64)o.seed, .writers = -1, .progress = -1 };
    cli_parse_refuse_help(TRUE);   /* a --help there would print help and call that a replay */
    gboolean parsed = run_parse(&argc, &argv, &f, &o);
    cli_parse_refuse_help(FALSE);
    if (!parsed || argc > 1) {
        cli_eprintf("qsim run: --replay %s: run.json's command line is not one run\n", dir);
        return QSIM_EXIT_USAGE;
    }
    const char *refused = replay_refusal(&f);
    if (refused) {
        cli_eprintf("qsim run: --replay %s: run.json's command line has %s, which a kept run cannot have and a "
                    "replay cannot make again\n", dir, refused);
        return QSIM_EXIT_USAGE;
    }
    ReportFormat fmt = REPORT_TEXT;
    int rc = prepare_run(&f, &o, &fmt, TRUE);
    if (rc >= 0)
        return rc;
    if (strcmp(format_name(fmt), folder.format)) {
        cli_eprintf("qsim run: --replay %s: run.json says its report is %s, but its command line makes %s\n", dir,
                    folder.format, format_name(fmt));
        return QSIM_EXIT_USAGE;
    }
    o.config_text = folder.config_yaml;
    o.sets = NULL;   /* the kept config has them */
    o.lock_text = folder.lock_text;
    o.replayed_provenance = folder.provenance;
    RunResult r;
    if (!run_simulation(&o, &r, &error))
        return cli_fail(error);
    g_autofree char *printed = report_string(r.report, &r.headline, fmt);
    fputs(printed, stdout);
    rc = r.ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
    run_result_clear(&r);
    /* whole files: the lengths too (the reader refuses a NUL, which would end a string early) */
    if (strlen(printed) == folder.report_len && !memcmp(printed, folder.report, folder.report_len)) {
        cli_eprintf("qsim run: --replay %s: the same report as %s, byte for byte\n", dir,
                    run_folder_report_name(folder.format));
        return rc;
    }
    g_auto(GStrv) a = g_strsplit(folder.report, "\n", -1), b = g_strsplit(printed, "\n", -1);
    guint i = 0;
    while (a[i] && b[i] && !strcmp(a[i], b[i]))
        i++;
    cli_eprintf("qsim run: --replay %s: the report differs from %s at line %u:\n  kept:  %s\n  now:   %s\n"
                "(another qsim, or a model changed since the run was kept)\n", dir,
                run_folder_report_name(folder.format), i + 1, a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
    return QSIM_EXIT_FAILED;
}

int cmd_run(int argc, char **argv)
{
    /* The command as typed, for the report; a replay takes no other word. */
    g_autofree char *command = provenance_command_line(argc, argv);
    int typed = argc;
    /* A scenario's `#:` options go before the command line's, which then override them; a kept
     * run (--out) keeps them, so that its replay needs no scenario file. */
    g_autofree char **expanded = NULL;
    g_auto(CliScenarioHeader) header = { 0 };
    int rc0 = cli_scenario_expand(&argc, &argv, &expanded, &header);
    if (rc0 >= 0)
        return rc0;
    g_auto(GStrv) words = words_without_out(argc, argv);
    RunOptions o;
    run_options_init(&o);
    g_auto(RunFlags) f = { .seed = (gint64)o.seed, .writers = -1, .progress = -1 };
    if (!run_parse(&argc, &argv, &f, &o))
        return QSIM_EXIT_USAGE;
    if (argc > 1) {
        cli_eprintf("qsim run: unexpected argument '%s'\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    if (f.force && !f.out) {
        cli_eprintf("qsim run: --force belongs to --out (it lets a run be kept in a folder that is not empty)\n");
        return QSIM_EXIT_USAGE;
    }
    if (f.replay) {
        /* "run --replay DIR" or "run --replay=DIR": the folder says everything else */
        if (typed > 3 || (typed == 3 && g_strcmp0(words[1], "--replay"))) {
            cli_eprintf("qsim run: --replay takes no other option (the kept command line has them)\n");
            return QSIM_EXIT_USAGE;
        }
        return replay_run(f.replay);
    }
    o.command = command;
    if (f.script)
        return run_script(&f);
    if (f.fault) {
        cli_eprintf("qsim run: --fault goes with --script (a fault is found by running accesses one by one)\n");
        return QSIM_EXIT_USAGE;
    }
    ReportFormat fmt = REPORT_TEXT;
    int rc = prepare_run(&f, &o, &fmt, FALSE);
    if (rc >= 0)
        return rc;
    if (f.repeat)
        return run_repeat_command(&o, (guint)f.repeat, f.vs, fmt, &header);
    return run_once(&o, f.vs, f.native, fmt, f.out, f.force, words, &header);
}

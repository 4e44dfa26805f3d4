/* `qsim native`: runs a lock on the host, one pinned thread per CPU (docs/native.md). */
#include <stdio.h>
#include <string.h>
#include "locks/native/native_repeat.h"
#include "locks/native/native_run.h"
#include "locks/native/native_sched.h"
#include "sim/cli/commands.h"
#include "sim/report/provenance.h"
#include "sim/base/input_file.h"
#include "sim/base/report.h"

/* A run's warnings (native_sched.h) on stderr; `run` names it among repeats (0: the only run).
 * TRUE when there were any. */
static gboolean print_warnings(JsonNode *report, guint run, guint of)
{
    g_autoptr(GPtrArray) w = native_report_warnings(report);
    for (guint i = 0; i < w->len; i++) {
        if (run)
            cli_eprintf("qsim native: warning: run %u of %u: %s\n", run, of, (char *)w->pdata[i]);
        else
            cli_eprintf("qsim native: warning: %s\n", (char *)w->pdata[i]);
    }
    return w->len > 0;
}

/* What `qsim native` parses besides the workload. */
typedef struct {
    LockFlags lock;
    char *cpus, *format;
    gint repeat;
    gint64 progress;
    WorkloadFlags wf;          /* the workload's options, and which were given */
} NativeFlags;

static void native_flags_clear(NativeFlags *f)
{
    workload_flags_clear(&f->wf);
    lock_flags_clear(&f->lock);
    g_free(f->cpus);
    g_free(f->format);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(NativeFlags, native_flags_clear)

static gboolean native_parse(int *argc, char ***argv, NativeFlags *f, NativeRunOptions *o)
{
    workload_flags_init(&f->wf, &o->workload, WL_NATIVE);
    /* Short options as `qsim run` spells them (-l, -f; the workload's -t, -i come from its table). */
    GOptionEntry what[LOCK_FLAGS_N + 1] = { { NULL } };
    lock_flags_entries(&f->lock, what);
    const GOptionEntry how[] = {
        { "cpus", 0, 0, G_OPTION_ARG_STRING, &f->cpus,
          "CPUs to pin to, e.g. 0,2-5 (default: the first N allowed; without --threads, one thread per CPU listed)",
          "LIST" },
        { "repeat", 0, 0, G_OPTION_ARG_INT, &f->repeat,
          "run N times and report each figure's median, min and max, and its mean's 95% interval (default 1)", "N" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &f->format, "report format (default text)", "text|json|csv" },
        { "progress-ms", 0, 0, G_OPTION_ARG_INT64, &f->progress,
          "end the run (exit 1) when no thread acquires or releases the lock for MS milliseconds "
          "(default 2000 + 4 ns per work unit of every thread's cs-work and think; " QSIM_DOC("robustness.md") ")", "MS" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    const CliIntRange ranges[] = {
        { "repeat", 1, 10000 }, { "progress-ms", NATIVE_PROGRESS_MIN_MS, NATIVE_PROGRESS_MAX_MS }, { NULL },
    };
    gboolean parsed = cli_parse_workload_command(
        argc, argv, NULL,
        "Run a lock natively on this machine: the same ISA source as the\n"
        "simulator, translated to C, one pinned thread per CPU.\n"
        "A work unit is one iteration of a dependent-add loop (about one\n"
        "core cycle; the report gives its measured ns as work_unit_ns).\n"
        "A thread descheduled during the run, or a busy host, is warned about\n"
        "on stderr: the figures then include time the lock waited for a CPU.",
        what, &f->wf, how, ranges);
    return parsed;
}

/* The options checked and applied to `o` (the CPU list kept in `cpus`); FALSE with the error. */
static gboolean native_options(const NativeFlags *f, NativeRunOptions *o, GArray **cpus, GError **error)
{
    if (!f->lock.lock == !f->lock.lock_file) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "give one of --lock NAME or --lock-file PATH");
        return FALSE;
    }
    /* The native backend reads the file; a device or an oversized one is refused before it does. */
    if (f->lock.lock_file && !input_file_check(f->lock.lock_file, INPUT_LOCK, error))
        return FALSE;
    if (!workload_flags_check(&f->wf, error) || !cc_flags_apply(&f->lock.cc, (const char *const[]){ f->lock.lock, f->lock.lock_file }, 2, error))
        return FALSE;
    if (f->progress != -1) /* not given: -1, below its range */
        o->progress_ms = (guint)f->progress;
    if (f->cpus) {
        if (!native_parse_cpus(f->cpus, cpus, error))
            return FALSE;
        o->cpus = *cpus;
        if (!workload_flags_given(&f->wf, "threads"))
            o->workload.threads = (*cpus)->len; /* one per CPU listed */
    }
    if (!workload_validate(&o->workload, WL_NATIVE, error))
        return FALSE;
    o->lock_params = (const char *const *)f->lock.params;
    return TRUE;
}

/* The runs' report: the one run's (`only`), or each figure over the runs (`acc`, freed). */
static void print_runs(JsonNode *only, NativeRepeat *acc, guint disturbed, ReportFormat fmt)
{
    if (only) {
        g_autofree char *text = report_document_format(only, "report", fmt);
        fputs(text, stdout);
        return;
    }
    /* Text shows each figure's median and spread and the mean's interval; JSON has median, min,
     * max, mean and the interval, and the runs. */
    guint n = native_repeat_count(acc);
    NativeSummaryView view = fmt == REPORT_TEXT ? NATIVE_SUMMARY_TEXT : NATIVE_SUMMARY_DATA;
    JsonNode *summary = native_repeat_finish(acc, view);
    g_autofree char *text = report_document_format(summary, "summary", fmt);
    if (fmt == REPORT_TEXT)
        printf("each measured figure: median (min .. max, spread); mean [95%% interval of the mean, n = %u, t on the "
               "log of the mean, as the model's --repeat]\n\n", n);
    fputs(text, stdout);
    json_node_unref(summary);
    if (disturbed)
        cli_eprintf("qsim native: warning: %u of %u runs were disturbed (above); the spread includes "
                    "them\n", disturbed, n);
}

int cmd_native(int argc, char **argv)
{
    g_autofree char *command = provenance_command_line(argc, argv);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.command = command;
    g_auto(NativeFlags) f = { .repeat = 1, .progress = -1 };
    if (!native_parse(&argc, &argv, &f, &o))
        return QSIM_EXIT_USAGE;

    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) cpu_list = NULL;
    ReportFormat fmt = REPORT_TEXT;
    if (argc > 1) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "unexpected argument '%s'", argv[1]);
        return cli_fail(error);
    }
    if (!native_options(&f, &o, &cpu_list, &error))
        return cli_fail(error);
    if (f.format && !report_format_parse(f.format, &fmt, &error))
        return cli_fail(error);

    g_autoptr(NativeLock) nl = f.lock.lock ? native_lock_builtin(f.lock.lock, &error)
                                           : native_lock_from_file(f.lock.lock_file, &error);
    if (!nl)
        return cli_fail(error);
    /* Each run's report is summarised as it comes (only a single run's is kept whole). */
    NativeRepeat *acc = f.repeat > 1 ? native_repeat_new(fmt == REPORT_JSON) : NULL;
    g_autoptr(JsonNode) only = NULL;
    guint disturbed = 0;
    gboolean mutex_ok = TRUE;
    for (gint i = 0; i < f.repeat; i++) {
        JsonNode *root = native_run(nl, &o, &error);
        if (!root) {
            cli_eprintf("qsim: %s\n", error->message);
            native_repeat_free(acc);
            return error->code == NATIVE_ERROR_USAGE ? QSIM_EXIT_USAGE : QSIM_EXIT_FAILED;
        }
        disturbed += print_warnings(root, f.repeat > 1 ? (guint)i + 1 : 0, (guint)f.repeat);
        mutex_ok &= json_object_get_boolean_member(json_node_get_object(root), "mutual_exclusion");
        if (acc) {
            native_repeat_add(acc, root);
            json_node_unref(root);
        } else {
            only = root;
        }
    }
    print_runs(only, acc, disturbed, fmt);
    if (!mutex_ok) {
        cli_eprintf("qsim: mutual exclusion was violated\n");
        return QSIM_EXIT_FAILED;
    }
    return QSIM_EXIT_OK;
}

/* `qsim native`: runs a lock on the host, one pinned thread per CPU (docs/native.md). */
#include <stdio.h>
#include <string.h>
#include "locks/native/native_repeat.h"
#include "locks/native/native_run.h"
#include "locks/native/native_sched.h"
#include "sim/cli/commands.h"
#include "sim/base/input_file.h"
#include "sim/base/report.h"

/* A run's warnings (native_sched.h) on stderr; `run` names it among repeats (0: the only run).
 * TRUE when there were any. */
static gboolean print_warnings(JsonNode *report, guint run, guint of)
{
    g_autoptr(GPtrArray) w = native_report_warnings(report);
    for (guint i = 0; i < w->len; i++) {
        if (run)
            fprintf(stderr, "qsim native: warning: run %u of %u: %s\n", run, of, (char *)w->pdata[i]);
        else
            fprintf(stderr, "qsim native: warning: %s\n", (char *)w->pdata[i]);
    }
    return w->len > 0;
}

int cmd_native(int argc, char **argv)
{
    g_autofree char *lock = NULL, *lock_file = NULL, *cpus = NULL, *format = NULL;
    gint repeat = 1;
    g_auto(GStrv) lock_params = NULL;
    gint64 progress = -1;
    NativeRunOptions o;
    native_run_options_init(&o);
    WorkloadFlags wf;
    workload_flags_init(&wf, &o.workload, WL_NATIVE);
    /* Short options as `qsim run` spells them (-l, -f; the workload's -t, -i come from its table). */
    const GOptionEntry what[] = {
        { "lock", 'l', 0, G_OPTION_ARG_STRING, &lock, "a built-in lock", "NAME" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME, &lock_file, "a lock in ISA source, compiled now with $CC or cc", "PATH" },
        { "lock-param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &lock_params,
          "set a lock's tunable (its `.param`), e.g. --lock-param spin_count=1000 (repeatable)", "NAME=VALUE" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    const GOptionEntry how[] = {
        { "cpus", 0, 0, G_OPTION_ARG_STRING, &cpus,
          "CPUs to pin to, e.g. 0,2-5 (default: the first N allowed; without --threads, one thread per CPU listed)",
          "LIST" },
        { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat,
          "run N times and report each figure's median, min and max (default 1)", "N" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "report format (default text)", "text|json|csv" },
        { "progress-ms", 0, 0, G_OPTION_ARG_INT64, &progress,
          "end the run (exit 1) when no thread acquires or releases the lock for MS milliseconds "
          "(default 2000 + 4 ns per work unit of every thread's cs-work and think; " QSIM_DOC("robustness.md") ")", "MS" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    gboolean parsed = cli_parse_workload_command(
        &argc, &argv, NULL,
        "Run a lock natively on this machine: the same ISA source as the\n"
        "simulator, translated to C, one pinned thread per CPU.\n"
        "A work unit is one iteration of a dependent-add loop (about one\n"
        "core cycle; the report gives its measured ns as work_unit_ns).\n"
        "A thread descheduled during the run, or a busy host, is warned about\n"
        "on stderr: the figures then include time the lock waited for a CPU.",
        what, &wf, how);
    workload_flags_clear(&wf);
    if (!parsed)
        return QSIM_EXIT_USAGE;

    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) cpu_list = NULL;
    ReportFormat fmt = REPORT_TEXT;
    if (argc > 1) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "unexpected argument '%s'", argv[1]);
        return cli_fail(error);
    }
    if (!lock == !lock_file) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "give one of --lock NAME or --lock-file PATH");
        return cli_fail(error);
    }
    /* The native backend reads the file; a device or an oversized one is refused before it does. */
    if (lock_file && !input_file_check(lock_file, INPUT_LOCK, &error))
        return cli_fail(error);
    if (workload_flags_given(&wf, "iterations") && o.workload.duration_ms) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "give --iterations or --duration-ms, not both");
        return cli_fail(error);
    }
    if (progress != -1) {
        if (progress < NATIVE_PROGRESS_MIN_MS || progress > NATIVE_PROGRESS_MAX_MS) {
            g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "--progress-ms %" G_GINT64_FORMAT
                        ": out of range [%d, %d]", progress, NATIVE_PROGRESS_MIN_MS, NATIVE_PROGRESS_MAX_MS);
            return cli_fail(error);
        }
        o.progress_ms = (guint)progress;
    }
    if (repeat < 1 || repeat > 10000) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "--repeat %d: out of range [1, 10000]", repeat);
        return cli_fail(error);
    }
    if (cpus) {
        if (!native_parse_cpus(cpus, &cpu_list, &error))
            return cli_fail(error);
        o.cpus = cpu_list;
        if (!workload_flags_given(&wf, "threads"))
            o.workload.threads = cpu_list->len; /* one per CPU listed */
    }
    if (!workload_validate(&o.workload, WL_NATIVE, &error))
        return cli_fail(error);
    if (format && !report_format_parse(format, &fmt, &error))
        return cli_fail(error);
    o.lock_params = (const char *const *)lock_params;

    g_autoptr(NativeLock) nl = lock ? native_lock_builtin(lock, &error) : native_lock_from_file(lock_file, &error);
    if (!nl)
        return cli_fail(error);
    /* Each run's report is summarised as it comes (only one kept whole: a single run's). */
    NativeRepeat *acc = repeat > 1 ? native_repeat_new(fmt == REPORT_JSON) : NULL;
    JsonNode *only = NULL;
    guint disturbed = 0;
    gboolean mutex_ok = TRUE;
    for (gint i = 0; i < repeat; i++) {
        JsonNode *root = native_run(nl, &o, &error);
        if (!root) {
            fprintf(stderr, "qsim: %s\n", error->message);
            native_repeat_free(acc);
            return error->code == NATIVE_ERROR_USAGE ? QSIM_EXIT_USAGE : QSIM_EXIT_FAILED;
        }
        disturbed += print_warnings(root, repeat > 1 ? (guint)i + 1 : 0, (guint)repeat);
        mutex_ok &= json_object_get_boolean_member(json_node_get_object(root), "mutual_exclusion");
        if (repeat == 1) {
            only = root;
        } else {
            native_repeat_add(acc, root);
            json_node_unref(root);
        }
    }
    if (repeat == 1) {
        g_autofree char *text = report_format(only, fmt);
        json_node_unref(only);
        fputs(text, stdout);
    } else {
        /* Text shows each figure's median and spread; JSON has median, min and max, and the runs. */
        NativeSummaryView view = fmt == REPORT_TEXT ? NATIVE_SUMMARY_TEXT : NATIVE_SUMMARY_DATA;
        JsonNode *summary = native_repeat_finish(acc, view);
        g_autofree char *text = report_format(summary, fmt);
        fputs(text, stdout);
        json_node_unref(summary);
        if (disturbed)
            fprintf(stderr, "qsim native: warning: %u of %d runs were disturbed (above); the spread includes "
                            "them\n", disturbed, repeat);
    }
    if (!mutex_ok) {
        fprintf(stderr, "qsim: mutual exclusion was violated\n");
        return QSIM_EXIT_FAILED;
    }
    return QSIM_EXIT_OK;
}

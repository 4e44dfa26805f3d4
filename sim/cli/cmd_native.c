/* `qsim native`: runs a lock on the host, one pinned thread per CPU (docs/native.md). */
#include <stdio.h>
#include <string.h>
#include "locks/native_run.h"
#include "sim/cli/commands.h"
#include "sim/base/report.h"

static gboolean nonneg(const char *opt, gint64 v, GError **error)
{
    if (v >= 0)
        return TRUE;
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "%s %" G_GINT64_FORMAT ": must not be negative",
                opt, v);
    return FALSE;
}

int cmd_native(int argc, char **argv)
{
    g_autofree char *lock = NULL, *lock_file = NULL, *data = NULL, *cpus = NULL, *format = NULL;
    gint64 threads = 0, iterations = -1, duration_ms = -1, cs_writes = 0, cs_work = 0, think = 0;
    GOptionEntry entries[] = {
        { "lock", 0, 0, G_OPTION_ARG_STRING, &lock, "a built-in lock", "NAME" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME, &lock_file, "a lock in ISA source, compiled now with $CC or cc", "PATH" },
        { "threads", 0, 0, G_OPTION_ARG_INT64, &threads, "threads, one per CPU (default: 2, or one per --cpus entry)", "N" },
        { "iterations", 0, 0, G_OPTION_ARG_INT64, &iterations, "acquisitions per thread (default 10000)", "N" },
        { "duration-ms", 0, 0, G_OPTION_ARG_INT64, &duration_ms, "run for this long instead of a fixed count", "MS" },
        { "cs-writes", 0, 0, G_OPTION_ARG_INT64, &cs_writes, "extra shared words written in the critical section (default 0)", "N" },
        { "data", 0, 0, G_OPTION_ARG_STRING, &data, "critical-section data placement (default separate-line)", "same-line|separate-line" },
        { "cs-work", 0, 0, G_OPTION_ARG_INT64, &cs_work, "work units inside the critical section (default 0)", "N" },
        { "think", 0, 0, G_OPTION_ARG_INT64, &think, "work units between release and the next acquire (default 0)", "N" },
        { "cpus", 0, 0, G_OPTION_ARG_STRING, &cpus, "CPUs to pin to, e.g. 0,2-5 (default: the first N allowed)", "LIST" },
        { "format", 0, 0, G_OPTION_ARG_STRING, &format, "report format (default text)", "text|json|csv" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, NULL,
                           "Run a lock natively on this machine: the same ISA source as the\n"
                                      "simulator, translated to C, one pinned thread per CPU.\n"
                                      "A work unit is one iteration of a dependent-add loop (about one\n"
                                      "core cycle; the report gives its measured ns as work_unit_ns).",
                           entries))
        return QSIM_EXIT_USAGE;

    g_autoptr(GError) error = NULL;
    NativeOptions o;
    native_options_init(&o);
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
    if (iterations >= 0 && duration_ms >= 0) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "give --iterations or --duration-ms, not both");
        return cli_fail(error);
    }
    if (!nonneg("--threads", threads, &error) || !nonneg("--cs-writes", cs_writes, &error) ||
        !nonneg("--cs-work", cs_work, &error) || !nonneg("--think", think, &error))
        return cli_fail(error);
    if (iterations == 0 || duration_ms == 0 || iterations < -1 || duration_ms < -1 ||
        duration_ms > G_MAXINT || threads > 4096 || cs_writes > 4096) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--iterations and --duration-ms must be positive; --threads and --cs-writes at most 4096");
        return cli_fail(error);
    }
    o.threads = (guint)threads;
    o.cs_writes = (guint)cs_writes;
    o.cs_work = (guint64)cs_work;
    o.think = (guint64)think;
    if (duration_ms > 0) {
        o.iterations = 0;
        o.duration_ms = (guint)duration_ms;
    } else if (iterations > 0) {
        o.iterations = (guint64)iterations;
    }
    if (data && strcmp(data, "same-line") && strcmp(data, "separate-line")) {
        g_set_error(&error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--data %s: one of same-line, separate-line", data);
        return cli_fail(error);
    }
    o.data_same_line = data && !strcmp(data, "same-line");
    if (cpus) {
        if (!native_parse_cpus(cpus, &cpu_list, &error))
            return cli_fail(error);
        o.cpus = cpu_list;
    }
    if (format && !report_format_parse(format, &fmt, &error))
        return cli_fail(error);

    g_autoptr(NativeLock) nl = lock ? native_lock_builtin(lock, &error) : native_lock_from_file(lock_file, &error);
    if (!nl)
        return cli_fail(error);
    JsonNode *root = native_run(nl, &o, &error);
    if (!root) {
        fprintf(stderr, "qsim: %s\n", error->message);
        return error->code == NATIVE_ERROR_USAGE ? QSIM_EXIT_USAGE : QSIM_EXIT_FAILED;
    }
    g_autofree char *text = report_format(root, fmt);
    fputs(text, stdout);
    gboolean mutex_ok = json_object_get_boolean_member(json_node_get_object(root), "mutual_exclusion");
    json_node_unref(root);
    if (!mutex_ok) {
        fprintf(stderr, "qsim: mutual exclusion was violated\n");
        return QSIM_EXIT_FAILED;
    }
    return QSIM_EXIT_OK;
}

/* `qsim validate`: runs the validation tables (sim/validation/validate.h) and prints model against
 * published figure, row by row; exit 1 when a checked row is outside its tolerance.
 * `qsim validate --host` holds the model of this machine against this machine instead
 * (sim/calibrate/validate_host.h). */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/output_file.h"
#include "sim/base/report.h"
#include "sim/report/provenance.h"
#include "sim/calibrate/calibrate.h"
#include "sim/calibrate/validate_host.h"
#include "sim/validation/validate.h"

/* No --config with --host: a quick calibration of this host into the user's cache, said so. */
static char *quick_host_config(GError **error)
{
    cli_eprintf("qsim validate: no --config: calibrating this host quickly (rough values; "
                "`qsim calibrate --out host.yaml` and --config host.yaml for careful ones)\n");
    CalibOptions co = { TRUE, NULL, NULL, NULL };
    g_autoptr(CalibResult) r = calibrate_run(&co, error);
    if (!r)
        return NULL;
    g_autofree char *yaml = calib_write_yaml(r, error);
    if (!yaml)
        return NULL;
    g_autofree char *dir = g_build_filename(g_get_user_cache_dir(), "qsim", NULL);
    g_mkdir_with_parents(dir, 0755);
    char *path = g_build_filename(dir, "host-quick.yaml", NULL);
    if (!output_file_write(path, OUTPUT_TRUNCATE, yaml, strlen(yaml), error)) {
        g_free(path);
        return NULL;
    }
    cli_eprintf("qsim validate: wrote %s\n", path);
    return path;
}

static int validate_host(const char *config, const char *const *locks, gint repeat, gint threads_max, gint iterations,
                         ReportFormat fmt, const char *command)
{
    g_autoptr(GError) error = NULL;
    if (repeat < 2) {
        cli_eprintf("qsim validate: --repeat needs at least 2 runs (an interval needs two)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *quick = config ? NULL : quick_host_config(&error);
    if (!config && !quick)
        return cli_fail(error);
    HostValidateOptions o;
    host_validate_options_init(&o);
    o.config = config ? config : quick;
    o.repeat = (guint)repeat;
    o.max_threads = (guint)threads_max;
    o.host_iterations = (guint)iterations;
    o.locks = locks;
    g_autoptr(HostTable) t = validate_host_run(&o, &error);
    if (!t)
        return cli_fail(error);
    g_autofree char *out = NULL;
    if (fmt == REPORT_JSON) {
        g_autoptr(JsonNode) root = validate_host_json(t);
        json_object_set_object_member(json_node_get_object(root), "provenance", provenance_of_command(command));
        out = report_document_format(root, "validate-host", fmt);
    } else {
        out = validate_host_text(t);
    }
    fputs(out, stdout);
    /* a disagreement is a finding, not a failure; a lock that broke mutual exclusion is one */
    for (guint i = 0; i < t->rows->len; i++)
        if (!g_array_index(t->rows, HostRow, i).ok)
            return QSIM_EXIT_FAILED;
    return QSIM_EXIT_OK;
}

int cmd_validate(int argc, char **argv)
{
    g_autofree char *command = provenance_command_line(argc, argv);
    g_auto(GStrv) tables = NULL, sets = NULL, locks = NULL;
    g_auto(CcFlags) cc = { 0 };
    g_autofree char *config = NULL, *format = NULL;
    gboolean host = FALSE;
    gint repeat = 5, threads_max = 0, iterations = 10000;
    GOptionEntry entries[] = {
        { "host", 0, 0, G_OPTION_ARG_NONE, &host,
          "Hold the model of this machine (--config, else a quick calibration) against native runs of "
          "every built-in lock here", NULL },
        { "repeat", 'n', 0, G_OPTION_ARG_INT, &repeat, "--host: runs per lock on each side (default 5)", "N" },
        { "lock", 'l', 0, G_OPTION_ARG_STRING_ARRAY, &locks,
          "--host: only this lock, a name or a path to a .qs or .c file (repeatable; default: every built-in lock)",
          "NAME|PATH" },
        CC_FLAGS_ENTRIES(&cc),
        { "threads-max", 0, 0, G_OPTION_ARG_INT, &threads_max,
          "--host: most threads (default: the CPUs this process may use)", "N" },
        { "iterations", 'i', 0, G_OPTION_ARG_INT, &iterations,
          "--host: acquisitions per thread on the host (default 10000; the model runs 500)", "N" },
        { "table", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &tables,
          "A table of published measurements (repeatable; default: every tests/validation/*.tsv)", "FILE" },
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Only the rows of this config; with --host, the model of this machine (a name or file)", "NAME" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output: text (default), json or markdown", "FMT" },
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a value in every config (repeatable): what if", "KEY=VALUE" },
        { NULL },
    };
    /* --repeat below 2 is refused with --host only (validate_host): it is ignored without */
    const CliIntRange ranges[] = {
        { "repeat", 0, G_MAXINT }, { "threads-max", 0, G_MAXINT }, { "iterations", 1, G_MAXINT }, { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "",
                           "Hold the model against published measurements.  Each table row names a machine (a\n"
        "config), what was measured and under which conditions, the published value with its unit\n"
        "and source, and a tolerance; the model answers it with the mechanism it names: the latency\n"
        "probe (load, store, cas, fai, swap by state and distance; l1-hit ... memory), a microbenchmark\n"
        "on the core (hot, mfence, lfence, sfence, pause, c2c-oneway, contended, barrier-ratio) or a\n"
        "lock run (lock-ratio).  Rows marked `shown` are printed beside the model but never fail.\n"
        "Exit 0 when every checked row is within tolerance, 1 otherwise, 2 for bad input.\n"
        "\n"
        "With --host, every built-in lock runs natively here and on the model of this machine at\n"
        "2, 3, 4, 8... threads, lock data on the lock's line and on its own: ns per acquisition\n"
        "with 95% intervals, the median relative error and the rank correlation (" QSIM_DOC("validate-host.md") ").\n"
        "Exit 1 there only when a lock broke mutual exclusion.",
                           entries, ranges))
        return QSIM_EXIT_USAGE;
    if (argc != 1) {
        cli_eprintf("qsim validate: unexpected argument '%s' (try `qsim validate --help`)\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    ReportFormat fmt = REPORT_TEXT;
    gboolean markdown = format && !strcmp(format, "markdown");
    if (format && !markdown && (!report_format_parse(format, &fmt, &error) || fmt == REPORT_CSV)) {
        cli_eprintf("qsim validate: --format %s: use text, json or markdown\n", format);
        return QSIM_EXIT_USAGE;
    }
    if (host) {
        if (tables || sets || markdown) {
            cli_eprintf("qsim validate: --host takes --config, --lock, --cc, --cflags, --repeat, --threads-max, "
                        "--iterations and --format text|json\n");
            return QSIM_EXIT_USAGE;
        }
        const char *const none[] = { NULL };   /* no --lock: the built-in ones, none in C */
        if (!cc_flags_apply(&cc, locks ? (const char *const *)locks : none, locks ? g_strv_length(locks) : 0, &error))
            return cli_fail(error);
        return validate_host(config, (const char *const *)locks, repeat, threads_max, iterations, fmt, command);
    }
    if (locks || cc.cc || cc.cflags) {
        cli_eprintf("qsim validate: --lock, --cc and --cflags go with --host (the published tables name their "
                    "own locks)\n");
        return QSIM_EXIT_USAGE;
    }
    if (!tables && !(tables = validation_default_tables(&error)))
        return cli_fail(error);
    g_autoptr(ValidationTable) t = validation_table_new();
    for (guint i = 0; tables[i]; i++)
        if (!validation_table_load(t, tables[i], &error))
            return cli_fail(error);
    g_autoptr(GArray) results = validation_run(t, config, (const char *const *)sets, &error);
    if (!results)
        return cli_fail(error);
    g_autofree char *out = NULL;
    if (markdown) {
        out = validation_markdown(results);
    } else if (fmt == REPORT_JSON) {
        g_autoptr(JsonNode) root = validation_json(results);
        json_object_set_object_member(json_node_get_object(root), "provenance", provenance_of_command(command));
        out = report_document_format(root, "validation", fmt);
    } else {
        out = validation_text(results);
    }
    fputs(out, stdout);
    return validation_failures(results) ? QSIM_EXIT_FAILED : QSIM_EXIT_OK;
}

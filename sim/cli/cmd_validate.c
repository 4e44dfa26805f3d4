/* `qsim validate`: runs the validation tables (sim/validate.h) and prints model against
 * published figure, row by row; exit 1 when a checked row is outside its tolerance. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/report.h"
#include "sim/validate.h"

int cmd_validate(int argc, char **argv)
{
    g_auto(GStrv) tables = NULL, sets = NULL;
    g_autofree char *config = NULL, *format = NULL;
    GOptionEntry entries[] = {
        { "table", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &tables,
          "A table of published measurements (repeatable; default: every tests/validation/*.tsv)", "FILE" },
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Only the rows of this config", "NAME" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output: text (default), json or markdown", "FMT" },
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a value in every config (repeatable): what if", "KEY=VALUE" },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "",
                           "Hold the model against published measurements.  Each table row names a machine (a\n"
        "config), what was measured and under which conditions, the published value with its unit\n"
        "and source, and a tolerance; the model answers it with the mechanism it names: the latency\n"
        "probe (load, store, cas, fai, swap by state and distance; l1-hit ... memory), a microbenchmark\n"
        "on the core (hot, mfence, lfence, sfence, pause, c2c-oneway, contended, barrier-ratio) or a\n"
        "lock run (lock-ratio).  Rows marked `shown` are printed beside the model but never fail.\n"
        "Exit 0 when every checked row is within tolerance, 1 otherwise, 2 for bad input.",
                           entries))
        return QSIM_EXIT_USAGE;
    if (argc != 1) {
        fprintf(stderr, "qsim validate: unexpected argument '%s' (try `qsim validate --help`)\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    ReportFormat fmt = REPORT_TEXT;
    gboolean markdown = format && !strcmp(format, "markdown");
    if (format && !markdown && (!report_format_parse(format, &fmt, &error) || fmt == REPORT_CSV)) {
        fprintf(stderr, "qsim validate: --format %s: use text, json or markdown\n", format);
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
        out = report_to_json(root);
    } else {
        out = validation_text(results);
    }
    fputs(out, stdout);
    return validation_failures(results) ? QSIM_EXIT_FAILED : QSIM_EXIT_OK;
}

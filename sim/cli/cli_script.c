/* `qsim run --script SCRIPT`: scripted accesses (sim/workload/access_script.h) on the config's memory
 * system, printed as a table (or JSON), traced as any run is. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/run/access_script_run.h"
#include "sim/base/input_file.h"
#include "sim/base/report.h"

int cli_run_script(const char *arg, const ScriptRunOptions *o, ReportFormat fmt)
{
    g_autoptr(GError) error = NULL;
    /* A file when something is there by that name (its errors at its own lines; a folder or a
     * device is refused as one), or when it cannot be a script: every access has a `:`, so
     * `/nonexistent` is a file not found, not a script that names no thread.  Else the text. */
    g_autofree char *text = NULL;
    gboolean file = g_file_test(arg, G_FILE_TEST_EXISTS) || (*arg && !strchr(arg, ':'));
    if (file && !input_file_read(arg, INPUT_SCRIPT, &text, NULL, &error))
        return cli_fail(error);
    g_autoptr(AccessScript) s = access_script_parse(file ? arg : "--script", file ? text : arg, &error);
    if (!s)
        return cli_fail(error);
    TraceHtmlCut cut = { 0 };
    g_autoptr(JsonNode) report = access_script_run(s, o, &cut, &error);
    if (!report)
        return cli_fail(error);
    cli_warn_page_cut(o->trace.html, &cut);
    g_autofree char *out = fmt == REPORT_TEXT ? access_script_report_text(report)
                                              : report_document_format(report, "script", fmt);
    fputs(out, stdout);
    JsonObject *ro = json_node_get_object(report);
    if (json_object_has_member(ro, "invariant")) {
        cli_eprintf("qsim run: the invariant checker: %s\n", json_object_get_string_member(ro, "invariant"));
        return QSIM_EXIT_FAILED;
    }
    return QSIM_EXIT_OK;
}

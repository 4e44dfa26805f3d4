/* `qsim run --scenario NAME`: the scenario's header options (its `#:` lines, sim/workload/scenario.h)
 * put before the command line's own, so that what is typed wins. */
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/workload/scenario.h"
#include "sim/base/input_file.h"

/* The value of --scenario in argv, or NULL (the last one given, as the parse reads it). */
static const char *scenario_arg(int argc, char **argv)
{
    const char *found = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--scenario") && i + 1 < argc)
            found = argv[++i];
        else if (g_str_has_prefix(argv[i], "--scenario="))
            found = argv[i] + strlen("--scenario=");
    }
    return found;
}

int cli_scenario_expand(int *argc, char ***argv, char ***expanded, GStrv *words)
{
    const char *name = scenario_arg(*argc, *argv);
    if (!name)
        return -1;
    g_autoptr(GError) error = NULL;
    g_autofree char *path = scenario_find(name, &error);
    g_autofree char *text = NULL;
    if (!path || !input_file_read(path, INPUT_LOCK, &text, NULL, &error))
        return cli_fail(error);
    *words = scenario_options(path, text, &error);
    if (!*words)
        return cli_fail(error);
    guint n = g_strv_length(*words);
    char **out = g_new0(char *, (gsize)*argc + n + 1);
    out[0] = (*argv)[0];
    for (guint i = 0; i < n; i++)
        out[1 + i] = (*words)[i];
    for (int i = 1; i < *argc; i++)
        out[n + (guint)i] = (*argv)[i];
    *argc += (int)n;
    *argv = out;
    *expanded = out;
    return -1;
}

/* Helpers shared by the sub-commands: option parsing and error printing. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"

gboolean cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
    g_autoptr(GError) error = NULL;
    /* Help then reads "Usage: qsim NAME [OPTION...]". */
    g_autofree char *prg = g_strdup_printf("qsim %s", (*argv)[0]);
    g_set_prgname(prg);
    if (!g_option_context_parse(ctx, argc, argv, &error)) {
        fprintf(stderr, "qsim %s: %s (try `qsim %s --help`)\n", (*argv)[0], error->message,
                (*argv)[0]);
        return FALSE;
    }
    return TRUE;
}

gboolean cli_parse_command(int *argc, char ***argv, const char *params, const char *summary,
                           const GOptionEntry *entries)
{
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    if (entries)
        g_option_context_add_main_entries(ctx, entries, NULL);
    gboolean ok = cli_parse(ctx, argc, argv);
    g_option_context_free(ctx);
    return ok;
}

gboolean cli_parse_workload_command(int *argc, char ***argv, const char *params, const char *summary,
                                    const GOptionEntry *what, WorkloadFlags *wf, const GOptionEntry *how)
{
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    /* The workload entries are callbacks: their group's user data is what they parse into. */
    GOptionGroup *g = g_option_group_new("qsim", "Options", "Show the options", wf, NULL);
    g_option_group_add_entries(g, what);
    g_option_group_add_entries(g, wf->entries);
    g_option_group_add_entries(g, how);
    g_option_context_set_main_group(ctx, g);
    gboolean ok = cli_parse(ctx, argc, argv);
    g_option_context_free(ctx);
    return ok;
}

int cli_fail(const GError *error)
{
    fprintf(stderr, "qsim: %s\n", error->message);
    return QSIM_EXIT_USAGE;
}

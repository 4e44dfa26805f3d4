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

/* Set while cli_describe_commands runs a command: its parsing records into it instead. */
static CliCommandDoc *describing;

static void cli_option_free(gpointer p)
{
    CliOption *o = p;
    g_free(o->long_name);
    g_free(o->arg);
    g_free(o->help);
    g_free(o);
}

static void cli_command_doc_free(gpointer p)
{
    CliCommandDoc *d = p;
    g_free(d->params);
    g_free(d->summary);
    g_ptr_array_unref(d->options);
    g_free(d);
}

static void describe_entries(const GOptionEntry *e)
{
    for (; e && e->long_name; e++) {
        CliOption *o = g_new0(CliOption, 1);
        o->long_name = g_strdup(e->long_name);
        o->short_name = e->short_name;
        o->takes_arg = e->arg != G_OPTION_ARG_NONE && !(e->flags & G_OPTION_FLAG_NO_ARG);
        o->arg = g_strdup(e->arg_description);
        o->help = g_strdup(e->description);
        g_ptr_array_add(describing->options, o);
    }
}

static void describe(const char *params, const char *summary)
{
    describing->params = g_strdup(params ? params : "");
    describing->summary = g_strdup(summary ? summary : "");
}

GPtrArray *cli_describe_commands(void)
{
    GPtrArray *docs = g_ptr_array_new_with_free_func(cli_command_doc_free);
    for (const QsimCommand *c = qsim_commands; c->name; c++) {
        CliCommandDoc *d = g_new0(CliCommandDoc, 1);
        d->command = c;
        d->options = g_ptr_array_new_with_free_func(cli_option_free);
        char *args[] = { (char *)c->name, NULL };
        describing = d;
        c->fn(1, args);
        describing = NULL;
        g_assert(d->params); /* every command parses with cli_parse_command or cli_parse_workload_command */
        g_ptr_array_add(docs, d);
    }
    return docs;
}

gboolean cli_parse_command(int *argc, char ***argv, const char *params, const char *summary,
                           const GOptionEntry *entries)
{
    if (describing) {
        describe(params, summary);
        describe_entries(entries);
        return FALSE;
    }
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
    if (describing) {
        describe(params, summary);
        describe_entries(what);
        describe_entries(wf->entries);
        describe_entries(how);
        return FALSE;
    }
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

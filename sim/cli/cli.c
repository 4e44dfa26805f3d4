/* Helpers shared by the sub-commands: option parsing and error printing. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/echo.h"

static gboolean check_integer_options(const GOptionEntry *const *groups, int argc, char **argv, GError **error);

/* Parses argv with `ctx`, whose options are the `groups` (NULL-terminated entry lists). */
static gboolean parse_checked(GOptionContext *ctx, const GOptionEntry *const *groups, int *argc, char ***argv)
{
    g_autoptr(GError) error = NULL;
    if (!check_integer_options(groups, *argc, *argv, &error)) {
        fprintf(stderr, "qsim %s: %s (try `qsim %s --help`)\n", (*argv)[0], error->message, (*argv)[0]);
        return FALSE;
    }
    return cli_parse(ctx, argc, argv);
}

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

/* ---- numbers on the command line ---- */

/* GOption reads integers with strtol's base 0: `--threads 010` was 8 and `--runs 0x10` 16.
 * Numbers are decimal everywhere in qsim (configs too), so an integer option's value must be
 * written in decimal, and a leading zero is refused rather than read either way. */

static gboolean takes_arg(const GOptionEntry *e)
{
    return e->arg != G_OPTION_ARG_NONE && !(e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG));
}

static gboolean is_integer_option(const GOptionEntry *e)
{
    return e->arg == G_OPTION_ARG_INT || e->arg == G_OPTION_ARG_INT64;
}

static const GOptionEntry *find_long(const GOptionEntry *const *groups, const char *name, gsize len)
{
    for (guint g = 0; groups[g]; g++)
        for (const GOptionEntry *e = groups[g]; e->long_name; e++)
            if (strlen(e->long_name) == len && !strncmp(e->long_name, name, len))
                return e;
    return NULL;
}

static const GOptionEntry *find_short(const GOptionEntry *const *groups, char c)
{
    for (guint g = 0; groups[g]; g++)
        for (const GOptionEntry *e = groups[g]; e->long_name; e++)
            if (e->short_name == c)
                return e;
    return NULL;
}

static gboolean check_integer(const GOptionEntry *e, const char *value, GError **error)
{
    const char *digits = value + (value[0] == '-');
    gsize n = strspn(digits, "0123456789");
    g_autofree char *shown = echo_clip(value);
    if (n == 0 || digits[n]) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--%s %s: expected a decimal integer",
                    e->long_name, shown);
        return FALSE;
    }
    if (n > 1 && digits[0] == '0') {
        const char *p = digits;
        while (p[0] == '0' && p[1])
            p++;
        g_autofree char *plain = echo_clip(p);
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--%s %s: a number with a leading zero (numbers are decimal: write %s%s)", e->long_name, shown,
                    value[0] == '-' ? "-" : "", plain);
        return FALSE;
    }
    return TRUE;
}

/* Every integer option's value in argv is decimal.  Options are found as GOption finds them:
 * --name=VALUE, --name VALUE, -c VALUE, -cVALUE, short flags run together; `--` ends them.
 * What this cannot place (an unknown option) is left to GOption to report. */
static gboolean check_integer_options(const GOptionEntry *const *groups, int argc, char **argv, GError **error)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (a[0] != '-' || !a[1])
            continue;
        if (a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            const GOptionEntry *e = find_long(groups, name, eq ? (gsize)(eq - name) : strlen(name));
            if (!e || !takes_arg(e))
                continue;
            const char *value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (value && is_integer_option(e) && !check_integer(e, value, error))
                return FALSE;
            continue;
        }
        for (const char *c = a + 1; *c; c++) {
            const GOptionEntry *e = find_short(groups, *c);
            if (!e)
                break;
            if (!takes_arg(e))
                continue;
            const char *value = c[1] ? c + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (value && is_integer_option(e) && !check_integer(e, value, error))
                return FALSE;
            break;
        }
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
    const GOptionEntry *groups[] = { entries, NULL };
    gboolean ok = parse_checked(ctx, entries ? groups : groups + 1, argc, argv);
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
    const GOptionEntry *groups[4] = { NULL };
    guint ng = 0;
    const GOptionEntry *all[] = { what, wf->entries, how };
    for (guint i = 0; i < G_N_ELEMENTS(all); i++)
        if (all[i])
            groups[ng++] = all[i];
    gboolean ok = parse_checked(ctx, groups, argc, argv);
    g_option_context_free(ctx);
    return ok;
}

const CliModeRule *cli_mode_conflict(const CliModeRule *rules, guint n, guint given)
{
    for (guint i = 0; i < n; i++)
        if (!rules[i].combine && (given & rules[i].modes) == rules[i].modes)
            return &rules[i];
    return NULL;
}

int cli_fail(const GError *error)
{
    fprintf(stderr, "qsim: %s\n", error->message);
    return QSIM_EXIT_USAGE;
}

gboolean cli_output_path_ok(const char *option, const char *path)
{
    /* The system's answer to "" is "Invalid argument" with no name: say what is wrong. */
    if (!*path) {
        fprintf(stderr, "qsim: %s '': an empty path (name a file or folder)\n", option);
        return FALSE;
    }
    return TRUE;
}

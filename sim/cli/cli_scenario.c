/* `qsim run --scenario NAME`: the scenario's header options (its `#:` lines, sim/workload/scenario.h)
 * put before the command line's own, so that what is typed wins; a problem with a header word
 * is put at the header's line, not on the person who typed the command. */
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/workload/scenario.h"
#include "sim/base/echo.h"
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

/* The value of --set (or -s) at argv[*i], moving *i past a separate value; NULL for a word that
 * is no --set. */
static const char *set_value(char **argv, int argc, int *i)
{
    const char *w = argv[*i];
    if ((!strcmp(w, "--set") || !strcmp(w, "-s")) && *i + 1 < argc)
        return argv[++*i];
    if (g_str_has_prefix(w, "--set="))
        return w + strlen("--set=");
    return NULL;
}

static gboolean typed_set(int argc, char **argv, const char *assignment)
{
    for (int i = 1; i < argc; i++) {
        const char *v = set_value(argv, argc, &i);
        if (v && !strcmp(v, assignment))
            return TRUE;
    }
    return FALSE;
}

int cli_scenario_expand(int *argc, char ***argv, char ***expanded, CliScenarioHeader *header)
{
    const char *name = scenario_arg(*argc, *argv);
    if (!name)
        return -1;
    g_autoptr(GError) error = NULL;
    g_autofree char *path = scenario_find(name, &error);
    g_autofree char *text = NULL;
    if (!path || !input_file_read(path, INPUT_LOCK, &text, NULL, &error))
        return cli_fail(error);
    g_auto(GStrv) places = NULL;
    header->words = scenario_options(path, text, &places, &error);
    if (!header->words)
        return cli_fail(error);
    guint n = g_strv_length(header->words);
    /* The header's --sets, where the command line does not give the same one again (the
     * config blames the last --set of a key, which would then be the typed one). */
    header->sets = g_ptr_array_new_with_free_func(g_free);
    header->places = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; i < (int)n; i++) {
        const char *v = set_value(header->words, (int)n, &i);   /* i now at the assignment's word */
        if (v && !typed_set(*argc, *argv, v)) {
            g_ptr_array_add(header->sets, g_strdup(v));
            g_ptr_array_add(header->places, g_strdup(places[i]));
        }
    }
    char **out = g_new0(char *, (gsize)*argc + n + 1);
    out[0] = (*argv)[0];
    for (guint i = 0; i < n; i++)
        out[1 + i] = header->words[i];
    for (int i = 1; i < *argc; i++)
        out[n + (guint)i] = (*argv)[i];
    *argc += (int)n;
    *argv = out;
    *expanded = out;
    return -1;
}

int cli_scenario_fail(const CliScenarioHeader *header, const GError *error)
{
    for (guint i = 0; header->sets && i < header->sets->len; i++) {
        const char *assignment = header->sets->pdata[i];
        g_autofree char *shown = echo_clip(assignment);
        g_autofree char *label = g_strconcat("--set ", shown, ": ", NULL);
        if (!g_str_has_prefix(error->message, label))
            continue;
        g_autofree char *key = g_strndup(assignment, strcspn(assignment, "="));
        g_autofree char *key_shown = echo_clip(key);
        cli_eprintf("qsim: %s: %s; the scenario's `#:` line sets it, and --set %s=VALUE on the command line "
                    "replaces it\n", (char *)header->places->pdata[i], error->message, key_shown);
        return QSIM_EXIT_USAGE;
    }
    return cli_fail(error);
}

void cli_scenario_header_clear(CliScenarioHeader *header)
{
    g_clear_pointer(&header->words, g_strfreev);
    g_clear_pointer(&header->sets, g_ptr_array_unref);
    g_clear_pointer(&header->places, g_ptr_array_unref);
}

/* Scenario lookup and header options (see scenario.h). */
#include <string.h>
#include "sim/workload/scenario.h"
#include "sim/base/config.h"
#include "sim/workload/lock_find.h"

#define SCENARIO_EXT ".qs"   /* as a lock's (sim/workload/lock_find.c) */
#define SCENARIO_DIR "scenarios"

char *scenario_find(const char *name, GError **error)
{
    return source_find(name, "scenario", SCENARIO_DIR, "$QSIM_SCENARIO_PATH", error);
}

GPtrArray *scenario_names(void)
{
    return config_search_names(SCENARIO_DIR, SCENARIO_EXT, NULL);
}

GStrv scenario_options(const char *file, const char *text, GError **error)
{
    GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (!g_str_has_prefix(l, SCENARIO_OPTIONS_PREFIX))
            continue;
        const char *opts = l + strlen(SCENARIO_OPTIONS_PREFIX);
        gint n = 0;
        g_auto(GStrv) argv = NULL;
        GError *local = NULL;
        if (!g_shell_parse_argv(opts, &n, &argv, &local)) {
            /* an empty line parses as an error too: it is just nothing */
            if (g_error_matches(local, G_SHELL_ERROR, G_SHELL_ERROR_EMPTY_STRING)) {
                g_error_free(local);
                continue;
            }
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s:%u:%u: %s", file, i + 1,
                        (guint)strlen(SCENARIO_OPTIONS_PREFIX) + 1, local->message);
            g_error_free(local);
            g_ptr_array_unref(words);
            return NULL;
        }
        if (argv[0][0] != '-') {
            const char *at = strstr(l, argv[0]);
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "%s:%u:%u: `%s` is no option (a `" SCENARIO_OPTIONS_PREFIX "` line holds options of "
                        "`qsim run`, e.g. --threads 4)", file, i + 1, at ? (guint)(at - l) + 1 : 1u, argv[0]);
            g_ptr_array_unref(words);
            return NULL;
        }
        for (gint k = 0; k < n; k++)
            g_ptr_array_add(words, g_strdup(argv[k]));
    }
    g_ptr_array_add(words, NULL);
    return (GStrv)g_ptr_array_free(words, FALSE);
}

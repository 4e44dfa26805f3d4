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

/* Where each shell word of `s` starts (byte offsets), as g_shell_parse_argv splits it: blanks
 * between words, quotes and backslashes inside one, and a `#` that starts a word ends the line. */
static GArray *word_starts(const char *s)
{
    GArray *starts = g_array_new(FALSE, FALSE, sizeof(guint));
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            return starts;
        guint at = (guint)(p - s);
        g_array_append_val(starts, at);
        while (*p && *p != ' ' && *p != '\t') {
            char q = *p++;
            if (q == '\\' && *p)
                p++;
            else if (q == '\'')
                while (*p && *p++ != '\'')
                    ;
            else if (q == '"')
                while (*p && *p != '"')
                    p += (*p == '\\' && p[1]) ? 2 : 1;
            if (q == '"' && *p)
                p++;
        }
    }
}

GStrv scenario_options(const char *file, const char *text, GStrv *places, GError **error)
{
    GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *at = g_ptr_array_new_with_free_func(g_free);
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
            goto fail;
        }
        /* each word's column, for messages about it; the line's first if the two splits
         * disagree (they should not) */
        g_autoptr(GArray) starts = word_starts(opts);
        guint base = (guint)strlen(SCENARIO_OPTIONS_PREFIX) + 1;
        for (gint k = 0; k < n; k++) {
            guint col = starts->len == (guint)n ? base + g_array_index(starts, guint, k) : base;
            if (k == 0 && argv[0][0] != '-') {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "%s:%u:%u: `%s` is no option (a `" SCENARIO_OPTIONS_PREFIX "` line holds options of "
                            "`qsim run`, e.g. --threads 4)", file, i + 1, col, argv[0]);
                goto fail;
            }
            g_ptr_array_add(words, g_strdup(argv[k]));
            g_ptr_array_add(at, g_strdup_printf("%s:%u:%u", file, i + 1, col));
        }
    }
    g_ptr_array_add(words, NULL);
    g_ptr_array_add(at, NULL);
    if (places)
        *places = (GStrv)g_ptr_array_free(at, FALSE);
    else
        g_ptr_array_unref(at);
    return (GStrv)g_ptr_array_free(words, FALSE);
fail:
    g_ptr_array_unref(words);
    g_ptr_array_unref(at);
    return NULL;
}

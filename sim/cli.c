/* Helpers shared by the sub-commands: option parsing, error printing, did-you-mean. */
#include <stdio.h>
#include <string.h>
#include "sim/commands.h"

const QsimCommand *qsim_command_find(const char *name)
{
    for (const QsimCommand *c = qsim_commands; c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    return NULL;
}

gboolean cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
    g_autoptr(GError) error = NULL;
    if (!g_option_context_parse(ctx, argc, argv, &error)) {
        fprintf(stderr, "qsim %s: %s (try `qsim %s --help`)\n", (*argv)[0], error->message,
                (*argv)[0]);
        return FALSE;
    }
    return TRUE;
}

int cli_fail(const GError *error)
{
    fprintf(stderr, "qsim: %s\n", error->message);
    return QSIM_EXIT_USAGE;
}

static guint edit_distance(const char *a, const char *b)
{
    gsize la = strlen(a), lb = strlen(b);
    g_autofree guint *prev = g_new(guint, lb + 1);
    g_autofree guint *cur = g_new(guint, lb + 1);
    for (gsize j = 0; j <= lb; j++)
        prev[j] = j;
    for (gsize i = 1; i <= la; i++) {
        cur[0] = i;
        for (gsize j = 1; j <= lb; j++) {
            guint sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            guint del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = MIN(sub, MIN(del, ins));
        }
        memcpy(prev, cur, (lb + 1) * sizeof(guint));
    }
    return prev[lb];
}

const char *cli_did_you_mean(const char *word, const char *const *candidates, guint n)
{
    const char *best = NULL;
    guint best_d = G_MAXUINT;
    for (guint i = 0; i < n; i++) {
        guint d = edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    /* Close means: at most a third of the word wrong (and at least one edit allowed). */
    guint allowed = MAX(1u, (guint)strlen(word) / 3);
    return best_d <= allowed ? best : NULL;
}

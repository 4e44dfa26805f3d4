/* Helpers shared by the sub-commands: option parsing, error printing, did-you-mean. */
#include <stdio.h>
#include <string.h>
#include "sim/commands.h"

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

int cli_fail(const GError *error)
{
    fprintf(stderr, "qsim: %s\n", error->message);
    return QSIM_EXIT_USAGE;
}

/* Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each cost one (a swap is the commonest typo). */
static guint edit_distance(const char *a, const char *b)
{
    gsize la = strlen(a), lb = strlen(b), w = lb + 1;
    g_autofree guint *d = g_new(guint, (la + 1) * w);
    for (gsize i = 0; i <= la; i++)
        d[i * w] = i;
    for (gsize j = 0; j <= lb; j++)
        d[j] = j;
    for (gsize i = 1; i <= la; i++)
        for (gsize j = 1; j <= lb; j++) {
            guint cost = a[i - 1] != b[j - 1];
            guint v = MIN(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1);
            v = MIN(v, d[(i - 1) * w + j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                v = MIN(v, d[(i - 2) * w + j - 2] + 1);
            d[i * w + j] = v;
        }
    return d[la * w + lb];
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

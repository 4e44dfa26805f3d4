/* Suggestions for mistyped words (see suggest.h). */
#include <string.h>
#include "sim/base/suggest.h"

/* Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours each cost one (a swap is the commonest typo). */
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

const char *suggest_closest(const char *word, const char *const *candidates, guint n)
{
    /* The distance costs the product of the lengths: a word (or candidate) past
     * SUGGEST_MAX_CHARS is no typo of a name, and is not compared (a megabyte-long label would
     * take minutes); nor is a candidate whose length alone puts it too far away. */
    gsize lw = strlen(word);
    if (lw > SUGGEST_MAX_CHARS)
        return NULL;
    guint allowed = MAX(1u, (guint)lw / 3);
    const char *best = NULL;
    guint best_d = G_MAXUINT;
    for (guint i = 0; i < n; i++) {
        gsize lc = strlen(candidates[i]);
        if (lc > SUGGEST_MAX_CHARS || (lc > lw ? lc - lw : lw - lc) > allowed)
            continue;
        guint d = edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d <= allowed ? best : NULL;
}

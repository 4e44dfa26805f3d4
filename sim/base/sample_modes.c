/* Modes in a small sample (see sample_modes.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/sample_modes.h"

typedef struct {
    double log;
    guint index;
} Value;

static gint by_log(gconstpointer a, gconstpointer b)
{
    const Value *x = a, *y = b;
    return x->log < y->log ? -1 : x->log > y->log ? 1 : (gint)x->index - (gint)y->index;
}

/* The pooled within-mode standard deviation of v cut before each index in cuts[0..k-1]
 * (ascending), and the smallest gap at a cut. */
static void cut_spread(const Value *v, guint n, const guint *cuts, guint k, double *sd, double *min_gap)
{
    double ss = 0;
    *min_gap = INFINITY;
    for (guint c = 0, start = 0; c <= k; c++) {
        guint end = c < k ? cuts[c] : n;
        double mean = 0;
        for (guint i = start; i < end; i++)
            mean += v[i].log;
        mean /= end - start;
        for (guint i = start; i < end; i++)
            ss += (v[i].log - mean) * (v[i].log - mean);
        if (c < k)
            *min_gap = MIN(*min_gap, v[end].log - v[end - 1].log);
        start = end;
    }
    *sd = sqrt(ss / (n - k - 1));
}

static gint by_uint(gconstpointer a, gconstpointer b)
{
    guint x = *(const guint *)a, y = *(const guint *)b;
    return x < y ? -1 : x > y;
}

static void describe(const double *x, const Value *v, guint start, guint end, SampleMode *m)
{
    m->n = end - start;
    m->low = x[v[start].index];
    m->high = x[v[end - 1].index];
    m->mean = 0;
    for (guint i = start; i < end; i++)
        m->mean += x[v[i].index];
    m->mean /= m->n;
    guint mid = start + m->n / 2;
    m->median = m->n % 2 ? x[v[mid].index] : (x[v[mid - 1].index] + x[v[mid].index]) / 2;
}

void sample_modes(const double *x, guint n, SampleModes *out, guint *member)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    Value *v = g_new(Value, n);
    gboolean positive = TRUE;
    for (guint i = 0; i < n; i++) {
        positive = positive && x[i] > 0;
        v[i] = (Value){ x[i] > 0 ? log(x[i]) : 0, i };
    }
    qsort(v, n, sizeof *v, by_log);
    guint cuts[SAMPLE_MODES_MAX - 1], best[SAMPLE_MODES_MAX - 1], nbest = 0;
    if (positive && n >= SAMPLE_MODES_MIN_N) {
        /* gaps ranked, largest first (ties: the lower one first) */
        guint *rank = g_new(guint, n - 1);
        for (guint i = 0; i + 1 < n; i++)
            rank[i] = i + 1;
        for (guint i = 1; i + 1 < n; i++)
            for (guint j = i; j > 0; j--) {
                double gj = v[rank[j]].log - v[rank[j] - 1].log, gp = v[rank[j - 1]].log - v[rank[j - 1] - 1].log;
                if (gj <= gp)
                    break;
                guint t = rank[j];
                rank[j] = rank[j - 1];
                rank[j - 1] = t;
            }
        for (guint k = 1; k < SAMPLE_MODES_MAX && n >= k + 3; k++) {
            memcpy(cuts, rank, k * sizeof *cuts);
            qsort(cuts, k, sizeof *cuts, by_uint);
            double sd, gap;
            cut_spread(v, n, cuts, k, &sd, &gap);
            if (gap > log(SAMPLE_MODES_MIN_GAP) && gap > SAMPLE_MODES_GAP_FACTOR * sd) {
                memcpy(best, cuts, k * sizeof *cuts);
                nbest = k;
            }
        }
        g_free(rank);
    }
    for (guint c = 0, start = 0; c <= nbest; c++) {
        guint end = c < nbest ? best[c] : n;
        describe(x, v, start, end, &out->mode[c]);
        if (member)
            for (guint i = start; i < end; i++)
                member[v[i].index] = c;
        start = end;
    }
    out->nmodes = nbest + 1;
    g_free(v);
}

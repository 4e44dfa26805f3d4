/* How far a verdict of `qsim compare` holds (see compare_robust.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/run/compare_robust.h"

CompareVerdict compare_verdict_of(const RatioStats *rs)
{
    if (!rs->significant || fabs(rs->ratio - 1) < COMPARE_EVEN_BAND)
        return VERDICT_EVEN;
    return rs->ratio < 1 ? VERDICT_B_WINS : VERDICT_B_LOSES;
}

CompareVerdict compare_verdict_point(double ratio)
{
    if (ratio <= 0 || fabs(ratio - 1) < COMPARE_EVEN_BAND)
        return VERDICT_EVEN;
    return ratio < 1 ? VERDICT_B_WINS : VERDICT_B_LOSES;
}

const char *compare_verdict_word(CompareVerdict v)
{
    return v == VERDICT_B_WINS ? "wins" : v == VERDICT_B_LOSES ? "loses" : "even";
}

static gint by_double(gconstpointer a, gconstpointer b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void timing_spread(const double *ratio, const CompareVerdict *verdict, guint n, TimingSpread *out, guint *member)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (!n)
        return;
    double *s = g_memdup2(ratio, n * sizeof *ratio);
    qsort(s, n, sizeof *s, by_double);
    out->min = s[0];
    out->max = s[n - 1];
    out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    g_free(s);
    for (guint i = 0; i < n; i++) {
        out->wins += verdict[i] == VERDICT_B_WINS;
        out->loses += verdict[i] == VERDICT_B_LOSES;
        out->even += verdict[i] == VERDICT_EVEN;
    }
    sample_modes(ratio, n, &out->modes, member);
}

guint penalty_probe(guint lo, guint hi)
{
    guint a = MIN(lo, hi), b = MAX(lo, hi);
    if (a == 0 || (double)b / a <= 1.5)
        return 0;
    return (guint)lround(sqrt((double)a * b));
}

static char *ratio_at(const RatioStats *r)
{
    return g_strdup_printf("%.2f [%.2f, %.2f]", r->ratio, r->ci_low, r->ci_high);
}

static char *side_of(CompareVerdict v, const char *lock_b)
{
    return v == VERDICT_EVEN ? g_strdup("even") : g_strdup_printf("%s %s", lock_b, compare_verdict_word(v));
}

char *penalty_range_text(const PenaltyRange *p, const char *lock_b)
{
    if (!p->checked)
        return NULL;
    g_autofree char *lo = ratio_at(&p->at_floor), *hi = ratio_at(&p->at_top), *now = side_of(p->verdict, lock_b);
    if (p->robust)
        return g_strdup_printf("Clear penalty %u-%u cycles: robust (b/a %s at %u, %s at %u: %s at both).", p->floor,
                               p->top, lo, p->floor, hi, p->top, now);
    g_autofree char *at = ratio_at(&p->at_flip), *became = side_of(p->flipped, lock_b);
    return g_strdup_printf("Clear penalty %u-%u cycles: flips at %u (b/a %s: %s, where at %u it is %s); holds to "
                           "%u (b/a %s at %u, %s at %u).",
                           p->floor, p->top, p->flips_at, at, became, p->configured, now, p->holds_to, lo, p->floor,
                           hi, p->top);
}

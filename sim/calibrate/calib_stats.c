/* Median, spread and the stability criterion of `qsim calibrate` (see calib_stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "locks/native/native_tsc.h"
#include "sim/calibrate/calib_stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double calib_median(const double *v, guint n)
{
    if (!n)
        return 0;
    g_autofree double *s = g_memdup2(v, n * sizeof *v);
    qsort(s, n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double calib_window_range(const double *v, guint n, guint window)
{
    if (!window || n < window)
        return G_MAXDOUBLE;
    const double *w = v + (n - window);
    double lo = w[0], hi = w[0];
    for (guint i = 1; i < window; i++) {
        lo = MIN(lo, w[i]);
        hi = MAX(hi, w[i]);
    }
    double med = calib_median(w, window);
    return med > 0 ? (hi - lo) / med : G_MAXDOUBLE;
}

gboolean calib_is_stable(const double *v, guint n, guint window, double tolerance)
{
    return calib_window_range(v, n, window) <= tolerance;
}

guint calib_calmest_window(const double *v, guint n, guint window)
{
    if (!window || n <= window)
        return 0;
    guint best = n - window;
    double best_range = calib_window_range(v, n, window);
    for (guint end = n - 1; end >= window; end--) {
        double r = calib_window_range(v, end, window);
        if (r < best_range) {
            best_range = r;
            best = end - window;
        }
    }
    return best;
}

CalibStat calib_stat_summarise(const double *v, guint n, const CalibBudget *b)
{
    CalibStat s = { 0 };
    if (!n)
        return s;
    guint w = MIN(MAX(b->window, 1u), n);
    guint first = calib_calmest_window(v, n, w);
    const double *win = v + first;
    s.valid = TRUE;
    s.runs = n;
    s.window = w;
    s.first = first;
    s.median = calib_median(win, w);
    s.min = s.max = win[0];
    for (guint i = 1; i < w; i++) {
        s.min = MIN(s.min, win[i]);
        s.max = MAX(s.max, win[i]);
    }
    s.stable = calib_is_stable(win, w, b->window, b->tolerance);
    return s;
}

double calib_stat_spread(const CalibStat *s)
{
    return s->valid && s->median > 0 ? (s->max - s->min) / 2 / s->median : 0;
}

char *calib_stat_describe(const CalibStat *s, const char *unit)
{
    if (!s->valid)
        return g_strdup("not measured");
    const char *sep = unit && *unit ? " " : "";
    return g_strdup_printf("median %.4g%s%s of runs %u-%u of %u, spread ±%.1f%% (%.4g-%.4g)%s",
                           s->median, sep, unit ? unit : "", s->first + 1, s->first + s->window, s->runs,
                           100 * calib_stat_spread(s), s->min, s->max,
                           s->stable ? "" : ", not stable within its budget");
}

CalibStat calib_repeat(CalibRunFn run, void *ctx, const CalibBudget *b)
{
    guint window = MAX(b->window, 1u), max_runs = MAX(b->max_runs, window);
    g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
    uint64_t t0 = native_now_ns();
    /* Failed runs count against max_runs too, so a run that always fails still ends. */
    for (guint attempts = 0; attempts < max_runs; attempts++) {
        double x = run(ctx);
        if (x >= 0 && isfinite(x))
            g_array_append_val(v, x);
        if (calib_is_stable((double *)v->data, v->len, window, b->tolerance))
            break;
        /* Past the budget: stop once the window is full, or at three budgets in any case (runs
         * that keep failing, or runs far slower than planned). */
        double elapsed = (double)(native_now_ns() - t0) / 1e9;
        if (elapsed >= b->budget_s && (v->len >= window || elapsed >= 3 * b->budget_s))
            break;
    }
    return calib_stat_summarise((double *)v->data, v->len, b);
}

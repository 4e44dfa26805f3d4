/* The statistics of `qsim calibrate`: each measurement is repeated (a "run" is one timed batch
 * that yields one value), and it stops when the last runs agree or its time is up.
 *
 * Stability criterion: the last `window` values lie within `tolerance` of each other relative
 * to their median, (max - min) / median <= tolerance.  A measurement that never meets it within
 * its budget is kept, flagged unstable.  The summary is taken over the calmest `window`
 * consecutive values (the smallest (max - min) / median; the latest of equals), which is the
 * last window when the criterion stopped the repeat: their median, min and max, and the
 * spread, (max - min) / 2 / median, written as "±x%".  Calmest rather than last because the
 * noise of a shared host is one-sided (a run that loses its CPU only gets slower), so the
 * calm stretch is the machine's figure and the rest is other processes' time. */
#ifndef QSIM_CALIB_STATS_H
#define QSIM_CALIB_STATS_H

#include <glib.h>

/* One measured quantity.  Invariant: min <= median <= max; runs >= 1 when valid. */
typedef struct {
    gboolean valid;      /* measured at all */
    double median, min, max;
    guint runs;          /* runs made (all of them, not only the window) */
    guint window;        /* how many consecutive runs the summary is over */
    guint first;         /* the index of the first of them */
    gboolean stable;     /* the stability criterion was met */
} CalibStat;

/* How long to repeat one measurement. */
typedef struct {
    guint window;        /* runs that must agree (and the summary's size), >= 1 */
    double tolerance;    /* relative, e.g. 0.02 */
    guint max_runs;      /* stop after this many runs even if unstable (>= window) */
    double budget_s;     /* stop after this much wall time, once `window` runs are in */
} CalibBudget;

/* The median of n values (the mean of the middle two when n is even); 0 when n is 0. */
double calib_median(const double *v, guint n);
/* (max - min) / median of the last `window` values of v[0..n); G_MAXDOUBLE when fewer than
 * `window` values or a median of 0. */
double calib_window_range(const double *v, guint n, guint window);
/* Whether the last `window` of the n values meet the criterion. */
gboolean calib_is_stable(const double *v, guint n, guint window, double tolerance);
/* The start of the calmest `window` consecutive values of v[0..n) (0 when n < window). */
guint calib_calmest_window(const double *v, guint n, guint window);
/* The summary of the n values under budget b (see the top of this file). */
CalibStat calib_stat_summarise(const double *v, guint n, const CalibBudget *b);
/* (max - min) / 2 / median, the "±" of a stat; 0 when not valid. */
double calib_stat_spread(const CalibStat *s);
/* "median 4.02 cycles of runs 3-7 of 7, spread ±0.4% (3.99-4.03)" with `unit` after the median;
 * "unstable" is added when the criterion was not met. */
char *calib_stat_describe(const CalibStat *s, const char *unit);

/* One run of a measurement: returns its value, or a negative number when the run failed (it is
 * not counted). */
typedef double (*CalibRunFn)(void *ctx);
/* Repeats `run` until stable or the budget is spent (see CalibBudget); the elapsed time is read
 * from CLOCK_MONOTONIC only to stop. */
CalibStat calib_repeat(CalibRunFn run, void *ctx, const CalibBudget *b);

#endif

/* Statistics of a small sample of repeated runs: mean, standard deviation, range and a 95%
 * confidence interval of the mean, and the interval of a ratio of two means (the two samples
 * independent, the runs taken as independent draws).
 *
 * Why the interval is taken on a log scale: the numbers repeated runs report are counts, cycles,
 * times and rates, which are never below 0, and a few runs of them are often skewed (one run
 * locks into a phase with 2000 machine clears, four into one with none).  A symmetric interval
 * mean +- t * sd / sqrt(n) then reaches below 0 ("201.6 [-353.2, 756.4]"), which no run can give.
 * So when every sample is >= 0 the interval is Student's t on the log of the mean, its standard
 * error by the delta method (sd of log(mean) = sd / (mean * sqrt(n))): mean / f .. mean * f with
 * f = exp(t * sd / (mean * sqrt(n))).  It is the arithmetic mean's interval (the mean printed
 * beside it is always inside), never below 0, needs no rule for samples that include 0 (only an
 * all-zero sample has mean 0, and then sd 0 and the interval [0, 0]), matches the symmetric
 * interval to first order when the spread is small, and is wide and lopsided when the sample is
 * skewed, which is the honest answer.  (Rejected: the geometric mean's interval, which may not
 * contain the arithmetic mean reported beside it and needs a rule for zeros; a bootstrap, which
 * is over-confident at the n of 3-10 that --repeat runs and needs the samples, not the summary,
 * for a ratio.)  A sample with a value below 0 (a difference, a signed skew) keeps the
 * symmetric t interval on the values.  The ratio of two positive means uses the same log scale:
 * log(b / a) +- t * sqrt(va + vb) with the two means' relative variances va, vb, so it is never
 * below 0 either. */
#ifndef QSIM_SAMPLE_STATS_H
#define QSIM_SAMPLE_STATS_H

#include <glib.h>
#include <json-glib/json-glib.h>

/* How an interval was computed (the rows of sample_stats.c's method table). */
typedef enum {
    INTERVAL_POINT,           /* fewer than 2 runs: the interval is the mean */
    INTERVAL_T,               /* Student's t on the values (some value below 0) */
    INTERVAL_T_LOG,           /* Student's t on the log of the mean (every value >= 0) */
} IntervalMethod;

typedef struct {
    guint n;
    double mean, sd;          /* sd: the sample's (n - 1 in the denominator); 0 when n < 2 */
    double median;            /* the middle value, or the mean of the two middle ones */
    double min, max;
    double ci_low, ci_high;   /* 95% interval of the mean; the mean itself when n < 2 */
    IntervalMethod method;
} SampleStats;

/* Two-sided 95% quantile of Student's t with `df` degrees of freedom (df >= 1). */
double student_t95(guint df);
void sample_stats(const double *x, guint n, SampleStats *out);
/* The stats of the sample times `f` (> 0): a change of unit. */
void sample_stats_scale(SampleStats *s, double f);
/* For people, e.g. "t on the log of the mean". */
const char *interval_method_name(IntervalMethod m);

typedef struct {
    double ratio;             /* mean of b / mean of a */
    double ci_low, ci_high;   /* 95% interval */
    gboolean significant;     /* the interval excludes 1 */
    IntervalMethod method;    /* INTERVAL_T_LOG when both means are > 0 */
} RatioStats;

/* The method's key in JSON documents: "point", "t" or "t-log". */
const char *interval_method_key(IntervalMethod m);

/* The stats as a JSON object {n, mean, sd, median, min, max, ci95_low, ci95_high, interval}
 * (every summary of repeated runs has this shape; the builder is inside an object with its
 * member name set, in an array, or empty). */
void sample_stats_add_json(JsonBuilder *b, const SampleStats *s);

/* The ratio as a JSON object {ratio, ci95_low, ci95_high, significant, interval}. */
void ratio_stats_add_json(JsonBuilder *b, const RatioStats *r);

/* b / a.  With a zero mean on either side the ratio is 0 and not significant; with a mean
 * below 0 the interval is the delta method's on the ratio itself. */
void ratio_stats(const SampleStats *a, const SampleStats *b, RatioStats *out);

#endif

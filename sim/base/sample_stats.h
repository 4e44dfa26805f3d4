/* Statistics of a small sample of repeated runs: mean, standard deviation, range and a 95%
 * confidence interval of the mean (Student's t, the runs taken as independent draws), and the
 * interval of a ratio of two means (the delta method, the two samples independent). */
#ifndef QSIM_SAMPLE_STATS_H
#define QSIM_SAMPLE_STATS_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct {
    guint n;
    double mean, sd;          /* sd: the sample's (n - 1 in the denominator); 0 when n < 2 */
    double min, max;
    double ci_low, ci_high;   /* 95% interval of the mean; the mean itself when n < 2 */
} SampleStats;

/* Two-sided 95% quantile of Student's t with `df` degrees of freedom (df >= 1). */
double student_t95(guint df);
void sample_stats(const double *x, guint n, SampleStats *out);

typedef struct {
    double ratio;             /* mean of b / mean of a */
    double ci_low, ci_high;   /* 95% interval */
    gboolean significant;     /* the interval excludes 1 */
} RatioStats;

/* The stats as a JSON object {mean, sd, min, max, ci95_low, ci95_high} (the builder is inside
 * an object with its member name set, or in an array). */
void sample_stats_add_json(JsonBuilder *b, const SampleStats *s);

/* b / a.  With a zero mean on either side the ratio is 0 and not significant. */
void ratio_stats(const SampleStats *a, const SampleStats *b, RatioStats *out);

#endif

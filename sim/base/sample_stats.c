/* Sample statistics (see sample_stats.h). */
#include <math.h>
#include "sim/base/sample_stats.h"
#include "sim/base/report.h"

/* Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (standard tables). */
static const double t95[] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double student_t95(guint df)
{
    g_assert(df >= 1);
    if (df <= G_N_ELEMENTS(t95))
        return t95[df - 1];
    /* beyond the table: the normal quantile plus the leading term of t's expansion in 1/df */
    return 1.959964 + 2.372 / df;
}

void sample_stats(const double *x, guint n, SampleStats *out)
{
    *out = (SampleStats){ .n = n };
    if (!n)
        return;
    double sum = 0;
    out->min = out->max = x[0];
    for (guint i = 0; i < n; i++) {
        sum += x[i];
        out->min = MIN(out->min, x[i]);
        out->max = MAX(out->max, x[i]);
    }
    out->mean = sum / n;
    out->ci_low = out->ci_high = out->mean;
    if (n < 2)
        return;
    double ss = 0;
    for (guint i = 0; i < n; i++)
        ss += (x[i] - out->mean) * (x[i] - out->mean);
    out->sd = sqrt(ss / (n - 1));
    double half = student_t95(n - 1) * out->sd / sqrt((double)n);
    out->ci_low = out->mean - half;
    out->ci_high = out->mean + half;
}

void ratio_stats(const SampleStats *a, const SampleStats *b, RatioStats *out)
{
    *out = (RatioStats){ 0 };
    if (a->mean == 0 || b->mean == 0)
        return;
    double r = b->mean / a->mean;
    /* delta method: relative variances of the two means add */
    double va = a->n > 1 ? a->sd * a->sd / a->n / (a->mean * a->mean) : 0;
    double vb = b->n > 1 ? b->sd * b->sd / b->n / (b->mean * b->mean) : 0;
    guint df = MAX(MIN(a->n, b->n), 2u) - 1;
    double half = student_t95(df) * fabs(r) * sqrt(va + vb);
    out->ratio = r;
    out->ci_low = r - half;
    out->ci_high = r + half;
    out->significant = out->ci_low > 1 || out->ci_high < 1;
}

void sample_stats_add_json(JsonBuilder *b, const SampleStats *s)
{
    json_builder_begin_object(b);
    report_add_double(b, "mean", s->mean);
    report_add_double(b, "sd", s->sd);
    report_add_double(b, "min", s->min);
    report_add_double(b, "max", s->max);
    report_add_double(b, "ci95_low", s->ci_low);
    report_add_double(b, "ci95_high", s->ci_high);
    json_builder_end_object(b);
}

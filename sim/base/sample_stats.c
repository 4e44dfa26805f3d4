/* Sample statistics (see sample_stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* The method for each kind of sample and its name for people: one row each. */
static const char *const method_names[] = {
    [INTERVAL_POINT] = "one run, no interval",
    [INTERVAL_T] = "t on the values",
    [INTERVAL_T_LOG] = "t on the log of the mean",
};

const char *interval_method_name(IntervalMethod m)
{
    g_assert((guint)m < G_N_ELEMENTS(method_names));
    return method_names[m];
}

static const char *const method_keys[] = {
    [INTERVAL_POINT] = "point",
    [INTERVAL_T] = "t",
    [INTERVAL_T_LOG] = "t-log",
};

const char *interval_method_key(IntervalMethod m)
{
    g_assert((guint)m < G_N_ELEMENTS(method_keys));
    return method_keys[m];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *x, guint n)
{
    g_autofree double *v = g_memdup2(x, n * sizeof *x);
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* mean +- half on the values, or mean / f .. mean * f with f = exp(half_log) */
static void set_interval(double centre, double rel_se, double se, guint df, IntervalMethod m, double *lo, double *hi)
{
    double t = student_t95(df);
    if (m == INTERVAL_T_LOG) {
        double f = exp(t * rel_se);
        *lo = centre / f;
        *hi = centre * f;
    } else {
        *lo = centre - t * se;
        *hi = centre + t * se;
    }
}

void sample_stats(const double *x, guint n, SampleStats *out)
{
    *out = (SampleStats){ .n = n, .method = INTERVAL_POINT };
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
    out->median = median_of(x, n);
    out->ci_low = out->ci_high = out->mean;
    if (n < 2)
        return;
    double ss = 0;
    for (guint i = 0; i < n; i++)
        ss += (x[i] - out->mean) * (x[i] - out->mean);
    out->sd = sqrt(ss / (n - 1));
    out->method = out->min >= 0 ? INTERVAL_T_LOG : INTERVAL_T;
    if (out->mean == 0 && out->method == INTERVAL_T_LOG)
        return; /* every run 0: sd 0, the interval [0, 0] */
    double se = out->sd / sqrt((double)n);
    set_interval(out->mean, out->mean ? se / out->mean : 0, se, n - 1, out->method, &out->ci_low, &out->ci_high);
}

void sample_stats_scale(SampleStats *s, double f)
{
    g_assert(f > 0);
    s->mean *= f;
    s->sd *= f;
    s->median *= f;
    s->min *= f;
    s->max *= f;
    s->ci_low *= f;
    s->ci_high *= f;
}

/* A mean's relative variance, (sd / mean)^2 / n; 0 for a single run */
static double rel_var(const SampleStats *s)
{
    return s->n > 1 ? s->sd * s->sd / s->n / (s->mean * s->mean) : 0;
}

void ratio_stats(const SampleStats *a, const SampleStats *b, RatioStats *out)
{
    *out = (RatioStats){ .method = INTERVAL_POINT };
    if (a->mean == 0 || b->mean == 0)
        return;
    out->ratio = b->mean / a->mean;
    /* delta method: the relative variances of the two means add, on log(b / a) when it exists */
    double rel_se = sqrt(rel_var(a) + rel_var(b));
    out->method = a->mean > 0 && b->mean > 0 ? INTERVAL_T_LOG : INTERVAL_T;
    guint df = MAX(MIN(a->n, b->n), 2u) - 1;
    set_interval(out->ratio, rel_se, fabs(out->ratio) * rel_se, df, out->method, &out->ci_low, &out->ci_high);
    out->significant = out->ci_low > 1 || out->ci_high < 1;
}

void sample_stats_add_json(JsonBuilder *b, const SampleStats *s)
{
    json_builder_begin_object(b);
    report_add_int(b, "n", s->n);
    report_add_double(b, "mean", s->mean);
    report_add_double(b, "sd", s->sd);
    report_add_double(b, "median", s->median);
    report_add_double(b, "min", s->min);
    report_add_double(b, "max", s->max);
    report_add_double(b, "ci95_low", s->ci_low);
    report_add_double(b, "ci95_high", s->ci_high);
    report_add_string(b, "interval", interval_method_key(s->method));
    json_builder_end_object(b);
}

void ratio_stats_add_json(JsonBuilder *b, const RatioStats *r)
{
    json_builder_begin_object(b);
    report_add_double(b, "ratio", r->ratio);
    report_add_double(b, "ci95_low", r->ci_low);
    report_add_double(b, "ci95_high", r->ci_high);
    report_add_bool(b, "significant", r->significant);
    report_add_string(b, "interval", interval_method_key(r->method));
    json_builder_end_object(b);
}

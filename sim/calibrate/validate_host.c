/* The model of this host against this host (see validate_host.h). */
#include <math.h>
#include <string.h>
#include "sim/calibrate/validate_host.h"
#include "sim/calibrate/host_placement.h"
#include "sim/base/config.h"
#include "sim/base/report.h"
#include "sim/run/repeat.h"
#include "sim/workload/lock_find.h"
#include "locks/native/native_cpus.h"
#include "locks/native/native_run.h"
#include "locks/native/native_sched.h"

void host_validate_options_init(HostValidateOptions *o)
{
    *o = (HostValidateOptions){ .config = NULL, .repeat = 5, .max_threads = 0, .model_iterations = 500,
                                .host_iterations = 10000 };
}

void host_table_free(HostTable *t)
{
    if (!t)
        return;
    for (guint i = 0; i < t->rows->len; i++)
        g_free(g_array_index(t->rows, HostRow, i).lock);
    g_array_free(t->rows, TRUE);
    g_free(t->config_name);
    g_free(t->first_disturbance);
    g_free(t->placement);
    g_free(t);
}

/* ---- statistics of the table ---- */

/* Ranks of x (1-based; ties share the mean of their ranks). */
static void ranks(const double *x, guint n, double *r)
{
    for (guint i = 0; i < n; i++) {
        guint below = 0, equal = 0;
        for (guint j = 0; j < n; j++) {
            below += x[j] < x[i];
            equal += x[j] == x[i];
        }
        r[i] = below + (equal + 1) / 2.0;
    }
}

double spearman_rho(const double *x, const double *y, guint n)
{
    if (n < 2)
        return 0;
    g_autofree double *rx = g_new(double, n), *ry = g_new(double, n);
    ranks(x, n, rx);
    ranks(y, n, ry);
    /* Pearson's correlation of the ranks (exact with ties, unlike the 6 d^2 shortcut) */
    double mx = 0, my = 0;
    for (guint i = 0; i < n; i++) {
        mx += rx[i];
        my += ry[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (guint i = 0; i < n; i++) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}

static int cmp_double(gconstpointer a, gconstpointer b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void host_table_summarise(HostTable *t)
{
    guint n = t->rows->len;
    g_autofree double *err = g_new0(double, n + 1), *h = g_new0(double, n + 1), *m = g_new0(double, n + 1);
    guint k = 0;
    for (guint i = 0; i < n; i++) {
        const HostRow *r = &g_array_index(t->rows, HostRow, i);
        if (!r->ok || r->host_ns.mean <= 0)
            continue;
        h[k] = r->host_ns.mean;
        m[k] = r->model_ns.mean;
        err[k] = fabs(r->model_ns.mean - r->host_ns.mean) / r->host_ns.mean;
        k++;
    }
    t->spearman = spearman_rho(h, m, k);
    qsort(err, k, sizeof *err, cmp_double);
    t->median_abs_error = !k ? 0 : k % 2 ? err[k / 2] : (err[k / 2 - 1] + err[k / 2]) / 2;
}

/* ---- running ---- */

/* A host run the scheduler disturbed (a thread descheduled, a busy host: what `qsim native`
 * warns about) is counted in its row, and the first such warning kept for the table's foot. */
static void note_disturbance(JsonNode *rep, HostRow *r, HostTable *t)
{
    g_autoptr(GPtrArray) w = native_report_warnings(rep);
    if (!w->len)
        return;
    r->disturbed++;
    if (!t->first_disturbance)
        t->first_disturbance = g_strdup_printf("%s, %u threads: %s", r->lock, r->threads, (char *)w->pdata[0]);
}

static gboolean host_side(HostRow *r, const HostValidateOptions *o, const GArray *cpus, HostTable *t,
                          GError **error)
{
    const char *lock = r->lock;
    guint threads = r->threads;
    HarnessPlacement data = r->data;
    SampleStats *ns = &r->host_ns;
    gboolean *ok = &r->ok;
    g_autoptr(NativeLock) nl = native_lock_builtin(lock, error);
    if (!nl)
        return FALSE;
    NativeRunOptions no;
    native_run_options_init(&no);
    no.workload.threads = threads;
    no.workload.data = data;
    no.workload.iterations = o->host_iterations;
    no.cpus = (GArray *)cpus;
    g_autofree double *v = g_new(double, o->repeat);
    for (guint i = 0; i < o->repeat; i++) {
        JsonNode *rep = native_run(nl, &no, error);
        if (!rep)
            return FALSE;
        JsonObject *obj = json_node_get_object(rep);
        v[i] = json_object_get_double_member(obj, "ns_per_acquisition");
        *ok = *ok && json_object_get_boolean_member(obj, "mutual_exclusion");
        note_disturbance(rep, r, t);
        json_node_unref(rep);
    }
    sample_stats(v, o->repeat, ns);
    return TRUE;
}

/* cpus: model thread i's logical CPU, i < threads (host_placement.h); NULL: the default placement. */
static gboolean model_side(const char *lock, guint threads, HarnessPlacement data, const GArray *cpus,
                           const HostValidateOptions *o, double ghz, SampleStats *ns, gboolean *ok, GError **error)
{
    RunOptions ro;
    run_options_init(&ro);
    if (cpus) {
        ro.workload.placement.policy = PLACE_CPUS;
        ro.workload.placement.ncpus = threads;
        for (guint i = 0; i < threads; i++)
            ro.workload.placement.cpus[i] = (guint16)g_array_index(cpus, guint, i);
    }
    ro.config = o->config;
    ro.lock = lock;
    ro.workload.threads = threads;
    ro.workload.data = data;
    ro.workload.iterations = o->model_iterations;
    ro.workload.jitter = REPEAT_DEFAULT_JITTER;
    RepeatResult rr;
    if (!run_repeated(&ro, o->repeat, &rr, error))
        return FALSE;
    const RepeatKey *k = repeat_find(&rr, "cycles_per_acquisition");
    *ns = k->stats;
    sample_stats_scale(ns, 1 / ghz); /* cycles of the model's clock -> ns */
    *ok = *ok && rr.ok;
    repeat_result_clear(&rr);
    return TRUE;
}

HostTable *validate_host_run(const HostValidateOptions *o, GError **error)
{
    g_autoptr(QsimConfig) cfg = config_load(o->config, NULL, error);
    if (!cfg)
        return NULL;
    g_autoptr(GArray) cpus = native_allowed_cpus();
    CalibHost host = { 0 };
    calib_host_probe(&host, "", cpus->len ? g_array_index(cpus, guint, 0) : 0);
    HostPlacement pl;
    host_placement_choose(&pl, &host, cfg, cpus, o->max_threads);
    calib_host_clear(&host);
    guint max = pl.threads;
    if (max < 2) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                    "validate --host: needs two CPUs this process may run on (and two CPUs in %s): %s", o->config,
                    pl.text);
        host_placement_clear(&pl);
        return NULL;
    }
    HostTable *t = g_new0(HostTable, 1);
    t->rows = g_array_new(FALSE, TRUE, sizeof(HostRow));
    t->config_name = g_strdup(cfg->name);
    t->frequency_ghz = cfg->frequency_ghz;
    t->placement = g_steal_pointer(&pl.text);
    g_autoptr(GPtrArray) locks = lock_names();
    if (o->locks) {
        g_ptr_array_set_size(locks, 0);
        for (guint i = 0; o->locks[i]; i++)
            g_ptr_array_add(locks, g_strdup(o->locks[i]));
    }
    static const HarnessPlacement datas[] = { HARNESS_SAME_LINE, HARNESS_SEPARATE_LINE };
    for (guint threads = 2; threads <= max; threads = threads < 4 ? threads + 1 : threads * 2)
        for (guint d = 0; d < G_N_ELEMENTS(datas); d++)
            for (guint l = 0; l < locks->len; l++) {
                HostRow r = { g_strdup(locks->pdata[l]), threads, datas[d], { 0 }, { 0 }, TRUE, 0 };
                if (!host_side(&r, o, cpus, t, error) ||
                    !model_side(r.lock, threads, r.data, pl.model, o, cfg->frequency_ghz, &r.model_ns, &r.ok,
                                error)) {
                    g_free(r.lock);
                    host_table_free(t);
                    host_placement_clear(&pl);
                    return NULL;
                }
                g_array_append_val(t->rows, r);
            }
    host_placement_clear(&pl);
    host_table_summarise(t);
    return t;
}

/* ---- writing ---- */

static const char *data_name(HarnessPlacement d) { return d == HARNESS_SAME_LINE ? "same-line" : "separate-line"; }

static const HostRow *find_row(const HostTable *t, const char *lock, guint threads, HarnessPlacement d)
{
    for (guint i = 0; i < t->rows->len; i++) {
        const HostRow *r = &g_array_index(t->rows, HostRow, i);
        if (!strcmp(r->lock, lock) && r->threads == threads && r->data == d)
            return r;
    }
    return NULL;
}

char *validate_host_text(const HostTable *t)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "model %s against this host, ns per acquisition (mean [95%% interval] over runs)\n",
                           t->config_name);
    if (t->placement)
        g_string_append_printf(s, "%s\n", t->placement);
    g_string_append_printf(s, "%-16s %7s %-13s %26s %26s %8s\n", "lock", "threads", "data", "host", "model",
                           "model/host");
    for (guint i = 0; i < t->rows->len; i++) {
        const HostRow *r = &g_array_index(t->rows, HostRow, i);
        g_autofree char *h = g_strdup_printf("%.1f [%.1f, %.1f]", r->host_ns.mean, r->host_ns.ci_low, r->host_ns.ci_high);
        g_autofree char *m = g_strdup_printf("%.1f [%.1f, %.1f]", r->model_ns.mean, r->model_ns.ci_low,
                                             r->model_ns.ci_high);
        g_string_append_printf(s, "%-16s %7u %-13s %26s %26s %8.3f%s\n", r->lock, r->threads, data_name(r->data), h, m,
                               r->host_ns.mean > 0 ? r->model_ns.mean / r->host_ns.mean : 0,
                               r->ok ? "" : "  MUTUAL EXCLUSION FAILED");
    }
    g_string_append_printf(s, "median |model - host| / host: %.1f%%; rank correlation (Spearman) of the costs: %.3f\n",
                           t->median_abs_error * 100, t->spearman);
    guint disturbed = 0, runs = 0;
    for (guint i = 0; i < t->rows->len; i++) {
        const HostRow *r = &g_array_index(t->rows, HostRow, i);
        disturbed += r->disturbed;
        runs += r->host_ns.n;
    }
    if (disturbed)
        g_string_append_printf(s, "warning: %u of the %u host runs were disturbed by the scheduler, so their times "
                                  "include other tasks' (first: %s); rerun on a quiet host\n",
                               disturbed, runs, t->first_disturbance);
    /* the seed's question, host beside model */
    for (guint i = 0; i < t->rows->len; i++) {
        const HostRow *q = &g_array_index(t->rows, HostRow, i);
        if (strcmp(q->lock, "qspin"))
            continue;
        const HostRow *c = find_row(t, "qspin-cmpxchg", q->threads, q->data);
        if (c && q->host_ns.mean > 0 && q->model_ns.mean > 0)
            g_string_append_printf(s, "qspin / qspin-cmpxchg, %u threads, %s: host %.3f, model %.3f\n", q->threads,
                                   data_name(q->data), q->host_ns.mean / c->host_ns.mean,
                                   q->model_ns.mean / c->model_ns.mean);
    }
    return g_string_free(s, FALSE);
}

JsonNode *validate_host_json(const HostTable *t)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", t->config_name);
    report_add_string(b, "unit", "ns per acquisition");
    if (t->placement)
        report_add_string(b, "placement", t->placement);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->rows->len; i++) {
        const HostRow *r = &g_array_index(t->rows, HostRow, i);
        json_builder_begin_object(b);
        report_add_string(b, "lock", r->lock);
        report_add_int(b, "threads", r->threads);
        report_add_string(b, "data", data_name(r->data));
        json_builder_set_member_name(b, "host");
        sample_stats_add_json(b, &r->host_ns);
        json_builder_set_member_name(b, "model");
        sample_stats_add_json(b, &r->model_ns);
        report_add_double(b, "model_over_host", r->host_ns.mean > 0 ? r->model_ns.mean / r->host_ns.mean : 0);
        report_add_bool(b, "mutual_exclusion", r->ok);
        report_add_int(b, "host_runs_disturbed", r->disturbed);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    report_add_double(b, "median_abs_error", t->median_abs_error);
    report_add_double(b, "spearman", t->spearman);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

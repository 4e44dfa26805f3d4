/* Repeated runs and their statistics (see repeat.h). */
#include <string.h>
#include "sim/run/repeat.h"
#include "sim/base/report.h"
#include "sim/base/report_summary.h"

void repeat_result_clear(RepeatResult *r)
{
    if (r->keys) {
        for (guint i = 0; i < r->keys->len; i++) {
            g_free(g_array_index(r->keys, RepeatKey, i).key);
            g_free(g_array_index(r->keys, RepeatKey, i).values);
        }
        g_array_free(r->keys, TRUE);
    }
    if (r->first)
        json_node_unref(r->first);
    run_headline_clear(&r->first_headline);
    report_summary_free(r->summary);
    g_free(r->failure);
    memset(r, 0, sizeof *r);
}

const RepeatKey *repeat_find(const RepeatResult *r, const char *key)
{
    for (guint i = 0; i < r->keys->len; i++)
        if (!strcmp(g_array_index(r->keys, RepeatKey, i).key, key))
            return &g_array_index(r->keys, RepeatKey, i);
    return NULL;
}

/* Keys that name the run rather than measure it: never summarised. */
static gboolean identity_key(const char *key)
{
    static const char *const ids[] = { "seed", "jitter", "threads", "readers", "cs_writes", "cs_work", "think",
                                       "iterations", "duration", "warmup" };
    for (guint i = 0; i < G_N_ELEMENTS(ids); i++)
        if (!strcmp(key, ids[i]))
            return TRUE;
    return g_str_has_prefix(key, "per_thread.") && (g_str_has_suffix(key, ".core") || g_str_has_suffix(key, ".cpu"));
}

gboolean run_repeated(const RunOptions *o, guint n, RepeatResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    g_return_val_if_fail(n >= 1, FALSE);
    r->n = n;
    r->first_seed = o->seed;
    r->ok = TRUE;
    r->keys = g_array_new(FALSE, TRUE, sizeof(RepeatKey));
    r->summary = report_summary_new(identity_key);
    GPtrArray *values = g_ptr_array_new_with_free_func((GDestroyNotify)g_free); /* per key: double[n] */
    for (guint i = 0; i < n; i++) {
        RunOptions oi = *o;
        oi.seed = o->seed + i;
        oi.host_time = FALSE; /* host time is not a result; it would make runs differ */
        RunResult res;
        if (!run_simulation(&oi, &res, error)) {
            g_ptr_array_free(values, TRUE);
            repeat_result_clear(r);
            return FALSE;
        }
        if (!res.ok && r->ok) {
            r->ok = FALSE;
            r->failure = g_strdup_printf("seed %" G_GUINT64_FORMAT ": %s", oi.seed, res.failure);
        }
        GArray *f = report_flatten(res.report);
        for (guint k = 0; k < f->len; k++) {
            const ReportField *rf = &g_array_index(f, ReportField, k);
            if (!rf->numeric || identity_key(rf->key))
                continue;
            /* keys are in the same order in every report of one workload; look up to be safe */
            gint idx = -1;
            for (guint j = 0; j < r->keys->len && idx < 0; j++)
                if (!strcmp(g_array_index(r->keys, RepeatKey, j).key, rf->key))
                    idx = (gint)j;
            if (idx < 0) {
                if (i > 0)
                    continue; /* a key the first run did not have is not summarised */
                RepeatKey rk = { g_strdup(rf->key), { 0 }, NULL };
                g_array_append_val(r->keys, rk);
                g_ptr_array_add(values, g_new0(double, n));
                idx = (gint)r->keys->len - 1;
            }
            ((double *)values->pdata[idx])[i] = rf->number;
        }
        report_fields_free(f);
        report_summary_add(r->summary, res.report);
        if (i == 0) {
            r->first = json_node_ref(res.report);
            run_headline_move(&r->first_headline, &res.headline);
        }
        run_result_clear(&res);
    }
    for (guint j = 0; j < r->keys->len; j++) {
        RepeatKey *rk = &g_array_index(r->keys, RepeatKey, j);
        sample_stats(values->pdata[j], n, &rk->stats);
        rk->values = values->pdata[j];
        values->pdata[j] = NULL;  /* the key owns it now */
    }
    g_ptr_array_free(values, TRUE);
    return TRUE;
}

/* ---- writing ---- */

/* The summary document (kind "summary", docs/report.md): the first report's layout with each
 * measured number its statistics, and what a summary adds: `repeat` (the runs) after `mode`,
 * `ok`; `seed` stays the first run's (run i has seed + i). */
JsonNode *repeat_json(const RepeatResult *r)
{
    JsonNode *whole = report_summary_tree(r->summary, SUMMARY_DATA);
    JsonObject *from = json_node_get_object(whole), *out = json_object_new();
    g_autoptr(GList) members = json_object_get_members(from);
    for (GList *l = members; l; l = l->next) {
        json_object_set_member(out, l->data, json_node_copy(json_object_get_member(from, l->data)));
        if (!strcmp(l->data, "mode"))
            json_object_set_int_member(out, "repeat", r->n);
    }
    if (!json_object_has_member(out, "repeat"))
        json_object_set_int_member(out, "repeat", r->n);
    json_object_set_boolean_member(out, "ok", r->ok);
    json_node_take_object(whole, out);
    return whole;
}

/* b / a where both runs summarised a number: the ratio of the means with its interval. */
static JsonNode *mean_ratio(JsonNode *na G_GNUC_UNUSED, JsonNode *nb G_GNUC_UNUSED, const char *path, gpointer data)
{
    const RepeatResult *const *ab = data;
    const RepeatKey *ka = repeat_find(ab[0], path), *kb = ka ? repeat_find(ab[1], path) : NULL;
    if (!kb)
        return NULL;
    RatioStats rs;
    ratio_stats(&ka->stats, &kb->stats, &rs);
    g_autoptr(JsonBuilder) jb = json_builder_new();
    ratio_stats_add_json(jb, &rs);
    return json_builder_get_root(jb);
}

JsonNode *repeat_compare_json(const RepeatResult *a, const RepeatResult *b, const char *label_a,
                              const char *label_b)
{
    return report_pair_tree(label_a, label_b, repeat_json(a), repeat_json(b), report_tree_zip(a->first, b->first, mean_ratio, (gpointer)(const RepeatResult *const[]){ a, b }));
}

static void headline(GString *s, const RepeatResult *r)
{
    const RunHeadline *h = &r->first_headline;
    const RepeatKey *cpa = repeat_find(r, "cycles_per_acquisition");
    /* a scenario (sim/workload/scenario.h) has no lock: its "acquisitions" are iterations */
    gboolean scenario = h->scenario;
    g_autofree char *data = scenario ? g_strdup("no lock") : g_strdup_printf("%s data", h->data);
    g_string_append_printf(s, "%s%s on %s (%s), %" G_GINT64_FORMAT " threads, %s, %u seeds from %" G_GUINT64_FORMAT
                              " (jitter %" G_GINT64_FORMAT " cycles)", scenario ? "scenario " : "", h->lock, h->config,
                           h->arch, (gint64)h->threads, data, r->n, r->first_seed, (gint64)h->jitter);
    if (cpa)
        g_string_append_printf(s, ": %.1f cycles per %s, 95%% interval %.1f to %.1f", cpa->stats.mean,
                               scenario ? "iteration" : "acquisition", cpa->stats.ci_low, cpa->stats.ci_high);
    g_string_append_printf(s, "%s\n", r->ok ? "" : "  ** A RUN FAILED **");
}

/* What the intervals below are: the level, n and the method (sim/base/sample_stats.h says why) */
static void interval_caption(GString *s, const RepeatResult *a, const RepeatResult *b)
{
    g_autofree char *n = b && b->n != a->n ? g_strdup_printf("n = %u and %u", a->n, b->n) : g_strdup_printf("n = %u", a->n);
    g_string_append_printf(s, "95%% interval%s of the mean, %s, %s%s (a key marked * has a run below 0: %s)\n",
                           b ? "s" : "", n, interval_method_name(INTERVAL_T_LOG), b ? ", of the ratio likewise" : "",
                           interval_method_name(INTERVAL_T));
}

static const char *method_mark(IntervalMethod m)
{
    return m == INTERVAL_T ? " *" : "";
}

char *repeat_text(const RepeatResult *r, const char *const *keys)
{
    GString *s = g_string_new(NULL);
    headline(s, r);
    interval_caption(s, r, NULL);
    g_string_append_printf(s, "\n%-40s %12s %10s %12s %12s   %s\n", "key", "mean", "sd", "min", "max", "95% interval");
    for (guint i = 0; keys[i]; i++) {
        const RepeatKey *k = repeat_find(r, keys[i]);
        if (!k)
            continue;
        const SampleStats *st = &k->stats;
        g_string_append_printf(s, "%-40s %12.4g %10.3g %12.4g %12.4g   [%.4g, %.4g]%s\n", k->key, st->mean, st->sd,
                               st->min, st->max, st->ci_low, st->ci_high, method_mark(st->method));
    }
    return g_string_free(s, FALSE);
}

char *repeat_compare_text(const RepeatResult *a, const RepeatResult *b, const char *label_a, const char *label_b,
                          const char *const *keys)
{
    GString *s = g_string_new(NULL);
    headline(s, a);
    headline(s, b);
    interval_caption(s, a, b);
    g_autofree char *ratio_head = g_strdup_printf("%s / %s", label_b, label_a);
    g_string_append_printf(s, "\n%-36s %22s %22s   %-24s %s\n", "key (mean, 95% interval)", label_a, label_b,
                           ratio_head, "");
    for (guint i = 0; keys[i]; i++) {
        const RepeatKey *ka = repeat_find(a, keys[i]), *kb = repeat_find(b, keys[i]);
        if (!ka || !kb)
            continue;
        RatioStats rs;
        ratio_stats(&ka->stats, &kb->stats, &rs);
        g_autofree char *ca = g_strdup_printf("%.4g [%.4g, %.4g]%s", ka->stats.mean, ka->stats.ci_low, ka->stats.ci_high,
                                              method_mark(ka->stats.method));
        g_autofree char *cb = g_strdup_printf("%.4g [%.4g, %.4g]%s", kb->stats.mean, kb->stats.ci_low, kb->stats.ci_high,
                                              method_mark(kb->stats.method));
        g_autofree char *cr = ka->stats.mean && kb->stats.mean
                                  ? g_strdup_printf("%.3f [%.3f, %.3f]%s", rs.ratio, rs.ci_low, rs.ci_high,
                                                    method_mark(rs.method))
                                  : g_strdup("-");
        const char *verdict = !ka->stats.mean || !kb->stats.mean ? ""
                              : rs.significant                  ? ""
                                                                : "no significant difference";
        g_string_append_printf(s, "%-36s %22s %22s   %-24s %s\n", ka->key, ca, cb, cr, verdict);
    }
    return g_string_free(s, FALSE);
}


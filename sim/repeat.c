/* Repeated runs and their statistics (see repeat.h). */
#include <string.h>
#include "sim/repeat.h"
#include "sim/base/report.h"

void repeat_result_clear(RepeatResult *r)
{
    if (r->keys) {
        for (guint i = 0; i < r->keys->len; i++)
            g_free(g_array_index(r->keys, RepeatKey, i).key);
        g_array_free(r->keys, TRUE);
    }
    if (r->first)
        json_node_unref(r->first);
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
    return g_str_has_prefix(key, "per_thread.") && g_str_has_suffix(key, ".core");
}

gboolean run_repeated(const RunOptions *o, guint n, RepeatResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    g_return_val_if_fail(n >= 1, FALSE);
    r->n = n;
    r->first_seed = o->seed;
    r->ok = TRUE;
    r->keys = g_array_new(FALSE, TRUE, sizeof(RepeatKey));
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
                RepeatKey rk = { g_strdup(rf->key), { 0 } };
                g_array_append_val(r->keys, rk);
                g_ptr_array_add(values, g_new0(double, n));
                idx = (gint)r->keys->len - 1;
            }
            ((double *)values->pdata[idx])[i] = rf->number;
        }
        report_fields_free(f);
        if (i == 0)
            r->first = json_node_ref(res.report);
        run_result_clear(&res);
    }
    for (guint j = 0; j < r->keys->len; j++)
        sample_stats(values->pdata[j], n, &g_array_index(r->keys, RepeatKey, j).stats);
    g_ptr_array_free(values, TRUE);
    return TRUE;
}

/* ---- writing ---- */

/* The first report's identity: its string and boolean members at the top level. */
static void add_identity(JsonBuilder *b, const RepeatResult *r)
{
    JsonObject *o = json_node_get_object(r->first);
    g_autoptr(GList) members = json_object_get_members(o);
    for (GList *l = members; l; l = l->next) {
        JsonNode *n = json_object_get_member(o, l->data);
        if (JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING)
            report_add_string(b, l->data, json_node_get_string(n));
    }
}

static void add_summary(JsonBuilder *b, const RepeatResult *r)
{
    add_identity(b, r);
    JsonObject *o = json_node_get_object(r->first);
    if (json_object_has_member(o, "threads"))
        report_add_int(b, "threads", json_object_get_int_member(o, "threads"));
    report_add_int(b, "runs", r->n);
    report_add_int(b, "first_seed", (gint64)r->first_seed);
    report_add_int(b, "jitter", json_object_has_member(o, "jitter") ? json_object_get_int_member(o, "jitter") : 0);
    report_add_bool(b, "ok", r->ok);
    json_builder_set_member_name(b, "stats");
    json_builder_begin_object(b);
    for (guint i = 0; i < r->keys->len; i++) {
        const RepeatKey *k = &g_array_index(r->keys, RepeatKey, i);
        json_builder_set_member_name(b, k->key);
        sample_stats_add_json(b, &k->stats);
    }
    json_builder_end_object(b);
}

JsonNode *repeat_json(const RepeatResult *r)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    add_summary(b, r);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

/* The next key of a that b also has, from *i on, with the ratio of their means. */
static gboolean next_pair(const RepeatResult *a, const RepeatResult *b, guint *i, const RepeatKey **ka,
                          const RepeatKey **kb, RatioStats *rs)
{
    while (*i < a->keys->len) {
        *ka = &g_array_index(a->keys, RepeatKey, (*i)++);
        *kb = repeat_find(b, (*ka)->key);
        if (*kb) {
            ratio_stats(&(*ka)->stats, &(*kb)->stats, rs);
            return TRUE;
        }
    }
    return FALSE;
}

JsonNode *repeat_compare_json(const RepeatResult *a, const RepeatResult *b, const char *label_a,
                              const char *label_b)
{
    /* Keyed by role, as plain --vs is ({labels, a, b, b_over_a}): a lock against itself keeps
     * both sides. */
    g_autoptr(JsonBuilder) jb = json_builder_new();
    json_builder_begin_object(jb);
    json_builder_set_member_name(jb, "labels");
    json_builder_begin_object(jb);
    report_add_string(jb, "a", label_a);
    report_add_string(jb, "b", label_b);
    json_builder_end_object(jb);
    report_add_string(jb, "ratio", "b / a, the ratio of the means, with its 95% interval");
    json_builder_set_member_name(jb, "a");
    json_builder_begin_object(jb);
    add_summary(jb, a);
    json_builder_end_object(jb);
    json_builder_set_member_name(jb, "b");
    json_builder_begin_object(jb);
    add_summary(jb, b);
    json_builder_end_object(jb);
    json_builder_set_member_name(jb, "b_over_a");
    json_builder_begin_object(jb);
    const RepeatKey *ka, *kb;
    RatioStats rs;
    for (guint i = 0; next_pair(a, b, &i, &ka, &kb, &rs);) {
        json_builder_set_member_name(jb, ka->key);
        json_builder_begin_object(jb);
        report_add_double(jb, "ratio", rs.ratio);
        report_add_double(jb, "ci95_low", rs.ci_low);
        report_add_double(jb, "ci95_high", rs.ci_high);
        report_add_bool(jb, "significant", rs.significant);
        json_builder_end_object(jb);
    }
    json_builder_end_object(jb);
    json_builder_end_object(jb);
    return json_builder_get_root(jb);
}

static const char *member_str(JsonNode *report, const char *key)
{
    JsonObject *o = json_node_get_object(report);
    return json_object_has_member(o, key) ? json_object_get_string_member(o, key) : "?";
}

static void headline(GString *s, const RepeatResult *r)
{
    JsonObject *o = json_node_get_object(r->first);
    const RepeatKey *cpa = repeat_find(r, "cycles_per_acquisition");
    /* a scenario (sim/scenario.h) has no lock: its "acquisitions" are iterations */
    gboolean scenario = !strcmp(member_str(r->first, "harness"), "scenario");
    g_autofree char *data = scenario ? g_strdup("no lock") : g_strdup_printf("%s data", member_str(r->first, "data"));
    g_string_append_printf(s, "%s%s on %s (%s), %" G_GINT64_FORMAT " threads, %s, %u seeds from %" G_GUINT64_FORMAT
                              " (jitter %" G_GINT64_FORMAT " cycles)", scenario ? "scenario " : "",
                           member_str(r->first, "lock"), member_str(r->first, "config"), member_str(r->first, "arch"),
                           json_object_get_int_member(o, "threads"), data, r->n, r->first_seed,
                           json_object_has_member(o, "jitter") ? json_object_get_int_member(o, "jitter") : 0);
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

static void csv_stats(GString *s, const SampleStats *st)
{
    g_string_append_printf(s, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", st->mean, st->sd, st->min, st->max, st->ci_low,
                           st->ci_high);
}

char *repeat_csv(const RepeatResult *r)
{
    GString *s = g_string_new("key,mean,sd,min,max,ci95_low,ci95_high\n");
    for (guint i = 0; i < r->keys->len; i++) {
        const RepeatKey *k = &g_array_index(r->keys, RepeatKey, i);
        report_csv_field(s, k->key);
        csv_stats(s, &k->stats);
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

char *repeat_compare_csv(const RepeatResult *a, const RepeatResult *b)
{
    GString *s = g_string_new("key,a_mean,a_sd,a_min,a_max,a_ci95_low,a_ci95_high,b_mean,b_sd,b_min,b_max,b_ci95_low,"
                              "b_ci95_high,ratio_b_over_a,ratio_ci95_low,ratio_ci95_high,significant\n");
    const RepeatKey *ka, *kb;
    RatioStats rs;
    for (guint i = 0; next_pair(a, b, &i, &ka, &kb, &rs);) {
        report_csv_field(s, ka->key);
        csv_stats(s, &ka->stats);
        csv_stats(s, &kb->stats);
        g_string_append_printf(s, ",%.17g,%.17g,%.17g,%s\n", rs.ratio, rs.ci_low, rs.ci_high,
                               rs.significant ? "true" : "false");
    }
    return g_string_free(s, FALSE);
}

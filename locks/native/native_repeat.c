/* The summary of repeated native runs (see native_repeat.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "locks/native/native_repeat.h"
#include "sim/workload.h"
#include "sim/base/sample_stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double native_median(double *v, guint n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What was asked for, not measured: echoed once.  `path` is the member's place, "cpus.0" or
 * "per_thread.1.cpu". */
static gboolean is_setting(const char *path)
{
    if (workload_key_find(path) && !strchr(path, '.'))
        return TRUE;
    if (!strcmp(path, "line_size") || g_str_has_prefix(path, "cpus."))
        return TRUE;
    return g_str_has_prefix(path, "per_thread.") && g_str_has_suffix(path, ".cpu");
}

static void add_number(JsonObject *o, const char *key, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        json_object_set_int_member(o, key, (gint64)v);
    else
        json_object_set_double_member(o, key, v);
}

/* A number as the text report writes one: whole numbers plainly, others to 4 decimals. */
static char *number_text(double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        return g_strdup_printf("%.0f", v);
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.4f", v));
}

static JsonNode *number_node(double v)
{
    JsonNode *n = json_node_alloc();
    if (v == floor(v) && fabs(v) < 1e15)
        json_node_init_int(n, (gint64)v);
    else
        json_node_init_double(n, v);
    return n;
}

/* One measured number over the runs: `v` (n values, sorted in place). */
static JsonNode *summarise_number(double *v, guint n, NativeSummaryView view)
{
    /* the mean's 95% interval as the model's --repeat gives it (sim/base/sample_stats.h) */
    SampleStats st;
    sample_stats(v, n, &st);
    double med = native_median(v, n), lo = v[0], hi = v[n - 1];
    if (view == NATIVE_SUMMARY_DATA) {
        JsonObject *o = json_object_new();
        add_number(o, "median", med);
        add_number(o, "min", lo);
        add_number(o, "max", hi);
        add_number(o, "mean", st.mean);
        add_number(o, "ci95_low", st.ci_low);
        add_number(o, "ci95_high", st.ci_high);
        JsonNode *node = json_node_alloc();
        json_node_init_object(node, o);
        json_object_unref(o);
        return node;
    }
    if (lo == hi)
        return number_node(med);
    g_autofree char *m = number_text(med), *a = number_text(lo), *b = number_text(hi);
    g_autofree char *spread = med != 0 ? g_strdup_printf(", spread %.0f%%", (hi - lo) / fabs(med) * 100) : g_strdup("");
    g_autofree char *mean = number_text(st.mean), *cl = number_text(st.ci_low), *ch = number_text(st.ci_high);
    g_autofree char *text = g_strdup_printf("%s (%s .. %s%s; mean %s [%s, %s])", m, a, b, spread, mean, cl, ch);
    JsonNode *node = json_node_alloc();
    json_node_init_string(node, text);
    return node;
}

static gboolean is_number(JsonNode *n)
{
    if (!JSON_NODE_HOLDS_VALUE(n))
        return FALSE;
    GType t = json_node_get_value_type(n);
    return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean is_true(JsonNode *n)
{
    return JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN && json_node_get_boolean(n);
}

/* ==================== the accumulator ==================== */

/* What the runs said at one place of the first report's layout (`path`: "per_thread.1.cpu"). */
typedef struct {
    GArray *values;          /* double: a number's, one a run */
    gboolean missing;        /* an object member some run lacks: no summary */
    gboolean differs;        /* an array of another length, or a number that was not one */
    gboolean all_true;       /* a verdict: held in every run so far */
} Place;

struct NativeRepeat {
    JsonNode *first;         /* the layout */
    GHashTable *places;      /* path -> Place* */
    guint n;
    guint disturbed;
    GPtrArray *runs;         /* char*: each report as compact JSON, or NULL: not kept */
};

static void place_free(gpointer p)
{
    Place *pl = p;
    if (pl->values)
        g_array_free(pl->values, TRUE);
    g_free(pl);
}

static Place *place_of(NativeRepeat *r, const char *path)
{
    Place *pl = g_hash_table_lookup(r->places, path);
    if (!pl) {
        pl = g_new0(Place, 1);
        pl->all_true = TRUE;
        g_hash_table_insert(r->places, g_strdup(path), pl);
    }
    return pl;
}

static char *child_path(const char *path, const char *name)
{
    return *path ? g_strconcat(path, ".", name, NULL) : g_strdup(name);
}

/* Walks the layout `t` and a run's `node` at the same place together. */
static void take(NativeRepeat *r, JsonNode *t, JsonNode *node, const char *path)
{
    if (JSON_NODE_HOLDS_OBJECT(t)) {
        JsonObject *o = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
        g_autoptr(GList) members = json_object_get_members(json_node_get_object(t));
        for (GList *l = members; l; l = l->next) {
            g_autofree char *sub = child_path(path, l->data);
            JsonNode *kid = o ? json_object_get_member(o, l->data) : NULL;
            if (kid)
                take(r, json_object_get_member(json_node_get_object(t), l->data), kid, sub);
            else
                place_of(r, sub)->missing = TRUE;  /* a counter some run could not count */
        }
        return;
    }
    if (JSON_NODE_HOLDS_ARRAY(t)) {
        JsonArray *ta = json_node_get_array(t);
        guint len = json_array_get_length(ta);
        if (!JSON_NODE_HOLDS_ARRAY(node) || json_array_get_length(json_node_get_array(node)) != len) {
            place_of(r, path)->differs = TRUE;
            return;
        }
        for (guint e = 0; e < len; e++) {
            g_autofree char *sub = g_strdup_printf("%s.%u", path, e);
            take(r, json_array_get_element(ta, e), json_array_get_element(json_node_get_array(node), e), sub);
        }
        return;
    }
    if (is_number(t) && !is_setting(path)) {
        Place *pl = place_of(r, path);
        if (!is_number(node)) {
            pl->differs = TRUE;
            return;
        }
        if (!pl->values)
            pl->values = g_array_new(FALSE, FALSE, sizeof(double));
        double v = json_node_get_double(node);
        g_array_append_val(pl->values, v);
        return;
    }
    if (JSON_NODE_HOLDS_VALUE(t) && json_node_get_value_type(t) == G_TYPE_BOOLEAN)
        place_of(r, path)->all_true &= is_true(node); /* a verdict holds only if it held every time */
}

/* The summary at one place of the layout. */
static JsonNode *summarise(NativeRepeat *r, JsonNode *t, const char *path, NativeSummaryView view)
{
    Place *pl = g_hash_table_lookup(r->places, path);
    if (JSON_NODE_HOLDS_OBJECT(t)) {
        JsonObject *out = json_object_new();
        g_autoptr(GList) members = json_object_get_members(json_node_get_object(t));
        for (GList *l = members; l; l = l->next) {
            g_autofree char *sub = child_path(path, l->data);
            Place *kid = g_hash_table_lookup(r->places, sub);
            if (kid && kid->missing)
                continue;
            json_object_set_member(out, l->data,
                                   summarise(r, json_object_get_member(json_node_get_object(t), l->data), sub, view));
        }
        JsonNode *node = json_node_alloc();
        json_node_init_object(node, out);
        json_object_unref(out);
        return node;
    }
    if (JSON_NODE_HOLDS_ARRAY(t)) {
        if (pl && pl->differs)
            return json_node_copy(t);
        JsonArray *ta = json_node_get_array(t);
        guint len = json_array_get_length(ta);
        JsonArray *out = json_array_sized_new(len);
        for (guint e = 0; e < len; e++) {
            g_autofree char *sub = g_strdup_printf("%s.%u", path, e);
            json_array_add_element(out, summarise(r, json_array_get_element(ta, e), sub, view));
        }
        JsonNode *node = json_node_alloc();
        json_node_init_array(node, out);
        json_array_unref(out);
        return node;
    }
    if (pl && pl->values && !pl->differs)
        return summarise_number((double *)(void *)pl->values->data, pl->values->len, view);
    if (pl && JSON_NODE_HOLDS_VALUE(t) && json_node_get_value_type(t) == G_TYPE_BOOLEAN) {
        JsonNode *node = json_node_alloc();
        json_node_init_boolean(node, pl->all_true);
        return node;
    }
    return json_node_copy(t);
}

NativeRepeat *native_repeat_new(gboolean runs)
{
    NativeRepeat *r = g_new0(NativeRepeat, 1);
    r->places = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, place_free);
    if (runs)
        r->runs = g_ptr_array_new_with_free_func(g_free);
    return r;
}

void native_repeat_add(NativeRepeat *r, JsonNode *report)
{
    if (!r->first)
        r->first = json_node_copy(report);
    take(r, r->first, report, "");
    JsonObject *o = json_node_get_object(report);
    JsonObject *s = json_object_has_member(o, "scheduling") ? json_object_get_object_member(o, "scheduling") : NULL;
    r->disturbed += s && json_object_get_boolean_member_with_default(s, "disturbed", FALSE);
    if (r->runs)
        g_ptr_array_add(r->runs, json_to_string(report, FALSE));
    r->n++;
}

guint native_repeat_count(const NativeRepeat *r) { return r->n; }

JsonNode *native_repeat_finish(NativeRepeat *r, NativeSummaryView view)
{
    g_assert(r->n >= 1);
    JsonNode *whole = summarise(r, r->first, "", view);
    /* The layout: `repeat` after `mode`, the count of disturbed runs in place of `scheduling`. */
    JsonObject *from = json_node_get_object(whole);
    JsonObject *out = json_object_new();
    g_autoptr(GList) members = json_object_get_members(from);
    for (GList *l = members; l; l = l->next) {
        if (!strcmp(l->data, "scheduling")) {
            json_object_set_int_member(out, "disturbed_runs", r->disturbed);
            continue;
        }
        json_object_set_member(out, l->data, json_node_copy(json_object_get_member(from, l->data)));
        if (!strcmp(l->data, "mode"))
            json_object_set_int_member(out, "repeat", r->n);
    }
    if (!json_object_has_member(out, "repeat"))
        json_object_set_int_member(out, "repeat", r->n);
    if (!json_object_has_member(out, "disturbed_runs"))
        json_object_set_int_member(out, "disturbed_runs", r->disturbed);
    if (r->runs) {
        JsonArray *a = json_array_sized_new(r->runs->len);
        for (guint i = 0; i < r->runs->len; i++)
            json_array_add_element(a, json_from_string(r->runs->pdata[i], NULL));
        json_object_set_array_member(out, "runs", a);
    }
    json_node_take_object(whole, out);
    native_repeat_free(r);
    return whole;
}

void native_repeat_free(NativeRepeat *r)
{
    if (!r)
        return;
    if (r->runs)
        g_ptr_array_free(r->runs, TRUE);
    if (r->first)
        json_node_unref(r->first);
    g_hash_table_destroy(r->places);
    g_free(r);
}

JsonNode *native_repeat_summary(JsonNode *const *reports, guint n, NativeSummaryView view, gboolean runs)
{
    g_assert(n >= 1);
    NativeRepeat *r = native_repeat_new(runs);
    for (guint i = 0; i < n; i++)
        native_repeat_add(r, reports[i]);
    return native_repeat_finish(r, view);
}

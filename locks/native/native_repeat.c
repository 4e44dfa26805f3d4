/* The summary of repeated native runs (see native_repeat.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "locks/native/native_repeat.h"
#include "sim/workload.h"

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

/* One measured number over the runs. */
static JsonNode *summarise_number(JsonNode *const *nodes, guint n, NativeSummaryView view)
{
    g_autofree double *v = g_new(double, n);
    for (guint i = 0; i < n; i++)
        v[i] = json_node_get_double(nodes[i]);
    double med = native_median(v, n), lo = v[0], hi = v[n - 1];
    if (view == NATIVE_SUMMARY_DATA) {
        JsonObject *o = json_object_new();
        add_number(o, "median", med);
        add_number(o, "min", lo);
        add_number(o, "max", hi);
        JsonNode *node = json_node_alloc();
        json_node_init_object(node, o);
        json_object_unref(o);
        return node;
    }
    if (lo == hi)
        return number_node(med);
    g_autofree char *m = number_text(med), *a = number_text(lo), *b = number_text(hi);
    g_autofree char *spread = med != 0 ? g_strdup_printf(", spread %.0f%%", (hi - lo) / fabs(med) * 100) : g_strdup("");
    g_autofree char *text = g_strdup_printf("%s (%s .. %s%s)", m, a, b, spread);
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

/* The nodes at one place in every report, summarised; `path` names the place. */
static JsonNode *summarise(JsonNode *const *nodes, guint n, const char *path, NativeSummaryView view)
{
    JsonNode *first = nodes[0];
    if (JSON_NODE_HOLDS_OBJECT(first)) {
        JsonObject *out = json_object_new();
        g_autoptr(GList) members = json_object_get_members(json_node_get_object(first));
        g_autofree JsonNode **kids = g_new(JsonNode *, n);
        for (GList *l = members; l; l = l->next) {
            gboolean everywhere = TRUE;
            for (guint i = 0; i < n && everywhere; i++) {
                JsonObject *o = JSON_NODE_HOLDS_OBJECT(nodes[i]) ? json_node_get_object(nodes[i]) : NULL;
                kids[i] = o ? json_object_get_member(o, l->data) : NULL;
                everywhere = kids[i] != NULL;
            }
            if (!everywhere)
                continue;   /* a counter some run could not count has no summary */
            g_autofree char *sub = *path ? g_strconcat(path, ".", l->data, NULL) : g_strdup(l->data);
            json_object_set_member(out, l->data, summarise(kids, n, sub, view));
        }
        JsonNode *node = json_node_alloc();
        json_node_init_object(node, out);
        json_object_unref(out);
        return node;
    }
    if (JSON_NODE_HOLDS_ARRAY(first)) {
        guint len = json_array_get_length(json_node_get_array(first));
        for (guint i = 1; i < n; i++)
            if (!JSON_NODE_HOLDS_ARRAY(nodes[i]) || json_array_get_length(json_node_get_array(nodes[i])) != len)
                return json_node_copy(first);
        JsonArray *out = json_array_sized_new(len);
        g_autofree JsonNode **kids = g_new(JsonNode *, n);
        for (guint e = 0; e < len; e++) {
            for (guint i = 0; i < n; i++)
                kids[i] = json_array_get_element(json_node_get_array(nodes[i]), e);
            g_autofree char *sub = g_strdup_printf("%s.%u", path, e);
            json_array_add_element(out, summarise(kids, n, sub, view));
        }
        JsonNode *node = json_node_alloc();
        json_node_init_array(node, out);
        json_array_unref(out);
        return node;
    }
    if (is_number(first)) {
        gboolean all = TRUE;
        for (guint i = 1; i < n && all; i++)
            all = is_number(nodes[i]);
        return all && !is_setting(path) ? summarise_number(nodes, n, view) : json_node_copy(first);
    }
    if (JSON_NODE_HOLDS_VALUE(first) && json_node_get_value_type(first) == G_TYPE_BOOLEAN) {
        /* A verdict (mutual exclusion) holds only if it held every time. */
        gboolean all = TRUE;
        for (guint i = 0; i < n; i++)
            all &= JSON_NODE_HOLDS_VALUE(nodes[i]) && json_node_get_boolean(nodes[i]);
        JsonNode *node = json_node_alloc();
        json_node_init_boolean(node, all);
        return node;
    }
    return json_node_copy(first);
}

JsonNode *native_repeat_summary(JsonNode *const *reports, guint n, NativeSummaryView view, gboolean runs)
{
    g_assert(n >= 1);
    JsonNode *whole = summarise(reports, n, "", view);
    /* The layout: `repeat` after `mode`, the count of disturbed runs in place of `scheduling`. */
    guint disturbed = 0;
    for (guint i = 0; i < n; i++) {
        JsonObject *r = json_node_get_object(reports[i]);
        JsonObject *s = json_object_has_member(r, "scheduling") ? json_object_get_object_member(r, "scheduling") : NULL;
        disturbed += s && json_object_get_boolean_member_with_default(s, "disturbed", FALSE);
    }
    JsonObject *from = json_node_get_object(whole);
    JsonObject *out = json_object_new();
    g_autoptr(GList) members = json_object_get_members(from);
    for (GList *l = members; l; l = l->next) {
        if (!strcmp(l->data, "scheduling")) {
            json_object_set_int_member(out, "disturbed_runs", disturbed);
            continue;
        }
        json_object_set_member(out, l->data, json_node_copy(json_object_get_member(from, l->data)));
        if (!strcmp(l->data, "mode"))
            json_object_set_int_member(out, "repeat", n);
    }
    if (!json_object_has_member(out, "repeat"))
        json_object_set_int_member(out, "repeat", n);
    if (!json_object_has_member(out, "disturbed_runs"))
        json_object_set_int_member(out, "disturbed_runs", disturbed);
    if (runs) {
        JsonArray *a = json_array_sized_new(n);
        for (guint i = 0; i < n; i++)
            json_array_add_element(a, json_node_copy(reports[i]));
        json_object_set_array_member(out, "runs", a);
    }
    json_node_take_object(whole, out);
    return whole;
}

/* The summary of N reports of one layout (see report_summary.h). */
#include <math.h>
#include <string.h>
#include "sim/base/report_summary.h"
#include "sim/base/sample_stats.h"

/* Booleans that flag trouble: the summary's holds if any run's did.  Every other boolean is a
 * property that holds only if it held in every run. */
static const char *const fault_flags[] = { "stalled", "faulted", "halted_in_lock", "disturbed" };

static gboolean is_fault_flag(const char *path)
{
    const char *leaf = strrchr(path, '.');
    leaf = leaf ? leaf + 1 : path;
    for (guint i = 0; i < G_N_ELEMENTS(fault_flags); i++)
        if (!strcmp(leaf, fault_flags[i]))
            return TRUE;
    return FALSE;
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

/* One measured number over the runs: its `n` values. */
static JsonNode *summarise_number(const double *v, guint n, SummaryView view)
{
    SampleStats st;
    sample_stats(v, n, &st);
    if (view == SUMMARY_DATA) {
        g_autoptr(JsonBuilder) b = json_builder_new();
        sample_stats_add_json(b, &st);
        return json_builder_get_root(b);
    }
    if (st.min == st.max)
        return number_node(st.median);
    g_autofree char *m = number_text(st.median), *a = number_text(st.min), *b = number_text(st.max);
    g_autofree char *spread = st.median != 0 ? g_strdup_printf(", spread %.0f%%", (st.max - st.min) / fabs(st.median) * 100)
                                             : g_strdup("");
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

static gboolean is_boolean(JsonNode *n)
{
    return JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_BOOLEAN;
}

/* ==================== the accumulator ==================== */

/* What the runs said at one place of the first report's layout (`path`: "per_thread.1.cpu"). */
typedef struct {
    GArray *values;          /* double: a number's, one a run */
    gboolean missing;        /* an object member some run lacks: no summary */
    gboolean differs;        /* an array of another length, or a number that was not one */
    gboolean all_true;       /* a boolean: true in every run so far */
    gboolean any_true;       /* a boolean: true in some run */
} Place;

struct ReportSummary {
    SummarySettingFn is_setting;
    JsonNode *first;         /* the layout */
    GHashTable *places;      /* path -> Place*; looked up, never iterated (no hash order leaks) */
    guint n;
};

static void place_free(gpointer p)
{
    Place *pl = p;
    if (pl->values)
        g_array_free(pl->values, TRUE);
    g_free(pl);
}

static Place *place_of(ReportSummary *r, const char *path)
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

static void take(ReportSummary *r, JsonNode *t, JsonNode *node, const char *path);

static void take_object(ReportSummary *r, JsonNode *t, JsonNode *node, const char *path)
{
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
    JsonObject *to = json_node_get_object(t);
    g_autoptr(GList) members = json_object_get_members(to);
    for (GList *l = members; l; l = l->next) {
        g_autofree char *sub = child_path(path, l->data);
        JsonNode *kid = o ? json_object_get_member(o, l->data) : NULL;
        if (kid)
            take(r, json_object_get_member(to, l->data), kid, sub);
        else
            place_of(r, sub)->missing = TRUE; /* a counter some run could not count */
    }
}

/* Walks the layout `t` and a run's `node` at the same place together. */
static void take(ReportSummary *r, JsonNode *t, JsonNode *node, const char *path)
{
    if (JSON_NODE_HOLDS_OBJECT(t)) {
        take_object(r, t, node, path);
    } else if (JSON_NODE_HOLDS_ARRAY(t)) {
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
    } else if (is_number(t) && !r->is_setting(path)) {
        Place *pl = place_of(r, path);
        if (!is_number(node)) {
            pl->differs = TRUE;
            return;
        }
        if (!pl->values)
            pl->values = g_array_new(FALSE, FALSE, sizeof(double));
        double v = json_node_get_double(node);
        g_array_append_val(pl->values, v);
    } else if (is_boolean(t)) {
        Place *pl = place_of(r, path);
        gboolean v = is_boolean(node) && json_node_get_boolean(node);
        pl->all_true &= v;
        pl->any_true |= v;
    }
}

static JsonNode *summarise(const ReportSummary *r, JsonNode *t, const char *path, SummaryView view);

static JsonNode *summarise_object(const ReportSummary *r, JsonNode *t, const char *path, SummaryView view)
{
    JsonObject *to = json_node_get_object(t), *out = json_object_new();
    g_autoptr(GList) members = json_object_get_members(to);
    for (GList *l = members; l; l = l->next) {
        g_autofree char *sub = child_path(path, l->data);
        Place *kid = g_hash_table_lookup(r->places, sub);
        if (kid && kid->missing)
            continue;
        json_object_set_member(out, l->data, summarise(r, json_object_get_member(to, l->data), sub, view));
    }
    JsonNode *node = json_node_alloc();
    json_node_init_object(node, out);
    json_object_unref(out);
    return node;
}

/* The summary at one place of the layout. */
static JsonNode *summarise(const ReportSummary *r, JsonNode *t, const char *path, SummaryView view)
{
    Place *pl = g_hash_table_lookup(r->places, path);
    if (JSON_NODE_HOLDS_OBJECT(t))
        return summarise_object(r, t, path, view);
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
        return summarise_number((const double *)(const void *)pl->values->data, pl->values->len, view);
    if (pl && is_boolean(t)) {
        JsonNode *node = json_node_alloc();
        json_node_init_boolean(node, is_fault_flag(path) ? pl->any_true : pl->all_true);
        return node;
    }
    return json_node_copy(t);
}

ReportSummary *report_summary_new(SummarySettingFn is_setting)
{
    ReportSummary *r = g_new0(ReportSummary, 1);
    r->is_setting = is_setting;
    r->places = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, place_free);
    return r;
}

void report_summary_free(ReportSummary *r)
{
    if (!r)
        return;
    if (r->first)
        json_node_unref(r->first);
    g_hash_table_destroy(r->places);
    g_free(r);
}

void report_summary_add(ReportSummary *r, JsonNode *report)
{
    if (!r->first)
        r->first = json_node_copy(report);
    take(r, r->first, report, "");
    r->n++;
}

guint report_summary_count(const ReportSummary *r) { return r->n; }

JsonNode *report_summary_tree(const ReportSummary *r, SummaryView view)
{
    g_assert(r->n >= 1);
    return summarise(r, r->first, "", view);
}

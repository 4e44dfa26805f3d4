/* JSON, CSV and text writers over a report tree. */
#include <math.h>
#include <string.h>
#include "sim/base/report.h"

gboolean report_format_parse(const char *s, ReportFormat *out, GError **error)
{
    static const char *const names[] = { "text", "json", "csv" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++)
        if (s && !strcmp(s, names[i])) {
            *out = (ReportFormat)i;
            return TRUE;
        }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--format %s: unknown format (one of: text, json, csv)", s ? s : "");
    return FALSE;
}

char *report_to_json(JsonNode *root)
{
    g_autoptr(JsonGenerator) gen = json_generator_new();
    json_generator_set_pretty(gen, TRUE);
    json_generator_set_indent(gen, 2);
    json_generator_set_root(gen, root);
    g_autofree char *s = json_generator_to_data(gen, NULL);
    return g_strconcat(s, "\n", NULL);
}

/* Numbers print as integers when they are integral, else with 4 significant decimals. */
static char *value_text(JsonNode *n, gboolean *numeric, double *number)
{
    *numeric = FALSE;
    if (JSON_NODE_HOLDS_NULL(n))
        return g_strdup("null");
    GType t = json_node_get_value_type(n);
    if (t == G_TYPE_BOOLEAN)
        return g_strdup(json_node_get_boolean(n) ? "true" : "false");
    if (t == G_TYPE_INT64) {
        *numeric = TRUE;
        *number = (double)json_node_get_int(n);
        return g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
    }
    if (t == G_TYPE_DOUBLE) {
        double d = json_node_get_double(n);
        *numeric = TRUE;
        *number = d;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        if (d == floor(d) && fabs(d) < 1e15)
            return g_strdup_printf("%.0f", d);
        return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.4f", d));
    }
    return g_strdup(json_node_get_string(n));
}

static void flatten(JsonNode *n, const char *prefix, GArray *out)
{
    if (JSON_NODE_HOLDS_OBJECT(n)) {
        JsonObject *o = json_node_get_object(n);
        g_autoptr(GList) members = json_object_get_members(o);
        for (GList *l = members; l; l = l->next) {
            g_autofree char *key = *prefix ? g_strconcat(prefix, ".", l->data, NULL) : g_strdup(l->data);
            flatten(json_object_get_member(o, l->data), key, out);
        }
    } else if (JSON_NODE_HOLDS_ARRAY(n)) {
        JsonArray *a = json_node_get_array(n);
        for (guint i = 0; i < json_array_get_length(a); i++) {
            g_autofree char *key = g_strdup_printf("%s.%u", prefix, i);
            flatten(json_array_get_element(a, i), key, out);
        }
    } else {
        ReportField f = { g_strdup(prefix), NULL, FALSE, 0 };
        f.value = value_text(n, &f.numeric, &f.number);
        g_array_append_val(out, f);
    }
}

GArray *report_flatten(JsonNode *root)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(ReportField));
    flatten(root, "", out);
    return out;
}

void report_fields_free(GArray *fields)
{
    for (guint i = 0; i < fields->len; i++) {
        g_free(g_array_index(fields, ReportField, i).key);
        g_free(g_array_index(fields, ReportField, i).value);
    }
    g_array_free(fields, TRUE);
}

void report_csv_field(GString *s, const char *v)
{
    if (strpbrk(v, ",\"\n\r")) {
        g_string_append_c(s, '"');
        for (const char *p = v; *p; p++) {
            if (*p == '"')
                g_string_append_c(s, '"');
            g_string_append_c(s, *p);
        }
        g_string_append_c(s, '"');
    } else {
        g_string_append(s, v);
    }
}

char *report_to_csv(JsonNode *root, gboolean with_header)
{
    GArray *f = report_flatten(root);
    GString *s = g_string_new(NULL);
    for (int pass = with_header ? 0 : 1; pass < 2; pass++) {
        for (guint i = 0; i < f->len; i++) {
            if (i)
                g_string_append_c(s, ',');
            ReportField *r = &g_array_index(f, ReportField, i);
            report_csv_field(s, pass == 0 ? r->key : r->value);
        }
        g_string_append_c(s, '\n');
    }
    report_fields_free(f);
    return g_string_free(s, FALSE);
}

static void text_node(GString *s, JsonNode *n, const char *name, int depth)
{
    if (JSON_NODE_HOLDS_OBJECT(n)) {
        if (name)
            g_string_append_printf(s, "%*s%s:\n", depth * 2, "", name);
        JsonObject *o = json_node_get_object(n);
        g_autoptr(GList) members = json_object_get_members(o);
        for (GList *l = members; l; l = l->next)
            text_node(s, json_object_get_member(o, l->data), l->data, name ? depth + 1 : depth);
    } else if (JSON_NODE_HOLDS_ARRAY(n)) {
        JsonArray *a = json_node_get_array(n);
        g_string_append_printf(s, "%*s%s:\n", depth * 2, "", name);
        for (guint i = 0; i < json_array_get_length(a); i++) {
            JsonNode *e = json_array_get_element(a, i);
            if (JSON_NODE_HOLDS_OBJECT(e)) {
                /* An array of records prints one line per record. */
                GString *line = g_string_new(NULL);
                JsonObject *o = json_node_get_object(e);
                g_autoptr(GList) members = json_object_get_members(o);
                for (GList *l = members; l; l = l->next) {
                    gboolean num;
                    double d;
                    g_autofree char *v = value_text(json_object_get_member(o, l->data), &num, &d);
                    g_string_append_printf(line, "%s%s %s", line->len ? ", " : "", (char *)l->data, v);
                }
                g_string_append_printf(s, "%*s- %s\n", (depth + 1) * 2, "", line->str);
                g_string_free(line, TRUE);
            } else {
                gboolean num;
                double d;
                g_autofree char *v = value_text(e, &num, &d);
                g_string_append_printf(s, "%*s- %s\n", (depth + 1) * 2, "", v);
            }
        }
    } else {
        gboolean num;
        double d;
        g_autofree char *v = value_text(n, &num, &d);
        g_autofree char *label = g_strdup_printf("%s:", name);
        g_string_append_printf(s, "%*s%-*s %s\n", depth * 2, "", 34 - depth * 2, label, v);
    }
}

char *report_to_text(JsonNode *root)
{
    GString *s = g_string_new(NULL);
    text_node(s, root, NULL, 0);
    return g_string_free(s, FALSE);
}

char *report_format(JsonNode *root, ReportFormat fmt)
{
    switch (fmt) {
    case REPORT_JSON: return report_to_json(root);
    case REPORT_CSV: return report_to_csv(root, TRUE);
    case REPORT_TEXT: return report_to_text(root);
    }
    g_assert_not_reached();
}

/* ---- two reports side by side ---- */

static const ReportField *field_of(GArray *fields, const char *key)
{
    for (guint j = 0; j < fields->len; j++)
        if (!strcmp(g_array_index(fields, ReportField, j).key, key))
            return &g_array_index(fields, ReportField, j);
    return NULL;
}

char *report_compare_text(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b)
{
    GArray *fa = report_flatten(a), *fb = report_flatten(b);
    GString *s = g_string_new(NULL);
    g_autofree char *ha = g_strdup_printf("a: %s", label_a), *hb = g_strdup_printf("b: %s", label_b);
    g_string_append_printf(s, "%-44s %16s %16s %8s\n", "", ha, hb, "b/a");
    for (guint i = 0; i < fa->len; i++) {
        ReportField *x = &g_array_index(fa, ReportField, i);
        const ReportField *y = field_of(fb, x->key);
        if (!y)
            continue;
        g_autofree char *ratio = NULL;
        if (x->numeric && y->numeric && x->number != 0 && x->number != y->number)
            ratio = g_strdup_printf("%.3f", y->number / x->number);
        g_string_append_printf(s, "%-44s %16s %16s %8s\n", x->key, x->value, y->value, ratio ? ratio : "");
    }
    report_fields_free(fa);
    report_fields_free(fb);
    return g_string_free(s, FALSE);
}

static gboolean node_number(JsonNode *n, double *v)
{
    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return FALSE;
    GType t = json_node_get_value_type(n);
    if (t == G_TYPE_INT64)
        *v = (double)json_node_get_int(n);
    else if (t == G_TYPE_DOUBLE)
        *v = json_node_get_double(n);
    else
        return FALSE;
    return TRUE;
}

static JsonNode *zip_at(JsonNode *a, JsonNode *b, GString *path, ReportLeafFn leaf, gpointer data);

/* One member or element of both trees: `name` appended to the path for the walk below it. */
static JsonNode *zip_child(JsonNode *a, JsonNode *b, GString *path, const char *name, ReportLeafFn leaf,
                           gpointer data)
{
    gsize at = path->len;
    if (path->len)
        g_string_append_c(path, '.');
    g_string_append(path, name);
    JsonNode *r = zip_at(a, b, path, leaf, data);
    g_string_truncate(path, at);
    return r;
}

static JsonNode *zip_at(JsonNode *a, JsonNode *b, GString *path, ReportLeafFn leaf, gpointer data)
{
    if (!b)
        return NULL;
    if (JSON_NODE_HOLDS_OBJECT(a) && JSON_NODE_HOLDS_OBJECT(b)) {
        JsonObject *oa = json_node_get_object(a), *ob = json_node_get_object(b), *out = json_object_new();
        g_autoptr(GList) members = json_object_get_members(oa);
        for (GList *l = members; l; l = l->next) {
            JsonNode *r = zip_child(json_object_get_member(oa, l->data), json_object_get_member(ob, l->data), path,
                                    l->data, leaf, data);
            if (r)
                json_object_set_member(out, l->data, r);
        }
        if (!json_object_get_size(out)) {
            json_object_unref(out);
            return NULL;
        }
        JsonNode *n = json_node_new(JSON_NODE_OBJECT);
        json_node_take_object(n, out);
        return n;
    }
    if (JSON_NODE_HOLDS_ARRAY(a) && JSON_NODE_HOLDS_ARRAY(b)) {
        JsonArray *xa = json_node_get_array(a), *xb = json_node_get_array(b), *out = json_array_new();
        guint n = MIN(json_array_get_length(xa), json_array_get_length(xb));
        gboolean any = FALSE;
        for (guint i = 0; i < n; i++) {
            char name[16];
            g_snprintf(name, sizeof name, "%u", i);
            JsonNode *r = zip_child(json_array_get_element(xa, i), json_array_get_element(xb, i), path, name, leaf, data);
            any |= r != NULL;
            json_array_add_element(out, r ? r : json_node_init_null(json_node_alloc()));
        }
        if (!any) {
            json_array_unref(out);
            return NULL;
        }
        JsonNode *node = json_node_new(JSON_NODE_ARRAY);
        json_node_take_array(node, out);
        return node;
    }
    if (JSON_NODE_HOLDS_OBJECT(a) || JSON_NODE_HOLDS_ARRAY(a))
        return NULL;
    return leaf(a, b, path->str, data);
}

JsonNode *report_tree_zip(JsonNode *a, JsonNode *b, ReportLeafFn leaf, gpointer data)
{
    g_autoptr(GString) path = g_string_new(NULL);
    return zip_at(a, b, path, leaf, data);
}

/* b / a of two numbers at one place (null where a is 0); NULL unless both are numbers. */
static JsonNode *number_ratio(JsonNode *a, JsonNode *b, const char *path G_GNUC_UNUSED, gpointer data G_GNUC_UNUSED)
{
    double x, y;
    if (!node_number(a, &x) || !node_number(b, &y))
        return NULL;
    return x != 0 ? json_node_init_double(json_node_alloc(), y / x) : json_node_init_null(json_node_alloc());
}

JsonNode *report_compare_tree(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b)
{
    return report_pair_tree(label_a, label_b, json_node_copy(a), json_node_copy(b), report_tree_zip(a, b, number_ratio, NULL));
}

JsonNode *report_pair_tree(const char *label_a, const char *label_b, JsonNode *a, JsonNode *b, JsonNode *b_over_a)
{
    JsonObject *root = json_object_new(), *labels = json_object_new();
    json_object_set_string_member(labels, "a", label_a);
    json_object_set_string_member(labels, "b", label_b);
    json_object_set_object_member(root, "labels", labels);
    json_object_set_member(root, "a", a);
    json_object_set_member(root, "b", b);
    if (!b_over_a) {
        b_over_a = json_node_new(JSON_NODE_OBJECT);
        json_node_take_object(b_over_a, json_object_new());
    }
    json_object_set_member(root, "b_over_a", b_over_a);
    JsonNode *n = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(n, root);
    return n;
}

char *report_compare_format(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b, ReportFormat fmt)
{
    switch (fmt) {
    case REPORT_JSON:
    case REPORT_CSV: {
        g_autoptr(JsonNode) t = report_compare_tree(a, b, label_a, label_b);
        return report_document_format(t, "pair", fmt);
    }
    case REPORT_TEXT: return report_compare_text(a, b, label_a, label_b);
    }
    g_assert_not_reached();
}

JsonNode *report_document(JsonNode *body, const char *kind)
{
    JsonObject *out = json_object_new(), *from = json_node_get_object(body);
    json_object_set_int_member(out, "schema_version", REPORT_SCHEMA_VERSION);
    json_object_set_string_member(out, "kind", kind);
    g_autoptr(GList) members = json_object_get_members(from);
    for (GList *l = members; l; l = l->next)
        json_object_set_member(out, l->data, json_node_copy(json_object_get_member(from, l->data)));
    JsonNode *n = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(n, out);
    return n;
}

char *report_document_format(JsonNode *body, const char *kind, ReportFormat fmt)
{
    if (fmt == REPORT_TEXT)
        return report_to_text(body);
    g_autoptr(JsonNode) doc = report_document(body, kind);
    return report_format(doc, fmt);
}

void report_add_int(JsonBuilder *b, const char *key, gint64 v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, v);
}

void report_add_double(JsonBuilder *b, const char *key, double v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_double_value(b, v);
}

void report_add_string(JsonBuilder *b, const char *key, const char *v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, v);
}

void report_add_bool(JsonBuilder *b, const char *key, gboolean v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_boolean_value(b, v);
}

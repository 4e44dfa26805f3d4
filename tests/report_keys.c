/* Report members by dotted path, absent ones failing the test (see report_keys.h). */
#include <check.h>
#include "tests/report_keys.h"

JsonNode *report_key(JsonObject *o, const char *path)
{
    g_auto(GStrv) parts = g_strsplit(path, ".", -1);
    JsonNode *n = NULL;
    for (guint i = 0; parts[i]; i++) {
        if (n && JSON_NODE_HOLDS_ARRAY(n)) {
            JsonArray *a = json_node_get_array(n);
            char *end;
            guint64 k = g_ascii_strtoull(parts[i], &end, 10);
            ck_assert_msg(*parts[i] && !*end && k < json_array_get_length(a),
                          "report key %s: no element %s (the array has %u)", path, parts[i], json_array_get_length(a));
            n = json_array_get_element(a, (guint)k);
            continue;
        }
        ck_assert_msg(!n || JSON_NODE_HOLDS_OBJECT(n), "report key %s: %s is not an object", path, parts[i - 1]);
        JsonObject *in = n ? json_node_get_object(n) : o;
        ck_assert_msg(json_object_has_member(in, parts[i]), "report key %s: the report has no member %s", path,
                      parts[i]);
        n = json_object_get_member(in, parts[i]);
    }
    ck_assert_msg(n, "report key: empty path");
    return n;
}

/* The value at `path`, which must be a value of `type`. */
static JsonNode *value_of(JsonObject *o, const char *path, GType type, const char *what)
{
    JsonNode *n = report_key(o, path);
    ck_assert_msg(JSON_NODE_HOLDS_VALUE(n) && g_type_is_a(json_node_get_value_type(n), type),
                  "report key %s: not %s", path, what);
    return n;
}

gint64 report_key_int(JsonObject *o, const char *path)
{
    return json_node_get_int(value_of(o, path, G_TYPE_INT64, "an integer"));
}

double report_key_double(JsonObject *o, const char *path)
{
    JsonNode *n = report_key(o, path);
    ck_assert_msg(JSON_NODE_HOLDS_VALUE(n) && (json_node_get_value_type(n) == G_TYPE_INT64 ||
                                               json_node_get_value_type(n) == G_TYPE_DOUBLE),
                  "report key %s: not a number", path);
    return json_node_get_double(n);
}

const char *report_key_string(JsonObject *o, const char *path)
{
    return json_node_get_string(value_of(o, path, G_TYPE_STRING, "a string"));
}

gboolean report_key_bool(JsonObject *o, const char *path)
{
    return json_node_get_boolean(value_of(o, path, G_TYPE_BOOLEAN, "a boolean"));
}

JsonObject *report_key_object(JsonObject *o, const char *path)
{
    JsonNode *n = report_key(o, path);
    ck_assert_msg(JSON_NODE_HOLDS_OBJECT(n), "report key %s: not an object", path);
    return json_node_get_object(n);
}

JsonArray *report_key_array(JsonObject *o, const char *path)
{
    JsonNode *n = report_key(o, path);
    ck_assert_msg(JSON_NODE_HOLDS_ARRAY(n), "report key %s: not an array", path);
    return json_node_get_array(n);
}

/* JSON read back from a results folder (rows, host times, sweep.json): the nesting counted
 * (json_depth.h, also applied by the reader to the whole file) before json-glib (whose parser
 * recurses per level) sees the text, and positions for what is wrong in it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sim/sweep/sweep.h"
#include "sim/base/json_depth.h"

gboolean sweep_json_check(const char *text, gsize len, const char *path, guint line, GError **error)
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        guint col = 0;
        for (const char *p = text; p <= nul; p++, col++)
            if (*p == '\n') {
                line++;
                col = 0;
            }
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s:%u:%u: a NUL byte (not a file qsim wrote)",
                    path, line, col);
        return FALSE;
    }
    g_autoptr(GError) local = NULL;
    if (!json_depth_check(text, len, path, line, FALSE, &local)) {
        g_set_error_literal(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, local->message);
        return FALSE;
    }
    return TRUE;
}

char *sweep_json_syntax_message(const GError *e, const char *path, guint line)
{
    guint l = 0, c = 0;
    int at = 0;
    if (sscanf(e->message, "<data>:%u:%u: %n", &l, &c, &at) == 2 && at > 0 && l > 0)
        return g_strdup_printf("%s:%u:%u: JSON syntax: %s", path, line + l - 1, c, e->message + at);
    return g_strdup_printf("%s:%u:1: JSON syntax: %s", path, line, e->message);
}

JsonNode *sweep_json_parse(JsonParser *parser, const char *text, gsize len, const char *path, guint line,
                           GError **error)
{
    if (!sweep_json_check(text, len, path, line, error))
        return NULL;
    g_autoptr(GError) local = NULL;
    if (!json_parser_load_from_data(parser, text, (gssize)len, &local)) {
        g_autofree char *msg = sweep_json_syntax_message(local, path, line);
        g_set_error_literal(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, msg);
        return NULL;
    }
    JsonNode *root = json_parser_get_root(parser);
    if (!root)
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s:%u:1: empty (expected a JSON object)", path,
                    line);
    return root;
}

/* The end of the string whose opening quote is at `p`: its closing quote, or the text's end. */
static const char *string_end(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return p;
}

static char *json_where(const char *text, const char *path, guint line, const char *member)
{
    guint depth = 0, l = line, col = 1;
    gsize want = strlen(member);
    for (const char *p = text; *p; p++, col++) {
        if (*p == '\n') {
            l++;
            col = 0;
        } else if (*p == '[' || *p == '{') {
            depth++;
        } else if ((*p == ']' || *p == '}') && depth) {
            depth--;
        } else if (*p == '"') {
            const char *end = string_end(p);
            const char *after = end + (*end == '"');
            while (*after == ' ' || *after == '\t' || *after == '\r')
                after++;
            if (depth == 1 && *after == ':' && (gsize)(end - p - 1) == want && !memcmp(p + 1, member, want))
                return g_strdup_printf("%s:%u:%u", path, l, col);
            col += (guint)(end - p);   /* rows are one line: a string's newline would be no JSON anyway */
            p = *end ? end : end - 1;
        }
    }
    return g_strdup_printf("%s:%u:1", path, line);
}

gboolean sweep_json_bad(GError **error, const char *text, const char *path, guint line, const char *member,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *where = json_where(text, path, line, member);
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s: %s", where, member, msg);
    return FALSE;
}

const char *sweep_json_string(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n)
                                                                                           : NULL;
}

gboolean sweep_json_int(JsonObject *o, const char *name, gint64 *out)
{
    JsonNode *n = json_object_get_member(o, name);
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return FALSE;
    *out = json_node_get_int(n);
    return TRUE;
}

char *sweep_json_text(JsonNode *root)
{
    g_autoptr(JsonGenerator) gen = json_generator_new();
    json_generator_set_root(gen, root);
    return json_generator_to_data(gen, NULL);
}

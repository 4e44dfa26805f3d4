/* DIR/sweep.json: which sweep a results folder holds.  Besides the fingerprint it records the
 * sweep's axes and excludes, from which every point's key follows, so that a merge can check
 * each row's key against its point index; reading it back checks every member and that the
 * axes make the points and fingerprint it states. */
#include <string.h>
#include "sim/sweep/sweep.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"

void sweep_meta_clear(SweepMeta *m)
{
    g_free(m->fingerprint);
    g_free(m->source);
    g_free(m->plot_x);
    g_free(m->plot_y);
    g_free(m->plot_scale);
    sweep_free(m->layout);
    memset(m, 0, sizeof *m);
}

void sweep_meta_of(const Sweep *s, guint shard, guint nshards, SweepMeta *m)
{
    memset(m, 0, sizeof *m);
    m->fingerprint = g_strdup(s->fingerprint);
    m->npoints = s->npoints;
    m->source = g_strdup(s->filename);
    m->shard = shard;
    m->nshards = nshards;
    m->plot_x = g_strdup(s->plot_x);
    m->plot_y = g_strdup(s->plot_y);
    m->plot_scale = g_strdup(s->plot_scale);
    m->layout = sweep_layout_copy(s);
}

/* {KEY: the axis's name, "values": [...]}: its values, or those `hit` marks. */
static void add_axis(JsonBuilder *b, const char *key, const SweepAxis *ax, const guint8 *hit)
{
    json_builder_begin_object(b);
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, ax->name);
    json_builder_set_member_name(b, "values");
    json_builder_begin_array(b);
    for (guint v = 0; v < ax->values->len; v++)
        if (!hit || hit[v])
            json_builder_add_string_value(b, ax->values->pdata[v]);
    json_builder_end_array(b);
    json_builder_end_object(b);
}

/* "axes": [{"name": N, "values": [...]}...] and "exclude": [[{"axis": N, "values": [...]}...]...] */
static void add_layout(JsonBuilder *b, const Sweep *s)
{
    json_builder_set_member_name(b, "axes");
    json_builder_begin_array(b);
    for (guint a = 0; a < s->axes->len; a++)
        add_axis(b, "name", s->axes->pdata[a], NULL);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "exclude");
    json_builder_begin_array(b);
    for (guint e = 0; e < s->excludes->len; e++) {
        GArray *terms = s->excludes->pdata[e];
        json_builder_begin_array(b);
        for (guint t = 0; t < terms->len; t++) {
            const SweepExcludeTerm *term = &g_array_index(terms, SweepExcludeTerm, t);
            add_axis(b, "axis", s->axes->pdata[term->axis], term->hit);
        }
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
}

gboolean sweep_meta_write(const char *dir, const SweepMeta *m, GError **error)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "fingerprint");
    json_builder_add_string_value(b, m->fingerprint);
    json_builder_set_member_name(b, "points");
    json_builder_add_int_value(b, m->npoints);
    json_builder_set_member_name(b, "source");
    json_builder_add_string_value(b, m->source);
    json_builder_set_member_name(b, "shard");
    g_autofree char *sh = g_strdup_printf("%u/%u", m->shard, m->nshards);
    json_builder_add_string_value(b, sh);
    /* The plot the sweep file asked for, so that a merge draws it too. */
    const struct { const char *key, *value; } plot[] = {
        { "x", m->plot_x }, { "y", m->plot_y }, { "scale", m->plot_scale },
    };
    json_builder_set_member_name(b, "plot");
    json_builder_begin_object(b);
    for (guint i = 0; i < G_N_ELEMENTS(plot); i++)
        if (plot[i].value) {
            json_builder_set_member_name(b, plot[i].key);
            json_builder_add_string_value(b, plot[i].value);
        }
    json_builder_end_object(b);
    add_layout(b, m->layout);
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    g_autofree char *text = sweep_json_text(root);
    g_autofree char *line = g_strconcat(text, "\n", NULL);
    return sweep_write_atomic(dir, "sweep.json", line, error);
}

/* ---- reading it back ---- */

/* The sweep.json being read, which errors point into. */
typedef struct {
    const char *text, *path;
} MetaText;

#define BAD(t, member, ...) sweep_json_bad(error, (t)->text, (t)->path, 1, member, __VA_ARGS__)

/* "I/N", 1 <= I <= N, digits only. */
static gboolean shard_parse(const char *s, guint *shard, guint *nshards)
{
    char *end;
    if (!g_ascii_isdigit(*s))
        return FALSE;
    guint64 i = g_ascii_strtoull(s, &end, 10);
    if (*end != '/' || !g_ascii_isdigit(end[1]))
        return FALSE;
    guint64 n = g_ascii_strtoull(end + 1, &end, 10);
    if (*end || i < 1 || i > n || n > G_MAXUINT)
        return FALSE;
    *shard = (guint)i;
    *nshards = (guint)n;
    return TRUE;
}

static gboolean is_fingerprint(const char *s)
{
    if (!s || strlen(s) != 64)
        return FALSE;
    for (; *s; s++)
        if (!g_ascii_isdigit(*s) && !(*s >= 'a' && *s <= 'f'))
            return FALSE;
    return TRUE;
}

/* The members beside the axes: their types and ranges. */
static gboolean meta_fields(const MetaText *t, JsonObject *o, SweepMeta *m, GError **error)
{
    const char *fp = sweep_json_string(o, "fingerprint");
    if (!is_fingerprint(fp))
        return BAD(t, "fingerprint", "expected 64 hexadecimal digits (the SHA-256 of the points' keys)");
    m->fingerprint = g_strdup(fp);
    gint64 n;
    if (!sweep_json_int(o, "points", &n) || n < 1 || n > SWEEP_MAX_POINTS) {
        JsonNode *pn = json_object_get_member(o, "points");
        g_autofree char *got = pn ? sweep_json_text(pn) : g_strdup("nothing");
        return BAD(t, "points", "expected a point count, 1 to %u, got %.40s", SWEEP_MAX_POINTS, got);
    }
    m->npoints = (guint)n;
    const char *source = sweep_json_string(o, "source");
    if (!source)
        return BAD(t, "source", "expected the sweep file's name (a string)");
    m->source = g_strdup(source);
    const char *sh = sweep_json_string(o, "shard");
    if (!sh || !shard_parse(sh, &m->shard, &m->nshards))
        return BAD(t, "shard", "expected I/N with 1 <= I <= N (a string)");
    JsonNode *pn = json_object_get_member(o, "plot");
    if (!pn || !JSON_NODE_HOLDS_OBJECT(pn))
        return BAD(t, "plot", "expected an object (the sweep file's plot_x, plot_y, plot_scale)");
    JsonObject *plot = json_node_get_object(pn);
    char **slots[] = { &m->plot_x, &m->plot_y, &m->plot_scale };
    const char *names[] = { "x", "y", "scale" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!json_object_has_member(plot, names[i]))
            continue;
        const char *v = sweep_json_string(plot, names[i]);
        SweepPlotScale scale;
        if (!v || !*v || (i == 2 && !sweep_plot_scale_parse(v, &scale, NULL)))
            return BAD(t, "plot", "%s: expected %s", names[i], i == 2 ? "shared or independent" : "a name");
        *slots[i] = g_strdup(v);
    }
    return TRUE;
}

/* The array member `name` of `o` (non-empty, of at most `max` entries), or NULL. */
static JsonArray *array_member(JsonObject *o, const char *name, guint max)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;
    JsonArray *a = n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
    return a && json_array_get_length(a) >= 1 && json_array_get_length(a) <= max ? a : NULL;
}

static JsonObject *object_element(JsonArray *a, guint i)
{
    JsonNode *n = json_array_get_element(a, i);
    return JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static const char *string_element(JsonArray *a, guint i)
{
    JsonNode *n = json_array_get_element(a, i);
    return JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n) : NULL;
}

/* "axes": each an axis qsim knows, named once, with values given once each. */
static gboolean meta_axes(const MetaText *t, JsonObject *o, Sweep *s, GPtrArray *index, GError **error)
{
    if (!json_object_has_member(o, "axes"))
        return BAD(t, "axes", "missing (a folder of an older qsim: `qsim sweep FILE --out DIR --resume` "
                              "rewrites sweep.json from the sweep file)");
    JsonArray *axes = array_member(o, "axes", G_MAXUINT);
    if (!axes)
        return BAD(t, "axes", "expected a list of axes, each {\"name\": NAME, \"values\": [...]}");
    for (guint i = 0; i < json_array_get_length(axes); i++) {
        JsonObject *ax = object_element(axes, i);
        const char *name = ax ? sweep_json_string(ax, "name") : NULL;
        SweepAxisKind kind;
        const WorkloadKey *wk;
        if (!name || !sweep_axis_kind(name, &kind, &wk) || sweep_axis_find(s, name) >= 0)
            return BAD(t, "axes", "entry %u: expected {\"name\": NAME, \"values\": [...]}, NAME an axis named once",
                       i + 1);
        JsonArray *values = array_member(ax, "values", SWEEP_MAX_POINTS);
        if (!values)
            return BAD(t, "axes", "%s: expected a list of 1 to %u values", name, SWEEP_MAX_POINTS);
        SweepAxis *a = sweep_axis_new(name, kind, wk);
        g_ptr_array_add(s->axes, a);
        GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);   /* value -> its index + 1 */
        g_ptr_array_add(index, seen);
        for (guint v = 0; v < json_array_get_length(values); v++) {
            const char *text = string_element(values, v);
            if (!text || !*text || g_hash_table_contains(seen, text))
                return BAD(t, "axes", "%s: value %u: expected a text given once", name, v + 1);
            g_ptr_array_add(a->values, g_strdup(text));
            if (a->lock_files)
                g_ptr_array_add(a->lock_files, NULL);
            g_hash_table_insert(seen, a->values->pdata[v], GUINT_TO_POINTER(v + 1));
        }
    }
    return TRUE;
}

/* "exclude": entries of terms, each naming an axis and some of its values. */
static gboolean meta_excludes(const MetaText *t, JsonObject *o, Sweep *s, GPtrArray *index, GError **error)
{
    JsonNode *en = json_object_get_member(o, "exclude");
    if (!en || !JSON_NODE_HOLDS_ARRAY(en) || json_array_get_length(json_node_get_array(en)) > SWEEP_MAX_EXCLUDES)
        return BAD(t, "exclude", "expected a list of at most %u entries", SWEEP_MAX_EXCLUDES);
    JsonArray *entries = json_node_get_array(en);
    for (guint e = 0; e < json_array_get_length(entries); e++) {
        JsonNode *tn = json_array_get_element(entries, e);
        JsonArray *terms = JSON_NODE_HOLDS_ARRAY(tn) ? json_node_get_array(tn) : NULL;
        if (!terms || !json_array_get_length(terms))
            return BAD(t, "exclude", "entry %u: expected a list of terms", e + 1);
        GArray *out = g_array_new(FALSE, FALSE, sizeof(SweepExcludeTerm));
        g_ptr_array_add(s->excludes, out);
        for (guint k = 0; k < json_array_get_length(terms); k++) {
            JsonObject *term = object_element(terms, k);
            const char *name = term ? sweep_json_string(term, "axis") : NULL;
            int ax = name ? sweep_axis_find(s, name) : -1;
            JsonArray *values = ax >= 0 ? array_member(term, "values", G_MAXUINT) : NULL;
            if (!values)
                return BAD(t, "exclude", "entry %u, term %u: expected {\"axis\": AXIS, \"values\": [...]}", e + 1,
                           k + 1);
            SweepAxis *a = s->axes->pdata[ax];
            SweepExcludeTerm x = { (guint)ax, g_new0(guint8, a->values->len) };
            g_array_append_val(out, x);
            for (guint v = 0; v < json_array_get_length(values); v++) {
                const char *text = string_element(values, v);
                guint at = text ? GPOINTER_TO_UINT(g_hash_table_lookup(index->pdata[ax], text)) : 0;
                if (!at) {
                    g_autofree char *shown = text ? echo_clip(text) : g_strdup("(not a text)");
                    return BAD(t, "exclude", "entry %u, term %u: %s is not a value of %s", e + 1, k + 1, shown, name);
                }
                x.hit[at - 1] = 1;
            }
        }
    }
    return TRUE;
}

/* The sweep the axes and excludes make, which must have the points and fingerprint stated. */
static gboolean meta_layout(const MetaText *t, JsonObject *o, SweepMeta *m, GError **error)
{
    g_autoptr(Sweep) s = sweep_new(t->path);
    g_autoptr(GPtrArray) index = g_ptr_array_new_with_free_func((GDestroyNotify)g_hash_table_unref);
    if (!meta_axes(t, o, s, index, error) || !meta_excludes(t, o, s, index, error) || !sweep_enumerate(s, error))
        return FALSE;
    if (s->npoints != m->npoints)
        return BAD(t, "points", "%u, but the axes and excludes make %u point%s", m->npoints, s->npoints,
                   s->npoints == 1 ? "" : "s");
    if (strcmp(s->fingerprint, m->fingerprint))
        return BAD(t, "fingerprint", "not the fingerprint of the points the axes and excludes make");
    m->layout = g_steal_pointer(&s);
    return TRUE;
}

gboolean sweep_meta_read(const char *dir, SweepMeta *m, GError **error)
{
    memset(m, 0, sizeof *m);
    g_autofree char *path = g_build_filename(dir, "sweep.json", NULL);
    g_autofree char *text = NULL;
    gsize len = 0;
    g_autoptr(GError) local = NULL;
    if (!input_file_read(path, INPUT_SWEEP_META, &text, &len, &local)) {
        if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: not a sweep results folder (%s)", dir,
                        local->message);
        else
            g_set_error_literal(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, local->message);
        return FALSE;
    }
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root = sweep_json_parse(parser, text, len, path, 1, error);
    if (!root)
        return FALSE;
    if (!JSON_NODE_HOLDS_OBJECT(root)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s:1:1: expected a JSON object (what sweep "
                    "results folders hold: their sweep's fingerprint, points and axes)", path);
        return FALSE;
    }
    MetaText t = { text, path };
    JsonObject *o = json_node_get_object(root);
    if (meta_fields(&t, o, m, error) && meta_layout(&t, o, m, error))
        return TRUE;
    sweep_meta_clear(m);
    return FALSE;
}

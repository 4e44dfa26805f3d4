/* Sweep results on disk: DIR/results.jsonl (one JSON object per finished point, appended and
 * flushed as points finish), DIR/results.csv (rewritten from the rows, sorted by point) and
 * DIR/sweep.json (which sweep the rows belong to).  Rows are kept as the text that was written,
 * so sorting, resuming and merging never change a byte of a row. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "sim/base/report.h"

void sweep_row_free(gpointer p)
{
    SweepRow *r = p;
    if (!r)
        return;
    g_free(r->key);
    g_free(r->line);
    g_free(r);
}

static char *json_line(JsonNode *root)
{
    g_autoptr(JsonGenerator) gen = json_generator_new();
    json_generator_set_root(gen, root);
    return json_generator_to_data(gen, NULL);
}

char *sweep_row_json(const Sweep *s, guint p, const RunResult *r, const char *error_text)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autofree char *key = sweep_point_key(s, p);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "point");
    json_builder_add_int_value(b, p);
    json_builder_set_member_name(b, "key");
    json_builder_add_string_value(b, key);
    json_builder_set_member_name(b, "axes");
    json_builder_begin_object(b);
    for (guint a = 0; a < s->axes->len; a++) {
        json_builder_set_member_name(b, ((SweepAxis *)s->axes->pdata[a])->name);
        json_builder_add_string_value(b, sweep_value(s, p, a));
    }
    json_builder_end_object(b);
    gboolean ok = !error_text && r && r->ok;
    json_builder_set_member_name(b, "status");
    json_builder_add_string_value(b, ok ? "ok" : "failed");
    json_builder_set_member_name(b, "failure");
    if (ok)
        json_builder_add_null_value(b);
    else
        json_builder_add_string_value(b, error_text ? error_text : r->failure);
    json_builder_set_member_name(b, "report");
    if (r && r->report)
        json_builder_add_value(b, json_node_copy(r->report));
    else
        json_builder_add_null_value(b);
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    return json_line(root);
}

gboolean sweep_append_line(FILE *f, const char *path, const char *line, GError **error)
{
    if (fputs(line, f) < 0 || fputc('\n', f) < 0 || fflush(f) != 0 || fsync(fileno(f)) != 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

/* Parses one results line; NULL when it is not a row. */
static SweepRow *row_parse(const char *line)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    if (!json_parser_load_from_data(parser, line, -1, NULL))
        return NULL;
    JsonNode *root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return NULL;
    JsonObject *o = json_node_get_object(root);
    if (!json_object_has_member(o, "point") || !json_object_has_member(o, "key"))
        return NULL;
    gint64 p = json_object_get_int_member(o, "point");
    const char *key = json_object_get_string_member(o, "key");
    if (p < 0 || p > G_MAXUINT || !key)
        return NULL;
    SweepRow *r = g_new0(SweepRow, 1);
    r->point = (guint)p;
    r->key = g_strdup(key);
    r->line = g_strdup(line);
    r->ok = !g_strcmp0(json_object_get_string_member_with_default(o, "status", ""), "ok");
    return r;
}

GPtrArray *sweep_rows_read(const char *path, gboolean *torn, GError **error)
{
    GPtrArray *rows = g_ptr_array_new_with_free_func(sweep_row_free);
    if (torn)
        *torn = FALSE;
    g_autofree char *text = NULL;
    gsize len = 0;
    g_autoptr(GError) local = NULL;
    if (!g_file_get_contents(path, &text, &len, &local)) {
        if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            return rows;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s", local->message);
        g_ptr_array_unref(rows);
        return NULL;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    guint n = g_strv_length(lines);
    for (guint i = 0; i < n; i++) {
        if (!*lines[i])
            continue;
        SweepRow *r = row_parse(lines[i]);
        if (r) {
            g_ptr_array_add(rows, r);
            continue;
        }
        /* Only the last line may be cut short (a kill while writing); anything else is damage
         * we must not paper over. */
        if (i == n - 1) {
            if (torn)
                *torn = TRUE;
            continue;
        }
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s:%u:1: not a results row", path, i + 1);
        g_ptr_array_unref(rows);
        return NULL;
    }
    return rows;
}

static int row_cmp(gconstpointer a, gconstpointer b)
{
    const SweepRow *x = *(SweepRow *const *)a, *y = *(SweepRow *const *)b;
    return x->point < y->point ? -1 : x->point > y->point;
}

/* ---- CSV ---- */

/* Adds `keys` of one row to the union `all`, each new key right after the key before it in the
 * row, so that per_thread.3.* lands after per_thread.2.* however the rows come. */
static void keys_merge(GPtrArray *all, GHashTable *seen, GArray *fields)
{
    guint pos = 0;
    for (guint i = 0; i < fields->len; i++) {
        const char *k = g_array_index(fields, ReportField, i).key;
        if (g_hash_table_contains(seen, k)) {
            guint at;
            if (g_ptr_array_find_with_equal_func(all, k, g_str_equal, &at))
                pos = at + 1;
            continue;
        }
        char *dup = g_strdup(k);
        g_hash_table_add(seen, dup);
        g_ptr_array_insert(all, (gint)pos, dup);
        pos++;
    }
}

static char *csv_text(GPtrArray *rows)
{
    guint n = rows->len;
    g_autofree JsonParser **parsers = g_new0(JsonParser *, n);
    g_autofree GArray **fields = g_new0(GArray *, n);
    g_autoptr(GPtrArray) axes = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) keys = g_ptr_array_new();
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < n; i++) {
        SweepRow *r = rows->pdata[i];
        parsers[i] = json_parser_new();
        json_parser_load_from_data(parsers[i], r->line, -1, NULL);   /* parsed once already */
        JsonObject *o = json_node_get_object(json_parser_get_root(parsers[i]));
        if (!axes->len && json_object_has_member(o, "axes")) {
            g_autoptr(GList) m = json_object_get_members(json_object_get_object_member(o, "axes"));
            for (GList *l = m; l; l = l->next)
                g_ptr_array_add(axes, g_strdup(l->data));
        }
        JsonNode *rep = json_object_get_member(o, "report");
        if (rep && JSON_NODE_HOLDS_OBJECT(rep)) {
            fields[i] = report_flatten(rep);
            keys_merge(keys, seen, fields[i]);
        }
    }
    GString *s = g_string_new("point");
    for (guint a = 0; a < axes->len; a++)
        g_string_append_printf(s, ",axis.%s", (char *)axes->pdata[a]);
    g_string_append(s, ",status,failure");
    for (guint k = 0; k < keys->len; k++) {
        g_string_append_c(s, ',');
        report_csv_field(s, keys->pdata[k]);
    }
    g_string_append_c(s, '\n');
    g_autoptr(GHashTable) vals = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < n; i++) {
        SweepRow *r = rows->pdata[i];
        JsonObject *o = json_node_get_object(json_parser_get_root(parsers[i]));
        g_string_append_printf(s, "%u", r->point);
        JsonObject *ax = json_object_get_object_member(o, "axes");
        for (guint a = 0; a < axes->len; a++) {
            g_string_append_c(s, ',');
            report_csv_field(s, ax ? json_object_get_string_member_with_default(ax, axes->pdata[a], "") : "");
        }
        g_string_append_printf(s, ",%s,", r->ok ? "ok" : "failed");
        /* The CSV keeps the failure's first line; results.jsonl has all of it. */
        const char *why = json_object_get_string_member_with_default(o, "failure", NULL);
        if (why) {
            g_autofree char *first = g_strndup(why, strcspn(why, "\n"));
            report_csv_field(s, first);
        }
        g_hash_table_remove_all(vals);
        for (guint f = 0; fields[i] && f < fields[i]->len; f++) {
            ReportField *rf = &g_array_index(fields[i], ReportField, f);
            g_hash_table_insert(vals, rf->key, rf->value);
        }
        for (guint k = 0; k < keys->len; k++) {
            g_string_append_c(s, ',');
            const char *v = g_hash_table_lookup(vals, keys->pdata[k]);
            if (v)
                report_csv_field(s, v);
        }
        g_string_append_c(s, '\n');
    }
    for (guint i = 0; i < n; i++) {
        if (fields[i])
            report_fields_free(fields[i]);
        g_object_unref(parsers[i]);
    }
    return g_string_free(s, FALSE);
}

/* Writes `text` to DIR/NAME through a temporary file, so that a kill leaves the old or the new
 * file, never half of one. */
static gboolean write_atomic(const char *dir, const char *name, const char *text, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(text, f) < 0 || fflush(f) != 0 || fsync(fileno(f)) != 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", tmp, g_strerror(errno));
        if (f)
            fclose(f);
        return FALSE;
    }
    fclose(f);
    if (g_rename(tmp, path) != 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

gboolean sweep_results_write(const char *dir, GPtrArray *rows, GError **error)
{
    g_ptr_array_sort(rows, row_cmp);
    GString *jl = g_string_new(NULL);
    for (guint i = 0; i < rows->len; i++)
        g_string_append_printf(jl, "%s\n", ((SweepRow *)rows->pdata[i])->line);
    gboolean ok = write_atomic(dir, "results.jsonl", jl->str, error);
    g_string_free(jl, TRUE);
    if (!ok)
        return FALSE;
    g_autofree char *csv = csv_text(rows);
    return write_atomic(dir, "results.csv", csv, error);
}

/* ---- which sweep a folder holds ---- */

void sweep_meta_clear(SweepMeta *m)
{
    g_free(m->fingerprint);
    g_free(m->source);
    g_free(m->plot_x);
    g_free(m->plot_y);
    g_free(m->plot_scale);
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
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    g_autofree char *text = json_line(root);
    g_autofree char *line = g_strconcat(text, "\n", NULL);
    return write_atomic(dir, "sweep.json", line, error);
}

static char *member_or_null(JsonObject *o, const char *key)
{
    return o ? g_strdup(json_object_get_string_member_with_default(o, key, NULL)) : NULL;
}

gboolean sweep_meta_read(const char *dir, SweepMeta *m, GError **error)
{
    memset(m, 0, sizeof *m);
    g_autofree char *path = g_build_filename(dir, "sweep.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GError) local = NULL;
    if (!json_parser_load_from_file(parser, path, &local) || !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: not a sweep results folder (%s)", dir,
                    local ? local->message : "sweep.json is not an object");
        return FALSE;
    }
    JsonObject *o = json_node_get_object(json_parser_get_root(parser));
    m->fingerprint = g_strdup(json_object_get_string_member_with_default(o, "fingerprint", ""));
    m->npoints = (guint)json_object_get_int_member_with_default(o, "points", 0);
    m->source = g_strdup(json_object_get_string_member_with_default(o, "source", ""));
    const char *sh = json_object_get_string_member_with_default(o, "shard", "1/1");
    if (sscanf(sh, "%u/%u", &m->shard, &m->nshards) != 2)
        m->shard = m->nshards = 1;
    JsonNode *pn = json_object_get_member(o, "plot");
    JsonObject *plot = pn && JSON_NODE_HOLDS_OBJECT(pn) ? json_node_get_object(pn) : NULL;
    m->plot_x = member_or_null(plot, "x");
    m->plot_y = member_or_null(plot, "y");
    m->plot_scale = member_or_null(plot, "scale");
    return TRUE;
}

/* ---- host times ---- */

char *sweep_host_time_json(const Sweep *s, guint p, double seconds)
{
    /* Microseconds are all the clock gives: the number is written with six decimals, not as
     * the double's seventeen digits. */
    g_autofree char *key = sweep_point_key(s, p);
    g_autoptr(JsonNode) kn = json_node_init_string(json_node_alloc(), key);
    g_autofree char *qkey = json_line(kn);
    char secs[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup_printf("{\"point\":%u,\"key\":%s,\"host_seconds\":%s}", p, qkey,
                           g_ascii_formatd(secs, sizeof secs, "%.6f", seconds));
}

double sweep_host_time_seconds(const SweepRow *row)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    if (!json_parser_load_from_data(parser, row->line, -1, NULL))
        return 0;
    JsonNode *n = json_object_get_member(json_node_get_object(json_parser_get_root(parser)), "host_seconds");
    return n && JSON_NODE_HOLDS_VALUE(n) ? json_node_get_double(n) : 0;
}

GPtrArray *sweep_host_times_read(const char *dir, GError **error)
{
    g_autofree char *path = g_build_filename(dir, SWEEP_HOST_TIMES, NULL);
    return sweep_rows_read(path, NULL, error);
}

gboolean sweep_host_times_write(const char *dir, GPtrArray *rows, GError **error)
{
    g_ptr_array_sort(rows, row_cmp);
    GString *jl = g_string_new(NULL);
    for (guint i = 0; i < rows->len; i++)
        g_string_append_printf(jl, "%s\n", ((SweepRow *)rows->pdata[i])->line);
    gboolean ok = write_atomic(dir, SWEEP_HOST_TIMES, jl->str, error);
    g_string_free(jl, TRUE);
    return ok;
}

/* ---- merging shards ---- */

/* Rows of every folder's file `read` returns, one per point (the first folder's wins: runs are
 * deterministic), checked against the sweep's `n0` points. */
static GPtrArray *merge_rows(const char *const *dirs, guint n0, gboolean results, GError **error)
{
    g_autoptr(GHashTable) by_point = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(sweep_row_free);
    for (guint d = 0; dirs[d]; d++) {
        g_autofree char *path = g_build_filename(dirs[d], results ? "results.jsonl" : SWEEP_HOST_TIMES, NULL);
        gboolean torn = FALSE;
        GPtrArray *rows = sweep_rows_read(path, &torn, error);
        if (!rows)
            return NULL;
        if (torn && results)
            g_printerr("qsim sweep: %s: dropped a last line cut short (an interrupted run)\n", path);
        for (guint i = 0; i < rows->len; i++) {
            SweepRow *r = rows->pdata[i];
            SweepRow *had = g_hash_table_lookup(by_point, GUINT_TO_POINTER(r->point + 1));
            if (r->point >= n0) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_MISMATCH,
                            "%s: point %u is outside the sweep's %u points", path, r->point, n0);
                g_ptr_array_unref(rows);
                return NULL;
            }
            if (had) {
                if (strcmp(had->key, r->key)) {
                    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_MISMATCH,
                                "%s: point %u is %s here but %s in another folder", path, r->point, r->key,
                                had->key);
                    g_ptr_array_unref(rows);
                    return NULL;
                }
                continue;   /* the same point run twice (overlapping shards): runs are deterministic */
            }
            rows->pdata[i] = NULL;
            g_hash_table_insert(by_point, GUINT_TO_POINTER(r->point + 1), r);
            g_ptr_array_add(all, r);
        }
        g_ptr_array_unref(rows);   /* rows taken into `all` were set to NULL */
    }
    return g_steal_pointer(&all);
}

/* Whether folders a and b are the same folder (however each is spelt). */
static gboolean same_folder(const char *a, const char *b)
{
    GStatBuf sa, sb;
    return g_stat(a, &sa) == 0 && g_stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The first entry of folder `dir` (other than the lock file), or NULL when it is empty. */
static char *first_entry(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    char *found = NULL;
    while (d && !found && (name = g_dir_read_name(d)))
        if (strcmp(name, SWEEP_LOCK_FILE))
            found = g_strdup(name);
    if (d)
        g_dir_close(d);
    return found;
}

/* `out` may take the merge: new or empty; or the one folder merged (which rewrites its own rows
 * unchanged: how a finished sweep is replotted); else only with `force`. */
static gboolean merge_target_ok(const char *const *dirs, const char *out, gboolean force, GError **error)
{
    if (!*out) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "--out '': an empty path (name a folder)");
        return FALSE;
    }
    if (!g_file_test(out, G_FILE_TEST_EXISTS))
        return TRUE;
    for (guint d = 0; dirs[d]; d++) {
        if (!same_folder(out, dirs[d]))
            continue;
        if (!dirs[1] || force)
            return TRUE;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--out %s: it is one of the folders being merged (%s), whose own results the merge would "
                    "replace; merge into a new folder, or add --force", out, dirs[d]);
        return FALSE;
    }
    if (!g_file_test(out, G_FILE_TEST_IS_DIR)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "--out %s: not a folder", out);
        return FALSE;
    }
    g_autofree char *entry = first_entry(out);
    if (entry && !force) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--out %s: the folder is not empty (it holds %s); merge into a new or empty folder, or add "
                    "--force to replace its results", out, entry);
        return FALSE;
    }
    return TRUE;
}

gboolean sweep_merge(const char *const *dirs, const char *out, gboolean force, guint *missing, SweepMeta *meta,
                     GError **error)
{
    SweepMeta m0 = { 0 };
    for (guint d = 0; dirs[d]; d++) {
        SweepMeta m;
        if (!sweep_meta_read(dirs[d], &m, error)) {
            sweep_meta_clear(&m0);
            return FALSE;
        }
        if (d == 0) {
            m0 = m;
            continue;
        }
        gboolean same = !strcmp(m.fingerprint, m0.fingerprint) && m.npoints == m0.npoints;
        if (!same)
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_MISMATCH,
                        "%s and %s hold different sweeps (%s with %u points vs %s with %u); merge only "
                        "shards of one sweep file", dirs[0], dirs[d], m0.source, m0.npoints, m.source, m.npoints);
        sweep_meta_clear(&m);
        if (!same) {
            sweep_meta_clear(&m0);
            return FALSE;
        }
    }
    if (!merge_target_ok(dirs, out, force, error)) {
        sweep_meta_clear(&m0);
        return FALSE;
    }
    g_autoptr(GPtrArray) all = merge_rows(dirs, m0.npoints, TRUE, error);
    g_autoptr(GPtrArray) times = all ? merge_rows(dirs, m0.npoints, FALSE, error) : NULL;
    gboolean ok = all && times;
    int lock = -1;
    if (ok) {
        *missing = m0.npoints - all->len;
        if (g_mkdir_with_parents(out, 0777) != 0) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", out, g_strerror(errno));
            ok = FALSE;
        }
    }
    ok = ok && sweep_out_lock(out, &lock, error);
    m0.shard = m0.nshards = 1;
    ok = ok && sweep_meta_write(out, &m0, error) && sweep_results_write(out, all, error) &&
         sweep_host_times_write(out, times, error);
    sweep_out_unlock(lock);
    if (ok && meta)
        *meta = m0;
    else
        sweep_meta_clear(&m0);
    return ok;
}

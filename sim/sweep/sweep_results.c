/* Sweep results on disk: DIR/results.jsonl (one JSON object per finished point, appended and
 * flushed as points finish), DIR/results.csv (rewritten from the rows, sorted by point) and
 * DIR/sweep.json (which sweep the rows belong to).  Rows are kept as the text that was written,
 * so sorting, resuming and merging never change a byte of a row. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"
#include "sim/base/output_file.h"
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
    return sweep_json_text(root);
}

gboolean sweep_append_line(FILE *f, const char *path, const char *line, GError **error)
{
    if (fputs(line, f) < 0 || fputc('\n', f) < 0 || fflush(f) != 0 || fsync(fileno(f)) != 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

/* The two files of rows: results.jsonl (sweep_row_json) and host-times.jsonl. */
typedef enum { ROW_RESULT, ROW_HOST_TIME } RowKind;

/* The row's axes as a point key ("configs=teaching;locks=tas"), or NULL when a value is no text. */
static char *axes_key(JsonObject *axes)
{
    GString *k = g_string_new(NULL);
    g_autoptr(GList) names = json_object_get_members(axes);
    for (GList *l = names; l; l = l->next) {
        const char *v = sweep_json_string(axes, l->data);
        if (!v) {
            g_string_free(k, TRUE);
            return NULL;
        }
        g_string_append_printf(k, "%s%s=%s", k->len ? ";" : "", (const char *)l->data, v);
    }
    return g_string_free(k, FALSE);
}

/* Every member a row of `kind` has, as qsim writes it; line `n` of `path` is `line`. */
static gboolean row_check(JsonObject *o, RowKind kind, const char *line, const char *path, guint n, GError **error)
{
#define BAD_ROW(member, ...) sweep_json_bad(error, line, path, n, member, __VA_ARGS__)
    gint64 p;
    if (!sweep_json_int(o, "point", &p) || p < 0 || p >= SWEEP_MAX_POINTS)
        return BAD_ROW("point", "expected a point index, 0 to %u", SWEEP_MAX_POINTS - 1);
    const char *key = sweep_json_string(o, "key");
    if (!key || !*key)
        return BAD_ROW("key", "expected the point's key (a text such as configs=teaching;locks=tas)");
    if (kind == ROW_HOST_TIME) {
        JsonNode *hs = json_object_get_member(o, "host_seconds");
        GType t = hs && JSON_NODE_HOLDS_VALUE(hs) ? json_node_get_value_type(hs) : G_TYPE_INVALID;
        double v = t == G_TYPE_INT64 || t == G_TYPE_DOUBLE ? json_node_get_double(hs) : -1;
        if (!(v >= 0 && isfinite(v)))
            return BAD_ROW("host_seconds", "expected the point's host seconds (a number, 0 or more)");
        return TRUE;
    }
    JsonNode *an = json_object_get_member(o, "axes");
    g_autofree char *spelt = an && JSON_NODE_HOLDS_OBJECT(an) ? axes_key(json_node_get_object(an)) : NULL;
    if (!spelt)
        return BAD_ROW("axes", "expected the point's value of each axis (an object of texts)");
    if (strcmp(spelt, key)) {
        g_autofree char *k = echo_clip(key), *a = echo_clip(spelt);
        return BAD_ROW("key", "`%s` is not the point the row's axes name (`%s`)", k, a);
    }
    const char *status = sweep_json_string(o, "status");
    gboolean ok = !g_strcmp0(status, "ok");
    if (!ok && g_strcmp0(status, "failed"))
        return BAD_ROW("status", "expected \"ok\" or \"failed\"");
    JsonNode *fn = json_object_get_member(o, "failure");
    if (ok ? !fn || !JSON_NODE_HOLDS_NULL(fn) : !sweep_json_string(o, "failure"))
        return BAD_ROW("failure", ok ? "expected null (the point ran)" : "expected why the point failed (a text)");
    JsonNode *rn = json_object_get_member(o, "report");
    if (!rn || !(JSON_NODE_HOLDS_OBJECT(rn) || (!ok && JSON_NODE_HOLDS_NULL(rn))))
        return BAD_ROW("report", "expected the run's report (an object%s)", ok ? "" : ", or null");
    return TRUE;
#undef BAD_ROW
}

/* Line `n` of `path` (`len` bytes at `text`): a row, or NULL with an error, or NULL with none
 * (*syntax set) when it is no JSON at all (a line cut short, if it is the last). */
static SweepRow *row_parse(const char *text, gsize len, RowKind kind, const char *path, guint n, gboolean *syntax,
                           GError **error)
{
    *syntax = FALSE;
    if (!sweep_json_check(text, len, path, n, error))
        return NULL;
    g_autofree char *line = g_strndup(text, len);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GError) local = NULL;
    if (!json_parser_load_from_data(parser, line, (gssize)len, &local)) {
        g_autofree char *msg = sweep_json_syntax_message(local, path, n);
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s (not a results row)", msg);
        *syntax = TRUE;
        return NULL;
    }
    JsonNode *root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s:%u:1: not a results row (a JSON object)", path,
                    n);
        return NULL;
    }
    JsonObject *o = json_node_get_object(root);
    if (!row_check(o, kind, line, path, n, error))
        return NULL;
    SweepRow *r = g_new0(SweepRow, 1);
    r->point = (guint)json_object_get_int_member(o, "point");
    r->lineno = n;
    r->key = g_strdup(json_object_get_string_member(o, "key"));
    r->line = g_steal_pointer(&line);
    r->ok = kind == ROW_RESULT && !g_strcmp0(json_object_get_string_member(o, "status"), "ok");
    return r;
}

static GPtrArray *rows_read(const char *path, RowKind kind, gboolean *torn, GError **error)
{
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(sweep_row_free);
    if (torn)
        *torn = FALSE;
    g_autofree char *text = NULL;
    gsize len = 0;
    g_autoptr(GError) local = NULL;
    /* the one reader's guards: a regular file, the size limit, no NUL, each line's nesting */
    if (!input_file_read(path, INPUT_SWEEP_ROWS, &text, &len, &local)) {
        if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            return g_steal_pointer(&rows);
        g_set_error_literal(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, local->message);
        return NULL;
    }
    const char *end = text + len;
    guint n = 0;
    for (const char *p = text; p < end; n++) {
        const char *nl = memchr(p, '\n', (gsize)(end - p));
        gsize linelen = (gsize)((nl ? nl : end) - p);
        const char *line = p;
        p = nl ? nl + 1 : end;
        if (!linelen)
            continue;
        gboolean syntax;
        g_autoptr(GError) bad = NULL;
        SweepRow *r = row_parse(line, linelen, kind, path, n + 1, &syntax, &bad);
        if (r) {
            g_ptr_array_add(rows, r);
            continue;
        }
        /* Only the last line may be cut short (a kill while writing, before its newline);
         * anything else is damage we must not paper over. */
        if (syntax && !nl) {
            if (torn)
                *torn = TRUE;
            continue;
        }
        g_propagate_error(error, g_steal_pointer(&bad));
        return NULL;
    }
    return g_steal_pointer(&rows);
}

GPtrArray *sweep_rows_read(const char *path, gboolean *torn, GError **error)
{
    return rows_read(path, ROW_RESULT, torn, error);
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

gboolean sweep_write_atomic(const char *dir, const char *name, const char *text, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) local = NULL;
    if (output_file_replace(path, text, strlen(text), &local))
        return TRUE;
    g_set_error_literal(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, local->message);
    return FALSE;
}

gboolean sweep_results_write(const char *dir, GPtrArray *rows, GError **error)
{
    g_ptr_array_sort(rows, row_cmp);
    GString *jl = g_string_new(NULL);
    for (guint i = 0; i < rows->len; i++)
        g_string_append_printf(jl, "%s\n", ((SweepRow *)rows->pdata[i])->line);
    gboolean ok = sweep_write_atomic(dir, "results.jsonl", jl->str, error);
    g_string_free(jl, TRUE);
    if (!ok)
        return FALSE;
    g_autofree char *csv = csv_text(rows);
    return sweep_write_atomic(dir, "results.csv", csv, error);
}

/* ---- host times ---- */

char *sweep_host_time_json(const Sweep *s, guint p, double seconds)
{
    /* Microseconds are all the clock gives: the number is written with six decimals, not as
     * the double's seventeen digits. */
    g_autofree char *key = sweep_point_key(s, p);
    g_autoptr(JsonNode) kn = json_node_init_string(json_node_alloc(), key);
    g_autofree char *qkey = sweep_json_text(kn);
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
    return rows_read(path, ROW_HOST_TIME, NULL, error);
}

gboolean sweep_host_times_write(const char *dir, GPtrArray *rows, GError **error)
{
    g_ptr_array_sort(rows, row_cmp);
    GString *jl = g_string_new(NULL);
    for (guint i = 0; i < rows->len; i++)
        g_string_append_printf(jl, "%s\n", ((SweepRow *)rows->pdata[i])->line);
    gboolean ok = sweep_write_atomic(dir, SWEEP_HOST_TIMES, jl->str, error);
    g_string_free(jl, TRUE);
    return ok;
}

/* ---- merging shards ---- */

gboolean sweep_row_key_check(const Sweep *s, const SweepRow *r, const char *path, GError **error)
{
    g_autofree char *key = sweep_point_key(s, r->point);
    if (!strcmp(key, r->key))
        return TRUE;
    g_autofree char *k = echo_clip(r->key), *want = echo_clip(key);
    return sweep_json_bad(error, r->line, path, r->lineno, "key", "`%s` is not point %u, which is `%s`", k, r->point,
                          want);
}

/* Rows of every folder's results (or host times), one per point (the first folder's wins: runs
 * are deterministic), each checked against the point of the sweep `layout` it names. */
static GPtrArray *merge_rows(const char *const *dirs, const Sweep *layout, gboolean results, GError **error)
{
    g_autoptr(GHashTable) by_point = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(sweep_row_free);
    for (guint d = 0; dirs[d]; d++) {
        g_autofree char *path = g_build_filename(dirs[d], results ? "results.jsonl" : SWEEP_HOST_TIMES, NULL);
        gboolean torn = FALSE;
        g_autoptr(GPtrArray) rows = rows_read(path, results ? ROW_RESULT : ROW_HOST_TIME, &torn, error);
        if (!rows)
            return NULL;
        if (torn && results)
            g_printerr("qsim sweep: %s: dropped a last line cut short (an interrupted run)\n", path);
        for (guint i = 0; i < rows->len; i++) {
            SweepRow *r = rows->pdata[i];
            if (r->point >= layout->npoints) {
                sweep_json_bad(error, r->line, path, r->lineno, "point", "%u is outside the sweep's %u points",
                               r->point, layout->npoints);
                return NULL;
            }
            if (!sweep_row_key_check(layout, r, path, error))
                return NULL;
            if (g_hash_table_contains(by_point, GUINT_TO_POINTER(r->point + 1)))
                continue;   /* the same point run twice (overlapping shards): runs are deterministic */
            rows->pdata[i] = NULL;
            g_hash_table_add(by_point, GUINT_TO_POINTER(r->point + 1));
            g_ptr_array_add(all, r);
        }
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
    g_autoptr(GPtrArray) all = merge_rows(dirs, m0.layout, TRUE, error);
    g_autoptr(GPtrArray) times = all ? merge_rows(dirs, m0.layout, FALSE, error) : NULL;
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

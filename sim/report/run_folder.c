/* Run folders (see run_folder.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/report/run_folder.h"
#include "sim/report/provenance.h"
#include "sim/base/report.h"

#define RUN_FOLDER_VERSION 1

void run_folder_clear(RunFolder *f)
{
    g_clear_pointer(&f->argv, g_strfreev);
    g_clear_pointer(&f->format, g_free);
    g_clear_pointer(&f->report, g_free);
    g_clear_pointer(&f->config_yaml, g_free);
    g_clear_pointer(&f->lock_text, g_free);
    g_clear_pointer(&f->provenance, json_object_unref);
}

const char *run_folder_report_name(const char *format)
{
    return !g_strcmp0(format, "json") ? "report.json" : !g_strcmp0(format, "csv") ? "report.csv" : "report.txt";
}

static gboolean put(const char *dir, const char *name, const char *text, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    return g_file_set_contents(path, text, -1, error);
}

static char *record_json(const RunFolder *f)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_int(b, "qsim_run_folder", RUN_FOLDER_VERSION);
    json_builder_set_member_name(b, "argv");
    json_builder_begin_array(b);
    for (guint i = 0; f->argv[i]; i++)
        json_builder_add_string_value(b, f->argv[i]);
    json_builder_end_array(b);
    report_add_string(b, "format", f->format);
    report_add_string(b, "report", run_folder_report_name(f->format));
    json_builder_set_member_name(b, "provenance");
    JsonNode *p = json_node_new(JSON_NODE_OBJECT);
    json_node_set_object(p, f->provenance);
    json_builder_add_value(b, p);
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    return report_to_json(root);
}

gboolean run_folder_check(const char *dir, GError **error)
{
    g_autofree char *record = g_build_filename(dir, "run.json", NULL);
    if (g_file_test(record, G_FILE_TEST_EXISTS)) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                    "--out %s: holds a run already (run.json); give a new folder", dir);
        return FALSE;
    }
    g_auto(GStrv) parts = g_strsplit(dir, G_DIR_SEPARATOR_S, -1);
    for (guint i = 0; parts[i]; i++)
        if (strlen(parts[i]) > 255) {
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
                        "--out %s: a name in the path is longer than 255 bytes", dir);
            return FALSE;
        }
    /* The nearest folder that exists must take a new one. */
    g_autofree char *up = g_canonicalize_filename(dir, NULL);
    while (!g_file_test(up, G_FILE_TEST_EXISTS)) {
        char *parent = g_path_get_dirname(up);
        g_free(up);
        up = parent;
    }
    if (!g_file_test(up, G_FILE_TEST_IS_DIR) || g_access(up, W_OK) != 0) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_ACCES, "--out %s: %s is %s", dir, up,
                    g_file_test(up, G_FILE_TEST_IS_DIR) ? "a folder this user cannot write" : "not a folder");
        return FALSE;
    }
    return TRUE;
}

gboolean run_folder_write(const char *dir, const RunFolder *f, GError **error)
{
    if (!run_folder_check(dir, error))
        return FALSE;
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "--out %s: %s", dir, g_strerror(e));
        return FALSE;
    }
    g_autofree char *json = record_json(f);
    g_autofree char *command = g_strdup_printf("%s\n", json_object_get_string_member_with_default(
                                                          f->provenance, "command", "qsim run"));
    /* run.json last: a folder without it is no run folder, so a half-written one is never replayed */
    return put(dir, run_folder_report_name(f->format), f->report, error) &&
           put(dir, "config.yaml", f->config_yaml, error) && put(dir, "lock.qs", f->lock_text, error) &&
           put(dir, "command", command, error) && put(dir, "run.json", json, error);
}

static gboolean bad(GError **error, const char *dir, const char *file, const char *what)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s/%s: %s", dir, file, what);
    return FALSE;
}

static gboolean get(const char *dir, const char *name, char **text, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) e = NULL;
    if (g_file_get_contents(path, text, NULL, &e))
        return TRUE;
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "--replay %s: %s", dir, e->message);
    return FALSE;
}

/* The input's text hashes to what the provenance recorded for it. */
static gboolean unedited(const char *dir, const char *file, const char *text, JsonObject *prov, const char *member,
                         GError **error)
{
    JsonObject *o = json_object_has_member(prov, member) ? json_object_get_object_member(prov, member) : NULL;
    const char *want = o ? json_object_get_string_member_with_default(o, "sha256", NULL) : NULL;
    if (!want)
        return bad(error, dir, "run.json", "provenance has no sha256 for the config or lock");
    g_autofree char *got = provenance_sha256(text);
    if (strcmp(got, want))
        return bad(error, dir, file, "changed since the run wrote it (its SHA-256 is not the one run.json records)");
    return TRUE;
}

gboolean run_folder_read(const char *dir, RunFolder *f, GError **error)
{
    memset(f, 0, sizeof *f);
    g_autofree char *json = NULL;
    if (!get(dir, "run.json", &json, error))
        return FALSE;
    g_autoptr(JsonParser) p = json_parser_new();
    JsonNode *root = json_parser_load_from_data(p, json, -1, NULL) ? json_parser_get_root(p) : NULL;
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    JsonNode *argv = o ? json_object_get_member(o, "argv") : NULL;
    JsonNode *prov = o ? json_object_get_member(o, "provenance") : NULL;
    if (!o || json_object_get_int_member_with_default(o, "qsim_run_folder", 0) != RUN_FOLDER_VERSION ||
        !argv || !JSON_NODE_HOLDS_ARRAY(argv) || !prov || !JSON_NODE_HOLDS_OBJECT(prov))
        return bad(error, dir, "run.json", "not a run folder's record (qsim run --out writes one)");
    JsonArray *a = json_node_get_array(argv);
    f->argv = g_new0(char *, json_array_get_length(a) + 1);
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonNode *w = json_array_get_element(a, i);
        if (!JSON_NODE_HOLDS_VALUE(w) || json_node_get_value_type(w) != G_TYPE_STRING) {
            run_folder_clear(f);
            return bad(error, dir, "run.json", "argv holds something other than words");
        }
        f->argv[i] = g_strdup(json_node_get_string(w));
    }
    f->format = g_strdup(json_object_get_string_member_with_default(o, "format", "text"));
    f->provenance = json_object_ref(json_node_get_object(prov));
    gboolean ok = get(dir, run_folder_report_name(f->format), &f->report, error) &&
                  get(dir, "config.yaml", &f->config_yaml, error) && get(dir, "lock.qs", &f->lock_text, error) &&
                  unedited(dir, "config.yaml", f->config_yaml, f->provenance, "config", error) &&
                  unedited(dir, "lock.qs", f->lock_text, f->provenance, "lock", error);
    if (!ok)
        run_folder_clear(f);
    return ok;
}

/* Run folders (see run_folder.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/report/run_folder.h"
#include "sim/report/provenance.h"
#include "sim/base/report.h"
#include "sim/base/input_file.h"
#include "sim/base/output_file.h"

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

/* One file of the folder, by the one writer: made new, or (force) replacing one of its name. */
static gboolean put(const char *dir, const char *name, const char *text, gboolean force, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    if (output_file_write(path, force ? OUTPUT_TRUNCATE : OUTPUT_NEW, text, strlen(text), error))
        return TRUE;
    g_prefix_error(error, "--out ");
    return FALSE;
}

/* A member of `o` of JSON type string, or NULL (absent, or of another type). */
static const char *string_member(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n)
                                                                                           : NULL;
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

/* The first name in folder DIR, or NULL when it is empty (or not a folder). */
static char *first_entry(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return NULL;
    const char *name = g_dir_read_name(d);
    char *first = g_strdup(name);
    g_dir_close(d);
    return first;
}

gboolean run_folder_check(const char *dir, gboolean force, GError **error)
{
    if (g_file_test(dir, G_FILE_TEST_EXISTS) && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR, "--out %s: not a folder (a run is kept in a folder)",
                    dir);
        return FALSE;
    }
    /* A folder with files in it may hold the user's own config.yaml or a run kept before:
     * nothing there is replaced unless asked. */
    g_autofree char *entry = force ? NULL : first_entry(dir);
    if (entry) {
        g_autofree char *record = g_build_filename(dir, "run.json", NULL);
        if (g_file_test(record, G_FILE_TEST_EXISTS))
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                        "--out %s: holds a run already (run.json); give a new folder, or add --force to replace it",
                        dir);
        else
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                        "--out %s: the folder is not empty (it holds %s); keep the run in a new or empty folder, or "
                        "add --force to replace the files it writes", dir, entry);
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

gboolean run_folder_write(const char *dir, const RunFolder *f, gboolean force, GError **error)
{
    if (!run_folder_check(dir, force, error))
        return FALSE;
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "--out %s: %s", dir, g_strerror(e));
        return FALSE;
    }
    g_autofree char *json = record_json(f);
    const char *typed = string_member(f->provenance, "command");
    g_autofree char *command = g_strdup_printf("%s\n", typed ? typed : "qsim run");
    /* run.json last: a folder without it is no run folder, so a half-written one is never
     * replayed (replacing a run, the old run.json goes first for the same reason) */
    g_autofree char *record = g_build_filename(dir, "run.json", NULL);
    if (force)
        g_unlink(record);
    return put(dir, run_folder_report_name(f->format), f->report, force, error) &&
           put(dir, "config.yaml", f->config_yaml, force, error) &&
           put(dir, "lock.qs", f->lock_text, force, error) && put(dir, "command", command, force, error) &&
           put(dir, "run.json", json, force, error);
}

static gboolean bad(GError **error, const char *dir, const char *file, const char *what)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s/%s: %s", dir, file, what);
    return FALSE;
}

/* One file of the folder, by the one reader (a regular file within its kind's limits, no NUL). */
static gboolean get(const char *dir, const char *name, InputKind kind, char **text, gsize *len, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) e = NULL;
    if (input_file_read(path, kind, text, len, &e))
        return TRUE;
    g_set_error(error, G_FILE_ERROR, e->code, "--replay %s: %s", dir, e->message);
    return FALSE;
}

/* The input's text hashes to what the provenance recorded for it. */
static gboolean unedited(const char *dir, const char *file, const char *text, JsonObject *prov, const char *member,
                         GError **error)
{
    JsonNode *n = json_object_get_member(prov, member);
    const char *want = n && JSON_NODE_HOLDS_OBJECT(n) ? string_member(json_node_get_object(n), "sha256") : NULL;
    if (!want)
        return bad(error, dir, "run.json", "provenance has no sha256 for the config or lock");
    g_autofree char *got = provenance_sha256(text);
    if (strcmp(got, want))
        return bad(error, dir, file, "changed since the run wrote it (its SHA-256 is not the one run.json records)");
    return TRUE;
}

/* run.json's members, each of the type and value qsim writes: what the folder says beyond them
 * is not trusted to mean anything. */
static gboolean record_read(const char *dir, JsonObject *o, RunFolder *f, GError **error)
{
    JsonNode *version = json_object_get_member(o, "qsim_run_folder");
    if (!version || !JSON_NODE_HOLDS_VALUE(version) || json_node_get_value_type(version) != G_TYPE_INT64)
        return bad(error, dir, "run.json", "not a run folder's record (qsim run --out writes one: "
                   "\"qsim_run_folder\": " G_STRINGIFY(RUN_FOLDER_VERSION) ")");
    /* A folder another qsim kept: its version is named, so the user knows which qsim replays it. */
    if (json_node_get_int(version) != RUN_FOLDER_VERSION) {
        g_autofree char *what = g_strdup_printf("a run folder of format version %" G_GINT64_FORMAT
                                                ", and this qsim reads version %d: replay it with the qsim "
                                                "that kept it (its provenance names the version and commit)",
                                                json_node_get_int(version), RUN_FOLDER_VERSION);
        return bad(error, dir, "run.json", what);
    }
    JsonNode *argv = json_object_get_member(o, "argv");
    if (!argv || !JSON_NODE_HOLDS_ARRAY(argv) || json_array_get_length(json_node_get_array(argv)) == 0)
        return bad(error, dir, "run.json", "argv: expected the command's words, from \"run\"");
    JsonArray *a = json_node_get_array(argv);
    f->argv = g_new0(char *, json_array_get_length(a) + 1);
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonNode *w = json_array_get_element(a, i);
        if (!JSON_NODE_HOLDS_VALUE(w) || json_node_get_value_type(w) != G_TYPE_STRING)
            return bad(error, dir, "run.json", "argv holds something other than words");
        f->argv[i] = g_strdup(json_node_get_string(w));
    }
    if (strcmp(f->argv[0], "run"))
        return bad(error, dir, "run.json", "argv: expected the command's words, from \"run\"");
    const char *format = string_member(o, "format");
    if (!format || (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "csv")))
        return bad(error, dir, "run.json", "format: expected \"text\", \"json\" or \"csv\"");
    f->format = g_strdup(format);
    const char *report = string_member(o, "report");
    if (!report || strcmp(report, run_folder_report_name(format))) {
        g_autofree char *what = g_strdup_printf("report: expected \"%s\" (the %s report's file)",
                                                run_folder_report_name(format), format);
        return bad(error, dir, "run.json", what);
    }
    JsonNode *prov = json_object_get_member(o, "provenance");
    if (!prov || !JSON_NODE_HOLDS_OBJECT(prov))
        return bad(error, dir, "run.json", "provenance: expected the report's provenance (an object)");
    f->provenance = json_object_ref(json_node_get_object(prov));
    return TRUE;
}

gboolean run_folder_read(const char *dir, RunFolder *f, GError **error)
{
    memset(f, 0, sizeof *f);
    g_autofree char *json = NULL;
    gsize json_len = 0;
    if (!get(dir, "run.json", INPUT_RUN_RECORD, &json, &json_len, error))
        return FALSE;
    g_autoptr(JsonParser) p = json_parser_new();
    JsonNode *root = json_parser_load_from_data(p, json, (gssize)json_len, NULL) ? json_parser_get_root(p) : NULL;
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return bad(error, dir, "run.json", "not a run folder's record (qsim run --out writes one)");
    gsize config_len = 0, lock_len = 0;
    gboolean ok = record_read(dir, json_node_get_object(root), f, error) &&
                  get(dir, run_folder_report_name(f->format), INPUT_RUN_REPORT, &f->report, &f->report_len, error) &&
                  get(dir, "config.yaml", INPUT_RUN_CONFIG, &f->config_yaml, &config_len, error) &&
                  get(dir, "lock.qs", INPUT_RUN_LOCK, &f->lock_text, &lock_len, error) &&
                  unedited(dir, "config.yaml", f->config_yaml, f->provenance, "config", error) &&
                  unedited(dir, "lock.qs", f->lock_text, f->provenance, "lock", error);
    if (!ok)
        run_folder_clear(f);
    return ok;
}

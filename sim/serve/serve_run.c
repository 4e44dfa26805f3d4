/* A run for the live page (see serve_run.h). */
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "sim/serve/serve_run.h"
#include "sim/base/report.h"

/* The child's message without its program's prefix and trailing new line. */
static char *message(const char *err)
{
    g_autofree char *m = g_strstrip(g_strdup(err ? err : ""));
    const char *p = m;
    if (g_str_has_prefix(p, "qsim run: "))
        p += strlen("qsim run: ");
    else if (g_str_has_prefix(p, "qsim: "))
        p += strlen("qsim: ");
    return g_strdup(*p ? p : "qsim run gave no reason");
}

static void remove_folder(const char *dir, const char *page)
{
    g_unlink(page);
    g_rmdir(dir);
}

ServeRunOutcome serve_run(const ServeRequest *r, const char *qsim, char **answer)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp("qsim-serve-XXXXXX", &error);
    if (!dir) {
        *answer = g_strdup_printf("no temporary folder for the page: %s", error->message);
        return SERVE_RUN_FAILED;
    }
    g_autofree char *page = g_build_filename(dir, "page.html", NULL);
    g_auto(GStrv) args = serve_request_argv(r, page);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)qsim);
    g_ptr_array_add(argv, "run");
    for (char **a = args; *a; a++)
        g_ptr_array_add(argv, *a);
    g_ptr_array_add(argv, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int status = 0;
    /* in the page's folder: nothing the run writes lands anywhere else */
    if (!g_spawn_sync(dir, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error)) {
        remove_folder(dir, page);
        *answer = g_strdup_printf("qsim run could not start: %s", error->message);
        return SERVE_RUN_FAILED;
    }
    gboolean exited = WIFEXITED(status);
    int rc = exited ? WEXITSTATUS(status) : -1;
    if (rc == 2) {
        remove_folder(dir, page);
        *answer = message(err);
        return SERVE_RUN_BAD;
    }
    g_autofree char *html = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    if ((rc != 0 && rc != 1) || !g_file_get_contents(page, &html, NULL, NULL) ||
        !json_parser_load_from_data(parser, out, -1, NULL)) {
        remove_folder(dir, page);
        g_autofree char *why = message(err);
        *answer = exited ? g_strdup_printf("qsim run failed (exit %d): %s", rc, why)
                         : g_strdup_printf("the model stopped (signal %d): %s", WIFSIGNALED(status) ? WTERMSIG(status) : 0,
                                           why);
        return SERVE_RUN_FAILED;
    }
    remove_folder(dir, page);
    JsonNode *report = json_parser_get_root(parser);
    JsonObject *ro = JSON_NODE_HOLDS_OBJECT(report) ? json_node_get_object(report) : NULL;
    g_autofree char *command = serve_request_command(r);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "command", command);
    json_builder_set_member_name(b, "report");
    json_builder_add_value(b, json_node_copy(report));
    json_builder_set_member_name(b, "invariant");
    if (ro && json_object_has_member(ro, "invariant"))
        json_builder_add_string_value(b, json_object_get_string_member(ro, "invariant"));
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "fault");
    json_builder_add_boolean_value(b, r->fault != NULL);
    report_add_string(b, "page", html);
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    *answer = json_to_string(root, FALSE);
    return SERVE_RUN_OK;
}

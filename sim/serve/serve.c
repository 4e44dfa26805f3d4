/* The live page's HTTP server (see serve.h), on libsoup 3.  Built without libsoup, qsim keeps
 * everything else and serve_start says which package to install. */
#include <string.h>
#include <json-glib/json-glib.h>
#include "sim/serve/serve.h"
#include "sim/serve/serve_run.h"
#include "coherence/protocol_fault.h"
#include "sim/base/echo.h"

#ifdef QSIM_HAVE_SOUP
#include <libsoup/soup.h>

static const char serve_page[] =
#include "serve_page_html.h"
    ;

struct Server {
    SoupServer *soup;
    char *fault;
    char *qsim;
    guint port;
};

gboolean serve_available(void) { return TRUE; }

static void answer(SoupServerMessage *msg, guint status, const char *type, const char *body)
{
    soup_server_message_set_status(msg, status, NULL);
    SoupMessageHeaders *h = soup_server_message_get_response_headers(msg);
    /* the page and its answers are made for this server alone: nothing is cached or framed
     * by another site */
    soup_message_headers_replace(h, "Cache-Control", "no-store");
    soup_message_headers_replace(h, "X-Content-Type-Options", "nosniff");
    soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, body, strlen(body));
}

static void say(SoupServerMessage *msg, guint status, const char *text)
{
    g_autofree char *line = g_strconcat(text, "\n", NULL);
    answer(msg, status, "text/plain; charset=utf-8", line);
}

/* GET and HEAD only: the page changes nothing on the server. */
static gboolean method_ok(SoupServerMessage *msg)
{
    const char *m = soup_server_message_get_method(msg);
    if (!strcmp(m, "GET") || !strcmp(m, "HEAD"))
        return TRUE;
    g_autofree char *t = g_strdup_printf("%s: the live page's server takes GET only", m);
    soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Allow", "GET, HEAD");
    say(msg, 405, t);
    return FALSE;
}

static void on_page(SoupServer *soup G_GNUC_UNUSED, SoupServerMessage *msg, const char *path,
                    GHashTable *query G_GNUC_UNUSED, gpointer data G_GNUC_UNUSED)
{
    if (!method_ok(msg))
        return;
    if (strcmp(path, "/")) {
        g_autofree char *said = echo_clip(path);
        g_autofree char *t = g_strdup_printf("%s: no such page (the live page is /, its runs /run)", said);
        say(msg, 404, t);
        return;
    }
    answer(msg, 200, "text/html; charset=utf-8", serve_page);
}

static void on_about(SoupServer *soup G_GNUC_UNUSED, SoupServerMessage *msg, const char *path G_GNUC_UNUSED,
                     GHashTable *query G_GNUC_UNUSED, gpointer data)
{
    Server *s = data;
    if (!method_ok(msg))
        return;
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "configs");
    json_builder_begin_array(b);
    for (const char *const *c = serve_configs; *c; c++)
        json_builder_add_string_value(b, *c);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "scenarios");
    json_builder_begin_array(b);
    for (const ServeScenario *sc = serve_scenarios; sc->name; sc++) {
        json_builder_begin_array(b);
        json_builder_add_string_value(b, sc->name);
        json_builder_add_string_value(b, sc->label);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "fault");
    json_builder_add_boolean_value(b, s->fault != NULL);
    json_builder_set_member_name(b, "cores");
    json_builder_begin_array(b);
    json_builder_add_int_value(b, SERVE_CORES_MIN);
    json_builder_add_int_value(b, SERVE_CORES_MAX);
    json_builder_end_array(b);
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    g_autofree char *json = json_to_string(root, FALSE);
    answer(msg, 200, "application/json", json);
}

static void on_run(SoupServer *soup G_GNUC_UNUSED, SoupServerMessage *msg, const char *path G_GNUC_UNUSED,
                   GHashTable *query, gpointer data)
{
    Server *s = data;
    if (!method_ok(msg))
        return;
    g_autoptr(GError) error = NULL;
    g_autoptr(ServeRequest) r = serve_request_parse(query, s->fault, &error);
    if (!r) {
        say(msg, 400, error->message);
        return;
    }
    g_autofree char *out = NULL;
    switch (serve_run(r, s->qsim, &out)) {
    case SERVE_RUN_OK:
        answer(msg, 200, "application/json", out);
        break;
    case SERVE_RUN_BAD:
        say(msg, 400, out);
        break;
    case SERVE_RUN_FAILED:
        say(msg, 500, out);
        break;
    }
}

Server *serve_start(const ServeOptions *o, GError **error)
{
    /* a fault that no table has is refused now, not at the first click */
    if (o->fault && !coh_fault_find(o->fault, FALSE) && !coh_fault_find(o->fault, TRUE)) {
        g_autofree char *list = g_strjoinv(", ", (char **)coh_fault_names());
        g_autofree char *said = echo_clip(o->fault);
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--fault %s: no such fault (the faults: %s)",
                    said, list);
        return NULL;
    }
    Server *s = g_new0(Server, 1);
    s->fault = g_strdup(o->fault);
    s->qsim = g_strdup(o->qsim);
    s->soup = soup_server_new("server-header", "qsim-serve ", NULL);
    soup_server_add_handler(s->soup, NULL, on_page, s, NULL);
    soup_server_add_handler(s->soup, "/run", on_run, s, NULL);
    soup_server_add_handler(s->soup, "/about", on_about, s, NULL);
    /* the loopback address only: the page is for this machine's browser */
    if (!soup_server_listen_local(s->soup, o->port, SOUP_SERVER_LISTEN_IPV4_ONLY, error)) {
        g_prefix_error(error, "port %u: ", o->port);
        serve_stop(s);
        return NULL;
    }
    GSList *uris = soup_server_get_uris(s->soup);
    s->port = uris ? (guint)g_uri_get_port(uris->data) : o->port;
    g_slist_free_full(uris, (GDestroyNotify)g_uri_unref);
    return s;
}

guint serve_port(const Server *s) { return s->port; }

void serve_stop(Server *s)
{
    if (!s)
        return;
    g_object_unref(s->soup);
    g_free(s->fault);
    g_free(s->qsim);
    g_free(s);
}

#else /* built without libsoup */

struct Server {
    guint port;
};

gboolean serve_available(void) { return FALSE; }

Server *serve_start(const ServeOptions *o G_GNUC_UNUSED, GError **error)
{
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                "this qsim was built without libsoup 3, which the live page's server needs: install libsoup-3.0-dev "
                "(Debian: sudo apt-get install libsoup-3.0-dev) and rebuild (make)");
    return NULL;
}

guint serve_port(const Server *s) { return s->port; }
void serve_stop(Server *s) { g_free(s); }

#endif

/* The DevTools protocol client of the tests (see cdp.h).  Chromium prints where its DevTools
 * listen (ws://127.0.0.1:PORT/devtools/browser/...) on stderr; the page's own endpoint is read
 * from http://127.0.0.1:PORT/json/list, and each command is a JSON message with an id whose
 * answer carries the same id. */
#ifdef QSIM_HAVE_SOUP
#include <check.h>
#include <string.h>
#include <libsoup/soup.h>
#include <json-glib/json-glib.h>
#include "tests/cdp.h"
#include "tests/temp_files.h"

/* How long one command may take before the test fails: a bound for a stuck browser, not a
 * measurement. */
#define CDP_WAIT_MS 20000

struct Cdp {
    GSubprocess *proc;
    char *profile;
    SoupSession *session;
    SoupWebsocketConnection *ws;
    GHashTable *replies;       /* id -> JsonNode of the answer */
    gint64 next_id;
    gboolean loaded;           /* Page.loadEventFired seen since the last navigate */
    GError *connect_error;
    gboolean connect_done;
};

static gboolean timed_out(gpointer flag)
{
    *(gboolean *)flag = TRUE;
    return G_SOURCE_REMOVE;
}

/* Runs the main context until *done (or the bound passes: FALSE). */
static gboolean spin_until(gboolean *done)
{
    gboolean late = FALSE;
    guint t = g_timeout_add(CDP_WAIT_MS, timed_out, &late);
    while (!*done && !late)
        g_main_context_iteration(NULL, TRUE);
    if (!late)
        g_source_remove(t);
    return *done;
}

static void on_message(SoupWebsocketConnection *ws G_GNUC_UNUSED, gint type, GBytes *msg, gpointer data)
{
    Cdp *c = data;
    if (type != SOUP_WEBSOCKET_DATA_TEXT)
        return;
    gsize n;
    const char *text = g_bytes_get_data(msg, &n);
    g_autoptr(JsonParser) p = json_parser_new();
    if (!json_parser_load_from_data(p, text, (gssize)n, NULL) || !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p)))
        return;
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    if (json_object_has_member(o, "id"))
        g_hash_table_insert(c->replies, GINT_TO_POINTER((gint)json_object_get_int_member(o, "id")),
                            json_node_copy(json_parser_get_root(p)));
    else if (!g_strcmp0(json_object_get_string_member_with_default(o, "method", ""), "Page.loadEventFired"))
        c->loaded = TRUE;
}

static void on_connected(GObject *src, GAsyncResult *res, gpointer data)
{
    Cdp *c = data;
    c->ws = soup_session_websocket_connect_finish(SOUP_SESSION(src), res, &c->connect_error);
    c->connect_done = TRUE;
}

/* Sends a command (params: a JSON object's text, or NULL) and waits for its answer's result. */
static JsonNode *call(Cdp *c, const char *method, const char *params)
{
    gint id = (gint)++c->next_id;
    g_autofree char *m = g_strdup_printf("{\"id\":%d,\"method\":\"%s\",\"params\":%s}", id, method, params ? params : "{}");
    soup_websocket_connection_send_text(c->ws, m);
    gboolean late = FALSE;
    guint t = g_timeout_add(CDP_WAIT_MS, timed_out, &late);
    while (!g_hash_table_contains(c->replies, GINT_TO_POINTER(id)) && !late)
        g_main_context_iteration(NULL, TRUE);
    ck_assert_msg(!late, "chromium did not answer %s within %d ms", method, CDP_WAIT_MS);
    g_source_remove(t);
    JsonNode *reply = g_hash_table_lookup(c->replies, GINT_TO_POINTER(id));
    JsonObject *o = json_node_get_object(reply);
    if (json_object_has_member(o, "error")) {
        g_autofree char *e = json_to_string(json_object_get_member(o, "error"), FALSE);
        ck_abort_msg("%s: %s", method, e);
    }
    JsonNode *r = json_node_copy(json_object_get_member(o, "result"));
    g_hash_table_remove(c->replies, GINT_TO_POINTER(id));
    return r;
}

static void call_quiet(Cdp *c, const char *method, const char *params)
{
    json_node_unref(call(c, method, params));
}

/* Chromium's line "DevTools listening on ws://..." from its stderr: the port. */
static guint devtools_port(GSubprocess *p, GError **error)
{
    g_autoptr(GDataInputStream) in = g_data_input_stream_new(g_subprocess_get_stderr_pipe(p));
    for (;;) {
        g_autofree char *line = g_data_input_stream_read_line_utf8(in, NULL, NULL, error);
        if (!line) {
            if (error && !*error)
                g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "chromium ended without opening its DevTools");
            return 0;
        }
        const char *w = strstr(line, "DevTools listening on ws://127.0.0.1:");
        if (w)
            return (guint)g_ascii_strtoull(w + strlen("DevTools listening on ws://127.0.0.1:"), NULL, 10);
    }
}

Cdp *cdp_start(const char *chromium, GError **error)
{
    Cdp *c = g_new0(Cdp, 1);
    c->profile = tmpdir();
    c->replies = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)json_node_unref);
    g_autofree char *prof = g_strdup_printf("--user-data-dir=%s", c->profile);
    c->proc = g_subprocess_new(G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, error, chromium,
                               "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                               "--disable-background-networking", "--disable-component-update", "--disable-sync",
                               "--hide-scrollbars", "--remote-debugging-port=0", "--remote-allow-origins=*", prof,
                               "--window-size=1600,1000", "about:blank", NULL);
    guint port = c->proc ? devtools_port(c->proc, error) : 0;
    if (!port) {
        cdp_stop(c);
        return NULL;
    }
    c->session = soup_session_new();
    g_autofree char *list_url = g_strdup_printf("http://127.0.0.1:%u/json/list", port);
    g_autoptr(SoupMessage) lm = soup_message_new("GET", list_url);
    g_autoptr(GBytes) body = soup_session_send_and_read(c->session, lm, NULL, error);
    g_autoptr(JsonParser) p = json_parser_new();
    const char *ws_url = NULL;
    if (body && json_parser_load_from_data(p, g_bytes_get_data(body, NULL), (gssize)g_bytes_get_size(body), error)) {
        JsonArray *targets = json_node_get_array(json_parser_get_root(p));
        for (guint i = 0; i < json_array_get_length(targets) && !ws_url; i++) {
            JsonObject *t = json_array_get_object_element(targets, i);
            if (!g_strcmp0(json_object_get_string_member_with_default(t, "type", ""), "page"))
                ws_url = json_object_get_string_member(t, "webSocketDebuggerUrl");
        }
    }
    if (!ws_url) {
        if (error && !*error)
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "chromium lists no page to drive");
        cdp_stop(c);
        return NULL;
    }
    g_autoptr(SoupMessage) wm = soup_message_new("GET", ws_url);
    soup_session_websocket_connect_async(c->session, wm, NULL, NULL, G_PRIORITY_DEFAULT, NULL, on_connected, c);
    if (!spin_until(&c->connect_done) || !c->ws) {
        g_propagate_prefixed_error(error, c->connect_error ? c->connect_error : g_error_new_literal(G_IO_ERROR,
                                   G_IO_ERROR_TIMED_OUT, "no answer"), "chromium's DevTools: ");
        c->connect_error = NULL;
        cdp_stop(c);
        return NULL;
    }
    /* screenshots are megabytes of base64 */
    soup_websocket_connection_set_max_incoming_payload_size(c->ws, 0);
    g_signal_connect(c->ws, "message", G_CALLBACK(on_message), c);
    call_quiet(c, "Page.enable", NULL);
    call_quiet(c, "Runtime.enable", NULL);
    return c;
}

void cdp_stop(Cdp *c)
{
    if (!c)
        return;
    if (c->ws) {
        g_signal_handlers_disconnect_by_data(c->ws, c);
        g_object_unref(c->ws);
    }
    g_clear_object(&c->session);
    if (c->proc) {
        g_subprocess_force_exit(c->proc);
        g_subprocess_wait(c->proc, NULL, NULL);
        g_object_unref(c->proc);
    }
    g_hash_table_destroy(c->replies);
    rm_rf(c->profile);
    g_free(c->profile);
    g_clear_error(&c->connect_error);
    g_free(c);
}

void cdp_navigate(Cdp *c, const char *url)
{
    c->loaded = FALSE;
    g_autofree char *q = g_strescape(url, NULL);
    g_autofree char *params = g_strdup_printf("{\"url\":\"%s\"}", q);
    call_quiet(c, "Page.navigate", params);
    ck_assert_msg(spin_until(&c->loaded), "%s did not load within %d ms", url, CDP_WAIT_MS);
}

char *cdp_eval(Cdp *c, const char *expr)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "expression");
    json_builder_add_string_value(b, expr);
    json_builder_set_member_name(b, "returnByValue");
    json_builder_add_boolean_value(b, TRUE);
    json_builder_set_member_name(b, "awaitPromise");
    json_builder_add_boolean_value(b, TRUE);
    json_builder_end_object(b);
    g_autoptr(JsonNode) pn = json_builder_get_root(b);
    g_autofree char *params = json_to_string(pn, FALSE);
    g_autoptr(JsonNode) r = call(c, "Runtime.evaluate", params);
    JsonObject *o = json_node_get_object(r);
    if (json_object_has_member(o, "exceptionDetails")) {
        g_autofree char *e = json_to_string(json_object_get_member(o, "exceptionDetails"), FALSE);
        ck_abort_msg("%s: %s", expr, e);
    }
    JsonObject *v = json_object_get_object_member(o, "result");
    return json_object_has_member(v, "value") ? json_to_string(json_object_get_member(v, "value"), FALSE)
                                              : g_strdup("null");
}

char *cdp_eval_string(Cdp *c, const char *expr)
{
    g_autofree char *wrapped = g_strdup_printf("String(%s)", expr);
    g_autofree char *json = cdp_eval(c, wrapped);
    g_autoptr(JsonNode) n = json_from_string(json, NULL);
    return g_strdup(json_node_get_string(n));
}

void cdp_click(Cdp *c, const char *id)
{
    g_autofree char *expr = g_strdup_printf("(() => { const e = document.getElementById('%s'); if (!e) return null; "
                                            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                                            "return [r.left + r.width / 2, r.top + r.height / 2]; })()", id);
    g_autofree char *at = cdp_eval(c, expr);
    g_autoptr(JsonNode) n = json_from_string(at, NULL);
    ck_assert_msg(n && JSON_NODE_HOLDS_ARRAY(n), "no element #%s to click", id);
    double x = json_array_get_double_element(json_node_get_array(n), 0);
    double y = json_array_get_double_element(json_node_get_array(n), 1);
    for (guint i = 0; i < 2; i++) {
        g_autofree char *ev = g_strdup_printf("{\"type\":\"%s\",\"x\":%.1f,\"y\":%.1f,\"button\":\"left\",\"clickCount\":1}",
                                              i ? "mouseReleased" : "mousePressed", x, y);
        call_quiet(c, "Input.dispatchMouseEvent", ev);
    }
}

void cdp_wait(Cdp *c, const char *expr)
{
    g_autofree char *wrapped = g_strdup_printf("!!(%s)", expr);
    gint64 until = g_get_monotonic_time() + CDP_WAIT_MS * 1000;
    while (g_get_monotonic_time() < until) {
        g_autofree char *v = cdp_eval(c, wrapped);
        if (!strcmp(v, "true"))
            return;
        g_usleep(20000);
    }
    ck_abort_msg("still not true after %d ms: %s", CDP_WAIT_MS, expr);
}

void cdp_set_size(Cdp *c, guint width, guint height)
{
    g_autofree char *p = g_strdup_printf("{\"width\":%u,\"height\":%u,\"deviceScaleFactor\":1,\"mobile\":false}", width,
                                         height);
    call_quiet(c, "Emulation.setDeviceMetricsOverride", p);
}

void cdp_screenshot(Cdp *c, const char *path)
{
    g_autoptr(JsonNode) r = call(c, "Page.captureScreenshot", "{\"format\":\"png\"}");
    const char *b64 = json_object_get_string_member(json_node_get_object(r), "data");
    gsize n;
    g_autofree guchar *png = g_base64_decode(b64, &n);
    g_autoptr(GError) error = NULL;
    ck_assert_msg(g_file_set_contents(path, (const char *)png, (gssize)n, &error), "%s", error ? error->message : "");
}
#endif

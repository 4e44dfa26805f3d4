/* `qsim serve`, the live page (sim/serve/serve.h): the server answers a run with the same report
 * `qsim run --script` prints, refuses bad requests with a status and a sentence and goes on
 * serving, plants its --fault in every run, and the page, clicked in headless Chromium through
 * the DevTools protocol (tests/cdp.h), draws the states, values and fired rows that `qsim run
 * --script` reports for the same line.  QSIM_DOCS_IMAGES=DIR (make docs-images) also keeps the
 * page's screenshots at 1024x768 and 1600x1000 in DIR. */
#include <check.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "tests/run_qsim.h"
#include "tests/skip.h"
#include "tests/temp_files.h"
#include "tests/cdp.h"
#ifdef QSIM_HAVE_SOUP
#include <libsoup/soup.h>
#include <gio/gio.h>

/* A running `qsim serve --port 0 [--fault F]` and the port it printed. */
typedef struct {
    GSubprocess *p;
    guint port;
} Served;

static Served serve(const char *fault)
{
    g_autoptr(GError) error = NULL;
    const char *bin = g_getenv("QSIM_BIN");
    Served s = { 0 };
    s.p = g_subprocess_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, bin ? bin : "./qsim", "serve", "--port", "0",
                           fault ? "--fault" : NULL, fault, NULL);
    ck_assert_msg(s.p, "%s", error ? error->message : "");
    g_autoptr(GDataInputStream) in = g_data_input_stream_new(g_subprocess_get_stdout_pipe(s.p));
    g_autofree char *line = g_data_input_stream_read_line_utf8(in, NULL, NULL, &error);
    ck_assert_msg(line && g_str_has_prefix(line, "qsim serve: http://127.0.0.1:"), "first line: %s", line);
    s.port = (guint)g_ascii_strtoull(line + strlen("qsim serve: http://127.0.0.1:"), NULL, 10);
    ck_assert_uint_gt(s.port, 0);
    return s;
}

static void unserve(Served *s)
{
    g_subprocess_send_signal(s->p, SIGTERM);
    g_autoptr(GError) error = NULL;
    ck_assert_msg(g_subprocess_wait(s->p, NULL, &error), "%s", error ? error->message : "");
    /* it stops cleanly on SIGTERM: never crashed on the way */
    ck_assert_msg(g_subprocess_get_if_exited(s->p) && g_subprocess_get_exit_status(s->p) == 0, "qsim serve did not "
                  "exit 0");
    g_clear_object(&s->p);
}

/* GET (or `method`) PATH on the server: the body, and its status in *status. */
static char *http(SoupSession *ss, const char *method, guint port, const char *path, guint *status)
{
    g_autofree char *url = g_strdup_printf("http://127.0.0.1:%u%s", port, path);
    g_autoptr(SoupMessage) m = soup_message_new(method, url);
    ck_assert_msg(m, "not a URL: %s", url);
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) body = soup_session_send_and_read(ss, m, NULL, &error);
    ck_assert_msg(body, "%s: %s", url, error ? error->message : "");
    *status = soup_message_get_status(m);
    return g_strndup(g_bytes_get_data(body, NULL), g_bytes_get_size(body));
}

/* What `qsim run ARGS` prints as JSON, printed again the way json-glib prints (for comparing). */
static char *json_of(const char *text)
{
    g_autoptr(JsonNode) n = json_from_string(text, NULL);
    ck_assert_msg(n, "not JSON: %.300s", text);
    return json_to_string(n, FALSE);
}

/* The "report" member of a /run answer, printed again. */
static char *answer_report(const char *answer, JsonObject **obj, JsonNode **keep)
{
    *keep = json_from_string(answer, NULL);
    ck_assert_msg(*keep, "not JSON: %.300s", answer);
    *obj = json_node_get_object(*keep);
    return json_to_string(json_object_get_member(*obj, "report"), FALSE);
}

START_TEST(test_requests)
{
    Served s = serve(NULL);
    g_autoptr(SoupSession) ss = soup_session_new();
    guint st;
    g_autofree char *page = http(ss, "GET", s.port, "/", &st);
    ck_assert_uint_eq(st, 200);
    ck_assert_msg(strstr(page, "<title>qsim live</title>"), "%.200s", page);
    /* a run is `qsim run --script` of the same line, its report to the byte */
    g_autofree char *ans = http(ss, "GET", s.port, "/run?config=teaching-bus&script=0%3Ald%20x%2C1%3Ast%20x%3D5%2C0%3Ald%20x",
                                &st);
    ck_assert_msg(st == 200, "%u: %s", st, ans);
    JsonObject *o;
    g_autoptr(JsonNode) keep = NULL;
    g_autofree char *got = answer_report(ans, &o, &keep);
    g_autofree char *out = NULL;
    const char *args[] = { "run", "--config", "teaching-bus", "--script", "0:ld x, 1:st x=5, 0:ld x", "--check",
                           "--format", "json", NULL };
    ck_assert_int_eq(run_qsim(args, &out, NULL), 0);
    g_autofree char *want = json_of(out);
    ck_assert_str_eq(got, want);
    ck_assert_str_eq(json_object_get_string_member(o, "command"),
                     "qsim run --config teaching-bus --script '0:ld x, 1:st x=5, 0:ld x'");
    ck_assert(json_object_has_member(o, "invariant") && json_object_get_null_member(o, "invariant"));
    ck_assert_msg(strstr(json_object_get_string_member(o, "page"), "qsim step-through"), "no page");
    /* bad requests: a status and a sentence that says what is wrong */
    static const struct {
        const char *method, *path;
        guint status;
        const char *says;
    } bad[] = {
        { "GET", "/run?script=0%3Alx%20x", 400, "--script:1:3: `lx`: no such access; did you mean `ld`?" },
        { "GET", "/run?config=..%2F..%2Fetc%2Fpasswd&script=0%3Ald%20x", 400, "the page runs the teaching configs" },
        { "GET", "/run?config=%2Fetc%2Fpasswd&script=0%3Ald%20x", 400, "the page runs the teaching configs" },
        { "GET", "/run?cores=99&script=0%3Ald%20x", 400, "cores=99: give a whole number from 2 to 16" },
        { "GET", "/run?cores=-1&script=0%3Ald%20x", 400, "cores=-1: give a whole number" },
        { "GET", "/run?threads=3&script=0%3Ald%20x", 400, "threads=3: give a whole number from 1 to 2" },
        { "GET", "/run?protocol=mosi&script=0%3Ald%20x", 400, "protocol=mosi: not a protocol" },
        { "GET", "/run?config=teaching-bus&protocol=moesi&script=0%3Ald%20x", 400, "the bus runs msi or mesi" },
        { "GET", "/run?fault=wrong-next&script=0%3Ald%20x", 400, "fault: not a parameter of a run" },
        { "GET", "/run?script=%FF%FE", 400, "script: its value is not UTF-8 text" },
        { "GET", "/run?script=%2Fetc%2Fpasswd", 400, "--script:1:1:" },
        { "GET", "/run", 400, "no accesses: give script=ACCESSES" },
        { "GET", "/run?script=9%3Ald%20x", 400, "thread 9: teaching has 2 cores" },
        { "GET", "/run?scenario=bogus", 400, "scenario=bogus: not one of the page's scenarios" },
        { "GET", "/run?scenario=ttas&script=0%3Ald%20x", 400, "a script or a scenario, not both" },
        { "GET", "/run?script=0%3Ald%20x%3D%3D%3D", 400, "--script:1:" },
        { "POST", "/run?script=0%3Ald%20x", 405, "POST: the live page's server takes GET only" },
        { "GET", "/etc/passwd", 404, "/etc/passwd: no such page" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *body = http(ss, bad[i].method, s.port, bad[i].path, &st);
        ck_assert_msg(st == bad[i].status && strstr(body, bad[i].says), "%s %s: %u %s", bad[i].method, bad[i].path, st,
                      body);
    }
    /* a script longer than a request may carry */
    GString *big = g_string_new("/run?script=0%3Ald%20x%20%23");
    while (big->len < 20000)
        g_string_append(big, "a comment ");
    g_autofree char *body = http(ss, "GET", s.port, big->str, &st);
    g_string_free(big, TRUE);
    ck_assert_msg(st == 400 && strstr(body, "at most 16384 bytes"), "%u %s", st, body);
    /* not HTTP at all, straight on the socket: libsoup answers 400 and the server goes on */
    g_autoptr(GSocketClient) sc = g_socket_client_new();
    g_autoptr(GError) error = NULL;
    g_autoptr(GSocketConnection) conn = g_socket_client_connect_to_host(sc, "127.0.0.1", (guint16)s.port, NULL, &error);
    ck_assert_msg(conn, "%s", error ? error->message : "");
    const char junk[] = "\x01\x02 not a request line\r\n\r\n";
    ck_assert(g_output_stream_write_all(g_io_stream_get_output_stream(G_IO_STREAM(conn)), junk, sizeof junk - 1, NULL,
                                        NULL, &error));
    char reply[64] = { 0 };
    gsize n = 0;
    g_input_stream_read_all(g_io_stream_get_input_stream(G_IO_STREAM(conn)), reply, sizeof reply - 1, &n, NULL, NULL);
    ck_assert_msg(g_str_has_prefix(reply, "HTTP/1.") && strstr(reply, " 400 Bad Request"), "%s", reply);
    g_autofree char *about = http(ss, "GET", s.port, "/about", &st);
    ck_assert_msg(st == 200 && strstr(about, "\"fault\":false"), "%u %s", st, about);
    /* every scenario button starts */
    for (const char *sc_name[] = { "false-sharing", "ping-pong", "producer-consumer", "ttas", NULL }, **p = sc_name; *p; p++) {
        g_autofree char *path = g_strdup_printf("/run?config=teaching&scenario=%s", *p);
        g_autofree char *a = http(ss, "GET", s.port, path, &st);
        ck_assert_msg(st == 200 && strstr(a, "qsim step-through"), "%s: %u %.200s", *p, st, a);
    }
    unserve(&s);
}
END_TEST

/* --fault: every run has it, the answer carries the checker's complaint; a name not in the
 * list is refused before the server starts. */
START_TEST(test_fault)
{
    Served s = serve("missing-inv");
    g_autoptr(SoupSession) ss = soup_session_new();
    guint st;
    g_autofree char *about = http(ss, "GET", s.port, "/about", &st);
    ck_assert_msg(strstr(about, "\"fault\":true"), "%s", about);
    g_autofree char *ans = http(ss, "GET", s.port, "/run?script=0%3Ald%20x%2C1%3Ald%20x%2C0%3Ast%20x%3D5%2C1%3Ald%20x", &st);
    ck_assert_msg(st == 200, "%u %s", st, ans);
    JsonObject *o;
    g_autoptr(JsonNode) keep = NULL;
    g_autofree char *rep = answer_report(ans, &o, &keep);
    ck_assert_msg(g_str_has_prefix(json_object_get_string_member(o, "invariant"),
                                   "after access #3 0:st x=5: line 0x10000: 1 cores in M/E, 1 more readers"),
                  "%s", ans);
    /* the run stopped there: three accesses, not four */
    ck_assert_msg(strstr(rep, "\"n\":3") && !strstr(rep, "\"n\":4"), "%s", rep);
    unserve(&s);
    g_autofree char *err = NULL;
    const char *args[] = { "serve", "--port", "0", "--fault", "no-such", NULL };
    ck_assert_int_eq(run_qsim(args, NULL, &err), 2);
    ck_assert_msg(strstr(err, "--fault no-such: no such fault (the faults: missing-inv, wrong-next, dropped-ack)"), "%s",
                  err);
}
END_TEST

/* What `qsim run --script LINE --trace` fires, row by row (hits left out: the page has no step
 * for them): "I + Load -> IS_D", ... */
static GPtrArray *trace_rows(const char *config, const char *line)
{
    g_autofree char *err = NULL;
    const char *args[] = { "run", "--config", config, "--script", line, "--trace", NULL };
    ck_assert_int_eq(run_qsim(args, NULL, &err), 0);
    GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GRegex) re = g_regex_new("(\\S+ \\+ \\S+ -> \\S+)", 0, 0, NULL);
    g_auto(GStrv) lines = g_strsplit(err, "\n", -1);
    for (char **l = lines; *l; l++) {
        g_autoptr(GMatchInfo) mi = NULL;
        if (**l == '#' || strstr(*l, "(a hit") || !g_regex_match(re, *l, 0, &mi))
            continue;
        g_ptr_array_add(rows, g_match_info_fetch(mi, 1));
    }
    return rows;
}

#define FRAME "document.getElementById('view').contentDocument"

/* Clicks `A:ld x`, `B:st x=5`, `A:ld x` (A, B: the buttons of the thread that does each), each
 * after the last one's run has come back. */
static void click_ld_st_ld(Cdp *c, const char *a, const char *b)
{
    const struct {
        const char *who, *op, *value;
    } clicks[] = { { a, "op-ld", "" }, { b, "op-st", "5" }, { a, "op-ld", "" } };
    for (guint i = 0; i < G_N_ELEMENTS(clicks); i++) {
        g_autofree char *runs = cdp_eval_string(c, "document.getElementById('status').dataset.runs");
        cdp_click(c, clicks[i].who);
        cdp_click(c, "var-x");
        g_autofree char *set = g_strdup_printf("document.getElementById('value').value = '%s'", clicks[i].value);
        g_free(cdp_eval(c, set));
        cdp_click(c, clicks[i].op);
        g_autofree char *done = g_strdup_printf("document.getElementById('status').dataset.runs !== '%s'", runs);
        cdp_wait(c, done);
    }
}

/* On `config`: 0:ld x, 1:st x=5, 0:ld x by clicks; the page against `qsim run --script`. */
static void click_session(Cdp *c, guint port, const char *config, const char *shots)
{
    g_autofree char *url = g_strdup_printf("http://127.0.0.1:%u/#config=%s", port, config);
    cdp_navigate(c, "about:blank"); /* a new document, not a move within the last one */
    cdp_navigate(c, url);
    cdp_wait(c, "document.getElementById('status').dataset.ready === '1'");
    g_autofree char *picked = cdp_eval_string(c, "document.getElementById('config').value");
    ck_assert_str_eq(picked, config);
    click_ld_st_ld(c, "core-0", "core-1");
    const char *line = "0:ld x, 1:st x=5, 0:ld x";
    g_autofree char *shown = cdp_eval_string(c, "document.getElementById('script-line').textContent");
    g_autofree char *cmd = g_strdup_printf("qsim run --config %s --script '%s'", config, line);
    ck_assert_str_eq(shown, cmd);
    g_autofree char *link = cdp_eval_string(c, "document.getElementById('session-link').getAttribute('href')");
    ck_assert_msg(strstr(link, "script=0%3Ald+x%2C+1%3Ast+x%3D5%2C+0%3Ald+x"), "%s", link);
    /* qsim run --script's report: the states and the value after each access */
    g_autofree char *out = NULL;
    const char *args[] = { "run", "--config", config, "--script", line, "--format", "json", NULL };
    ck_assert_int_eq(run_qsim(args, &out, NULL), 0);
    g_autoptr(JsonNode) rn = json_from_string(out, NULL);
    JsonArray *acc = json_object_get_array_member(json_node_get_object(rn), "accesses");
    ck_assert_uint_eq(json_array_get_length(acc), 3);
    for (guint i = 0; i < 3; i++) {
        JsonObject *a = json_array_get_object_element(acc, i);
        JsonArray *sts = json_object_get_array_member(a, "states");
        g_autofree char *want = g_strdup_printf("%s %s", json_array_get_string_element(sts, 0),
                                                json_array_get_string_element(sts, 1));
        g_autofree char *q = g_strdup_printf("document.getElementById('result-%u').dataset.states", i + 1);
        g_autofree char *got = cdp_eval_string(c, q);
        ck_assert_str_eq(got, want);
        if (json_object_has_member(a, "value")) {
            g_autofree char *qv = g_strdup_printf("document.getElementById('result-%u').dataset.value", i + 1);
            g_autofree char *v = cdp_eval_string(c, qv);
            g_autofree char *wv = g_strdup_printf("%" G_GINT64_FORMAT, json_object_get_int_member(a, "value"));
            ck_assert_str_eq(v, wv);
        }
    }
    /* the drawing at the end: each cache's state and value, the home's state */
    JsonObject *last = json_array_get_object_element(acc, 2);
    g_free(cdp_eval(c, FRAME ".defaultView.location.hash = 'step=' + JSON.parse(" FRAME
                       ".getElementById('data').textContent).steps.length"));
    cdp_wait(c, FRAME ".getElementById('step-no') && " FRAME ".defaultView.location.hash.startsWith('#step=') && "
                "JSON.parse(" FRAME ".getElementById('data').textContent).steps.length === Number(/step=(\\d+)/.exec("
                FRAME ".defaultView.location.hash)[1])");
    for (guint core = 0; core < 2; core++) {
        g_autofree char *q = g_strdup_printf(FRAME ".getElementById('svg-x-c%u').dataset.state", core);
        g_autofree char *st = cdp_eval_string(c, q);
        ck_assert_str_eq(st, json_array_get_string_element(json_object_get_array_member(last, "states"), core));
        /* the value drawn beside the state: the cache's words (both hold x = 5 after the load) */
        g_autofree char *qv = g_strdup_printf("(() => { let e = " FRAME ".getElementById('svg-x-c%u'); const t = []; "
                                              "while ((e = e.nextElementSibling)) if (e.tagName === 'text') t.push(e.textContent); "
                                              "return t[1]; })()", core);
        g_autofree char *v = cdp_eval_string(c, qv);
        g_autofree char *wv = g_strdup_printf("%" G_GINT64_FORMAT, json_object_get_int_member(last, "value"));
        ck_assert_str_eq(v, wv);
    }
    g_autofree char *home = cdp_eval_string(c, FRAME ".getElementById('svg-x-dir').dataset.state");
    ck_assert_str_eq(home, json_object_get_string_member(last, "home"));
    /* the fired rows, step by step, as the page's table marks them */
    g_autoptr(GPtrArray) want = trace_rows(config, line);
    g_autofree char *fired = cdp_eval(c, "(() => { const f = document.getElementById('view'), d = f.contentDocument, "
                                         "w = f.contentWindow, n = JSON.parse(d.getElementById('data').textContent).steps.length, "
                                         "r = []; for (let k = 1; k <= n; k++) { w.location.hash = 'step=' + k; "
                                         "w.dispatchEvent(new HashChangeEvent('hashchange')); const e = d.getElementById('fired'); "
                                         "if (e) r.push(e.textContent); } return r; })()");
    g_autoptr(JsonNode) fn = json_from_string(fired, NULL);
    JsonArray *fa = json_node_get_array(fn);
    ck_assert_msg(json_array_get_length(fa) == want->len, "%u fired rows on the page, %u in the trace: %s",
                  json_array_get_length(fa), want->len, fired);
    for (guint i = 0; i < want->len; i++)
        ck_assert_msg(g_str_has_prefix(json_array_get_string_element(fa, i), want->pdata[i]), "row %u: page %s, trace %s",
                      i, json_array_get_string_element(fa, i), (char *)want->pdata[i]);
    /* undo takes the last access back; the link opens the whole session again */
    {
        g_autofree char *runs = cdp_eval_string(c, "document.getElementById('status').dataset.runs");
        cdp_click(c, "undo");
        g_autofree char *done = g_strdup_printf("document.getElementById('status').dataset.runs !== '%s'", runs);
        cdp_wait(c, done);
        g_autofree char *rows = cdp_eval_string(c, "document.getElementById('results').rows.length");
        ck_assert_str_eq(rows, "3"); /* the header and two accesses */
        g_autofree char *back = g_strdup_printf("http://127.0.0.1:%u/%s", port, link);
        cdp_navigate(c, "about:blank");
        cdp_navigate(c, back);
        cdp_wait(c, "document.getElementById('status').dataset.ready === '1' && document.getElementById('result-3')");
        g_autofree char *again = cdp_eval_string(c, "document.getElementById('script-line').textContent");
        ck_assert_str_eq(again, cmd);
    }
    if (shots) {
        static const guint sizes[][2] = { { 1024, 768 }, { 1600, 1000 } };
        g_free(cdp_eval(c, FRAME ".defaultView.location.hash = 'step=' + JSON.parse(" FRAME
                           ".getElementById('data').textContent).steps.findIndex(s => s.a === 1)"));
        for (guint i = 0; i < G_N_ELEMENTS(sizes); i++) {
            cdp_set_size(c, sizes[i][0], sizes[i][1]);
            g_free(cdp_eval(c, "window.scrollTo(0, 0)"));
            g_autofree char *png = g_strdup_printf("%s/live-%s-%ux%u.png", shots, config, sizes[i][0], sizes[i][1]);
            cdp_screenshot(c, png);
        }
        cdp_set_size(c, 1600, 1000);
    }
}

/* With 2 threads per core: a button per hardware thread, and an access from core 0's second
 * one (0.1:st x=5) against `qsim run --script` of the same line: the states and values, the
 * script line and link in C.T, and the drawing's panel for core 0.1 doing the store. */
static void click_smt_session(Cdp *c, guint port)
{
    g_autofree char *url = g_strdup_printf("http://127.0.0.1:%u/#config=teaching&threads=2", port);
    cdp_navigate(c, "about:blank");
    cdp_navigate(c, url);
    cdp_wait(c, "document.getElementById('status').dataset.ready === '1'");
    g_autofree char *buttons = cdp_eval_string(c, "Array.from(document.querySelectorAll('#who button')).map(b => b.id + "
                                                  "'=' + b.textContent).join(' ')");
    ck_assert_str_eq(buttons, "core-0.0=core 0.0 core-0.1=core 0.1 core-1.0=core 1.0 core-1.1=core 1.1");
    click_ld_st_ld(c, "core-0.0", "core-0.1");
    const char *line = "0.0:ld x, 0.1:st x=5, 0.0:ld x";
    g_autofree char *shown = cdp_eval_string(c, "document.getElementById('script-line').textContent");
    g_autofree char *cmd = g_strdup_printf("qsim run --config teaching --set=topology.threads_per_core=2 --script '%s'",
                                           line);
    ck_assert_str_eq(shown, cmd);
    g_autofree char *err = cdp_eval_string(c, "document.getElementById('error').textContent");
    ck_assert_str_eq(err, "");
    g_autofree char *link = cdp_eval_string(c, "document.getElementById('session-link').getAttribute('href')");
    ck_assert_msg(strstr(link, "threads=2") && strstr(link, "script=0.0%3Ald+x%2C+0.1%3Ast+x%3D5%2C+0.0%3Ald+x"), "%s",
                  link);
    g_autofree char *head = cdp_eval_string(c, "Array.from(document.getElementById('results').rows[0].cells)"
                                               ".map(x => x.textContent).slice(5).join(',')");
    ck_assert_str_eq(head, "core 0.0,core 1.0,core 0.1,home");
    g_autofree char *out = NULL;
    const char *args[] = { "run", "--config", "teaching", "--set=topology.threads_per_core=2", "--script", line,
                           "--format", "json", NULL };
    ck_assert_int_eq(run_qsim(args, &out, NULL), 0);
    g_autoptr(JsonNode) rn = json_from_string(out, NULL);
    JsonArray *acc = json_object_get_array_member(json_node_get_object(rn), "accesses");
    ck_assert_uint_eq(json_array_get_length(acc), 3);
    for (guint i = 0; i < 3; i++) {
        JsonObject *a = json_array_get_object_element(acc, i);
        JsonArray *sts = json_object_get_array_member(a, "states");
        GString *want = g_string_new(NULL);
        for (guint t = 0; t < json_array_get_length(sts); t++)
            g_string_append_printf(want, "%s%s", t ? " " : "", json_array_get_string_element(sts, t));
        g_autofree char *q = g_strdup_printf("document.getElementById('result-%u').dataset.states", i + 1);
        g_autofree char *got = cdp_eval_string(c, q);
        ck_assert_str_eq(got, want->str);
        g_string_free(want, TRUE);
    }
    g_autofree char *v = cdp_eval_string(c, "document.getElementById('result-3').dataset.value");
    ck_assert_str_eq(v, "5"); /* the sibling's store, read through the core's one L1 */
    /* the drawing at the sibling's store: core 0.1's panel does it, inside core 0 */
    g_free(cdp_eval(c, FRAME ".defaultView.location.hash = 'step=' + (JSON.parse(" FRAME
                       ".getElementById('data').textContent).steps.findIndex(s => s.a === 1) + 1)"));
    cdp_wait(c, FRAME ".getElementById('access') && " FRAME ".getElementById('access').textContent.includes('#2')");
    g_autofree char *doing = cdp_eval_string(c, FRAME ".getElementById('access').textContent");
    ck_assert_str_eq(doing, "scripted access #2 0.1:st x=5 in progress, on core 0.1");
    g_autofree char *panel = cdp_eval_string(c, FRAME ".getElementById('access-c2').textContent");
    ck_assert_str_eq(panel, "doing #2 0.1:st x=5");
    g_autofree char *label = cdp_eval_string(c, FRAME ".getElementById('phase-c2').textContent");
    ck_assert_msg(g_str_has_prefix(label, "core 0.1"), "%s", label);
    g_autofree char *cache = cdp_eval_string(c, FRAME ".getElementById('svg-x-c0').dataset.state");
    ck_assert_str_eq(cache, "M");
    g_autofree char *none = cdp_eval_string(c, "String(" FRAME ".getElementById('svg-x-c2'))");
    ck_assert_str_eq(none, "null"); /* no cache of its own */
}

START_TEST(test_page_in_browser)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("serve/test_page_in_browser", "chromium is not installed: the live page is not clicked");
        return;
    }
    Served s = serve(NULL);
    g_autoptr(GError) error = NULL;
    Cdp *c = cdp_start(chromium, &error);
    ck_assert_msg(c, "chromium: %s", error ? error->message : "");
    const char *shots = g_getenv("QSIM_DOCS_IMAGES");
    click_session(c, s.port, "teaching", shots);
    click_smt_session(c, s.port);
    click_session(c, s.port, "teaching-bus", shots);
    /* a scenario button starts its run: the frame shows the ttas lock's page */
    {
        g_autofree char *runs = cdp_eval_string(c, "document.getElementById('status').dataset.runs");
        cdp_click(c, "scenario-ttas");
        g_autofree char *done = g_strdup_printf("document.getElementById('status').dataset.runs !== '%s'", runs);
        cdp_wait(c, done);
        g_autofree char *title = cdp_eval_string(c, FRAME ".getElementById('title').textContent");
        ck_assert_msg(g_str_has_prefix(title, "ttas on teaching-bus"), "%s", title);
        g_autofree char *cmd = cdp_eval_string(c, "document.getElementById('script-line').textContent");
        ck_assert_str_eq(cmd, "qsim run --config teaching-bus --lock ttas --threads 2 --iterations 2");
    }
    unserve(&s);
    /* a planted fault: the page says so, and shows the checker's complaint when clicks reveal it */
    Served f = serve("missing-inv");
    g_autofree char *url = g_strdup_printf("http://127.0.0.1:%u/", f.port);
    cdp_navigate(c, "about:blank");
    cdp_navigate(c, url);
    cdp_wait(c, "document.getElementById('status').dataset.ready === '1'");
    g_autofree char *note = cdp_eval_string(c, "document.getElementById('fault').textContent");
    ck_assert_msg(strstr(note, "A fault is planted"), "%s", note);
    static const char *const reveal[][2] = { { "core-0", "op-ld" }, { "core-1", "op-ld" }, { "core-0", "op-st" } };
    for (guint i = 0; i < G_N_ELEMENTS(reveal); i++) {
        g_autofree char *runs = cdp_eval_string(c, "document.getElementById('status').dataset.runs");
        cdp_click(c, reveal[i][0]);
        cdp_click(c, reveal[i][1]);
        g_autofree char *done = g_strdup_printf("document.getElementById('status').dataset.runs !== '%s'", runs);
        cdp_wait(c, done);
    }
    g_autofree char *said = cdp_eval_string(c, "document.getElementById('complaint').textContent");
    ck_assert_msg(g_str_has_prefix(said, "The invariant checker: after access #3 0:st x: line 0x10000: 1 cores in "
                                         "M/E, 1 more readers"), "%s", said);
    if (shots) {
        g_autofree char *png = g_strdup_printf("%s/live-fault-1024x768.png", shots);
        cdp_set_size(c, 1024, 768);
        cdp_screenshot(c, png);
    }
    unserve(&f);
    cdp_stop(c);
}
END_TEST

#else /* built without libsoup */

START_TEST(test_requests)
{
    g_autofree char *err = NULL;
    const char *args[] = { "serve", "--port", "0", NULL };
    ck_assert_int_eq(run_qsim(args, NULL, &err), 2);
    ck_assert_msg(strstr(err, "install libsoup-3.0-dev"), "%s", err);
    qsim_test_skip_or_fail("serve/test_requests", "qsim was built without libsoup 3: the live page's server is not run");
}
END_TEST
START_TEST(test_fault)
{
    qsim_test_skip_or_fail("serve/test_fault", "qsim was built without libsoup 3: the live page's server is not run");
}
END_TEST
START_TEST(test_page_in_browser)
{
    qsim_test_skip_or_fail("serve/test_page_in_browser", "qsim was built without libsoup 3: the live page is not run");
}
END_TEST
#endif

Suite *make_serve_suite(void)
{
    Suite *s = suite_create("serve");
    TCase *tc = tcase_create("serve");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_requests);
    tcase_add_test(tc, test_fault);
    tcase_add_test(tc, test_page_in_browser);
    suite_add_tcase(s, tc);
    return s;
}

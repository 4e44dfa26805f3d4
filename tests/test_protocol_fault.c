/* "Find the broken protocol" (coherence/protocol_fault.h): every fault of the list, on every kind
 * of protocol it has a row for, is caught by the invariant checker on its revealing script, and
 * the same script on the right protocol draws no complaint (so it is the fault that is caught);
 * the page of a faulty run is written up to the access the checker stopped at; a fault a
 * protocol has no row for, or no fault of that name, is refused. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "coherence/protocol_fault.h"
#include "sim/run/access_script_run.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

/* The report of `script` on `config` with `fault` (NULL: none), the checker on. */
static JsonNode *run_script(const char *config, const char *script, const char *fault, const char *page,
                            GError **error)
{
    g_autoptr(AccessScript) s = access_script_parse("--script", script, error);
    ck_assert_msg(s, "%s", (*error)->message);
    ScriptRunOptions o = { .config = config, .seed = 1, .check = TRUE, .fault = fault, .trace.html = page };
    return access_script_run(s, &o, NULL, error);
}

static const char *complaint(JsonNode *report)
{
    JsonObject *o = json_node_get_object(report);
    return json_object_has_member(o, "invariant") ? json_object_get_string_member(o, "invariant") : NULL;
}

START_TEST(test_each_fault_caught)
{
    g_autofree char *dir = tmpdir();
    for (guint i = 0; i < coh_n_faults; i++) {
        const CohFault *f = &coh_faults[i];
        const char *config = f->bus ? "teaching-bus" : "teaching";
        g_autoptr(GError) error = NULL;
        g_autoptr(JsonNode) right = run_script(config, f->reveal, NULL, NULL, &error);
        ck_assert_msg(right, "%s", error ? error->message : "");
        ck_assert_msg(!complaint(right), "%s without the fault: %s", f->reveal, complaint(right));
        g_autofree char *page = g_build_filename(dir, "fault.html", NULL);
        g_autoptr(JsonNode) wrong = run_script(config, f->reveal, f->name, page, &error);
        ck_assert_msg(wrong, "%s: %s", f->name, error ? error->message : "");
        const char *c = complaint(wrong);
        ck_assert_msg(c, "%s on %s: %s drew no complaint", f->name, config, f->reveal);
        /* what the checker says: a second holder beside a writer, or a quiet machine that waits */
        ck_assert_msg(strstr(c, "1 cores in M/E, 1 more readers") || strstr(c, "will never come"), "%s: %s", f->name, c);
        JsonObject *o = json_node_get_object(wrong);
        ck_assert_str_eq(json_object_get_string_member(o, "fault"), f->name);
        /* the script stopped at the access the complaint names, and the page holds the run */
        JsonArray *acc = json_object_get_array_member(o, "accesses");
        guint n = json_array_get_length(acc);
        g_autofree char *at = g_strdup_printf("after access #%u ", n);
        ck_assert_msg(g_str_has_prefix(c, at), "%s: %u accesses, but: %s", f->name, n, c);
        g_autofree char *html = slurp(dir, "fault.html");
        ck_assert_msg(strstr(html, json_object_get_string_member(json_array_get_object_element(acc, n - 1), "access")),
                      "%s: the page lacks the last access", f->name);
        g_unlink(page);
    }
    rm_rf(dir);
}
END_TEST

START_TEST(test_fault_refused)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(AccessScript) s = access_script_parse("--script", "0:ld x", &error);
    ScriptRunOptions o = { .config = "teaching-bus", .seed = 1, .check = TRUE, .fault = "dropped-ack" };
    ck_assert_ptr_null(access_script_run(s, &o, NULL, &error));
    ck_assert_msg(strstr(error->message, "not on a bus"), "%s", error->message);
    g_clear_error(&error);
    o.config = "teaching";
    o.fault = "missing-ack";
    ck_assert_ptr_null(access_script_run(s, &o, NULL, &error));
    ck_assert_msg(strstr(error->message, "no fault missing-ack (the faults: missing-inv, wrong-next, dropped-ack)"),
                  "%s", error->message);
}
END_TEST

/* On the command line: the report to the access it stopped at, the complaint on stderr, exit 1;
 * --fault without --script is refused. */
START_TEST(test_fault_command)
{
    g_autofree char *out = NULL, *err = NULL;
    const char *args[] = { "run", "--config", "teaching", "--script", "0:st x=5, 1:ld x, 0:ld x", "--fault",
                           "wrong-next", NULL };
    ck_assert_int_eq(run_qsim(args, &out, &err), 1);
    ck_assert_msg(strstr(err, "qsim run: the invariant checker: after access #2 1:ld x: line 0x10000: 1 cores in M/E"),
                  "%s", err);
    ck_assert_msg(strstr(out, "stopped: after access #2") && !strstr(out, "0:ld x"), "%s", out);
    g_clear_pointer(&err, g_free);
    const char *lock[] = { "run", "--config", "teaching", "--lock", "ttas", "--fault", "wrong-next", NULL };
    ck_assert_int_eq(run_qsim(lock, NULL, &err), 2);
    ck_assert_msg(strstr(err, "--fault goes with --script"), "%s", err);
}
END_TEST

Suite *make_protocol_fault_suite(void)
{
    Suite *s = suite_create("protocol_fault");
    TCase *tc = tcase_create("fault");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_each_fault_caught);
    tcase_add_test(tc, test_fault_refused);
    tcase_add_test(tc, test_fault_command);
    suite_add_tcase(s, tc);
    return s;
}

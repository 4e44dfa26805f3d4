/* Report writers: JSON round-trips, CSV flattens in tree order, text and comparison. */
#include <check.h>
#include <string.h>
#include "sim/base/report.h"

static JsonNode *sample(gint64 cycles)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "config");
    json_builder_add_string_value(b, "teach,ing");
    json_builder_set_member_name(b, "cycles");
    json_builder_add_int_value(b, cycles);
    json_builder_set_member_name(b, "latency");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "mean");
    json_builder_add_double_value(b, 12.5);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "per_thread");
    json_builder_begin_array(b);
    for (int i = 0; i < 2; i++) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "core");
        json_builder_add_int_value(b, i);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "ok");
    json_builder_add_boolean_value(b, TRUE);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

START_TEST(test_csv)
{
    JsonNode *r = sample(100);
    g_autofree char *csv = report_to_csv(r, TRUE);
    ck_assert_str_eq(csv, "config,cycles,latency.mean,per_thread.0.core,per_thread.1.core,ok\n"
                          "\"teach,ing\",100,12.5000,0,1,true\n");
    json_node_unref(r);
}
END_TEST

START_TEST(test_json_parses_back)
{
    JsonNode *r = sample(100);
    g_autofree char *json = report_to_json(r);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, json, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    ck_assert_int_eq(json_object_get_int_member(o, "cycles"), 100);
    ck_assert(json_node_equal(r, json_parser_get_root(p)));
    json_node_unref(r);
}
END_TEST

START_TEST(test_text_and_compare)
{
    JsonNode *a = sample(100), *b = sample(75);
    g_autofree char *t = report_to_text(a);
    ck_assert_msg(strstr(t, "cycles:") && strstr(t, "  mean:") && strstr(t, "- core 1"), "%s", t);
    g_autofree char *c = report_compare_text(a, b, "A", "B");
    ck_assert_msg(strstr(c, "0.750"), "%s", c);
    json_node_unref(a);
    json_node_unref(b);
}
END_TEST

START_TEST(test_format_parse)
{
    ReportFormat f;
    GError *e = NULL;
    ck_assert(report_format_parse("csv", &f, NULL) && f == REPORT_CSV);
    ck_assert(!report_format_parse("xml", &f, &e));
    ck_assert_str_eq(e->message, "--format xml: unknown format (one of: text, json, csv)");
    g_error_free(e);
}
END_TEST

/* One quoting for every CSV qsim writes (reports and sweep results): RFC 4180, a carriage
 * return included (the report writer used to leave it bare). */
START_TEST(test_csv_field_quoting)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        { "plain", "plain" }, { "a,b", "\"a,b\"" }, { "say \"hi\"", "\"say \"\"hi\"\"\"" },
        { "two\nlines", "\"two\nlines\"" }, { "cr\r", "\"cr\r\"" }, { "", "" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        GString *s = g_string_new("x,");
        report_csv_field(s, cases[i].in);
        g_autofree char *want = g_strconcat("x,", cases[i].out, NULL);
        ck_assert_str_eq(s->str, want);
        g_string_free(s, TRUE);
    }
}
END_TEST

Suite *make_report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("writers");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_csv);
    tcase_add_test(tc, test_json_parses_back);
    tcase_add_test(tc, test_text_and_compare);
    tcase_add_test(tc, test_format_parse);
    tcase_add_test(tc, test_csv_field_quoting);
    suite_add_tcase(s, tc);
    return s;
}

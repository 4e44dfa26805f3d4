/* The report builder on hand-made inputs: the mark log's arithmetic, the sections it writes,
 * groups that are absent leaving their keys out (as a native run will), and a runner's own
 * counter group under its dump key. */
#include <check.h>
#include <string.h>
#include "sim/run_report.h"
#include "sim/base/report.h"

START_TEST(test_mark_log)
{
    MarkLog log;
    mark_log_init(&log, 2);
    mark_log_mark(&log, 0, 1, 100);
    mark_log_mark(&log, 0, 2, 130);   /* waited 30 */
    mark_log_mark(&log, 1, 1, 110);
    mark_log_mark(&log, 0, 3, 150);
    mark_log_mark(&log, 1, 2, 160);   /* waited 50 */
    mark_log_mark(&log, 1, 7, 170);   /* not a harness mark */
    mark_log_mark(&log, 0, 1, 200);
    mark_log_mark(&log, 0, 2, 210);   /* waited 10 */
    ck_assert_uint_eq(mark_log_acquisitions(&log), 3);
    ck_assert_uint_eq(log.acquisitions[0], 2);
    ck_assert_uint_eq(log.waiting[0], 40);
    ck_assert_uint_eq(log.waiting[1], 50);
    ck_assert_uint_eq(log.releases[0], 1);
    ck_assert_uint_eq(log.releases[1], 0);
    ck_assert_double_eq(latency_mean(&log.latency), 30);
    ck_assert_uint_eq(latency_percentile(&log.latency, 50), 30);
    ck_assert_uint_eq(latency_percentile(&log.latency, 99), 50);
    mark_log_clear(&log);
    ck_assert_ptr_null(log.acquisitions);
}
END_TEST

/* A runner's own counters (a stand-in for the host's perf counters). */
typedef struct {
    guint64 cycles;
    guint64 instructions;
} HostCounters;

static const CounterInfo host_rows[] = {
    COUNTER_ROW(HostCounters, cycles, "cycles", "core cycles"),
    COUNTER_ROW(HostCounters, instructions, "ops", "instructions retired"),
};
static const CounterRegistry host_registry = { "HostCounters", host_rows, G_N_ELEMENTS(host_rows),
                                               sizeof(HostCounters) };

static JsonNode *sample_report(gboolean with_seed, gboolean with_groups)
{
    static MarkLog log;
    mark_log_init(&log, 2);
    for (guint t = 0; t < 2; t++)
        for (guint k = 0; k < 3 + t; k++) {
            mark_log_mark(&log, t, 1, 1000 * k);
            mark_log_mark(&log, t, 2, 1000 * k + 10 * (t + 1));
            mark_log_mark(&log, t, 3, 1000 * k + 50);
        }
    WorkloadOptions w;
    workload_init(&w, WL_NATIVE);
    w.readers = 0;
    static const guint cpus[] = { 4, 6 };
    guint64 seed = 9, cycles = 7000;
    HostCounters hc = { 123, 456 };
    const CounterGroup groups[] = {
        { "core", &host_registry, NULL, "core_counters" },       /* absent */
        { "host", &host_registry, &hc, "counters" },
    };
    const RunVerdict verdicts[] = { { "mutual_exclusion", TRUE } };
    RunReportInput in = {
        .config = "native", .arch = "x86", .lock = "ticket", .workload = &w, .command = WL_NATIVE,
        .seed = with_seed ? &seed : NULL, .cycles = &cycles, .marks = &log, .place_key = "cpu", .place = cpus,
        .verdicts = verdicts, .nverdicts = G_N_ELEMENTS(verdicts),
        .groups = with_groups ? groups : NULL, .ngroups = with_groups ? G_N_ELEMENTS(groups) : 0,
    };
    JsonNode *root = run_report_build(&in);
    mark_log_clear(&log);
    return root;
}

START_TEST(test_builder_sections)
{
    g_autoptr(JsonNode) root = sample_report(TRUE, TRUE);
    JsonObject *o = json_node_get_object(root);
    ck_assert_str_eq(json_object_get_string_member(o, "config"), "native");
    ck_assert_int_eq(json_object_get_int_member(o, "cs_writes"), 1);
    ck_assert_int_eq(json_object_get_int_member(o, "iterations"), 10000);
    ck_assert_str_eq(json_object_get_string_member(o, "mode"), "fixed-work");
    ck_assert_int_eq(json_object_get_int_member(o, "seed"), 9);
    ck_assert_int_eq(json_object_get_int_member(o, "cycles"), 7000);
    ck_assert_int_eq(json_object_get_int_member(o, "acquisitions"), 7);
    ck_assert_double_eq(json_object_get_double_member(o, "cycles_per_acquisition"), 1000);
    JsonArray *pt = json_object_get_array_member(o, "per_thread");
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(pt, 1), "cpu"), 6);
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(pt, 1), "cycles_waiting"), 80);
    JsonObject *fair = json_object_get_object_member(o, "fairness");
    ck_assert_int_eq(json_object_get_int_member(fair, "min"), 3);
    ck_assert_int_eq(json_object_get_int_member(fair, "max"), 4);
    ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(o, "latency"), "p99"), 20);
    ck_assert(json_object_get_boolean_member(o, "mutual_exclusion"));
    /* The model's groups are absent: none of their keys, not zeroes. */
    static const char *const absent[] = { "machine_clears", "paused_cycles", "atomics", "coherence", "l1_hit_rate",
                                          "sim_instructions", "core_counters", "memory_system", "stalled",
                                          "host_seconds", "placement", "jitter" };
    for (guint i = 0; i < G_N_ELEMENTS(absent); i++)
        ck_assert_msg(!json_object_has_member(o, absent[i]), "%s present", absent[i]);
    JsonObject *c = json_object_get_object_member(o, "counters");
    ck_assert_int_eq(json_object_get_int_member(c, "cycles"), 123);
    ck_assert_int_eq(json_object_get_int_member(c, "instructions"), 456);
    /* The layout: identity, then results, then counters. */
    g_autoptr(GList) m = json_object_get_members(o);
    ck_assert_str_eq(m->data, "config");
    ck_assert_str_eq(g_list_last(m)->data, "counters");
}
END_TEST

START_TEST(test_builder_optional_parts)
{
    g_autoptr(JsonNode) root = sample_report(FALSE, FALSE);
    JsonObject *o = json_node_get_object(root);
    ck_assert(!json_object_has_member(o, "seed"));
    ck_assert(!json_object_has_member(o, "counters"));
    ck_assert(json_object_has_member(o, "acquisitions"));
}
END_TEST

Suite *make_run_report_suite(void)
{
    Suite *s = suite_create("run_report");
    TCase *tc = tcase_create("builder");
    tcase_add_test(tc, test_mark_log);
    tcase_add_test(tc, test_builder_sections);
    tcase_add_test(tc, test_builder_optional_parts);
    suite_add_tcase(s, tc);
    return s;
}

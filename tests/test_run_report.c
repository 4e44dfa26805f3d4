/* The report builder on hand-made inputs: the mark log's arithmetic (all samples, a limit,
 * the merge, a change of unit), the sections it writes, groups that are absent leaving their
 * keys out (as a native run will), a runner's own counter group under its dump key or
 * "unavailable (why)", and a runner's own members at their places. */
#include <check.h>
#include <string.h>
#include "sim/report/run_report.h"
#include "sim/base/report.h"

START_TEST(test_mark_log)
{
    MarkLog log;
    mark_log_init(&log, 2, MARK_LOG_EVERY_SAMPLE);
    mark_log_mark(&log, 0, 1, 100);
    mark_log_mark(&log, 0, 2, 130);   /* waited 30 */
    mark_log_mark(&log, 1, 1, 110);
    mark_log_mark(&log, 0, 3, 150);
    mark_log_mark(&log, 1, 2, 160);   /* waited 50 */
    mark_log_mark(&log, 1, 7, 170);   /* not a harness mark */
    mark_log_mark(&log, 0, 1, 200);
    mark_log_mark(&log, 0, 2, 210);   /* waited 10 */
    ck_assert_uint_eq(mark_log_acquisitions(&log), 3);
    ck_assert_uint_eq(log.threads[0]->acquisitions, 2);
    ck_assert_uint_eq(log.threads[0]->waiting, 40);
    ck_assert_uint_eq(log.threads[1]->waiting, 50);
    ck_assert_uint_eq(log.threads[0]->releases, 1);
    ck_assert_uint_eq(log.threads[1]->releases, 0);
    ck_assert_uint_eq(log.latency.samples->len, 0); /* until merged */
    mark_log_merge(&log);
    /* thread order: thread 0's two, then thread 1's */
    ck_assert_uint_eq(log.latency.samples->len, 3);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, 0), 30);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, 1), 10);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, 2), 50);
    ck_assert_double_eq(latency_mean(&log.latency), 30);
    ck_assert_uint_eq(latency_percentile(&log.latency, 50), 30);
    ck_assert_uint_eq(latency_percentile(&log.latency, 99), 50);
    mark_log_clear(&log);
    ck_assert_ptr_null(log.threads);
}
END_TEST

/* A log that keeps every sample grows past its first room and keeps them all. */
START_TEST(test_mark_log_grows)
{
    MarkLog log;
    mark_log_init(&log, 1, MARK_LOG_EVERY_SAMPLE);
    const guint64 n = 5000;
    for (guint64 k = 0; k < n; k++) {
        mark_log_mark(&log, 0, 1, 100 * k);
        mark_log_mark(&log, 0, 2, 100 * k + k % 7);
    }
    ck_assert_uint_eq(log.threads[0]->kept, n);
    mark_log_merge(&log);
    ck_assert_uint_eq(log.latency.samples->len, n);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, n - 1), (n - 1) % 7);
    mark_log_clear(&log);
}
END_TEST

/* A limited log: room for the limit from the start (a mark never allocates, so the array stays
 * where it was), the first `limit` samples kept, every acquisition still counted and summed. */
START_TEST(test_mark_log_limit)
{
    MarkLog log;
    mark_log_init(&log, 2, 2);
    const guint64 *room0 = log.threads[0]->samples;
    ck_assert_uint_eq(log.threads[0]->room, 2);
    static const guint64 waits[] = { 30, 60, 1, 500 };
    for (guint k = 0; k < G_N_ELEMENTS(waits); k++) {
        mark_log_mark(&log, 0, 1, 1000 * k);
        mark_log_mark(&log, 0, 2, 1000 * k + waits[k]);
        mark_log_mark(&log, 0, 3, 1000 * k + 900);
    }
    mark_log_mark(&log, 1, 1, 5);
    mark_log_mark(&log, 1, 2, 1005);
    const MarkLogThread *r = log.threads[0];
    ck_assert_ptr_eq(r->samples, room0);
    ck_assert_uint_eq(r->acquisitions, 4);
    ck_assert_uint_eq(r->releases, 4);
    ck_assert_uint_eq(r->kept, 2);
    ck_assert_uint_eq(r->waiting, 30 + 60 + 1 + 500);
    mark_log_merge(&log);
    ck_assert_uint_eq(log.latency.samples->len, 3);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, 0), 30);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, 1), 60);
    ck_assert_uint_eq(g_array_index(log.latency.samples, guint64, 2), 1000);
    /* Moved, not copied: the threads' arrays are gone, their counts stay. */
    ck_assert_ptr_null(log.threads[0]->samples);
    ck_assert_uint_eq(log.threads[0]->kept, 2);
    mark_log_clear(&log);
}
END_TEST

/* Each thread's record sits in lines of its own (threads that run in parallel share none). */
START_TEST(test_mark_log_records_apart)
{
    MarkLog log;
    mark_log_init(&log, 3, 16);
    for (guint t = 0; t < 3; t++) {
        ck_assert_uint_eq((guintptr)log.threads[t] % 128, 0);
        ck_assert_uint_eq((guintptr)log.threads[t]->samples % 128, 0);
    }
    for (guint a = 0; a < 3; a++)
        for (guint b = a + 1; b < 3; b++) {
            guintptr x = (guintptr)log.threads[a] / 128, y = (guintptr)log.threads[b] / 128;
            ck_assert_uint_ne(x, y);
        }
    mark_log_clear(&log);
}
END_TEST

/* Another unit: every time scaled and rounded (ticks of a 25 MHz timer to ns: 40 each). */
START_TEST(test_mark_log_convert)
{
    MarkLog log;
    mark_log_init(&log, 1, MARK_LOG_EVERY_SAMPLE);
    mark_log_mark(&log, 0, 1, 10);
    mark_log_mark(&log, 0, 2, 13);
    mark_log_mark(&log, 0, 1, 20);
    mark_log_mark(&log, 0, 2, 21);
    mark_log_convert(&log, 40.0);
    mark_log_merge(&log);
    ck_assert_uint_eq(log.threads[0]->waiting, 160);
    ck_assert_uint_eq(latency_percentile(&log.latency, 50), 40);
    ck_assert_uint_eq(latency_percentile(&log.latency, 99), 120);
    mark_log_clear(&log);
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

/* A report with hand-made inputs; `host_unavailable`: the runner's counters could not be read,
 * for that reason; `extras`: the runner's own members at every place. */
static JsonNode *build_sample(gboolean with_seed, gboolean with_groups, const char *host_unavailable,
                              gboolean extras)
{
    static MarkLog log;
    mark_log_init(&log, 2, MARK_LOG_EVERY_SAMPLE);
    for (guint t = 0; t < 2; t++)
        for (guint k = 0; k < 3 + t; k++) {
            mark_log_mark(&log, t, 1, 1000 * k);
            mark_log_mark(&log, t, 2, 1000 * k + 10 * (t + 1));
            mark_log_mark(&log, t, 3, 1000 * k + 50);
        }
    mark_log_merge(&log);
    WorkloadOptions w;
    workload_init(&w, WL_NATIVE);
    w.readers = 0;
    static const guint cpus[] = { 4, 6 };
    guint64 seed = 9, cycles = 7000;
    HostCounters hc = { 123, 456 };
    const CounterGroup groups[] = {
        { "core", &host_registry, NULL, "cores_summed", NULL },       /* absent */
        { "host", &host_registry, host_unavailable ? NULL : &hc, "counters", host_unavailable },
    };
    const RunVerdict verdicts[] = { { "mutual_exclusion", TRUE } };
    RunReportInput in = {
        .config = "native", .arch = "x86", .lock = "ticket", .workload = &w, .command = WL_NATIVE,
        .seed = with_seed ? &seed : NULL, .cycles = &cycles, .marks = &log, .place_key = "cpu", .place = cpus,
        .verdicts = verdicts, .nverdicts = G_N_ELEMENTS(verdicts),
        .groups = with_groups ? groups : NULL, .ngroups = with_groups ? G_N_ELEMENTS(groups) : 0,
    };
    if (extras) {
        for (guint i = 0; i < RUN_REPORT_PLACES; i++)
            in.extra[i] = json_object_new();
        JsonArray *cpus_list = json_array_new();
        json_array_add_int_element(cpus_list, 4);
        json_object_set_array_member(in.extra[RUN_REPORT_IDENTITY], "cpus", cpus_list);
        json_object_set_int_member(in.extra[RUN_REPORT_TOTALS], "ns", 3500);
        json_object_set_string_member(in.extra[RUN_REPORT_LATENCY], "unit", "tsc_cycles");
        json_object_set_int_member(in.extra[RUN_REPORT_LATENCY], "samples", 7);
        json_object_set_int_member(in.extra[RUN_REPORT_VERDICTS], "counter", 7);
        json_object_set_double_member(in.extra[RUN_REPORT_VERDICTS], "work_unit_ns", 0.5);
    }
    JsonNode *root = run_report_build(&in);
    for (guint i = 0; i < RUN_REPORT_PLACES; i++)
        if (in.extra[i])
            json_object_unref(in.extra[i]);
    mark_log_clear(&log);
    return root;
}

static JsonNode *sample_report(gboolean with_seed, gboolean with_groups)
{
    return build_sample(with_seed, with_groups, NULL, FALSE);
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
    static const char *const absent[] = { "machine_clears", "branch_mispredicts", "paused_cycles", "atomics",
                                          "coherence", "l1_hit_rate", "sim_instructions", "cores_summed",
                                          "memory_system", "stalled", "host_seconds", "placement", "jitter" };
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

/* A group that could not be counted: its dump key says why, and nothing else of it shows. */
START_TEST(test_builder_unavailable_group)
{
    g_autoptr(JsonNode) root = build_sample(FALSE, TRUE, "perf_event_open: Permission denied", FALSE);
    JsonObject *o = json_node_get_object(root);
    JsonNode *c = json_object_get_member(o, "counters");
    ck_assert(JSON_NODE_HOLDS_VALUE(c));
    ck_assert_str_eq(json_node_get_string(c), "unavailable (perf_event_open: Permission denied)");
    ck_assert(!json_object_has_member(o, "cores_summed"));
    /* The text report shows it as one line. */
    g_autofree char *text = report_format(root, REPORT_TEXT);
    ck_assert_msg(strstr(text, "unavailable (perf_event_open: Permission denied)\n"), "%s", text);
}
END_TEST

/* A runner's own members land at their places, in their order, beside the builder's. */
START_TEST(test_builder_extra_members)
{
    g_autoptr(JsonNode) plain = build_sample(FALSE, TRUE, NULL, FALSE);
    g_autoptr(JsonNode) root = build_sample(FALSE, TRUE, NULL, TRUE);
    JsonObject *o = json_node_get_object(root);
    g_autoptr(GList) m = json_object_get_members(o);
    GPtrArray *keys = g_ptr_array_new();
    for (GList *l = m; l; l = l->next)
        g_ptr_array_add(keys, l->data);
    g_ptr_array_add(keys, NULL);
    g_autofree char *order = g_strjoinv(",", (char **)keys->pdata);
    g_ptr_array_free(keys, TRUE);
    ck_assert_msg(strstr(order, ",mode,cpus,cycles,acquisitions,cycles_per_acquisition,acquisitions_per_kcycle,ns,latency,per_thread,"
                                "fairness,mutual_exclusion,counter,work_unit_ns,counters"), "%s", order);
    JsonObject *lat = json_object_get_object_member(o, "latency");
    g_autoptr(GList) lm = json_object_get_members(lat);
    ck_assert_uint_eq(g_list_length(lm), 5);
    ck_assert_str_eq(g_list_nth_data(lm, 2), "p99");
    ck_assert_str_eq(g_list_nth_data(lm, 3), "unit");
    ck_assert_str_eq(json_object_get_string_member(lat, "unit"), "tsc_cycles");
    ck_assert_int_eq(json_object_get_int_member(lat, "samples"), 7);
    ck_assert_int_eq(json_array_get_int_element(json_object_get_array_member(o, "cpus"), 0), 4);
    ck_assert_double_eq(json_object_get_double_member(o, "work_unit_ns"), 0.5);
    /* Everything else is what the builder writes without them. */
    JsonObject *p = json_node_get_object(plain);
    g_autoptr(GList) pm = json_object_get_members(p);
    ck_assert_uint_eq(g_list_length(m), g_list_length(pm) + 4);
    for (GList *l = pm; l; l = l->next)
        ck_assert_msg(json_object_has_member(o, l->data), "%s lost", (char *)l->data);
}
END_TEST

Suite *make_run_report_suite(void)
{
    Suite *s = suite_create("run_report");
    TCase *tc = tcase_create("builder");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_mark_log);
    tcase_add_test(tc, test_mark_log_grows);
    tcase_add_test(tc, test_mark_log_limit);
    tcase_add_test(tc, test_mark_log_records_apart);
    tcase_add_test(tc, test_mark_log_convert);
    tcase_add_test(tc, test_builder_sections);
    tcase_add_test(tc, test_builder_optional_parts);
    tcase_add_test(tc, test_builder_unavailable_group);
    tcase_add_test(tc, test_builder_extra_members);
    suite_add_tcase(s, tc);
    return s;
}

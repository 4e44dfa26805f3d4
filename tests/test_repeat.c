/* Repeated runs and their statistics; the throughput window; timing noise with no think time. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "sim/base/sample_stats.h"
#include "sim/run/repeat.h"
#include "tests/run_qsim.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

START_TEST(test_sample_stats_known_values)
{
    const double x[] = { 1, 2, 3, 4, 5 }, signed_x[] = { -2, -1, 0, 1, 2 };
    SampleStats s;
    sample_stats(x, 5, &s);
    ck_assert(NEAR(s.mean, 3, 1e-12));
    ck_assert(NEAR(s.sd, sqrt(2.5), 1e-12));
    ck_assert(NEAR(s.min, 1, 0) && NEAR(s.max, 5, 0));
    /* never below 0: t on the log of the mean */
    double f = exp(2.776 * sqrt(2.5) / sqrt(5.0) / 3);
    ck_assert(s.method == INTERVAL_T_LOG && NEAR(s.ci_low, 3 / f, 1e-9) && NEAR(s.ci_high, 3 * f, 1e-9));
    /* a value below 0: t on the values */
    sample_stats(signed_x, 5, &s);
    double half = 2.776 * sqrt(2.5) / sqrt(5.0);
    ck_assert(s.method == INTERVAL_T && NEAR(s.ci_low, -half, 1e-9) && NEAR(s.ci_high, half, 1e-9));
    /* one value: no spread, the interval is the value */
    sample_stats(x, 1, &s);
    ck_assert(s.sd == 0 && s.ci_low == 1 && s.ci_high == 1);
    /* t's quantiles fall towards the normal's */
    ck_assert(NEAR(student_t95(1), 12.706, 1e-9));
    ck_assert(NEAR(student_t95(9), 2.262, 1e-9));
    ck_assert(student_t95(31) < student_t95(30) && student_t95(1000) > 1.96 && student_t95(1000) < 1.963);
}
END_TEST

/* Skewed counts (one run in a phase of 2000 machine clears): the interval stays at or above 0,
 * holds the mean, and is the same every time; an all-zero key is [0, 0]; a symmetric low-noise
 * sample gives nearly the symmetric t interval. */
START_TEST(test_sample_stats_never_negative)
{
    const double skew[] = { 1, 1, 1, 1, 2000 }, zeros[] = { 0, 0, 3, 0, 0 }, none[] = { 0, 0, 0 };
    SampleStats s, again;
    sample_stats(skew, 5, &s);
    ck_assert_msg(s.ci_low >= 0 && s.ci_low <= s.mean && s.mean <= s.ci_high, "[%g, %g]", s.ci_low, s.ci_high);
    sample_stats(skew, 5, &again);
    ck_assert(memcmp(&s, &again, sizeof s) == 0);
    sample_stats(zeros, 5, &s);
    ck_assert_msg(s.ci_low >= 0 && s.ci_low <= s.mean && s.mean <= s.ci_high, "[%g, %g]", s.ci_low, s.ci_high);
    sample_stats(none, 3, &s);
    ck_assert(s.ci_low == 0 && s.ci_high == 0);
    const double sym[] = { 100, 102, 98, 101, 99 };
    sample_stats(sym, 5, &s);
    double half = 2.776 * sqrt(2.5) / sqrt(5.0);
    ck_assert(NEAR(s.ci_low, 100 - half, 0.05) && NEAR(s.ci_high, 100 + half, 0.05));
    ck_assert_str_eq(interval_method_name(s.method), "t on the log of the mean");
}
END_TEST

/* The ratio of two skewed samples of counts stays above 0. */
START_TEST(test_ratio_stats_never_negative)
{
    const double a[] = { 1, 1, 1, 1, 2000 }, b[] = { 2000, 1, 1, 1, 1 }, c[] = { 3, 1, 2, 1, 1500 };
    SampleStats sa, sb, sc;
    sample_stats(a, 5, &sa);
    sample_stats(b, 5, &sb);
    sample_stats(c, 5, &sc);
    RatioStats r, again;
    ratio_stats(&sa, &sb, &r);
    ck_assert_msg(r.ci_low > 0 && r.ci_low < 1 && r.ci_high > 1 && !r.significant, "[%g, %g]", r.ci_low, r.ci_high);
    ratio_stats(&sa, &sc, &r);
    ck_assert_msg(r.ci_low > 0 && r.ci_low <= r.ratio && r.ratio <= r.ci_high, "[%g, %g]", r.ci_low, r.ci_high);
    ratio_stats(&sa, &sc, &again);
    ck_assert(memcmp(&r, &again, sizeof r) == 0 && r.method == INTERVAL_T_LOG);
}
END_TEST

START_TEST(test_ratio_stats)
{
    const double a[] = { 100, 102, 98, 101, 99 }, same[] = { 100, 101, 99, 100, 100 }, b[] = { 200, 204, 196, 202, 198 };
    SampleStats sa, ss, sb;
    sample_stats(a, 5, &sa);
    sample_stats(same, 5, &ss);
    sample_stats(b, 5, &sb);
    RatioStats r;
    ratio_stats(&sa, &sb, &r);
    ck_assert(NEAR(r.ratio, 2, 1e-12) && r.ci_low < 2 && r.ci_high > 2 && r.significant);
    ratio_stats(&sa, &ss, &r);
    ck_assert(!r.significant && r.ci_low < 1 && r.ci_high > 1);
    SampleStats zero = { 0 };
    ratio_stats(&zero, &sb, &r);
    ck_assert(r.ratio == 0 && !r.significant);
}
END_TEST

/* The same command twice prints the same thing; a lock against itself is no different; the
 * interval has the mean inside; --repeat's default jitter is in the output. */
START_TEST(test_repeat_command)
{
    const char *line = "run --config teaching --lock ticket --vs ticket --repeat 4 --iterations 40";
    g_autofree char *out1 = NULL, *out2 = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out1, &err), 0);
    ck_assert_int_eq(run_qsim_line(line, &out2, NULL), 0);
    ck_assert_str_eq(out1, out2);
    ck_assert_msg(strstr(out1, "4 seeds from 1 (jitter 50 cycles)"), "%s", out1);
    ck_assert_msg(strstr(out1, "ticket / ticket"), "%s", out1);
    ck_assert_msg(strstr(out1, "no significant difference"), "%s", out1);
    /* JSON: a pair of summaries, each figure's stats in the report's layout, b / a at each */
    g_autofree char *json = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --vs tas --repeat 3 --iterations 40 "
                                   "--jitter 20 --format json", &json, NULL), 0);
    ck_assert_msg(g_str_has_prefix(json, "{\n  \"schema_version\" : 1,\n  \"kind\" : \"pair\","), "%.80s", json);
    ck_assert_msg(strstr(json, "\"b_over_a\" : {\n    \"cycles\" : {\n      \"ratio\" : "), "%s", json);
    ck_assert_msg(strstr(json, "\"latency\" : {\n      \"mean\" : {\n        \"n\" : 3,"), "%s", json);
    ck_assert_msg(strstr(json, "\"jitter\" : 20"), "%s", json);
    ck_assert_msg(strstr(json, "\"cycles_per_acquisition\" : {"), "%s", json);
    /* keyed by role, as plain --vs is: a lock against itself keeps both sides (it lost one) */
    g_autofree char *self = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --vs ticket --repeat 2 --iterations 20 "
                                   "--format json", &self, NULL), 0);
    g_autoptr(JsonParser) sp = json_parser_new();
    ck_assert(json_parser_load_from_data(sp, self, -1, NULL));
    JsonObject *so = json_node_get_object(json_parser_get_root(sp));
    ck_assert(json_object_has_member(so, "a") && json_object_has_member(so, "b") &&
              json_object_has_member(so, "b_over_a") && !json_object_has_member(so, "ticket"));
    ck_assert_str_eq(json_object_get_string_member(json_object_get_object_member(so, "labels"), "b"), "ticket");
    /* CSV: the summary flattened, one header and one row */
    g_autofree char *csv = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --repeat 3 --iterations 40 --format csv", &csv,
                                   NULL), 0);
    ck_assert_msg(g_str_has_prefix(csv, "schema_version,kind,config,arch,lock,threads,"), "%.80s", csv);
    ck_assert_ptr_nonnull(strstr(csv, ",cycles_per_acquisition.mean,cycles_per_acquisition.sd,"));
    ck_assert_ptr_nonnull(strstr(csv, "\n1,summary,teaching,x86,ticket,"));
    g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
    ck_assert_uint_eq(g_strv_length(rows), 3);
    /* bad counts */
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --repeat 1", NULL, NULL), 2);
}
END_TEST

START_TEST(test_run_repeated_statistics)
{
    RunOptions o;
    run_options_init(&o);
    o.config = "teaching";
    o.lock = "ttas";
    o.workload.iterations = 30;
    o.workload.jitter = 30;
    o.seed = 5;
    RepeatResult r;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(run_repeated(&o, 5, &r, &e), "%s", e ? e->message : "");
    ck_assert(r.ok);
    ck_assert_uint_eq(r.n, 5);
    ck_assert_uint_eq(r.first_seed, 5);
    const RepeatKey *k = repeat_find(&r, "cycles_per_acquisition");
    ck_assert(k && k->stats.n == 5);
    ck_assert(k->stats.ci_low <= k->stats.mean && k->stats.mean <= k->stats.ci_high);
    ck_assert(k->stats.min <= k->stats.mean && k->stats.mean <= k->stats.max);
    /* the noise reaches the result: seeds differ */
    ck_assert(k->stats.max > k->stats.min);
    /* names of the run are not summarised */
    ck_assert_ptr_null(repeat_find(&r, "seed"));
    ck_assert_ptr_null(repeat_find(&r, "threads"));
    repeat_result_clear(&r);
}
END_TEST

/* Jitter with no think time still varies the run (the harness gives it a think `work` of 0 to
 * lengthen), so seeds no longer lock into the same phase. */
START_TEST(test_jitter_without_think_varies_runs)
{
    g_autofree char *a = NULL, *b = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock tas --iterations 50 --jitter 40 --seed 1 "
                                   "--no-host-time --format json", &a, NULL), 0);
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock tas --iterations 50 --jitter 40 --seed 2 "
                                   "--no-host-time --format json", &b, NULL), 0);
    ck_assert(strcmp(a, b) != 0);
    g_autofree char *asm_out = NULL;
    ck_assert_int_eq(run_qsim_line("asm locks/tas.qs --harness", &asm_out, NULL), 0);
}
END_TEST

/* A window after a warm-up: the counters are the window's (less than the whole run's), the
 * throughput is acquisitions per thousand cycles of the window. */
START_TEST(test_warmup_window)
{
    g_autofree char *win = NULL, *whole = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --duration 20000 --warmup 10000 "
                                   "--no-host-time --format json", &win, NULL), 0);
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --duration 30000 "
                                   "--no-host-time --format json", &whole, NULL), 0);
    g_autoptr(JsonParser) p1 = json_parser_new(), p2 = json_parser_new();
    ck_assert(json_parser_load_from_data(p1, win, -1, NULL) && json_parser_load_from_data(p2, whole, -1, NULL));
    JsonObject *w = json_node_get_object(json_parser_get_root(p1)), *all = json_node_get_object(json_parser_get_root(p2));
    ck_assert_int_eq(json_object_get_int_member(w, "cycles"), 20000);
    ck_assert_int_eq(json_object_get_int_member(w, "warmup"), 10000);
    gint64 acq_w = json_object_get_int_member(w, "acquisitions"), acq_all = json_object_get_int_member(all, "acquisitions");
    ck_assert(acq_w > 0 && acq_w < acq_all);
    ck_assert(NEAR(json_object_get_double_member(w, "acquisitions_per_kcycle"), 1000.0 * acq_w / 20000, 1e-9));
    ck_assert(json_object_get_int_member(w, "sim_instructions") < json_object_get_int_member(all, "sim_instructions"));
    /* the same seed, so the window is the whole run's last 20000 cycles: counts add up to it */
    ck_assert(json_object_get_boolean_member(w, "mutual_exclusion"));
    /* a warm-up needs a fixed-time run */
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --warmup 100", NULL, NULL), 2);
}
END_TEST

Suite *make_repeat_suite(void)
{
    Suite *s = suite_create("repeat");
    TCase *tc = tcase_create("stats");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_sample_stats_known_values);
    tcase_add_test(tc, test_ratio_stats);
    tcase_add_test(tc, test_sample_stats_never_negative);
    tcase_add_test(tc, test_ratio_stats_never_negative);
    tcase_add_test(tc, test_repeat_command);
    tcase_add_test(tc, test_run_repeated_statistics);
    tcase_add_test(tc, test_jitter_without_think_varies_runs);
    tcase_add_test(tc, test_warmup_window);
    suite_add_tcase(s, tc);
    return s;
}

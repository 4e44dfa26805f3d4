/* `qsim compare`: the published figures it quotes, and a small verdict table on the built
 * binary (its shape and what each row says, never how fast it ran). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "sim/run/compare.h"
#include "sim/base/sample_modes.h"
#include "tests/run_qsim.h"

/* The seed's runs add up to the totals the thread quotes, and its ratios are its 25% and 39%
 * (533310000 / 424325636 and 918491736 / 658823632, read as "b takes 1/1.257 of a's time"). */
START_TEST(test_seed_figures)
{
    const CompareSeedFigure *a = compare_seed_figure("qspin", "qspin-cmpxchg", "haswell", HARNESS_SAME_LINE, 2);
    const CompareSeedFigure *b = compare_seed_figure("qspin", "qspin-cmpxchg", "haswell", HARNESS_SEPARATE_LINE, 2);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_null(compare_seed_figure("qspin", "qspin-cmpxchg", "haswell", HARNESS_SAME_LINE, 4));
    ck_assert_ptr_null(compare_seed_figure("qspin", "qspin-cmpxchg", "skylake-sp", HARNESS_SAME_LINE, 2));
    ck_assert_ptr_null(compare_seed_figure("ticket", "qspin-cmpxchg", "haswell", HARNESS_SAME_LINE, 2));
    static const struct { double a_total, b_total; } totals[] = { { 533310000, 424325636 }, { 918491736, 658823632 } };
    const CompareSeedFigure *f[] = { a, b };
    for (guint k = 0; k < 2; k++) {
        double sa = 0, sb = 0;
        for (guint i = 0; i < f[k]->n; i++) {
            sa += f[k]->a[i];
            sb += f[k]->b[i];
        }
        ck_assert_double_eq_tol(sa, totals[k].a_total, 0.5);
        ck_assert_double_eq_tol(sb, totals[k].b_total, 0.5);
    }
}
END_TEST

/* Two rows, small: the table names the question, each row has its ratio, its sentence, and the
 * seed's figure where there is one; the JSON has the same; every interval is above 0. */
START_TEST(test_small_table)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("compare --threads-list 2,4 --data A --placements fill --seeds 3 --iterations 60 -j 1 "
                           "--thinks 0,100 --jitters 50 --timing-seeds 2 --timing-iterations 40 --check-seeds 2 "
                           "--format json", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    ck_assert_str_eq(json_object_get_string_member(o, "a"), "qspin");
    ck_assert_str_eq(json_object_get_string_member(o, "b"), "qspin-cmpxchg");
    ck_assert_str_eq(json_object_get_string_member(o, "study"), "docs/study-qspin-cmpxchg.md");
    JsonArray *rows = json_object_get_array_member(o, "rows");
    ck_assert_uint_eq(json_array_get_length(rows), 2);
    for (guint i = 0; i < 2; i++) {
        JsonObject *r = json_array_get_object_element(rows, i);
        ck_assert_str_eq(json_object_get_string_member(r, "workload"), "A");
        ck_assert_int_eq(json_object_get_int_member(r, "threads"), i ? 4 : 2);
        ck_assert_str_eq(json_object_get_string_member(r, "placement"), "fill");
        JsonObject *ratio = json_object_get_object_member(r, "b_over_a");
        double lo = json_object_get_double_member(ratio, "ci95_low"), hi = json_object_get_double_member(ratio, "ci95_high");
        double v = json_object_get_double_member(ratio, "ratio");
        ck_assert_msg(lo > 0 && lo <= v && v <= hi, "row %u: %g [%g, %g]", i, v, lo, hi);
        const char *verdict = json_object_get_string_member(r, "verdict");
        gboolean says = strstr(verdict, "qspin-cmpxchg wins.") || strstr(verdict, "qspin-cmpxchg loses.") ||
                        strstr(verdict, "No significant difference");
        ck_assert_msg(says && strstr(verdict, "Rollback: "), "row %u: %s", i, verdict);
        /* wins/loses agree with the interval */
        if (strstr(verdict, "wins."))
            ck_assert(hi < 1);
        if (strstr(verdict, "loses."))
            ck_assert(lo > 1);
        ck_assert(json_object_has_member(json_object_get_object_member(r, "per_acquisition"), "atomics.failed_cas"));
        ck_assert(json_object_has_member(r, "published") == (i == 0));
        /* the timing axis: two settings, each with a ratio and a verdict, counted in the spread */
        JsonObject *t = json_object_get_object_member(r, "timing");
        JsonArray *settings = json_object_get_array_member(t, "settings");
        ck_assert_uint_eq(json_array_get_length(settings), 2);
        ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(settings, 1), "think"), 100);
        ck_assert_int_eq(json_object_get_int_member(t, "b_wins") + json_object_get_int_member(t, "b_loses") +
                             json_object_get_int_member(t, "even"), 2);
        ck_assert(json_object_get_double_member(t, "min") <= json_object_get_double_member(t, "median"));
        /* the window and the penalty's ends ran; the regimes of each side cover its seeds */
        JsonObject *w = json_object_get_object_member(r, "window");
        ck_assert(json_object_get_double_member(json_object_get_object_member(w, "a"), "acquisitions_per_kcycle") > 0);
        JsonObject *pen = json_object_get_object_member(r, "clear_penalty");
        ck_assert_int_eq(json_object_get_int_member(pen, "floor"), 16);
        ck_assert_int_eq(json_object_get_int_member(pen, "top"), CLEAR_PENALTY_TOP);
        JsonArray *ra = json_object_get_array_member(json_object_get_object_member(r, "regimes"), "a");
        gint64 seeds = 0;
        for (guint k = 0; k < json_array_get_length(ra); k++)
            seeds += json_object_get_int_member(json_array_get_object_element(ra, k), "seeds");
        ck_assert_int_eq(seeds, 3);
    }
    ck_assert_msg(strstr(json_object_get_string_member(o, "summary"), "In short: qspin-cmpxchg against qspin on "
                                                                     "haswell"), "%s",
                  json_object_get_string_member(o, "summary"));
    g_free(out);
    out = NULL;
    /* haswell has SMT and two sockets: by default a row per placement */
    rc = run_qsim_line("compare --threads-list 2 --data B --seeds 2 --iterations 40 -j 1 --timing-seeds 0 "
                       "--check-seeds 0", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "\nB        fill            2  ") && strstr(out, "\nB        smt             2  ") &&
                      strstr(out, "\nB        spread          2  "), "%s", out);
    ck_assert_msg(strstr(out, "Does qspin-cmpxchg beat qspin on haswell?") &&
                      strstr(out, "the seed thread, LKML 2015-10 (workload B)") &&
                      strstr(out, "docs/study-qspin-cmpxchg.md"),
                  "%s", out);
}
END_TEST

/* Regimes: one seed at 124 cycles per acquisition beside nine at 324 (qspin at think 100) is two
 * modes, with their shares; ratios at 0.42, about 1 and about 2.3 are three; one cloud, however
 * wide, and a sample too small to tell, are one. */
START_TEST(test_regimes_synthetic)
{
    SampleModes m;
    guint member[12];
    static const double bistable[] = { 324, 322, 124, 326, 323, 325, 321, 327, 324, 322 };
    sample_modes(bistable, 10, &m, member);
    ck_assert_uint_eq(m.nmodes, 2);
    ck_assert_uint_eq(m.mode[0].n, 1);
    ck_assert_uint_eq(m.mode[1].n, 9);
    ck_assert_double_eq(m.mode[0].mean, 124);
    ck_assert_double_eq_tol(m.mode[1].low, 321, 1e-9);
    ck_assert_double_eq_tol(m.mode[1].high, 327, 1e-9);
    ck_assert_uint_eq(member[2], 0);
    ck_assert_uint_eq(member[0], 1);
    static const double three[] = { 2.45, 0.42, 1.05, 2.15, 1.00, 1.0, 1.05, 1.1, 1.02, 1.08, 2.3, 1.01 };
    sample_modes(three, 12, &m, NULL);
    ck_assert_uint_eq(m.nmodes, 3);
    ck_assert_uint_eq(m.mode[0].n, 1);
    ck_assert_uint_eq(m.mode[1].n, 8);
    ck_assert_uint_eq(m.mode[2].n, 3);
    /* one mode: evenly spread over 30%, a tight cloud, and the bistable pair at 5 seeds (too few) */
    double even[10];
    for (guint i = 0; i < 10; i++)
        even[i] = 100 + 3.0 * i;
    sample_modes(even, 10, &m, NULL);
    ck_assert_uint_eq(m.nmodes, 1);
    static const double tight[] = { 252.0, 251.8, 252.1, 252.0, 251.9, 252.2, 251.7, 252.0 };
    sample_modes(tight, 8, &m, NULL);
    ck_assert_uint_eq(m.nmodes, 1);
    ck_assert_uint_eq(m.mode[0].n, 8);
    sample_modes(bistable, SAMPLE_MODES_MIN_N - 1, &m, NULL);
    ck_assert_uint_eq(m.nmodes, 1);
    /* a gap under 5% is no regime, however tight the two sides */
    static const double close[] = { 100, 100, 100, 100, 100, 104, 104, 104, 104, 104 };
    sample_modes(close, 10, &m, NULL);
    ck_assert_uint_eq(m.nmodes, 1);
}
END_TEST

/* The spread over timings (A, 2 threads on one socket, with the think-50 and think-180 regime
 * at 2.2 in place of 1.37): median, range, who wins where (the 2% band), and the regimes. */
START_TEST(test_timing_spread)
{
    static const double ratio[] = { 1.81, 1.04, 2.36, 0.99, 0.53, 1.01, 2.20, 1.00, 2.07, 1.00, 1.00, 1.00 };
    CompareVerdict v[G_N_ELEMENTS(ratio)];
    for (guint i = 0; i < G_N_ELEMENTS(ratio); i++)
        v[i] = compare_verdict_point(ratio[i]);
    TimingSpread t;
    guint member[G_N_ELEMENTS(ratio)];
    timing_spread(ratio, v, G_N_ELEMENTS(ratio), &t, member);
    ck_assert_uint_eq(t.n, 12);
    ck_assert_double_eq(t.min, 0.53);
    ck_assert_double_eq(t.max, 2.36);
    ck_assert_double_eq_tol(t.median, 1.005, 1e-12);
    ck_assert_uint_eq(t.wins, 1);
    ck_assert_uint_eq(t.loses, 5);
    ck_assert_uint_eq(t.even, 6);
    ck_assert_uint_eq(t.modes.nmodes, 3);
    ck_assert_uint_eq(member[4], 0);     /* 0.53 alone */
    ck_assert_uint_eq(member[2], 2);     /* 2.36 with 1.81, 2.07 and 2.20 */
    ck_assert_uint_eq(t.modes.mode[1].n, 7);
    /* the interval rule of the main table: significant and 2% from 1 */
    RatioStats rs = { .ratio = 1.01, .ci_low = 1.005, .ci_high = 1.015, .significant = TRUE };
    ck_assert_int_eq(compare_verdict_of(&rs), VERDICT_EVEN);
    rs = (RatioStats){ .ratio = 0.9, .ci_low = 0.8, .ci_high = 1.1, .significant = FALSE };
    ck_assert_int_eq(compare_verdict_of(&rs), VERDICT_EVEN);
    ck_assert_int_eq(compare_verdict_point(0.9), VERDICT_B_WINS);
}
END_TEST

/* The penalty line: robust, or where the side flips and to what; the probes halve the gap
 * geometrically until it is within a factor of 1.5. */
START_TEST(test_penalty_line)
{
    PenaltyRange p = { .checked = TRUE, .floor = 16, .top = 500, .configured = 16, .verdict = VERDICT_B_LOSES,
                       .at_floor = { 1.82, 1.81, 1.83, TRUE, INTERVAL_T_LOG },
                       .at_top = { 1.52, 1.46, 1.59, TRUE, INTERVAL_T_LOG }, .robust = TRUE };
    g_autofree char *robust = penalty_range_text(&p, "qspin-cmpxchg");
    ck_assert_str_eq(robust, "Clear penalty 16-500 cycles: robust (b/a 1.82 [1.81, 1.83] at 16, 1.52 [1.46, 1.59] at "
                             "500: qspin-cmpxchg loses at both).");
    p.robust = FALSE;
    p.at_top = (RatioStats){ 0.87, 0.77, 0.98, TRUE, INTERVAL_T_LOG };
    p.holds_to = 211;
    p.flips_at = 262;
    p.flipped = VERDICT_B_WINS;
    p.at_flip = (RatioStats){ 0.97, 0.88, 1.07, FALSE, INTERVAL_T_LOG };
    g_autofree char *flips = penalty_range_text(&p, "qspin-cmpxchg");
    ck_assert_str_eq(flips, "Clear penalty 16-500 cycles: flips at 262 (b/a 0.97 [0.88, 1.07]: qspin-cmpxchg wins, "
                            "where at 16 it is qspin-cmpxchg loses); holds to 211 (b/a 1.82 [1.81, 1.83] at 16, "
                            "0.87 [0.77, 0.98] at 500).");
    p.checked = FALSE;
    ck_assert_ptr_null(penalty_range_text(&p, "x"));
    ck_assert_uint_eq(penalty_probe(16, 500), 89);
    ck_assert_uint_eq(penalty_probe(89, 500), 211);
    ck_assert_uint_eq(penalty_probe(211, 262), 0);
    ck_assert_uint_eq(penalty_probe(500, 16), 89);
}
END_TEST

/* On an x86 machine every row carries the penalty line; on arm64 none (no ordering rollback). */
START_TEST(test_penalty_in_table)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("compare --threads-list 2 --data A --placements fill --seeds 2 --iterations 40 -j 1 "
                           "--timing-seeds 0 --check-seeds 2", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "\n                           Clear penalty 16-500 cycles: "), "%s", out);
    ck_assert_msg(strstr(out, "Window: throughput b/a "), "%s", out);
    g_free(out);
    out = NULL;
    rc = run_qsim_line("compare --config neoverse-n1 --threads-list 2 --data A --placements fill --seeds 2 "
                       "--iterations 40 -j 1 --timing-seeds 0 --check-seeds 2", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(!strstr(out, "Clear penalty"), "%s", out);
}
END_TEST

static const struct {
    const char *line, *err;
} bad[] = {
    { "compare --seeds 1", "--seeds 1: out of range [2, 10000]" },
    { "compare --threads-list 2,x", "--threads-list x: expected a whole number" },
    { "compare --data C", "--data C: one of both, A (same-line), B (separate-line)" },
    { "compare --format csv", "--format takes text or json" },
    { "compare --lock no-such-lock --threads-list 2 --seeds 2 --iterations 5", "no-such-lock" },
    { "compare extra", "unexpected argument 'extra'" },
    { "compare --placements fill,cpus:0,1", "--placements" },
    { "compare --placements round", "--placements round: one of fill, spread, smt" },
    { "compare --thinks 0,x", "--thinks x: expected a whole number" },
    { "compare --jitters 1,2,3,4,5,6,7,8,9", "--jitters 1,2,3,4,5,6,7,8,9: more than 8 values" },
    { "compare --timing-iterations 0", "--timing-iterations 0: out of range" },
};

START_TEST(test_bad_input)
{
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line(bad[_i].line, NULL, &err), 2);
    ck_assert_msg(strstr(err, bad[_i].err), "%s: want '%s' in: %s", bad[_i].line, bad[_i].err, err);
}
END_TEST

Suite *make_compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, test_seed_figures);
    tcase_add_test(tc, test_small_table);
    tcase_add_test(tc, test_regimes_synthetic);
    tcase_add_test(tc, test_timing_spread);
    tcase_add_test(tc, test_penalty_line);
    tcase_add_test(tc, test_penalty_in_table);
    tcase_add_loop_test(tc, test_bad_input, 0, G_N_ELEMENTS(bad));
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

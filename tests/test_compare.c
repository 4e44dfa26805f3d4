/* `qsim compare`: the published figures it quotes, and a small verdict table on the built
 * binary (its shape and what each row says, never how fast it ran). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "sim/run/compare.h"
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
    }
    g_free(out);
    out = NULL;
    /* haswell has SMT and two sockets: by default a row per placement */
    rc = run_qsim_line("compare --threads-list 2 --data B --seeds 2 --iterations 40 -j 1", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "\nB        fill            2  ") && strstr(out, "\nB        smt             2  ") &&
                      strstr(out, "\nB        spread          2  "), "%s", out);
    ck_assert_msg(strstr(out, "Does qspin-cmpxchg beat qspin on haswell?") &&
                      strstr(out, "the seed thread, LKML 2015-10 (workload B)") &&
                      strstr(out, "docs/study-qspin-cmpxchg.md"),
                  "%s", out);
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
    tcase_add_loop_test(tc, test_bad_input, 0, G_N_ELEMENTS(bad));
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

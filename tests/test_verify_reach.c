/* `qsim verify` refuses bounds in range but out of reach (sim/validation/verify_reach.h): at
 * once, with exit 2, the estimate, the limit and what to lower; and a bound at the estimate
 * still runs.  The refusals run in well under a second: the test case's small timeout holds a
 * refusal that came back to searching. */
#include <check.h>
#include <string.h>
#include "tests/run_qsim.h"

static const struct {
    const char *line;
    const char *need, *limit, *lower;
} refused[] = {
    /* the bounds, under both engines' defaults */
    { "verify --lock tas --threads 4096 --arch arm64", "the execution-graph search needs at least 10^27270 executions",
      "more than --max-states 250000", "(at most 5 threads at --iterations 2)" },
    { "verify --lock tas --threads 4096", "the state search needs at least 10^1954 states",
      "more than --max-states 20000000", "(at most 15 threads at --iterations 2)" },
    { "verify --lock tas --iterations 100000000 --arch arm64",
      "the graph engine does not take it (at least 600000000 events per thread, 6 per acquisition, more than its "
      "502), and the state search it goes to needs at least 10000000200000001 states",
      "more than --max-states 250000", "(at most 499 iterations at --threads 2)" },
    { "verify --lock tas --iterations 100000000 --model tso", "the state search needs at least 10000000200000001 states",
      "more than --max-states 20000000", "(at most 4471 iterations at --threads 2)" },
    /* just past the estimate: 3^2 states; 6! / 2!^3 orders of three threads' two acquisitions */
    { "verify --lock tas --iterations 2 --max-states 8", "needs at least 9 states", "more than --max-states 8",
      "(at most 1 thread at --iterations 2, or at most 1 iteration at --threads 2), or raise --max-states to 9" },
    { "verify --lock tas --arch arm64 --threads 3 --iterations 2 --max-states 89", "needs at least 90 executions",
      "more than --max-states 89", "or raise --max-states to 90" },
};

START_TEST(test_refused)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(refused[_i].line, &out, &err);
    ck_assert_msg(rc == 2, "qsim %s: exit %d: %s%s", refused[_i].line, rc, out, err);
    ck_assert_msg(strstr(err, "is out of reach: "), "%s", err);
    ck_assert_msg(strstr(err, refused[_i].need), "%s", err);
    ck_assert_msg(strstr(err, refused[_i].limit), "%s", err);
    ck_assert_msg(strstr(err, refused[_i].lower), "%s", err);
    ck_assert_str_eq(out, "");
}
END_TEST

/* At the estimate the search runs (to a verdict or a cut, never a refusal). */
static const char *const kept[] = {
    "verify --lock tas --iterations 2 --max-states 9",
    "verify --lock tas --arch arm64 --threads 3 --iterations 2 --max-states 90",
};

START_TEST(test_at_the_estimate_runs)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(kept[_i], &out, &err);
    ck_assert_msg(rc == 0 || rc == 1, "qsim %s: exit %d: %s%s", kept[_i], rc, out, err);
    ck_assert_msg(!strstr(err, "out of reach"), "%s", err);
    ck_assert_msg(strstr(out, "tas: "), "%s", out);
}
END_TEST

Suite *make_verify_reach_suite(void)
{
    Suite *s = suite_create("verify_reach");
    TCase *tc = tcase_create("refusal");
    tcase_set_timeout(tc, 5);
    tcase_add_loop_test(tc, test_refused, 0, G_N_ELEMENTS(refused));
    tcase_add_loop_test(tc, test_at_the_estimate_runs, 0, G_N_ELEMENTS(kept));
    suite_add_tcase(s, tc);
    return s;
}

/* The test runner itself (tests/check_main.c): it selects suites by name, refuses a name it does
 * not know (so a typo in the Makefile's ASAN_SUITES fails instead of silently testing less), and
 * gives a case without its own timeout a generous one instead of Check's 4 s. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "tests/run_qsim.h"

/* Runs this test program (the runner) with `args`; returns its exit status. */
static int run_runner(const char *const *args, char **out, char **err)
{
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    ck_assert(self);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, self);
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (char *)args[i]);
    g_ptr_array_add(argv, NULL);
    int status = -1;
    g_autoptr(GError) error = NULL;
    ck_assert_msg(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status,
                               &error),
                  "%s", error ? error->message : "");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(test_lists_suites)
{
    g_autofree char *out = NULL;
    const char *args[] = { "--list", NULL };
    ck_assert_int_eq(run_runner(args, &out, NULL), 0);
    g_auto(GStrv) names = g_strsplit(g_strchomp(out), "\n", -1);
    ck_assert_uint_ge(g_strv_length(names), 20);
    ck_assert(g_strv_contains((const char *const *)names, "runner"));
    ck_assert(g_strv_contains((const char *const *)names, "litmus_machine"));
}
END_TEST

START_TEST(test_runs_only_named_suites)
{
    g_autofree char *out = NULL, *err = NULL;
    const char *args[] = { "report", "placement", NULL };
    ck_assert_int_eq(run_runner(args, &out, &err), 0);
    ck_assert_msg(strstr(out, "placement") && strstr(out, "report") && !strstr(out, "litmus_machine"), "%s", out);
}
END_TEST

START_TEST(test_unknown_suite_refused)
{
    g_autofree char *err = NULL;
    const char *args[] = { "report", "coh_lantency", NULL };
    ck_assert_int_eq(run_runner(args, NULL, &err), 2);
    ck_assert_msg(strstr(err, "no suite `coh_lantency`"), "%s", err);
}
END_TEST

/* The runner's default (or the caller's own) reached this test's environment. */
START_TEST(test_default_timeout_is_set)
{
    ck_assert(g_getenv("CK_DEFAULT_TIMEOUT"));
}
END_TEST

Suite *make_runner_suite(void)
{
    Suite *s = suite_create("runner");
    TCase *tc = tcase_create("selection");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_lists_suites);
    tcase_add_test(tc, test_runs_only_named_suites);
    tcase_add_test(tc, test_unknown_suite_refused);
    tcase_add_test(tc, test_default_timeout_is_set);
    suite_add_tcase(s, tc);
    return s;
}

#include <check.h>
#include <stdio.h>
#include <glib.h>
#include "tests/skip.h"

void qsim_test_skip(const char *test, const char *why)
{
    fprintf(stderr, "skipped: %s: %s\n", test, why);
    const char *path = g_getenv("QSIM_TEST_SKIPS");
    FILE *f = path ? fopen(path, "a") : NULL;
    ck_assert_msg(!path || f, "cannot append to QSIM_TEST_SKIPS=%s", path);
    if (f) {
        fprintf(f, "%s: %s\n", test, why);
        fclose(f);
    }
}

void qsim_test_skip_or_fail(const char *test, const char *why)
{
    if (!g_strcmp0(g_getenv("CI"), "true"))
        ck_abort_msg("%s: %s (CI=true: no test may skip)", test, why);
    qsim_test_skip(test, why);
}

unsigned qsim_test_skips_counted(const char *path)
{
    g_autofree char *text = NULL;
    if (!path || !g_file_get_contents(path, &text, NULL, NULL))
        return 0;
    unsigned n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    return n;
}

#include <check.h>
#include <string.h>
#include <glib.h>
#include "tests/golden.h"
#include "tests/run_qsim.h"

void golden_check(const char *name, const char *actual)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "tests", "golden", name, NULL);
    if (!g_strcmp0(g_getenv("QSIM_UPDATE_GOLDEN"), "1")) {
        g_autoptr(GError) error = NULL;
        ck_assert_msg(g_file_set_contents(path, actual, -1, &error), "%s: %s", path, error ? error->message : "?");
        return;
    }
    g_autofree char *expected = NULL;
    ck_assert_msg(g_file_get_contents(path, &expected, NULL, NULL), "tests/golden/%s missing (make golden)", name);
    if (!strcmp(expected, actual))
        return;
    g_auto(GStrv) a = g_strsplit(expected, "\n", -1), b = g_strsplit(actual, "\n", -1);
    guint i = 0;
    while (a[i] && b[i] && !strcmp(a[i], b[i]))
        i++;
    ck_abort_msg("tests/golden/%s differs at line %u:\n  expected: %s\n  actual:   %s\n(after a change meant to "
                 "change it: make golden, and read the diff)", name, i + 1, a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
}

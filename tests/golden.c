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
    /* The first lines that differ, by line number, as - expected / + actual: enough to say what
     * moved, within the length of a Check message (lines clipped, at most 5 shown). */
    g_auto(GStrv) a = g_strsplit(expected, "\n", -1), b = g_strsplit(actual, "\n", -1);
    guint i = 0;
    while (a[i] && b[i] && !strcmp(a[i], b[i]))
        i++;
    g_autoptr(GString) diff = g_string_new(NULL);
    guint shown = 0;
    for (guint k = i; (k < g_strv_length(a) || k < g_strv_length(b)) && shown < 5; k++) {
        const char *e = k < g_strv_length(a) ? a[k] : NULL, *g = k < g_strv_length(b) ? b[k] : NULL;
        if (e && g && !strcmp(e, g))
            continue;
        g_string_append_printf(diff, "  line %u:\n    - %.200s\n    + %.200s\n", k + 1, e ? e : "(end)",
                               g ? g : "(end)");
        shown++;
    }
    ck_abort_msg("tests/golden/%s differs from the output, first at line %u (%u lines expected, %u now):\n%s"
                 "(after a change meant to change it: make golden, and read the diff)", name, i + 1,
                 g_strv_length(a), g_strv_length(b), diff->str);
}

/* The README's examples work when pasted: every `./qsim ...` line of its "Using qsim" block runs
 * as written (from a folder holding the tree's tests/, locks/, sweeps/, configs/ and scenarios/,
 * so files it writes land there) and exits 0, except the few that take minutes, which are named below with the
 * suite that runs them.  An example that drifts from the options fails here. */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

/* Examples too long for make check, each run by its own suite (the prefix identifies the line). */
static const struct {
    const char *prefix, *where;
} elsewhere[] = {
    { "./qsim compare", "compare (a small table), and `make run` itself" },
    { "./qsim calibrate", "calibrate (a quick calibration)" },
    { "./qsim validate --host", "validate_host (a small run)" },
    { "./qsim litmus tests/litmus/x86/*.litmus", "litmus_machine (the same catalogue, fewer runs)" },
    { "./qsim sweep sweeps/pause.yaml", "sweep (a small sweep with --plot)" },
    { "./qsim man | man", "cli_docs (the page itself; `man` may not be installed)" },
    { "source <(", "cli_docs (the completion script run by bash)" },
};

/* The README's "Using qsim" block, a line per example without its comment. */
static GPtrArray *examples(void)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "README.md", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    const char *start = strstr(text, "## Using qsim");
    ck_assert_ptr_nonnull(start);
    const char *block = strstr(start, "```sh\n");
    ck_assert_ptr_nonnull(block);
    block += strlen("```sh\n");
    const char *end = strstr(block, "```");
    ck_assert_ptr_nonnull(end);
    g_autofree char *body = g_strndup(block, end - block);
    g_auto(GStrv) lines = g_strsplit(body, "\n", -1);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; lines[i]; i++) {
        char *hash = strstr(lines[i], "  #");
        if (hash)
            *hash = 0;
        g_strstrip(lines[i]);
        if (*lines[i])
            g_ptr_array_add(out, g_strdup(lines[i]));
    }
    return out;
}

START_TEST(test_examples_run)
{
    g_autoptr(GPtrArray) ex = examples();
    ck_assert_uint_ge(ex->len, 15);
    g_autofree char *dir = tmpdir();
    static const char *const links[] = { "tests", "locks", "sweeps", "configs", "scenarios" };
    for (guint i = 0; i < G_N_ELEMENTS(links); i++) {
        g_autofree char *to = g_build_filename(test_srcdir(), links[i], NULL);
        g_autofree char *at = g_build_filename(dir, links[i], NULL);
        ck_assert(symlink(to, at) == 0);
    }
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *qsim = bin ? g_strdup(bin) : g_build_filename(test_srcdir(), "qsim", NULL);
    g_autofree char *here = g_build_filename(dir, "qsim", NULL);
    ck_assert(symlink(qsim, here) == 0);
    guint ran = 0;
    for (guint i = 0; i < ex->len; i++) {
        const char *line = ex->pdata[i];
        gboolean skip = FALSE;
        for (guint k = 0; k < G_N_ELEMENTS(elsewhere) && !skip; k++)
            skip = g_str_has_prefix(line, elsewhere[k].prefix);
        if (skip)
            continue;
        ck_assert_msg(g_str_has_prefix(line, "./qsim "), "README example '%s' is not a ./qsim line", line);
        const char *argv[] = { "sh", "-c", line, NULL };
        g_autofree char *out = NULL, *err = NULL;
        int status = -1;
        g_autoptr(GError) e = NULL;
        ck_assert_msg(g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, &e),
                      "%s", e ? e->message : "");
        ck_assert_msg(g_spawn_check_wait_status(status, NULL), "README example `%s` failed:\n%s", line, err);
        ran++;
    }
    ck_assert_uint_ge(ran, 12);
    rm_rf(dir);
}
END_TEST

Suite *make_readme_suite(void)
{
    Suite *s = suite_create("readme");
    TCase *tc = tcase_create("examples");
    tcase_add_test(tc, test_examples_run);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    return s;
}

/* Temporary folders and files for the tests (tests/temp_files.h). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "tests/temp_files.h"

/* The folders this test process made: removed when it exits (Check runs each test in a child
 * that exits after it, passed or failed), so that no test leaves one behind in /tmp, whether or
 * not it calls rm_rf itself.  QSIM_KEEP_TEMP=1 keeps them, to look at a failure. */
static GPtrArray *made;
static gboolean exiting;

static void remove_made(void)
{
    exiting = TRUE; /* no test is left to fail */
    for (guint i = 0; i < made->len; i++)
        rm_rf(made->pdata[i]);
    g_ptr_array_free(made, TRUE);
    made = NULL;
}

char *tmpdir(void)
{
    char *d = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    ck_assert_msg(d, "cannot make a temporary folder");
    if (!g_getenv("QSIM_KEEP_TEMP")) {
        if (!made) {
            made = g_ptr_array_new_with_free_func(g_free);
            atexit(remove_made);
        }
        g_ptr_array_add(made, g_strdup(d));
    }
    return d;
}

char *write_bytes(const char *dir, const char *name, const char *data, gsize len)
{
    char *p = g_build_filename(dir, name, NULL);
    ck_assert_msg(g_file_set_contents(p, data, (gssize)len, NULL), "cannot write %s", p);
    return p;
}

char *write_file(const char *dir, const char *name, const char *text)
{
    return write_bytes(dir, name, text, strlen(text));
}

char *slurp(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(p, &text, NULL, NULL), "cannot read %s", p);
    return text;
}

void rm_rf(const char *dir)
{
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
    if (system(cmd) != 0 && !exiting)
        ck_abort_msg("%s failed", cmd);
}

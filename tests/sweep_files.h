/* Test helper of the sweep suites (test_sweep.c, test_sweep_input.c): a temporary folder, files
 * in it, and its removal. */
#ifndef QSIM_TEST_SWEEP_FILES_H
#define QSIM_TEST_SWEEP_FILES_H

#include <check.h>
#include <stdlib.h>
#include <glib.h>

static inline char *tmpdir(void)
{
    char *d = g_dir_make_tmp("qsim-sweep-XXXXXX", NULL);
    ck_assert(d);
    return d;
}

/* DIR/NAME holding `text`; the path. */
static inline char *write_file(const char *dir, const char *name, const char *text)
{
    char *p = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(p, text, -1, NULL));
    return p;
}

static inline char *slurp(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(p, &text, NULL, NULL), "cannot read %s", p);
    return text;
}

static inline void rm_rf(const char *dir)
{
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

#endif

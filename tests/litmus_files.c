#include <string.h>
#include "tests/litmus_files.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"

const char *herd_dir(void)
{
    static char *dir;
    const char *d = g_getenv("QSIM_HERD_CATALOGUE");
    if (d)
        return d;
    if (!dir)
        dir = g_build_filename(test_srcdir(), "..", "shared", "herd-catalogue", NULL);
    return dir;
}

gboolean herd_catalogue_or_skip(const char *test)
{
    if (g_file_test(herd_dir(), G_FILE_TEST_IS_DIR))
        return TRUE;
    g_autofree char *why = g_strdup_printf("herd's catalogue is not at %s (set QSIM_HERD_CATALOGUE)", herd_dir());
    qsim_test_skip_or_fail(test, why);
    return FALSE;
}

char *own_litmus_dir(const char *arch)
{
    return g_build_filename(test_srcdir(), "tests", "litmus", arch, NULL);
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *litmus_files(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return NULL;
    GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d)))
        if (g_str_has_suffix(name, ".litmus"))
            g_ptr_array_add(files, g_build_filename(dir, name, NULL));
    g_dir_close(d);
    g_ptr_array_sort(files, by_name);
    return files;
}

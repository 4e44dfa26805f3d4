/* Lock lookup (see lock_find.h). */
#include <string.h>
#include "sim/workload/lock_find.h"
#include "sim/base/config.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"
#include "sim/cfront/cfront.h"

#define LOCK_EXT ".qs"

char *source_find(const char *name, const char *kind, const char *subdir, const char *env, GError **error)
{
    gboolean has_ext = g_str_has_suffix(name, LOCK_EXT);
    if (strchr(name, '/') || (has_ext && g_file_test(name, G_FILE_TEST_EXISTS))) {
        if (!g_file_test(name, G_FILE_TEST_EXISTS)) {
            g_autofree char *shown = echo_clip(name);
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: no such %s file", shown, kind);
            return NULL;
        }
        /* There, but perhaps a device or a huge file: refused here, before anyone reads it. */
        if (!input_file_check(name, INPUT_LOCK, error))
            return NULL;
        return g_strdup(name);
    }
    char *found = config_search_file(subdir, name, LOCK_EXT);
    if (found)
        return found;
    g_autofree char *hint = config_not_found_hint(name, subdir, LOCK_EXT);
    g_autofree char *shown = echo_clip(name);
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                "no built-in %s `%s`%s (`qsim list %s` shows them; %s adds folders; a path to a .qs file works too)",
                kind, shown, hint, subdir, env);
    return NULL;
}

char *lock_find(const char *name, GError **error)
{
    /* A C lock is always a file of the user's (the lock folders hold ISA sources). */
    if (cfront_is_c_path(name) && !strchr(name, '/') && g_file_test(name, G_FILE_TEST_EXISTS)) {
        if (!input_file_check(name, INPUT_LOCK, error))
            return NULL;
        return g_strdup(name);
    }
    return source_find(name, "lock", "locks", "$QSIM_LOCK_PATH", error);
}

gboolean lock_read(const char *path, ArchTarget target, char **text, GError **error)
{
    if (!cfront_is_c_path(path))
        return input_file_read(path, INPUT_LOCK, text, NULL, error);
    if (!input_file_check(path, INPUT_LOCK, error))
        return FALSE;
    *text = cfront_translate_file(path, target, error);
    return *text != NULL;
}

GPtrArray *lock_names(void)
{
    return config_search_names("locks", LOCK_EXT, NULL);
}

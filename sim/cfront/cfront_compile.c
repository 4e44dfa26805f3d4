/* The compiler driver and its cache (see cfront_compile.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/cfront/cfront.h"
#include "sim/cfront/cfront_compile.h"
#include "sim/base/echo.h"

const char *const cfront_base_flags[] = {
    "-S", "-O2", "-g", "-fno-pic", "-ftls-model=local-exec", "-fno-asynchronous-unwind-tables",
    "-fno-stack-protector", "-fcf-protection=none", "-mgeneral-regs-only", NULL,
};

/* What the command line named (cfront_set_compiler): the compiler's words and the extra flags,
 * each NULL when not named.  Set once, before any lock is read. */
static GStrv user_cc, user_cflags;

gboolean cfront_set_compiler(const char *cc, const char *cflags, GError **error)
{
    GStrv cc_words = NULL, flag_words = NULL;
    GError *local = NULL;
    if (cc && !g_shell_parse_argv(cc, NULL, &cc_words, &local)) {
        g_autofree char *said = echo_clip(cc);
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILER, "--cc `%s` is not a command line: %s", said,
                    local->message);
        g_error_free(local);
        return FALSE;
    }
    /* An empty --cflags is no flags (g_shell_parse_argv refuses an empty text). */
    g_autofree char *stripped = cflags ? g_strstrip(g_strdup(cflags)) : NULL;
    if (stripped && *stripped && !g_shell_parse_argv(cflags, NULL, &flag_words, &local)) {
        g_autofree char *said = echo_clip(cflags);
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILER, "--cflags `%s` is not a list of flags: %s", said,
                    local->message);
        g_error_free(local);
        g_strfreev(cc_words);
        return FALSE;
    }
    g_strfreev(user_cc);
    g_strfreev(user_cflags);
    user_cc = cc_words;
    user_cflags = flag_words;
    return TRUE;
}

const char *cfront_compiler_name(const char *cc_default)
{
    return user_cc ? user_cc[0] : cc_default;
}

/* --cc, else $cc_env as a command line, else cc_default, resolved in PATH. */
static GStrv find_compiler(const char *cc_env, const char *cc_default, GError **error)
{
    GStrv argv = NULL;
    if (user_cc) {
        argv = g_strdupv(user_cc);
        g_autofree char *found = g_find_program_in_path(argv[0]);
        if (!found) {
            g_autofree char *said = echo_clip(argv[0]);
            g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILER,
                        "--cc %s: not a program in PATH (--cc names the C compiler for a lock in C, e.g. "
                        "--cc gcc-12 or --cc \"ccache gcc\")", said);
            g_strfreev(argv);
            return NULL;
        }
        g_free(argv[0]);
        argv[0] = g_steal_pointer(&found);
        return argv;
    }
    const char *cc = g_getenv(cc_env);
    if (!cc || !*cc)
        cc = cc_default;
    if (!g_shell_parse_argv(cc, NULL, &argv, NULL)) {
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILER, "$%s (%s) is not a command line", cc_env, cc);
        return NULL;
    }
    g_autofree char *found = g_find_program_in_path(argv[0]);
    if (!found) {
        /* Debian names a cross compiler TRIPLE-gcc's package gcc-TRIPLE. */
        g_autofree char *pkg = g_str_has_suffix(cc_default, "-gcc")
                                   ? g_strdup_printf("gcc-%.*s", (int)strlen(cc_default) - 4, cc_default)
                                   : g_strdup(cc_default);
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILER,
                    "no C compiler found: `%s` is not in PATH (a lock in C is compiled with GCC; install %s, or "
                    "set $%s)", argv[0], pkg, cc_env);
        g_strfreev(argv);
        return NULL;
    }
    g_free(argv[0]);
    argv[0] = g_steal_pointer(&found);
    return argv;
}

/* Runs argv; its stdout in *out (when asked), its stderr in *err_text.  FALSE with an error when
 * it could not run; *ok says whether it exited 0. */
static gboolean spawn(char **argv, char **out, char **err_text, gboolean *ok, GError **error)
{
    int status = 0;
    if (!g_spawn_sync(NULL, argv, NULL, out ? 0 : G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, out, err_text, &status,
                      error))
        return FALSE;
    *ok = g_spawn_check_wait_status(status, NULL);
    return TRUE;
}

static char *cache_dir(void)
{
    const char *xdg = g_getenv("XDG_CACHE_HOME");
    g_autofree char *base = xdg && g_path_is_absolute(xdg) ? g_strdup(xdg)
                                                           : g_build_filename(g_get_home_dir(), ".cache", NULL);
    char *dir = g_build_filename(base, "qsim", "cfront", NULL);
    if (g_mkdir_with_parents(dir, 0700) != 0 || g_access(dir, W_OK | X_OK) != 0) {
        g_free(dir);
        return NULL;
    }
    return dir;
}

static void add(GChecksum *sum, const char *s) { g_checksum_update(sum, (const guchar *)s, (gssize)strlen(s) + 1); }

char *cfront_compile(const char *path, const char *cc_env, const char *cc_default, const char *const *target_flags,
                     GError **error)
{
    g_auto(GStrv) cc = find_compiler(cc_env, cc_default, error);
    if (!cc)
        return NULL;
    g_autofree char *source = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &source, &len, error))
        return NULL;
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    for (guint i = 0; cc[i]; i++)
        g_ptr_array_add(argv, cc[i]);
    for (guint i = 0; cfront_base_flags[i]; i++)
        g_ptr_array_add(argv, (char *)cfront_base_flags[i]);
    for (guint i = 0; target_flags && target_flags[i]; i++)
        g_ptr_array_add(argv, (char *)target_flags[i]);
    /* After the target's: GCC takes the last of flags that disagree, so --cflags overrides. */
    for (guint i = 0; user_cflags && user_cflags[i]; i++)
        g_ptr_array_add(argv, user_cflags[i]);
    g_ptr_array_add(argv, "-o");
    g_ptr_array_add(argv, "-");
    g_ptr_array_add(argv, (char *)path);
    g_ptr_array_add(argv, NULL);

    /* The key: source, path (the assembly names it), command, flags, the compiler's version. */
    g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
    add(sum, "qsim cfront 1");
    for (guint i = 0; argv->pdata[i]; i++)
        add(sum, argv->pdata[i]);
    g_checksum_update(sum, (const guchar *)source, (gssize)len);
    char *version_argv[] = { cc[0], "--version", NULL };
    g_autofree char *version = NULL;
    gboolean ok = FALSE;
    if (spawn(version_argv, &version, NULL, &ok, NULL) && ok)
        add(sum, version);
    g_autofree char *dir = cache_dir();
    g_autofree char *name = g_strconcat(g_checksum_get_string(sum), ".s", NULL);
    g_autofree char *cached = dir ? g_build_filename(dir, name, NULL) : NULL;
    char *text = NULL;
    if (cached && g_file_get_contents(cached, &text, NULL, NULL))
        return text;

    g_autofree char *err_text = NULL;
    GError *spawn_err = NULL;
    if (!spawn((char **)argv->pdata, &text, &err_text, &ok, &spawn_err)) {
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILER, "%s: cannot run %s: %s", path, cc[0],
                    spawn_err->message);
        g_error_free(spawn_err);
        return NULL;
    }
    if (!ok) {
        g_free(text);
        g_strchomp(err_text);
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_COMPILE, "%s", err_text && *err_text ? err_text
                                                                                            : "the C compiler failed");
        return NULL;
    }
    if (cached) {
        /* Written aside and renamed: a reader never sees half a file. */
        g_autofree char *tmp = g_strdup_printf("%s.%d.tmp", cached, (int)getpid());
        if (g_file_set_contents(tmp, text, -1, NULL) && g_rename(tmp, cached) != 0)
            g_unlink(tmp);
    }
    return text;
}

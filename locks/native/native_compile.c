/* Run-time compilation and its cache (see native_compile.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "locks/native/native_abi.h"
#include "locks/native/native_compile.h"
#include "locks/native/native_host.h"

/* How the translated unit is compiled: position-independent, into a shared object. */
static const char *const compile_flags[] = { "-std=gnu11", "-O2", "-fPIC", "-shared", NULL };

struct NativeModule {
    void *dl;
};

GStrv native_find_compiler(GError **error)
{
    const char *cc = g_getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    GStrv argv = NULL;
    if (!g_shell_parse_argv(cc, NULL, &argv, NULL)) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER, "$CC (%s) is not a command line", cc);
        return NULL;
    }
    g_autofree char *found = g_find_program_in_path(argv[0]);
    if (!found) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER,
                    "no C compiler found: `%s` is not in PATH (native runs compile the lock with its "
                    "harness at run time; install gcc or clang, or set $CC)", argv[0]);
        g_strfreev(argv);
        return NULL;
    }
    g_free(argv[0]);
    argv[0] = g_steal_pointer(&found);
    return argv;
}

char *native_cache_dir(void)
{
    /* XDG: a relative $XDG_CACHE_HOME is invalid and ignored. */
    const char *xdg = g_getenv("XDG_CACHE_HOME");
    g_autofree char *base = xdg && g_path_is_absolute(xdg) ? g_strdup(xdg)
                                                           : g_build_filename(g_get_home_dir(), ".cache", NULL);
    char *dir = g_build_filename(base, "qsim", "native", NULL);
    if (g_mkdir_with_parents(dir, 0700) != 0 || g_access(dir, W_OK | X_OK) != 0) {
        g_free(dir);
        return NULL;
    }
    return dir;
}

/* The cache key: everything that decides the object's contents. */
static char *cache_key(const char *csrc, const char *const *cc)
{
    g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_autofree char *abi = g_strdup_printf("qsim native abi %d\n", QN_ABI_VERSION);
    g_checksum_update(sum, (const guchar *)abi, -1);
    for (guint i = 0; cc[i]; i++)
        g_checksum_update(sum, (const guchar *)cc[i], (gssize)strlen(cc[i]) + 1);
    for (guint i = 0; compile_flags[i]; i++)
        g_checksum_update(sum, (const guchar *)compile_flags[i], (gssize)strlen(compile_flags[i]) + 1);
    g_checksum_update(sum, (const guchar *)csrc, -1);
    return g_strdup(g_checksum_get_string(sum));
}

/* Writes `csrc` to c_path and compiles it into so_path, in folder `dir`. */
static gboolean compile(const char *csrc, const char *const *cc, const char *dir, const char *c_path,
                        const char *so_path, const char *what, GError **error)
{
    if (!g_file_set_contents(c_path, csrc, -1, error))
        return FALSE;
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    for (guint i = 0; cc[i]; i++)
        g_ptr_array_add(argv, (char *)cc[i]);
    for (guint i = 0; compile_flags[i]; i++)
        g_ptr_array_add(argv, (char *)compile_flags[i]);
    g_ptr_array_add(argv, "-o");
    g_ptr_array_add(argv, (char *)so_path);
    g_ptr_array_add(argv, (char *)c_path);
    g_ptr_array_add(argv, NULL);
    g_autofree char *err_text = NULL;
    int status = 0;
    GError *spawn_err = NULL;
    if (!g_spawn_sync(dir, (char **)argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                      &err_text, &status, &spawn_err)) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER, "%s: cannot run %s: %s", what, cc[0],
                    spawn_err->message);
        g_error_free(spawn_err);
        return FALSE;
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER,
                    "%s: the C compiler (%s) failed on the translated program:\n%s", what, cc[0],
                    err_text ? err_text : "");
        return FALSE;
    }
    return TRUE;
}

static NativeModule *open_module(const char *so_path, const char *what, GError **error)
{
    void *dl = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_LOAD, "%s: dlopen: %s", what, dlerror());
        return NULL;
    }
    NativeModule *m = g_new0(NativeModule, 1);
    m->dl = dl;
    return m;
}

/* Removes a build folder and whatever a failed build left in it. */
static void remove_build_dir(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *f;
    while (d && (f = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, f, NULL);
        g_unlink(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

/* Through the cache: a hit loads; a miss (or an object that does not load) compiles in a
 * private folder and renames the results into place.  *usable is FALSE when the cache could
 * not be used at all (no error set then). */
static NativeModule *load_cached(const char *csrc, const char *const *cc, const char *what,
                                 gboolean *usable, GError **error)
{
    *usable = FALSE;
    g_autofree char *dir = native_cache_dir();
    if (!dir)
        return NULL;
    g_autofree char *key = cache_key(csrc, cc);
    g_autofree char *so_name = g_strconcat(key, ".so", NULL);
    g_autofree char *c_name = g_strconcat(key, ".c", NULL);
    g_autofree char *so_path = g_build_filename(dir, so_name, NULL);
    g_autofree char *c_path = g_build_filename(dir, c_name, NULL);
    if (g_file_test(so_path, G_FILE_TEST_IS_REGULAR)) {
        NativeModule *m = open_module(so_path, what, NULL);
        if (m) {
            *usable = TRUE;
            return m;
        }
    }
    g_autofree char *work = g_build_filename(dir, "build-XXXXXX", NULL);
    if (!g_mkdtemp_full(work, 0700))
        return NULL;
    *usable = TRUE;
    g_autofree char *work_c = g_build_filename(work, "program.c", NULL);
    g_autofree char *work_so = g_build_filename(work, "program.so", NULL);
    gboolean ok = compile(csrc, cc, work, work_c, work_so, what, error);
    if (ok && (g_rename(work_c, c_path) != 0 || g_rename(work_so, so_path) != 0)) {
        int e = errno;
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_SYSTEM, "%s: cannot store the compiled program in %s: %s",
                    what, dir, g_strerror(e));
        ok = FALSE;
    }
    remove_build_dir(work);
    return ok ? open_module(so_path, what, error) : NULL;
}

NativeModule *native_module_load(const char *csrc, const char *const *cc, const char *what,
                                 GError **error)
{
    gboolean usable;
    NativeModule *m = load_cached(csrc, cc, what, &usable, error);
    if (m || usable)
        return m;
    /* No cache: build in a private temporary folder, load, remove. */
    g_autofree char *dir = g_dir_make_tmp("qsim-native-XXXXXX", error);
    if (!dir)
        return NULL;
    g_autofree char *c_path = g_build_filename(dir, "program.c", NULL);
    g_autofree char *so_path = g_build_filename(dir, "program.so", NULL);
    if (compile(csrc, cc, dir, c_path, so_path, what, error))
        m = open_module(so_path, what, error);
    remove_build_dir(dir);
    return m;
}

void *native_module_symbol(const NativeModule *m, const char *name)
{
    return dlsym(m->dl, name);
}

void native_module_free(NativeModule *m)
{
    if (!m)
        return;
    dlclose(m->dl);
    g_free(m);
}

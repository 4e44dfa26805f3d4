#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <json-glib/json-glib.h>
#include "tests/run_qsim.h"

const char *test_srcdir(void)
{
    const char *s = g_getenv("QSIM_SRCDIR");
    return s ? s : QSIM_SRCDIR;
}

gboolean test_scale_quick(void)
{
    return !g_strcmp0(g_getenv("QSIM_TEST_SCALE"), "quick");
}

/* In the child, after its standard streams are set up and before exec. */
static void child_limits(gpointer data)
{
    guint flags = GPOINTER_TO_UINT(data);
    if (flags & RUN_QSIM_LIMITED) {
        struct rlimit cpu = { 20, 20 };
        setrlimit(RLIMIT_CPU, &cpu);
        /* The sanitizers reserve terabytes of shadow memory up front: no address-space limit
         * there (the CPU limit still stops a runaway). */
        const char *bin = g_getenv("QSIM_BIN");
        if (!bin || !strstr(bin, "/asan/")) {
            struct rlimit as = { 3ull << 30, 3ull << 30 };
            setrlimit(RLIMIT_AS, &as);
        }
    }
    if (flags & RUN_QSIM_FILES_4K) {
        /* ignored, SIGXFSZ stays ignored across exec, and the write returns EFBIG instead of
         * killing the process */
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit fsize = { 4096, 4096 };
        setrlimit(RLIMIT_FSIZE, &fsize);
    }
    if (flags & (RUN_QSIM_STDOUT_FULL | RUN_QSIM_STDERR_FULL)) {
        int fd = open("/dev/full", O_WRONLY);
        if (fd >= 0) {
            if (flags & RUN_QSIM_STDOUT_FULL)
                dup2(fd, STDOUT_FILENO);
            if (flags & RUN_QSIM_STDERR_FULL)
                dup2(fd, STDERR_FILENO);
            close(fd);
        }
    }
    if (flags & RUN_QSIM_WALL)
        alarm(120);
}

int run_qsim(const char *const *args, char **out, char **err)
{
    return run_qsim_with(args, 0, out, err);
}

int run_qsim_with(const char *const *args, guint flags, char **out, char **err)
{
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *fallback = g_build_filename(test_srcdir(), "qsim", NULL);
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)(bin ? bin : fallback));
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (char *)args[i]);
    g_ptr_array_add(argv, NULL);
    int status = -1;
    GError *error = NULL;
    char *o = NULL, *e = NULL;
    g_assert(!(out && (flags & RUN_QSIM_STDOUT_FULL)) && !(err && (flags & RUN_QSIM_STDERR_FULL)));
    gboolean ok = g_spawn_sync(test_srcdir(), (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, child_limits,
                               GUINT_TO_POINTER(flags), (flags & RUN_QSIM_STDOUT_FULL) ? NULL : &o,
                               (flags & RUN_QSIM_STDERR_FULL) ? NULL : &e, &status, &error);
    g_ptr_array_free(argv, TRUE);
    ck_assert_msg(ok, "could not run qsim: %s", error ? error->message : "?");
    if (out)
        *out = o;
    else
        g_free(o);
    if (err)
        *err = e;
    else
        g_free(e);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_qsim_line(const char *line, char **out, char **err)
{
    g_auto(GStrv) args = g_strsplit(line, " ", -1);
    return run_qsim((const char *const *)args, out, err);
}

char *report_without_provenance(const char *json)
{
    g_autoptr(JsonParser) p = json_parser_new();
    if (!json_parser_load_from_data(p, json, -1, NULL) || !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p)))
        return NULL;
    JsonNode *root = json_parser_get_root(p);
    json_object_remove_member(json_node_get_object(root), "provenance");
    return json_to_string(root, TRUE);
}

/* Runs a fuzz target's entry point over files, without libFuzzer: `make check` feeds it each
 * target's corpus under the sanitizer build, so no clang is needed there.  Arguments are files
 * or folders (every regular file in a folder, in name order). */
#include <string.h>
#include "tests/fuzz/fuzz.h"

static guint run_file(const char *path)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    g_autoptr(GError) error = NULL;
    if (!g_file_get_contents(path, &data, &len, &error)) {
        fprintf(stderr, "fuzz driver: %s\n", error->message);
        exit(2);
    }
    LLVMFuzzerTestOneInput((const uint8_t *)data, len);
    return 1;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    guint n = 0;
    for (int i = 1; i < argc; i++) {
        if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
            n += run_file(argv[i]);
            continue;
        }
        g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
        GDir *d = g_dir_open(argv[i], 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
            char *p = g_build_filename(argv[i], name, NULL);
            if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
                g_ptr_array_add(files, p);
            else
                g_free(p);
        }
        if (d)
            g_dir_close(d);
        g_ptr_array_sort(files, by_name);
        for (guint k = 0; k < files->len; k++)
            n += run_file(files->pdata[k]);
    }
    g_autofree char *self = g_path_get_basename(argv[0]);
    printf("%s: %u inputs, no crash\n", self, n);
    return 0;
}

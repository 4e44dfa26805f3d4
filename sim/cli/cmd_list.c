/* `qsim list configs|locks`: what the search folders hold, sorted by name. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"

/* Names (without `ext`) of the files in every search folder of `subdir`, first folder wins. */
static GPtrArray *list_files(const char *subdir, const char *ext, GPtrArray **paths)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    *paths = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) dirs = config_search_dirs(subdir);
    for (guint i = 0; i < dirs->len; i++) {
        GDir *d = g_dir_open(dirs->pdata[i], 0, NULL);
        if (!d)
            continue;
        const char *f;
        while ((f = g_dir_read_name(d))) {
            if (!g_str_has_suffix(f, ext))
                continue;
            char *name = g_strndup(f, strlen(f) - strlen(ext));
            gboolean dup = FALSE;
            for (guint j = 0; j < names->len && !dup; j++)
                dup = !strcmp(names->pdata[j], name);
            if (dup) {
                g_free(name);
                continue;
            }
            g_ptr_array_add(names, name);
            g_ptr_array_add(*paths, g_build_filename(dirs->pdata[i], f, NULL));
        }
        g_dir_close(d);
    }
    return names;
}

static int cmp_index_by_name(gconstpointer a, gconstpointer b, gpointer names)
{
    GPtrArray *n = names;
    return strcmp(n->pdata[*(const guint *)a], n->pdata[*(const guint *)b]);
}

/* The first comment line of a file after any `#` banner marker: a one-line description. */
static char *first_description(const char *path, gboolean yaml)
{
    if (yaml) {
        g_autoptr(GError) err = NULL;
        g_autoptr(QsimConfig) c = config_load(path, NULL, &err);
        if (!c)
            return g_strdup("(does not load: run `qsim config` on it)");
        return g_strdup(c->description ? c->description : "");
    }
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return g_strdup("");
    /* The header comment's first sentence, which may run over several comment lines. */
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GString *sentence = g_string_new(NULL);
    for (guint i = 0; lines[i]; i++) {
        char *l = g_strstrip(lines[i]);
        if (*l != '#' && *l != ';')
            break;
        while (*l == '#' || *l == ';' || *l == ' ')
            l++;
        if (!*l)
            break;
        if (sentence->len)
            g_string_append_c(sentence, ' ');
        g_string_append(sentence, l);
        const char *stop = strstr(sentence->str, ". ");
        if (stop || g_str_has_suffix(sentence->str, ".")) {
            if (stop)
                g_string_truncate(sentence, (gsize)(stop - sentence->str) + 1);
            break;
        }
    }
    /* "name: what it is" -> "what it is" */
    const char *colon = strstr(sentence->str, ": ");
    gboolean named = colon && !memchr(sentence->str, ' ', (gsize)(colon - sentence->str));
    char *out = g_strdup(named ? colon + 2 : sentence->str);
    g_string_free(sentence, TRUE);
    return out;
}

int cmd_list(int argc, char **argv)
{
    if (!cli_parse_command(&argc, &argv, "configs|locks",
                           "List the machine configs or the built-in locks that qsim finds\n"
                           "(in $QSIM_CONFIG_PATH, the source tree or the installed data folder).",
                           NULL))
        return QSIM_EXIT_USAGE;
    if (argc != 2 || (strcmp(argv[1], "configs") && strcmp(argv[1], "locks"))) {
        fprintf(stderr, "qsim list: say what to list: `qsim list configs` or `qsim list locks`\n");
        return QSIM_EXIT_USAGE;
    }
    gboolean configs = !strcmp(argv[1], "configs");
    g_autoptr(GPtrArray) paths = NULL;
    g_autoptr(GPtrArray) names = list_files(configs ? "configs" : "locks", configs ? ".yaml" : ".qs", &paths);
    g_autofree guint *order = g_new(guint, names->len + 1);
    for (guint i = 0; i < names->len; i++)
        order[i] = i;
    g_qsort_with_data(order, names->len, sizeof(guint), cmp_index_by_name, names);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *desc = first_description(paths->pdata[order[i]], configs);
        printf("%-16s %s\n", (char *)names->pdata[order[i]], desc);
    }
    return QSIM_EXIT_OK;
}

/* The workload options of a command, generated from the schema (sim/workload/workload_schema.c): one
 * GOptionEntry per row the command takes, each parsed and range-checked by the schema as it
 * is read, so every command spells, defaults and checks an option the same way. */
#include <string.h>
#include "sim/cli/commands.h"

static gboolean on_workload_flag(const char *option_name, const char *value, gpointer data, GError **error)
{
    WorkloadFlags *f = data;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & f->command))
            continue;
        gboolean is_long = option_name[1] == '-' && !strcmp(option_name + 2, k->flag);
        gboolean is_short = option_name[1] != '-' && k->short_flag && option_name[1] == k->short_flag;
        if (!is_long && !is_short)
            continue;
        g_autofree char *who = g_strconcat("--", k->flag, NULL);
        if (!workload_parse(k, value, who, f->w, error))
            return FALSE;
        f->given |= G_GUINT64_CONSTANT(1) << i;
        return TRUE;
    }
    g_assert_not_reached(); /* GOption only calls us for the entries we generated */
}

void workload_flags_init(WorkloadFlags *f, WorkloadOptions *w, WorkloadCommand command)
{
    G_STATIC_ASSERT(sizeof f->given * 8 >= 64);
    g_assert(workload_schema_len <= 64);
    memset(f, 0, sizeof *f);
    f->w = w;
    f->command = command;
    f->strings = g_ptr_array_new_with_free_func(g_free);
    f->entries = g_new0(GOptionEntry, workload_schema_len + 1);
    guint n = 0;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & command))
            continue;
        const char *def = workload_key_default(k, command);
        char *help = def ? g_strdup_printf("%s (default %s)", k->help, def) : g_strdup(k->help);
        char *arg = workload_key_arg_text(k);
        g_ptr_array_add(f->strings, help);
        g_ptr_array_add(f->strings, arg);
        f->entries[n++] = (GOptionEntry){ k->flag, k->short_flag, 0, G_OPTION_ARG_CALLBACK,
                                          (gpointer)on_workload_flag, help, arg };
    }
}

void workload_flags_clear(WorkloadFlags *f)
{
    g_clear_pointer(&f->entries, g_free);
    g_clear_pointer(&f->strings, g_ptr_array_unref);
}

gboolean workload_flags_given(const WorkloadFlags *f, const char *name)
{
    const WorkloadKey *k = workload_key_find(name);
    g_assert(k);
    return (f->given >> (k - workload_schema)) & 1;
}

gboolean workload_flags_check(const WorkloadFlags *f, GError **error)
{
    /* Fixed work and fixed time are two kinds of run: the count of one and the length of the
     * other are not both given (a fixed-time row whose absence means fixed work: no default). */
    const WorkloadKey *work = NULL, *time = NULL;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!((f->given >> i) & 1))
            continue;
        if (k->mode == WL_FIXED_WORK && !work)
            work = k;
        if (k->mode == WL_FIXED_TIME && !k->def && !time)
            time = k;
    }
    if (work && time) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "give --%s or --%s, not both", work->flag,
                    time->flag);
        return FALSE;
    }
    return TRUE;
}

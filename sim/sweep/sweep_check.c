/* Points checked as a whole when a sweep is loaded: each value was checked alone, but a config
 * key's value may not go with the config or another key (`l1.ways: [3]` on a 32 KiB L1 of
 * 64-byte lines, `protocol: mesif` on a bus), nor a run option with another (more readers than
 * threads).  Such a point would fail each time it ran; the sweep is refused before any runs.
 * Each distinct combination of the values that matter is checked once, on a copy of the
 * config loaded once per config value, so a million points cost a few seconds at most. */
#include <string.h>
#include "sim/sweep/sweep.h"

/* A copy of `c` that owns its strings (config_free frees exactly those: the schema's CFG_STRING
 * keys). */
static QsimConfig *config_copy(const QsimConfig *c)
{
    QsimConfig *d = g_memdup2(c, sizeof *c);
    for (guint i = 0; i < qsim_config_schema_len; i++)
        if (qsim_config_schema[i].type == CFG_STRING) {
            char **field = (char **)((char *)d + qsim_config_schema[i].offset);
            *field = g_strdup(*field);
        }
    return d;
}

/* Axes of one kind, or (kind AXIS_CONFIG_KEY) the config keys, as indices. */
static GArray *axes_of(const Sweep *s, SweepAxisKind kind)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint a = 0; a < s->axes->len; a++)
        if (((SweepAxis *)s->axes->pdata[a])->kind == kind)
            g_array_append_val(out, a);
    return out;
}

static guint value_index(const Sweep *s, guint p, guint a) { return g_array_index(s->points, guint, p * s->axes->len + a); }

/* Point p's value indices on `axes` (and on `also`, when it is an axis), as a text to tell
 * combinations apart. */
static char *combination(const Sweep *s, guint p, GArray *axes, int also)
{
    GString *k = g_string_new(NULL);
    if (also >= 0)
        g_string_append_printf(k, "%u", value_index(s, p, (guint)also));
    for (guint i = 0; i < axes->len; i++)
        g_string_append_printf(k, ",%u", value_index(s, p, g_array_index(axes, guint, i)));
    return g_string_free(k, FALSE);
}

/* The axis a message "--set KEY=VALUE: ..." or "--FLAG VALUE: ..." blames, among `axes`, or -1;
 * *rest gets the message after that prefix. */
static int blamed_axis(const Sweep *s, GArray *axes, const char *msg, const char **rest)
{
    const char *colon = strstr(msg, ": ");
    *rest = colon ? colon + 2 : msg;
    for (guint i = 0; i < axes->len; i++) {
        guint a = g_array_index(axes, guint, i);
        const SweepAxis *ax = s->axes->pdata[a];
        g_autofree char *set = g_strdup_printf("--set %s=", ax->name);
        g_autofree char *flag = ax->key ? g_strdup_printf("--%s ", ax->key->flag) : NULL;
        if (g_str_has_prefix(msg, set) || (flag && g_str_has_prefix(msg, flag)))
            return (int)a;
    }
    return -1;
}

/* The name of the config point p runs on. */
static const char *point_config_name(const Sweep *s, guint p, int cx)
{
    RunOptions def;
    run_options_init(&def);
    return cx >= 0 ? ((SweepAxis *)s->axes->pdata[cx])->values->pdata[value_index(s, p, (guint)cx)] : def.config;
}

/* A copy of the config point p runs on, with its config keys set (the texts of the sets in
 * `sets`, when given); NULL when the config does not load (the default config is the run's to
 * find). */
static QsimConfig *point_config(const Sweep *s, guint p, int cx, GArray *keys, GPtrArray *bases, GPtrArray *sets)
{
    guint ci = cx >= 0 ? value_index(s, p, (guint)cx) : 0;
    if (!bases->pdata[ci]) {
        bases->pdata[ci] = config_load(point_config_name(s, p, cx), NULL, NULL); /* checked as a value */
        if (!bases->pdata[ci])
            return NULL;
    }
    QsimConfig *c = config_copy(bases->pdata[ci]);
    for (guint i = 0; i < keys->len; i++) {
        guint a = g_array_index(keys, guint, i);
        g_autofree char *set = g_strdup_printf("%s=%s", ((SweepAxis *)s->axes->pdata[a])->name, sweep_value(s, p, a));
        config_set(c, set, NULL);   /* each value was checked with config_set */
        if (sets)
            g_ptr_array_add(sets, g_steal_pointer(&set));
    }
    return c;
}

/* The config point p runs on, with its config keys set, checked as config_load checks it. */
static gboolean point_config_ok(const Sweep *s, guint p, int cx, GArray *keys, GPtrArray *bases, int *axis,
                                char **why)
{
    const char *name = point_config_name(s, p, cx);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(QsimConfig) c = point_config(s, p, cx, keys, bases, sets);
    if (!c || config_validate(c, NULL))
        return TRUE;
    /* Once, for the message: config_load says which --set it blames. */
    g_ptr_array_add(sets, NULL);
    g_autoptr(GError) e = NULL;
    g_autoptr(QsimConfig) again = config_load(name, (const char *const *)sets->pdata, &e);
    const char *rest = e ? e->message : "";
    *axis = e ? blamed_axis(s, keys, e->message, &rest) : -1;
    if (*axis < 0)
        *axis = (int)g_array_index(keys, guint, 0);
    *why = g_strdup(rest);
    return FALSE;
}

/* The run options of point p together, as the run checks them. */
static gboolean point_workload_ok(const Sweep *s, guint p, GArray *wl, int *axis, char **why)
{
    WorkloadOptions w;
    workload_init(&w, WL_RUN);
    for (guint i = 0; i < wl->len; i++) {
        guint a = g_array_index(wl, guint, i);
        const SweepAxis *ax = s->axes->pdata[a];
        workload_parse(ax->key, sweep_value(s, p, a), ax->name, &w, NULL);   /* checked as a value */
    }
    g_autoptr(GError) e = NULL;
    if (workload_validate(&w, WL_RUN, &e))
        return TRUE;
    const char *rest;
    *axis = blamed_axis(s, wl, e->message, &rest);
    if (*axis < 0)
        *axis = (int)g_array_index(wl, guint, 0);
    *why = g_strdup(e->message + (g_str_has_prefix(e->message, "--") ? 2 : 0));
    return FALSE;
}

/* Point p's placement on its machine: a CPU list naming a CPU the machine (its config with the
 * point's keys set) lacks cannot run (`cpus:0,1,2` on a 2-CPU machine). */
static gboolean point_placement_ok(const Sweep *s, guint p, int cx, GArray *keys, int px, GPtrArray *bases,
                                   int *axis, char **why)
{
    g_autoptr(QsimConfig) c = point_config(s, p, cx, keys, bases, NULL);
    if (!c || !config_validate(c, NULL))
        return TRUE;   /* the config's own check blames it */
    g_autofree Placement *pl = g_new(Placement, 1);
    placement_parse(NULL, sweep_value(s, p, (guint)px), pl, NULL);   /* checked as a value */
    guint cpu;
    g_autoptr(GError) e = NULL;
    if (placement_assign(c, pl, 1, &cpu, &e))
        return TRUE;
    *axis = px;
    *why = g_strdup(e->message + (g_str_has_prefix(e->message, "--") ? 2 : 0));
    return FALSE;
}

gboolean sweep_points_check(const Sweep *s, guint *point, int *axis, char **why)
{
    g_autoptr(GArray) keys = axes_of(s, AXIS_CONFIG_KEY), wl = axes_of(s, AXIS_WORKLOAD);
    int cx = sweep_axis_find(s, "configs");
    guint nconfigs = cx >= 0 ? ((SweepAxis *)s->axes->pdata[cx])->values->len : 1;
    g_autoptr(GPtrArray) bases = g_ptr_array_new_full(nconfigs, (GDestroyNotify)config_free);
    g_ptr_array_set_size(bases, (gint)nconfigs);
    g_autoptr(GHashTable) config_seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) wl_seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) placement_seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    int px = sweep_axis_find(s, "placement");
    for (guint p = 0; p < s->npoints; p++) {
        *point = p;
        /* A config without keys set was checked when its value was. */
        char *ck = keys->len ? combination(s, p, keys, cx) : NULL;
        if (ck && g_hash_table_add(config_seen, ck) && !point_config_ok(s, p, cx, keys, bases, axis, why))
            return FALSE;
        char *wk = wl->len ? combination(s, p, wl, -1) : NULL;
        if (wk && g_hash_table_add(wl_seen, wk) && !point_workload_ok(s, p, wl, axis, why))
            return FALSE;
        if (px < 0)
            continue;
        char *pk = combination(s, p, keys, cx);
        g_autofree char *pck = g_strdup_printf("%s;%u", pk, value_index(s, p, (guint)px));
        g_free(pk);
        if (g_hash_table_add(placement_seen, g_steal_pointer(&pck)) &&
            !point_placement_ok(s, p, cx, keys, px, bases, axis, why))
            return FALSE;
    }
    return TRUE;
}

/* Sweep files: libyaml walk, axis checks, the cross product and `exclude`.
 * Every error a sweep file can cause names file:line:col, as config errors do. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_range.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"
#include "sim/base/suggest.h"
#include "sim/base/yaml_doc.h"
#include "sim/workload/harness.h"
#include "sim/workload/lock_find.h"
#include "sim/validation/verify.h"

G_DEFINE_QUARK(qsim-sweep-error-quark, qsim_sweep_error)

/* The axes a sweep file may name besides run options (the workload schema's axes) and config
 * keys. */
static const struct {
    const char *name;
    SweepAxisKind kind;
} axis_table[] = {
    { "configs", AXIS_CONFIG },
    { "locks", AXIS_LOCK },
    { "seeds", AXIS_SEED },
};

/* Keys of a sweep file that are settings, not axes. */
static const char *const setting_keys[] = { "exclude", "plot_x", "plot_y", "plot_scale" };

typedef struct {
    const char *filename;
    char *base;                /* the sweep file's folder: lock files are found from there */
    yaml_document_t doc;
    GHashTable *lock_where;    /* lock-file value -> "file:line:col: " (or "--lock-file PATH: ") */
    GHashTable *value_index;   /* SweepAxis* -> (value -> its index + 1): finding a value at once */
    GHashTable *numbers;       /* SweepAxis* -> GArray of AxisNumber, per value: for exclude's runs */
    GHashTable *value_nodes;   /* SweepAxis* -> GPtrArray of the node of each value (NULL: --lock-file) */
    GPtrArray *shown;          /* clipped copies of what messages echo, freed with the loader */
    const char *const *extra_locks; /* --lock-file paths, or NULL */
} SweepLoader;

/* `text` as a message echoes it: clipped (echo.h), owned by the loader. */
static const char *shown(SweepLoader *L, const char *text)
{
    char *c = echo_clip(text);
    g_ptr_array_add(L->shown, c);
    return c;
}

#define POS_FMT "%s:%zu:%zu: "
#define POS_ARGS(L, n) (L)->filename, (n)->start_mark.line + 1, (n)->start_mark.column + 1

void sweep_axis_free(gpointer p)
{
    SweepAxis *a = p;
    g_free(a->name);
    g_ptr_array_unref(a->values);
    if (a->lock_files)
        g_ptr_array_unref(a->lock_files);
    g_free(a);
}

SweepAxis *sweep_axis_new(const char *name, SweepAxisKind kind, const WorkloadKey *wk)
{
    SweepAxis *a = g_new0(SweepAxis, 1);
    a->name = g_strdup(name);
    a->kind = kind;
    a->key = wk;
    a->values = g_ptr_array_new_with_free_func(g_free);
    if (kind == AXIS_LOCK)
        a->lock_files = g_ptr_array_new_with_free_func(g_free);
    return a;
}

static const char *scalar(yaml_node_t *n) { return (const char *)n->data.scalar.value; }

static const char *node_kind(yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a single value";
}

/* ---- finding files ---- */

char *sweep_find_file(const char *name, GError **error)
{
    /* A path that is there is the sweep file even when it is no file (reading it says why). */
    if (g_file_test(name, G_FILE_TEST_IS_REGULAR) ||
        (strchr(name, '/') && g_file_test(name, G_FILE_TEST_EXISTS) && !g_file_test(name, G_FILE_TEST_IS_DIR)))
        return g_strdup(name);
    char *found = strchr(name, '/') ? NULL : config_search_file("sweeps", name, ".yaml");
    if (found)
        return found;
    /* a bare name not found: the names there are, sorted */
    g_autoptr(GPtrArray) known = strchr(name, '/') ? g_ptr_array_new_with_free_func(g_free)
                                                   : config_search_names("sweeps", ".yaml", NULL);
    g_autofree char *stem = g_str_has_suffix(name, ".yaml") ? g_strndup(name, strlen(name) - 5) : g_strdup(name);
    const char *hint = suggest_closest(stem, (const char *const *)known->pdata, known->len);
    g_autofree char *names = NULL;
    if (known->len) {
        g_ptr_array_add(known, NULL);
        names = g_strjoinv(", ", (char **)known->pdata);
    }
    g_autofree char *shown_name = echo_clip(name);
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                "%s: no such sweep file%s%s%s (looked for it as a path%s%s)", shown_name,
                hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "",
                names ? " and among the example sweeps: " : "", names ? names : "");
    return NULL;
}

static gboolean names_a_file(const char *value)
{
    return strchr(value, '/') || g_str_has_suffix(value, ".qs") || g_str_has_suffix(value, ".c");
}

gboolean sweep_find_lock(const char *value, const char *base, char **file, GError **error)
{
    *file = NULL;
    if (!names_a_file(value)) {
        g_autofree char *builtin = lock_find(value, error);
        return builtin != NULL;
    }
    gboolean relative = base && !g_path_is_absolute(value);
    g_autofree char *path = relative ? g_build_filename(base, value, NULL) : g_strdup(value);
    if (g_file_test(path, G_FILE_TEST_EXISTS) && !g_file_test(path, G_FILE_TEST_IS_DIR)) {
        /* there: a lock file, if it is a file of a lock file's size */
        if (!input_file_check(path, INPUT_LOCK, error))
            return FALSE;
        *file = g_steal_pointer(&path);
        return TRUE;
    }
    /* `tas.qs` alone may still mean the built-in tas, as `qsim run --lock tas.qs` does. */
    g_autofree char *builtin = strchr(value, '/') ? NULL : lock_find(value, NULL);
    if (builtin)
        return TRUE;
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "no lock file %s%s%s%s", path,
                relative ? " (a lock file is found from the sweep file's folder, " : "",
                relative ? base : "", relative ? ")" : "");
    return FALSE;
}

/* Checks one value `v` of axis `a`, written at node `n` (a range's values are all checked at
 * the range), so that bad values fail before anything runs.  A lock's file goes to *file. */
static gboolean check_value(SweepLoader *L, SweepAxis *a, const char *v, yaml_node_t *n, char **file,
                            GError **error)
{
    g_autoptr(GError) local = NULL;
    switch (a->kind) {
    case AXIS_CONFIG: {
        g_autoptr(QsimConfig) c = config_load(v, NULL, &local);
        if (!c)
            goto fail;
        return TRUE;
    }
    case AXIS_LOCK:
        if (!sweep_find_lock(v, L->base, file, &local))
            goto fail;
        return TRUE;
    case AXIS_SEED: {
        guint64 x;
        if (sweep_parse_uint(v, 0, G_MAXINT64, &x))
            return TRUE;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "seeds: expected an integer in [0, %" G_GINT64_FORMAT "], got '%s'", POS_ARGS(L, n),
                    G_MAXINT64, shown(L, v));
        return FALSE;
    }
    case AXIS_WORKLOAD: {
        WorkloadOptions scratch;
        workload_init(&scratch, WL_RUN);
        if (workload_parse(a->key, v, a->name, &scratch, &local))
            return TRUE;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s", POS_ARGS(L, n), local->message);
        return FALSE;
    }
    case AXIS_LOCK_PARAM: {
        /* Whether the locks declare it is the run's to find (a point that fails says so). */
        gint64 x;
        if (g_ascii_string_to_signed(v, 10, G_MININT64, G_MAXINT64, &x, NULL))
            return TRUE;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: expected a whole number, got '%s'",
                    POS_ARGS(L, n), a->name, v);
        return FALSE;
    }
    case AXIS_CONFIG_KEY: {
        g_autoptr(QsimConfig) c = config_new_defaults();
        g_autofree char *assign = g_strdup_printf("%s=%s", a->name, v);
        if (config_set(c, assign, &local))
            return TRUE;
        /* config_set speaks of --set; here the position says where the value is. */
        const char *msg = local->message;
        if (g_str_has_prefix(msg, "--set ") && strstr(msg, ": "))
            msg = strstr(msg, ": ") + 2;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s", POS_ARGS(L, n), msg);
        return FALSE;
    }
    }
    g_assert_not_reached();
fail:
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: %s", POS_ARGS(L, n), a->name,
                local->message);
    return FALSE;
}

/* Adds value `v` (written at `n`; NULL for a value from the command line, `where` naming it). */
/* The index of value `v` of axis `a`, or -1. */
static gint value_find(SweepLoader *L, const SweepAxis *a, const char *v)
{
    GHashTable *index = g_hash_table_lookup(L->value_index, a);
    return index ? GPOINTER_TO_INT(g_hash_table_lookup(index, v)) - 1 : -1;
}

static gboolean add_value(SweepLoader *L, SweepAxis *a, const char *v, yaml_node_t *n, const char *where,
                          GError **error)
{
    if (value_find(L, a, v) >= 0) {
        g_autofree char *shown = echo_clip(v);
        if (n)
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: value '%s' given twice", POS_ARGS(L, n), a->name, shown);
        else
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%s: the sweep file already has it",
                        where);
        return FALSE;
    }
    g_autofree char *file = NULL;
    if (n && !check_value(L, a, v, n, &file, error))
        return FALSE;
    if (!n) {
        /* --lock-file: a file, found from the working folder. */
        g_autoptr(GError) local = NULL;
        if (!g_file_test(v, G_FILE_TEST_EXISTS)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%s: no such file", where);
            return FALSE;
        }
        if (!input_file_check(v, INPUT_LOCK, &local)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "--lock-file %s", local->message);
            return FALSE;
        }
        file = g_strdup(v);
    }
    if (file)
        g_hash_table_insert(L->lock_where, g_strdup(v),
                            n ? g_strdup_printf(POS_FMT, POS_ARGS(L, n)) : g_strdup_printf("%s: ", where));
    g_ptr_array_add(a->values, g_strdup(v));
    GHashTable *index = g_hash_table_lookup(L->value_index, a);
    if (!index) {
        index = g_hash_table_new(g_str_hash, g_str_equal);   /* keys: the axis's own strings */
        g_hash_table_insert(L->value_index, a, index);
    }
    g_hash_table_insert(index, a->values->pdata[a->values->len - 1], GUINT_TO_POINTER(a->values->len));
    GPtrArray *nodes = g_hash_table_lookup(L->value_nodes, a);
    if (!nodes)
        g_hash_table_insert(L->value_nodes, a, nodes = g_ptr_array_new());
    g_ptr_array_add(nodes, n);
    if (a->lock_files)
        g_ptr_array_add(a->lock_files, g_steal_pointer(&file));
    return TRUE;
}

/* ---- ranges: `A..B`, `A..B step C`, and `...` in a list ---- */

/* Integer axes take ranges: seeds, the workload's counts, integer config keys. */
static gboolean axis_is_integer(const SweepAxis *a)
{
    if (a->kind == AXIS_SEED)
        return TRUE;
    if (a->kind == AXIS_WORKLOAD)
        return a->key->type == WL_UINT || a->key->type == WL_UINT64;
    if (a->kind == AXIS_CONFIG_KEY) {
        const CfgKey *k = config_schema_find(a->name);
        return k && (k->type == CFG_INT || k->type == CFG_SIZE);
    }
    return FALSE;
}

static gboolean more_values(SweepLoader *L, const SweepAxis *a, yaml_node_t *node, GError **error)
{
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: more than %u values", POS_ARGS(L, node),
                a->name, SWEEP_MAX_POINTS);
    return FALSE;
}

/* Reads the written values `items` of axis `a` into `out` (of SweepValueItem): ranges and `...` as
 * runs (or, for a ratio, their values), other values as written. */
static gboolean expand_values(SweepLoader *L, const SweepAxis *a, yaml_node_t **items, guint n, GArray *out,
                              GError **error)
{
    g_autoptr(GArray) plain_run = g_array_new(FALSE, FALSE, sizeof(guint64)); /* plain numbers just written */
    guint64 count = 0;   /* values so far: an axis has SWEEP_MAX_POINTS at most */
    for (guint i = 0; i < n; i++) {
        yaml_node_t *node = items[i];
        if (node->type != YAML_SCALAR_NODE) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: expected a value, got %s", POS_ARGS(L, node), a->name, node_kind(node));
            return FALSE;
        }
        const char *v = scalar(node);
        if (!*v) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: empty value",
                        POS_ARGS(L, node), a->name);
            return FALSE;
        }
        gboolean is_range = FALSE;
        guint64 from = 0, to = 0, step = 1, num;
        g_autofree char *why = NULL;
        if (!sweep_is_ellipsis(v) && !sweep_parse_range(v, &is_range, &from, &to, &step, &why)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: '%s': %s", POS_ARGS(L, node),
                        a->name, shown(L, v), why);
            return FALSE;
        }
        if ((is_range || sweep_is_ellipsis(v)) && !axis_is_integer(a)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: '%s': ranges are for axes of whole numbers (threads, seeds, "
                        "core.pause_cycles...); list the values", POS_ARGS(L, node), a->name, shown(L, v));
            return FALSE;
        }
        if (sweep_is_ellipsis(v)) {
            guint64 end;
            if (i + 1 >= n || items[i + 1]->type != YAML_SCALAR_NODE || !sweep_plain_uint(scalar(items[i + 1]), &end)) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                            POS_FMT "%s: `...` must be followed by the last value, as in [1, 2, 4, ..., 256]",
                            POS_ARGS(L, node), a->name);
                return FALSE;
            }
            guint from_len = out->len;
            if (!sweep_continue_progression((const guint64 *)plain_run->data, plain_run->len, end, count, out, node,
                                      &why)) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: %s", POS_ARGS(L, node),
                            a->name, why);
                return FALSE;
            }
            for (guint k = from_len; k < out->len; k++) {
                const SweepValueItem *it = &g_array_index(out, SweepValueItem, k);
                count += it->text ? 1 : sweep_run_count(it);
            }
            if (count > SWEEP_MAX_POINTS)
                return more_values(L, a, node, error);
            g_array_set_size(plain_run, 0);
            continue;
        }
        if (is_range) {
            /* Each range is bounded, but a list of ranges is not: stop at the sweep's limit. */
            sweep_value_item_add(out, node, NULL, from, to, step);
            count += sweep_run_count(&g_array_index(out, SweepValueItem, out->len - 1));
            if (count > SWEEP_MAX_POINTS)
                return more_values(L, a, node, error);
            g_array_set_size(plain_run, 0);
            continue;
        }
        if (sweep_plain_uint(v, &num))
            g_array_append_val(plain_run, num);
        else
            g_array_set_size(plain_run, 0);
        sweep_value_item_add(out, node, g_strdup(v), 0, 0, 0);
        if (++count > SWEEP_MAX_POINTS)
            return more_values(L, a, node, error);
    }
    return TRUE;
}

static void unknown_axis(SweepLoader *L, yaml_node_t *kn, GError **error)
{
    const char *key = scalar(kn);
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0; i < G_N_ELEMENTS(axis_table); i++)
        g_ptr_array_add(names, (gpointer)axis_table[i].name);
    for (guint i = 0; i < workload_schema_len; i++)
        if (workload_schema[i].axis)
            g_ptr_array_add(names, (gpointer)workload_schema[i].axis);
    for (guint i = 0; i < G_N_ELEMENTS(setting_keys); i++)
        g_ptr_array_add(names, (gpointer)setting_keys[i]);
    for (guint i = 0; i < qsim_config_schema_len; i++)
        g_ptr_array_add(names, (gpointer)qsim_config_schema[i].path);
    const char *hint = suggest_closest(key, (const char *const *)names->pdata, names->len);
    if (hint)
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "unknown axis '%s'; did you mean '%s'?", POS_ARGS(L, kn), shown(L, key), hint);
    else
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "unknown axis '%s' (axes: configs, locks, seeds, run options such as threads, "
                    "config keys such as core.pause_cycles, or lock parameters such as lock_param.spin_count; "
                    "see docs/sweeps.md)", POS_ARGS(L, kn), shown(L, key));
    g_ptr_array_unref(names);
}

static gboolean lock_param_name_ok(const char *key)
{
    return g_regex_match_simple("^[A-Za-z_][A-Za-z0-9_]*$", key + strlen(SWEEP_LOCK_PARAM_PREFIX), 0, 0);
}

gboolean sweep_axis_kind(const char *name, SweepAxisKind *kind, const WorkloadKey **key)
{
    *key = NULL;
    for (guint i = 0; i < G_N_ELEMENTS(axis_table); i++)
        if (!strcmp(axis_table[i].name, name)) {
            *kind = axis_table[i].kind;
            return TRUE;
        }
    if ((*key = workload_axis_find(name)))
        *kind = AXIS_WORKLOAD;
    else if (g_str_has_prefix(name, SWEEP_LOCK_PARAM_PREFIX) && lock_param_name_ok(name))
        *kind = AXIS_LOCK_PARAM;
    else if (config_schema_find(name))
        *kind = AXIS_CONFIG_KEY;
    else
        return FALSE;
    return TRUE;
}

static SweepAxis *parse_axis(SweepLoader *L, yaml_node_t *kn, yaml_node_t *vn, GError **error)
{
    const char *key = scalar(kn);
    SweepAxisKind kind;
    const WorkloadKey *wk;
    if (!sweep_axis_kind(key, &kind, &wk)) {
        if (g_str_has_prefix(key, SWEEP_LOCK_PARAM_PREFIX))
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: a lock parameter axis is lock_param.NAME, NAME a `.param` of the locks",
                        POS_ARGS(L, kn), key);
        else
            unknown_axis(L, kn, error);
        return NULL;
    }
    SweepAxis *a = sweep_axis_new(key, kind, wk);
    g_autoptr(GPtrArray) items = g_ptr_array_new();
    g_autoptr(GArray) vals = sweep_value_items_new();
    guint64 n;
    if (a->kind == AXIS_SEED && vn->type == YAML_SCALAR_NODE && !strstr(scalar(vn), "..")) {
        /* `seeds: N` means N repeats, seeds 1..N; a list (or a range) names the seeds. */
        if (!sweep_parse_uint(scalar(vn), 1, 100000, &n)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "seeds: expected a count in [1, 100000] or a list of seeds, got '%s'",
                        POS_ARGS(L, vn), shown(L, scalar(vn)));
            sweep_axis_free(a);
            return NULL;
        }
        /* Through add_value like any value, so that `exclude` finds them. */
        for (guint64 i = 1; i <= n; i++) {
            g_autofree char *v = g_strdup_printf("%" G_GUINT64_FORMAT, i);
            if (!add_value(L, a, v, vn, NULL, error))
                goto fail;
        }
        return a;
    }
    if (vn->type == YAML_SCALAR_NODE)
        g_ptr_array_add(items, vn);
    else if (vn->type == YAML_SEQUENCE_NODE)
        for (yaml_node_item_t *it = vn->data.sequence.items.start; it < vn->data.sequence.items.top; it++)
            g_ptr_array_add(items, yaml_document_get_node(&L->doc, *it));
    else {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "%s: expected a value or a list of values, got a mapping", POS_ARGS(L, vn), key);
        goto fail;
    }
    if (!items->len) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "%s: empty axis (give at least one value)", POS_ARGS(L, vn), key);
        goto fail;
    }
    if (!expand_values(L, a, (yaml_node_t **)items->pdata, items->len, vals, error))
        goto fail;
    for (guint i = 0; i < vals->len; i++) {
        const SweepValueItem *it = &g_array_index(vals, SweepValueItem, i);
        if (it->text && !add_value(L, a, it->text, it->node, NULL, error))
            goto fail;
        for (guint64 x = it->from; !it->text; x += it->step) {
            g_autofree char *v = g_strdup_printf("%" G_GUINT64_FORMAT, x);
            if (!add_value(L, a, v, it->node, NULL, error))
                goto fail;
            if (it->to - x < it->step)
                break;
        }
    }
    return a;
fail:
    sweep_axis_free(a);
    return NULL;
}

static int find_axis(GPtrArray *axes, const char *name)
{
    for (guint i = 0; i < axes->len; i++)
        if (!strcmp(((SweepAxis *)axes->pdata[i])->name, name))
            return (int)i;
    return -1;
}

/* A value of an axis as a whole number, when it is one. */
typedef struct {
    guint64 n;
    gboolean ok;
} AxisNumber;

/* The values of axis `a` as numbers, read once (exclude entries may each hold a long run). */
static const AxisNumber *axis_numbers(SweepLoader *L, const SweepAxis *a)
{
    GArray *nums = g_hash_table_lookup(L->numbers, a);
    if (!nums) {
        nums = g_array_sized_new(FALSE, FALSE, sizeof(AxisNumber), a->values->len);
        for (guint i = 0; i < a->values->len; i++) {
            AxisNumber x = { 0, FALSE };
            x.ok = sweep_plain_uint(a->values->pdata[i], &x.n);
            g_array_append_val(nums, x);
        }
        g_hash_table_insert(L->numbers, (gpointer)a, nums);
    }
    return (const AxisNumber *)nums->data;
}

/* Adds to `out` the value indices of axis `a` that exclude value node `v` (a value, a range or a
 * list, ranges and `...` as in the axes) matches. */
static gboolean exclude_values(SweepLoader *L, SweepAxis *a, yaml_node_t *v, GArray *out, GError **error)
{
    g_autoptr(GPtrArray) items = g_ptr_array_new();
    if (v->type == YAML_SEQUENCE_NODE)
        for (yaml_node_item_t *j = v->data.sequence.items.start; j < v->data.sequence.items.top; j++)
            g_ptr_array_add(items, yaml_document_get_node(&L->doc, *j));
    else
        g_ptr_array_add(items, v);
    g_autoptr(GArray) vals = sweep_value_items_new();
    if (!expand_values(L, a, (yaml_node_t **)items->pdata, items->len, vals, error))
        return FALSE;
    g_autoptr(GHashTable) matched = g_hash_table_new(NULL, NULL);   /* nodes that matched a value */
    for (guint t = 0; t < vals->len; t++) {
        const SweepValueItem *it = &g_array_index(vals, SweepValueItem, t);
        if (!it->text) {
            /* A run is matched by arithmetic: it may span far more numbers than the axis has. */
            const AxisNumber *num = axis_numbers(L, a);
            for (guint i = 0; i < a->values->len; i++) {
                guint64 x = num[i].n;
                if (num[i].ok && x >= it->from && x <= it->to && (x - it->from) % it->step == 0) {
                    g_array_append_val(out, i);
                    g_hash_table_add(matched, it->node);
                }
            }
            continue;
        }
        gint found = value_find(L, a, it->text);
        if (found >= 0) {
            guint i = (guint)found;
            g_array_append_val(out, i);
            g_hash_table_add(matched, it->node);
            continue;
        }
        if (strcmp(scalar(it->node), it->text))
            continue;   /* a progression may name values the axis skips */
        /* A value the axis does not have would exclude nothing: most likely a typo. */
        const char *hint = suggest_closest(it->text, (const char *const *)a->values->pdata, a->values->len);
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "exclude: %s has no value '%s'%s%s%s", POS_ARGS(L, it->node), a->name,
                    shown(L, it->text), hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
        return FALSE;
    }
    for (guint t = 0; t < vals->len; t++) {
        yaml_node_t *n = g_array_index(vals, SweepValueItem, t).node;
        if (!g_hash_table_contains(matched, n)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "exclude: %s has no value in '%s'", POS_ARGS(L, n), a->name, shown(L, scalar(n)));
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean parse_exclude(SweepLoader *L, yaml_node_t *vn, GPtrArray *axes, GPtrArray *excludes, GError **error)
{
    if (vn->type != YAML_SEQUENCE_NODE) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "exclude: expected a list of partial points (mappings), got %s", POS_ARGS(L, vn),
                    node_kind(vn));
        return FALSE;
    }
    for (yaml_node_item_t *it = vn->data.sequence.items.start; it < vn->data.sequence.items.top; it++) {
        yaml_node_t *m = yaml_document_get_node(&L->doc, *it);
        if (excludes->len == SWEEP_MAX_EXCLUDES) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "exclude: more than %u entries (every point is checked against each: "
                        "split the sweep instead)", POS_ARGS(L, m), SWEEP_MAX_EXCLUDES);
            return FALSE;
        }
        if (m->type != YAML_MAPPING_NODE || m->data.mapping.pairs.start == m->data.mapping.pairs.top) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "exclude: each entry is a mapping such as {locks: tas, threads: 8}, got %s",
                        POS_ARGS(L, m), m->type == YAML_MAPPING_NODE ? "an empty mapping" : node_kind(m));
            return FALSE;
        }
        GArray *terms = g_array_new(FALSE, FALSE, sizeof(SweepExcludeTerm));
        g_ptr_array_add(excludes, terms);
        for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
            yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key);
            yaml_node_t *v = yaml_document_get_node(&L->doc, p->value);
            int ax = kn->type == YAML_SCALAR_NODE ? find_axis(axes, scalar(kn)) : -1;
            if (ax < 0) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                            POS_FMT "exclude: '%s' is not an axis of this sweep", POS_ARGS(L, kn),
                            kn->type == YAML_SCALAR_NODE ? shown(L, scalar(kn)) : "?");
                return FALSE;
            }
            SweepAxis *a = axes->pdata[ax];
            SweepExcludeTerm t = { (guint)ax, g_new0(guint8, a->values->len) };
            g_array_append_val(terms, t);
            g_autoptr(GArray) values = g_array_new(FALSE, FALSE, sizeof(guint));
            if (!exclude_values(L, a, v, values, error))
                return FALSE;
            for (guint k = 0; k < values->len; k++)
                t.hit[g_array_index(values, guint, k)] = 1;
        }
    }
    return TRUE;
}

/* --lock-file: appended to the `locks` axis, which is made (last, varying fastest) when the file
 * has none. */
static gboolean add_lock_files(SweepLoader *L, Sweep *s, GError **error)
{
    if (!L->extra_locks || !*L->extra_locks)
        return TRUE;
    int ax = find_axis(s->axes, "locks");
    if (ax < 0) {
        g_ptr_array_add(s->axes, sweep_axis_new("locks", AXIS_LOCK, NULL));
        ax = (int)s->axes->len - 1;
    }
    for (guint i = 0; L->extra_locks[i]; i++) {
        g_autofree char *where = g_strdup_printf("--lock-file %s", L->extra_locks[i]);
        if (!add_value(L, s->axes->pdata[ax], L->extra_locks[i], NULL, where, error))
            return FALSE;
    }
    return TRUE;
}

/* Every lock file assembles with the harness for each arch the sweep's configs use, and has
 * the entry points the harness calls: a typo in a lock of one's own fails here, not in every
 * point. */
static gboolean check_lock_files(SweepLoader *L, Sweep *s, GError **error)
{
    if (!g_hash_table_size(L->lock_where))
        return TRUE;
    /* every target (arch and atomics) the sweep's configs assemble for */
    gboolean used[ARCH__N][ARCH_ATOMICS__N] = { { FALSE } };
    int cx = find_axis(s->axes, "configs");
    if (cx < 0) {
        RunOptions def;
        run_options_init(&def);
        g_autoptr(QsimConfig) c = config_load(def.config, NULL, NULL);
        ArchTarget t = c ? asm_target_for_config(c) : arch_target(ARCH_X86);
        used[t.arch][t.atomics] = TRUE;
    } else {
        GPtrArray *configs = ((SweepAxis *)s->axes->pdata[cx])->values;
        for (guint i = 0; i < configs->len; i++) {
            g_autoptr(QsimConfig) c = config_load(configs->pdata[i], NULL, NULL);
            if (c) {
                ArchTarget t = asm_target_for_config(c);
                used[t.arch][t.atomics] = TRUE;
            }
        }
    }
    HarnessOptions h;
    harness_options_init(&h);
    SweepAxis *locks = s->axes->pdata[find_axis(s->axes, "locks")];
    for (guint i = 0; i < locks->values->len; i++) {
        const char *file = locks->lock_files->pdata[i];
        if (!file)
            continue;
        const char *where = g_hash_table_lookup(L->lock_where, locks->values->pdata[i]);
        g_autoptr(GError) local = NULL;
        for (guint a = 0; a < ARCH__N; a++)
            for (guint k = 0; k < ARCH_ATOMICS__N; k++) {
                if (!used[a][k])
                    continue;
                /* Read for each arch: a lock in C is translated for it (sim/workload/lock_find.h). */
                g_autofree char *text = NULL;
                ArchTarget t = { (Arch)a, (ArchAtomics)k, 0 };
                if (!lock_read(file, t, &text, &local)) {
                    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%slocks: %s", where, local->message);
                    return FALSE;
                }
                g_autoptr(IsaProgram) prog = harness_assemble(file, text, &h, t, NULL, &local);
                if (!prog) {
                    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%slocks: %s", where,
                                local->message);
                    return FALSE;
                }
            }
    }
    return TRUE;
}

/* Every point as a whole (sweep_points_check), before any runs: the error points at the value
 * of the axis to blame. */
static gboolean check_points(SweepLoader *L, const Sweep *s, GError **error)
{
    guint p;
    int axis;
    g_autofree char *why = NULL;
    if (sweep_points_check(s, &p, &axis, &why))
        return TRUE;
    GPtrArray *nodes = g_hash_table_lookup(L->value_nodes, s->axes->pdata[axis]);
    yaml_node_t *n = nodes->pdata[g_array_index(s->points, guint, p * s->axes->len + (guint)axis)];
    GString *key = g_string_new(NULL);   /* sweep_point_key, each value clipped as messages echo */
    for (guint a = 0; a < s->axes->len; a++)
        g_string_append_printf(key, "%s%s=%s", a ? ";" : "", ((SweepAxis *)s->axes->pdata[a])->name,
                               shown(L, sweep_value(s, p, a)));
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                POS_FMT "%s: point %u (%s) cannot run: %s (leave such points out with `exclude`)", POS_ARGS(L, n),
                ((SweepAxis *)s->axes->pdata[axis])->name, p, key->str, why);
    g_string_free(key, TRUE);
    return FALSE;
}

static gboolean load_root(SweepLoader *L, Sweep *s, GError **error)
{
    yaml_node_t *root = yaml_document_get_root_node(&L->doc);
    if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root))) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "%s:1:1: empty sweep file (name at least a `locks` axis)", L->filename);
        return FALSE;
    }
    if (root->type != YAML_MAPPING_NODE) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "a sweep file is a mapping of axes, got %s", POS_ARGS(L, root), node_kind(root));
        return FALSE;
    }
    yaml_node_t *exclude = NULL;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key);
        yaml_node_t *vn = yaml_document_get_node(&L->doc, p->value);
        if (kn->type != YAML_SCALAR_NODE) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "axis names must be plain names", POS_ARGS(L, kn));
            return FALSE;
        }
        if (find_axis(s->axes, scalar(kn)) >= 0 || (exclude && !strcmp(scalar(kn), "exclude"))) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: given twice", POS_ARGS(L, kn), scalar(kn));
            return FALSE;
        }
        if (!strcmp(scalar(kn), "exclude")) {
            exclude = vn;   /* after the axes, which it refers to (in any order) */
            continue;
        }
        if (!strcmp(scalar(kn), "plot_x") || !strcmp(scalar(kn), "plot_y") || !strcmp(scalar(kn), "plot_scale")) {
            /* The plot a sweep is made for (a pause sweep wants pause on x): --plot's defaults. */
            if (vn->type != YAML_SCALAR_NODE) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                            POS_FMT "%s: expected one name, got %s", POS_ARGS(L, vn), scalar(kn), node_kind(vn));
                return FALSE;
            }
            char **slot = !strcmp(scalar(kn), "plot_x") ? &s->plot_x : !strcmp(scalar(kn), "plot_y") ? &s->plot_y
                                                                                                    : &s->plot_scale;
            g_autoptr(GError) bad = NULL;
            SweepPlotScale scale;
            if (slot == &s->plot_scale && !sweep_plot_scale_parse(scalar(vn), &scale, &bad)) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s", POS_ARGS(L, vn),
                            bad->message);
                return FALSE;
            }
            g_free(*slot);
            *slot = g_strdup(scalar(vn));
            continue;
        }
        SweepAxis *a = parse_axis(L, kn, vn, error);
        if (!a)
            return FALSE;
        g_ptr_array_add(s->axes, a);
    }
    if (!add_lock_files(L, s, error))
        return FALSE;
    if (find_axis(s->axes, "locks") < 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "no `locks` axis: name at least one lock (`qsim list locks`, or --lock-file PATH)",
                    POS_ARGS(L, root));
        return FALSE;
    }
    if (!check_lock_files(L, s, error))
        return FALSE;
    if (exclude && !parse_exclude(L, exclude, s->axes, s->excludes, error))
        return FALSE;
    return sweep_enumerate(s, error) && check_points(L, s, error);
}

Sweep *sweep_load_string(const char *text, const char *filename, GError **error)
{
    return sweep_load_string_full(text, filename, NULL, error);
}

Sweep *sweep_load_string_full(const char *text, const char *filename, const SweepLoadOptions *o, GError **error)
{
    g_autoptr(Sweep) s = sweep_new(filename);
    g_autofree char *base = g_path_get_dirname(filename);
    g_autoptr(GHashTable) lock_where = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GHashTable) value_index = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_hash_table_unref);
    g_autoptr(GHashTable) numbers = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
    g_autoptr(GHashTable) value_nodes = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_ptr_array_unref);
    g_autoptr(GPtrArray) shown_texts = g_ptr_array_new_with_free_func(g_free);
    SweepLoader L = { .filename = filename, .base = base, .lock_where = lock_where, .value_index = value_index, .numbers = numbers, .value_nodes = value_nodes,
                      .shown = shown_texts, .extra_locks = o ? o->lock_files : NULL };
    if (!yaml_doc_load(text, strlen(text), filename, "sweep file", &L.doc, QSIM_SWEEP_ERROR,
                       QSIM_SWEEP_ERROR_INPUT, error))
        return NULL;
    gboolean ok = load_root(&L, s, error);
    yaml_document_delete(&L.doc);
    return ok ? g_steal_pointer(&s) : NULL;
}

Sweep *sweep_load(const char *path, const SweepLoadOptions *o, GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) local = NULL;
    if (!input_file_read(path, INPUT_SWEEP, &text, NULL, &local)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%s", local->message);
        return NULL;
    }
    return sweep_load_string_full(text, path, o, error);
}

const char *sweep_value(const Sweep *s, guint p, guint a)
{
    guint vi = g_array_index(s->points, guint, p * s->axes->len + a);
    return ((SweepAxis *)s->axes->pdata[a])->values->pdata[vi];
}

int sweep_axis_find(const Sweep *s, const char *name) { return find_axis(s->axes, name); }

char *sweep_point_key(const Sweep *s, guint p)
{
    GString *k = g_string_new(NULL);
    for (guint a = 0; a < s->axes->len; a++)
        g_string_append_printf(k, "%s%s=%s", a ? ";" : "", ((SweepAxis *)s->axes->pdata[a])->name,
                               sweep_value(s, p, a));
    return g_string_free(k, FALSE);
}

void sweep_point_options(const Sweep *s, guint p, RunOptions *o, GPtrArray *sets)
{
    for (guint a = 0; a < s->axes->len; a++) {
        const SweepAxis *ax = s->axes->pdata[a];
        const char *v = sweep_value(s, p, a);
        guint64 n = g_ascii_strtoull(v, NULL, 10);   /* checked when loaded */
        switch (ax->kind) {
        case AXIS_CONFIG: o->config = v; break;
        case AXIS_LOCK: {
            /* A lock file runs as --lock-file (its report names the file). */
            guint vi = g_array_index(s->points, guint, p * s->axes->len + a);
            const char *file = ax->lock_files->pdata[vi];
            o->lock = file ? NULL : v;
            o->lock_file = file;
            break;
        }
        case AXIS_SEED: o->seed = n; break;
        case AXIS_WORKLOAD: workload_parse(ax->key, v, ax->name, &o->workload, NULL); break;
        case AXIS_CONFIG_KEY: g_ptr_array_add(sets, g_strdup_printf("%s=%s", ax->name, v)); break;
        case AXIS_LOCK_PARAM: break;
        }
    }
    g_ptr_array_add(sets, NULL);
    /* The lock parameters follow the overrides' NULL in the same array, with a NULL of their own. */
    guint params_at = sets->len;
    for (guint a = 0; a < s->axes->len; a++) {
        const SweepAxis *ax = s->axes->pdata[a];
        if (ax->kind == AXIS_LOCK_PARAM)
            g_ptr_array_add(sets, g_strdup_printf("%s=%s", ax->name + strlen(SWEEP_LOCK_PARAM_PREFIX),
                                                  sweep_value(s, p, a)));
    }
    g_ptr_array_add(sets, NULL);
    o->sets = (const char *const *)sets->pdata;
    o->lock_params = (const char *const *)sets->pdata + params_at;
    /* Sweeps compare byte for byte: the host's speed is no result. */
    o->host_time = FALSE;
}

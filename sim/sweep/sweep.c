/* Sweep files: libyaml walk, axis checks, the cross product and `exclude`.
 * Every error a sweep file can cause names file:line:col, as config errors do. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "sim/sweep/sweep.h"
#include "sim/base/suggest.h"
#include "sim/verify.h"

G_DEFINE_QUARK(qsim-sweep-error-quark, qsim_sweep_error)

/* More points than this is almost surely a mistake (and would not finish anyway). */
#define SWEEP_MAX_POINTS 1000000u

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

typedef struct {
    const char *filename;
    yaml_document_t doc;
} SweepLoader;

#define POS_FMT "%s:%zu:%zu: "
#define POS_ARGS(L, n) (L)->filename, (n)->start_mark.line + 1, (n)->start_mark.column + 1

static void axis_free(gpointer p)
{
    SweepAxis *a = p;
    g_free(a->name);
    g_ptr_array_unref(a->values);
    g_free(a);
}

void sweep_free(Sweep *s)
{
    if (!s)
        return;
    g_free(s->filename);
    g_ptr_array_unref(s->axes);
    g_array_unref(s->points);
    g_free(s->fingerprint);
    g_free(s->plot_x);
    g_free(s->plot_y);
    g_free(s);
}

static const char *scalar(yaml_node_t *n) { return (const char *)n->data.scalar.value; }

static const char *node_kind(yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a single value";
}

static gboolean parse_uint(const char *s, guint64 min, guint64 max, guint64 *out)
{
    char *end = NULL;
    errno = 0;
    if (!g_ascii_isdigit(*s))
        return FALSE;
    guint64 v = g_ascii_strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return FALSE;
    *out = v;
    return TRUE;
}

/* Checks one value of axis `a` (a scalar node), so that bad values fail before anything runs. */
static gboolean check_value(SweepLoader *L, SweepAxis *a, yaml_node_t *n, GError **error)
{
    const char *v = scalar(n);
    g_autoptr(GError) local = NULL;
    switch (a->kind) {
    case AXIS_CONFIG: {
        g_autoptr(QsimConfig) c = config_load(v, NULL, &local);
        if (!c)
            goto fail;
        return TRUE;
    }
    case AXIS_LOCK: {
        g_autofree char *path = verify_find_lock(v, &local);
        if (!path)
            goto fail;
        return TRUE;
    }
    case AXIS_SEED: {
        guint64 x;
        if (parse_uint(v, 0, G_MAXINT64, &x))
            return TRUE;
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "seeds: expected an integer in [0, %" G_GINT64_FORMAT "], got '%s'", POS_ARGS(L, n),
                    G_MAXINT64, v);
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

static gboolean add_value(SweepLoader *L, SweepAxis *a, yaml_node_t *n, GError **error)
{
    if (n->type != YAML_SCALAR_NODE) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "%s: expected a value, got %s", POS_ARGS(L, n), a->name, node_kind(n));
        return FALSE;
    }
    const char *v = scalar(n);
    if (!*v) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, POS_FMT "%s: empty value",
                    POS_ARGS(L, n), a->name);
        return FALSE;
    }
    for (guint i = 0; i < a->values->len; i++)
        if (!strcmp(a->values->pdata[i], v)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: value '%s' given twice", POS_ARGS(L, n), a->name, v);
            return FALSE;
        }
    if (!check_value(L, a, n, error))
        return FALSE;
    g_ptr_array_add(a->values, g_strdup(v));
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
    g_ptr_array_add(names, "exclude");
    g_ptr_array_add(names, "plot_x");
    g_ptr_array_add(names, "plot_y");
    for (guint i = 0; i < qsim_config_schema_len; i++)
        g_ptr_array_add(names, (gpointer)qsim_config_schema[i].path);
    const char *hint = suggest_closest(key, (const char *const *)names->pdata, names->len);
    if (hint)
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "unknown axis '%s'; did you mean '%s'?", POS_ARGS(L, kn), key, hint);
    else
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "unknown axis '%s' (axes: configs, locks, seeds, run options such as threads, "
                    "config keys such as core.pause_cycles, or lock parameters such as lock_param.spin_count; "
                    "see docs/sweeps.md)", POS_ARGS(L, kn), key);
    g_ptr_array_unref(names);
}

static SweepAxis *parse_axis(SweepLoader *L, yaml_node_t *kn, yaml_node_t *vn, GError **error)
{
    const char *key = scalar(kn);
    int row = -1;
    for (guint i = 0; i < G_N_ELEMENTS(axis_table); i++)
        if (!strcmp(axis_table[i].name, key))
            row = (int)i;
    const WorkloadKey *wk = row < 0 ? workload_axis_find(key) : NULL;
    gboolean lock_param = g_str_has_prefix(key, SWEEP_LOCK_PARAM_PREFIX);
    if (lock_param && !g_regex_match_simple("^[A-Za-z_][A-Za-z0-9_]*$", key + strlen(SWEEP_LOCK_PARAM_PREFIX), 0, 0)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "%s: a lock parameter axis is lock_param.NAME, NAME a `.param` of the locks",
                    POS_ARGS(L, kn), key);
        return NULL;
    }
    if (row < 0 && !wk && !lock_param && !config_schema_find(key)) {
        unknown_axis(L, kn, error);
        return NULL;
    }
    SweepAxis *a = g_new0(SweepAxis, 1);
    a->name = g_strdup(key);
    a->kind = row >= 0 ? axis_table[row].kind : wk ? AXIS_WORKLOAD : lock_param ? AXIS_LOCK_PARAM : AXIS_CONFIG_KEY;
    a->key = wk;
    a->values = g_ptr_array_new_with_free_func(g_free);
    if (a->kind == AXIS_SEED && vn->type == YAML_SCALAR_NODE) {
        /* `seeds: N` means N repeats, seeds 1..N; a list names the seeds. */
        guint64 n;
        if (!parse_uint(scalar(vn), 1, 100000, &n)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "seeds: expected a count in [1, 100000] or a list of seeds, got '%s'",
                        POS_ARGS(L, vn), scalar(vn));
            axis_free(a);
            return NULL;
        }
        for (guint64 i = 1; i <= n; i++)
            g_ptr_array_add(a->values, g_strdup_printf("%" G_GUINT64_FORMAT, i));
        return a;
    }
    if (vn->type == YAML_SCALAR_NODE) {
        if (!add_value(L, a, vn, error))
            goto fail;
    } else if (vn->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = vn->data.sequence.items.start; it < vn->data.sequence.items.top; it++)
            if (!add_value(L, a, yaml_document_get_node(&L->doc, *it), error))
                goto fail;
        if (!a->values->len) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "%s: empty axis (give at least one value)", POS_ARGS(L, vn), key);
            goto fail;
        }
    } else {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "%s: expected a value or a list of values, got a mapping", POS_ARGS(L, vn), key);
        goto fail;
    }
    return a;
fail:
    axis_free(a);
    return NULL;
}

/* An exclude entry: for each axis it names, the set of value indices it matches. */
typedef struct {
    guint axis;
    GArray *values;   /* of guint */
} ExcludeTerm;

static void exclude_free(gpointer p)
{
    GArray *terms = p;
    for (guint i = 0; i < terms->len; i++)
        g_array_unref(g_array_index(terms, ExcludeTerm, i).values);
    g_array_unref(terms);
}

static int find_axis(GPtrArray *axes, const char *name)
{
    for (guint i = 0; i < axes->len; i++)
        if (!strcmp(((SweepAxis *)axes->pdata[i])->name, name))
            return (int)i;
    return -1;
}

static gboolean exclude_value(SweepLoader *L, SweepAxis *a, yaml_node_t *n, GArray *out, GError **error)
{
    if (n->type != YAML_SCALAR_NODE) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "exclude: %s: expected a value, got %s", POS_ARGS(L, n), a->name, node_kind(n));
        return FALSE;
    }
    for (guint i = 0; i < a->values->len; i++)
        if (!strcmp(a->values->pdata[i], scalar(n))) {
            g_array_append_val(out, i);
            return TRUE;
        }
    /* A value the axis does not have would exclude nothing: most likely a typo. */
    const char *hint = suggest_closest(scalar(n), (const char *const *)a->values->pdata, a->values->len);
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                POS_FMT "exclude: %s has no value '%s'%s%s%s", POS_ARGS(L, n), a->name, scalar(n),
                hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
    return FALSE;
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
        if (m->type != YAML_MAPPING_NODE || m->data.mapping.pairs.start == m->data.mapping.pairs.top) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        POS_FMT "exclude: each entry is a mapping such as {locks: tas, threads: 8}, got %s",
                        POS_ARGS(L, m), m->type == YAML_MAPPING_NODE ? "an empty mapping" : node_kind(m));
            return FALSE;
        }
        GArray *terms = g_array_new(FALSE, FALSE, sizeof(ExcludeTerm));
        g_ptr_array_add(excludes, terms);
        for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
            yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key);
            yaml_node_t *v = yaml_document_get_node(&L->doc, p->value);
            int ax = kn->type == YAML_SCALAR_NODE ? find_axis(axes, scalar(kn)) : -1;
            if (ax < 0) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                            POS_FMT "exclude: '%s' is not an axis of this sweep", POS_ARGS(L, kn),
                            kn->type == YAML_SCALAR_NODE ? scalar(kn) : "?");
                return FALSE;
            }
            ExcludeTerm t = { (guint)ax, g_array_new(FALSE, FALSE, sizeof(guint)) };
            g_array_append_val(terms, t);
            SweepAxis *a = axes->pdata[ax];
            if (v->type == YAML_SEQUENCE_NODE) {
                for (yaml_node_item_t *j = v->data.sequence.items.start; j < v->data.sequence.items.top; j++)
                    if (!exclude_value(L, a, yaml_document_get_node(&L->doc, *j), t.values, error))
                        return FALSE;
            } else if (!exclude_value(L, a, v, t.values, error)) {
                return FALSE;
            }
        }
    }
    return TRUE;
}

static gboolean excluded(GPtrArray *excludes, const guint *combo)
{
    for (guint e = 0; e < excludes->len; e++) {
        GArray *terms = excludes->pdata[e];
        gboolean all = TRUE;
        for (guint t = 0; t < terms->len && all; t++) {
            ExcludeTerm *term = &g_array_index(terms, ExcludeTerm, t);
            gboolean any = FALSE;
            for (guint k = 0; k < term->values->len && !any; k++)
                any = g_array_index(term->values, guint, k) == combo[term->axis];
            all = any;
        }
        if (all)
            return TRUE;
    }
    return FALSE;
}

/* The cross product, first axis slowest, as an odometer over value indices. */
static gboolean enumerate(SweepLoader *L, Sweep *s, GPtrArray *excludes, GError **error)
{
    guint na = s->axes->len;
    guint64 total = 1;
    for (guint a = 0; a < na; a++) {
        total *= ((SweepAxis *)s->axes->pdata[a])->values->len;
        if (total > SWEEP_MAX_POINTS) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        "%s:1:1: more than %u points; split the sweep", L->filename, SWEEP_MAX_POINTS);
            return FALSE;
        }
    }
    g_autofree guint *combo = g_new0(guint, na);
    for (guint64 n = 0; n < total; n++) {
        if (excluded(excludes, combo))
            s->excluded++;
        else {
            g_array_append_vals(s->points, combo, na);
            s->npoints++;
        }
        for (int a = (int)na - 1; a >= 0; a--) {
            if (++combo[a] < ((SweepAxis *)s->axes->pdata[a])->values->len)
                break;
            combo[a] = 0;
        }
    }
    if (!s->npoints) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "%s:1:1: exclude removes every point", L->filename);
        return FALSE;
    }
    GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
    for (guint p = 0; p < s->npoints; p++) {
        g_autofree char *key = sweep_point_key(s, p);
        g_checksum_update(sum, (const guchar *)key, -1);
        g_checksum_update(sum, (const guchar *)"\n", 1);
    }
    s->fingerprint = g_strdup(g_checksum_get_string(sum));
    g_checksum_free(sum);
    return TRUE;
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
        if (!strcmp(scalar(kn), "plot_x") || !strcmp(scalar(kn), "plot_y")) {
            /* The plot a sweep is made for (a pause sweep wants pause on x): --plot's defaults. */
            if (vn->type != YAML_SCALAR_NODE) {
                g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                            POS_FMT "%s: expected one name, got %s", POS_ARGS(L, vn), scalar(kn), node_kind(vn));
                return FALSE;
            }
            char **slot = !strcmp(scalar(kn), "plot_x") ? &s->plot_x : &s->plot_y;
            g_free(*slot);
            *slot = g_strdup(scalar(vn));
            continue;
        }
        SweepAxis *a = parse_axis(L, kn, vn, error);
        if (!a)
            return FALSE;
        g_ptr_array_add(s->axes, a);
    }
    if (find_axis(s->axes, "locks") < 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    POS_FMT "no `locks` axis: name at least one lock (`qsim list locks`)", POS_ARGS(L, root));
        return FALSE;
    }
    g_autoptr(GPtrArray) excludes = g_ptr_array_new_with_free_func(exclude_free);
    if (exclude && !parse_exclude(L, exclude, s->axes, excludes, error))
        return FALSE;
    return enumerate(L, s, excludes, error);
}

Sweep *sweep_load_string(const char *text, const char *filename, GError **error)
{
    g_autoptr(Sweep) s = g_new0(Sweep, 1);
    s->filename = g_strdup(filename);
    s->axes = g_ptr_array_new_with_free_func(axis_free);
    s->points = g_array_new(FALSE, FALSE, sizeof(guint));
    SweepLoader L = { .filename = filename };
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &L.doc)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%s:%zu:%zu: YAML syntax error: %s%s%s",
                    filename, parser.problem_mark.line + 1, parser.problem_mark.column + 1,
                    parser.problem ? parser.problem : "unreadable", parser.context ? " " : "",
                    parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return NULL;
    }
    yaml_parser_delete(&parser);
    gboolean ok = load_root(&L, s, error);
    yaml_document_delete(&L.doc);
    return ok ? g_steal_pointer(&s) : NULL;
}

Sweep *sweep_load(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) local = NULL;
    if (!g_file_get_contents(path, &text, NULL, &local)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%s", local->message);
        return NULL;
    }
    return sweep_load_string(text, path, error);
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
        case AXIS_LOCK: o->lock = v; break;
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

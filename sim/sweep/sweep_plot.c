/* `qsim sweep --plot`: a metric against one axis, one line per lock (and per value of every
 * other axis but seeds, which are averaged: a point over several seeds carries its 95% interval
 * as an error bar), one panel per config, drawn by gnuplot as PNG and SVG.  The data files and the script stay beside the images so users can restyle them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "sim/base/output_file.h"
#include "sim/report/run_report.h"
#include "sim/base/report.h"
#include "sim/base/sample_stats.h"
#include "sim/base/suggest.h"

/* One plotted line: its label, its style (the index of its label among all panels' lines, so a
 * line looks the same in every panel) and, per x value (in first-seen order), every y value
 * the seeds gave: drawn as their mean with a 95% interval when there are several. */
typedef struct {
    char *label;
    char *lock, *rest;     /* the label's lock, and the other axes that name the line */
    guint series;
    GPtrArray *ys;         /* of GArray of double, indexed like the panel's x values (NULL: none) */
} PlotLine;

typedef struct {
    char *name;
    GPtrArray *xs;          /* x value texts, first-seen order */
    GPtrArray *lines;       /* of PlotLine * */
} PlotPanel;

/* What is plotted on y: a report key, or the ratio of two (num/den). */
typedef struct {
    char *num, *den;        /* den NULL: the key alone */
} PlotY;

static gboolean parse_y(const char *yspec, PlotY *y, GError **error);

/* Colours that stay apart on white, in order: matplotlib's "tab10" (the Tableau 10 palette),
 * then black and dark goldenrod, so that twelve lines have twelve colours. */
static const char *const plot_colours[SWEEP_PLOT_COLOURS] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#b8860b",
};

SweepPlotStyle sweep_plot_style(guint i)
{
    /* The dash changes each time the colours come round again; point shapes (13 in gnuplot's
     * default set) cycle on their own, which separates lines further. */
    return (SweepPlotStyle){ plot_colours[i % SWEEP_PLOT_COLOURS], i / SWEEP_PLOT_COLOURS % 5 + 1, i % 13 + 1 };
}

gboolean sweep_plot_scale_parse(const char *text, SweepPlotScale *out, GError **error)
{
    static const char *const names[] = { "shared", "independent" };   /* SweepPlotScale order */
    for (guint i = 0; i < G_N_ELEMENTS(names); i++)
        if (!g_strcmp0(text, names[i])) {
            *out = (SweepPlotScale)i;
            return TRUE;
        }
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                "plot scale '%s': one of shared (one y range for all panels), independent", text ? text : "");
    return FALSE;
}

static void line_free(gpointer p)
{
    PlotLine *l = p;
    g_free(l->label);
    g_free(l->lock);
    g_free(l->rest);
    g_ptr_array_unref(l->ys);
    g_free(l);
}

static void panel_free(gpointer p)
{
    PlotPanel *pa = p;
    g_free(pa->name);
    g_ptr_array_unref(pa->xs);
    g_ptr_array_unref(pa->lines);
    g_free(pa);
}

static guint index_of(GPtrArray *a, const char *s)
{
    guint i;
    if (g_ptr_array_find_with_equal_func(a, s, g_str_equal, &i))
        return i;
    g_ptr_array_add(a, g_strdup(s));
    return a->len - 1;
}

static PlotLine *line_get(PlotPanel *pa, const char *lock, const char *rest, GPtrArray *series)
{
    g_autofree char *label = *rest ? g_strdup_printf("%s%s%s", lock, *lock ? " " : "", rest) : g_strdup(lock);
    for (guint i = 0; i < pa->lines->len; i++)
        if (!strcmp(((PlotLine *)pa->lines->pdata[i])->label, label))
            return pa->lines->pdata[i];
    PlotLine *l = g_new0(PlotLine, 1);
    l->label = g_strdup(label);
    l->lock = g_strdup(lock);
    l->rest = g_strdup(rest);
    l->series = index_of(series, label);
    l->ys = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    g_ptr_array_add(pa->lines, l);
    return l;
}

/* For file names: letters, digits, '-', '_', '.'; the rest become '_'. */
static char *safe_name(const char *s)
{
    char *r = g_strdup(s);
    for (char *p = r; *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_' && *p != '.')
            *p = '_';
    return r;
}

static char *gp_quote(const char *s)
{
    GString *q = g_string_new("\"");
    for (const char *p = s; *p; p++) {
        if (*p == '\n') {
            g_string_append(q, "\\n");   /* gnuplot reads \n in a double-quoted string as a new line */
            continue;
        }
        if (*p == '"' || *p == '\\')
            g_string_append_c(q, '\\');
        g_string_append_c(q, *p);
    }
    g_string_append_c(q, '"');
    return g_string_free(q, FALSE);
}

static gboolean all_numeric(GPtrArray *xs)
{
    for (guint i = 0; i < xs->len; i++) {
        char *end;
        g_ascii_strtod(xs->pdata[i], &end);
        if (end == xs->pdata[i] || *end)
            return FALSE;
    }
    return TRUE;
}

static gint cmp_x(gconstpointer a, gconstpointer b, gpointer xs)
{
    double x = g_ascii_strtod(((GPtrArray *)xs)->pdata[*(const guint *)a], NULL);
    double y = g_ascii_strtod(((GPtrArray *)xs)->pdata[*(const guint *)b], NULL);
    return (x > y) - (x < y);
}

static gint cmp_double(gconstpointer a, gconstpointer b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static gboolean has_terminal(const char *gnuplot, const char *term)
{
    g_autofree char *cmd = g_strdup_printf("set terminal %s", term);
    const char *argv[] = { gnuplot, "-e", cmd, NULL };
    int status = -1;
    if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                      NULL, NULL, NULL, &status, NULL))
        return FALSE;
    return g_spawn_check_wait_status(status, NULL);
}

/* A numeric field of the flattened report, or NULL. */
static const ReportField *field_find(GArray *f, const char *key)
{
    for (guint k = 0; k < f->len; k++) {
        ReportField *rf = &g_array_index(f, ReportField, k);
        if (!strcmp(rf->key, key))
            return rf->numeric ? rf : NULL;
    }
    return NULL;
}

static gboolean no_such_key(const char *spec, const char *key, GPtrArray *known, GError **error)
{
    const char *hint = suggest_closest(key, (const char *const *)known->pdata, known->len);
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                "--plot-y %s: %s%snot a numeric report key%s%s%s (keys are the results.csv columns after "
                "`failure`; KEY/KEY2 plots a ratio, as coherence.lock_line.rfo/acquisitions)", spec,
                strcmp(spec, key) ? key : "", strcmp(spec, key) ? " is " : "", hint ? "; did you mean '" : "",
                hint ? hint : "", hint ? "'?" : "");
    return FALSE;
}

/* Sorts the finished rows into panels and lines, averaging y over seeds.  `series` collects
 * every line's label, first seen first. */
/* A row's machine clock, for --plot-unit ns: its config (the `configs` axis, else the default
 * run's) as loaded, a `frequency_ghz` axis winning. */
static double row_ghz(JsonObject *axes, GHashTable *cache)
{
    const char *f = json_object_get_string_member_with_default(axes, "frequency_ghz", NULL);
    if (f)
        return g_ascii_strtod(f, NULL);
    RunOptions ro;
    run_options_init(&ro);
    const char *name = json_object_get_string_member_with_default(axes, "configs", ro.config);
    gpointer v;
    if (g_hash_table_lookup_extended(cache, name, NULL, &v))
        return *(double *)v;
    g_autoptr(QsimConfig) cfg = config_load(name, NULL, NULL);
    double *ghz = g_new(double, 1);
    *ghz = cfg ? cfg->frequency_ghz : 0;
    g_hash_table_insert(cache, g_strdup(name), ghz);
    return *ghz;
}

/* "iterations 100, data same-line": the axes with one value, which every point shares. */
static char *fixed_axes(GHashTable *distinct, const char *xaxis)
{
    GString *s = g_string_new(NULL);
    g_autoptr(GList) names = g_list_sort(g_hash_table_get_keys(distinct), (GCompareFunc)strcmp);
    for (GList *l = names; l; l = l->next) {
        GHashTable *vals = g_hash_table_lookup(distinct, l->data);
        if (g_hash_table_size(vals) != 1 || !strcmp(l->data, xaxis) || !strcmp(l->data, "seeds"))
            continue;
        g_autoptr(GList) one = g_hash_table_get_keys(vals);
        g_string_append_printf(s, "%s%s %s", s->len ? ", " : "", (char *)l->data, (char *)one->data);
    }
    return g_string_free(s, FALSE);
}

static gboolean collect(GPtrArray *rows, const char *yspec, const PlotY *y, const char *xaxis, gboolean ns,
                        GPtrArray *panels, GPtrArray *series, char **fixed, GError **error)
{
    g_autoptr(GHashTable) clocks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GPtrArray) known = g_ptr_array_new_with_free_func(g_free);
    gboolean found_num = FALSE, found_den = FALSE, found_x = FALSE;
    /* Only axes that vary name a line: "qspin data=same-line", not "qspin iterations=300". */
    g_autoptr(GHashTable) distinct = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                           (GDestroyNotify)g_hash_table_unref);
    for (guint i = 0; i < rows->len; i++) {
        g_autoptr(JsonParser) parser = json_parser_new();
        json_parser_load_from_data(parser, ((SweepRow *)rows->pdata[i])->line, -1, NULL);
        JsonObject *axes = json_object_get_object_member(json_node_get_object(json_parser_get_root(parser)), "axes");
        g_autoptr(GList) names = axes ? json_object_get_members(axes) : NULL;
        for (GList *l = names; l; l = l->next) {
            GHashTable *vals = g_hash_table_lookup(distinct, l->data);
            if (!vals) {
                vals = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                g_hash_table_insert(distinct, g_strdup(l->data), vals);
            }
            g_hash_table_add(vals, g_strdup(json_object_get_string_member(axes, l->data)));
        }
    }
    for (guint i = 0; i < rows->len; i++) {
        SweepRow *r = rows->pdata[i];
        if (!r->ok)
            continue;   /* a failed run has no meaningful metric */
        g_autoptr(JsonParser) parser = json_parser_new();
        json_parser_load_from_data(parser, r->line, -1, NULL);
        JsonObject *o = json_node_get_object(json_parser_get_root(parser));
        JsonObject *axes = json_object_get_object_member(o, "axes");
        const char *xv = json_object_get_string_member_with_default(axes, xaxis, NULL);
        if (!xv)
            continue;
        found_x = TRUE;
        GArray *f = report_flatten(json_object_get_member(o, "report"));
        if (!known->len)
            for (guint k = 0; k < f->len; k++)
                g_ptr_array_add(known, g_strdup(g_array_index(f, ReportField, k).key));
        const ReportField *num = field_find(f, y->num);
        const ReportField *den = y->den ? field_find(f, y->den) : NULL;
        found_num |= num != NULL;
        found_den |= den != NULL;
        /* A ratio over nothing (no acquisitions) is no value. */
        if (!num || (y->den && (!den || den->number == 0))) {
            report_fields_free(f);
            continue;
        }
        double value = y->den ? num->number / den->number : num->number;
        if (ns) {
            double ghz = row_ghz(axes, clocks);
            if (ghz <= 0) {
                report_fields_free(f);
                continue;   /* no clock to turn its cycles into time */
            }
            value /= ghz;
        }
        const char *panel = json_object_get_string_member_with_default(axes, "configs", "");
        PlotPanel *pa = NULL;
        for (guint k = 0; k < panels->len && !pa; k++)
            if (!strcmp(((PlotPanel *)panels->pdata[k])->name, panel))
                pa = panels->pdata[k];
        if (!pa) {
            pa = g_new0(PlotPanel, 1);
            pa->name = g_strdup(panel);
            pa->xs = g_ptr_array_new_with_free_func(g_free);
            pa->lines = g_ptr_array_new_with_free_func(line_free);
            g_ptr_array_add(panels, pa);
        }
        /* The line: the lock, then every other axis that is not x, config or seed. */
        GString *rest = g_string_new(NULL);
        g_autoptr(GList) names = json_object_get_members(axes);
        for (GList *l = names; l; l = l->next) {
            const char *n = l->data;
            if (!strcmp(n, xaxis) || !strcmp(n, "configs") || !strcmp(n, "locks") || !strcmp(n, "seeds") ||
                g_hash_table_size(g_hash_table_lookup(distinct, n)) < 2)
                continue;
            g_string_append_printf(rest, "%s%s=%s", rest->len ? " " : "", n, json_object_get_string_member(axes, n));
        }
        PlotLine *pl = line_get(pa, json_object_get_string_member_with_default(axes, "locks", ""), rest->str, series);
        g_string_free(rest, TRUE);
        guint xi = index_of(pa->xs, xv);
        if (pl->ys->len <= xi)
            g_ptr_array_set_size(pl->ys, (gint)xi + 1);
        if (!pl->ys->pdata[xi])
            pl->ys->pdata[xi] = g_array_new(FALSE, FALSE, sizeof(double));
        g_array_append_val((GArray *)pl->ys->pdata[xi], value);
        report_fields_free(f);
    }
    if (!found_x) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--plot: no finished point has a `%s` axis to plot against (choose one with --plot-x)", xaxis);
        return FALSE;
    }
    *fixed = fixed_axes(distinct, xaxis);
    if (!found_num)
        return no_such_key(yspec, y->num, known, error);
    if (y->den && !found_den)
        return no_such_key(yspec, y->den, known, error);
    if (!panels->len) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "--plot-y %s: %s is zero in every point",
                    yspec, y->den);
        return FALSE;
    }
    return TRUE;
}

/* A report key for people: "coherence.lock_line.rfo" -> "coherence lock line rfo". */
static char *key_words(const char *key)
{
    char *w = g_strdup(key);
    g_strdelimit(w, "._", ' ');
    return w;
}

static const char *key_unit(const char *key)
{
    return run_report_key_unit(run_counter_groups, RUN_GROUPS, key);
}

/* The y axis's label, with the unit docs/report.md gives the key: "cycles per acquisition
 * (cycles)", "coherence lock line rfo per acquisition (events)"; in ns with --plot-unit ns. */
static char *y_label(const PlotY *y, gboolean ns)
{
    const char *unit = ns ? "ns" : key_unit(y->num);
    const char *den_unit = y->den ? key_unit(y->den) : NULL;
    g_autofree char *num = key_words(y->num);
    if (ns && g_str_has_prefix(num, "cycles")) {   /* "cycles per acquisition" in time */
        g_autofree char *in_time = g_strconcat("time", num + strlen("cycles"), NULL);
        g_free(num);
        num = g_steal_pointer(&in_time);
    }
    g_autofree char *what = !y->den                           ? g_strdup(num)
                            : !strcmp(y->den, "acquisitions") ? g_strdup_printf("%s per acquisition", num)
                                                              : g_strdup_printf("%s / %s", num, y->den);
    if (!unit)
        return g_steal_pointer(&what);
    if (y->den && strcmp(y->den, "acquisitions") && den_unit && strcmp(den_unit, unit))
        return g_strdup_printf("%s (%s / %s)", what, unit, den_unit);
    return g_strdup_printf("%s (%s)", what, unit);
}

gboolean sweep_plot_unit_ok(const char *yspec, GError **error)
{
    PlotY y;
    gboolean parsed = parse_y(yspec, &y, error);
    g_autofree char *num = y.num;
    if (!parsed)
        return FALSE;
    const char *unit = key_unit(num);
    if (!g_strcmp0(unit, "cycles") && !(y.den && !g_strcmp0(key_unit(y.den), "cycles")))
        return TRUE;
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                "--plot-unit ns: %s is in %s, not cycles: only cycles turn into time", yspec, unit ? unit : "no unit");
    return FALSE;
}

/* Numeric x values in a geometric progression over a wide span (threads 1, 2, 4, ..., 256)
 * read best on a log scale, each step the same width: its base, or 0 for a linear axis. */
static double log_base(GPtrArray *panels)
{
    g_autoptr(GArray) xs = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < panels->len; i++) {
        PlotPanel *pa = panels->pdata[i];
        if (!all_numeric(pa->xs))
            return 0;
        for (guint k = 0; k < pa->xs->len; k++) {
            double x = g_ascii_strtod(pa->xs->pdata[k], NULL);
            gboolean have = FALSE;
            for (guint j = 0; j < xs->len && !have; j++)
                have = g_array_index(xs, double, j) == x;
            if (!have)
                g_array_append_val(xs, x);
        }
    }
    if (xs->len < 4)
        return 0;
    g_array_sort(xs, (GCompareFunc)cmp_double);
    double *v = (double *)xs->data;
    if (v[0] <= 0 || v[xs->len - 1] / v[0] < 16)
        return 0;
    double ratio = v[1] / v[0];
    if (ratio < 1.5)
        return 0;
    for (guint j = 2; j < xs->len; j++)
        if (fabs(v[j] / v[j - 1] - ratio) > 1e-9 * ratio)
            return 0;
    return ratio;
}

/* The y range every panel shares: the data's (intervals included), with a margin, from 0 when the data is not
 * negative and the margin would cross it. */
static void shared_range(GPtrArray *panels, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (guint i = 0; i < panels->len; i++) {
        PlotPanel *pa = panels->pdata[i];
        for (guint l = 0; l < pa->lines->len; l++) {
            PlotLine *pl = pa->lines->pdata[l];
            for (guint x = 0; x < pl->ys->len; x++) {
                GArray *v = pl->ys->pdata[x];
                if (!v || !v->len)
                    continue;
                SampleStats st; /* the range holds the error bars too */
                sample_stats((const double *)v->data, v->len, &st);
                *lo = MIN(*lo, st.ci_low);
                *hi = MAX(*hi, st.ci_high);
            }
        }
    }
    double span = *hi - *lo;
    double pad = span > 0 ? span * 0.05 : MAX(fabs(*hi) * 0.05, 1);
    gboolean nonneg = *lo >= 0;
    *lo -= pad;
    *hi += pad;
    if (nonneg && *lo < 0)
        *lo = 0;
}

/* `yspec` as a report key or a ratio of two; y->num is the caller's to free. */
static gboolean parse_y(const char *yspec, PlotY *y, GError **error)
{
    const char *slash = strchr(yspec, '/');
    y->num = slash ? g_strndup(yspec, slash - yspec) : g_strdup(yspec);
    y->den = slash ? (char *)slash + 1 : NULL;
    if (*y->num && !(y->den && (!*y->den || strchr(y->den, '/'))))
        return TRUE;
    g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                "--plot-y %s: expected KEY or KEY/KEY2 (a ratio, as coherence.lock_line.rfo/acquisitions)", yspec);
    return FALSE;
}

gboolean sweep_plot_check(const Sweep *s, const SweepPlotOptions *o, GError **error)
{
    const char *x = o->x ? o->x : "threads";
    if (sweep_axis_find(s, x) < 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--plot-x %s: the sweep has no `%s` axis to plot against", x, x);
        return FALSE;
    }
    const char *yspec = o->y ? o->y : "cycles_per_acquisition";
    PlotY y;
    gboolean parsed = parse_y(yspec, &y, error);
    g_autofree char *num = y.num;
    if (!parsed)
        return FALSE;
    /* The keys come from a report of the first point made short: which keys a report has does
     * not depend on how long the run is. */
    RunOptions ro;
    run_options_init(&ro);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(s, 0, &ro, sets);
    if (ro.workload.duration) {
        ro.workload.duration = MIN(ro.workload.duration, 2000);
        ro.workload.warmup = 0;
    } else {
        ro.workload.iterations = 1;
    }
    RunResult r;
    g_autoptr(GError) run_error = NULL;
    if (!run_simulation(&ro, &r, &run_error))
        return TRUE;   /* the point's own run says what is wrong with it */
    GArray *f = report_flatten(r.report);
    g_autoptr(GPtrArray) known = g_ptr_array_new_with_free_func(g_free);
    for (guint k = 0; k < f->len; k++)
        g_ptr_array_add(known, g_strdup(g_array_index(f, ReportField, k).key));
    const char *missing = !field_find(f, num) ? num : y.den && !field_find(f, y.den) ? y.den : NULL;
    gboolean ok = !missing || no_such_key(yspec, missing, known, error);
    report_fields_free(f);
    run_result_clear(&r);
    return ok;
}

/* The most seeds any plotted point averages (1: a plain line, no error bars). */
static guint most_seeds(GPtrArray *panels)
{
    guint n = 1;
    for (guint i = 0; i < panels->len; i++) {
        PlotPanel *pa = panels->pdata[i];
        for (guint l = 0; l < pa->lines->len; l++) {
            PlotLine *pl = pa->lines->pdata[l];
            for (guint x = 0; x < pl->ys->len; x++)
                if (pl->ys->pdata[x])
                    n = MAX(n, ((GArray *)pl->ys->pdata[x])->len);
        }
    }
    return n;
}

/* What the plot shows, what every point shared, and what its error bars are. */
static char *plot_title(const char *ylabel, const char *xlabel, const char *fixed, guint seeds, guint npanels,
                        gboolean ns, const PlotY *y)
{
    GString *t = g_string_new(NULL);
    g_string_append_printf(t, "%s against %s%s", ylabel, xlabel, npanels > 1 ? ", a panel per config" : "");
    if (*fixed)
        g_string_append_printf(t, "; every point: %s", fixed);
    if (seeds > 1)
        g_string_append_printf(t, "\nmean of %u seeds; error bars: its 95%% interval, n = %u (t on the log scale)",
                               seeds, seeds);
    if (npanels > 1 && !ns && !g_strcmp0(key_unit(y->num), "cycles"))
        g_string_append(t, "; each panel in its own machine's cycles (--plot-unit ns compares them in time)");
    return g_string_free(t, FALSE);
}

/* plot.gp up to the panels: what it is, a style per line, the terminals and layout, the axes
 * and (shared) the y range. */
static GString *script_head(const char *gnuplot, GPtrArray *panels, GPtrArray *series, const char *ylabel,
                            const char *xaxis, const char *title, SweepPlotScale scale)
{
    /* The key sits outside the plot, right of it, in as many columns as it needs; the panel is
     * made wider by the key's width so the plot keeps its size. */
    guint longest = 0;
    for (guint i = 0; i < series->len; i++)
        longest = MAX(longest, (guint)strlen(series->pdata[i]));
    guint per_col = 22, key_cols = (series->len + per_col - 1) / per_col;
    guint panel_w = 640 + key_cols * (longest * 7 + 70), panel_h = 480;
    guint cols = (guint)ceil(sqrt(panels->len)), nrows = (panels->len + cols - 1) / cols;
    const char *png = has_terminal(gnuplot, "pngcairo") ? "pngcairo" : "png";
    GString *gp = g_string_new(NULL);
    g_autofree char *qy = gp_quote(ylabel), *qx = gp_quote(xaxis), *qt = gp_quote(title);
    g_string_append_printf(gp,
        "# qsim sweep plot: %s against %s, one line per lock (seeds averaged), one panel per config.\n"
        "# Data: plot-*.dat beside this file (one block per line).  Restyle, then: gnuplot plot.gp\n",
        ylabel, xaxis);
    /* One style per line, the same in every panel. */
    for (guint i = 0; i < series->len; i++) {
        SweepPlotStyle st = sweep_plot_style(i);
        g_autofree char *ql = gp_quote(series->pdata[i]);
        g_string_append_printf(gp, "set linetype %u lc rgb \"%s\" dt %u pt %u lw 1.5   # %s\n", i + 1, st.colour,
                               st.dash, st.point, ql);
    }
    double base = log_base(panels);
    g_string_append_printf(gp,
        "do for [fmt in \"png svg\"] {\n"
        "  if (fmt eq \"png\") { set terminal %s size %u,%u noenhanced } else { set terminal svg size %u,%u noenhanced }\n"
        "  set output \"plot.\".fmt\n"
        "  set multiplot layout %u,%u title %s\n"
        "  set grid\n"
        "  set key outside right top vertical Left reverse maxrows %u samplen 3\n"
        "  set xlabel %s\n  set ylabel %s\n",
        png, panel_w * cols, panel_h * nrows + 40, panel_w * cols, panel_h * nrows + 40, nrows, cols, qt, per_col, qx,
        qy);
    if (base > 0) {
        char b[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append_printf(gp, "  set logscale x %s\n", g_ascii_formatd(b, sizeof b, "%g", base));
    }
    if (scale == SWEEP_SCALE_SHARED && panels->len > 1) {
        double lo, hi;
        shared_range(panels, &lo, &hi);
        char lb[G_ASCII_DTOSTR_BUF_SIZE], hb[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append_printf(gp, "  # One y range for every panel: they plot the same key.\n"
                                   "  set yrange [%s:%s]\n  set offsets graph 0.05, graph 0.05, 0, 0\n",
                               g_ascii_formatd(lb, sizeof lb, "%.6g", lo), g_ascii_formatd(hb, sizeof hb, "%.6g", hi));
    } else {
        g_string_append(gp, "  set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n");
    }
    return gp;
}

/* One data row without its end: x (numeric, or its index), y, the interval, x as text. */
static void data_row(GString *dat, const PlotPanel *pa, guint x, gboolean numeric, double y, double lo, double hi)
{
    char xb[G_ASCII_DTOSTR_BUF_SIZE], yb[G_ASCII_DTOSTR_BUF_SIZE], lb[G_ASCII_DTOSTR_BUF_SIZE],
        hb[G_ASCII_DTOSTR_BUF_SIZE];
    if (numeric)
        g_ascii_dtostr(xb, sizeof xb, g_ascii_strtod(pa->xs->pdata[x], NULL));
    else
        g_snprintf(xb, sizeof xb, "%u", x);
    g_ascii_formatd(yb, sizeof yb, "%.6g", y);
    g_ascii_formatd(lb, sizeof lb, "%.6g", lo);
    g_ascii_formatd(hb, sizeof hb, "%.6g", hi);
    g_autofree char *qxv = gp_quote(pa->xs->pdata[x]);
    g_string_append_printf(dat, "%s %s %s %s %s", xb, yb, lb, hb, qxv);
}

/* A panel's data: a block per line, a row per x (in `order`) with the mean over seeds and its
 * interval; *several when some x has more than one seed (the plot then draws the intervals). */
static char *panel_data(const PlotPanel *pa, const guint *order, gboolean numeric, const char *ylabel,
                        const char *xaxis, gboolean *several)
{
    GString *dat = g_string_new(NULL);
    *several = FALSE;
    g_string_append_printf(dat, "# %s: %s against %s; columns: x, mean over seeds, 95%% interval low and high, "
                                "the x value as text, seeds\n", pa->name, ylabel, xaxis);
    for (guint l = 0; l < pa->lines->len; l++) {
        PlotLine *pl = pa->lines->pdata[l];
        g_string_append_printf(dat, "%s# %s\n", l ? "\n\n" : "", pl->label);
        for (guint xo = 0; xo < pa->xs->len; xo++) {
            guint x = order[xo];
            GArray *v = x < pl->ys->len ? pl->ys->pdata[x] : NULL;
            if (!v || !v->len)
                continue;
            SampleStats st;
            sample_stats((const double *)v->data, v->len, &st);
            data_row(dat, pa, x, numeric, st.mean, st.ci_low, st.ci_high);
            g_string_append_printf(dat, " %u\n", v->len);
            *several |= v->len > 1;
        }
    }
    return g_string_free(dat, FALSE);
}

/* Writes the panel's DIR/plot-NAME.dat and appends its `plot` command to `gp`. */
static gboolean write_panel(const char *dir, const PlotPanel *pa, guint index, const char *ylabel, const char *xaxis,
                            GString *gp, GError **error)
{
    g_autofree char *base_name = safe_name(*pa->name ? pa->name : "all");
    g_autofree char *datname = g_strdup_printf("plot-%s.dat", base_name);
    gboolean numeric = all_numeric(pa->xs);
    /* Numeric x in ascending order, so a line does not zigzag when the file lists 8, 2, 4. */
    g_autofree guint *order = g_new(guint, pa->xs->len);
    for (guint x = 0; x < pa->xs->len; x++)
        order[x] = x;
    if (numeric)
        g_qsort_with_data(order, (gint)pa->xs->len, sizeof(guint), cmp_x, pa->xs);
    gboolean several;
    g_autofree char *dat = panel_data(pa, order, numeric, ylabel, xaxis, &several);
    g_autofree char *datpath = g_build_filename(dir, datname, NULL);
    if (!output_file_write(datpath, OUTPUT_TRUNCATE, dat, strlen(dat), error))
        return FALSE;
    g_autofree char *title = gp_quote(pa->name);
    /* One legend, on the first panel: a line's style is the same in every panel. */
    g_string_append_printf(gp, "  set title %s\n%s  plot", title, index == 1 ? "  unset key\n" : "");
    for (guint l = 0; l < pa->lines->len; l++) {
        PlotLine *pl = pa->lines->pdata[l];
        g_autofree char *lt = gp_quote(pl->label);
        g_string_append_printf(gp, "%s \"%s\" index %u using 1:2%s%s with %s lt %u title %s",
                               l ? ", \\\n      " : "", datname, l, several ? ":3:4" : "",
                               numeric ? "" : ":xtic(5)", several ? "yerrorlines" : "linespoints",
                               pl->series + 1, lt);
    }
    g_string_append(gp, "\n");
    return TRUE;
}

/* Writes DIR/plot.gp and runs gnuplot on it (in DIR, where the data files are). */
static gboolean run_gnuplot(const char *gnuplot, const char *dir, const char *name, const char *script,
                            GError **error)
{
    g_autofree char *gppath = g_build_filename(dir, name, NULL);
    if (!output_file_write(gppath, OUTPUT_TRUNCATE, script, strlen(script), error))
        return FALSE;
    const char *argv[] = { gnuplot, name, NULL };
    g_autofree char *err = NULL;
    int status = -1;
    if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, error))
        return FALSE;
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "gnuplot failed on %s:\n%s", gppath,
                    err ? err : "");
        return FALSE;
    }
    return TRUE;
}

/* The two locks of a sweep that compares two (in the order the rows name them), else FALSE. */
static gboolean two_locks(GPtrArray *panels, const char **a, const char **b)
{
    *a = *b = NULL;
    for (guint i = 0; i < panels->len; i++) {
        PlotPanel *pa = panels->pdata[i];
        for (guint l = 0; l < pa->lines->len; l++) {
            const char *lock = ((PlotLine *)pa->lines->pdata[l])->lock;
            if (!*a || !strcmp(*a, lock))
                *a = lock;
            else if (!*b || !strcmp(*b, lock))
                *b = lock;
            else
                return FALSE;
        }
    }
    return *a && *b;
}

static PlotLine *line_of(PlotPanel *pa, const char *lock, const char *rest)
{
    for (guint l = 0; l < pa->lines->len; l++) {
        PlotLine *pl = pa->lines->pdata[l];
        if (!strcmp(pl->lock, lock) && !strcmp(pl->rest, rest))
            return pl;
    }
    return NULL;
}

/* A sweep of two locks also gets DIR/plot-ratio.{png,svg}: b/a of y against x, a line per
 * config (and per other axis), each point the ratio of the means over seeds with its interval
 * (sample_stats.h), a line at 1: where b costs the same as a. */
static gboolean ratio_plot(const char *gnuplot, const char *dir, GPtrArray *panels, const char *ylabel,
                           const char *xlabel, guint seeds, GError **error)
{
    const char *a, *b;
    if (!two_locks(panels, &a, &b))
        return TRUE;
    GString *dat = g_string_new(NULL);
    GString *plot = g_string_new(NULL);
    guint block = 0;
    gboolean numeric = TRUE;
    for (guint i = 0; i < panels->len; i++)
        numeric &= all_numeric(((PlotPanel *)panels->pdata[i])->xs);
    for (guint i = 0; i < panels->len; i++) {
        PlotPanel *pa = panels->pdata[i];
        g_autofree guint *order = g_new(guint, pa->xs->len);
        for (guint x = 0; x < pa->xs->len; x++)
            order[x] = x;
        if (numeric)
            g_qsort_with_data(order, (gint)pa->xs->len, sizeof(guint), cmp_x, pa->xs);
        for (guint l = 0; l < pa->lines->len; l++) {
            PlotLine *la = pa->lines->pdata[l];
            PlotLine *lb = strcmp(la->lock, a) ? NULL : line_of(pa, b, la->rest);
            if (!lb)
                continue;
            g_autofree char *label = g_strdup_printf("%s%s%s", pa->name, *la->rest ? " " : "", la->rest);
            g_string_append_printf(dat, "%s# %s\n", block ? "\n\n" : "", label);
            for (guint xo = 0; xo < pa->xs->len; xo++) {
                guint x = order[xo];
                GArray *va = x < la->ys->len ? la->ys->pdata[x] : NULL, *vb = x < lb->ys->len ? lb->ys->pdata[x] : NULL;
                if (!va || !vb || !va->len || !vb->len)
                    continue;
                SampleStats sa, sb;
                sample_stats((const double *)va->data, va->len, &sa);
                sample_stats((const double *)vb->data, vb->len, &sb);
                RatioStats rs;
                ratio_stats(&sa, &sb, &rs);
                data_row(dat, pa, x, numeric, rs.ratio, rs.ci_low, rs.ci_high);
                g_string_append_c(dat, '\n');
            }
            g_autofree char *ql = gp_quote(label);
            g_string_append_printf(plot, "%s \"plot-ratio.dat\" index %u using 1:2%s%s with %s lt %u title %s",
                                   block ? ", \\\n      " : "", block, seeds > 1 ? ":3:4" : "",
                                   numeric ? "" : ":xtic(5)", seeds > 1 ? "yerrorlines" : "linespoints", block + 1,
                                   ql);
            block++;
        }
    }
    g_autofree char *data = g_string_free(dat, FALSE);
    g_autofree char *plots = g_string_free(plot, FALSE);
    if (!block)
        return TRUE;
    g_autofree char *datpath = g_build_filename(dir, "plot-ratio.dat", NULL);
    if (!output_file_write(datpath, OUTPUT_TRUNCATE, data, strlen(data), error))
        return FALSE;
    /* a ratio has no unit: the label's "(cycles)" goes */
    g_autofree char *what = g_strdup(ylabel);
    char *unit = strrchr(what, '(');
    if (unit && unit > what && g_str_has_suffix(what, ")"))
        unit[-1] = 0;
    g_autofree char *yl = g_strdup_printf("%s / %s, %s", b, a, what);
    g_autofree char *bars = seeds > 1 ? g_strdup_printf("\nthe ratio of the means of %u seeds; error bars: its 95%% "
                                                        "interval (log scale)", seeds)
                                      : g_strdup("");
    g_autofree char *title = g_strdup_printf("%s over %s against %s, a line per config%s", b, a, xlabel, bars);
    g_autofree char *qy = gp_quote(yl), *qx = gp_quote(xlabel), *qt = gp_quote(title);
    const char *png = has_terminal(gnuplot, "pngcairo") ? "pngcairo" : "png";
    g_autofree char *script = g_strdup_printf(
        "# qsim sweep plot: %s / %s against %s, a line per config.  Data: plot-ratio.dat.\n"
        "do for [fmt in \"png svg\"] {\n"
        "  if (fmt eq \"png\") { set terminal %s size 1000,600 noenhanced } else { set terminal svg size 1000,600 "
        "noenhanced }\n"
        "  set output \"plot-ratio.\".fmt\n  set grid\n  set key outside right top vertical Left reverse\n"
        "  set title %s\n  set xlabel %s\n  set ylabel %s\n  set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
        "  set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb \"#555555\"\n"
        "  plot %s\n  unset output\n}\n",
        b, a, xlabel, png, qt, qx, qy, plots);
    return run_gnuplot(gnuplot, dir, "plot-ratio.gp", script, error);
}

gboolean sweep_plot(const char *dir, const SweepPlotOptions *o, GError **error)
{
    const char *yspec = o->y ? o->y : "cycles_per_acquisition";
    const char *xaxis = o->x ? o->x : "threads";
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--plot needs gnuplot, which is not installed (Debian: apt-get install gnuplot-nox; "
                    "`make` as root installs it)");
        return FALSE;
    }
    PlotY y;
    gboolean y_ok = parse_y(yspec, &y, error);
    g_autofree char *num = y.num;
    if (!y_ok)
        return FALSE;
    g_autofree char *path = g_build_filename(dir, "results.jsonl", NULL);
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, error);
    if (!rows)
        return FALSE;
    g_autoptr(GPtrArray) panels = g_ptr_array_new_with_free_func(panel_free);
    g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *fixed = NULL;
    if (!collect(rows, yspec, &y, xaxis, o->ns, panels, series, &fixed, error))
        return FALSE;
    g_autofree char *ylabel = y_label(&y, o->ns);
    guint seeds = most_seeds(panels);
    g_autofree char *xlabel = key_words(xaxis);
    g_autofree char *title = plot_title(ylabel, xlabel, fixed, seeds, panels->len, o->ns, &y);
    GString *gp = script_head(gnuplot, panels, series, ylabel, xlabel, title, o->scale);
    for (guint i = 0; i < panels->len; i++)
        if (!write_panel(dir, panels->pdata[i], i, ylabel, xaxis, gp, error)) {
            g_string_free(gp, TRUE);
            return FALSE;
        }
    g_string_append(gp, "  unset multiplot\n  unset output\n}\n");
    g_autofree char *script = g_string_free(gp, FALSE);
    return run_gnuplot(gnuplot, dir, "plot.gp", script, error) &&
           ratio_plot(gnuplot, dir, panels, ylabel, xlabel, seeds, error);
}

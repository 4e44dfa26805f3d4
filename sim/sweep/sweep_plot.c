/* `qsim sweep --plot`: a metric against one axis, one line per lock (and per value of every
 * other axis but seeds, which are averaged), one panel per config, drawn by gnuplot as PNG and
 * SVG.  The data files and the script stay beside the images so users can restyle them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "sim/base/report.h"
#include "sim/base/suggest.h"

/* One plotted line: its label and, per x value (in first-seen order), the sum and count of y. */
typedef struct {
    char *label;
    GArray *sum, *count;   /* of double, guint; indexed like the panel's x values */
} PlotLine;

typedef struct {
    char *name;
    GPtrArray *xs;          /* x value texts, first-seen order */
    GPtrArray *lines;       /* of PlotLine * */
} PlotPanel;

static void line_free(gpointer p)
{
    PlotLine *l = p;
    g_free(l->label);
    g_array_unref(l->sum);
    g_array_unref(l->count);
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

static PlotLine *line_get(PlotPanel *pa, const char *label)
{
    for (guint i = 0; i < pa->lines->len; i++)
        if (!strcmp(((PlotLine *)pa->lines->pdata[i])->label, label))
            return pa->lines->pdata[i];
    PlotLine *l = g_new0(PlotLine, 1);
    l->label = g_strdup(label);
    l->sum = g_array_new(FALSE, TRUE, sizeof(double));
    l->count = g_array_new(FALSE, TRUE, sizeof(guint));
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

/* Sorts the finished rows into panels and lines, averaging y over seeds. */
static gboolean collect(GPtrArray *rows, const char *ykey, const char *xaxis, GPtrArray *panels, GError **error)
{
    g_autoptr(GPtrArray) known = g_ptr_array_new_with_free_func(g_free);
    gboolean found_y = FALSE, found_x = FALSE;
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
        const ReportField *y = NULL;
        for (guint k = 0; k < f->len; k++) {
            ReportField *rf = &g_array_index(f, ReportField, k);
            if (!strcmp(rf->key, ykey))
                y = rf;
        }
        if (!known->len)
            for (guint k = 0; k < f->len; k++)
                g_ptr_array_add(known, g_strdup(g_array_index(f, ReportField, k).key));
        if (!y || !y->numeric) {
            report_fields_free(f);
            continue;
        }
        found_y = TRUE;
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
        GString *label = g_string_new(json_object_get_string_member_with_default(axes, "locks", ""));
        g_autoptr(GList) names = json_object_get_members(axes);
        for (GList *l = names; l; l = l->next) {
            const char *n = l->data;
            if (!strcmp(n, xaxis) || !strcmp(n, "configs") || !strcmp(n, "locks") || !strcmp(n, "seeds") ||
                g_hash_table_size(g_hash_table_lookup(distinct, n)) < 2)
                continue;
            g_string_append_printf(label, "%s%s=%s", label->len ? " " : "", n,
                                   json_object_get_string_member(axes, n));
        }
        PlotLine *pl = line_get(pa, label->str);
        g_string_free(label, TRUE);
        guint xi = index_of(pa->xs, xv);
        if (pl->sum->len <= xi) {
            g_array_set_size(pl->sum, xi + 1);
            g_array_set_size(pl->count, xi + 1);
        }
        g_array_index(pl->sum, double, xi) += y->number;
        g_array_index(pl->count, guint, xi)++;
        report_fields_free(f);
    }
    if (!found_x) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--plot: no finished point has a `%s` axis to plot against (choose one with --plot-x)", xaxis);
        return FALSE;
    }
    if (!found_y) {
        const char *hint = suggest_closest(ykey, (const char *const *)known->pdata, known->len);
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--plot-y %s: not a numeric report key%s%s%s (keys are the results.csv columns after "
                    "`failure`)", ykey, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
        return FALSE;
    }
    return TRUE;
}

gboolean sweep_plot(const char *dir, const char *ykey, const char *xaxis, GError **error)
{
    ykey = ykey ? ykey : "cycles_per_acquisition";
    xaxis = xaxis ? xaxis : "threads";
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "--plot needs gnuplot, which is not installed (Debian: apt-get install gnuplot-nox; "
                    "`make` as root installs it)");
        return FALSE;
    }
    g_autofree char *path = g_build_filename(dir, "results.jsonl", NULL);
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, error);
    if (!rows)
        return FALSE;
    g_autoptr(GPtrArray) panels = g_ptr_array_new_with_free_func(panel_free);
    if (!collect(rows, ykey, xaxis, panels, error))
        return FALSE;

    guint cols = (guint)ceil(sqrt(panels->len)), nrows = (panels->len + cols - 1) / cols;
    const char *png = has_terminal(gnuplot, "pngcairo") ? "pngcairo" : "png";
    GString *gp = g_string_new(NULL);
    g_autofree char *qy = gp_quote(ykey), *qx = gp_quote(xaxis);
    g_string_append_printf(gp,
        "# qsim sweep plot: %s against %s, one line per lock (seeds averaged), one panel per config.\n"
        "# Data: plot-*.dat beside this file (one block per line).  Restyle, then: gnuplot plot.gp\n"
        "do for [fmt in \"png svg\"] {\n"
        "  if (fmt eq \"png\") { set terminal %s size %u,%u noenhanced } else { set terminal svg size %u,%u noenhanced }\n"
        "  set output \"plot.\".fmt\n"
        "  set multiplot layout %u,%u\n"
        "  set grid\n  set key below\n  set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n  set xlabel %s\n  set ylabel %s\n",
        ykey, xaxis, png, 640 * cols, 480 * nrows, 640 * cols, 480 * nrows, nrows, cols, qx, qy);
    for (guint i = 0; i < panels->len; i++) {
        PlotPanel *pa = panels->pdata[i];
        g_autofree char *base = safe_name(*pa->name ? pa->name : "all");
        g_autofree char *datname = g_strdup_printf("plot-%s.dat", base);
        gboolean numeric = all_numeric(pa->xs);
        /* Numeric x in ascending order, so a line does not zigzag when the file lists 8, 2, 4. */
        g_autofree guint *order = g_new(guint, pa->xs->len);
        for (guint x = 0; x < pa->xs->len; x++)
            order[x] = x;
        if (numeric)
            g_qsort_with_data(order, (gint)pa->xs->len, sizeof(guint), cmp_x, pa->xs);
        GString *dat = g_string_new(NULL);
        g_string_append_printf(dat, "# %s: %s against %s (column 3: the x value as text)\n", pa->name, ykey, xaxis);
        for (guint l = 0; l < pa->lines->len; l++) {
            PlotLine *pl = pa->lines->pdata[l];
            g_string_append_printf(dat, "%s# %s\n", l ? "\n\n" : "", pl->label);
            for (guint xo = 0; xo < pa->xs->len; xo++) {
                guint x = order[xo];
                if (x >= pl->sum->len)
                    continue;
                guint n = g_array_index(pl->count, guint, x);
                if (!n)
                    continue;
                char xb[G_ASCII_DTOSTR_BUF_SIZE], yb[G_ASCII_DTOSTR_BUF_SIZE];
                if (numeric)
                    g_ascii_dtostr(xb, sizeof xb, g_ascii_strtod(pa->xs->pdata[x], NULL));
                else
                    g_snprintf(xb, sizeof xb, "%u", x);
                g_ascii_formatd(yb, sizeof yb, "%.6g", g_array_index(pl->sum, double, x) / n);
                g_autofree char *qxv = gp_quote(pa->xs->pdata[x]);
                g_string_append_printf(dat, "%s %s %s\n", xb, yb, qxv);
            }
        }
        g_autofree char *datpath = g_build_filename(dir, datname, NULL);
        gboolean ok = g_file_set_contents(datpath, dat->str, -1, error);
        g_string_free(dat, TRUE);
        if (!ok) {
            g_string_free(gp, TRUE);
            return FALSE;
        }
        g_autofree char *title = gp_quote(pa->name);
        g_string_append_printf(gp, "  set title %s\n  plot", title);
        for (guint l = 0; l < pa->lines->len; l++) {
            g_autofree char *lt = gp_quote(((PlotLine *)pa->lines->pdata[l])->label);
            g_string_append_printf(gp, "%s \"%s\" index %u using 1:2%s with linespoints title %s", l ? ", \\\n      " : "",
                                   datname, l, numeric ? "" : ":xtic(3)", lt);
        }
        g_string_append(gp, "\n");
    }
    g_string_append(gp, "  unset multiplot\n  unset output\n}\n");
    g_autofree char *gppath = g_build_filename(dir, "plot.gp", NULL);
    gboolean ok = g_file_set_contents(gppath, gp->str, -1, error);
    g_string_free(gp, TRUE);
    if (!ok)
        return FALSE;

    const char *argv[] = { gnuplot, "plot.gp", NULL };
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

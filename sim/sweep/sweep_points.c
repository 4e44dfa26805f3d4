/* A sweep's points: the cross product of its axes, first axis slowest, less its excludes, and
 * the fingerprint of their keys.  Made the same way from a sweep file and from the sweep.json
 * of a results folder, so that a folder's point indices and keys can be checked. */
#include <string.h>
#include "sim/sweep/sweep.h"

static void exclude_free(gpointer p)
{
    GArray *terms = p;
    for (guint i = 0; i < terms->len; i++)
        g_free(g_array_index(terms, SweepExcludeTerm, i).hit);
    g_array_unref(terms);
}

Sweep *sweep_new(const char *filename)
{
    Sweep *s = g_new0(Sweep, 1);
    s->filename = g_strdup(filename);
    s->axes = g_ptr_array_new_with_free_func(sweep_axis_free);
    s->excludes = g_ptr_array_new_with_free_func(exclude_free);
    s->points = g_array_new(FALSE, FALSE, sizeof(guint));
    return s;
}

void sweep_free(Sweep *s)
{
    if (!s)
        return;
    g_free(s->filename);
    g_ptr_array_unref(s->axes);
    g_ptr_array_unref(s->excludes);
    g_array_unref(s->points);
    g_free(s->fingerprint);
    g_free(s->plot_x);
    g_free(s->plot_y);
    g_free(s->plot_scale);
    g_free(s);
}

static gboolean excluded(GPtrArray *excludes, const guint *combo)
{
    for (guint e = 0; e < excludes->len; e++) {
        GArray *terms = excludes->pdata[e];
        gboolean all = TRUE;
        for (guint t = 0; t < terms->len && all; t++) {
            SweepExcludeTerm *term = &g_array_index(terms, SweepExcludeTerm, t);
            all = term->hit[combo[term->axis]];
        }
        if (all)
            return TRUE;
    }
    return FALSE;
}

/* The cross product as an odometer over value indices. */
gboolean sweep_enumerate(Sweep *s, GError **error)
{
    guint na = s->axes->len;
    guint64 total = 1;
    for (guint a = 0; a < na; a++) {
        total *= ((SweepAxis *)s->axes->pdata[a])->values->len;
        if (total > SWEEP_MAX_POINTS) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                        "%s:1:1: more than %u points; split the sweep", s->filename, SWEEP_MAX_POINTS);
            return FALSE;
        }
    }
    g_autofree guint *combo = g_new0(guint, MAX(na, 1u));
    for (guint64 n = 0; n < total; n++) {
        if (excluded(s->excludes, combo))
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
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "%s:1:1: exclude removes every point",
                    s->filename);
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

Sweep *sweep_layout_copy(const Sweep *s)
{
    Sweep *c = sweep_new(s->filename);
    for (guint a = 0; a < s->axes->len; a++) {
        const SweepAxis *from = s->axes->pdata[a];
        SweepAxis *to = sweep_axis_new(from->name, from->kind, from->key);
        for (guint v = 0; v < from->values->len; v++) {
            g_ptr_array_add(to->values, g_strdup(from->values->pdata[v]));
            if (to->lock_files)
                g_ptr_array_add(to->lock_files, g_strdup(from->lock_files->pdata[v]));
        }
        g_ptr_array_add(c->axes, to);
    }
    for (guint e = 0; e < s->excludes->len; e++) {
        GArray *from = s->excludes->pdata[e];
        GArray *to = g_array_sized_new(FALSE, FALSE, sizeof(SweepExcludeTerm), from->len);
        for (guint t = 0; t < from->len; t++) {
            SweepExcludeTerm term = g_array_index(from, SweepExcludeTerm, t);
            term.hit = g_memdup2(term.hit, ((SweepAxis *)s->axes->pdata[term.axis])->values->len);
            g_array_append_val(to, term);
        }
        g_ptr_array_add(c->excludes, to);
    }
    g_array_append_vals(c->points, s->points->data, s->points->len);
    c->npoints = s->npoints;
    c->excluded = s->excluded;
    c->fingerprint = g_strdup(s->fingerprint);
    return c;
}

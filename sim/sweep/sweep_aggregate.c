/* `qsim sweep --aggregate`: the seeds axis collapsed.  Points that differ only in their seed
 * become one row of DIR/aggregate.csv with, for every numeric report key, the mean, standard
 * deviation and 95% interval over the seeds (sim/base/sample_stats.h), so that a result comes
 * with its spread rather than one seed's phase. */
#include <string.h>
#include "sim/sweep/sweep.h"
#include "sim/base/output_file.h"
#include "sim/base/report.h"
#include "sim/base/sample_stats.h"
#include "sim/workload/workload.h"

/* One group of points: its axes but seeds (as "name=value" in row order), and per numeric
 * key the values over its seeds. */
typedef struct {
    char *key;             /* the group's axes joined, to find it again */
    GPtrArray *axes;       /* of char *: "name=value" */
    GHashTable *values;    /* report key -> GArray of double */
    guint seeds;
} AggGroup;

static void group_free(gpointer p)
{
    AggGroup *g = p;
    g_free(g->key);
    g_ptr_array_unref(g->axes);
    g_hash_table_unref(g->values);
    g_free(g);
}

gboolean sweep_aggregate(const char *dir, guint *groups_out, GError **error)
{
    g_autofree char *path = g_build_filename(dir, "results.jsonl", NULL);
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, error);
    if (!rows)
        return FALSE;
    g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func(group_free);
    g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);      /* report keys, first-seen order */
    g_autoptr(GPtrArray) axis_names = g_ptr_array_new_with_free_func(g_free); /* axes but seeds, first-seen order */
    for (guint i = 0; i < rows->len; i++) {
        SweepRow *r = rows->pdata[i];
        if (!r->ok)
            continue; /* a failed point has no meaningful numbers */
        g_autoptr(JsonParser) parser = json_parser_new();
        if (!json_parser_load_from_data(parser, r->line, -1, NULL))
            continue;
        JsonObject *o = json_node_get_object(json_parser_get_root(parser));
        JsonObject *axes = json_object_get_object_member(o, "axes");
        GString *gk = g_string_new(NULL);
        g_autoptr(GPtrArray) these = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GList) names = json_object_get_members(axes);
        for (GList *l = names; l; l = l->next) {
            if (!strcmp(l->data, "seeds"))
                continue;
            if (!g_ptr_array_find_with_equal_func(axis_names, l->data, g_str_equal, NULL))
                g_ptr_array_add(axis_names, g_strdup(l->data));
            char *nv = g_strdup_printf("%s=%s", (char *)l->data, json_object_get_string_member(axes, l->data));
            g_string_append_printf(gk, "%s;", nv);
            g_ptr_array_add(these, nv);
        }
        AggGroup *g = NULL;
        for (guint k = 0; k < groups->len && !g; k++)
            if (!strcmp(((AggGroup *)groups->pdata[k])->key, gk->str))
                g = groups->pdata[k];
        if (!g) {
            g = g_new0(AggGroup, 1);
            g->key = g_strdup(gk->str);
            g->axes = g_steal_pointer(&these);
            g->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
            g_ptr_array_add(groups, g);
        }
        g_string_free(gk, TRUE);
        g->seeds++;
        GArray *f = report_flatten(json_object_get_member(o, "report"));
        for (guint k = 0; k < f->len; k++) {
            const ReportField *rf = &g_array_index(f, ReportField, k);
            /* the run's settings (the workload echo, the seed) are not results */
            if (!rf->numeric || !strcmp(rf->key, "seed") || workload_key_find(rf->key))
                continue;
            if (!g_ptr_array_find_with_equal_func(keys, rf->key, g_str_equal, NULL))
                g_ptr_array_add(keys, g_strdup(rf->key));
            GArray *v = g_hash_table_lookup(g->values, rf->key);
            if (!v) {
                v = g_array_new(FALSE, FALSE, sizeof(double));
                g_hash_table_insert(g->values, g_strdup(rf->key), v);
            }
            g_array_append_val(v, rf->number);
        }
        report_fields_free(f);
    }
    /* the CSV: axes, seeds, then mean/sd/ci95_low/ci95_high per key, in first-seen order */
    GString *csv = g_string_new(NULL);
    for (guint a = 0; a < axis_names->len; a++) {
        report_csv_field(csv, axis_names->pdata[a]);
        g_string_append_c(csv, ',');
    }
    g_string_append(csv, "seeds");
    static const char *const parts[] = { "mean", "sd", "ci95_low", "ci95_high" };
    for (guint k = 0; k < keys->len; k++)
        for (guint p = 0; p < G_N_ELEMENTS(parts); p++) {
            g_autofree char *h = g_strdup_printf("%s.%s", (char *)keys->pdata[k], parts[p]);
            g_string_append_c(csv, ',');
            report_csv_field(csv, h);
        }
    g_string_append_c(csv, '\n');
    for (guint i = 0; i < groups->len; i++) {
        AggGroup *g = groups->pdata[i];
        for (guint a = 0; a < axis_names->len; a++) {
            const char *v = "";
            gsize n = strlen(axis_names->pdata[a]);
            for (guint k = 0; k < g->axes->len; k++) {
                const char *nv = g->axes->pdata[k];
                if (!strncmp(nv, axis_names->pdata[a], n) && nv[n] == '=')
                    v = nv + n + 1;
            }
            report_csv_field(csv, v);
            g_string_append_c(csv, ',');
        }
        g_string_append_printf(csv, "%u", g->seeds);
        for (guint k = 0; k < keys->len; k++) {
            GArray *v = g_hash_table_lookup(g->values, keys->pdata[k]);
            SampleStats st = { 0 };
            if (v)
                sample_stats((const double *)v->data, v->len, &st);
            if (v)
                g_string_append_printf(csv, ",%.17g,%.17g,%.17g,%.17g", st.mean, st.sd, st.ci_low, st.ci_high);
            else
                g_string_append(csv, ",,,,");
        }
        g_string_append_c(csv, '\n');
    }
    g_autofree char *out = g_build_filename(dir, "aggregate.csv", NULL);
    gboolean ok = output_file_write(out, OUTPUT_TRUNCATE, csv->str, csv->len, error);
    g_string_free(csv, TRUE);
    if (ok && groups_out)
        *groups_out = groups->len;
    return ok;
}

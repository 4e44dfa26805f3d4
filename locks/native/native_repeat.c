/* The summary of repeated native runs (see native_repeat.h): sim/base/report_summary.c's, with
 * the runs' scheduling folded into a count. */
#include <stdlib.h>
#include <string.h>
#include "locks/native/native_repeat.h"
#include "sim/workload/workload.h"
#include "sim/base/report_summary.h"
#include "sim/base/sample_stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double native_median(double *v, guint n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What was asked for, not measured: echoed once.  `path` is the member's place, "cpus.0" or
 * "per_thread.1.cpu". */
static gboolean is_setting(const char *path)
{
    if (workload_key_find(path) && !strchr(path, '.'))
        return TRUE;
    if (!strcmp(path, "line_size") || g_str_has_prefix(path, "cpus."))
        return TRUE;
    return g_str_has_prefix(path, "per_thread.") && g_str_has_suffix(path, ".cpu");
}

struct NativeRepeat {
    ReportSummary *sum;
    guint disturbed;
    GPtrArray *runs;         /* char*: each report as compact JSON, or NULL: not kept */
};

NativeRepeat *native_repeat_new(gboolean runs)
{
    NativeRepeat *r = g_new0(NativeRepeat, 1);
    r->sum = report_summary_new(is_setting);
    if (runs)
        r->runs = g_ptr_array_new_with_free_func(g_free);
    return r;
}

void native_repeat_add(NativeRepeat *r, JsonNode *report)
{
    report_summary_add(r->sum, report);
    JsonObject *o = json_node_get_object(report);
    JsonObject *s = json_object_has_member(o, "scheduling") ? json_object_get_object_member(o, "scheduling") : NULL;
    r->disturbed += s && json_object_get_boolean_member_with_default(s, "disturbed", FALSE);
    if (r->runs)
        g_ptr_array_add(r->runs, json_to_string(report, FALSE));
}

guint native_repeat_count(const NativeRepeat *r) { return report_summary_count(r->sum); }

JsonNode *native_repeat_finish(NativeRepeat *r, NativeSummaryView view)
{
    guint n = report_summary_count(r->sum);
    JsonNode *whole = report_summary_tree(r->sum, view == NATIVE_SUMMARY_DATA ? SUMMARY_DATA : SUMMARY_TEXT);
    /* The layout: `repeat` after `mode`, the count of disturbed runs in place of `scheduling`. */
    JsonObject *from = json_node_get_object(whole);
    JsonObject *out = json_object_new();
    g_autoptr(GList) members = json_object_get_members(from);
    for (GList *l = members; l; l = l->next) {
        if (!strcmp(l->data, "scheduling")) {
            json_object_set_int_member(out, "disturbed_runs", r->disturbed);
            continue;
        }
        json_object_set_member(out, l->data, json_node_copy(json_object_get_member(from, l->data)));
        if (!strcmp(l->data, "mode"))
            json_object_set_int_member(out, "repeat", n);
    }
    if (!json_object_has_member(out, "repeat"))
        json_object_set_int_member(out, "repeat", n);
    if (!json_object_has_member(out, "disturbed_runs"))
        json_object_set_int_member(out, "disturbed_runs", r->disturbed);
    if (r->runs) {
        JsonArray *a = json_array_sized_new(r->runs->len);
        for (guint i = 0; i < r->runs->len; i++)
            json_array_add_element(a, json_from_string(r->runs->pdata[i], NULL));
        json_object_set_array_member(out, "runs", a);
    }
    json_node_take_object(whole, out);
    native_repeat_free(r);
    return whole;
}

void native_repeat_free(NativeRepeat *r)
{
    if (!r)
        return;
    if (r->runs)
        g_ptr_array_free(r->runs, TRUE);
    report_summary_free(r->sum);
    g_free(r);
}

JsonNode *native_repeat_summary(JsonNode *const *reports, guint n, NativeSummaryView view, gboolean runs)
{
    g_assert(n >= 1);
    NativeRepeat *r = native_repeat_new(runs);
    for (guint i = 0; i < n; i++)
        native_repeat_add(r, reports[i]);
    return native_repeat_finish(r, view);
}

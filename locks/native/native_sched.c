/* The scheduler's treatment of a native run (see native_sched.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "locks/native/native_sched.h"

void native_sched_sample(NativeThreadSched *s)
{
    struct rusage ru;
    s->involuntary = getrusage(RUSAGE_THREAD, &ru) == 0 ? (guint64)ru.ru_nivcsw : 0;
    /* schedstat: time on the CPU, time waiting on a run queue, time slices (all ns but the last). */
    s->run_delay_ns = -1;
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (f) {
        unsigned long long run, wait;
        if (fscanf(f, "%llu %llu", &run, &wait) == 2)
            s->run_delay_ns = (gint64)wait;
        fclose(f);
    }
}

NativeThreadSched native_sched_delta(const NativeThreadSched *start, const NativeThreadSched *end)
{
    NativeThreadSched d;
    d.involuntary = end->involuntary >= start->involuntary ? end->involuntary - start->involuntary : 0;
    d.run_delay_ns = start->run_delay_ns >= 0 && end->run_delay_ns >= start->run_delay_ns
                         ? end->run_delay_ns - start->run_delay_ns : -1;
    return d;
}

gint native_sched_others_runnable(guint ours)
{
    /* "0.52 0.58 0.59 3/467 12345": the fourth field is runnable/all scheduling entities. */
    g_autofree char *text = NULL;
    if (!g_file_get_contents("/proc/loadavg", &text, NULL, NULL))
        return -1;
    double l1, l5, l15;
    int running, all;
    if (sscanf(text, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &all) != 5)
        return -1;
    return running > (int)ours ? running - (int)ours : 0;
}

static char *number_text(double v)
{
    return v == (gint64)v ? g_strdup_printf("%.0f", v) : g_strdup_printf("%.1f", v);
}

GPtrArray *native_sched_warnings(const NativeSchedInput *in)
{
    GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
    for (guint t = 0; t < in->nthreads; t++) {
        const NativeThreadSched *s = &in->threads[t];
        gboolean known = s->run_delay_ns >= 0;
        double share = known && in->span_ns ? (double)s->run_delay_ns / (double)in->span_ns : 0;
        if (known ? share >= NATIVE_DESCHEDULED_SHARE : s->involuntary > 0) {
            GString *m = g_string_new(NULL);
            g_string_append_printf(m, "thread %u (CPU %u) was descheduled: %" G_GUINT64_FORMAT
                                   " involuntary context switch%s", t, in->cpus ? in->cpus[t] : t, s->involuntary,
                                   s->involuntary == 1 ? "" : "es");
            if (known)
                g_string_append_printf(m, ", %.3f ms (%.1f%% of the run) waiting for its CPU",
                                       s->run_delay_ns / 1e6, share * 100);
            g_string_append(m, "; another task shared its CPU, and the latencies include that time");
            g_ptr_array_add(w, g_string_free(m, FALSE));
        }
    }
    guint free_cpus = in->online_cpus > in->nthreads ? in->online_cpus - in->nthreads : 0;
    if (in->others_runnable >= 0 && (guint)in->others_runnable > free_cpus)
        g_ptr_array_add(w, g_strdup_printf("the host was busy: %d other task%s runnable when the run started, with "
                                           "%u of its %u CPUs taken by this run's threads",
                                           in->others_runnable, in->others_runnable == 1 ? " was" : "s were",
                                           MIN(in->nthreads, in->online_cpus), in->online_cpus));
    if (in->latency_samples >= NATIVE_TAIL_MIN_SAMPLES && in->latency_mean > in->latency_p99) {
        g_autofree char *mean = number_text(in->latency_mean), *p99 = number_text(in->latency_p99);
        g_ptr_array_add(w, g_strdup_printf("latency.mean (%s %s) is above latency.p99 (%s): under 1%% of the "
                                           "acquisitions took most of the time, the mark of a thread descheduled "
                                           "while it held or waited for the lock",
                                           mean, in->latency_unit ? in->latency_unit : "", p99));
    }
    return w;
}

JsonObject *native_sched_report(const NativeSchedInput *in)
{
    JsonObject *o = json_object_new();
    JsonArray *inv = json_array_sized_new(in->nthreads);
    JsonArray *delay = json_array_sized_new(in->nthreads);
    gboolean known = in->nthreads > 0;
    for (guint t = 0; t < in->nthreads; t++) {
        json_array_add_int_element(inv, (gint64)in->threads[t].involuntary);
        json_array_add_int_element(delay, in->threads[t].run_delay_ns);
        known &= in->threads[t].run_delay_ns >= 0;
    }
    json_object_set_array_member(o, "involuntary_switches", inv);
    if (known)
        json_object_set_array_member(o, "run_delay_ns", delay);
    else
        json_array_unref(delay);
    if (in->others_runnable >= 0)
        json_object_set_int_member(o, "others_runnable", in->others_runnable);
    json_object_set_int_member(o, "online_cpus", in->online_cpus);
    g_autoptr(GPtrArray) w = native_sched_warnings(in);
    json_object_set_boolean_member(o, "disturbed", w->len > 0);
    return o;
}

static gint64 int_at(JsonArray *a, guint i, gint64 missing)
{
    return a && i < json_array_get_length(a) ? json_array_get_int_element(a, i) : missing;
}

GPtrArray *native_report_warnings(JsonNode *report)
{
    JsonObject *r = JSON_NODE_HOLDS_OBJECT(report) ? json_node_get_object(report) : NULL;
    JsonObject *sched = r && json_object_has_member(r, "scheduling") ? json_object_get_object_member(r, "scheduling")
                                                                      : NULL;
    if (!sched)
        return g_ptr_array_new_with_free_func(g_free);
    JsonArray *inv = json_object_get_array_member(sched, "involuntary_switches");
    JsonArray *delay = json_object_has_member(sched, "run_delay_ns") ? json_object_get_array_member(sched, "run_delay_ns")
                                                                      : NULL;
    JsonArray *cpus = json_object_has_member(r, "cpus") ? json_object_get_array_member(r, "cpus") : NULL;
    guint n = inv ? json_array_get_length(inv) : 0;
    g_autofree NativeThreadSched *threads = g_new0(NativeThreadSched, n + 1);
    g_autofree guint *cpu = g_new0(guint, n + 1);
    for (guint t = 0; t < n; t++) {
        threads[t].involuntary = (guint64)int_at(inv, t, 0);
        threads[t].run_delay_ns = int_at(delay, t, -1);
        cpu[t] = (guint)int_at(cpus, t, t);
    }
    JsonObject *lat = json_object_has_member(r, "latency") ? json_object_get_object_member(r, "latency") : NULL;
    NativeSchedInput in = {
        .nthreads = n,
        .threads = threads,
        .cpus = cpu,
        .span_ns = (guint64)json_object_get_int_member_with_default(r, "ns", 0),
        .others_runnable = (gint)json_object_get_int_member_with_default(sched, "others_runnable", -1),
        .online_cpus = (guint)json_object_get_int_member_with_default(sched, "online_cpus", 0),
        .latency_mean = lat ? json_object_get_double_member_with_default(lat, "mean", 0) : 0,
        .latency_p99 = lat ? json_object_get_double_member_with_default(lat, "p99", 0) : 0,
        .latency_samples = lat ? (guint64)json_object_get_int_member_with_default(lat, "samples", 0) : 0,
        .latency_unit = lat ? json_object_get_string_member_with_default(lat, "unit", NULL) : NULL,
    };
    return native_sched_warnings(&in);
}

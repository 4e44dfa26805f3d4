/* CPU lists and pinning (see native_cpus.h). */
#define _GNU_SOURCE
#include <sched.h>
#include "locks/native/native_cpus.h"
#include "locks/native/native_host.h"

gboolean native_parse_cpus(const char *text, GArray **out, GError **error)
{
    g_autoptr(GArray) cpus = g_array_new(FALSE, FALSE, sizeof(guint));
    g_auto(GStrv) parts = g_strsplit(text ? text : "", ",", -1);
    for (guint i = 0; parts[i]; i++) {
        const char *s = g_strstrip(parts[i]);
        guint64 lo, hi;
        char *end;
        if (!g_ascii_isdigit(*s))
            goto bad;
        lo = g_ascii_strtoull(s, &end, 10);
        hi = lo;
        if (*end == '-') {
            if (!g_ascii_isdigit(end[1]))
                goto bad;
            hi = g_ascii_strtoull(end + 1, &end, 10);
        }
        if (*end || hi < lo || hi >= CPU_SETSIZE) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                        "--cpus %s: '%s' is not a CPU or an ascending range below %d", text, s,
                        CPU_SETSIZE);
            return FALSE;
        }
        for (guint64 c = lo; c <= hi; c++) {
            for (guint k = 0; k < cpus->len; k++)
                if (g_array_index(cpus, guint, k) == c) {
                    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                                "--cpus %s: CPU %" G_GUINT64_FORMAT " is listed twice", text, c);
                    return FALSE;
                }
            guint v = (guint)c;
            g_array_append_val(cpus, v);
        }
    }
    if (!cpus->len)
        goto bad;
    *out = g_steal_pointer(&cpus);
    return TRUE;
bad:
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                "--cpus %s: expected a list of CPUs and ranges such as 0,2-5", text ? text : "");
    return FALSE;
}

GArray *native_allowed_cpus(void)
{
    GArray *cpus = g_array_new(FALSE, FALSE, sizeof(guint));
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (guint c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                g_array_append_val(cpus, c);
    }
    if (!cpus->len) {
        guint zero = 0;
        g_array_append_val(cpus, zero);
    }
    return cpus;
}

static gboolean contains(const GArray *a, guint v)
{
    for (guint i = 0; i < a->len; i++)
        if (g_array_index(a, guint, i) == v)
            return TRUE;
    return FALSE;
}

GArray *native_choose_cpus(const GArray *wanted, guint threads, GError **error)
{
    g_autoptr(GArray) allowed = native_allowed_cpus();
    g_autoptr(GArray) cpus = wanted ? g_array_copy((GArray *)wanted) : g_array_ref(allowed);
    if (wanted)
        for (guint i = 0; i < cpus->len; i++) {
            guint c = g_array_index(cpus, guint, i);
            if (!contains(allowed, c)) {
                g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                            "--cpus: CPU %u is not available to this process (%u CPUs are)", c, allowed->len);
                return NULL;
            }
        }
    if (threads > cpus->len) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--threads %u: only %u CPU%s %s (one pinned thread per CPU; spinning threads "
                    "sharing a CPU measure the scheduler, not the lock)",
                    threads, cpus->len, cpus->len == 1 ? "" : "s", wanted ? "listed in --cpus" : "available");
        return NULL;
    }
    /* A copy: `allowed` may be the same array. */
    GArray *out = g_array_sized_new(FALSE, FALSE, sizeof(guint), threads);
    g_array_append_vals(out, cpus->data, threads);
    return out;
}

void native_pin_attr(pthread_attr_t *attr, guint cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_attr_setaffinity_np(attr, sizeof set, &set);
}

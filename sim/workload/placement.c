#include <string.h>
#include "sim/workload/placement.h"
#include "sim/base/echo.h"

/* PlacementPolicy order; the list's syntax last. */
const char *const placement_choices[] = { "fill", "spread", "smt", "cpus:LIST", NULL };
#define CPUS_PREFIX "cpus:"
static const char list_syntax[] = "expected logical CPUs and ranges after cpus:, such as cpus:0,36 or cpus:0-3";

static gboolean bad(GError **error, const char *who, const char *s, const char *why)
{
    g_autofree char *shown = echo_clip(s ? s : "");
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s: %s", who ? who : "--placement", shown, why);
    return FALSE;
}

/* "0,2-5": CPUs and ascending ranges, each CPU once. */
static gboolean parse_list(const char *who, const char *whole, const char *list, Placement *out, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(list, ",", -1);
    out->ncpus = 0;
    for (guint i = 0; parts[i]; i++) {
        const char *s = parts[i];
        char *end;
        if (!g_ascii_isdigit(*s))
            return bad(error, who, whole, list_syntax);
        guint64 lo = g_ascii_strtoull(s, &end, 10), hi = lo;
        if (*end == '-' && g_ascii_isdigit(end[1]))
            hi = g_ascii_strtoull(end + 1, &end, 10);
        if (*end || hi < lo || hi > G_MAXUINT16)
            return bad(error, who, whole, "expected logical CPUs and ascending ranges below 65536 after cpus:");
        for (guint64 c = lo; c <= hi; c++) {
            for (guint k = 0; k < out->ncpus; k++)
                if (out->cpus[k] == c) {
                    g_autofree char *why = g_strdup_printf("CPU %" G_GUINT64_FORMAT " is listed twice", c);
                    return bad(error, who, whole, why);
                }
            if (out->ncpus == PLACEMENT_CPUS_MAX)
                return bad(error, who, whole, "more CPUs than --threads may have (4096)");
            out->cpus[out->ncpus++] = (guint16)c;
        }
    }
    if (!out->ncpus)
        return bad(error, who, whole, list_syntax);
    return TRUE;
}

gboolean placement_parse(const char *who, const char *s, Placement *out, GError **error)
{
    out->ncpus = 0;
    for (guint i = 0; i < PLACE_CPUS; i++)
        if (s && !strcmp(s, placement_choices[i])) {
            out->policy = (PlacementPolicy)i;
            return TRUE;
        }
    if (s && g_str_has_prefix(s, CPUS_PREFIX)) {
        out->policy = PLACE_CPUS;
        return parse_list(who, s, s + strlen(CPUS_PREFIX), out, error);
    }
    return bad(error, who, s, "one of fill, spread, smt or cpus:LIST (logical CPUs, e.g. cpus:0,36)");
}

char *placement_text(const Placement *p)
{
    if (p->policy != PLACE_CPUS)
        return g_strdup(placement_choices[p->policy]);
    GString *s = g_string_new(CPUS_PREFIX);
    for (guint i = 0; i < p->ncpus; i++)
        g_string_append_printf(s, "%s%u", i ? "," : "", p->cpus[i]);
    return g_string_free(s, FALSE);
}

gboolean placement_assign_policy(const QsimConfig *cfg, PlacementPolicy p, guint threads, guint *cpus,
                                 GError **error)
{
    g_assert(p != PLACE_CPUS);
    guint sockets = (guint)cfg->topology.sockets, per = (guint)cfg->topology.cores_per_socket;
    guint cores = sockets * per, tpc = (guint)cfg->topology.threads_per_core;
    if (threads == 0) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--threads 0: a run needs a thread");
        return FALSE;
    }
    /* Past the last core (smt: hardware thread) the placement starts over: thread t shares the
     * CPU of the thread that many places before it. */
    for (guint t = 0; t < threads; t++) {
        guint u = t % (p == PLACE_SMT ? cores * tpc : cores);
        switch (p) {
        case PLACE_FILL: cpus[t] = u; break;
        case PLACE_SPREAD: cpus[t] = (u % sockets) * per + u / sockets; break;
        case PLACE_SMT: cpus[t] = (u % tpc) * cores + u / tpc; break;
        case PLACE_CPUS: g_assert_not_reached();
        }
    }
    return TRUE;
}

gboolean placement_assign(const QsimConfig *cfg, const Placement *p, guint threads, guint *cpus, GError **error)
{
    if (p->policy != PLACE_CPUS)
        return placement_assign_policy(cfg, p->policy, threads, cpus, error);
    if (threads == 0)
        return placement_assign_policy(cfg, PLACE_FILL, 0, cpus, error); /* its message */
    guint total = config_total_cpus(cfg);
    for (guint i = 0; i < p->ncpus; i++)
        if (p->cpus[i] >= total) {
            g_autofree char *text = placement_text(p);
            g_autofree char *name = echo_clip(cfg->name ? cfg->name : "?");
            g_autofree char *why = g_strdup_printf("CPU %u is not one of machine %s's %u logical CPUs (0-%u: %u "
                                                   "cores x %u threads)", p->cpus[i], name, total, total - 1,
                                                   config_total_cores(cfg), (guint)cfg->topology.threads_per_core);
            return bad(error, NULL, text, why);
        }
    for (guint t = 0; t < threads; t++)
        cpus[t] = p->cpus[t % p->ncpus];
    return TRUE;
}

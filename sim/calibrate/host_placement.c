/* The model's CPUs for the host's (see host_placement.h). */
#include "sim/calibrate/host_placement.h"

/* Where a host CPU sits, by rank: its LLC domain among the host's, its core among the domain's,
 * itself among the core's CPUs. */
typedef struct {
    guint domain, core, thread;
} HostRank;

static HostRank rank_of(const CalibHost *h, const CalibCpuTopo *x)
{
    g_autoptr(GHashTable) domains = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GHashTable) cores = g_hash_table_new(g_direct_hash, g_direct_equal);
    HostRank r = { 0, 0, 0 };
    for (guint i = 0; i < h->topo->len; i++) {
        const CalibCpuTopo *t = &g_array_index(h->topo, CalibCpuTopo, i);
        if (t->llc < x->llc)
            g_hash_table_add(domains, GINT_TO_POINTER(t->llc + 2));
        if (t->llc == x->llc && t->core < x->core)
            g_hash_table_add(cores, GINT_TO_POINTER(t->core + 2));
        r.thread += t->core == x->core && t->cpu < x->cpu;
    }
    r.domain = g_hash_table_size(domains);
    r.core = g_hash_table_size(cores);
    return r;
}

/* Model CPUs for host CPUs cpus[0..n), into model; FALSE with why where the host does not fit. */
static gboolean map_cpus(const CalibHost *h, const QsimConfig *cfg, const GArray *cpus, guint n, GArray *model,
                         char **why)
{
    guint sockets = (guint)cfg->topology.sockets, cps = (guint)cfg->topology.cores_per_socket;
    guint tpc = (guint)cfg->topology.threads_per_core;
    for (guint i = 0; i < n; i++) {
        guint cpu = g_array_index(cpus, guint, i);
        const CalibCpuTopo *x = calib_host_cpu(h, cpu);
        if (!x) {
            *why = g_strdup_printf("sysfs does not show where CPU %u sits", cpu);
            return FALSE;
        }
        HostRank r = rank_of(h, x);
        if (r.domain >= sockets || r.core >= cps || r.thread >= tpc) {
            *why = g_strdup_printf("host CPU %u is thread %u of core %u of LLC domain %u, past config %s's %u "
                                   "socket%s x %u cores x %u thread%s", cpu, r.thread, r.core, r.domain,
                                   cfg->name ? cfg->name : "?", sockets, sockets == 1 ? "" : "s", cps, tpc,
                                   tpc == 1 ? "" : "s");
            return FALSE;
        }
        guint m = r.thread * config_total_cores(cfg) + r.domain * cps + r.core;
        g_array_append_val(model, m);
    }
    return TRUE;
}

/* The first two of cpus[0..n) that are one core's threads, or FALSE. */
static gboolean first_siblings(const CalibHost *h, const GArray *cpus, guint n, guint *a, guint *b)
{
    for (guint i = 0; i < n; i++)
        for (guint j = i + 1; j < n; j++) {
            const CalibCpuTopo *x = calib_host_cpu(h, g_array_index(cpus, guint, i));
            const CalibCpuTopo *y = calib_host_cpu(h, g_array_index(cpus, guint, j));
            if (x && y && x->core == y->core) {
                *a = x->cpu;
                *b = y->cpu;
                return TRUE;
            }
        }
    return FALSE;
}

static char *list_text(const GArray *v, guint n)
{
    GString *s = g_string_new("");
    for (guint i = 0; i < n; i++)
        g_string_append_printf(s, "%s%u", i ? "," : "", g_array_index(v, guint, i));
    return g_string_free(s, FALSE);
}

void host_placement_choose(HostPlacement *p, const CalibHost *h, const QsimConfig *cfg, const GArray *cpus,
                           guint max_threads)
{
    guint n = max_threads ? MIN(cpus->len, max_threads) : cpus->len;
    *p = (HostPlacement){ MIN(n, config_total_cpus(cfg)), g_array_new(FALSE, FALSE, sizeof(guint)), FALSE, NULL };
    g_autofree char *why = NULL;
    if (!map_cpus(h, cfg, cpus, p->threads, p->model, &why)) {
        g_array_free(p->model, TRUE);
        p->model = NULL;
        p->threads = MIN(n, config_total_cores(cfg));
    }
    guint a = 0, b = 0;
    p->siblings = first_siblings(h, cpus, p->threads, &a, &b);
    g_autofree char *host = list_text(cpus, p->threads);
    g_autofree char *sib = !p->siblings ? g_strdup("")
                           : p->model   ? g_strdup_printf("; host CPUs %u and %u are SMT siblings of one core, "
                                                          "modelled as one core's two threads", a, b)
                                        : g_strdup_printf("; host CPUs %u and %u are SMT siblings of one core, "
                                                          "modelled as two cores", a, b);
    if (p->model) {
        g_autofree char *model = list_text(p->model, p->threads);
        p->text = g_strdup_printf("placement: thread i on the i-th of host CPUs %s and of model CPUs cpus:%s (the "
                                  "host's LLC domains, cores and threads as the config's sockets, cores and "
                                  "threads)%s", host, model, sib);
    } else {
        p->text = g_strdup_printf("placement: host CPUs %s; the model's fill, one thread per core, since %s%s", host,
                                  why, sib);
    }
}

void host_placement_clear(HostPlacement *p)
{
    if (p->model)
        g_array_free(p->model, TRUE);
    g_free(p->text);
    *p = (HostPlacement){ 0 };
}

/* The latency probe behind `qsim latency`: the latency of a load, a store and a CAS by core 0 to a line
 * that another core holds in M, E, S, O (where the protocol has it) or that is only in memory
 * (I), for the other core on the same socket and at each socket distance the topology has.
 * Like ccbench (David, Guerraoui, Trigonakis, SOSP 2013), every figure is measured: the state
 * is set up with real accesses through the port, then one access is timed. */
#include <stdio.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "coherence/memsys.h"
#include "sim/latency_probe.h"
#include "sim/base/config.h"

typedef struct {
    gboolean got;
    MemResponse r;
} LatClient;

static void lat_done(void *obj, const MemResponse *r)
{
    LatClient *c = obj;
    c->got = TRUE;
    c->r = *r;
}

typedef struct {
    Engine *e;
    MemSys *ms;
    LatClient *cl;
} LatRig;

static Cycle lat_access(LatRig *g, guint core, MemKind kind, uint64_t addr)
{
    MemRequest q = { .kind = kind, .rmw = RMW_CAS, .addr = addr, .size = 8, .value = 1, .expected = 0 };
    g->cl[core].got = FALSE;
    memsys_issue(g->ms, core, &q);
    while (!g->cl[core].got && engine_step(g->e))
        ;
    g_assert(g->cl[core].got);
    Cycle lat = g->cl[core].r.done - g->cl[core].r.issued;
    while (engine_step(g->e)) /* let write-backs and unblocks finish: the next access starts quiet */
        ;
    return lat;
}

/* One measurement: fresh machine, the other core sets the state, core 0 does `op`. */
static gboolean measure_one(const QsimConfig *cfg, const char *op, char state, guint other, guint helper,
                            guint home, guint64 *out, GError **error)
{
    LatRig g = { engine_new(1), NULL, NULL };
    g.ms = memsys_new(cfg, g.e, error);
    if (!g.ms) {
        engine_free(g.e);
        return FALSE;
    }
    guint n = config_total_cores(cfg);
    g.cl = g_new0(LatClient, n);
    static const PortClient client = { lat_done, NULL };
    for (guint i = 0; i < n; i++)
        memsys_attach(g.ms, i, &client, &g.cl[i]);
    /* a line homed at `home`: line index = home (mod sockets), away from line 0 */
    uint64_t addr = ((guint64)cfg->topology.sockets * 64 + home) * (guint64)cfg->line_size;
    switch (state) {
    case 'M': lat_access(&g, other, MEM_STORE, addr); break;
    case 'E': lat_access(&g, other, MEM_LOAD, addr); break;
    case 'S': /* MOESI: the helper reads first, so the other core ends in S (helper in O) */
        lat_access(&g, memsys_protocol(g.ms)->has_o ? helper : other, MEM_LOAD, addr);
        lat_access(&g, memsys_protocol(g.ms)->has_o ? other : helper, MEM_LOAD, addr);
        break;
    case 'O':
        lat_access(&g, other, MEM_STORE, addr);
        lat_access(&g, helper, MEM_LOAD, addr);
        break;
    default: break; /* I: only in memory */
    }
    MemKind kind = !strcmp(op, "load") ? MEM_LOAD : !strcmp(op, "store") ? MEM_STORE : MEM_RMW;
    *out = lat_access(&g, 0, kind, addr);
    memsys_free(g.ms);
    engine_free(g.e);
    g_free(g.cl);
    return TRUE;
}

GArray *latency_measure(const QsimConfig *cfgp, GError **error)
{
    /* Rows place a line's home at a chosen distance by its address, so homes interleave here
     * whatever memory.home says (a shallow copy: the strings stay the caller's). */
    QsimConfig interleaved = *cfgp;
    interleaved.memory.home = HOME_INTERLEAVE;
    const QsimConfig *cfg = &interleaved;
    guint cps = (guint)cfg->topology.cores_per_socket, ns = (guint)cfg->topology.sockets;
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(LatencyRow));
    /* the other core's placements: same socket (core 1), then the first socket at each distance */
    typedef struct { guint socket; char label[24]; } Place;
    Place places[64];
    guint np = 0;
    if (cps > 1)
        places[np++] = (Place){ 0, "same-socket" };
    Engine *e0 = engine_new(1);
    MemSys *m0 = memsys_new(cfg, e0, error);
    if (!m0) {
        engine_free(e0);
        g_array_free(rows, TRUE);
        return NULL;
    }
    for (guint t = 1; t < ns && np < G_N_ELEMENTS(places); t++) {
        Place p = { t, "" };
        if (cfg->topology.socket_links == SOCKETS_MCM_PAIRS && t / 2 == 0)
            g_strlcpy(p.label, "same-package", sizeof p.label);
        else
            g_snprintf(p.label, sizeof p.label, "%u-hop", memsys_socket_hops(m0, 0, t));
        gboolean seen = FALSE;
        for (guint i = 0; i < np; i++)
            seen |= !strcmp(places[i].label, p.label);
        if (!seen)
            places[np++] = p;
    }
    gboolean has_o = memsys_protocol(m0)->has_o;
    memsys_free(m0);
    engine_free(e0);
    static const char *const ops[] = { "load", "store", "cas" };
    const char *states = has_o ? "MESOI" : "MESI";
    for (guint o = 0; o < G_N_ELEMENTS(ops); o++)
        for (const char *s = states; *s; s++)
            for (guint p = 0; p < np; p++) {
                guint other = places[p].socket * cps + (places[p].socket == 0 ? 1 : 0);
                /* S and O need a second holder, beside the first */
                guint helper = (other + 1) % cps == 0 ? other - 1 : other + 1;
                if ((*s == 'S' || *s == 'O') && (cps < 2 || (places[p].socket == 0 && cps < 3)))
                    continue;
                if (places[p].socket == 0 && (*s == 'S' || *s == 'O'))
                    helper = 2;
                LatencyRow r = { ops[o], NULL, "", places[p].socket, 0 };
                static const char *const names[] = { "M", "E", "S", "O", "I" };
                r.state = names[strchr("MESOI", *s) - "MESOI"];
                g_strlcpy(r.distance, places[p].label, sizeof r.distance);
                guint home = *s == 'I' ? places[p].socket : 0;
                if (!measure_one(cfg, ops[o], *s, other, helper, home, &r.cycles, error)) {
                    g_array_free(rows, TRUE);
                    return NULL;
                }
                g_array_append_val(rows, r);
            }
    return rows;
}

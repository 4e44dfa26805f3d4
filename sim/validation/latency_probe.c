/* The latency probe (see latency_probe.h): each figure measured on a fresh memory system. */
#include <math.h>
#include <string.h>
#include "coherence/memsys.h"
#include "sim/validation/latency_probe.h"
#include "sim/machine/mem_waiter.h"


/* A fresh memory system with every core attached to a probe client. */
typedef struct {
    Engine *e;
    MemSys *ms;
    MemWaiter *cl;
    guint ncores;
} Probe;

static gboolean probe_open(Probe *p, const QsimConfig *cfg, GError **error)
{
    p->e = engine_new(1);
    p->ms = memsys_new(cfg, p->e, error);
    if (!p->ms) {
        engine_free(p->e);
        return FALSE;
    }
    p->ncores = config_total_cores(cfg);
    p->cl = g_new0(MemWaiter, p->ncores);
    static const PortClient client = { mem_waiter_done, NULL, NULL, NULL };
    for (guint i = 0; i < p->ncores; i++)
        memsys_attach(p->ms, i, &client, &p->cl[i]);
    return TRUE;
}

static void probe_close(Probe *p)
{
    memsys_free(p->ms);
    engine_free(p->e);
    g_free(p->cl);
}

/* Runs until nothing is left to do: write-backs and unblocks finish, the next access starts
 * on a quiet machine. */
static void probe_settle(Probe *p)
{
    mem_waiter_settle(p->e);
}

static const struct { const char *name; MemKind kind; RmwKind rmw; } probe_ops[] = {
    { "load",  MEM_LOAD,  RMW_CAS },
    { "store", MEM_STORE, RMW_CAS },
    { "cas",   MEM_RMW,   RMW_CAS },
    { "fai",   MEM_RMW,   RMW_ADD },
    { "swap",  MEM_RMW,   RMW_XCHG },
};

/* One access by `core`, timed at the port from issue to completion. */
static Cycle probe_access(Probe *p, guint core, guint op, uint64_t addr)
{
    MemRequest q = { .kind = probe_ops[op].kind, .rmw = probe_ops[op].rmw, .addr = addr, .size = 8,
                     .value = 1, .expected = 0 };
    const MemResponse *r = mem_waiter_access(&p->cl[core], p->ms, p->e, core, &q);
    Cycle lat = r->done - r->issued;
    probe_settle(p);
    return lat;
}

static void probe_load(Probe *p, guint core, uint64_t addr) { probe_access(p, core, 0, addr); }
static void probe_store(Probe *p, guint core, uint64_t addr) { probe_access(p, core, 1, addr); }

static void probe_evict(Probe *p, guint core, uint64_t addr)
{
    if (memsys_evict(p->ms, core, addr))
        probe_settle(p);
}

/* Where the other core stands: its socket, the distance label, and two cores there (the
 * holder and a second one for shared states; on socket 0 neither is core 0). */
typedef struct {
    guint socket;
    char label[24];
    guint holder, helper, third;
    gboolean has_helper, has_third;
} Place;

/* The k-th line homed on `home` that the probe uses: every one sits in the LLC slice at the
 * average on-die distance from core 0 (the distance a configured llc.latency, a mean over
 * addresses, stands for), so that rows differ by state and distance only. */
static uint64_t probe_line(const QsimConfig *cfg, const MemSys *ms, guint home, guint k)
{
    guint64 sockets = (guint64)cfg->topology.sockets;
    guint64 slices = cfg->llc_slices ? (guint64)cfg->llc_slices : (guint64)cfg->topology.cores_per_socket;
    guint64 base = (64 + (guint64)k) * sockets * slices, best = base + home;
    /* the mean distance over the period's lines, then the line nearest to it */
    double mean = 0;
    guint n = 0;
    for (guint64 idx = base + home; idx < base + sockets * slices; idx += sockets, n++)
        mean += memsys_ondie_distance(ms, 0, idx * (guint64)cfg->line_size);
    mean /= MAX(n, 1u);
    double best_off = G_MAXDOUBLE;
    for (guint64 idx = base + home; idx < base + sockets * slices; idx += sockets) {
        double off = fabs(memsys_ondie_distance(ms, 0, idx * (guint64)cfg->line_size) - mean);
        if (off < best_off - 1e-9) {
            best_off = off;
            best = idx;
        }
    }
    return best * (guint64)cfg->line_size;
}

/* Whether a shared line with no owner takes two readers: the first one's copy is E (or, under
 * MOESI, becomes O); under MSI it is S at once. */
static gboolean s_needs_two(const MemSys *ms)
{
    const CohProtocol *proto = memsys_protocol(ms);
    return proto->has_e || proto->has_o;
}

/* Puts the line in `state` at place `pl` (core 0, the requester, holds nothing). */
static void probe_setup(Probe *p, const QsimConfig *cfg, const Place *pl, char state, uint64_t addr)
{
    switch (state) {
    case 'M':
        probe_store(p, pl->holder, addr);
        break;
    case 'E':
        probe_load(p, pl->holder, addr);
        break;
    case 'O': /* MOESI: the writer owns it, the second reader shares it */
        probe_store(p, pl->holder, addr);
        probe_load(p, pl->helper, addr);
        break;
    case 'F': /* MESIF: shared there; the newest reader's socket holds the F copy */
        probe_load(p, pl->holder, addr);
        probe_load(p, pl->helper, addr);
        break;
    case 'S':
        probe_load(p, pl->holder, addr);
        if (!s_needs_two(p->ms))
            break; /* without E or O a lone reader's copy is S already */
        probe_load(p, pl->helper, addr);
        if (cfg->protocol == PROTO_MOESI) {
            /* The first reader owns it (E -> O on the second read): a third reader, then the
             * owner's replacement, leave two sharers and no owner. */
            probe_load(p, pl->third, addr);
            probe_evict(p, pl->holder, addr);
        } else if (cfg->protocol == PROTO_MESIF && pl->socket != 0) {
            /* The F copy goes to core 0's socket on its read, and leaves with that socket's
             * LLC copy: what stays shared over there has no F copy. */
            probe_load(p, 0, addr);
            memsys_llc_drop(p->ms, 0, addr);
            probe_settle(p);
        }
        break;
    default: /* I: memory only */
        break;
    }
}

static gboolean state_applies(const QsimConfig *cfg, const MemSys *ms, char state)
{
    const CohProtocol *proto = memsys_protocol(ms);
    switch (state) {
    case 'O': return proto->has_o;
    case 'E': return proto->has_e;
    case 'F': return cfg->protocol == PROTO_MESIF;
    default: return TRUE;
    }
}

static void add_absent(LatencyTable *t, char state, const char *distance, const char *why)
{
    static const char *const names[] = { "M", "O", "E", "S", "F", "I" };
    LatencyAbsent a = { names[strchr("MOESFI", state) - "MOESFI"], "", why };
    g_strlcpy(a.distance, distance, sizeof a.distance);
    g_array_append_val(t->absent, a);
}

/* The places: another core on socket 0, then one socket per distance class. */
static guint probe_places(const QsimConfig *cfg, const MemSys *ms, Place *places, guint max, LatencyTable *t)
{
    guint cps = (guint)cfg->topology.cores_per_socket, ns = (guint)cfg->topology.sockets, np = 0;
    if (cps > 1)
        places[np++] = (Place){ 0, "same-die", 1, 2, 3, cps > 2, cps > 3 };
    else
        add_absent(t, 'M', "same-die", "one core per socket: no other core shares core 0's die");
    for (guint s = 1; s < ns && np < max; s++) {
        Place p = { s, "", s * cps, s * cps + 1, s * cps + 2, cps > 1, cps > 2 };
        guint hops = memsys_socket_hops(ms, 0, s);
        if (cfg->topology.socket_links == SOCKETS_MCM_PAIRS && s / 2 == 0)
            g_strlcpy(p.label, "same-package", sizeof p.label);
        else
            g_snprintf(p.label, sizeof p.label, "%u-hop%s", hops, hops == 1 ? "" : "s");
        gboolean seen = FALSE;
        for (guint i = 0; i < np; i++)
            seen |= !strcmp(places[i].label, p.label);
        if (!seen)
            places[np++] = p;
    }
    if (ns == 1)
        add_absent(t, 'M', "1-hop", "one socket: no remote distance");
    return np;
}

/* Local rows: core 0 alone.  L2: its line pushed out of the L1 by l1.ways lines of the same L1
 * set (which land in other L2 sets); LLC: read by a neighbour that then replaces it. */
static void probe_local(Probe *p, const QsimConfig *cfg, const Place *places, guint np, LatencyTable *t,
                        guint *k)
{
    LatencyRow r = { "load", "l1-hit", "same-core", 0, 0 };
    uint64_t a = probe_line(cfg, p->ms, 0, (*k)++);
    probe_load(p, 0, a);
    r.cycles = probe_access(p, 0, 0, a);
    g_array_append_val(t->rows, r);
    if (cfg->l2_enabled) {
        uint64_t b = probe_line(cfg, p->ms, 0, (*k)++);
        probe_load(p, 0, b);
        guint64 l1_sets = (guint64)(cfg->l1.size / (cfg->line_size * cfg->l1.ways));
        /* far from every line the probe measures, in the same L1 set as b */
        uint64_t far = (uint64_t)1 << 40;
        for (gint64 w = 1; w <= cfg->l1.ways; w++)
            probe_load(p, 0, far + b + (guint64)w * l1_sets * (guint64)cfg->line_size);
        r = (LatencyRow){ "load", "l2-hit", "same-core", 0, probe_access(p, 0, 0, b) };
        g_array_append_val(t->rows, r);
    }
    guint neighbour = cfg->topology.cores_per_socket > 1 ? 1 : 0;
    uint64_t c = probe_line(cfg, p->ms, 0, (*k)++);
    probe_load(p, neighbour, c);
    probe_evict(p, neighbour, c);
    r = (LatencyRow){ "load", "llc-hit", "same-core", 0, probe_access(p, 0, 0, c) };
    g_array_append_val(t->rows, r);
    r = (LatencyRow){ "load", "memory", "same-core", 0, probe_access(p, 0, 0, probe_line(cfg, p->ms, 0, (*k)++)) };
    g_array_append_val(t->rows, r);
    for (guint i = 0; i < np; i++)
        if (places[i].socket != 0) {
            r = (LatencyRow){ "load", "memory", "", places[i].socket,
                              probe_access(p, 0, 0, probe_line(cfg, p->ms, places[i].socket, (*k)++)) };
            g_strlcpy(r.distance, places[i].label, sizeof r.distance);
            g_array_append_val(t->rows, r);
        }
}

LatencyTable *latency_measure(const QsimConfig *cfgp, GError **error)
{
    /* Rows place a line's home at a chosen distance by its address, so homes interleave here
     * whatever memory.home says (a shallow copy: the strings stay the caller's). */
    QsimConfig interleaved = *cfgp;
    interleaved.memory.home = HOME_INTERLEAVE;
    const QsimConfig *cfg = &interleaved;
    Probe p;
    if (!probe_open(&p, cfg, error))
        return NULL;
    LatencyTable *t = g_new0(LatencyTable, 1);
    t->rows = g_array_new(FALSE, TRUE, sizeof(LatencyRow));
    t->absent = g_array_new(FALSE, TRUE, sizeof(LatencyAbsent));
    Place places[16];
    guint np = probe_places(cfg, p.ms, places, G_N_ELEMENTS(places), t);
    static const char states[] = "MOESFI";
    for (const char *s = states; *s; s++) {
        if (!state_applies(cfg, p.ms, *s)) {
            add_absent(t, *s, "any", *s == 'O' ? "the protocol has no O state (MOESI only)"
                                   : *s == 'F' ? "the protocol has no F state (MESIF only)"
                                               : "the protocol has no E state (MSI: a lone reader gets S)");
            continue;
        }
        for (guint i = 0; i < np; i++) {
            gboolean shared = (*s == 'S' && s_needs_two(p.ms)) || *s == 'O' || *s == 'F';
            if (shared && !places[i].has_helper)
                add_absent(t, *s, places[i].label, "needs two cores on that socket besides core 0");
            else if (*s == 'S' && cfg->protocol == PROTO_MOESI && !places[i].has_third)
                add_absent(t, *s, places[i].label, "MOESI: two sharers with no owner need three cores there besides core 0");
            else if (*s == 'F' && places[i].socket == 0)
                add_absent(t, *s, places[i].label,
                           "on core 0's own socket the inclusive LLC serves a shared line; F matters across sockets");
        }
    }
    /* Each measurement on a line of its own: a memory system per op keeps rows independent of
     * the order they are measured in. */
    guint k = 0;
    for (guint op = 0; op < G_N_ELEMENTS(probe_ops); op++) {
        Probe q;
        if (!probe_open(&q, cfg, error)) {
            probe_close(&p);
            latency_table_free(t);
            return NULL;
        }
        for (const char *s = states; *s; s++) {
            if (!state_applies(cfg, q.ms, *s))
                continue;
            for (guint i = 0; i < np; i++) {
                const Place *pl = &places[i];
                gboolean shared = (*s == 'S' && s_needs_two(q.ms)) || *s == 'O' || *s == 'F';
                if ((shared && !pl->has_helper) || (*s == 'F' && pl->socket == 0) ||
                    (*s == 'S' && cfg->protocol == PROTO_MOESI && !pl->has_third))
                    continue;
                uint64_t addr = probe_line(cfg, q.ms, *s == 'I' ? pl->socket : 0, k++);
                probe_setup(&q, cfg, pl, *s, addr);
                LatencyRow r = { probe_ops[op].name, NULL, "", pl->socket, 0 };
                static const char *const names[] = { "M", "O", "E", "S", "F", "I" };
                r.state = names[strchr(states, *s) - states];
                g_strlcpy(r.distance, pl->label, sizeof r.distance);
                r.cycles = probe_access(&q, 0, op, addr);
                g_array_append_val(t->rows, r);
            }
        }
        probe_close(&q);
    }
    probe_local(&p, cfg, places, np, t, &k);
    probe_close(&p);
    return t;
}

void latency_table_free(LatencyTable *t)
{
    if (!t)
        return;
    g_array_free(t->rows, TRUE);
    g_array_free(t->absent, TRUE);
    g_free(t);
}

const LatencyRow *latency_find(const LatencyTable *t, const char *op, const char *state, const char *distance)
{
    for (guint i = 0; i < t->rows->len; i++) {
        const LatencyRow *r = &g_array_index(t->rows, LatencyRow, i);
        if (!strcmp(r->op, op) && !strcmp(r->state, state) && !strcmp(r->distance, distance))
            return r;
    }
    return NULL;
}

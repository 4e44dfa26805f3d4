/* The interconnect: the on-die network of a socket (ring, mesh or crossbar: distance in stops
 * between cores and LLC slices), the socket graph (hop counts and one-way costs, built once),
 * the home socket of a line, the routes messages take (core to home slice, core to core), the
 * bound broadcast snooping puts on an access, and the longest any access may take.  memsys.h's table of latencies is written in
 * these parts.  A route is a latency, not a queue: messages never wait for a link or a slice,
 * so no two of them tie here (requests that meet at a home or on a bus do: home_arbiter.c,
 * bus.c). */
#include "coherence/memsys_internal.h"

/* ======================================================================================
 * On-die distance
 * ====================================================================================== */

static guint stop_distance(const MemSys *ms, guint a, guint b)
{
    switch (ms->cfg->topology.ondie) {
    case ONDIE_RING: {
        guint d = a > b ? a - b : b - a;
        return MIN(d, ms->cps - d);
    }
    case ONDIE_MESH: {
        guint w = 1;
        while (w * w < ms->cps)
            w++;
        guint ax = a % w, ay = a / w, bx = b % w, by = b / w;
        return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
    }
    case ONDIE_CROSSBAR:
    default:
        return 0;
    }
}
guint memsys_ondie_distance(const MemSys *ms, guint core, uint64_t addr)
{
    return stop_distance(ms, ms->cores[core].local, slice_stop(ms, line_of(ms, addr)));
}
guint memsys_core_distance(const MemSys *ms, guint a, guint b)
{
    return stop_distance(ms, ms->cores[a].local, ms->cores[b].local);
}

/* ======================================================================================
 * Sockets
 * ====================================================================================== */

/* memory.home: interleave puts line i on socket i mod S; first-touch puts a line on the socket of
 * the core that first accesses it (Linux's default local allocation), fixed from then on. */
guint memsys_home_socket(const MemSys *ms, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = dir_find(ms, line);
    if (d)
        return dir_home_socket(ms, d);
    return (guint)(line_index(ms, line) % ms->nsockets);
}
guint memsys_core_socket(const MemSys *ms, guint core) { return ms->cores[core].socket; }
guint64 memsys_socket_cycles(const MemSys *ms, guint a, guint b) { return ms->sock_cost[a * ms->nsockets + b]; }
guint memsys_socket_hops(const MemSys *ms, guint a, guint b) { return ms->sock_hops[a * ms->nsockets + b]; }

/* Socket graph: hop counts by BFS over the links, cost per hop from the config. */
void interconnect_build(MemSys *ms)
{
    guint n = ms->nsockets;
    const QsimConfig *c = ms->cfg;
    ms->sock_cost = g_new0(guint64, n * n);
    ms->sock_hops = g_new0(guint, n * n);
    /* twisted 3-cube: a 3-cube with one face's dimension-1 links crossed: diameter 2 */
    static const guint8 twisted[8][3] = {
        { 1, 2, 4 }, { 0, 3, 5 }, { 0, 3, 6 }, { 1, 2, 7 },
        { 0, 5, 7 }, { 1, 4, 6 }, { 2, 5, 7 }, { 3, 4, 6 },
    };
    for (guint a = 0; a < n; a++)
        for (guint b = 0; b < n; b++) {
            guint hops = 0;
            guint64 cost = 0;
            if (a == b) {
                /* nothing */
            } else if (c->topology.socket_links == SOCKETS_FULL) {
                hops = 1;
                cost = c->topology.socket_hop_cycles;
            } else if (c->topology.socket_links == SOCKETS_RING) {
                guint d = a > b ? a - b : b - a;
                hops = MIN(d, n - d);
                cost = hops * (guint64)c->topology.socket_hop_cycles;
            } else if (c->topology.socket_links == SOCKETS_TWISTED_HYPERCUBE) {
                hops = 2;
                for (guint i = 0; i < 3; i++)
                    if (twisted[a][i] == b)
                        hops = 1;
                cost = hops * (guint64)c->topology.socket_hop_cycles;
            } else { /* mcm-pairs: dies 2k, 2k+1 share a package; equal parity dies are linked */
                if (a / 2 == b / 2) {
                    hops = 1;
                    cost = c->topology.package_hop_cycles;
                } else if (a % 2 == b % 2) {
                    hops = 1;
                    cost = c->topology.socket_hop_cycles;
                } else {
                    hops = 2;
                    cost = c->topology.socket_hop_cycles + c->topology.package_hop_cycles;
                }
            }
            ms->sock_hops[a * n + b] = hops;
            ms->sock_cost[a * n + b] = cost;
        }
}

/* ======================================================================================
 * Routes
 * ====================================================================================== */

/* One way between a core and the home slice of d's line (possibly on another socket). */
Cycle route_core_home(const MemSys *ms, gint core, const DirEntry *d)
{
    const CoreCaches *c = &ms->cores[core];
    guint h = dir_home_socket(ms, d);
    return stop_distance(ms, c->local, slice_stop(ms, d->line)) * hop(ms) + memsys_socket_cycles(ms, c->socket, h);
}
/* From socket s's slice of `line` to core c. */
Cycle route_socket_core(const MemSys *ms, guint s, gint core, uint64_t line)
{
    const CoreCaches *c = &ms->cores[core];
    return memsys_socket_cycles(ms, s, c->socket) + stop_distance(ms, slice_stop(ms, line), c->local) * hop(ms);
}
Cycle route_core_core(const MemSys *ms, gint a, gint b, const DirEntry *d)
{
    if (a == HOME)
        return route_core_home(ms, b, d);
    if (b == HOME)
        return route_core_home(ms, a, d);
    const CoreCaches *ca = &ms->cores[a], *cb = &ms->cores[b];
    if (ca->socket == cb->socket)
        return stop_distance(ms, ca->local, cb->local) * hop(ms);
    guint k = slice_stop(ms, d->line);
    return stop_distance(ms, ca->local, k) * hop(ms) + memsys_socket_cycles(ms, ca->socket, cb->socket) +
           stop_distance(ms, k, cb->local) * hop(ms);
}
/* Whether the line is cached somewhere and only on socket s: the socket's inclusive LLC, whose
 * core-valid bits then name every holder, answers without snooping the other sockets (SOSP 2013
 * Table 2, Westmere-EX: a line in M on the same die loads in 109 cycles, not 289+). */
static gboolean held_only_on_socket(const MemSys *ms, const DirEntry *d, guint s)
{
    gboolean any = FALSE;
    if (d->owner >= 0) {
        if (ms->cores[d->owner].socket != s)
            return FALSE;
        any = TRUE;
    }
    for (guint c = 0; c < ms->ncores; c++)
        if (is_sharer(d, (gint)c)) {
            if (ms->cores[c].socket != s)
                return FALSE;
            any = TRUE;
        }
    return any;
}

/* Whether the transaction the home is about to start for `req` (a row with actions `a` on a
 * line whose directory entry is `d`) snoops every socket rather than only the holders.
 *  - broadcast: every transaction does, unless the line is cached only on the requester's
 *    socket, whose inclusive LLC then names every holder;
 *  - probe-filter (AMD HT Assist): the filter records an owner and at most one sharer, so only
 *    a write that must invalidate a line with several sharers, or with an owner and sharers,
 *    broadcasts its invalidations; reads and every other write are directed;
 *  - directory: never. */
gboolean home_broadcasts(const MemSys *ms, const DirEntry *d, guint32 a, gint req)
{
    if (ms->nsockets < 2 || req == HOME)
        return FALSE;
    switch (ms->cfg->topology.cross_socket) {
    case XSOCKET_BROADCAST:
        return !held_only_on_socket(ms, d, ms->cores[req].socket);
    case XSOCKET_PROBE_FILTER:
        return (a & DA_INV_SHARERS) && (d->nsharers > 1 || (d->owner >= 0 && d->nsharers > 0));
    case XSOCKET_DIRECTORY:
    default:
        return FALSE;
    }
}

/* A broadcast snoop: every socket t's caches answer the requester after the snoop reaches them
 * and they look the line up, so the requester's access cannot complete before the farthest
 * answer, this long after the home looked the line up. */
Cycle broadcast_bound(const MemSys *ms, gint req, const DirEntry *d)
{
    guint h = dir_home_socket(ms, d), s = ms->cores[req].socket;
    Cycle worst = 0;
    for (guint t = 0; t < ms->nsockets; t++)
        worst = MAX(worst, memsys_socket_cycles(ms, h, t) + memsys_socket_cycles(ms, t, s));
    return worst + (Cycle)ms->cfg->topology.snoop_response_cycles +
           stop_distance(ms, slice_stop(ms, d->line), ms->cores[req].local) * hop(ms);
}

/* ======================================================================================
 * The longest access
 * ====================================================================================== */

/* The farthest one-way route between two points of the machine: across a die to its edge, the
 * costliest socket path, and across the far die. */
static Cycle longest_route(const MemSys *ms)
{
    guint64 socket = 0;
    for (guint i = 0; i < ms->nsockets * ms->nsockets; i++)
        socket = MAX(socket, ms->sock_cost[i]);
    guint stops = 0;
    for (guint a = 0; a < ms->cps; a++)
        stops = MAX(stops, stop_distance(ms, 0, a));
    if (ms->cfg->topology.ondie == ONDIE_MESH)
        for (guint a = 0; a < ms->cps; a++)
            for (guint b = 0; b < ms->cps; b++)
                stops = MAX(stops, stop_distance(ms, a, b));
    return (Cycle)socket + 2 * (Cycle)stops * hop(ms);
}

/* Every leg of memsys.h's table at its farthest, and every fixed cost at once: a request to the
 * home; the home's snoops, invalidations or forwards (a broadcast's too) and their answers back
 * (two more routes); a write-back or back-invalidation met on the way (two more); the unblock
 * that frees the home for the next request (one).  Or, on a bus, its phases, a snoop and memory.
 * An over-estimate on purpose: it bounds a watchdog, not a latency anyone reads. */
Cycle memsys_longest_access(const MemSys *ms)
{
    const QsimConfig *c = ms->cfg;
    Cycle fixed = (Cycle)(c->l1.latency + c->l1.store_cycles + (c->l2_enabled ? c->l2.latency : 0) +
                          c->llc.latency + c->memory.latency + c->topology.snoop_response_cycles +
                          c->topology.snoop_data_cycles + c->core.locked_rmw_cycles + c->core.lock_hold_cycles);
    if (c->topology.interconnect == INTERCONNECT_BUS)
        return fixed + 2 * (Cycle)(c->bus.address_cycles + c->bus.data_cycles);
    return fixed + 6 * longest_route(ms);
}

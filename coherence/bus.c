/* topology.interconnect bus: one atomic snooping bus, the system of the Primer's §7.2.2 (Sorin,
 * Hill and Wood, "A Primer on Memory Consistency and Cache Coherence", 2nd ed.: "Simple Snooping
 * System Model: Atomic Requests, Atomic Transactions"), with the tables of coherence/msi_bus.c
 * and mesi_bus.c.  There is no directory: the bus orders the requests (its arbitration order
 * is the total order of requests every controller sees), and each cache and the memory answer
 * from their own state.
 *
 * A transaction, with A = bus.address_cycles and D = bus.data_cycles:
 *  - a cache that needs a request (a miss, or a store to an S line) asks the arbiter and
 *    waits; its line keeps its state meanwhile.  The arbiter grants the bus at the start of a
 *    cycle to a request asked in an earlier cycle: the oldest, and among requests asked in one
 *    cycle the first in round-robin order after the core that won the last such contest (so
 *    the order does not depend on which of them the engine ran first, nor favours a core);
 *  - at the grant the requester's row fires (I + Load -> IS_D: issue GetS): atomic requests,
 *    ordered when issued.  The grant cycle is the first of the arbitration and address phase;
 *    at its last, A - 1 cycles later, every cache and the memory see the request: the
 *    requester's Own-GetS row, each other cache's Other-GetS row (in core order), then the
 *    memory's row.  A cache holding the line for a locked RMW (hold_cycles) makes the snoop,
 *    and the bus, wait until the hold ends;
 *  - the responder (the owner cache, after topology.snoop_response_cycles, plus
 *    snoop_data_cycles for a dirty line; or the memory, after llc.latency when the LLC holds
 *    the line, else memory.latency) puts the data on the bus, and D cycles later it reaches the
 *    requester (its Data row) and, when the memory wants it, the memory;
 *  - atomic transactions: the bus is held from the grant until the data has arrived, and the
 *    next grant comes the cycle after.  So a load miss on a free bus takes A + the responder's
 *    time + D, and requests to any lines wait their turn: every cache sees every request.
 *  - a write-back (a PutM, whose data follows it: D after its address phase) is issued when
 *    its line is replaced, which happens when a fill needs the way (while the filling
 *    transaction still holds the bus) or when a tool evicts a line on a quiet bus; it takes the
 *    bus's next slot, before any waiting request, so no request can come between the
 *    replacement and its PutM: the atomic request of the Primer's M + Replacement row.
 * Every message of a bus system is delivered here (messages.c): requests on the bus to the
 * snoop, data to the requesting cache (classified as the directory's), the owner's data to the
 * memory controller. */
#include "coherence/memsys_internal.h"

/* A request waiting for the arbiter: the access that asked, and the same core's later
 * accesses to the same line, chained behind it through Access.next (one request per line). */
typedef struct {
    gint32 ai, tail;
    guint core;
    uint64_t line;
    Cycle asked;
} BusRequest;

/* Invariants: `busy` from a grant until its request is snooped (the data phase's end is then
 * known, and next_free says when the bus is free again); `granting` only while the granted
 * access's row is being applied. */
struct Bus {
    GArray *waiting;            /* BusRequest, in the order asked */
    gint32 granting;
    Cycle granting_waited;      /* its wait for the bus */
    gboolean issued;            /* the granted row put a request on the bus */
    gboolean busy;
    Cycle next_free;            /* the first cycle the arbiter may grant */
    Cycle data_at;              /* the snoop in progress: when the last of its data arrives */
    gboolean arb_pending;       /* an arbitration event is scheduled */
    gint tie_first;             /* the core that won the last contest, -1: none yet */
    Cycle tie_asked;            /* when that contest's requests were asked */
};

Bus *bus_new(void)
{
    Bus *b = g_new0(Bus, 1);
    b->waiting = g_array_new(FALSE, FALSE, sizeof(BusRequest));
    b->granting = NIL;
    b->tie_first = -1; /* core 0 first */
    b->tie_asked = CYCLE_NEVER;
    return b;
}

void bus_free(Bus *b)
{
    if (!b)
        return;
    g_array_free(b->waiting, TRUE);
    g_free(b);
}

static Cycle address_cycles(const MemSys *ms) { return (Cycle)ms->cfg->bus.address_cycles; }
static Cycle data_cycles(const MemSys *ms) { return (Cycle)ms->cfg->bus.data_cycles; }

/* ======================================================================================
 * The arbiter
 * ====================================================================================== */

static void bus_arbitrate(void *obj, uint64_t arg);

/* Schedules the next arbitration, if there is something to grant and the bus may be free. */
static void bus_kick(MemSys *ms)
{
    Bus *b = ms->bus;
    if (b->arb_pending || b->busy || !b->waiting->len)
        return;
    const BusRequest *first = &g_array_index(b->waiting, BusRequest, 0);
    Cycle at = MAX(MAX(engine_now(ms->e), b->next_free), first->asked + 1);
    b->arb_pending = TRUE;
    engine_schedule_at(ms->e, at, bus_arbitrate, ms, 0);
}

gboolean bus_granted(const MemSys *ms, gint32 ai) { return ai != NIL && ms->bus->granting == ai; }
Cycle bus_grant_wait(const MemSys *ms) { return ms->bus->granting_waited; }

void bus_ask(MemSys *ms, guint core, uint64_t line, gint32 ai)
{
    Bus *b = ms->bus;
    g_assert(ai != NIL);
    acc_at(ms, ai)->next = NIL;
    for (guint i = 0; i < b->waiting->len; i++) {
        BusRequest *r = &g_array_index(b->waiting, BusRequest, i);
        if (r->core == core && r->line == line) {
            acc_at(ms, r->tail)->next = ai;
            r->tail = ai;
            return;
        }
    }
    BusRequest r = { ai, ai, core, line, engine_now(ms->e) };
    g_array_append_val(b->waiting, r);
    bus_kick(ms);
}

/* Gives the bus to request r: its access's row fires now (and issues the request), then the
 * accesses queued behind it try their line again. */
static void bus_grant(MemSys *ms, BusRequest r)
{
    Bus *b = ms->bus;
    Cycle now = engine_now(ms->e);
    b->granting_waited = now - (r.asked + 1);
    ms->stats.bus_wait_cycles += b->granting_waited;
    gint32 behind = acc_at(ms, r.ai)->next;
    acc_at(ms, r.ai)->next = NIL;
    b->granting = r.ai;
    b->issued = FALSE;
    b->busy = TRUE;
    access_attempt(ms, r.ai);
    b->granting = NIL;
    if (!b->issued) { /* nothing to put on the bus after all: the cycle is lost */
        b->busy = FALSE;
        b->next_free = now + 1;
    }
    while (behind != NIL) {
        gint32 next = acc_at(ms, behind)->next;
        acc_at(ms, behind)->next = NIL;
        access_attempt(ms, behind);
        behind = next;
    }
    bus_kick(ms);
}

static void bus_arbitrate(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    MemSys *ms = obj;
    Bus *b = ms->bus;
    Cycle now = engine_now(ms->e);
    b->arb_pending = FALSE;
    if (b->busy)
        return; /* the snoop of the transaction on the bus kicks again */
    if (!b->waiting->len)
        return;
    const BusRequest *first = &g_array_index(b->waiting, BusRequest, 0);
    if (now < b->next_free || first->asked >= now) {
        bus_kick(ms);
        return;
    }
    /* The oldest requests; among those of one cycle, the first in the rotation that starts
     * after the core that won the last contest (rotation_rank).  Only the first grant of a
     * contest moves the rotation on: the rest of that cycle's requests follow in its order, and
     * a pointer moved by every grant would stand on the last of them, giving the next tie to the
     * same winner again. */
    guint best = 0, best_rank = G_MAXUINT;
    gboolean contested = FALSE;
    for (guint i = 0; i < b->waiting->len; i++) {
        const BusRequest *r = &g_array_index(b->waiting, BusRequest, i);
        if (r->asked != first->asked)
            break;
        contested |= r->core != first->core;
        guint rank = rotation_rank((gint)r->core, b->tie_first, ms->ncores);
        if (rank < best_rank) {
            best_rank = rank;
            best = i;
        }
    }
    BusRequest r = g_array_index(b->waiting, BusRequest, best);
    g_array_remove_index(b->waiting, best);
    if (contested && r.asked != b->tie_asked) {
        b->tie_first = (gint)r.core;
        b->tie_asked = r.asked;
    }
    bus_grant(ms, r);
}

/* ======================================================================================
 * Timing
 * ====================================================================================== */

Cycle bus_request_delay(MemSys *ms)
{
    Bus *b = ms->bus;
    g_assert(b->granting != NIL && !b->issued);
    b->issued = TRUE;
    return address_cycles(ms) - 1; /* the grant cycle is the phase's first */
}

Cycle bus_writeback_delay(MemSys *ms)
{
    Bus *b = ms->bus;
    /* Replacements come from fills, which end a transaction, or from a tool on a quiet bus
     * (memsys_evict): never while a granted request waits for its snoop. */
    g_assert(!b->busy);
    Cycle now = engine_now(ms->e), grant = MAX(now + 1, b->next_free);
    b->next_free = grant + address_cycles(ms) + data_cycles(ms);
    ms->stats.bus_wait_cycles += grant - (now + 1);
    return grant + address_cycles(ms) - 1 - now;
}

Cycle bus_data_delay(MemSys *ms, Cycle responder)
{
    Bus *b = ms->bus;
    Cycle delay = responder + data_cycles(ms);
    b->data_at = MAX(b->data_at, engine_now(ms->e) + delay);
    return delay;
}

/* ======================================================================================
 * The snoop
 * ====================================================================================== */

/* Whether a cache in state s does anything on event ev (a blank cell of the Primer's table:
 * nothing, so a held line need not hold the snoop up). */
static gboolean snoop_acts(const MemSys *ms, guint s, CohCacheEvent ev)
{
    gint16 ri = ms->cache_lut[s][ev];
    return ri >= 0 && (ms->cache_rows[ri].actions || ms->cache_rows[ri].next != s);
}

static gboolean attached(const CoreCaches *c) { return c->l1.ways != 0; }

/* Request mi is seen by every cache and the memory.  TRUE: it waits for a held line. */
static gboolean bus_snoop(MemSys *ms, gint32 mi)
{
    Bus *b = ms->bus;
    const Msg *m = msg_at(ms, mi);
    DirEntry *d = m->dir;
    const gint req = m->src;
    const MsgType type = m->type;
    CohCacheEvent own, other;
    CohDirEvent mem;
    switch (type) {
    case MSG_GETS: own = CE_OWN_GETS; other = CE_OTHER_GETS; mem = DE_GETS; break;
    case MSG_GETM: own = CE_OWN_GETM; other = CE_OTHER_GETM; mem = DE_GETM; break;
    case MSG_PUTM: own = CE_OWN_PUTM; other = CE_OTHER_PUTM; mem = DE_PUTM; break;
    default: g_error("coherence: %s on the bus", memsys_msg_name(type));
    }
    Cycle now = engine_now(ms->e), until = now;
    for (guint i = 0; i < ms->ncores; i++) {
        PrivLine *pl = (gint)i != req ? dir_holder(d, i) : NULL;
        if (pl && pl->held_until > now && snoop_acts(ms, pl->state, other))
            until = MAX(until, pl->held_until);
    }
    if (until > now) { /* a locked RMW keeps its line: the snoop waits, and the bus with it */
        ms->stats.hold_wait_cycles += until - now;
        msg_at(ms, mi)->held_since = msg_at(ms, mi)->held_since ? msg_at(ms, mi)->held_since : now;
        for (guint i = 0; i < ms->ncores; i++) {
            PrivLine *pl = (gint)i != req ? dir_holder(d, i) : NULL;
            if (pl && pl->held_until > now)
                pl->snoop_waiting = TRUE;
        }
        engine_schedule_at(ms->e, until, msg_deliver, ms, (uint64_t)mi);
        return TRUE;
    }
    b->data_at = now;
    ms->stats.bus_transactions++;
    CoreCaches *rc = &ms->cores[req];
    bus_cache_event(ms, rc, d, dir_holder(d, rc->id), own, mi, NIL);
    for (guint i = 0; i < ms->ncores; i++) {
        CoreCaches *c = &ms->cores[i];
        if ((gint)i == req || !attached(c))
            continue;
        PrivLine *pl = dir_holder(d, c->id);
        if (pl) {
            /* The snoop reads or changes a line the core holds: a core asleep in a steady loop
             * (cores/core_ff.c) catches up first.  One that does not hold it is not touched. */
            core_disturb(c);
            pl = dir_holder(d, c->id);
            pl->snoop_waiting = FALSE;
            if (other == CE_OTHER_GETM) {
                ms->stats.inval_received[i]++;
                d->st.invalidations++;
            }
        }
        ms->stats.bus_snoops++;
        bus_cache_event(ms, c, d, pl, other, mi, NIL);
    }
    bus_memory_event(ms, d, mem, mi);
    if (type != MSG_PUTM) { /* a granted request: the bus is free once its data is in */
        b->busy = FALSE;
        b->next_free = b->data_at + 1;
        bus_kick(ms);
    }
    return FALSE;
}

gboolean bus_deliver(MemSys *ms, gint32 mi)
{
    const Msg *m = msg_at(ms, mi);
    if (m->dst == BUS)
        return bus_snoop(ms, mi);
    if (m->dst == HOME) {
        bus_memory_event(ms, m->dir, DE_OWNER_DATA, mi);
        return FALSE;
    }
    return cache_receive(ms, &ms->cores[m->dst], mi);
}

/* A snooping cache: the cache table of a bus protocol (coherence/msi_bus.c, mesi_bus.c) applied
 * to a private line, for the own core's accesses and replacements and for the requests the
 * cache sees on the bus (coherence/bus.c).  It is a bus system's apply_cache_event; the port,
 * the tag arrays and the accesses themselves are the directory system's (cache_controller.c,
 * cache_tags.c).
 *
 * A row that issues a request (I + Load -> IS_D) waits for the bus first: the access asks the
 * arbiter and the row fires when it is granted, so that the request is ordered in the cycle it
 * is issued (the Primer's atomic requests).  Answers to a snooped request leave after
 * topology.snoop_response_cycles (plus snoop_data_cycles for a dirty line) and arrive at the
 * end of the bus's data phase. */
#include "coherence/memsys_internal.h"

/* The data of `pl` to `dst` (a core or HOME) as message `type`, arriving after `delay`. */
static void send_data(MemSys *ms, CoreCaches *c, PrivLine *pl, MsgType type, gint dst, gint req, Cycle delay)
{
    gint32 di = msg_send(ms, type, (gint)c->id, dst, req, pl->dir, delay);
    Msg *dm = msg_at(ms, di);
    dm->has_data = TRUE;
    dm->source = MEM_SRC_PEER_SAME_SOCKET; /* a bus joins the cores of one socket */
    memcpy(dm->data, pl->data, ms->line_size);
}

/* ======================================================================================
 * The actions of a bus cache row (CA_*), one function each
 * ====================================================================================== */

/* CA_ISSUE_GETS, CA_ISSUE_GETM: the request, on the bus now (the row fires at the grant); the
 * access waits on the line for the data. */
static void issue_request(CacheRowRun *x, MsgType t)
{
    gint me = (gint)x->c->id;
    cache_request_start(x->ms, x->pl, x->ai, t == MSG_GETM);
    msg_send(x->ms, t, me, BUS, me, x->d, bus_request_delay(x->ms));
    wait_push(x->ms, x->pl, x->ai);
}
static void a_issue_gets(CacheRowRun *x) { issue_request(x, MSG_GETS); }
static void a_issue_getm(CacheRowRun *x) { issue_request(x, MSG_GETM); }

/* CA_ISSUE_PUTM: the write-back's address phase; its data leaves after it (CA_DATA_TO_MEM). */
static void a_issue_putm(CacheRowRun *x)
{
    Cycle seen = bus_writeback_delay(x->ms);
    msg_send(x->ms, MSG_PUTM, (gint)x->c->id, BUS, (gint)x->c->id, x->d, seen);
    x->data_leaves = seen + (Cycle)x->ms->cfg->bus.data_cycles;
    x->data_timed = TRUE;
}

/* When the row's data leaves: a write-back's after its own address phase (a_issue_putm), an
 * answer to a snooped request once the cache has looked the line up (and read it out, if
 * dirty). */
static Cycle data_leaves(CacheRowRun *x)
{
    if (!x->data_timed) {
        MemSys *ms = x->ms;
        Cycle answer = (Cycle)ms->cfg->topology.snoop_response_cycles +
                       (coh_cache_state_dirty(x->state) ? (Cycle)ms->cfg->topology.snoop_data_cycles : 0);
        x->data_leaves = bus_data_delay(ms, answer);
        x->data_timed = TRUE;
    }
    return x->data_leaves;
}

/* Who the row's data is for: the snooped request's requester (a write-back's: this cache). */
static gint row_requester(const CacheRowRun *x) { return x->mi != NIL ? cache_row_cause(x)->req : (gint)x->c->id; }

/* CA_DATA_TO_REQ: the data to the requester, cache to cache. */
static void a_send_data_to_requestor(CacheRowRun *x)
{
    gint req = row_requester(x);
    send_data(x->ms, x->c, x->pl, MSG_DATA_C2C, req, req, data_leaves(x));
    cache_c2c_counted(x->ms, x->d);
}

/* CA_DATA_TO_MEM: the data to the memory, in the data phase. */
static void a_send_data_to_memory(CacheRowRun *x)
{
    send_data(x->ms, x->c, x->pl, MSG_COPYBACK, HOME, row_requester(x), data_leaves(x));
}

/* CA_SAVE_DATA: the data of the own transaction. */
static void a_save_data(CacheRowRun *x)
{
    const Msg *m = cache_row_cause(x);
    memcpy(x->pl->data, m->data, x->ms->line_size);
    x->pl->data_in = TRUE;
    x->pl->src = m->source;
}

/* A bus protocol's cache table, by CA_* bit (the directory-only actions are refused by
 * coh_protocol_check). */
static const CacheAction bus_cache_actions[CA_ACTION_BITS] = {
    /* CA_STALL, CA_HIT: cache_row_begin */
    [CA_BIT(CA_ISSUE_GETS)] = a_issue_gets,
    [CA_BIT(CA_ISSUE_GETM)] = a_issue_getm,
    [CA_BIT(CA_ISSUE_PUTM)] = a_issue_putm,
    [CA_BIT(CA_DATA_TO_REQ)] = a_send_data_to_requestor,
    [CA_BIT(CA_DATA_TO_MEM)] = a_send_data_to_memory,
    [CA_BIT(CA_SAVE_DATA)] = a_save_data,
    [CA_BIT(CA_LOST_INV)] = a_tell_core_invalidated,
    [CA_BIT(CA_LOST_DOWN)] = a_tell_core_lost_write,
    [CA_BIT(CA_FREE)] = a_leave_arrays,
    [CA_BIT(CA_WAKE)] = a_take_waiters,
};

/* ======================================================================================
 * A row
 * ====================================================================================== */

void bus_cache_event(MemSys *ms, CoreCaches *c, DirEntry *d, PrivLine *pl, CohCacheEvent ev,
                     gint32 mi, gint32 ai)
{
    uint64_t line = d->line;
    guint state = pl ? pl->state : CS_I;
    gint16 ri = row_index(ms, FALSE, state, ev);
    const CohRow *row = &ms->cache_rows[ri];
    if ((row->actions & (CA_ISSUE_GETS | CA_ISSUE_GETM)) && !bus_granted(ms, ai)) {
        bus_ask(ms, c->id, line, ai); /* the row fires when the bus is granted */
        return;
    }
    ms->stats.cache_rows_fired[ri]++;
    if (!cache_row_begin(ms, c, d, &pl, row, mi, ai, bus_granted(ms, ai) ? bus_grant_wait(ms) : 0))
        return;
    CacheRowRun x = { .ms = ms, .c = c, .pl = pl, .d = d, .row = row, .state = state, .mi = mi,
                      .ai = ai, .waiters = NIL };
    cache_row_run(&x, bus_cache_actions);
    /* only a transient line has waiting accesses; the bus keeps those that wait for it */
    if (row->actions & CA_FREE)
        g_assert(row->next == CS_I && pl->wait_head == NIL);
    cache_row_end(ms, c, pl, line, row->actions);
    /* Waiting accesses retry in order: each hits, waits on the line again, or asks for the bus. */
    gint32 waiters = x.waiters;
    while (waiters != NIL) {
        gint32 next = acc_at(ms, waiters)->next;
        access_attempt(ms, waiters);
        waiters = next;
    }
}

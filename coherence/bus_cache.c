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
    gint32 di = msg_send(ms, type, (gint)c->id, dst, req, pl->line, delay);
    Msg *dm = msg_at(ms, di);
    dm->has_data = TRUE;
    dm->source = MEM_SRC_PEER_SAME_SOCKET; /* a bus joins the cores of one socket */
    memcpy(dm->data, pl->data, ms->line_size);
}

void bus_cache_event(MemSys *ms, CoreCaches *c, uint64_t line, PrivLine *pl, CohCacheEvent ev,
                     gint32 mi, gint32 ai)
{
    guint state = pl ? pl->state : CS_I;
    gint16 ri = row_index(ms, FALSE, state, ev);
    const CohRow *row = &ms->cache_rows[ri];
    guint32 a = row->actions;
    if ((a & (CA_ISSUE_GETS | CA_ISSUE_GETM)) && !bus_granted(ms, ai)) {
        bus_ask(ms, c->id, line, ai); /* the row fires when the bus is granted */
        return;
    }
    ms->stats.cache_rows_fired[ri]++;
    gint me = (gint)c->id;
    if (!cache_row_begin(ms, c, line, &pl, row, mi, ai, bus_granted(ms, ai) ? bus_grant_wait(ms) : 0))
        return;
    if (a & (CA_ISSUE_GETS | CA_ISSUE_GETM)) {
        MsgType t = (a & CA_ISSUE_GETS) ? MSG_GETS : MSG_GETM;
        cache_request_start(ms, pl, ai, t == MSG_GETM);
        msg_send(ms, t, me, BUS, me, line, bus_request_delay(ms));
        wait_push(ms, pl, ai);
    }
    /* When the data leaves: a write-back's after its own address phase, an answer to a
     * snooped request once the cache has looked the line up (and read it out, if dirty). */
    Cycle data = 0;
    if (a & CA_ISSUE_PUTM) {
        Cycle seen = bus_writeback_delay(ms);
        msg_send(ms, MSG_PUTM, me, BUS, me, line, seen);
        data = seen + (Cycle)ms->cfg->bus.data_cycles;
    } else if (a & (CA_DATA_TO_REQ | CA_DATA_TO_MEM)) {
        Cycle answer = (Cycle)ms->cfg->topology.snoop_response_cycles +
                       (coh_cache_state_dirty(state) ? (Cycle)ms->cfg->topology.snoop_data_cycles : 0);
        data = bus_data_delay(ms, answer);
    }
    gint req = mi != NIL ? msg_at(ms, mi)->req : me;
    if (a & CA_DATA_TO_REQ) {
        send_data(ms, c, pl, MSG_DATA_C2C, req, req, data);
        cache_c2c_counted(ms, line);
    }
    if (a & CA_DATA_TO_MEM)
        send_data(ms, c, pl, MSG_COPYBACK, HOME, req, data);
    if (a & CA_SAVE_DATA) {
        const Msg *m = msg_at(ms, mi);
        memcpy(pl->data, m->data, ms->line_size);
        pl->data_in = TRUE;
        pl->src = m->source;
    }
    cache_tell_lost(c, pl, a);
    if (a & CA_FREE)
        private_leave(ms, c, pl);
    if (pl)
        pl->state = row->next;
    gint32 waiters = cache_wake_take(pl, a);
    /* only a transient line has waiting accesses; the bus keeps those that wait for it */
    if (a & CA_FREE)
        g_assert(row->next == CS_I && pl->wait_head == NIL);
    cache_row_end(ms, c, pl, line, a);
    /* Waiting accesses retry in order: each hits, waits on the line again, or asks for the bus. */
    while (waiters != NIL) {
        gint32 next = acc_at(ms, waiters)->next;
        access_attempt(ms, waiters);
        waiters = next;
    }
}

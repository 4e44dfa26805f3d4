/* The home controller: the directory table of the protocol (coherence/mesi.c, moesi.c)
 * applied at a line's home socket.  A message is classified into an event (dir_classify), the
 * row's actions send data, forwards, invalidations and acks with the latencies of memsys.h, and
 * a request for a busy line joins the line's FIFO (directory.c) until the line is stable. */
#include "coherence/memsys_internal.h"

static const CohRow *dir_row(MemSys *ms, guint s, guint e)
{
    gint16 i = ms->dir_lut[s][e];
    if (i < 0)
        g_error("coherence (%s): no directory-table row for state %s and event %s", ms->proto->name,
                coh_dir_state_name(s), coh_dir_event_name(e));
    ms->stats.dir_rows_fired[i]++;
    return &ms->dir_rows[i];
}

static CohDirEvent dir_classify(const DirEntry *d, const Msg *m)
{
    gint req = m->src;
    switch (m->type) {
    case MSG_GETS: return DE_GETS;
    case MSG_GETM: case MSG_UPGRADE:
        if ((d->state == DS_S && is_sharer(d, req)) || (d->state == DS_O && d->owner == req))
            return DE_UPGRADE;
        return DE_GETM;
    case MSG_FAR_ATOMIC: return DE_FAR_ATOMIC;
    case MSG_PUTS: case MSG_PUTE: case MSG_PUTM: case MSG_PUTO:
        if (d->owner == req) /* a clean owner (E, or O from E) has no data to write */
            return d->nsharers ? DE_PUTO : m->has_data ? DE_PUTM : DE_PUTE;
        if (is_sharer(d, req))
            return (d->nsharers == 1 && d->owner < 0) ? DE_PUTS_LAST : DE_PUTS;
        return DE_PUT_STALE;
    case MSG_UNBLOCK: return DE_UNBLOCK;
    case MSG_COPYBACK: return DE_COPYBACK;
    case MSG_DATA_C2C: return d->acks == 0 ? DE_DATA : DE_DATA_ACKS;
    case MSG_INV_ACK: return (d->state == DS_AT_A && d->acks == 1) ? DE_LAST_INV_ACK : DE_INV_ACK;
    default:
        g_error("coherence: the home received %s", memsys_msg_name(m->type));
    }
}

static void mem_written(MemSys *ms, DirEntry *d, gint writer)
{
    ms->stats.mem_writes++;
    d->st.mem_writes++;
    d->llc_valid = writer >= 0 ? 1ull << ms->cores[writer].socket : 0;
}

static void home_drain(MemSys *ms, DirEntry *d);

/* MESIF (Intel's QPI protocol): of the sockets holding a clean shared copy, the one in F -- the
 * newest reader's -- forwards it to a reader whose own LLC lacks it, instead of memory.  -1
 * when there is none (not MESIF, the F copy was evicted, or the line is not shared clean). */
static gint mesif_forwarder(const MemSys *ms, const DirEntry *d)
{
    if (ms->cfg->protocol != PROTO_MESIF || d->f_socket < 0 || !((d->llc_valid >> d->f_socket) & 1))
        return -1;
    return d->f_socket;
}

/* Runs the directory row for message mi (a request being processed, or a response).  Every
 * send may move the message pool: what is needed of mi is read before the first send, and its
 * data through a pointer taken again after the last send that precedes that use. */
void home_apply(MemSys *ms, DirEntry *d, gint32 mi)
{
    const Msg *m = msg_at(ms, mi);
    const MsgType mtype = m->type;
    const gint32 macc = m->acc;
    CohDirEvent ev = dir_classify(d, m);
    const CohRow *row = dir_row(ms, d->state, ev);
    guint32 a = row->actions;
    uint64_t line = d->line;
    Cycle llc = (Cycle)ms->cfg->llc.latency;
    gboolean to_home = (a & DA_FWD_TO_HOME) != 0;
    gint req = is_request(mtype) ? m->src : d->req;
    gint target = to_home ? HOME : req;
    if (ms->trace)
        trace_row_begin(ms, HOME, line, row, TRUE, NIL, mi);
    g_assert(!(a & DA_STALL)); /* the caller queues */
    Cycle not_before = home_broadcasts(ms, d, a, target) ? engine_now(ms->e) + llc + broadcast_bound(ms, target, line) : 0;
    gint ninv = 0;
    if (a & DA_INV_SHARERS) {
        for (guint x = 0; x < ms->ncores; x++)
            if (is_sharer(d, (gint)x) && (gint)x != target) {
                msg_send(ms, MSG_INV, HOME, (gint)x, target, line, llc + route_core_home(ms, (gint)x, line));
                ninv++;
            }
    }
    if (a & (DA_DATA_TO_REQ | DA_DATA_E_TO_REQ)) {
        guint rs = ms->cores[req].socket;
        gboolean from_llc = (d->llc_valid >> rs) & 1;
        gint f = from_llc ? -1 : mesif_forwarder(ms, d);
        MsgType type = MSG_DATA_MEM;
        MemSource src = MEM_SRC_MEMORY;
        Cycle delay = (Cycle)ms->cfg->memory.latency + route_core_home(ms, req, line);
        if (from_llc) {
            type = MSG_DATA_LLC;
            src = MEM_SRC_LLC;
            delay = llc + route_core_home(ms, req, line);
            ms->stats.llc_hits++;
        } else if (f >= 0) {
            /* MESIF: the F socket's LLC forwards its clean copy instead of memory. */
            type = MSG_DATA_LLC;
            src = MEM_SRC_REMOTE_LLC;
            delay = llc + memsys_socket_cycles(ms, (guint)d->home, (guint)f) + llc +
                    route_socket_core(ms, (guint)f, req, line);
            ms->stats.f_forwards++;
        } else {
            ms->stats.llc_misses++;
            ms->stats.mem_reads++;
        }
        gint32 di = msg_send(ms, type, HOME, req, req, line, delay);
        Msg *dm = msg_at(ms, di);
        dm->has_data = TRUE;
        dm->excl = (a & DA_DATA_E_TO_REQ) != 0;
        dm->acks = ninv;
        dm->not_before = not_before;
        dm->source = src;
        memcpy(dm->data, d->mem, ms->line_size);
        d->llc_valid |= 1ull << rs;
    }
    if (a & DA_ACKCOUNT_TO_REQ) {
        gint32 di = msg_send(ms, MSG_ACK_COUNT, HOME, req, req, line, llc + route_core_home(ms, req, line));
        Msg *dm = msg_at(ms, di);
        dm->acks = ninv;
        dm->not_before = not_before;
        dm->source = MEM_SRC_LLC; /* the requester had the data: only permission travels */
    }
    if (a & (DA_FWD_GETS | DA_FWD_GETM)) {
        g_assert(d->owner >= 0);
        gint32 fi = msg_send(ms, (a & DA_FWD_GETS) ? MSG_FWD_GETS : MSG_FWD_GETM, HOME, d->owner, target,
                             line, llc + route_core_home(ms, d->owner, line));
        Msg *fm = msg_at(ms, fi);
        fm->acks = ninv;
        fm->not_before = not_before;
    }
    m = msg_at(ms, mi); /* the sends above may have moved the pool */
    if (a & (DA_SET_OWNER_REQ | DA_DATA_TO_REQ | DA_ACKCOUNT_TO_REQ | DA_FWD_GETM) && !(a & DA_DATA_E_TO_REQ) &&
        ev != DE_GETS)
        d->llc_valid = 0; /* a writer is coming: every LLC copy will be stale */
    if (a & DA_OWNER_TO_SHARER) {
        sharer_add(d, d->owner);
        d->owner = -1;
    }
    if (a & DA_CLEAR_SHARERS) {
        memset(d->sharers, 0, ms->sharer_words * sizeof(guint64));
        d->nsharers = 0;
    }
    if (a & DA_CLEAR_OWNER)
        d->owner = -1;
    if (a & DA_ADD_REQ)
        sharer_add(d, req);
    if (a & DA_REMOVE_REQ)
        sharer_remove(d, req);
    if (a & DA_SET_OWNER_REQ)
        d->owner = req;
    if ((a & DA_WRITE_MEM) && m->has_data) {
        memcpy(d->mem, m->data, ms->line_size);
        mem_written(ms, d, m->src);
        /* An owner's copy-back after a Fwd-GetS: the reader's (inclusive) LLC got the line too. */
        if (ev == DE_COPYBACK && d->req >= 0)
            d->llc_valid |= 1ull << ms->cores[d->req].socket;
    }
    /* MESIF: the F copy goes to the newest reader's socket; a writer ends every shared copy. */
    if (ms->cfg->protocol == PROTO_MESIF) {
        if (ev == DE_GETS)
            d->f_socket = (gint8)ms->cores[req].socket;
        else if (!d->llc_valid)
            d->f_socket = -1;
    }
    if (a & DA_PUT_ACK)
        msg_send(ms, MSG_PUT_ACK, HOME, req, req, line, route_core_home(ms, req, line));
    if (a & DA_SAVE_ACKS)
        d->acks = ninv;
    if (a & DA_DEC_ACK)
        d->acks--;
    if (is_request(mtype) && !coh_dir_state_stable(row->next)) {
        d->req = req;
        if (mtype == MSG_FAR_ATOMIC)
            d->atomic_acc = macc;
    }
    if (ev == DE_FAR_ATOMIC)
        d->atomic_acc = macc;
    if (a & DA_ATOMIC_REPLY) {
        /* performed on the home's copy: nobody else holds the line now */
        gint32 ai = d->atomic_acc;
        Access *acc = acc_at(ms, ai);
        guint core = acc->core;
        Cycle proc = d->state == DS_I ? (Cycle)ms->cfg->memory.latency : llc;
        if (d->state == DS_I)
            ms->stats.mem_reads++;
        guint off = (guint)(acc->req.addr & (ms->line_size - 1));
        uint64_t old = bytes_get(d->mem + off, acc->req.size);
        uint64_t gold = bytes_get(d->golden + off, acc->req.size);
        if (old != gold)
            invariant_violation(ms, "far atomic by core %u read 0x%" G_GINT64_MODIFIER "x, the last store wrote 0x%"
                      G_GINT64_MODIFIER "x", core, old, gold);
        uint64_t nv = rmw_apply(&acc->req, old);
        bytes_put(d->mem + off, acc->req.size, nv);
        bytes_put(d->golden + off, acc->req.size, nv);
        mem_written(ms, d, -1);
        gint32 ri = msg_send(ms, MSG_ATOMIC_REPLY, HOME, (gint)core, (gint)core, line,
                             proc + route_core_home(ms, (gint)core, line));
        Msg *rm = msg_at(ms, ri);
        rm->acc = ai;
        bytes_put(rm->data, 8, old);
        ms->stats.far_atomics++;
        d->atomic_acc = NIL;
    }
    if (ms->trace)
        trace_row_end(ms, d);
    gboolean was_busy = !coh_dir_state_stable(d->state);
    d->state = row->next;
    if (ms->check)
        invariant_check_line(ms, line);
    if (was_busy && coh_dir_state_stable(d->state))
        home_drain(ms, d);
}

/* A request is processed now, or joins the FIFO if the line is busy or others wait. */
gboolean home_request(MemSys *ms, DirEntry *d, gint32 mi)
{
    Msg *m = msg_at(ms, mi);
    gint16 ri = ms->dir_lut[d->state][dir_classify(d, m)];
    gboolean stall_row = ri >= 0 && (ms->dir_rows[ri].actions & DA_STALL);
    /* A request behind others waits whatever its row; when the line is busy, its stall row
     * fires (counted and traced alike, whether or not others already wait). */
    if (stall_row) {
        ms->stats.dir_rows_fired[ri]++;
        if (ms->trace) {
            trace_row_begin(ms, HOME, d->line, &ms->dir_rows[ri], TRUE, NIL, mi);
            trace_row_end(ms, d);
        }
    }
    if (stall_row || d->q_head != NIL) {
        dir_queue_push(ms, d, mi);
        ms->stats.home_queued++;
        return TRUE;
    }
    home_apply(ms, d, mi);
    return FALSE;
}

/* The line went stable: serve the FIFO until a request makes it busy again. */
static void home_drain(MemSys *ms, DirEntry *d)
{
    while (d->q_head != NIL && coh_dir_state_stable(d->state)) {
        gint32 mi = dir_queue_pop(ms, d);
        Msg *m = msg_at(ms, mi);
        Cycle waited = engine_now(ms->e) - m->enq;
        ms->stats.home_queue_cycles += waited;
        d->st.home_queue_cycles += waited;
        home_apply(ms, d, mi);
        msg_release(ms, mi);
    }
}

/* The home controller: the directory table of the protocol (coherence/mesi.c, moesi.c, msi.c)
 * applied at a line's home socket.  A message is classified into an event (dir_classify), the
 * row's actions -- one function each -- send data, forwards, invalidations and acks with the
 * latencies of memsys.h, its home rules (the table's last column) keep the LLCs' and MESIF's
 * state, and a request for a busy line joins the line's FIFO (directory.c) until the line is
 * stable.  Nothing here asks which protocol runs: the row says what to do. */
#include "coherence/memsys_internal.h"

static CohDirEvent dir_classify(const DirEntry *d, const Msg *m)
{
    gint req = m->src;
    switch (m->type) {
    case MSG_GETS: return DE_GETS;
    case MSG_GETM: case MSG_UPGRADE:
        /* A busy line's request only queues: its row is named by what it says; once served, by
         * what the requester holds then (a sharer that lost its copy needs the data). */
        if (!coh_dir_state_stable(d->state))
            return m->type == MSG_UPGRADE ? DE_UPGRADE : DE_GETM;
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

/* ======================================================================================
 * The actions of a directory row (DA_*), and its home rules (DR_*), one function each
 * ====================================================================================== */

/* What the sends of one row share: who they serve, and the acks and the earliest completion
 * the invalidations set. */
typedef struct {
    gint req;           /* the requester the row serves */
    gint target;        /* who the forwards and invalidations answer: req, or HOME (DA_FWD_TO_HOME) */
    gint ninv;          /* invalidations sent: the acks the target waits for */
    Cycle not_before;   /* a broadcast's farthest answer: the data may not complete earlier */
} HomeSends;

/* DA_INV_SHARERS: an Inv to every sharer but the target. */
static void home_inv_sharers(MemSys *ms, DirEntry *d, HomeSends *h, Cycle llc)
{
    for (guint x = 0; x < ms->ncores; x++)
        if (is_sharer(d, (gint)x) && (gint)x != h->target) {
            msg_send(ms, MSG_INV, HOME, (gint)x, h->target, d->line, llc + route_core_home(ms, (gint)x, d->line));
            h->ninv++;
        }
}

/* DR_F_FORWARD (MESIF): of the sockets holding a clean shared copy, the one in F -- the newest
 * reader's -- forwards it to a reader whose own LLC lacks it, instead of memory.  -1 when there
 * is none (the F copy was evicted, or the line is not shared clean). */
static gint mesif_forwarder(const DirEntry *d)
{
    if (d->f_socket < 0 || !((d->llc_valid >> d->f_socket) & 1))
        return -1;
    return d->f_socket;
}

/* DA_DATA_TO_REQ, DA_DATA_E_TO_REQ: memory's data, from the requester's own LLC when it holds
 * the current copy, else (a DR_F_FORWARD row) from the F socket's LLC, else from memory; the
 * requester's LLC keeps it. */
static void home_data_to_req(MemSys *ms, DirEntry *d, const HomeSends *h, gboolean excl, guint rules, Cycle llc)
{
    gint req = h->req;
    uint64_t line = d->line;
    guint rs = ms->cores[req].socket;
    gboolean from_llc = (d->llc_valid >> rs) & 1;
    gint f = from_llc || !(rules & DR_F_FORWARD) ? -1 : mesif_forwarder(d);
    MsgType type = MSG_DATA_MEM;
    MemSource src = MEM_SRC_MEMORY;
    Cycle delay = (Cycle)ms->cfg->memory.latency + route_core_home(ms, req, line);
    if (from_llc) {
        type = MSG_DATA_LLC;
        src = MEM_SRC_LLC;
        delay = llc + route_core_home(ms, req, line);
        ms->stats.llc_hits++;
    } else if (f >= 0) {
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
    dm->excl = excl;
    dm->acks = h->ninv;
    dm->not_before = h->not_before;
    dm->source = src;
    memcpy(dm->data, d->mem, ms->line_size);
    d->llc_valid |= 1ull << rs;
}

/* DA_ACKCOUNT_TO_REQ: the upgrade's grant, no data. */
static void home_ackcount_to_req(MemSys *ms, DirEntry *d, const HomeSends *h, Cycle llc)
{
    gint32 di = msg_send(ms, MSG_ACK_COUNT, HOME, h->req, h->req, d->line, llc + route_core_home(ms, h->req, d->line));
    Msg *dm = msg_at(ms, di);
    dm->acks = h->ninv;
    dm->not_before = h->not_before;
    dm->source = MEM_SRC_LLC; /* the requester had the data: only permission travels */
}

/* DA_FWD_GETS, DA_FWD_GETM: the request to the owner, which answers the target. */
static void home_forward(MemSys *ms, DirEntry *d, const HomeSends *h, MsgType type, Cycle llc)
{
    g_assert(d->owner >= 0);
    gint32 fi = msg_send(ms, type, HOME, d->owner, h->target, d->line, llc + route_core_home(ms, d->owner, d->line));
    Msg *fm = msg_at(ms, fi);
    fm->acks = h->ninv;
    fm->not_before = h->not_before;
}

/* DA_OWNER_TO_SHARER, DA_CLEAR_SHARERS, DA_CLEAR_OWNER, DA_ADD_REQ, DA_REMOVE_REQ,
 * DA_SET_OWNER_REQ: the directory's list of holders. */
static void home_update_holders(MemSys *ms, DirEntry *d, guint32 a, gint req)
{
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
}

/* DA_WRITE_MEM: the message's data, if it carries any, to memory; the writer's LLC holds it,
 * and on a DR_LLC_TO_READER row (an owner's copy-back after a Fwd-GetS) the reader's too. */
static void home_write_mem(MemSys *ms, DirEntry *d, const Msg *m, guint rules)
{
    if (!m->has_data)
        return;
    memcpy(d->mem, m->data, ms->line_size);
    mem_written(ms, d, m->src);
    if ((rules & DR_LLC_TO_READER) && d->req >= 0)
        d->llc_valid |= 1ull << ms->cores[d->req].socket;
}

/* DR_F_TO_READER, DR_F_DROP (MESIF): the F copy goes to the newest reader's socket, and ends
 * when no LLC holds the current data (a writer ends every shared copy). */
static void home_f_update(MemSys *ms, DirEntry *d, guint rules, gint req)
{
    if (rules & DR_F_TO_READER)
        d->f_socket = (gint8)ms->cores[req].socket;
    else if ((rules & DR_F_DROP) && !d->llc_valid)
        d->f_socket = -1;
}

/* DA_ATOMIC_REPLY: the far atomic, performed on the home's copy (nobody else holds the line
 * now), and its old value to the requester. */
static void home_atomic_reply(MemSys *ms, DirEntry *d, Cycle llc)
{
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
    gint32 ri = msg_send(ms, MSG_ATOMIC_REPLY, HOME, (gint)core, (gint)core, d->line,
                         proc + route_core_home(ms, (gint)core, d->line));
    Msg *rm = msg_at(ms, ri);
    rm->acc = ai;
    bytes_put(rm->data, 8, old);
    ms->stats.far_atomics++;
    d->atomic_acc = NIL;
}

/* A request that starts a transaction: the home remembers whom it serves (and a far atomic's
 * access, which the reply needs even when no transaction follows). */
static void home_note_request(DirEntry *d, MsgType type, gint req, gint32 acc, gboolean busy_next)
{
    if (is_request(type) && busy_next)
        d->req = req;
    if (type == MSG_FAR_ATOMIC)
        d->atomic_acc = acc;
}

/* ======================================================================================
 * A row
 * ====================================================================================== */

/* Runs the directory row for message mi (a request being processed, or a response): its
 * actions in the order below, each a function above.  Every send may move the message pool:
 * what is needed of mi is read before the first send, and its data through a pointer taken
 * again after the sends. */
void home_apply(MemSys *ms, DirEntry *d, gint32 mi)
{
    const Msg *m = msg_at(ms, mi);
    const MsgType mtype = m->type;
    const gint32 macc = m->acc;
    const CohRow *row = dir_row_fire(ms, d->state, dir_classify(d, m));
    const guint32 a = row->actions;
    const guint rules = row->rules;
    const Cycle llc = (Cycle)ms->cfg->llc.latency;
    HomeSends h = { .req = is_request(mtype) ? m->src : d->req };
    h.target = (a & DA_FWD_TO_HOME) ? HOME : h.req;
    if (ms->trace)
        trace_row_begin(ms, HOME, d->line, row, TRUE, NIL, mi);
    g_assert(!(a & DA_STALL)); /* the caller queues */
    if (home_broadcasts(ms, d, a, h.target))
        h.not_before = engine_now(ms->e) + llc + broadcast_bound(ms, h.target, d->line);
    if (a & DA_INV_SHARERS)
        home_inv_sharers(ms, d, &h, llc);
    if (a & (DA_DATA_TO_REQ | DA_DATA_E_TO_REQ))
        home_data_to_req(ms, d, &h, (a & DA_DATA_E_TO_REQ) != 0, rules, llc);
    if (a & DA_ACKCOUNT_TO_REQ)
        home_ackcount_to_req(ms, d, &h, llc);
    if (a & (DA_FWD_GETS | DA_FWD_GETM))
        home_forward(ms, d, &h, (a & DA_FWD_GETS) ? MSG_FWD_GETS : MSG_FWD_GETM, llc);
    if (rules & DR_STALE_LLC)
        d->llc_valid = 0;
    home_update_holders(ms, d, a, h.req);
    if (a & DA_WRITE_MEM)
        home_write_mem(ms, d, msg_at(ms, mi) /* the sends above may have moved the pool */, rules);
    home_f_update(ms, d, rules, h.req);
    if (a & DA_PUT_ACK)
        msg_send(ms, MSG_PUT_ACK, HOME, h.req, h.req, d->line, route_core_home(ms, h.req, d->line));
    if (a & DA_SAVE_ACKS)
        d->acks = h.ninv;
    if (a & DA_DEC_ACK)
        d->acks--;
    home_note_request(d, mtype, h.req, macc, !coh_dir_state_stable(row->next));
    if (a & DA_ATOMIC_REPLY)
        home_atomic_reply(ms, d, llc);
    if (ms->trace)
        trace_row_end(ms, d);
    gboolean was_busy = !coh_dir_state_stable(d->state);
    d->state = row->next;
    if (ms->check)
        invariant_check_line(ms, d->line);
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

void memsys_override_dir_rules(MemSys *ms, CohDirState s, CohDirEvent e, guint rules)
{
    gint16 i = ms->dir_lut[s][e];
    g_assert(i >= 0);
    ms->dir_rows[i].rules = (guint8)rules;
}

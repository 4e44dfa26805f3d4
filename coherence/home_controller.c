/* The home controller: the directory table of the protocol (coherence/mesi.c, moesi.c, msi.c)
 * applied at a line's home socket.  A message is classified into an event (dir_classify), the
 * row's actions -- one function each, run in the order the row lists them -- send data,
 * forwards, invalidations and acks with the latencies of memsys.h, its home rules (the table's
 * last column, and MESIF's: coherence/mesif.c) keep the LLCs' and MESIF's state, and a request
 * for a busy line joins the line's FIFO (directory.c) until the line is stable.  Nothing here asks which protocol runs: the row says what to do. */
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
 * The actions of a directory row (DA_*), one function each, and its home rules (DR_*)
 * ====================================================================================== */

/* One directory row being run: what its actions share -- who they serve, and the acks and the
 * earliest completion the invalidations set.  The message that caused it is read through
 * home_row_cause() alone, never kept: any send may move the message pool (msg_at). */
typedef struct {
    MemSys *ms;
    DirEntry *d;
    const CohRow *row;  /* the directory's row, with this run's home rules */
    gint32 mi;          /* the message that caused the row */
    gint req;           /* the requester the row serves */
    gint target;        /* who the forwards and invalidations answer: req, or HOME (DA_FWD_TO_HOME) */
    gint ninv;          /* invalidations sent: the acks the target waits for */
    Cycle not_before;   /* a broadcast's farthest answer: the data may not complete earlier */
    Cycle llc;          /* the home's lookup: llc.latency */
} HomeRowRun;
typedef void (*HomeAction)(HomeRowRun *h);
static const Msg *home_row_cause(const HomeRowRun *h) { return msg_at(h->ms, h->mi); }

/* DA_INV_SHARERS: an Inv to every sharer but the target. */
static void a_inv_sharers(HomeRowRun *h)
{
    MemSys *ms = h->ms;
    DirEntry *d = h->d;
    for (guint x = 0; x < ms->ncores; x++)
        if (is_sharer(d, (gint)x) && (gint)x != h->target) {
            msg_send(ms, MSG_INV, HOME, (gint)x, h->target, d, h->llc + route_core_home(ms, (gint)x, d));
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
static void send_data_to_requestor(HomeRowRun *h, gboolean excl)
{
    MemSys *ms = h->ms;
    DirEntry *d = h->d;
    gint req = h->req;
    uint64_t line = d->line;
    guint rs = ms->cores[req].socket;
    gboolean from_llc = (d->llc_valid >> rs) & 1;
    gint f = from_llc || !(h->row->rules & DR_F_FORWARD) ? -1 : mesif_forwarder(d);
    MsgType type = MSG_DATA_MEM;
    MemSource src = MEM_SRC_MEMORY;
    Cycle delay = (Cycle)ms->cfg->memory.latency + route_core_home(ms, req, d);
    if (from_llc) {
        type = MSG_DATA_LLC;
        src = MEM_SRC_LLC;
        delay = h->llc + route_core_home(ms, req, d);
        ms->stats.llc_hits++;
    } else if (f >= 0) {
        type = MSG_DATA_LLC;
        src = MEM_SRC_REMOTE_LLC;
        delay = h->llc + memsys_socket_cycles(ms, (guint)d->home, (guint)f) + h->llc +
                route_socket_core(ms, (guint)f, req, line);
        ms->stats.f_forwards++;
    } else {
        ms->stats.llc_misses++;
        ms->stats.mem_reads++;
    }
    gint32 di = msg_send(ms, type, HOME, req, req, d, delay);
    Msg *dm = msg_at(ms, di);
    dm->has_data = TRUE;
    dm->excl = excl;
    dm->acks = h->ninv;
    dm->not_before = h->not_before;
    dm->source = src;
    memcpy(dm->data, d->mem, ms->line_size);
    d->llc_valid |= 1ull << rs;
}
static void a_send_data_to_requestor(HomeRowRun *h) { send_data_to_requestor(h, FALSE); }
static void a_send_exclusive_data_to_requestor(HomeRowRun *h) { send_data_to_requestor(h, TRUE); }

/* DA_ACKCOUNT_TO_REQ: the upgrade's grant, no data. */
static void a_send_ack_count_to_requestor(HomeRowRun *h)
{
    MemSys *ms = h->ms;
    gint32 di = msg_send(ms, MSG_ACK_COUNT, HOME, h->req, h->req, h->d,
                         h->llc + route_core_home(ms, h->req, h->d));
    Msg *dm = msg_at(ms, di);
    dm->acks = h->ninv;
    dm->not_before = h->not_before;
    dm->source = MEM_SRC_LLC; /* the requester had the data: only permission travels */
}

/* DA_FWD_GETS, DA_FWD_GETM: the request to the owner, which answers the target. */
static void forward_to_owner(HomeRowRun *h, MsgType type)
{
    DirEntry *d = h->d;
    g_assert(d->owner >= 0);
    gint32 fi = msg_send(h->ms, type, HOME, d->owner, h->target, d,
                         h->llc + route_core_home(h->ms, d->owner, d));
    Msg *fm = msg_at(h->ms, fi);
    fm->acks = h->ninv;
    fm->not_before = h->not_before;
}
static void a_forward_gets_to_owner(HomeRowRun *h) { forward_to_owner(h, MSG_FWD_GETS); }
static void a_forward_getm_to_owner(HomeRowRun *h) { forward_to_owner(h, MSG_FWD_GETM); }

/* DA_OWNER_TO_SHARER, DA_CLEAR_SHARERS, DA_CLEAR_OWNER, DA_ADD_REQ, DA_REMOVE_REQ,
 * DA_SET_OWNER_REQ: the directory's list of holders. */
static void a_owner_becomes_sharer(HomeRowRun *h)
{
    sharer_add(h->d, h->d->owner);
    h->d->owner = -1;
}
static void a_clear_sharers(HomeRowRun *h)
{
    memset(h->d->sharers, 0, h->ms->sharer_words * sizeof(guint64));
    h->d->nsharers = 0;
}
static void a_clear_owner(HomeRowRun *h) { h->d->owner = -1; }
static void a_add_requestor_to_sharers(HomeRowRun *h) { sharer_add(h->d, h->req); }
static void a_remove_requestor_from_sharers(HomeRowRun *h) { sharer_remove(h->d, h->req); }
static void a_requestor_becomes_owner(HomeRowRun *h) { h->d->owner = h->req; }

/* DA_WRITE_MEM: the message's data, if it carries any, to memory; the writer's LLC holds it,
 * and on a DR_LLC_TO_READER row (an owner's copy-back after a Fwd-GetS) the reader's too. */
static void a_write_memory(HomeRowRun *h)
{
    MemSys *ms = h->ms;
    DirEntry *d = h->d;
    const Msg *m = home_row_cause(h);
    if (!m->has_data)
        return;
    memcpy(d->mem, m->data, ms->line_size);
    mem_written(ms, d, m->src);
    if ((h->row->rules & DR_LLC_TO_READER) && d->req >= 0)
        d->llc_valid |= 1ull << ms->cores[d->req].socket;
}

/* DA_PUT_ACK */
static void a_send_put_ack(HomeRowRun *h)
{
    msg_send(h->ms, MSG_PUT_ACK, HOME, h->req, h->req, h->d, route_core_home(h->ms, h->req, h->d));
}

/* DA_SAVE_ACKS, DA_DEC_ACK: a far atomic's acks, expected and counted in. */
static void a_save_acks(HomeRowRun *h) { h->d->acks = h->ninv; }
static void a_count_ack(HomeRowRun *h) { h->d->acks--; }

/* DA_ATOMIC_REPLY: the far atomic, performed on the home's copy (nobody else holds the line
 * now), and its old value to the requester. */
static void a_atomic_reply(HomeRowRun *h)
{
    MemSys *ms = h->ms;
    DirEntry *d = h->d;
    Cycle llc = h->llc;
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
    gint32 ri = msg_send(ms, MSG_ATOMIC_REPLY, HOME, (gint)core, (gint)core, d,
                         proc + route_core_home(ms, (gint)core, d));
    Msg *rm = msg_at(ms, ri);
    rm->acc = ai;
    bytes_put(rm->data, 8, old);
    ms->stats.far_atomics++;
    d->atomic_acc = NIL;
}

/* The actions of a directory table, by DA_* bit. */
static const HomeAction home_actions[DA_ACTION_BITS] = {
    /* DA_STALL: the caller queues; DA_FWD_TO_HOME: who the sends answer, set before any runs */
    [CA_BIT(DA_DATA_TO_REQ)] = a_send_data_to_requestor,
    [CA_BIT(DA_DATA_E_TO_REQ)] = a_send_exclusive_data_to_requestor,
    [CA_BIT(DA_ACKCOUNT_TO_REQ)] = a_send_ack_count_to_requestor,
    [CA_BIT(DA_FWD_GETS)] = a_forward_gets_to_owner,
    [CA_BIT(DA_FWD_GETM)] = a_forward_getm_to_owner,
    [CA_BIT(DA_INV_SHARERS)] = a_inv_sharers,
    [CA_BIT(DA_ADD_REQ)] = a_add_requestor_to_sharers,
    [CA_BIT(DA_OWNER_TO_SHARER)] = a_owner_becomes_sharer,
    [CA_BIT(DA_SET_OWNER_REQ)] = a_requestor_becomes_owner,
    [CA_BIT(DA_CLEAR_OWNER)] = a_clear_owner,
    [CA_BIT(DA_CLEAR_SHARERS)] = a_clear_sharers,
    [CA_BIT(DA_REMOVE_REQ)] = a_remove_requestor_from_sharers,
    [CA_BIT(DA_WRITE_MEM)] = a_write_memory,
    [CA_BIT(DA_PUT_ACK)] = a_send_put_ack,
    [CA_BIT(DA_SAVE_ACKS)] = a_save_acks,
    [CA_BIT(DA_DEC_ACK)] = a_count_ack,
    [CA_BIT(DA_ATOMIC_REPLY)] = a_atomic_reply,
};

/* The home rules, after the row's actions: DR_STALE_LLC (a writer is coming: no LLC holds the
 * current data), then MESIF's DR_F_TO_READER, DR_F_DROP (the F copy goes to the newest
 * reader's socket, and ends when, after the row, no LLC holds the current data). */
static void home_rules_apply(HomeRowRun *h)
{
    guint rules = h->row->rules;
    DirEntry *d = h->d;
    if (rules & DR_STALE_LLC)
        d->llc_valid = 0;
    if (rules & DR_F_TO_READER)
        d->f_socket = (gint8)h->ms->cores[h->req].socket;
    else if ((rules & DR_F_DROP) && !d->llc_valid)
        d->f_socket = -1;
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

/* Runs the directory row for message mi (a request being processed, or a response): the home
 * notes the request, its actions run in the row's order, each a function above, then its home
 * rules, and the line takes the row's next state. */
void home_apply(MemSys *ms, DirEntry *d, gint32 mi)
{
    const Msg *m = msg_at(ms, mi);
    const CohRow *row = dir_row_fire(ms, d->state, dir_classify(d, m));
    HomeRowRun h = { .ms = ms, .d = d, .row = row, .mi = mi, .llc = (Cycle)ms->cfg->llc.latency };
    h.req = is_request(m->type) ? m->src : d->req;
    h.target = (row->actions & DA_FWD_TO_HOME) ? HOME : h.req;
    if (ms->trace)
        trace_row_begin(ms, HOME, d->line, row, TRUE, NIL, mi);
    g_assert(!(row->actions & DA_STALL)); /* the caller queues */
    home_note_request(d, m->type, h.req, m->acc, !coh_dir_state_stable(row->next));
    if (home_broadcasts(ms, d, row->actions, h.target))
        h.not_before = engine_now(ms->e) + h.llc + broadcast_bound(ms, h.target, d);
    for (guint k = 0; k < row->n_run; k++) {
        HomeAction act = home_actions[CA_BIT(row->run[k])];
        if (act)
            act(&h);
    }
    home_rules_apply(&h);
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

guint memsys_dir_rules(const MemSys *ms, CohDirState s, CohDirEvent e)
{
    gint16 i = ms->dir_lut[s][e];
    g_assert(i >= 0);
    return ms->dir_rows[i].rules;
}

/* The cache controller: where a core's accesses enter (the port: memsys_issue, with L1 and L2
 * hits answered from the tags), the cache table of the protocol (coherence/mesi.c, moesi.c)
 * applied to a private line for an access or a message, and the access performed on the
 * line's bytes.  Receiving a message only classifies it into an event; the table row decides
 * what happens.  Accesses that must wait queue on the line and retry in order. */
#include "coherence/memsys_internal.h"

/* ======================================================================================
 * Performing accesses
 * ====================================================================================== */

/* A hardware thread's store or atomic wrote the core's L1: its siblings' loads of the line may
 * have read it too early (cores/core_rollback.c), as a remote store's invalidation would say. */
static void sibling_store_seen(CoreCaches *c, guint writer, uint64_t line)
{
    for (guint t = 0; t < c->nthr; t++)
        if (t != writer && c->thr[t].client.line_lost)
            c->thr[t].client.line_lost(c->thr[t].obj, line, LINE_SIBLING_STORE);
}

/* Performs access `ai` on the bytes `data` (a cached line or memory) and calls `done`. */
void access_perform(MemSys *ms, gint32 ai, guint8 *data)
{
    Access a = *acc_at(ms, ai);
    uint64_t line = a.dir->line;
    acc_release(ms, ai);
    guint off = (guint)(a.req.addr & (ms->line_size - 1));
    uint64_t old = bytes_get(data + off, a.req.size);
    DirEntry *d = a.dir; /* the golden copy, read only when checking or writing */
    if (ms->check || a.req.kind != MEM_LOAD) {
        uint64_t gold = bytes_get(d->golden + off, a.req.size);
        if (old != gold)
            invariant_violation(ms, "core %u read 0x%" G_GINT64_MODIFIER "x at 0x%" G_GINT64_MODIFIER
                      "x, the last store wrote 0x%" G_GINT64_MODIFIER "x", a.core, old, a.req.addr, gold);
    }
    if (a.req.kind == MEM_STORE || a.req.kind == MEM_RMW) {
        uint64_t nv = a.req.kind == MEM_STORE ? a.req.value & size_mask(a.req.size) : rmw_apply(&a.req, old);
        bytes_put(data + off, a.req.size, nv);
        bytes_put(d->golden + off, a.req.size, nv);
    }
    const PortThread *t = access_thread(ms, &a);
    MemResponse r = { a.req.tag, old, a.src, a.issued, engine_now(ms->e) };
    if (t->client.done)
        t->client.done(t->obj, &r);
    if (a.req.kind != MEM_LOAD)
        sibling_store_seen(&ms->cores[a.core], a.thread, line);
}

/* ======================================================================================
 * The cache table
 * ====================================================================================== */

static const CohRow *cache_row(MemSys *ms, guint s, guint e)
{
    gint16 i = row_index(ms, FALSE, s, e);
    ms->stats.cache_rows_fired[i]++;
    return &ms->cache_rows[i];
}

void wait_push(MemSys *ms, PrivLine *pl, gint32 ai)
{
    acc_at(ms, ai)->next = NIL;
    if (pl->wait_tail == NIL)
        pl->wait_head = ai;
    else
        acc_at(ms, pl->wait_tail)->next = ai;
    pl->wait_tail = ai;
}

static void send_put(MemSys *ms, CoreCaches *c, PrivLine *pl, MsgType t, gboolean data)
{
    gint32 i = msg_send(ms, t, (gint)c->id, HOME, (gint)c->id, pl->dir, route_core_home(ms, (gint)c->id, pl->dir));
    if (data) {
        Msg *m = msg_at(ms, i);
        m->has_data = TRUE;
        memcpy(m->data, pl->data, ms->line_size);
    }
}

gboolean cache_row_begin(MemSys *ms, CoreCaches *c, DirEntry *d, PrivLine **pl, const CohRow *row,
                         gint32 mi, gint32 ai, Cycle bus_wait)
{
    if (ms->trace) {
        trace_row_begin(ms, (gint)c->id, d->line, row, FALSE, ai, mi);
        ms->tape.row.bus_wait = bus_wait;
    }
    if (row->actions & CA_STALL) {
        g_assert(*pl && ai != NIL);
        wait_push(ms, *pl, ai);
        if (ms->trace)
            trace_row_end(ms, NULL);
        return FALSE;
    }
    if (!*pl && row->next != CS_I)
        *pl = pl_new(ms, c, d);
    if (row->actions & CA_HIT) {
        (*pl)->state = row->next;
        access_perform(ms, ai, (*pl)->data);
    }
    return TRUE;
}

void cache_request_start(MemSys *ms, PrivLine *pl, gint32 ai, gboolean rfo)
{
    if (rfo) {
        ms->stats.rfos++;
        pl->dir->st.rfos++;
        access_counted(ms, ai, MEM_COUNT_RFO);
    }
    pl->data_in = FALSE;
    pl->acks = 0;
}

void cache_c2c_counted(MemSys *ms, DirEntry *d)
{
    ms->stats.c2c_transfers++;
    d->st.c2c_transfers++;
}

/* The end of a cache row, after its actions and its next state (directory or bus alike): a freed
 * line goes, a line that became stable is placed in the private caches, the trace row closes and
 * the invariants are checked. */
void cache_row_end(MemSys *ms, CoreCaches *c, PrivLine *pl, uint64_t line, guint32 actions)
{
    if (actions & CA_FREE) {
        pl_release(ms, c, pl);
        pl = NULL;
    }
    if (pl && pl->state != CS_I && coh_cache_state_stable(pl->state) && !pl->in_l1 && !pl->in_l2)
        private_fill(ms, c, pl);
    if (ms->trace)
        trace_row_end(ms, NULL);
    if (ms->check)
        invariant_check_line(ms, line);
}

void cache_row_run(CacheRowRun *x, const CacheAction actions[])
{
    for (guint k = 0; k < x->row->n_run; k++) {
        CacheAction act = actions[CA_BIT(x->row->run[k])];
        if (act)
            act(x);
    }
    if (x->pl)
        x->pl->state = x->row->next;
}

/* ======================================================================================
 * The actions of a cache row (CA_*), one function each
 * ====================================================================================== */

/* CA_SEND_GETS, CA_SEND_GETM, CA_SEND_UPGRADE: the request to the home; the access that needed
 * it waits on the line. */
static void send_request(CacheRowRun *x, MsgType t)
{
    gint me = (gint)x->c->id;
    cache_request_start(x->ms, x->pl, x->ai, t != MSG_GETS);
    msg_send(x->ms, t, me, HOME, me, x->d, route_core_home(x->ms, me, x->d));
    if (x->ai != NIL)
        wait_push(x->ms, x->pl, x->ai);
}
static void a_send_gets(CacheRowRun *x) { send_request(x, MSG_GETS); }
static void a_send_getm(CacheRowRun *x) { send_request(x, MSG_GETM); }
static void a_send_upgrade(CacheRowRun *x) { send_request(x, MSG_UPGRADE); }

/* CA_SEND_PUTS, CA_SEND_PUTE, CA_SEND_PUTM, CA_SEND_PUTO: the line leaves; a dirty one's Put
 * carries its data. */
static void a_send_puts(CacheRowRun *x) { send_put(x->ms, x->c, x->pl, MSG_PUTS, FALSE); }
static void a_send_pute(CacheRowRun *x) { send_put(x->ms, x->c, x->pl, MSG_PUTE, FALSE); }
static void a_send_putm(CacheRowRun *x) { send_put(x->ms, x->c, x->pl, MSG_PUTM, TRUE); }
static void a_send_puto(CacheRowRun *x) { send_put(x->ms, x->c, x->pl, MSG_PUTO, TRUE); }

/* Every answer to a snoop leaves once the private caches have looked the line up; dirty data
 * must also be read out of them (memsys.h).  With topology.snoop_acts lookup the snoop only
 * acts after that lookup (cache_receive waits for it), so its answer leaves at once. */
static Cycle snoop_answer_cycles(const MemSys *ms)
{
    return ms->cfg->topology.snoop_acts == SNOOP_ACTS_LOOKUP ? 0 : (Cycle)ms->cfg->topology.snoop_response_cycles;
}

/* CA_DATA_TO_REQ: the data to the forwarded request's requester, cache to cache, with the ack
 * count and the earliest completion the home gave the forward. */
static void a_send_data_to_requestor(CacheRowRun *x)
{
    MemSys *ms = x->ms;
    gint me = (gint)x->c->id, req = cache_row_cause(x)->req;
    Cycle delay = snoop_answer_cycles(ms) +
                  (coh_cache_state_dirty(x->state) ? (Cycle)ms->cfg->topology.snoop_data_cycles : 0) +
                  route_core_core(ms, me, req, x->d);
    Msg *dm = msg_at(ms, msg_send(ms, MSG_DATA_C2C, me, req, req, x->d, delay));
    const Msg *m = cache_row_cause(x);
    dm->has_data = TRUE;
    dm->acks = m->acks;
    dm->not_before = m->not_before;
    dm->source = (req != HOME && ms->cores[req].socket == x->c->socket) ? MEM_SRC_PEER_SAME_SOCKET
                                                                          : MEM_SRC_PEER_REMOTE_SOCKET;
    memcpy(dm->data, x->pl->data, ms->line_size);
    cache_c2c_counted(ms, x->d);
}

/* CA_COPYBACK: a copy of the data to the home, which writes memory. */
static void a_send_copyback(CacheRowRun *x)
{
    MemSys *ms = x->ms;
    gint me = (gint)x->c->id;
    Msg *dm = msg_at(ms, msg_send(ms, MSG_COPYBACK, me, HOME, cache_row_cause(x)->req, x->d,
                                  snoop_answer_cycles(ms) + route_core_home(ms, me, x->d)));
    dm->has_data = TRUE;
    memcpy(dm->data, x->pl->data, ms->line_size);
}

/* CA_ACK_TO_REQ: the invalidation's ack to the writer. */
static void a_send_inv_ack_to_requestor(CacheRowRun *x)
{
    gint me = (gint)x->c->id, req = cache_row_cause(x)->req;
    msg_send(x->ms, MSG_INV_ACK, me, req, req, x->d,
             snoop_answer_cycles(x->ms) + route_core_core(x->ms, me, req, x->d));
}

/* CA_SAVE_DATA: the data (an upgrade's grant has none) and the acks still to come. */
static void a_save_data(CacheRowRun *x)
{
    const Msg *m = cache_row_cause(x);
    if (m->has_data)
        memcpy(x->pl->data, m->data, x->ms->line_size);
    x->pl->acks += m->acks;
    x->pl->data_in = TRUE;
    x->pl->src = m->source;
}

/* CA_DEC_ACK */
static void a_count_ack(CacheRowRun *x) { x->pl->acks--; }

/* CA_UNBLOCK: the transaction is complete; the home serves the line's next request. */
static void a_send_unblock(CacheRowRun *x)
{
    gint me = (gint)x->c->id;
    msg_send(x->ms, MSG_UNBLOCK, me, HOME, me, x->d, route_core_home(x->ms, me, x->d));
}

static void tell_lost(CacheRowRun *x, LineLossCause why)
{
    if (x->pl->in_l1)
        core_tell_lost_line(x->c, x->d->line, why);
}
void a_tell_core_invalidated(CacheRowRun *x) { tell_lost(x, LINE_INVALIDATED); }
void a_tell_core_lost_write(CacheRowRun *x) { tell_lost(x, LINE_DOWNGRADED); }

void a_leave_arrays(CacheRowRun *x) { private_leave(x->ms, x->c, x->pl); }

void a_take_waiters(CacheRowRun *x)
{
    x->waiters = x->pl->wait_head;
    x->pl->wait_head = x->pl->wait_tail = NIL;
}

/* A directory protocol's cache table, by CA_* bit (the bus-only actions are refused by
 * coh_protocol_check). */
static const CacheAction directory_cache_actions[CA_ACTION_BITS] = {
    /* CA_STALL, CA_HIT: cache_row_begin */
    [CA_BIT(CA_SEND_GETS)] = a_send_gets,
    [CA_BIT(CA_SEND_GETM)] = a_send_getm,
    [CA_BIT(CA_SEND_UPGRADE)] = a_send_upgrade,
    [CA_BIT(CA_SEND_PUTS)] = a_send_puts,
    [CA_BIT(CA_SEND_PUTE)] = a_send_pute,
    [CA_BIT(CA_SEND_PUTM)] = a_send_putm,
    [CA_BIT(CA_SEND_PUTO)] = a_send_puto,
    [CA_BIT(CA_DATA_TO_REQ)] = a_send_data_to_requestor,
    [CA_BIT(CA_COPYBACK)] = a_send_copyback,
    [CA_BIT(CA_ACK_TO_REQ)] = a_send_inv_ack_to_requestor,
    [CA_BIT(CA_SAVE_DATA)] = a_save_data,
    [CA_BIT(CA_DEC_ACK)] = a_count_ack,
    [CA_BIT(CA_UNBLOCK)] = a_send_unblock,
    [CA_BIT(CA_WAKE)] = a_take_waiters,
    [CA_BIT(CA_LOST_INV)] = a_tell_core_invalidated,
    [CA_BIT(CA_LOST_DOWN)] = a_tell_core_lost_write,
    [CA_BIT(CA_LEAVE)] = a_leave_arrays,
    [CA_BIT(CA_FREE)] = a_leave_arrays, /* cache_row_end frees the record */
};

/* ======================================================================================
 * A row
 * ====================================================================================== */

void apply_cache_event(MemSys *ms, CoreCaches *c, DirEntry *d, PrivLine *pl, CohCacheEvent ev,
                       gint32 mi, gint32 ai)
{
    if (ms->bus) { /* a snooping cache runs its table on the bus */
        bus_cache_event(ms, c, d, pl, ev, mi, ai);
        return;
    }
    uint64_t line = d->line;
    guint state = pl ? pl->state : CS_I;
    const CohRow *row = cache_row(ms, state, ev);
    if (!cache_row_begin(ms, c, d, &pl, row, mi, ai, 0))
        return;
    CacheRowRun x = { .ms = ms, .c = c, .pl = pl, .d = d, .row = row, .state = state, .mi = mi,
                      .ai = ai, .waiters = NIL };
    cache_row_run(&x, directory_cache_actions);
    if (row->actions & CA_FREE)
        g_assert(row->next == CS_I);
    cache_row_end(ms, c, pl, line, row->actions);
    /* Waiting accesses retry in order; once one has to wait again, the rest queue behind it. */
    gint32 waiters = x.waiters;
    while (waiters != NIL) {
        gint32 next = acc_at(ms, waiters)->next;
        if (!access_attempt(ms, waiters) && !acc_at(ms, waiters)->deferred) {
            PrivLine *p2 = dir_holder(d, c->id);
            while (next != NIL) {
                gint32 n2 = acc_at(ms, next)->next;
                wait_push(ms, p2, next);
                next = n2;
            }
        }
        waiters = next;
    }
}

/* A locked RMW holds its line against the core's other hardware thread as it holds it against
 * snoops (port.h, hold_cycles): the sibling's access to it waits until the hold ends, then
 * tries again (counted in sibling_hold_wait_cycles).  TRUE: it waits (a->deferred; it is on no
 * line's queue, so the accesses queued behind it on the line go on without it). */
static gboolean sibling_held(MemSys *ms, const PrivLine *pl, Access *a, gint32 ai)
{
    Cycle now = engine_now(ms->e);
    a->deferred = pl && pl->held_until > now && pl->held_by != a->thread;
    if (!a->deferred)
        return FALSE;
    ms->cores[a->core].ff_epoch++; /* not a hit in its time: no steady loop for fast-forward */
    ms->stats.sibling_hold_wait_cycles += pl->held_until - now;
    engine_schedule_class(ms->e, pl->held_until, EV_HIT, access_cpu(ms, a), hit_event, ms,
                          (uint64_t)ai);
    return TRUE;
}

/* Tries access ai against its line now; TRUE if it was performed. */
gboolean access_attempt(MemSys *ms, gint32 ai)
{
    Access *a = acc_at(ms, ai);
    CoreCaches *c = &ms->cores[a->core];
    DirEntry *d = a->dir;
    PrivLine *pl = dir_holder(d, c->id);
    if (G_UNLIKELY(c->nthr > 1) && sibling_held(ms, pl, a, ai))
        return FALSE;
    CohCacheEvent ev = a->req.kind == MEM_LOAD ? CE_LOAD : CE_STORE;
    guint state = pl ? pl->state : CS_I;
    gint16 ri = ms->cache_lut[state][ev];
    gboolean hit = ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT);
    if (!hit)
        a->missed = TRUE;
    else if (a->missed)
        a->src = pl->src; /* served by the fill it waited for */
    if (hit && a->fast && coh_cache_state_stable(state))
        c->ff_done[state]++;
    else
        c->ff_epoch++;
    if (a->fast) {
        /* No longer in flight: nearly always the oldest (hits complete in issue order). */
        GArray *p = c->ff_pending;
        for (guint i = 0; i < p->len; i++)
            if (g_array_index(p, gint32, i) == ai) {
                g_array_remove_index(p, i);
                break;
            }
    }
    MemKind kind = a->req.kind;
    uint32_t hold = a->req.hold_cycles;
    guint8 thread = a->thread;
    apply_cache_event(ms, c, d, pl, ev, NIL, ai);
    if (hit && kind == MEM_RMW && hold) {
        /* The line is held for one locked op at a time: a snoop already waiting gets it when
         * the current hold ends, else a core spinning on locked ops would keep it forever. */
        pl = dir_holder(d, c->id);
        if (!pl->snoop_waiting) {
            pl->held_until = engine_now(ms->e) + hold;
            pl->held_by = thread;
        }
    }
    return hit;
}

/* A cache receives message mi. */
gboolean cache_receive(MemSys *ms, CoreCaches *c, gint32 mi)
{
    core_disturb(c);
    Msg *m = msg_at(ms, mi);
    DirEntry *d = m->dir;
    PrivLine *pl = dir_holder(d, c->id);
    Cycle now = engine_now(ms->e);
    CohCacheEvent ev;
    switch (m->type) {
    case MSG_FWD_GETS: ev = CE_FWD_GETS; break;
    case MSG_FWD_GETM: ev = CE_FWD_GETM; break;
    case MSG_INV: ev = CE_INV; break;
    case MSG_PUT_ACK: ev = CE_PUT_ACK; break;
    case MSG_INV_ACK:
        ev = (pl && pl->data_in && pl->acks == 1) ? CE_LAST_INV_ACK : CE_INV_ACK;
        break;
    case MSG_DATA_MEM: case MSG_DATA_LLC: case MSG_DATA_C2C: case MSG_ACK_COUNT:
        if (m->not_before > now) { /* the farthest socket's snoop answer is not in yet */
            engine_schedule_at(ms->e, m->not_before, msg_deliver, ms, (uint64_t)mi);
            return TRUE;
        }
        ev = m->excl ? CE_DATA_E : (pl && pl->acks + m->acks == 0) ? CE_DATA : CE_DATA_ACKS;
        break;
    case MSG_ATOMIC_REPLY: {
        /* far atomic: performed at the home; the value travels back here */
        Access *a = acc_at(ms, m->acc);
        MemResponse r = { a->req.tag, bytes_get(m->data, 8), MEM_SRC_HOME_ATOMIC,
                          a->issued, now };
        PortThread t = *access_thread(ms, a);
        acc_release(ms, m->acc);
        if (t.client.done)
            t.client.done(t.obj, &r);
        return FALSE;
    }
    default:
        g_error("coherence: a cache received %s", memsys_msg_name(m->type));
    }
    if (ev == CE_FWD_GETS || ev == CE_FWD_GETM || ev == CE_INV) {
        Cycle lookup = (Cycle)ms->cfg->topology.snoop_response_cycles;
        if (ms->cfg->topology.snoop_acts == SNOOP_ACTS_LOOKUP && !m->looked_up && lookup > 0) {
            /* The snoop acts, and a forward reads the owner's data, only once the private caches
             * have looked the line up: until then the line is the holder's as before, so a store
             * the owner performs meanwhile is in the data the forward carries, and a sharer's
             * copy stays readable. */
            m->looked_up = TRUE;
            engine_schedule_at(ms->e, now + lookup, msg_deliver, ms, (uint64_t)mi);
            return TRUE;
        }
        if (pl && pl->held_until > now) { /* a locked RMW keeps the line for hold_cycles */
            ms->stats.hold_wait_cycles += pl->held_until - now;
            m->held_since = m->held_since ? m->held_since : now;
            pl->snoop_waiting = TRUE;
            engine_schedule_at(ms->e, pl->held_until, msg_deliver, ms, (uint64_t)mi);
            return TRUE;
        }
        if (pl)
            pl->snoop_waiting = FALSE;
        if (ev != CE_FWD_GETS) {
            ms->stats.inval_received[c->id]++;
            d->st.invalidations++;
        }
    }
    apply_cache_event(ms, c, d, pl, ev, mi, NIL);
    return FALSE;
}

void memsys_override_cache_row(MemSys *ms, CohCacheState s, CohCacheEvent e, guint32 actions,
                               CohCacheState next)
{
    gint16 i = ms->cache_lut[s][e];
    g_assert(i >= 0);
    CohRow *r = &ms->cache_rows[i];
    r->actions = actions;
    r->n_run = 0;
    for (guint b = 0; b < CA_ACTION_BITS; b++)
        if (actions & (1u << b)) {
            g_assert(r->n_run < COH_ROW_MAX_ACTIONS);
            r->run[r->n_run++] = 1u << b;
        }
    r->next = next;
}

/* ======================================================================================
 * The port
 * ====================================================================================== */

/* A load or atomic that hits returns its data after the load-to-use latency; a store that hits
 * only writes the line, committing in l1.store_cycles (the L1 takes a store a cycle). */
static inline Cycle l1_hit_cycles(const MemSys *ms, const MemRequest *req)
{
    return (Cycle)(req->kind == MEM_STORE ? ms->cfg->l1.store_cycles : ms->cfg->l1.latency);
}

void hit_event(void *obj, uint64_t arg)
{
    MemSys *ms = obj;
    gint32 ai = (gint32)arg;
    if (G_UNLIKELY(acc_at(ms, ai)->cancelled)) {
        acc_release(ms, ai);
        return;
    }
    access_attempt(ms, ai);
}

/* Hits complete in their own class of events, one CPU's in issue order (engine.h). */
static inline void schedule_hit(MemSys *ms, guint cpu, Cycle delay, gint32 ai)
{
    engine_schedule_class(ms->e, engine_now(ms->e) + delay, EV_HIT, cpu, hit_event, ms, (uint64_t)ai);
}

void memsys_issue(MemSys *ms, guint cpu, const MemRequest *req)
{
    g_assert(cpu < ms->ncpus);
    guint core = cpu_core(ms, cpu);
    g_assert(ms->cores[core].l1.ways); /* memsys_attach first */
    g_assert(req->size == 1 || req->size == 2 || req->size == 4 || req->size == 8);
    g_assert((req->addr & (req->size - 1)) == 0);
    gint32 ai = acc_new(ms);
    Access *a = acc_at(ms, ai);
    a->req = *req;
    a->core = core;
    a->thread = (guint8)cpu_thread(ms, cpu);
    a->issued = engine_now(ms->e);
    a->src = MEM_SRC_L1;
    a->missed = FALSE;
    a->fast = FALSE;
    a->cancelled = FALSE;
    a->deferred = FALSE;
    a->dir = NULL; /* set below, once the path knows it */
    CoreCaches *c = &ms->cores[core];
    uint64_t line = line_of(ms, req->addr);
    if (req->kind != MEM_LOAD)
        c->ff_epoch++;
    CohCacheEvent ev = req->kind == MEM_LOAD ? CE_LOAD : CE_STORE;
    Way *w = req->kind == MEM_RMW && req->far ? NULL : tags_find(ms, &c->l1, line);
    if (w) {
        /* A line in the L1 came there by an access that went past here: it has its home. */
        gint16 ri = ms->cache_lut[w->pl->state][ev];
        if (ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT)) {
            w->lru = ++c->l1.clock;
            ms->stats.l1_hits++;
            a->dir = w->pl->dir;
            if (req->kind == MEM_LOAD) {
                a->fast = TRUE;
                a->done = a->issued + l1_hit_cycles(ms, req);
                c->ff_hits++;
                g_array_append_val(c->ff_pending, ai);
            }
            schedule_hit(ms, cpu, l1_hit_cycles(ms, req), ai);
            return;
        }
    }
    DirEntry *home = dir_get(ms, line);
    a->dir = home;
    if (home->home < 0)
        home->home = ms->cfg->memory.home == HOME_FIRST_TOUCH ? (gint)c->socket
                                                              : (gint)(line_index(ms, line) % ms->nsockets);
    if (req->kind == MEM_RMW && req->far) {
        gint32 mi = msg_send(ms, MSG_FAR_ATOMIC, (gint)core, HOME, (gint)core, home,
                             route_core_home(ms, (gint)core, home));
        msg_at(ms, mi)->acc = ai;
        a->src = MEM_SRC_HOME_ATOMIC;
        return;
    }
    c->ff_epoch++;
    ms->stats.l1_misses++;
    home->st.l1_misses++;
    access_counted(ms, ai, MEM_COUNT_L1_MISS);
    if (ms->cfg->l2_enabled) {
        Way *w2 = tags_find(ms, &c->l2, line);
        if (w2) {
            gint16 ri = ms->cache_lut[w2->pl->state][ev];
            if (ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT)) {
                w2->lru = ++c->l2.clock;
                ms->stats.l2_hits++;
                a->src = MEM_SRC_L2;
                private_fill(ms, c, w2->pl);
                schedule_hit(ms, cpu, (Cycle)ms->cfg->l2.latency, ai);
                return;
            }
        }
        ms->stats.l2_misses++;
    }
    /* A miss (or an upgrade).  A line with permission but in no array (the MSHR overflow
     * case) still answers at L1 speed, from an event as the contract wants. */
    PrivLine *pl = dir_holder(home, core);
    gint16 ri = ms->cache_lut[pl ? pl->state : CS_I][ev];
    if (ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT)) {
        schedule_hit(ms, cpu, l1_hit_cycles(ms, req), ai);
        return;
    }
    access_attempt(ms, ai);
}

gboolean memsys_l1_has(const MemSys *ms, guint cpu, uint64_t addr, gboolean need_write)
{
    const Way *w = tags_find(ms, &ms->cores[cpu_core(ms, cpu)].l1, line_of(ms, addr));
    if (!w)
        return FALSE;
    guint s = w->pl->state;
    if (need_write)
        return s == CS_M || s == CS_E;
    return coh_cache_state_readable(s);
}

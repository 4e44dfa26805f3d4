/* The trace hook (memsys_set_trace): every table row that fires is reported once its actions
 * are done, together with the messages it sent, so that a trace can say "S + Store -> SM_AD:
 * sends Upgrade to home" in one step.  Messages are reported with their fields as they left
 * (ack counts and data are filled in after msg_send, hence the wait until the row's end).
 *
 * The controllers call trace_row_begin where a row fires and trace_row_end where its actions
 * are done; msg_send calls trace_msg_sent.  Nothing here changes what the model does, and
 * with no hook set none of it runs. */
#include "coherence/memsys_internal.h"

void memsys_set_trace(MemSys *ms, MemTraceFn fn, void *user)
{
    ms->trace = fn;
    ms->trace_user = user;
    if (fn && !ms->tape.sent) {
        ms->tape.sent = g_array_new(FALSE, FALSE, sizeof(MemTapeSend));
        ms->tape.msgs = g_array_new(FALSE, FALSE, sizeof(MemTraceMsg));
        ms->tape.queued = g_array_new(FALSE, FALSE, sizeof(guint64));
    }
}

gboolean memsys_trace_row_open(const MemSys *ms) { return ms->tape.open; }

void trace_tape_clear(MemTraceTape *t)
{
    if (t->sent)
        g_array_free(t->sent, TRUE);
    if (t->msgs)
        g_array_free(t->msgs, TRUE);
    if (t->queued)
        g_array_free(t->queued, TRUE);
    memset(t, 0, sizeof *t);
}

static MemTraceMsg msg_view(MemSys *ms, gint32 mi, Cycle sent, Cycle arrives)
{
    const Msg *m = msg_at(ms, mi);
    return (MemTraceMsg){
        .id = m->trace_id, .type = m->type, .src = m->src, .dst = m->dst, .req = m->req,
        .line = m->line, .sent = sent, .arrives = arrives, .acks = m->acks,
        .data = m->has_data, .excl = m->excl,
    };
}

void trace_row_begin(MemSys *ms, gint core, uint64_t line, const CohRow *row, gboolean dir, gint32 ai, gint32 mi)
{
    MemTraceTape *t = &ms->tape;
    /* A row fired from inside another's actions (a core reacting synchronously): the outer
     * one is reported first, and what it sends afterwards goes out on its own. */
    if (t->open)
        trace_row_end(ms, NULL);
    const Access *a = ai != NIL ? acc_at(ms, ai) : NULL;
    const Msg *m = mi != NIL ? msg_at(ms, mi) : NULL;
    t->open = TRUE;
    t->row = (MemTraceRow){
        .cycle = engine_now(ms->e),
        .core = core,
        .dir = dir,
        .index = (guint)(row - (dir ? ms->dir_rows : ms->cache_rows)),
        .row = row,
        .line = line,
        .addr = a ? a->req.addr : line,
        .access = a ? (gint)a->req.kind : -1,
        .cause = m ? m->trace_id : 0,
        .cause_type = m ? (gint)m->type : -1,
        .cause_src = m ? m->src : -1,
        .cause_data = m && m->has_data,
        .held_since = m ? m->held_since : 0,
        .queued_since = m && dir ? m->enq : 0,
        .dir_owner = -1,
        .dir_req = -1,
    };
    g_array_set_size(t->sent, 0);
}

void trace_msg_sent(MemSys *ms, gint32 mi, Cycle delay)
{
    MemTraceTape *t = &ms->tape;
    msg_at(ms, mi)->trace_id = ++t->next_msg_id;
    Cycle now = engine_now(ms->e);
    if (t->open) {
        MemTapeSend s = { mi, now + delay };
        g_array_append_val(t->sent, s);
        return;
    }
    MemTraceMsg m = msg_view(ms, mi, now, now + delay);
    ms->trace(ms->trace_user, NULL, &m, 1);
}

/* What the line holds after the row: the row's cache's data (when valid), memory's, and the
 * requests queued at the home. */
static void row_contents(MemSys *ms, MemTraceRow *r, const DirEntry *d)
{
    MemTraceTape *t = &ms->tape;
    if (!d)
        d = dir_find(ms, r->line);
    const PrivLine *pl = r->core >= 0 && d ? dir_holder(d, (guint)r->core) : NULL;
    gboolean valid = pl && pl->state != CS_I && (coh_cache_state_stable(pl->state) || pl->data_in);
    r->line_size = ms->line_size;
    r->data = valid ? pl->data : NULL;
    r->mem = d ? d->mem : NULL;
    g_array_set_size(t->queued, 0);
    for (gint32 mi = d ? d->q_head : NIL; mi != NIL; mi = msg_at(ms, mi)->next)
        g_array_append_val(t->queued, msg_at(ms, mi)->trace_id);
    if (r->dir && (r->row->actions & DA_STALL) && r->cause)
        g_array_append_val(t->queued, r->cause); /* a stall row's request joins the FIFO after it */
    r->queued = (const guint64 *)t->queued->data;
    r->nqueued = t->queued->len;
}

void trace_row_end(MemSys *ms, const DirEntry *d)
{
    MemTraceTape *t = &ms->tape;
    if (!t->open)
        return;
    t->open = FALSE;
    if (d) {
        t->row.dir_owner = d->owner;
        t->row.dir_sharers = d->sharers[0];
        t->row.dir_req = coh_dir_state_stable(t->row.row->next) ? -1 : d->req;
    }
    row_contents(ms, &t->row, d);
    g_array_set_size(t->msgs, 0);
    for (guint i = 0; i < t->sent->len; i++) {
        const MemTapeSend *s = &g_array_index(t->sent, MemTapeSend, i);
        MemTraceMsg m = msg_view(ms, s->mi, t->row.cycle, s->arrives);
        g_array_append_val(t->msgs, m);
    }
    ms->trace(ms->trace_user, &t->row, (const MemTraceMsg *)t->msgs->data, t->msgs->len);
}

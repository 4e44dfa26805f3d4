/* Messages and accesses: the two pools (an Access lives from memsys_issue() until `done`, a
 * Msg while in flight or queued at a home), sending a message (counted, then delivered by an
 * engine event after its route's delay), and delivery to the home or cache controller.  Pool
 * slots are indices, never pointers, because a pool may move as it grows. */
#include "coherence/memsys_internal.h"

/* ======================================================================================
 * Pools
 * ====================================================================================== */

gint32 acc_new(MemSys *ms)
{
    if (ms->acc_free == NIL) {
        Access a = { 0 };
        a.next = NIL;
        g_array_append_val(ms->acc, a);
        return (gint32)ms->acc->len - 1;
    }
    gint32 i = ms->acc_free;
    ms->acc_free = g_array_index(ms->acc, Access, i).next;
    g_array_index(ms->acc, Access, i).next = NIL;
    return i;
}
void acc_release(MemSys *ms, gint32 i)
{
    acc_at(ms, i)->next = ms->acc_free;
    ms->acc_free = i;
}

static gint32 msg_new(MemSys *ms)
{
    if (ms->msg_free == NIL) {
        Msg m = { 0 };
        m.data = g_malloc0(ms->line_size);
        g_array_append_val(ms->msg, m);
        return (gint32)ms->msg->len - 1;
    }
    gint32 i = ms->msg_free;
    ms->msg_free = g_array_index(ms->msg, Msg, i).next;
    return i;
}
void msg_release(MemSys *ms, gint32 i)
{
    msg_at(ms, i)->next = ms->msg_free;
    ms->msg_free = i;
}

/* ======================================================================================
 * Sending and delivering
 * ====================================================================================== */

static const char *const msg_names[MSG__N] = {
    "GetS", "GetM", "Upgrade", "PutS", "PutE", "PutM", "PutO", "Fwd-GetS", "Fwd-GetM", "Inv",
    "Inv-Ack", "Put-Ack", "Data(mem)", "Data(LLC)", "Data(c2c)", "AckCount", "Unblock",
    "CopyBack", "FarAtomic", "AtomicReply",
};
const char *memsys_msg_name(MsgType t) { return t < MSG__N ? msg_names[t] : "?"; }

gint32 msg_send(MemSys *ms, MsgType type, gint src, gint dst, gint req, DirEntry *d, Cycle delay)
{
    gint32 i = msg_new(ms);
    Msg *m = msg_at(ms, i);
    m->type = type;
    m->has_data = m->excl = FALSE;
    m->source = MEM_SRC_MEMORY;
    m->src = src;
    m->dst = dst;
    m->req = req;
    m->line = d->line;
    m->dir = d;
    m->acks = 0;
    m->acc = NIL;
    m->not_before = 0;
    m->enq = m->held_since = 0;
    m->looked_up = FALSE;
    m->next = NIL;
    m->trace_id = 0;
    if (ms->trace)
        trace_msg_sent(ms, i, delay);
    ms->stats.msgs[type]++;
    d->st.msgs++;
    engine_schedule(ms->e, delay, msg_deliver, ms, (uint64_t)i);
    return i;
}

void msg_deliver(void *obj, uint64_t arg)
{
    MemSys *ms = obj;
    gint32 mi = (gint32)arg;
    Msg *m = msg_at(ms, mi);
    gboolean keep;
    if (ms->bus) /* on a bus every message is the bus's to deliver */
        keep = bus_deliver(ms, mi);
    else if (m->dst == HOME) {
        if (is_request(m->type)) {
            home_arrive(ms, mi);
            keep = TRUE;
        } else {
            home_apply(ms, m->dir, mi);
            keep = FALSE;
        }
    } else {
        keep = cache_receive(ms, &ms->cores[m->dst], mi);
    }
    if (!keep)
        msg_release(ms, mi);
}

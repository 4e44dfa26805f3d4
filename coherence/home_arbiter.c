/* Same-cycle arbitration at the home.  Requests for one line that reach its home in one cycle
 * tie: none came first.  The engine delivers a cycle's messages in the order they were sent,
 * and cores tick in core-id order (sim/base/engine.h), so serving them as delivered would give
 * the line to the lowest core every time -- a bias in every fairness figure.  So the home only
 * collects the requests a cycle brings, and serves them at the cycle's end, in its own engine
 * tick (ticker id ncpus: after every core's tick, so that a request sent this cycle over a
 * route of no delay -- a crossbar, a core at the slice's stop -- is in the batch too).
 *
 * The policy, rotating priority: a line's batch is served starting with the requester after
 * the core that came first in the last contested batch at the same home socket, counting core
 * ids cyclically (rotation_rank); a core's own requests keep their order, and a batch with one
 * requester leaves the rotation alone.  So cores that meet at a lock word take the first place
 * in turn.  Rotation rather than a seeded draw: the order is one a test, and a reader of a
 * trace, can predict, and it is the bus's (bus.c).  Lines are served in the order of their first
 * request of the cycle; a busy line's FIFO (directory.c) takes the batch in this order, behind
 * the requests of earlier cycles. */
#include "coherence/memsys_internal.h"

static void home_arbitrate(void *obj, uint64_t arg);

void home_arbiter_init(MemSys *ms)
{
    ms->arrivals = g_array_new(FALSE, FALSE, sizeof(gint32));
    ms->arriving = g_array_new(FALSE, FALSE, sizeof(gint32));
    ms->tie_first = g_new(gint, ms->nsockets);
    for (guint s = 0; s < ms->nsockets; s++)
        ms->tie_first[s] = -1; /* core 0 first */
    engine_ticker_set(ms->e, home_ticker(ms), home_arbitrate, ms);
}

void home_arbiter_clear(MemSys *ms)
{
    if (ms->arrivals)
        g_array_free(ms->arrivals, TRUE);
    if (ms->arriving)
        g_array_free(ms->arriving, TRUE);
    g_free(ms->tie_first);
}

void home_arrive(MemSys *ms, gint32 mi)
{
    if (!ms->arrivals->len)
        engine_tick_at(ms->e, home_ticker(ms), engine_now(ms->e));
    g_array_append_val(ms->arrivals, mi);
}

/* Takes d's line's requests out of batch v[from..n) (marking them NIL) into `out`, in the
 * rotating order; returns how many. */
static guint line_batch(MemSys *ms, DirEntry *d, gint32 *v, guint from, guint n, gint32 *out)
{
    guint k = 0;
    gboolean contested = FALSE;
    for (guint j = from; j < n; j++)
        if (v[j] != NIL && msg_at(ms, v[j])->line == d->line) {
            out[k++] = v[j];
            contested |= msg_at(ms, v[j])->src != msg_at(ms, out[0])->src;
            v[j] = NIL;
        }
    if (!contested)
        return k;
    gint *first = &ms->tie_first[dir_home_socket(ms, d)];
    /* Insertion sort by rank: stable, so a core's own requests keep their order. */
    for (guint i = 1; i < k; i++) {
        gint32 x = out[i];
        guint r = rotation_rank(msg_at(ms, x)->src, *first, ms->ncores);
        guint j = i;
        while (j > 0 && rotation_rank(msg_at(ms, out[j - 1])->src, *first, ms->ncores) > r) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = x;
    }
    *first = msg_at(ms, out[0])->src;
    return k;
}

/* The home's tick: every line's batch of this cycle, served in its order. */
static void home_arbitrate(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    MemSys *ms = obj;
    GArray *batch = ms->arrivals; /* serving sends, but nothing arrives until a later event */
    ms->arrivals = ms->arriving;
    ms->arriving = batch;
    gint32 *v = &g_array_index(batch, gint32, 0);
    gint32 *order = g_newa(gint32, batch->len);
    for (guint i = 0; i < batch->len; i++) {
        if (v[i] == NIL)
            continue;
        DirEntry *d = msg_at(ms, v[i])->dir;
        guint k = line_batch(ms, d, v, i, batch->len, order);
        for (guint j = 0; j < k; j++)
            if (!home_request(ms, d, order[j]))
                msg_release(ms, order[j]);
    }
    g_array_set_size(batch, 0);
}

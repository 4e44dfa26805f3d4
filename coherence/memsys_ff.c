/* What a fast-forwarding core needs from the memory system (port.h, PortFastForward).
 *
 * While a core sleeps in a steady loop its lines are frozen: only a message for it or an
 * eviction of its line could change them, and both call the core's catch_up first
 * (core_disturb).  So the loads it makes while it catches up are answered here from the
 * lines as they stand, with exactly the side effects of the hit path (memsys_issue's L1 hit,
 * then the hit event's access_attempt): the L1's LRU clock and the line's stamp, the hit
 * counter, the table row fired, the checks.  And k more periods of such hits are added in one
 * step: each counter by k times its growth over one period, each stamp given in that period by
 * k times the clock's growth. */
#include "coherence/memsys_internal.h"

/* `core` in these is a fast-forwarding hardware thread's logical CPU (config.h).  The two
 * threads of an SMT core fast-forward as one unit (cores/core_ff.c): the counters, the clock
 * and the epoch are the core's, marked and advanced once for both (by the leader's CPU), and
 * each thread asks for its own hits in flight. */

/* Mark layout: [0] epoch, [1] hits, [2] L1 clock, [3 ..] completions by stable state. */
G_STATIC_ASSERT(3 + CS_M + 1 <= G_N_ELEMENTS(((PortFfMark *)0)->w));

static gboolean ff_mark(void *obj, guint core, PortFfMark *m)
{
    MemSys *ms = obj;
    const CoreCaches *c = &ms->cores[cpu_core(ms, core)];
    memset(m, 0, sizeof *m);
    m->w[0] = c->ff_epoch;
    m->w[1] = c->ff_hits;
    m->w[2] = c->l1.clock;
    for (guint s = 0; s <= CS_M; s++)
        m->w[3 + s] = c->ff_done[s];
    return ms->trace == NULL; /* a trace prints each row as it fires, at its cycle */
}

static gboolean ff_quiet(const PortFfMark *a, const PortFfMark *b)
{
    return a->w[0] == b->w[0];
}

static void ff_hits_in_flight(void *obj, guint core, PortFfHit *out, guint max, guint *n)
{
    MemSys *ms = obj;
    GArray *p = ms->cores[cpu_core(ms, core)].ff_pending;
    guint thread = cpu_thread(ms, core), k = 0;
    for (guint i = 0; i < p->len; i++) {
        const Access *a = acc_at(ms, g_array_index(p, gint32, i));
        if (a->thread != thread)
            continue;
        if (k < max)
            out[k] = (PortFfHit){ a->req, a->issued, a->done };
        k++;
    }
    *n = k;
}

/* Every hardware thread's of the core: they sleep together. */
static void ff_hits_cancel(void *obj, guint core)
{
    MemSys *ms = obj;
    GArray *p = ms->cores[cpu_core(ms, core)].ff_pending;
    for (guint i = 0; i < p->len; i++)
        acc_at(ms, g_array_index(p, gint32, i))->cancelled = TRUE;
    g_array_set_size(p, 0);
}

static gboolean ff_load_hit(void *obj, guint core, const MemRequest *r, Cycle *latency)
{
    MemSys *ms = obj;
    CoreCaches *c = &ms->cores[cpu_core(ms, core)];
    if (r->kind != MEM_LOAD)
        return FALSE;
    Way *w = tags_find(ms, &c->l1, line_of(ms, r->addr));
    if (!w)
        return FALSE;
    gint16 ri = ms->cache_lut[w->pl->state][CE_LOAD];
    if (ri < 0 || !(ms->cache_rows[ri].actions & CA_HIT))
        return FALSE;
    w->lru = ++c->l1.clock;
    ms->stats.l1_hits++;
    c->ff_hits++;
    *latency = (Cycle)ms->cfg->l1.latency;
    return TRUE;
}

static gint32 fast_access(MemSys *ms, guint core, const MemRequest *r, Cycle issued)
{
    gint32 ai = acc_new(ms);
    Access *a = acc_at(ms, ai);
    a->req = *r;
    a->core = cpu_core(ms, core);
    a->thread = (guint8)cpu_thread(ms, core);
    a->issued = issued;
    a->src = MEM_SRC_L1;
    a->missed = FALSE;
    a->fast = TRUE;
    a->cancelled = FALSE;
    a->deferred = FALSE;
    /* The line is frozen in the L1 (it hits), so it has its record and entry. */
    const Way *w = tags_find(ms, &ms->cores[a->core].l1, line_of(ms, r->addr));
    a->dir = w ? w->pl->dir : dir_get(ms, line_of(ms, r->addr));
    return ai;
}

static void ff_hit_done(void *obj, guint core, const MemRequest *r, Cycle issued)
{
    MemSys *ms = obj;
    guint64 epoch = ms->cores[cpu_core(ms, core)].ff_epoch;
    gboolean hit = access_attempt(ms, fast_access(ms, core, r, issued));
    /* The line is frozen: it still hits, and nothing else happened to the core's caches. */
    g_assert(hit && ms->cores[cpu_core(ms, core)].ff_epoch == epoch);
}

static void ff_hit_resume(void *obj, guint core, const MemRequest *r, Cycle issued, Cycle done)
{
    MemSys *ms = obj;
    gint32 ai = fast_access(ms, core, r, issued);
    acc_at(ms, ai)->done = done;
    g_array_append_val(ms->cores[cpu_core(ms, core)].ff_pending, ai);
    engine_schedule_class(ms->e, done, EV_HIT, core, hit_event, ms, (uint64_t)ai);
}

static void ff_advance(void *obj, guint core, const PortFfMark *a, const PortFfMark *b, guint64 k)
{
    MemSys *ms = obj;
    CoreCaches *c = &ms->cores[cpu_core(ms, core)];
    g_assert(a->w[0] == b->w[0] && c->ff_epoch == b->w[0]);
    guint64 hits = b->w[1] - a->w[1];
    ms->stats.l1_hits += k * hits;
    c->ff_hits += k * hits;
    for (guint s = 0; s <= CS_M; s++) {
        guint64 d = b->w[3 + s] - a->w[3 + s];
        if (!d)
            continue;
        gint16 ri = ms->cache_lut[s][CE_LOAD];
        g_assert(ri >= 0);
        ms->stats.cache_rows_fired[ri] += k * d;
        c->ff_done[s] += k * d;
    }
    /* The clock counts every stamp it gave (no fills in a quiet period: only these hits); a line
     * stamped in the period was stamped in each, k * dclock later each time. */
    guint32 from = (guint32)a->w[2], dclock = (guint32)(b->w[2] - a->w[2]);
    g_assert(c->l1.clock == (guint32)b->w[2] && dclock == hits);
    guint32 shift = (guint32)(k * dclock);
    GHashTableIter it;
    gpointer v;
    g_hash_table_iter_init(&it, c->l1.t.sets); /* the sets made so far; each on its own */
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        Way *set = (Way *)((SetSlot *)v)->data;
        for (guint i = 0; i < c->l1.ways; i++) {
            Way *w = &set[i];
            if (w->line != NO_LINE && (guint32)(w->lru - from - 1) < dclock)
                w->lru += shift;
        }
    }
    c->l1.clock += shift;
}

const PortFastForward memsys_fast_forward = {
    ff_mark, ff_quiet, ff_hits_in_flight, ff_hits_cancel, ff_load_hit, ff_hit_done, ff_hit_resume, ff_advance,
};

/* The graph search (graph_explore.h): depth-first over execution graphs, one event added per
 * step, each graph checked by the model as it grows.  A read takes each write of its location
 * already in the graph (forward); a write takes each place in its location's coherence order,
 * and from each revisits every read of its location that is not in its porf-prefix (backward):
 * the read now reads the write, and what was added after the read and is not in the write's
 * porf-prefix goes (TruSt's deletion, by insertion stamps).  Graphs are keyed by their
 * canonical bytes so that each is explored once. */
#include <string.h>
#include "sim/memmodel/graph_priv.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/interp.h"

GGraph *ggraph_new(guint nthreads)
{
    GGraph *g = g_new0(GGraph, 1);
    g->nthreads = nthreads;
    g->ev = g_new0(GArray *, nthreads);
    for (guint t = 0; t < nthreads; t++)
        g->ev[t] = g_array_new(FALSE, FALSE, sizeof(GEv));
    return g;
}

GGraph *ggraph_copy(const GGraph *g)
{
    GGraph *c = g_new0(GGraph, 1);
    *c = *g;
    c->ev = g_new0(GArray *, g->nthreads);
    for (guint t = 0; t < g->nthreads; t++)
        c->ev[t] = g_array_copy(g->ev[t]);
    c->co = g_new0(GArray *, g->nlocs + 1);
    for (guint l = 0; l < g->nlocs; l++)
        c->co[l] = g_array_copy(g->co[l]);
    return c;
}

void ggraph_free(GGraph *g)
{
    if (!g)
        return;
    for (guint t = 0; t < g->nthreads; t++)
        g_array_free(g->ev[t], TRUE);
    for (guint l = 0; l < g->nlocs; l++)
        g_array_free(g->co[l], TRUE);
    g_free(g->ev);
    g_free(g->co);
    g_free(g);
}

static void ggraph_grow_locs(GGraph *g, guint nlocs)
{
    if (nlocs <= g->nlocs)
        return;
    g->co = g_renew(GArray *, g->co, nlocs + 1);
    for (guint l = g->nlocs; l < nlocs; l++)
        g->co[l] = g_array_new(FALSE, FALSE, sizeof(guint32));
    g->nlocs = nlocs;
}

static gboolean block_mixed(const GWorld *w, uint64_t block)
{
    for (guint i = 0; i < w->mixed->len; i++)
        if (g_array_index(w->mixed, uint64_t, i) == block)
            return TRUE;
    return FALSE;
}

static void mark_mixed(GWorld *w, uint64_t addr, unsigned size)
{
    for (uint64_t b = addr / GBLOCK * GBLOCK; b < addr + size; b += GBLOCK)
        if (!block_mixed(w, b))
            g_array_append_val(w->mixed, b);
    w->restart = TRUE;
}

static uint64_t init_bytes(const GWorld *w, uint64_t addr, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)w->init[addr - w->layout->base + i] << (8 * i);
    return v;
}

/* The byte location of addr, in a mixed block. */
static int byte_loc(GWorld *w, uint64_t addr)
{
    uint64_t block = addr / GBLOCK * GBLOCK;
    for (guint i = 0; i < w->blocks->len; i++) {
        const GBlock *b = &g_array_index(w->blocks, GBlock, i);
        if (b->addr == block)
            return (int)(b->first + (addr - block));
    }
    GBlock b = { block, w->locs->len };
    g_array_append_val(w->blocks, b);
    for (unsigned i = 0; i < GBLOCK; i++) {
        GLoc x = { block + i, 1, init_bytes(w, block + i, 1) };
        g_array_append_val(w->locs, x);
    }
    return (int)(b.first + (addr - block));
}

int gworld_queue(GWorld *w, uint64_t m)
{
    uint64_t addr = MM_GRAPH_QUEUE_ADDR | m;
    for (guint l = 0; l < w->locs->len; l++)
        if (g_array_index(w->locs, GLoc, l).addr == addr)
            return (int)l;
    GLoc x = { addr, 8, 0 };
    g_array_append_val(w->locs, x);
    return (int)w->locs->len - 1;
}

gboolean gworld_access(GWorld *w, uint64_t addr, unsigned size, int *locs, guint *n)
{
    guint nmixed = 0, nblocks = 0;
    for (uint64_t b = addr / GBLOCK * GBLOCK; b < addr + size; b += GBLOCK, nblocks++)
        nmixed += block_mixed(w, b);
    if (nmixed && nmixed < nblocks) {
        mark_mixed(w, addr, size);
        return FALSE;
    }
    if (nmixed) {
        for (unsigned i = 0; i < size; i++)
            locs[i] = byte_loc(w, addr + i);
        *n = size;
        return TRUE;
    }
    *n = 1;
    for (guint l = 0; l < w->locs->len; l++) {
        const GLoc *x = &g_array_index(w->locs, GLoc, l);
        if (x->addr == addr && x->size == size) {
            locs[0] = (int)l;
            return TRUE;
        }
        if (addr < x->addr + x->size && x->addr < addr + size) {
            mark_mixed(w, x->addr, x->size);
            mark_mixed(w, addr, size);
            return FALSE;
        }
    }
    GLoc x = { addr, size, init_bytes(w, addr, size) };
    g_array_append_val(w->locs, x);
    locs[0] = (int)w->locs->len - 1;
    return TRUE;
}

/* ======================================================================= the search */

typedef struct {
    GWorld w;
    MmModel *model;
    MmEval *eval;
    MmGraph mg;
    guint *base;               /* per thread: where its events start in mgi */
    guint *mgi;                /* each thread event's index in mg */
    guint nmgi;
    GHashTable *seen;
    MmGraphResult *r;
    gboolean stop, bound;
    char *bound_why;
    char *refused;
    guint64 max_graphs;
    gint64 started;
} Search;

struct MmGraphEnd {
    Search *s;
    const GGraph *g;
    const IsaThread *th;
};

static const GEv *ev_of(const GGraph *g, guint32 ref) { return ggraph_ev(g, gref_thread(ref), gref_index(ref)); }


/* The graph as the oracle's MmGraph, then checked. */
static gboolean consistent(Search *s, const GGraph *g, gboolean partial)
{
    guint nthreads = g->nthreads;
    MmGraph *mg = &s->mg;
    mm_graph_init(mg);
    for (guint l = 0; l < g->nlocs; l++) {
        const GLoc *x = &g_array_index(s->w.locs, GLoc, l);
        MmEvent iw = { MM_WRITE, -1, 0, (int)l, x->init, (guint8)x->size, MM_INIT, MM_FENCE_NONE, -1 };
        mm_graph_add(mg, &iw);
    }
    /* index of each thread event in mg (markers: none): thread t's event i at s->mgi[base[t] + i] */
    guint total = 0;
    for (guint t = 0; t < nthreads; t++) {
        s->base[t] = total;
        total += g->ev[t]->len;
    }
    if (total > s->nmgi) {
        s->nmgi = total * 2;
        s->mgi = g_renew(guint, s->mgi, s->nmgi);
    }
    for (guint t = 0; t < nthreads; t++) {
        for (guint i = 0; i < g->ev[t]->len; i++) {
            const GEv *e = ggraph_ev(g, t, i);
            if (e->marker)
                continue;
            s->mgi[s->base[t] + i] = mg->n;
            mm_graph_add(mg, &e->ev);
        }
    }
    mm_graph_finish(mg);
#define IDX(ref) (gref_thread(ref) == GREF_INIT ? gref_index(ref) : s->mgi[s->base[gref_thread(ref)] + gref_index(ref)])
    static const struct { MmRelName rel; gsize off; } deps[] = {
        { MM_REL_ADDR, G_STRUCT_OFFSET(GEv, addr_t) },
        { MM_REL_DATA, G_STRUCT_OFFSET(GEv, data_t) },
        { MM_REL_CTRL, G_STRUCT_OFFSET(GEv, ctrl_t) },
        { MM_REL_PICK_ADDR, G_STRUCT_OFFSET(GEv, addr_p) },
        { MM_REL_PICK_DATA, G_STRUCT_OFFSET(GEv, data_p) },
        { MM_REL_PICK_CTRL, G_STRUCT_OFFSET(GEv, ctrl_p) },
        { MM_REL_PICK_BASIC, G_STRUCT_OFFSET(GEv, reach_p) },
    };
    for (guint t = 0; t < nthreads; t++) {
        for (guint i = 0; i < g->ev[t]->len; i++) {
            const GEv *e = ggraph_ev(g, t, i);
            if (e->marker)
                continue;
            guint to = IDX(gref(t, i));
            for (guint d = 0; d < G_N_ELEMENTS(deps); d++) {
                const GTaint *from = (const GTaint *)((const char *)e + deps[d].off);
                for (guint wd = 0; wd < GT_WORDS; wd++)
                    for (uint64_t b = from->w[wd]; b; b &= b - 1) {
                        guint j = wd * 64 + (guint)__builtin_ctzll(b);
                        if (j < g->ev[t]->len && !ggraph_ev(g, t, j)->marker)
                            mm_rel_add(&mg->rels[deps[d].rel], IDX(gref(t, j)), to);
                    }
            }
            if (e->ev.kind == MM_READ) {
                mm_rel_add(&mg->rels[MM_REL_RF], IDX(e->rf), to);
                if (e->pair >= 0 && (guint)e->pair < g->ev[t]->len) {
                    guint w = IDX(gref(t, (guint)e->pair));
                    mm_rel_add(&mg->rels[MM_REL_RMW], to, w);
                    mm_rel_add(&mg->rels[e->amo ? MM_REL_AMO : MM_REL_LXSX], to, w);
                }
            }
        }
    }
    for (guint l = 0; l < g->nlocs; l++) {
        GArray *co = g->co[l];
        for (guint a = 0; a < co->len; a++) {
            guint ia = IDX(g_array_index(co, guint32, a));
            mm_rel_add(&mg->rels[MM_REL_CO], l, ia);
            for (guint b = a + 1; b < co->len; b++)
                mm_rel_add(&mg->rels[MM_REL_CO], ia, IDX(g_array_index(co, guint32, b)));
        }
    }
#undef IDX
    const char *failed = NULL;
    return mm_eval_prepare(s->eval, mg, &failed) && mm_eval_check(s->eval, mg, partial, &failed);
}

/* The canonical bytes of a graph: per thread its events (what, where, the value, the write
 * read, stamp), per location its coherence order. */
static GBytes *graph_key(const GGraph *g)
{
    GByteArray *b = g_byte_array_new();
    for (guint t = 0; t < g->nthreads; t++) {
        guint32 n = g->ev[t]->len;
        g_byte_array_append(b, (const guint8 *)&n, sizeof n);
        for (guint i = 0; i < n; i++) {
            const GEv *e = ggraph_ev(g, t, i);
            gboolean reads = e->marker == GEV_WAKE || (!e->marker && e->ev.kind == MM_READ);
            guint32 v[6] = { e->ev.kind | e->marker << 4, (guint32)e->ev.loc, (guint32)e->ev.value,
                             (guint32)(e->ev.value >> 32), reads ? e->rf : 0, e->stamp };
            g_byte_array_append(b, (const guint8 *)v, sizeof v);
        }
    }
    for (guint l = 0; l < g->nlocs; l++) {
        guint32 n = g->co[l]->len;
        g_byte_array_append(b, (const guint8 *)&n, sizeof n);
        g_byte_array_append(b, (const guint8 *)g->co[l]->data, n * sizeof(guint32));
    }
    return g_byte_array_free_to_bytes(b);
}

static void visit(Search *s, GGraph *g);

/* g with event e added to thread t (a new stamp): its index. */
static guint add_event(GGraph *g, guint t, GEv *e)
{
    e->stamp = g->stamp++;
    g_array_append_val(g->ev[t], *e);
    return g->ev[t]->len - 1;
}

/* Per thread, how many of its events are in the porf-prefix of (t, i). */
static void porf_prefix(const GGraph *g, guint t, guint i, guint *len)
{
    memset(len, 0, sizeof(guint) * g->nthreads);
    len[t] = i + 1;
    gboolean changed = TRUE;
    guint *done = g_new0(guint, g->nthreads);
    while (changed) {
        changed = FALSE;
        for (guint u = 0; u < g->nthreads; u++) {
            for (; done[u] < len[u]; done[u]++) {
                const GEv *e = ggraph_ev(g, u, done[u]);
                gboolean reads = e->marker == GEV_WAKE || (!e->marker && e->ev.kind == MM_READ);
                if (!reads || gref_thread(e->rf) == GREF_INIT)
                    continue;
                guint v = gref_thread(e->rf), k = gref_index(e->rf) + 1;
                if (len[v] < k) {
                    len[v] = k;
                    changed = TRUE;
                }
            }
        }
    }
    g_free(done);
}

static int cmp_u32(gconstpointer a, gconstpointer b)
{
    guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;
    return x < y ? -1 : x > y;
}

/* Stamps renumbered 0.. in the same order: what the search does next depends only on their
 * order, so graphs that differ only in the numbers are one (and a revisit that leads back to a
 * graph already seen is caught, which keeps the search finite). */
static void renumber_stamps(GGraph *g)
{
    GArray *all = g_array_new(FALSE, FALSE, sizeof(guint32));
    for (guint t = 0; t < g->nthreads; t++)
        for (guint i = 0; i < g->ev[t]->len; i++)
            g_array_append_val(all, ggraph_ev(g, t, i)->stamp);
    g_array_sort(all, cmp_u32);
    for (guint t = 0; t < g->nthreads; t++)
        for (guint i = 0; i < g->ev[t]->len; i++) {
            GEv *e = ggraph_ev(g, t, i);
            guint lo = 0, hi = all->len;
            while (lo < hi) {
                guint mid = (lo + hi) / 2;
                if (g_array_index(all, guint32, mid) < e->stamp)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            e->stamp = lo;
        }
    g->stamp = all->len;
    g_array_free(all, TRUE);
}

/* g where read (rt, ri) reads the write (wt, wi): what was added after the read and is not in
 * the write's porf-prefix is gone. */
static GGraph *revisit(const GGraph *g, guint rt, guint ri, guint wt, guint wi)
{
    g_autofree guint *keep = g_new0(guint, g->nthreads);
    porf_prefix(g, wt, wi, keep);
    guint32 rstamp = ggraph_ev(g, rt, ri)->stamp;
    GGraph *n = ggraph_copy(g);
    for (guint t = 0; t < g->nthreads; t++) {
        guint k = 0;
        while (k < g->ev[t]->len && ggraph_ev(g, t, k)->stamp <= rstamp)
            k++;
        if (t == rt)
            k = ri + 1;
        g_array_set_size(n->ev[t], MAX(k, keep[t]));
    }
    for (guint l = 0; l < n->nlocs; l++) {
        GArray *co = n->co[l];
        guint o = 0;
        for (guint j = 0; j < co->len; j++) {
            guint32 ref = g_array_index(co, guint32, j);
            if (gref_index(ref) < n->ev[gref_thread(ref)]->len)
                g_array_index(co, guint32, o++) = ref;
        }
        g_array_set_size(co, o);
    }
    GEv *r = ggraph_ev(n, rt, ri);
    r->rf = gref(wt, wi);
    r->ev.value = ggraph_ev(n, wt, wi)->ev.value;
    r->pair = -1;
    r->stamp = n->stamp++;
    renumber_stamps(n);
    return n;
}

/* Coherence per location, which every model keeps (sc's po, tso's and arm64's internal or
 * uniproc axioms): thread t's next access to loc comes after, in coherence, each write t
 * already wrote there or read there.  The smallest place in loc's coherence order (0: the
 * initial write, j: the j-th write) a read of t may read from, or after which a write may go. */
static guint co_floor(const GGraph *g, guint t, guint loc)
{
    GArray *co = g->co[loc];
    for (guint i = g->ev[t]->len; i-- > 0;) {
        const GEv *e = ggraph_ev(g, t, i);
        if (e->marker || e->ev.loc != (int)loc)
            continue;
        guint32 ref = e->ev.kind == MM_WRITE ? gref(t, i) : e->rf;
        if (gref_thread(ref) == GREF_INIT)
            return 0;
        for (guint j = 0; j < co->len; j++)
            if (g_array_index(co, guint32, j) == ref)
                return j + 1;
        return 0;
    }
    return 0;
}

static void add_write(Search *s, const GGraph *g, guint t, GEv *tmpl)
{
    guint loc = (guint)tmpl->ev.loc;
    guint nco = g->co[loc]->len;
    guint floor = co_floor(g, t, loc);
    /* an atomic instruction's write goes right after the write its read read: any write between
     * would be another thread's (atomicity: rmw & (fre; coe) is empty in every model) */
    if (tmpl->pair >= 0 && tmpl->amo)
        nco = MIN(nco, floor);
    for (guint pos = floor; pos <= nco && !s->stop; pos++) {
        GGraph *n = ggraph_copy(g);
        GEv e = *tmpl;
        guint wi = add_event(n, t, &e);
        if (e.pair >= 0)
            ggraph_ev(n, t, (guint)e.pair)->pair = (int)wi, ggraph_ev(n, t, (guint)e.pair)->amo = e.amo;
        guint32 ref = gref(t, wi);
        g_array_insert_val(n->co[loc], pos, ref);
        /* the revisits come from n even when n is inconsistent: an atomic read-modify-write that
         * read what another one read is made right by revisiting that one */
        g_autofree guint *pre = g_new0(guint, n->nthreads);
        porf_prefix(n, t, wi, pre);
        for (guint u = 0; u < n->nthreads && !s->stop; u++)
            for (guint i = pre[u]; i < n->ev[u]->len && !s->stop; i++) {
                const GEv *x = ggraph_ev(n, u, i);
                if (x->marker || x->ev.kind != MM_READ || x->ev.loc != (int)loc)
                    continue;
                GGraph *rv = revisit(n, u, i, t, wi);
                if (consistent(s, rv, TRUE))
                    visit(s, rv);
                ggraph_free(rv);
            }
        if (!s->stop && consistent(s, n, TRUE))
            visit(s, n);
        ggraph_free(n);
    }
}

/* Adds write (step, thread) to a step's list unless it is there (steps name writes uniquely;
 * 0 is the initial value). */
static void link_add(MmGraphLink *links, guint *n, guint step, guint thread)
{
    for (guint k = 0; k < *n; k++)
        if (links[k].step == step)
            return;
    if (*n < MM_GRAPH_STEP_LINKS)
        links[(*n)++] = (MmGraphLink){ step, thread };
}

/* The 1-based step holding write ref (0: the initial value, or not yet a step). */
static guint step_of_write(GHashTable *step_of, guint32 ref)
{
    if (gref_thread(ref) == GREF_INIT)
        return 0;
    return GPOINTER_TO_UINT(g_hash_table_lookup(step_of, GUINT_TO_POINTER(ref + 1)));
}

/* Read e's location's writes coherence-later than the one it read that are already steps
 * before `step`: what it did not see. */
static void add_unseen(const GGraph *g, const GEv *e, GHashTable *step_of, MmGraphStep *x, guint step)
{
    const GArray *co = g->co[e->ev.loc];
    guint from = 0;
    if (gref_thread(e->rf) != GREF_INIT)
        for (guint j = 0; j < co->len; j++)
            if (g_array_index(co, guint32, j) == e->rf)
                from = j + 1;
    for (guint j = co->len; j > from; j--) {
        guint32 w = g_array_index(co, guint32, j - 1);
        guint ws = step_of_write(step_of, w);
        if (ws && ws < step) {
            guint before = x->nunseen;
            link_add(x->unseen, &x->nunseen, ws, gref_thread(w));
            x->unseen_total += x->nunseen > before;
        }
    }
}

/* The graph linearised by stamp (po and rf both run forward in stamps), one step per access:
 * a mixed block's byte events of one instruction's read (or write) are one step, in the place
 * of its first byte, its value the bytes put together little-endian. */
static GArray *linearise(Search *s, const GGraph *g)
{
    GArray *steps = g_array_new(FALSE, TRUE, sizeof(MmGraphStep));
    GHashTable *step_of = g_hash_table_new(NULL, NULL);
    g_autofree guint *last = g_new0(guint, g->nthreads);     /* per thread: its latest step, 1-based */
    g_autofree guint *last_instance = g_new0(guint, g->nthreads);
    for (guint32 st = 0; st < g->stamp; st++)
        for (guint t = 0; t < g->nthreads; t++)
            for (guint i = 0; i < g->ev[t]->len; i++) {
                const GEv *e = ggraph_ev(g, t, i);
                if (e->stamp != st || e->marker)
                    continue;
                MmGraphStep *x = last[t] ? &g_array_index(steps, MmGraphStep, last[t] - 1) : NULL;
                /* the next byte of the same access: same instance and kind, the next address */
                gboolean more = x && e->ev.kind != MM_FENCE && x->kind == e->ev.kind &&
                                last_instance[t] == e->ev.instance && e->addr == x->addr + x->size &&
                                x->size + e->ev.size <= GBLOCK;
                /* an atomic's write: its read's step, same instance (no other write comes
                 * between them: rmw & (fre; coe) is empty), byte by byte in a mixed block */
                gboolean amo_write = x && e->ev.kind == MM_WRITE && e->amo && x->kind == MM_READ &&
                                     last_instance[t] == e->ev.instance &&
                                     e->addr == x->addr + (x->wrote ? x->wsize : 0) &&
                                     (x->wrote ? x->wsize : 0) + e->ev.size <= x->size;
                if (amo_write) {
                    x->wvalue = x->wrote ? x->wvalue | e->ev.value << (8 * x->wsize) : e->ev.value;
                    x->wsize = x->wrote ? x->wsize + e->ev.size : e->ev.size;
                    x->wrote = TRUE;
                } else if (more) {
                    x->value |= e->ev.value << (8 * x->size);
                    x->size += e->ev.size;
                } else {
                    MmGraphStep n = { .thread = t, .pc = e->ev.pc, .kind = e->ev.kind, .addr = e->addr,
                                      .value = e->ev.value, .size = e->ev.size };
                    g_array_append_val(steps, n);
                    last[t] = steps->len;
                    last_instance[t] = e->ev.instance;
                    x = &g_array_index(steps, MmGraphStep, steps->len - 1);
                }
                if (e->ev.kind == MM_READ) {
                    x->has_source = TRUE;
                    link_add(x->sources, &x->nsources, step_of_write(step_of, e->rf),
                             gref_thread(e->rf) == GREF_INIT ? 0 : gref_thread(e->rf));
                    x->source_step = x->sources[0].step;
                    x->source_thread = x->sources[0].thread;
                    add_unseen(g, e, step_of, x, last[t]);
                }
                g_hash_table_insert(step_of, GUINT_TO_POINTER(gref(t, i) + 1), GUINT_TO_POINTER(last[t]));
            }
    (void)s;
    g_hash_table_destroy(step_of);
    return steps;
}

static void fail(Search *s, const GGraph *g, MmGraphFailure f, char *message)
{
    s->r->verdict = MM_GRAPH_FAILED;
    s->r->failure = f;
    s->r->message = message;
    s->r->steps = linearise(s, g);
    s->stop = TRUE;
}

/* A read-modify-write's or an exclusive pair's write of the value its read returned, by thread t. */
static gboolean silent_write(const GGraph *g, guint32 ref, guint t)
{
    if (gref_thread(ref) != t)
        return FALSE;
    const GEv *w = ev_of(g, ref);
    return w->pair >= 0 && ggraph_ev(g, t, (guint)w->pair)->ev.value == w->ev.value;
}

/* Every thread halted, blocked, faulted or bounded. */
static void finished(Search *s, const GGraph *g, GNext *next)
{
    for (guint t = 0; t < g->nthreads; t++)
        if (next[t].kind == GNEXT_FAULT) {
            fail(s, g, MM_GRAPH_FAIL_FAULT, g_strdup_printf("thread %u faulted at pc %d", t, next[t].th.pc));
            return;
        }
    for (guint t = 0; t < g->nthreads; t++)
        if (next[t].kind == GNEXT_BOUND) {
            if (!s->bound_why)
                s->bound_why = g_strdup(next[t].why);
            s->bound = TRUE;
            return;
        }
    if (!consistent(s, g, FALSE))
        return;
    gboolean blocked = FALSE;
    int stuck = -1;            /* the first thread stuck for good; -2: some blocked thread is not */
    for (guint t = 0; t < g->nthreads; t++) {
        if (next[t].kind == GNEXT_WFE) {
            /* asleep with nothing left to wake it: stuck for good */
            blocked = TRUE;
            if (stuck == -1)
                stuck = (int)t;
            continue;
        }
        if (next[t].kind != GNEXT_BLOCKED)
            continue;
        blocked = TRUE;
        /* a liveness failure: every blocking read reads its location's latest write, so no
         * write is left to come that would let the thread out */
        gboolean latest = TRUE, stx_failed = FALSE;
        for (guint i = next[t].block_from; i < g->ev[t]->len; i++) {
            const GEv *e = ggraph_ev(g, t, i);
            if (e->marker == GEV_STX_FAIL)
                stx_failed = TRUE;
            if (e->marker || e->ev.kind != MM_READ)
                continue;
            /* latest: nothing after its write in coherence but the thread's own silent writes */
            GArray *co = g->co[e->ev.loc];
            guint j = co->len;
            while (j > 0 && silent_write(g, g_array_index(co, guint32, j - 1), t) &&
                   g_array_index(co, guint32, j - 1) != e->rf)
                j--;
            guint32 last = j ? g_array_index(co, guint32, j - 1) : gref(GREF_INIT, (guint)e->ev.loc);
            latest = latest && e->rf == last;
        }
        /* a thread reading an old value reads a newer one later (fairness), and a
         * store-exclusive that failed with nothing in the way succeeds on a later try: then
         * this graph is not where the execution ends, and the one where it moves on is
         * explored apart */
        if (!latest || stx_failed)
            stuck = -2;
        else if (stuck == -1)
            stuck = (int)t;
    }
    if (stuck >= 0) {
        const IsaInsn *in = isa_thread_insn(s->w.o->prog, &next[stuck].th);
        g_autofree char *pos = in ? isa_insn_pos(s->w.o->prog, in) : g_strdup("?");
        if (in && in->op == OP_FUTEX_WAIT)
            fail(s, g, MM_GRAPH_FAIL_LIVENESS,
                 g_strdup_printf("lost wake-up: thread %d sleeps in futex_wait at %s for ever: no futex_wake takes "
                                 "it off the word's queue", stuck, pos));
        else if (next[stuck].kind == GNEXT_WFE)
            fail(s, g, MM_GRAPH_FAIL_LIVENESS,
                 g_strdup_printf("lost wake-up: thread %d sleeps in wfe at %s for ever: no other thread sends a "
                                 "sev or writes the line its monitor watches", stuck, pos));
        else
            fail(s, g, MM_GRAPH_FAIL_LIVENESS,
                 g_strdup_printf("thread %d can spin forever at %s: its loop reads the latest values and "
                                 "writes nothing, and no thread is left to write", stuck, pos));
        return;
    }
    if (blocked) {
        s->r->blocked++;
        return;
    }
    s->r->executions++;
    g_autofree IsaThread *th = g_new0(IsaThread, g->nthreads);
    for (guint t = 0; t < g->nthreads; t++)
        th[t] = next[t].th;
    MmGraphEnd end = { s, g, th };
    if (s->w.o->on_execution)
        s->w.o->on_execution(&end, s->w.o->ctx);
    if (s->w.o->end_check) {
        char *why = s->w.o->end_check(&end, s->w.o->ctx);
        if (why)
            fail(s, g, MM_GRAPH_FAIL_END, why);
    }
}

static void progress(Search *s)
{
    if (s->r->graphs % 20000)
        return;
    double secs = (g_get_monotonic_time() - s->started) / 1e6;
    if (secs > 3)
        g_printerr("qsim verify: %" G_GUINT64_FORMAT " graphs, %" G_GUINT64_FORMAT " executions, %.0f graphs/s\n",
                   s->r->graphs, s->r->executions, s->r->graphs / secs);
}

static void visit(Search *s, GGraph *g)
{
    if (s->stop)
        return;
    GBytes *key = graph_key(g);
    if (!g_hash_table_add(s->seen, key))
        return;
    /* a new graph past the bound stops the search uncounted: the count is the bound exactly */
    if (s->r->graphs == s->max_graphs) {
        s->bound = TRUE;
        if (!s->bound_why)
            s->bound_why = g_strdup_printf("%" G_GUINT64_FORMAT " graphs (--max-states)", s->max_graphs);
        s->stop = TRUE;
        return;
    }
    s->r->graphs++;
    progress(s);
    g_autofree GNext *next = g_new0(GNext, g->nthreads);
    int pick = -1;
    for (guint t = 0; t < g->nthreads; t++) {
        greplay(&s->w, g, t, &next[t]);
        if (next[t].kind == GNEXT_REFUSED) {
            if (!s->w.restart)
                s->refused = g_strdup(next[t].why);
            s->stop = TRUE;
            return;
        }
        if (pick < 0 && next[t].kind <= GNEXT_WAKE)
            pick = (int)t;
    }
    ggraph_grow_locs(g, s->w.locs->len);
    if (pick < 0) {
        finished(s, g, next);
        return;
    }
    guint t = (guint)pick;
    GEv *e = &next[t].ev;
    switch (next[t].kind) {
    case GNEXT_FENCE: {
        GGraph *n = ggraph_copy(g);
        add_event(n, t, e);
        if (consistent(s, n, TRUE))
            visit(s, n);
        ggraph_free(n);
        break;
    }
    case GNEXT_READ: {
        guint loc = (guint)e->ev.loc;
        guint nco = g->co[loc]->len;
        for (guint j = co_floor(g, t, loc); j <= nco && !s->stop; j++) {
            guint32 ref = j == 0 ? gref(GREF_INIT, loc) : g_array_index(g->co[loc], guint32, j - 1);
            GGraph *n = ggraph_copy(g);
            GEv r = *e;
            r.rf = ref;
            r.ev.value = j == 0 ? isa_truncate(g_array_index(s->w.locs, GLoc, loc).init, r.ev.size)
                                : ev_of(g, ref)->ev.value;
            add_event(n, t, &r);
            if (consistent(s, n, TRUE))
                visit(s, n);
            ggraph_free(n);
        }
        break;
    }
    case GNEXT_SEV:
    case GNEXT_WAKE: {
        /* no memory event: nothing for the model to check */
        GGraph *n = ggraph_copy(g);
        add_event(n, t, e);
        visit(s, n);
        ggraph_free(n);
        break;
    }
    case GNEXT_STX: {
        GGraph *n = ggraph_copy(g);
        GEv f = { 0 };
        f.marker = GEV_STX_FAIL;
        f.pair = -1;
        f.ev.thread = (int)t;
        f.ev.pc = e->ev.pc;
        f.ev.loc = -1;
        add_event(n, t, &f);
        visit(s, n);
        ggraph_free(n);
        add_write(s, g, t, e);
        break;
    }
    case GNEXT_WRITE:
        add_write(s, g, t, e);
        break;
    default:
        break;
    }
}

/* The value of byte `addr` after the execution: from the coherence-last write of the location
 * holding it, else the initial image. */
static guint8 end_byte(const MmGraphEnd *e, uint64_t addr)
{
    const GWorld *w = &e->s->w;
    for (guint l = 0; l < w->locs->len && l < e->g->nlocs; l++) {
        const GLoc *x = &g_array_index(w->locs, GLoc, l);
        if (addr < x->addr || addr >= x->addr + x->size)
            continue;
        GArray *co = e->g->co[l];
        uint64_t v = co->len ? ev_of(e->g, g_array_index(co, guint32, co->len - 1))->ev.value : x->init;
        return (guint8)(v >> (8 * (addr - x->addr)));
    }
    if (addr < w->layout->base || addr >= w->layout->base + w->layout->size)
        return 0;
    return w->init[addr - w->layout->base];
}

uint64_t mm_graph_end_load(const MmGraphEnd *e, uint64_t addr, unsigned size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)end_byte(e, addr + i) << (8 * i);
    return v;
}

const IsaThread *mm_graph_end_thread(const MmGraphEnd *e, guint t) { return &e->th[t]; }

static void poke(void *ctx, uint64_t addr, unsigned size, uint64_t value)
{
    GWorld *w = ctx;
    for (unsigned i = 0; i < size; i++)
        w->init[addr - w->layout->base + i] = (guint8)(value >> (8 * i));
}

gboolean mm_graph_explore(const MmGraphOptions *o, MmGraphResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    int entry = isa_program_find_entry(o->prog, o->entry ? o->entry : "main");
    if (entry < 0 || !o->nthreads) {
        g_set_error(error, MM_ERROR, MM_ERROR_UNSUPPORTED, "%s: no entry point or no threads", o->prog->filename);
        return FALSE;
    }
    g_autoptr(MmModel) model = mm_model_compile(o->model, error);
    if (!model)
        return FALSE;
    Search s = { 0 };
    s.w.o = o;
    s.w.line_size = o->line_size ? o->line_size : 64;
    s.w.layout = isa_layout_new(o->prog, o->nthreads, s.w.line_size, INTERP_BASE);
    s.w.init = g_malloc0(s.w.layout->size + 8);
    isa_layout_init_memory(s.w.layout, o->prog, poke, &s.w);
    s.w.entry = entry;
    s.w.unroll = o->unroll ? o->unroll : MM_GRAPH_DEFAULT_UNROLL;
    s.w.locs = g_array_new(FALSE, FALSE, sizeof(GLoc));
    s.w.mixed = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    s.w.blocks = g_array_new(FALSE, FALSE, sizeof(GBlock));
    s.model = model;
    s.eval = mm_eval_new(model);
    s.r = r;
    s.base = g_new0(guint, o->nthreads);
    s.max_graphs = o->max_graphs ? o->max_graphs : MM_GRAPH_DEFAULT_MAX_GRAPHS;
    s.started = g_get_monotonic_time();
    /* Each time an access makes a block mixed, what was explored assumed whole accesses
     * there: start again with the block in bytes (a block turns mixed once, so this ends). */
    do {
        memset(r, 0, sizeof *r);
        g_clear_pointer(&s.bound_why, g_free);
        s.stop = s.bound = s.w.restart = FALSE;
        g_array_set_size(s.w.locs, 0);
        g_array_set_size(s.w.blocks, 0);
        s.seen = g_hash_table_new_full(g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, NULL);
        GGraph *g = ggraph_new(o->nthreads);
        visit(&s, g);
        ggraph_free(g);
        g_hash_table_destroy(s.seen);
    } while (s.w.restart && !s.refused);
    r->seconds = (g_get_monotonic_time() - s.started) / 1e6;
    gboolean ok = TRUE;
    if (s.refused) {
        g_set_error(error, MM_ERROR, MM_ERROR_UNSUPPORTED, "%s", s.refused);
        ok = FALSE;
    } else if (r->verdict != MM_GRAPH_FAILED && s.bound) {
        r->verdict = MM_GRAPH_BOUND;
        r->message = g_strdup_printf("not verified: bound reached (%s)", s.bound_why ? s.bound_why : "?");
    }
    g_free(s.refused);
    g_free(s.bound_why);
    g_free(s.base);
    g_free(s.mgi);
    mm_eval_free(s.eval);
    mm_graph_clear(&s.mg);
    g_array_free(s.w.locs, TRUE);
    g_array_free(s.w.mixed, TRUE);
    g_array_free(s.w.blocks, TRUE);
    g_free(s.w.init);
    isa_layout_free(s.w.layout);
    return ok;
}

void mm_graph_result_clear(MmGraphResult *r)
{
    g_clear_pointer(&r->message, g_free);
    if (r->steps)
        g_array_free(r->steps, TRUE);
    r->steps = NULL;
}

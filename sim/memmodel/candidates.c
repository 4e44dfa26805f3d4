/* Enumerating rf and co (see candidates.h).  rf first, one read at a time; then co, one
 * location at a time, built from its first write on: after k choices the order of those k
 * writes is known and so is that each comes before every write not yet placed, which is part
 * of every completion.  Each step is checked with the model's monotone axioms (model.h), so a
 * cycle found early (a read from a po-later write, SB's both-zero under SC) cuts the whole
 * subtree below it. */
#include "sim/memmodel/candidates.h"
#include "cores/isa/isa_exec.h"

typedef struct {
    MmGraph *g;
    MmEval *ev;
    MmConsistentFn fn;
    void *ctx;
    MmCandidateCounts *counts;
    guint nreads;
    guint reads[MM_MAX_EVENTS];
    MmSet sources[MM_MAX_EVENTS];   /* per read: the writes it may read from */
    guint nlocs;
    MmSet writes[MM_MAX_EVENTS];    /* per location: its writes other than the initial one */
    int init[MM_MAX_EVENTS];        /* per location: its initial write, or -1 */
} CandCtx;

/* How many candidates the graph has, pruned or not: the rf choices times the co orders
 * (saturating; it is reported, not used). */
static guint64 count_candidates(const CandCtx *c)
{
    guint64 n = 1;
    for (guint k = 0; k < c->nreads; k++)
        n = n > G_MAXUINT64 / 64 ? G_MAXUINT64 : n * (guint64)__builtin_popcountll(c->sources[k]);
    for (guint l = 0; l < c->nlocs; l++)
        for (guint k = 2; k <= (guint)__builtin_popcountll(c->writes[l]); k++)
            n = n > G_MAXUINT64 / 64 ? G_MAXUINT64 : n * k;
    return n;
}

static gboolean still_allowed(CandCtx *c)
{
    return mm_eval_check(c->ev, c->g, TRUE, NULL);
}

static void complete(CandCtx *c)
{
    if (!mm_eval_check(c->ev, c->g, FALSE, NULL))
        return;
    c->counts->consistent++;
    c->fn(c->ctx, c->g);
}

static void order_location(CandCtx *c, guint loc);

/* Places the next write of `loc` among `left`, then the rest. */
static void order_rest(CandCtx *c, guint loc, MmSet left)
{
    if (!left) {
        order_location(c, loc + 1);
        return;
    }
    MmRel *co = &c->g->rels[MM_REL_CO];
    for (MmSet ws = left; ws; ws &= ws - 1) {
        guint w = (guint)__builtin_ctzll(ws);
        MmSet rest = left & ~mm_set_bit(w);
        co->row[w] = rest;
        if (still_allowed(c))
            order_rest(c, loc, rest);
        co->row[w] = 0;
    }
}

static void order_location(CandCtx *c, guint loc)
{
    while (loc < c->nlocs && !c->writes[loc])
        loc++;
    if (loc >= c->nlocs) {
        complete(c);
        return;
    }
    MmRel *co = &c->g->rels[MM_REL_CO];
    if (c->init[loc] >= 0)
        co->row[c->init[loc]] = c->writes[loc];
    order_rest(c, loc, c->writes[loc]);
    if (c->init[loc] >= 0)
        co->row[c->init[loc]] = 0;
}

static void choose_rf(CandCtx *c, guint k)
{
    if (k == c->nreads) {
        order_location(c, 0);
        return;
    }
    guint r = c->reads[k];
    MmRel *rf = &c->g->rels[MM_REL_RF];
    for (MmSet ws = c->sources[k]; ws; ws &= ws - 1) {
        guint w = (guint)__builtin_ctzll(ws);
        mm_rel_add(rf, w, r);
        if (still_allowed(c))
            choose_rf(c, k + 1);
        rf->row[w] &= ~mm_set_bit(r);
    }
}

void mm_candidates_run(MmGraph *g, MmEval *ev, MmConsistentFn fn, void *ctx, MmCandidateCounts *counts)
{
    CandCtx c = { .g = g, .ev = ev, .fn = fn, .ctx = ctx, .counts = counts };
    mm_rel_clear(&g->rels[MM_REL_RF], g->n);
    mm_rel_clear(&g->rels[MM_REL_CO], g->n);
    for (guint l = 0; l < MM_MAX_EVENTS; l++)
        c.init[l] = -1;
    for (guint i = 0; i < g->n; i++) {
        const MmEvent *e = &g->ev[i];
        if (e->loc < 0)
            continue;
        c.nlocs = MAX(c.nlocs, (guint)e->loc + 1);
        if (e->kind == MM_WRITE && (e->flags & MM_INIT))
            c.init[e->loc] = (int)i;
        else if (e->kind == MM_WRITE)
            c.writes[e->loc] |= mm_set_bit(i);
    }
    for (guint i = 0; i < g->n; i++) {
        const MmEvent *r = &g->ev[i];
        if (r->kind != MM_READ)
            continue;
        MmSet from = 0;
        for (guint j = 0; j < g->n; j++) {
            const MmEvent *w = &g->ev[j];
            if (w->kind == MM_WRITE && w->loc == r->loc && isa_truncate(w->value, r->size) == r->value)
                from |= mm_set_bit(j);
        }
        if (!from)
            return;   /* a value no write gives: no candidate at all */
        c.reads[c.nreads] = i;
        c.sources[c.nreads++] = from;
    }
    counts->candidates += count_candidates(&c);
    if (mm_eval_prepare(ev, g, NULL))
        choose_rf(&c, 0);
}

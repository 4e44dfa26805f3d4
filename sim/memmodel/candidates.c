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
    guint *reads;          /* the read events */
    MmSet *sources;        /* per read: the writes it may read from */
    guint nlocs;
    MmSet *writes;         /* per location: its writes other than the initial one */
    int *init;             /* per location: its initial write, or -1 */
} CandCtx;

/* How many candidates the graph has, pruned or not: the rf choices times the co orders
 * (saturating; it is reported, not used). */
static guint64 count_candidates(const CandCtx *c)
{
    guint64 n = 1;
    for (guint k = 0; k < c->nreads; k++) {
        guint64 m = mm_set_count(&c->sources[k]);
        n = m && n > G_MAXUINT64 / m ? G_MAXUINT64 : n * m;
    }
    for (guint l = 0; l < c->nlocs; l++)
        for (guint64 k = 2; k <= mm_set_count(&c->writes[l]); k++)
            n = n > G_MAXUINT64 / k ? G_MAXUINT64 : n * k;
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
static void order_rest(CandCtx *c, guint loc, const MmSet *left)
{
    if (mm_set_is_empty(left)) {
        order_location(c, loc + 1);
        return;
    }
    MmRel *co = &c->g->rels[MM_REL_CO];
    uint64_t buf[left->words];
    MmSet rest = { left->n, left->words, left->words, buf };
    for (int w = mm_set_next(left, 0); w >= 0; w = mm_set_next(left, (guint)w + 1)) {
        mm_set_copy(&rest, left);
        mm_set_del(&rest, (guint)w);
        mm_rel_set_row(co, (guint)w, &rest);
        if (still_allowed(c))
            order_rest(c, loc, &rest);
        mm_rel_clear_row(co, (guint)w);
    }
}

static void order_location(CandCtx *c, guint loc)
{
    while (loc < c->nlocs && mm_set_is_empty(&c->writes[loc]))
        loc++;
    if (loc >= c->nlocs) {
        complete(c);
        return;
    }
    MmRel *co = &c->g->rels[MM_REL_CO];
    if (c->init[loc] >= 0)
        mm_rel_set_row(co, (guint)c->init[loc], &c->writes[loc]);
    order_rest(c, loc, &c->writes[loc]);
    if (c->init[loc] >= 0)
        mm_rel_clear_row(co, (guint)c->init[loc]);
}

static void choose_rf(CandCtx *c, guint k)
{
    if (k == c->nreads) {
        order_location(c, 0);
        return;
    }
    guint r = c->reads[k];
    MmRel *rf = &c->g->rels[MM_REL_RF];
    const MmSet *from = &c->sources[k];
    for (int w = mm_set_next(from, 0); w >= 0; w = mm_set_next(from, (guint)w + 1)) {
        mm_rel_add(rf, (guint)w, r);
        if (still_allowed(c))
            choose_rf(c, k + 1);
        mm_rel_del(rf, (guint)w, r);
    }
}

void mm_candidates_run(MmGraph *g, MmEval *ev, MmConsistentFn fn, void *ctx, MmCandidateCounts *counts)
{
    CandCtx c = { .g = g, .ev = ev, .fn = fn, .ctx = ctx, .counts = counts };
    mm_rel_clear(&g->rels[MM_REL_RF], g->n);
    mm_rel_clear(&g->rels[MM_REL_CO], g->n);
    for (guint i = 0; i < g->n; i++)
        if (g->ev[i].loc >= 0)
            c.nlocs = MAX(c.nlocs, (guint)g->ev[i].loc + 1);
    c.reads = g_new(guint, g->n + 1);
    c.sources = g_new0(MmSet, g->n + 1);
    c.writes = g_new0(MmSet, c.nlocs + 1);
    c.init = g_new(int, c.nlocs + 1);
    for (guint l = 0; l < c.nlocs; l++) {
        c.init[l] = -1;
        mm_set_clear(&c.writes[l], g->n);
    }
    for (guint i = 0; i < g->n; i++) {
        const MmEvent *e = &g->ev[i];
        if (e->loc < 0)
            continue;
        if (e->kind == MM_WRITE && (e->flags & MM_INIT))
            c.init[e->loc] = (int)i;
        else if (e->kind == MM_WRITE)
            mm_set_add(&c.writes[e->loc], i);
    }
    gboolean some_value_unwritten = FALSE;
    for (guint i = 0; i < g->n && !some_value_unwritten; i++) {
        const MmEvent *r = &g->ev[i];
        if (r->kind != MM_READ)
            continue;
        MmSet *from = &c.sources[c.nreads];
        mm_set_clear(from, g->n);
        for (guint j = 0; j < g->n; j++) {
            const MmEvent *w = &g->ev[j];
            if (w->kind == MM_WRITE && w->loc == r->loc && isa_truncate(w->value, r->size) == r->value)
                mm_set_add(from, j);
        }
        c.reads[c.nreads++] = i;
        /* a value no write gives: no candidate at all */
        some_value_unwritten = mm_set_is_empty(from);
    }
    if (!some_value_unwritten) {
        counts->candidates += count_candidates(&c);
        if (mm_eval_prepare(ev, g, NULL))
            choose_rf(&c, 0);
    }
    for (guint k = 0; k <= g->n; k++)
        mm_set_free(&c.sources[k]);
    for (guint l = 0; l <= c.nlocs; l++)
        mm_set_free(&c.writes[l]);
    g_free(c.reads);
    g_free(c.sources);
    g_free(c.writes);
    g_free(c.init);
}

/* A core's private hierarchy: the records of the lines it holds (PrivLine, kept in the line's
 * DirEntry from leaving I until returning to it, transient lines included: the MSHRs) and
 * the L1 and L2 tag arrays, set-associative with LRU, where stable lines live.  Filling a line
 * evicts an LRU victim that is not busy; the L2 is inclusive of the L1.  The coherence state
 * itself is changed only by the cache controller (cache_controller.c). */
#include "coherence/memsys_internal.h"

/* ======================================================================================
 * Private lines
 * ====================================================================================== */

/* A record lives in its line's DirEntry (held) from leaving I until returning to it. */
PrivLine *pl_new(MemSys *ms, CoreCaches *c, DirEntry *d)
{
    PrivLine *pl = ms->pl_free;
    if (pl)
        ms->pl_free = pl->free_next;
    else
        pl = g_malloc(sizeof(PrivLine) + ms->line_size);
    memset(pl, 0, sizeof(PrivLine));
    pl->line = d->line;
    pl->dir = d;
    pl->wait_head = pl->wait_tail = NIL;
    dir_holder_set(d, c->id, pl);
    return pl;
}
void pl_release(MemSys *ms, CoreCaches *c, PrivLine *pl)
{
    dir_holder_set(pl->dir, c->id, NULL);
    pl->free_next = ms->pl_free;
    ms->pl_free = pl;
}

CohCacheState memsys_cache_state(const MemSys *ms, guint core, uint64_t addr)
{
    const PrivLine *pl = pl_find(ms, &ms->cores[cpu_core(ms, core)], line_of(ms, addr));
    return pl ? pl->state : CS_I;
}

/* ======================================================================================
 * Tag arrays
 * ====================================================================================== */

static void ways_init(void *set, gsize bytes)
{
    Way *w = set;
    for (gsize i = 0; i < bytes / sizeof(Way); i++)
        w[i] = (Way){ NO_LINE, NULL, 0 };
}

void tags_init(TagArray *t, const CacheConfig *cc, guint line_size)
{
    t->ways = (guint)cc->ways;
    t->sets = (uint64_t)cc->size / ((uint64_t)cc->ways * line_size);
    set_table_init(&t->t, t->sets, sizeof(Way) * t->ways, ways_init);
}

void tags_clear(TagArray *t)
{
    set_table_clear(&t->t, NULL);
}
static void tags_remove(const MemSys *ms, TagArray *t, uint64_t line)
{
    Way *w = tags_find(ms, t, line);
    if (w)
        *w = (Way){ NO_LINE, NULL, 0 };
}

/* A way for `line` in t: an empty one, else the LRU line that is not busy.  NULL: none free. */
static Way *tags_victim(MemSys *ms, TagArray *t, uint64_t line, gboolean any)
{
    Way *s = set_table_get(&t->t, tags_set_index(ms, t, line)), *best = NULL;
    for (guint i = 0; i < t->ways; i++) {
        if (s[i].line == NO_LINE)
            return &s[i];
        if (!any && pl_busy(ms, s[i].pl))
            continue;
        if (!best || s[i].lru < best->lru)
            best = &s[i];
    }
    return best;
}

/* ======================================================================================
 * Fill, replacement, leaving
 * ====================================================================================== */

/* Replacement of a stable line from the private hierarchy (capacity, or the LLC's
 * back-invalidation): the core hears LINE_EVICTED, the table sends the Put. */
void private_evict(MemSys *ms, CoreCaches *c, PrivLine *pl)
{
    core_disturb(c);
    if (pl->in_l1)
        core_tell_lost_line(c, pl->line, LINE_EVICTED);
    ms->stats.evictions++;
    apply_cache_event(ms, c, pl->dir, pl, CE_REPLACEMENT, NIL, NIL);
}

/* The line has data in a stable state: place it in the arrays, evicting as needed. */
void private_fill(MemSys *ms, CoreCaches *c, PrivLine *pl)
{
    c->ff_epoch++;
    gboolean has_l2 = ms->cfg->l2_enabled;
    if (has_l2 && !pl->in_l2) {
        Way *w = tags_victim(ms, &c->l2, pl->line, FALSE);
        if (!w)
            return; /* every way busy: the line stays in the MSHR until a later fill */
        if (w->line != NO_LINE)
            private_evict(ms, c, w->pl);
        *w = (Way){ pl->line, pl, ++c->l2.clock };
        pl->in_l2 = TRUE;
    }
    if (!pl->in_l1) {
        Way *w = tags_victim(ms, &c->l1, pl->line, has_l2);
        if (w) {
            if (w->line != NO_LINE) {
                if (has_l2) {
                    PrivLine *v = w->pl;
                    core_tell_lost_line(c, v->line, LINE_EVICTED);
                    v->in_l1 = FALSE;
                    *w = (Way){ NO_LINE, NULL, 0 };
                } else {
                    private_evict(ms, c, w->pl);
                }
            }
            *w = (Way){ pl->line, pl, ++c->l1.clock };
            pl->in_l1 = TRUE;
        }
    }
    llc_touch(ms, c->socket, pl->line);
}

void private_leave(MemSys *ms, CoreCaches *c, PrivLine *pl)
{
    if (pl->in_l1)
        tags_remove(ms, &c->l1, pl->line);
    if (pl->in_l2)
        tags_remove(ms, &c->l2, pl->line);
    pl->in_l1 = pl->in_l2 = FALSE;
}

gboolean memsys_evict(MemSys *ms, guint core, uint64_t addr)
{
    CoreCaches *c = &ms->cores[core];
    PrivLine *pl = pl_find(ms, c, line_of(ms, addr));
    if (!pl || !coh_cache_state_stable(pl->state) || pl->state == CS_I || pl_busy(ms, pl))
        return FALSE;
    private_evict(ms, c, pl);
    return TRUE;
}

/* The per-socket last-level caches: tag arrays with LRU (tags only: the data a socket's LLC
 * holds is the home's memory copy, valid for the socket while the directory's llc_valid bit
 * says so).  Inclusive: filling a private line touches its socket's LLC, and evicting an LLC
 * line back-invalidates every private copy on the socket.  A line a transaction pins is never
 * the victim; a set may over-fill while all its lines are pinned. */
#include "coherence/memsys_internal.h"

static gboolean llc_pinned(MemSys *ms, guint socket, uint64_t line)
{
    const DirEntry *d = dir_find(ms, line);
    for (guint i = 0; d && i < ms->cps; i++) {
        PrivLine *pl = dir_holder(d, socket * ms->cps + i);
        if (pl && pl_busy(ms, pl))
            return TRUE;
    }
    return FALSE;
}

/* Entry i of `set` leaves socket `socket`'s LLC, and with it every private copy on the socket. */
static void llc_evict(MemSys *ms, guint socket, LlcSet *set, guint i)
{
    uint64_t victim = set->l[i].line;
    set->l[i] = set->l[--set->n];
    DirEntry *d = dir_get(ms, victim);
    d->llc_valid &= ~(1ull << socket);
    for (guint k = 0; k < ms->cps; k++) {
        CoreCaches *c = &ms->cores[socket * ms->cps + k];
        PrivLine *pl = dir_holder(d, c->id);
        if (pl && pl->state != CS_I && coh_cache_state_stable(pl->state)) {
            ms->stats.back_invalidations++;
            private_evict(ms, c, pl);
        }
    }
}

/* Inclusive LLC: a line a core fills is in its socket's LLC; evicting one removes it from
 * every private hierarchy on that socket. */
void llc_touch(MemSys *ms, guint socket, uint64_t line)
{
    LlcSet *set = set_table_get(&ms->llc[socket], line_index(ms, line) % ms->llc_sets);
    static const guint32 LRU_STEP = 1;
    guint32 now = 0;
    for (guint i = 0; i < set->n; i++)
        now = MAX(now, set->l[i].lru);
    now += LRU_STEP;
    for (guint i = 0; i < set->n; i++)
        if (set->l[i].line == line) {
            set->l[i].lru = now;
            return;
        }
    while (set->n >= ms->llc_ways) {
        gint best = -1;
        for (guint i = 0; i < set->n; i++)
            if (!llc_pinned(ms, socket, set->l[i].line) && (best < 0 || set->l[i].lru < set->l[best].lru))
                best = (gint)i;
        if (best < 0)
            break; /* all pinned: over-fill this set for now */
        llc_evict(ms, socket, set, (guint)best);
    }
    if (set->n == set->cap) {
        set->cap = set->cap ? set->cap * 2 : ms->llc_ways + 1;
        set->l = g_renew(LlcLine, set->l, set->cap);
    }
    set->l[set->n++] = (LlcLine){ line, now };
}

gboolean llc_has(const MemSys *ms, guint socket, uint64_t line)
{
    const LlcSet *set = set_table_find(&ms->llc[socket], line_index(ms, line) % ms->llc_sets);
    for (guint i = 0; set && i < set->n; i++)
        if (set->l[i].line == line)
            return TRUE;
    return FALSE;
}

gboolean memsys_llc_drop(MemSys *ms, guint socket, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    LlcSet *set = set_table_find(&ms->llc[socket], line_index(ms, line) % ms->llc_sets);
    for (guint i = 0; set && i < set->n; i++)
        if (set->l[i].line == line) {
            if (llc_pinned(ms, socket, line))
                return FALSE;
            llc_evict(ms, socket, set, i);
            return TRUE;
        }
    return FALSE;
}

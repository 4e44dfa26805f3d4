/* The home's directory: one entry per line ever touched (state, owner, sharer bits, the
 * memory copy and the golden copy, per-line counters), found by line address, and the FIFO in
 * which requests wait while their line is busy (the directory is blocking: one transaction per
 * line at a time).  The home controller (home_controller.c) decides what the entries become. */
#include "coherence/memsys_internal.h"

/* ======================================================================================
 * Entries
 * ====================================================================================== */

DirEntry *dir_get(MemSys *ms, uint64_t line)
{
    DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    if (d)
        return d;
    d = g_malloc0(sizeof(DirEntry) + ms->sharer_words * sizeof(guint64));
    d->line = line;
    d->state = ms->proto->dir_start;
    d->home = -1;
    d->f_socket = -1;
    d->owner = -1;
    d->req = -1;
    d->atomic_acc = NIL;
    d->q_head = d->q_tail = NIL;
    d->mem = g_malloc0(ms->line_size);
    d->golden = g_malloc0(ms->line_size);
    d->held = g_new0(PrivLine **, ms->sharer_words);
    g_hash_table_insert(ms->dir, &d->line, d);
    return d;
}

void dir_holder_set(DirEntry *d, guint core, PrivLine *pl)
{
    PrivLine ***g = &d->held[core / 64];
    if (!*g)
        *g = g_new0(PrivLine *, 64);
    (*g)[core % 64] = pl;
}

void dir_entry_free(MemSys *ms, DirEntry *d)
{
    for (guint w = 0; w < ms->sharer_words; w++) {
        if (!d->held[w])
            continue;
        for (guint i = 0; i < 64; i++)
            g_free(d->held[w][i]);
        g_free(d->held[w]);
    }
    g_free(d->held);
    g_free(d->mem);
    g_free(d->golden);
    g_free(d);
}

/* ======================================================================================
 * The FIFO of waiting requests
 * ====================================================================================== */

/* Queues request mi behind the others waiting for d's line. */
void dir_queue_push(MemSys *ms, DirEntry *d, gint32 mi)
{
    Msg *m = msg_at(ms, mi);
    m->enq = engine_now(ms->e);
    m->next = NIL;
    if (d->q_tail == NIL)
        d->q_head = mi;
    else
        msg_at(ms, d->q_tail)->next = mi;
    d->q_tail = mi;
}

/* Takes the oldest waiting request off the FIFO (which must not be empty). */
gint32 dir_queue_pop(MemSys *ms, DirEntry *d)
{
    gint32 mi = d->q_head;
    Msg *m = msg_at(ms, mi);
    d->q_head = m->next;
    if (d->q_head == NIL)
        d->q_tail = NIL;
    return mi;
}

/* ======================================================================================
 * Queries
 * ====================================================================================== */

CohDirState memsys_dir_state(const MemSys *ms, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = dir_find(ms, line);
    return d ? d->state : ms->proto->dir_start;
}

LineStats memsys_line_stats(const MemSys *ms, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = dir_find(ms, line);
    return d ? d->st : (LineStats){ 0 };
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

GArray *memsys_lines(const MemSys *ms)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, ms->dir);
    while (g_hash_table_iter_next(&it, &k, NULL))
        g_array_append_val(out, *(uint64_t *)k);
    g_array_sort(out, cmp_u64);
    return out;
}

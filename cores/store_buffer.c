/* The store buffer: a ring in program order.  A store takes an entry at dispatch, fills in its
 * address and data when it executes, is committed at retirement and drains to the L1 through
 * the port (MEM_STORE, line in M).  x86 drains in order, one store at a time, so stores become
 * visible in program order (TSO).  arm64 may drain a store ahead of an older one to another
 * line within one epoch; a release store or a store-ordering fence starts a new epoch. */
#include "cores/core_internal.h"
#include "cores/isa/isa_exec.h"

static inline SbEntry *sb_at(Core *c, guint i) { return &c->sb[ring_at(c->sb_head, i, c->sb_size)]; }

void sb_init(Core *c)
{
    c->sb_size = (guint)c->cfg->core.store_buffer;
    c->sb = g_new0(SbEntry, c->sb_size);
}

SbEntry *sb_alloc(Core *c, uint64_t seq, guint *slot)
{
    g_assert(c->sb_count < c->sb_size);
    *slot = ring_at(c->sb_head, c->sb_count, c->sb_size);
    SbEntry *s = sb_at(c, c->sb_count++);
    *s = (SbEntry){ .seq = seq };
    return s;
}

/* Squashed stores were never committed: they sit at the tail. */
void sb_truncate_from(Core *c, uint64_t seq)
{
    while (c->sb_count > c->sb_ncommit && sb_at(c, c->sb_count - 1)->seq >= seq)
        c->sb_count--;
}

void sb_commit(Core *c, uint64_t seq, gboolean release)
{
    SbEntry *s = sb_at(c, c->sb_ncommit);
    g_assert(c->sb_ncommit < c->sb_count && s->seq == seq);
    if (release)
        c->sb_epoch++;
    s->release = release;
    s->epoch = c->sb_epoch;
    s->committed = TRUE;
    c->sb_ncommit++;
    core_trace_mem(c, CORE_TRACE_SB_COMMIT, seq, s->pc, s->addr, s->data);
}

void sb_bump_epoch(Core *c)
{
    c->sb_epoch++;
}

int sb_forward(Core *c, uint64_t seq, uint64_t addr, unsigned size, uint64_t *value)
{
    for (guint i = c->sb_count; i-- > 0;) {
        const SbEntry *s = sb_at(c, i);
        if (s->seq >= seq || s->drained)
            continue;
        if (!s->addr_known)
            return -1;
        if (s->addr >= addr + size || addr >= s->addr + s->size)
            continue;
        if (!(s->addr <= addr && addr + size <= s->addr + s->size) || !s->data_known)
            return -1;
        *value = isa_truncate(s->data >> (8 * (addr - s->addr)), size);
        return 1;
    }
    return 0;
}

gboolean sb_has_line(Core *c, uint64_t line)
{
    for (guint i = 0; i < c->sb_ncommit; i++) {
        const SbEntry *s = sb_at(c, i);
        if (!s->drained && s->line == line)
            return TRUE;
    }
    return FALSE;
}

gboolean sb_has_release(Core *c, uint64_t before_seq)
{
    for (guint i = 0; i < c->sb_count; i++) {
        const SbEntry *s = sb_at(c, i);
        if (s->seq >= before_seq)
            break;
        if (!s->drained && s->release)
            return TRUE;
    }
    return FALSE;
}

static void sb_issue(Core *c, SbEntry *s, guint i)
{
    s->issued = TRUE;
    s->req_id = core_new_req(c);
    MemRequest r = { .kind = MEM_STORE, .addr = s->addr, .size = s->size, .value = s->data,
                     .tag = tag_make(s->req_id, TRUE, ring_at(c->sb_head, i, c->sb_size)), .pc = s->pc };
    core_issue(c, &r);
}

gboolean sb_may_drain(const Core *c)
{
    for (guint i = 0; i < c->sb_ncommit; i++)
        if (!c->sb[ring_at(c->sb_head, i, c->sb_size)].issued)
            return TRUE;
    return FALSE;
}

/* Issues what may drain now; returns whether anything was issued. */
gboolean sb_drain(Core *c)
{
    if (c->sb_ncommit == 0)
        return FALSE;
    if (c->x86) {
        SbEntry *s = sb_at(c, 0);
        if (s->issued)
            return FALSE;
        sb_issue(c, s, 0);
        return TRUE;
    }
    gboolean any = FALSE;
    for (guint i = 0; i < c->sb_ncommit; i++) {
        SbEntry *s = sb_at(c, i);
        if (s->issued)
            continue;
        gboolean ok = TRUE;
        for (guint j = 0; j < i && ok; j++) {
            const SbEntry *o = sb_at(c, j);
            if (!o->drained && (o->epoch != s->epoch || o->line == s->line))
                ok = FALSE;
        }
        if (ok) {
            sb_issue(c, s, i);
            any = TRUE;
        }
    }
    return any;
}

void sb_store_done(Core *c, guint slot, uint64_t req_id)
{
    SbEntry *s = &c->sb[slot];
    g_assert(s->issued && !s->drained && s->req_id == req_id);
    s->drained = TRUE;
    c->st.stores_drained++;
    core_trace_mem(c, CORE_TRACE_SB_DRAIN, s->seq, s->pc, s->addr, s->data);
    while (c->sb_ncommit && c->sb[c->sb_head].drained) {
        c->sb_head = ring_at(c->sb_head, 1, c->sb_size);
        c->sb_count--;
        c->sb_ncommit--;
    }
}

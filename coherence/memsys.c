/* The memory system: caches, directory, interconnect and backing store (see memsys.h).
 *
 * Sections: pools and lookups; topology and latency parts; messages; private caches and the
 * LLC; the cache controller; the home controller; the port; checking; statistics. */
#include <string.h>
#include "coherence/memsys.h"

#define HOME (-1)
#define NO_LINE G_MAXUINT64
#define NIL (-1)

/* ======================================================================================
 * Types
 * ====================================================================================== */

/* An access from a core, from memsys_issue() until `done`.  Pool slot; `next` links the MSHR
 * wait queue of a line, or the free list. */
typedef struct {
    MemRequest req;
    guint core;
    Cycle issued;
    MemSource src;
    gboolean missed;            /* it waited for a transaction */
    gint32 next;
} Access;

/* A line in a core's private hierarchy (any state but I).  Invariant: in_l1 implies the line
 * is in the L1 tag array (and, with an L2, in_l2); a transient line may be in no array (it is
 * then only in the core's MSHR table `lines`). */
typedef struct PrivLine {
    uint64_t line;              /* key of Core.lines */
    guint8 state;               /* CohCacheState */
    gboolean in_l1, in_l2;
    gboolean data_in;           /* the response of the own transaction has arrived */
    gint acks;                  /* acks still expected (negative: arrived before the count) */
    Cycle held_until;           /* an atomic's hold_cycles: snoops wait until then */
    gboolean snoop_waiting;     /* a snoop waits for held_until: later atomics do not extend it */
    MemSource src;              /* where the last fill came from */
    gint32 wait_head, wait_tail;/* accesses waiting for this line (Access indices) */
    struct PrivLine *free_next;
    guint8 data[];
} PrivLine;

typedef struct {
    uint64_t line;              /* NO_LINE: empty */
    PrivLine *pl;
    guint32 lru;
} Way;

typedef struct {
    guint sets, ways;
    Way *w;
    guint32 clock;
} TagArray;

typedef struct {
    uint64_t line;
    guint32 lru;
} LlcLine;

/* An LLC set may exceed `ways` briefly when every line in it is pinned by a transaction. */
typedef struct {
    LlcLine *l;
    guint n, cap;
} LlcSet;

typedef struct {
    guint id, socket, local;
    PortClient client;
    void *obj;
    TagArray l1, l2;
    GHashTable *lines;          /* uint64 line -> PrivLine*: every line not in I */
} Core;

/* A message in flight or queued at a home.  Pool slot; data is a line buffer owned by it. */
typedef struct {
    guint8 type;                /* MsgType */
    gboolean has_data, excl;
    guint8 source;              /* MemSource of data */
    gint src, dst, req;         /* cores, or HOME */
    uint64_t line;
    gint acks;
    gint32 acc;                 /* far atomic: the access */
    Cycle not_before;           /* broadcast snoops: data may not complete earlier */
    Cycle enq;                  /* when it joined the home FIFO */
    gint32 next;                /* home FIFO link or free list */
    guint8 *data;
} Msg;

/* The home's record of a line: directory state, FIFO of waiting requests, memory contents and
 * the golden copy (the value of the last performed store, for checking).  Invariant: owner is
 * not among the sharers; state is transient exactly while a transaction is in flight. */
typedef struct {
    uint64_t line;
    guint8 state;               /* CohDirState */
    gint owner;                 /* core or -1 */
    guint nsharers;
    gint req;                   /* requester of the transaction in flight */
    gint acks;                  /* far atomic: acks still expected */
    gint32 atomic_acc;
    gint32 q_head, q_tail;      /* queued Msg indices */
    guint64 llc_valid;          /* bit s: socket s's LLC holds memory's current data */
    gint home;                  /* home socket, fixed at the first access; -1 before it */
    LineStats st;
    guint8 *mem, *golden;
    guint64 sharers[];
} DirEntry;

struct MemSys {
    QsimConfig cfgv;            /* copied scalars (strings not used) */
    const QsimConfig *cfg;
    Engine *e;
    const CohProtocol *proto;
    CohRow *cache_rows, *dir_rows;           /* own copies: overridable per MemSys */
    gint16 cache_lut[CS__N][CE__N], dir_lut[DS__N][DE__N];
    guint ncores, nsockets, cps, nslices, line_shift, line_size, sharer_words;
    Core *cores;
    LlcSet *llc;                /* nsockets * llc_sets */
    guint llc_sets, llc_ways;
    guint64 *sock_cost;
    guint *sock_hops;
    GHashTable *dir;            /* uint64 line -> DirEntry* */
    GArray *acc;                /* Access */
    gint32 acc_free;
    GArray *msg;                /* Msg */
    gint32 msg_free;
    PrivLine *pl_free;
    MemStats stats;
    gboolean check;
    GString *violation;         /* first invariant violation */
    guint64 n_violations;
    void (*trace)(void *user, guint core, uint64_t line, const char *row);
    void *trace_user;
};

/* ======================================================================================
 * Pools and lookups
 * ====================================================================================== */

static inline uint64_t line_of(const MemSys *ms, uint64_t addr) { return addr & ~(uint64_t)(ms->line_size - 1); }
static inline uint64_t line_index(const MemSys *ms, uint64_t line) { return line >> ms->line_shift; }

static gint32 acc_new(MemSys *ms)
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
static inline Access *acc_at(MemSys *ms, gint32 i) { return &g_array_index(ms->acc, Access, i); }
static void acc_release(MemSys *ms, gint32 i)
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
static inline Msg *msg_at(MemSys *ms, gint32 i) { return &g_array_index(ms->msg, Msg, i); }
static void msg_release(MemSys *ms, gint32 i)
{
    msg_at(ms, i)->next = ms->msg_free;
    ms->msg_free = i;
}

static PrivLine *pl_new(MemSys *ms, Core *c, uint64_t line)
{
    PrivLine *pl = ms->pl_free;
    if (pl)
        ms->pl_free = pl->free_next;
    else
        pl = g_malloc(sizeof(PrivLine) + ms->line_size);
    memset(pl, 0, sizeof(PrivLine));
    pl->line = line;
    pl->wait_head = pl->wait_tail = NIL;
    g_hash_table_insert(c->lines, &pl->line, pl);
    return pl;
}
static void pl_release(MemSys *ms, Core *c, PrivLine *pl)
{
    g_hash_table_remove(c->lines, &pl->line);
    pl->free_next = ms->pl_free;
    ms->pl_free = pl;
}
static inline PrivLine *pl_find(const Core *c, uint64_t line) { return g_hash_table_lookup(c->lines, &line); }

static DirEntry *dir_get(MemSys *ms, uint64_t line)
{
    DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    if (d)
        return d;
    d = g_malloc0(sizeof(DirEntry) + ms->sharer_words * sizeof(guint64));
    d->line = line;
    d->home = -1;
    d->owner = -1;
    d->req = -1;
    d->atomic_acc = NIL;
    d->q_head = d->q_tail = NIL;
    d->mem = g_malloc0(ms->line_size);
    d->golden = g_malloc0(ms->line_size);
    g_hash_table_insert(ms->dir, &d->line, d);
    return d;
}
static void dir_entry_free(gpointer p)
{
    DirEntry *d = p;
    g_free(d->mem);
    g_free(d->golden);
    g_free(d);
}
static inline gboolean is_sharer(const DirEntry *d, gint c) { return c >= 0 && (d->sharers[c / 64] >> (c % 64)) & 1; }
static inline void sharer_add(DirEntry *d, gint c)
{
    if (!is_sharer(d, c)) {
        d->sharers[c / 64] |= 1ull << (c % 64);
        d->nsharers++;
    }
}
static inline void sharer_remove(DirEntry *d, gint c)
{
    if (is_sharer(d, c)) {
        d->sharers[c / 64] &= ~(1ull << (c % 64));
        d->nsharers--;
    }
}

/* ======================================================================================
 * Topology and latency parts
 * ====================================================================================== */

static guint stop_distance(const MemSys *ms, guint a, guint b)
{
    switch (ms->cfg->topology.ondie) {
    case ONDIE_RING: {
        guint d = a > b ? a - b : b - a;
        return MIN(d, ms->cps - d);
    }
    case ONDIE_MESH: {
        guint w = 1;
        while (w * w < ms->cps)
            w++;
        guint ax = a % w, ay = a / w, bx = b % w, by = b / w;
        return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
    }
    case ONDIE_CROSSBAR:
    default:
        return 0;
    }
}
static inline guint slice_stop(const MemSys *ms, uint64_t line)
{
    guint k = (guint)(line_index(ms, line) % ms->nslices);
    return (guint)((guint64)k * ms->cps / ms->nslices);
}
guint memsys_ondie_distance(const MemSys *ms, guint core, uint64_t addr)
{
    return stop_distance(ms, ms->cores[core].local, slice_stop(ms, line_of(ms, addr)));
}
guint memsys_core_distance(const MemSys *ms, guint a, guint b)
{
    return stop_distance(ms, ms->cores[a].local, ms->cores[b].local);
}
/* memory.home: interleave puts line i on socket i mod S; first-touch puts a line on the socket of
 * the core that first accesses it (Linux's default local allocation), fixed from then on. */
guint memsys_home_socket(const MemSys *ms, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    if (d && d->home >= 0)
        return (guint)d->home;
    return (guint)(line_index(ms, line) % ms->nsockets);
}
guint memsys_core_socket(const MemSys *ms, guint core) { return ms->cores[core].socket; }
guint64 memsys_socket_cycles(const MemSys *ms, guint a, guint b) { return ms->sock_cost[a * ms->nsockets + b]; }
guint memsys_socket_hops(const MemSys *ms, guint a, guint b) { return ms->sock_hops[a * ms->nsockets + b]; }

/* Socket graph: hop counts by BFS over the links, cost per hop from the config. */
static void build_sockets(MemSys *ms)
{
    guint n = ms->nsockets;
    const QsimConfig *c = ms->cfg;
    ms->sock_cost = g_new0(guint64, n * n);
    ms->sock_hops = g_new0(guint, n * n);
    /* twisted 3-cube: a 3-cube with one face's dimension-1 links crossed: diameter 2 */
    static const guint8 twisted[8][3] = {
        { 1, 2, 4 }, { 0, 3, 5 }, { 0, 3, 6 }, { 1, 2, 7 },
        { 0, 5, 7 }, { 1, 4, 6 }, { 2, 5, 7 }, { 3, 4, 6 },
    };
    for (guint a = 0; a < n; a++)
        for (guint b = 0; b < n; b++) {
            guint hops = 0;
            guint64 cost = 0;
            if (a == b) {
                /* nothing */
            } else if (c->topology.socket_links == SOCKETS_FULL) {
                hops = 1;
                cost = c->topology.socket_hop_cycles;
            } else if (c->topology.socket_links == SOCKETS_RING) {
                guint d = a > b ? a - b : b - a;
                hops = MIN(d, n - d);
                cost = hops * (guint64)c->topology.socket_hop_cycles;
            } else if (c->topology.socket_links == SOCKETS_TWISTED_HYPERCUBE) {
                hops = 2;
                for (guint i = 0; i < 3; i++)
                    if (twisted[a][i] == b)
                        hops = 1;
                cost = hops * (guint64)c->topology.socket_hop_cycles;
            } else { /* mcm-pairs: dies 2k, 2k+1 share a package; equal parity dies are linked */
                if (a / 2 == b / 2) {
                    hops = 1;
                    cost = c->topology.package_hop_cycles;
                } else if (a % 2 == b % 2) {
                    hops = 1;
                    cost = c->topology.socket_hop_cycles;
                } else {
                    hops = 2;
                    cost = c->topology.socket_hop_cycles + c->topology.package_hop_cycles;
                }
            }
            ms->sock_hops[a * n + b] = hops;
            ms->sock_cost[a * n + b] = cost;
        }
}

static inline Cycle hop(const MemSys *ms) { return (Cycle)ms->cfg->topology.ondie_hop_cycles; }

/* One way between a core and the home slice of `line` (possibly on another socket). */
static Cycle route_core_home(const MemSys *ms, gint core, uint64_t line)
{
    const Core *c = &ms->cores[core];
    guint h = memsys_home_socket(ms, line);
    return stop_distance(ms, c->local, slice_stop(ms, line)) * hop(ms) + memsys_socket_cycles(ms, c->socket, h);
}
static Cycle route_core_core(const MemSys *ms, gint a, gint b, uint64_t line)
{
    if (a == HOME)
        return route_core_home(ms, b, line);
    if (b == HOME)
        return route_core_home(ms, a, line);
    const Core *ca = &ms->cores[a], *cb = &ms->cores[b];
    if (ca->socket == cb->socket)
        return stop_distance(ms, ca->local, cb->local) * hop(ms);
    guint k = slice_stop(ms, line);
    return stop_distance(ms, ca->local, k) * hop(ms) + memsys_socket_cycles(ms, ca->socket, cb->socket) +
           stop_distance(ms, k, cb->local) * hop(ms);
}
/* Whether the line is cached somewhere and only on socket s: the socket's inclusive LLC, whose
 * core-valid bits then name every holder, answers without snooping the other sockets (SOSP 2013
 * Table 2, Westmere-EX: a line in M on the same die loads in 109 cycles, not 289+). */
static gboolean held_only_on_socket(const MemSys *ms, uint64_t line, guint s)
{
    const DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    if (!d)
        return FALSE;
    gboolean any = FALSE;
    if (d->owner >= 0) {
        if (ms->cores[d->owner].socket != s)
            return FALSE;
        any = TRUE;
    }
    for (guint c = 0; c < ms->ncores; c++)
        if (is_sharer(d, (gint)c)) {
            if (ms->cores[c].socket != s)
                return FALSE;
            any = TRUE;
        }
    return any;
}

/* Broadcast snooping: the farthest socket's answer reaches the requester this long after
 * the home looked the line up. */
static Cycle broadcast_bound(const MemSys *ms, gint req, uint64_t line)
{
    if (ms->cfg->topology.cross_socket != XSOCKET_BROADCAST || ms->nsockets < 2 || req == HOME)
        return 0;
    guint h = memsys_home_socket(ms, line), s = ms->cores[req].socket;
    if (held_only_on_socket(ms, line, s))
        return 0;
    Cycle worst = 0;
    for (guint t = 0; t < ms->nsockets; t++)
        if (t != h)
            worst = MAX(worst, memsys_socket_cycles(ms, h, t) + memsys_socket_cycles(ms, t, s));
    return worst + stop_distance(ms, slice_stop(ms, line), ms->cores[req].local) * hop(ms);
}

/* ======================================================================================
 * Messages
 * ====================================================================================== */

static const char *const msg_names[MSG__N] = {
    "GetS", "GetM", "Upgrade", "PutS", "PutE", "PutM", "PutO", "Fwd-GetS", "Fwd-GetM", "Inv",
    "Inv-Ack", "Put-Ack", "Data(mem)", "Data(LLC)", "Data(c2c)", "AckCount", "Unblock",
    "CopyBack", "FarAtomic", "AtomicReply",
};
const char *memsys_msg_name(MsgType t) { return t < MSG__N ? msg_names[t] : "?"; }

static void deliver(void *obj, uint64_t arg);

static gint32 msg_send(MemSys *ms, MsgType type, gint src, gint dst, gint req, uint64_t line, Cycle delay)
{
    gint32 i = msg_new(ms);
    Msg *m = msg_at(ms, i);
    m->type = type;
    m->has_data = m->excl = FALSE;
    m->source = MEM_SRC_MEMORY;
    m->src = src;
    m->dst = dst;
    m->req = req;
    m->line = line;
    m->acks = 0;
    m->acc = NIL;
    m->not_before = 0;
    m->next = NIL;
    ms->stats.msgs[type]++;
    dir_get(ms, line)->st.msgs++;
    engine_schedule(ms->e, delay, deliver, ms, (uint64_t)i);
    return i;
}

/* ======================================================================================
 * Private caches and the LLC
 * ====================================================================================== */

static void tags_init(TagArray *t, const CacheConfig *cc, guint line_size)
{
    t->ways = (guint)cc->ways;
    t->sets = (guint)(cc->size / (cc->ways * line_size));
    t->w = g_new(Way, (gsize)t->sets * t->ways);
    for (gsize i = 0; i < (gsize)t->sets * t->ways; i++)
        t->w[i] = (Way){ NO_LINE, NULL, 0 };
}
static inline Way *tags_set(const MemSys *ms, const TagArray *t, uint64_t line)
{
    return &t->w[(line_index(ms, line) % t->sets) * t->ways];
}
static inline Way *tags_find(const MemSys *ms, const TagArray *t, uint64_t line)
{
    Way *s = tags_set(ms, t, line);
    for (guint i = 0; i < t->ways; i++)
        if (s[i].line == line)
            return &s[i];
    return NULL;
}
static void tags_remove(const MemSys *ms, TagArray *t, uint64_t line)
{
    Way *w = tags_find(ms, t, line);
    if (w)
        *w = (Way){ NO_LINE, NULL, 0 };
}

static void apply_cache_event(MemSys *ms, Core *c, uint64_t line, PrivLine *pl, CohCacheEvent ev,
                              gint32 mi, gint32 ai);

static inline gboolean pl_busy(const MemSys *ms, const PrivLine *pl)
{
    return !coh_cache_state_stable(pl->state) || pl->held_until > engine_now(ms->e);
}

/* Replacement of a stable line from the private hierarchy (capacity, or the LLC's
 * back-invalidation): the core hears LINE_EVICTED, the table sends the Put. */
static void evict_private(MemSys *ms, Core *c, PrivLine *pl)
{
    if (pl->in_l1 && c->client.line_lost)
        c->client.line_lost(c->obj, pl->line, LINE_EVICTED);
    ms->stats.evictions++;
    apply_cache_event(ms, c, pl->line, pl, CE_REPLACEMENT, NIL, NIL);
}

/* A way for `line` in t: an empty one, else the LRU line that is not busy.  NULL: none free. */
static Way *tags_victim(MemSys *ms, TagArray *t, uint64_t line, gboolean any)
{
    Way *s = tags_set(ms, t, line), *best = NULL;
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

static void llc_touch(MemSys *ms, guint socket, uint64_t line);

/* The line has data in a stable state: place it in the arrays, evicting as needed. */
static void private_fill(MemSys *ms, Core *c, PrivLine *pl)
{
    gboolean has_l2 = ms->cfg->l2_enabled;
    if (has_l2 && !pl->in_l2) {
        Way *w = tags_victim(ms, &c->l2, pl->line, FALSE);
        if (!w)
            return; /* every way busy: the line stays in the MSHR until a later fill */
        if (w->line != NO_LINE)
            evict_private(ms, c, w->pl);
        *w = (Way){ pl->line, pl, ++c->l2.clock };
        pl->in_l2 = TRUE;
    }
    if (!pl->in_l1) {
        Way *w = tags_victim(ms, &c->l1, pl->line, has_l2);
        if (w) {
            if (w->line != NO_LINE) {
                if (has_l2) {
                    PrivLine *v = w->pl;
                    if (c->client.line_lost)
                        c->client.line_lost(c->obj, v->line, LINE_EVICTED);
                    v->in_l1 = FALSE;
                    *w = (Way){ NO_LINE, NULL, 0 };
                } else {
                    evict_private(ms, c, w->pl);
                }
            }
            *w = (Way){ pl->line, pl, ++c->l1.clock };
            pl->in_l1 = TRUE;
        }
    }
    llc_touch(ms, c->socket, pl->line);
}

static void private_leave(MemSys *ms, Core *c, PrivLine *pl)
{
    if (pl->in_l1)
        tags_remove(ms, &c->l1, pl->line);
    if (pl->in_l2)
        tags_remove(ms, &c->l2, pl->line);
    pl->in_l1 = pl->in_l2 = FALSE;
}

static gboolean llc_pinned(MemSys *ms, guint socket, uint64_t line)
{
    for (guint i = 0; i < ms->cps; i++) {
        PrivLine *pl = pl_find(&ms->cores[socket * ms->cps + i], line);
        if (pl && pl_busy(ms, pl))
            return TRUE;
    }
    return FALSE;
}

/* Inclusive LLC: a line a core fills is in its socket's LLC; evicting one removes it from
 * every private hierarchy on that socket. */
static void llc_touch(MemSys *ms, guint socket, uint64_t line)
{
    LlcSet *set = &ms->llc[socket * ms->llc_sets + line_index(ms, line) % ms->llc_sets];
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
        uint64_t victim = set->l[best].line;
        set->l[best] = set->l[--set->n];
        DirEntry *d = dir_get(ms, victim);
        d->llc_valid &= ~(1ull << socket);
        for (guint i = 0; i < ms->cps; i++) {
            Core *c = &ms->cores[socket * ms->cps + i];
            PrivLine *pl = pl_find(c, victim);
            if (pl && pl->state != CS_I && coh_cache_state_stable(pl->state)) {
                ms->stats.back_invalidations++;
                evict_private(ms, c, pl);
            }
        }
    }
    if (set->n == set->cap) {
        set->cap = set->cap ? set->cap * 2 : ms->llc_ways + 1;
        set->l = g_renew(LlcLine, set->l, set->cap);
    }
    set->l[set->n++] = (LlcLine){ line, now };
}

static gboolean llc_has(const MemSys *ms, guint socket, uint64_t line)
{
    const LlcSet *set = &ms->llc[socket * ms->llc_sets + line_index(ms, line) % ms->llc_sets];
    for (guint i = 0; i < set->n; i++)
        if (set->l[i].line == line)
            return TRUE;
    return FALSE;
}

/* ======================================================================================
 * Performing accesses and checking values
 * ====================================================================================== */

static uint64_t bytes_get(const guint8 *p, guint size)
{
    uint64_t v = 0;
    for (guint i = 0; i < size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static void bytes_put(guint8 *p, guint size, uint64_t v)
{
    for (guint i = 0; i < size; i++)
        p[i] = (guint8)(v >> (8 * i));
}
static uint64_t size_mask(guint size) { return size >= 8 ? G_MAXUINT64 : ((1ull << (8 * size)) - 1); }

/* Applies an RMW; returns the new value. */
static uint64_t rmw_apply(const MemRequest *r, uint64_t old)
{
    uint64_t m = size_mask(r->size), v = r->value & m;
    switch (r->rmw) {
    case RMW_CAS: return old == (r->expected & m) ? v : old;
    case RMW_XCHG: return v;
    case RMW_ADD: return (old + v) & m;
    case RMW_OR: return old | v;
    case RMW_AND: return old & v;
    }
    return old;
}

static void violation(MemSys *ms, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void violation(MemSys *ms, const char *fmt, ...)
{
    ms->n_violations++;
    if (ms->violation->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(ms->violation, fmt, ap);
    va_end(ap);
    g_string_append_printf(ms->violation, " (cycle %" G_GUINT64_FORMAT ")", engine_now(ms->e));
}

/* Performs access `ai` on the bytes `data` (a cached line or memory) and calls `done`. */
static void perform(MemSys *ms, gint32 ai, guint8 *data, DirEntry *d)
{
    Access a = *acc_at(ms, ai);
    acc_release(ms, ai);
    guint off = (guint)(a.req.addr & (ms->line_size - 1));
    uint64_t old = bytes_get(data + off, a.req.size);
    if (ms->check || a.req.kind != MEM_LOAD) {
        uint64_t gold = bytes_get(d->golden + off, a.req.size);
        if (old != gold)
            violation(ms, "core %u read 0x%" G_GINT64_MODIFIER "x at 0x%" G_GINT64_MODIFIER
                      "x, the last store wrote 0x%" G_GINT64_MODIFIER "x", a.core, old, a.req.addr, gold);
    }
    if (a.req.kind == MEM_STORE || a.req.kind == MEM_RMW) {
        uint64_t nv = a.req.kind == MEM_STORE ? a.req.value & size_mask(a.req.size) : rmw_apply(&a.req, old);
        bytes_put(data + off, a.req.size, nv);
        bytes_put(d->golden + off, a.req.size, nv);
    }
    Core *c = &ms->cores[a.core];
    MemResponse r = { a.req.tag, old, a.src, a.issued, engine_now(ms->e) };
    if (c->client.done)
        c->client.done(c->obj, &r);
}

static void check_line(MemSys *ms, uint64_t line);

/* ======================================================================================
 * The cache controller
 * ====================================================================================== */

static const CohRow *cache_row(MemSys *ms, guint s, guint e)
{
    gint16 i = ms->cache_lut[s][e];
    if (i < 0)
        g_error("coherence (%s): no cache-table row for state %s and event %s", ms->proto->name,
                coh_cache_state_name(s), coh_cache_event_name(e));
    ms->stats.cache_rows_fired[i]++;
    return &ms->cache_rows[i];
}

static void wait_push(MemSys *ms, PrivLine *pl, gint32 ai)
{
    acc_at(ms, ai)->next = NIL;
    if (pl->wait_tail == NIL)
        pl->wait_head = ai;
    else
        acc_at(ms, pl->wait_tail)->next = ai;
    pl->wait_tail = ai;
}

static gboolean access_attempt(MemSys *ms, gint32 ai);

static void send_put(MemSys *ms, Core *c, PrivLine *pl, MsgType t, gboolean data)
{
    gint32 i = msg_send(ms, t, (gint)c->id, HOME, (gint)c->id, pl->line, route_core_home(ms, (gint)c->id, pl->line));
    if (data) {
        Msg *m = msg_at(ms, i);
        m->has_data = TRUE;
        memcpy(m->data, pl->data, ms->line_size);
    }
}

/* Runs the row for (state of the line, ev).  mi: the message that caused it (or NIL);
 * ai: the access (for Load/Store).  pl may be NULL (state I). */
static void apply_cache_event(MemSys *ms, Core *c, uint64_t line, PrivLine *pl, CohCacheEvent ev,
                              gint32 mi, gint32 ai)
{
    guint state = pl ? pl->state : CS_I;
    const CohRow *row = cache_row(ms, state, ev);
    guint32 a = row->actions;
    gint me = (gint)c->id;
    if (ms->trace) {
        g_autofree char *t = coh_row_text(row, FALSE);
        ms->trace(ms->trace_user, c->id, line, t);
    }
    if (a & CA_STALL) {
        g_assert(pl && ai != NIL);
        wait_push(ms, pl, ai);
        return;
    }
    if (!pl && row->next != CS_I)
        pl = pl_new(ms, c, line);
    Msg *m = mi != NIL ? msg_at(ms, mi) : NULL;
    if (a & CA_HIT) {
        pl->state = row->next;
        perform(ms, ai, pl->data, dir_get(ms, line));
    }
    if (a & (CA_SEND_GETS | CA_SEND_GETM | CA_SEND_UPGRADE)) {
        MsgType t = (a & CA_SEND_GETS) ? MSG_GETS : (a & CA_SEND_GETM) ? MSG_GETM : MSG_UPGRADE;
        if (t != MSG_GETS) {
            ms->stats.rfos++;
            dir_get(ms, line)->st.rfos++;
        }
        pl->data_in = FALSE;
        pl->acks = 0;
        msg_send(ms, t, me, HOME, me, line, route_core_home(ms, me, line));
        if (ai != NIL)
            wait_push(ms, pl, ai);
    }
    if (a & CA_SEND_PUTS) send_put(ms, c, pl, MSG_PUTS, FALSE);
    if (a & CA_SEND_PUTE) send_put(ms, c, pl, MSG_PUTE, FALSE);
    if (a & CA_SEND_PUTM) send_put(ms, c, pl, MSG_PUTM, TRUE);
    if (a & CA_SEND_PUTO) send_put(ms, c, pl, MSG_PUTO, TRUE);
    if (a & CA_DATA_TO_REQ) {
        gint req = m->req;
        Cycle delay = (Cycle)ms->cfg->topology.c2c_cycles + route_core_core(ms, me, req, line);
        gint32 di = msg_send(ms, MSG_DATA_C2C, me, req, req, line, delay);
        Msg *dm = msg_at(ms, di);
        m = msg_at(ms, mi); /* the pool may have moved */
        dm->has_data = TRUE;
        dm->acks = m->acks;
        dm->not_before = m->not_before;
        dm->source = (req != HOME && ms->cores[req].socket == c->socket) ? MEM_SRC_PEER_SAME_SOCKET
                                                                           : MEM_SRC_PEER_REMOTE_SOCKET;
        memcpy(dm->data, pl->data, ms->line_size);
        ms->stats.c2c_transfers++;
        dir_get(ms, line)->st.c2c_transfers++;
    }
    if (a & CA_COPYBACK) {
        gint32 di = msg_send(ms, MSG_COPYBACK, me, HOME, m->req, line, route_core_home(ms, me, line));
        Msg *dm = msg_at(ms, di);
        m = msg_at(ms, mi);
        dm->has_data = TRUE;
        memcpy(dm->data, pl->data, ms->line_size);
    }
    if (a & CA_ACK_TO_REQ)
        msg_send(ms, MSG_INV_ACK, me, m->req, m->req, line, route_core_core(ms, me, m->req, line));
    if (a & CA_SAVE_DATA) {
        if (m->has_data)
            memcpy(pl->data, m->data, ms->line_size);
        pl->acks += m->acks;
        pl->data_in = TRUE;
        pl->src = m->source;
    }
    if (a & CA_DEC_ACK)
        pl->acks--;
    if ((a & (CA_LOST_INV | CA_LOST_DOWN)) && pl->in_l1 && c->client.line_lost)
        c->client.line_lost(c->obj, line, (a & CA_LOST_INV) ? LINE_INVALIDATED : LINE_DOWNGRADED);
    if (a & (CA_LEAVE | CA_FREE))
        private_leave(ms, c, pl);
    if (pl)
        pl->state = row->next;
    if (a & CA_UNBLOCK)
        msg_send(ms, MSG_UNBLOCK, me, HOME, me, line, route_core_home(ms, me, line));
    gint32 waiters = NIL;
    if (a & CA_WAKE) {
        waiters = pl->wait_head;
        pl->wait_head = pl->wait_tail = NIL;
    }
    if (a & CA_FREE) {
        g_assert(row->next == CS_I);
        pl_release(ms, c, pl);
        pl = NULL;
    }
    if (pl && pl->state != CS_I && coh_cache_state_stable(pl->state) && !pl->in_l1 && !pl->in_l2)
        private_fill(ms, c, pl);
    if (ms->check)
        check_line(ms, line);
    /* Waiting accesses retry in order; once one has to wait again, the rest queue behind it. */
    while (waiters != NIL) {
        gint32 next = acc_at(ms, waiters)->next;
        if (!access_attempt(ms, waiters)) {
            PrivLine *p2 = pl_find(c, line);
            while (next != NIL) {
                gint32 n2 = acc_at(ms, next)->next;
                wait_push(ms, p2, next);
                next = n2;
            }
        }
        waiters = next;
    }
}

/* Tries access ai against its line now; TRUE if it was performed. */
static gboolean access_attempt(MemSys *ms, gint32 ai)
{
    Access *a = acc_at(ms, ai);
    Core *c = &ms->cores[a->core];
    uint64_t line = line_of(ms, a->req.addr);
    PrivLine *pl = pl_find(c, line);
    CohCacheEvent ev = a->req.kind == MEM_LOAD ? CE_LOAD : CE_STORE;
    guint state = pl ? pl->state : CS_I;
    gint16 ri = ms->cache_lut[state][ev];
    gboolean hit = ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT);
    if (!hit)
        a->missed = TRUE;
    else if (a->missed)
        a->src = pl->src; /* served by the fill it waited for */
    MemKind kind = a->req.kind;
    uint32_t hold = a->req.hold_cycles;
    apply_cache_event(ms, c, line, pl, ev, NIL, ai);
    if (hit && kind == MEM_RMW && hold) {
        /* The line is held for one locked op at a time: a snoop already waiting gets it when
         * the current hold ends, else a core spinning on locked ops would keep it forever. */
        pl = pl_find(c, line);
        if (!pl->snoop_waiting)
            pl->held_until = engine_now(ms->e) + hold;
    }
    return hit;
}

/* A cache receives message mi. */
static gboolean cache_receive(MemSys *ms, Core *c, gint32 mi)
{
    Msg *m = msg_at(ms, mi);
    uint64_t line = m->line;
    PrivLine *pl = pl_find(c, line);
    Cycle now = engine_now(ms->e);
    CohCacheEvent ev;
    switch (m->type) {
    case MSG_FWD_GETS: ev = CE_FWD_GETS; break;
    case MSG_FWD_GETM: ev = CE_FWD_GETM; break;
    case MSG_INV: ev = CE_INV; break;
    case MSG_PUT_ACK: ev = CE_PUT_ACK; break;
    case MSG_INV_ACK:
        ev = (pl && pl->data_in && pl->acks == 1) ? CE_LAST_INV_ACK : CE_INV_ACK;
        break;
    case MSG_DATA_MEM: case MSG_DATA_LLC: case MSG_DATA_C2C: case MSG_ACK_COUNT:
        if (m->not_before > now) { /* the farthest socket's snoop answer is not in yet */
            engine_schedule_at(ms->e, m->not_before, deliver, ms, (uint64_t)mi);
            return TRUE;
        }
        ev = m->excl ? CE_DATA_E : (pl && pl->acks + m->acks == 0) ? CE_DATA : CE_DATA_ACKS;
        break;
    case MSG_ATOMIC_REPLY: {
        /* far atomic: performed at the home; the value travels back here */
        Access *a = acc_at(ms, m->acc);
        MemResponse r = { a->req.tag, bytes_get(m->data, 8), MEM_SRC_HOME_ATOMIC,
                          a->issued, now };
        acc_release(ms, m->acc);
        if (c->client.done)
            c->client.done(c->obj, &r);
        return FALSE;
    }
    default:
        g_error("coherence: a cache received %s", memsys_msg_name(m->type));
    }
    if (ev == CE_FWD_GETS || ev == CE_FWD_GETM || ev == CE_INV) {
        if (pl && pl->held_until > now) { /* a locked RMW keeps the line for hold_cycles */
            ms->stats.hold_wait_cycles += pl->held_until - now;
            pl->snoop_waiting = TRUE;
            engine_schedule_at(ms->e, pl->held_until, deliver, ms, (uint64_t)mi);
            return TRUE;
        }
        if (pl)
            pl->snoop_waiting = FALSE;
        if (ev != CE_FWD_GETS) {
            ms->stats.inval_received[c->id]++;
            dir_get(ms, line)->st.invalidations++;
        }
    }
    apply_cache_event(ms, c, line, pl, ev, mi, NIL);
    return FALSE;
}

/* ======================================================================================
 * The home controller
 * ====================================================================================== */

static const CohRow *dir_row(MemSys *ms, guint s, guint e)
{
    gint16 i = ms->dir_lut[s][e];
    if (i < 0)
        g_error("coherence (%s): no directory-table row for state %s and event %s", ms->proto->name,
                coh_dir_state_name(s), coh_dir_event_name(e));
    ms->stats.dir_rows_fired[i]++;
    return &ms->dir_rows[i];
}

static gboolean is_request(MsgType t)
{
    return t == MSG_GETS || t == MSG_GETM || t == MSG_UPGRADE || t == MSG_PUTS || t == MSG_PUTE ||
           t == MSG_PUTM || t == MSG_PUTO || t == MSG_FAR_ATOMIC;
}

static CohDirEvent dir_classify(const DirEntry *d, const Msg *m)
{
    gint req = m->src;
    switch (m->type) {
    case MSG_GETS: return DE_GETS;
    case MSG_GETM: case MSG_UPGRADE:
        if ((d->state == DS_S && is_sharer(d, req)) || (d->state == DS_O && d->owner == req))
            return DE_UPGRADE;
        return DE_GETM;
    case MSG_FAR_ATOMIC: return DE_FAR_ATOMIC;
    case MSG_PUTS: case MSG_PUTE: case MSG_PUTM: case MSG_PUTO:
        if (d->owner == req) /* a clean owner (E, or O from E) has no data to write */
            return d->nsharers ? DE_PUTO : m->has_data ? DE_PUTM : DE_PUTE;
        if (is_sharer(d, req))
            return (d->nsharers == 1 && d->owner < 0) ? DE_PUTS_LAST : DE_PUTS;
        return DE_PUT_STALE;
    case MSG_UNBLOCK: return DE_UNBLOCK;
    case MSG_COPYBACK: return DE_COPYBACK;
    case MSG_DATA_C2C: return d->acks == 0 ? DE_DATA : DE_DATA_ACKS;
    case MSG_INV_ACK: return (d->state == DS_AT_A && d->acks == 1) ? DE_LAST_INV_ACK : DE_INV_ACK;
    default:
        g_error("coherence: the home received %s", memsys_msg_name(m->type));
    }
}

static void mem_written(MemSys *ms, DirEntry *d, gint writer)
{
    ms->stats.mem_writes++;
    d->st.mem_writes++;
    d->llc_valid = writer >= 0 ? 1ull << ms->cores[writer].socket : 0;
}

static void home_drain(MemSys *ms, DirEntry *d);

/* Runs the directory row for message mi (a request being processed, or a response). */
static void home_apply(MemSys *ms, DirEntry *d, gint32 mi)
{
    Msg *m = msg_at(ms, mi);
    CohDirEvent ev = dir_classify(d, m);
    const CohRow *row = dir_row(ms, d->state, ev);
    guint32 a = row->actions;
    uint64_t line = d->line;
    Cycle llc = (Cycle)ms->cfg->llc.latency;
    gboolean to_home = (a & DA_FWD_TO_HOME) != 0;
    gint req = is_request(m->type) ? m->src : d->req;
    gint target = to_home ? HOME : req;
    if (ms->trace) {
        g_autofree char *t = coh_row_text(row, TRUE);
        ms->trace(ms->trace_user, G_MAXUINT, line, t);
    }
    g_assert(!(a & DA_STALL)); /* the caller queues */
    Cycle nb = broadcast_bound(ms, target, line);
    Cycle not_before = nb ? engine_now(ms->e) + llc + nb : 0;
    gint ninv = 0;
    if (a & DA_INV_SHARERS) {
        for (guint x = 0; x < ms->ncores; x++)
            if (is_sharer(d, (gint)x) && (gint)x != target) {
                msg_send(ms, MSG_INV, HOME, (gint)x, target, line, llc + route_core_home(ms, (gint)x, line));
                ninv++;
            }
    }
    if (a & (DA_DATA_TO_REQ | DA_DATA_E_TO_REQ)) {
        gboolean from_llc = (d->llc_valid >> ms->cores[req].socket) & 1;
        Cycle proc = from_llc ? llc : (Cycle)ms->cfg->memory.latency;
        gint32 di = msg_send(ms, from_llc ? MSG_DATA_LLC : MSG_DATA_MEM, HOME, req, req, line,
                             proc + route_core_home(ms, req, line));
        Msg *dm = msg_at(ms, di);
        dm->has_data = TRUE;
        dm->excl = (a & DA_DATA_E_TO_REQ) != 0;
        dm->acks = ninv;
        dm->not_before = not_before;
        dm->source = from_llc ? MEM_SRC_LLC : MEM_SRC_MEMORY;
        memcpy(dm->data, d->mem, ms->line_size);
        if (from_llc)
            ms->stats.llc_hits++;
        else {
            ms->stats.llc_misses++;
            ms->stats.mem_reads++;
        }
        d->llc_valid |= 1ull << ms->cores[req].socket;
    }
    if (a & DA_ACKCOUNT_TO_REQ) {
        gint32 di = msg_send(ms, MSG_ACK_COUNT, HOME, req, req, line, llc + route_core_home(ms, req, line));
        Msg *dm = msg_at(ms, di);
        dm->acks = ninv;
        dm->not_before = not_before;
        dm->source = MEM_SRC_LLC; /* the requester had the data: only permission travels */
    }
    if (a & (DA_FWD_GETS | DA_FWD_GETM)) {
        g_assert(d->owner >= 0);
        gint32 fi = msg_send(ms, (a & DA_FWD_GETS) ? MSG_FWD_GETS : MSG_FWD_GETM, HOME, d->owner, target,
                             line, llc + route_core_home(ms, d->owner, line));
        Msg *fm = msg_at(ms, fi);
        fm->acks = ninv;
        fm->not_before = not_before;
    }
    m = msg_at(ms, mi);
    if (a & (DA_SET_OWNER_REQ | DA_DATA_TO_REQ | DA_ACKCOUNT_TO_REQ | DA_FWD_GETM) && !(a & DA_DATA_E_TO_REQ) &&
        ev != DE_GETS)
        d->llc_valid = 0; /* a writer is coming: every LLC copy will be stale */
    if (a & DA_OWNER_TO_SHARER) {
        sharer_add(d, d->owner);
        d->owner = -1;
    }
    if (a & DA_CLEAR_SHARERS) {
        memset(d->sharers, 0, ms->sharer_words * sizeof(guint64));
        d->nsharers = 0;
    }
    if (a & DA_CLEAR_OWNER)
        d->owner = -1;
    if (a & DA_ADD_REQ)
        sharer_add(d, req);
    if (a & DA_REMOVE_REQ)
        sharer_remove(d, req);
    if (a & DA_SET_OWNER_REQ)
        d->owner = req;
    if ((a & DA_WRITE_MEM) && m->has_data) {
        memcpy(d->mem, m->data, ms->line_size);
        mem_written(ms, d, m->src);
    }
    if (a & DA_PUT_ACK)
        msg_send(ms, MSG_PUT_ACK, HOME, req, req, line, route_core_home(ms, req, line));
    if (a & DA_SAVE_ACKS)
        d->acks = ninv;
    if (a & DA_DEC_ACK)
        d->acks--;
    if (is_request(m->type) && !coh_dir_state_stable(row->next)) {
        d->req = req;
        if (m->type == MSG_FAR_ATOMIC)
            d->atomic_acc = m->acc;
    }
    if (ev == DE_FAR_ATOMIC)
        d->atomic_acc = m->acc;
    if (a & DA_ATOMIC_REPLY) {
        /* performed on the home's copy: nobody else holds the line now */
        gint32 ai = d->atomic_acc;
        Access *acc = acc_at(ms, ai);
        guint core = acc->core;
        Cycle proc = d->state == DS_I ? (Cycle)ms->cfg->memory.latency : llc;
        if (d->state == DS_I)
            ms->stats.mem_reads++;
        guint off = (guint)(acc->req.addr & (ms->line_size - 1));
        uint64_t old = bytes_get(d->mem + off, acc->req.size);
        uint64_t gold = bytes_get(d->golden + off, acc->req.size);
        if (old != gold)
            violation(ms, "far atomic by core %u read 0x%" G_GINT64_MODIFIER "x, the last store wrote 0x%"
                      G_GINT64_MODIFIER "x", core, old, gold);
        uint64_t nv = rmw_apply(&acc->req, old);
        bytes_put(d->mem + off, acc->req.size, nv);
        bytes_put(d->golden + off, acc->req.size, nv);
        mem_written(ms, d, -1);
        gint32 ri = msg_send(ms, MSG_ATOMIC_REPLY, HOME, (gint)core, (gint)core, line,
                             proc + route_core_home(ms, (gint)core, line));
        Msg *rm = msg_at(ms, ri);
        rm->acc = ai;
        bytes_put(rm->data, 8, old);
        ms->stats.far_atomics++;
        d->atomic_acc = NIL;
    }
    gboolean was_busy = !coh_dir_state_stable(d->state);
    d->state = row->next;
    if (ms->check)
        check_line(ms, line);
    if (was_busy && coh_dir_state_stable(d->state))
        home_drain(ms, d);
}

/* A request is processed now, or joins the FIFO if the line is busy or others wait. */
static gboolean home_request(MemSys *ms, DirEntry *d, gint32 mi)
{
    Msg *m = msg_at(ms, mi);
    gboolean stall = d->q_head != NIL;
    if (!stall) {
        CohDirEvent ev = dir_classify(d, m);
        gint16 ri = ms->dir_lut[d->state][ev];
        stall = ri >= 0 && (ms->dir_rows[ri].actions & DA_STALL);
        if (stall)
            ms->stats.dir_rows_fired[ri]++;
    }
    if (stall) {
        m->enq = engine_now(ms->e);
        m->next = NIL;
        if (d->q_tail == NIL)
            d->q_head = mi;
        else
            msg_at(ms, d->q_tail)->next = mi;
        d->q_tail = mi;
        ms->stats.home_queued++;
        return TRUE;
    }
    home_apply(ms, d, mi);
    return FALSE;
}

/* The line went stable: serve the FIFO until a request makes it busy again. */
static void home_drain(MemSys *ms, DirEntry *d)
{
    while (d->q_head != NIL && coh_dir_state_stable(d->state)) {
        gint32 mi = d->q_head;
        Msg *m = msg_at(ms, mi);
        d->q_head = m->next;
        if (d->q_head == NIL)
            d->q_tail = NIL;
        Cycle waited = engine_now(ms->e) - m->enq;
        ms->stats.home_queue_cycles += waited;
        d->st.home_queue_cycles += waited;
        home_apply(ms, d, mi);
        msg_release(ms, mi);
    }
}

static void deliver(void *obj, uint64_t arg)
{
    MemSys *ms = obj;
    gint32 mi = (gint32)arg;
    Msg *m = msg_at(ms, mi);
    gboolean keep;
    if (m->dst == HOME) {
        DirEntry *d = dir_get(ms, m->line);
        if (is_request(m->type))
            keep = home_request(ms, d, mi);
        else {
            home_apply(ms, d, mi);
            keep = FALSE;
        }
    } else {
        keep = cache_receive(ms, &ms->cores[m->dst], mi);
    }
    if (!keep)
        msg_release(ms, mi);
}

/* ======================================================================================
 * The port
 * ====================================================================================== */

static void hit_event(void *obj, uint64_t arg)
{
    access_attempt(obj, (gint32)arg);
}

void memsys_issue(MemSys *ms, guint core, const MemRequest *req)
{
    g_assert(core < ms->ncores);
    g_assert(ms->cores[core].l1.w != NULL); /* memsys_attach first */
    g_assert(req->size == 1 || req->size == 2 || req->size == 4 || req->size == 8);
    g_assert((req->addr & (req->size - 1)) == 0);
    gint32 ai = acc_new(ms);
    Access *a = acc_at(ms, ai);
    a->req = *req;
    a->core = core;
    a->issued = engine_now(ms->e);
    a->src = MEM_SRC_L1;
    a->missed = FALSE;
    Core *c = &ms->cores[core];
    uint64_t line = line_of(ms, req->addr);
    DirEntry *home = dir_get(ms, line);
    if (home->home < 0)
        home->home = ms->cfg->memory.home == HOME_FIRST_TOUCH ? (gint)c->socket
                                                              : (gint)(line_index(ms, line) % ms->nsockets);
    if (req->kind == MEM_RMW && req->far) {
        gint32 mi = msg_send(ms, MSG_FAR_ATOMIC, (gint)core, HOME, (gint)core, line,
                             route_core_home(ms, (gint)core, line));
        msg_at(ms, mi)->acc = ai;
        a->src = MEM_SRC_HOME_ATOMIC;
        return;
    }
    CohCacheEvent ev = req->kind == MEM_LOAD ? CE_LOAD : CE_STORE;
    Way *w = tags_find(ms, &c->l1, line);
    if (w) {
        gint16 ri = ms->cache_lut[w->pl->state][ev];
        if (ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT)) {
            w->lru = ++c->l1.clock;
            ms->stats.l1_hits++;
            engine_schedule(ms->e, (Cycle)ms->cfg->l1.latency, hit_event, ms, (uint64_t)ai);
            return;
        }
    }
    ms->stats.l1_misses++;
    if (ms->cfg->l2_enabled) {
        Way *w2 = tags_find(ms, &c->l2, line);
        if (w2) {
            gint16 ri = ms->cache_lut[w2->pl->state][ev];
            if (ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT)) {
                w2->lru = ++c->l2.clock;
                ms->stats.l2_hits++;
                a->src = MEM_SRC_L2;
                private_fill(ms, c, w2->pl);
                engine_schedule(ms->e, (Cycle)ms->cfg->l2.latency, hit_event, ms, (uint64_t)ai);
                return;
            }
        }
        ms->stats.l2_misses++;
    }
    /* A miss (or an upgrade).  A line with permission but in no array (the MSHR overflow
     * case) still answers at L1 speed, from an event as the contract wants. */
    PrivLine *pl = pl_find(c, line);
    gint16 ri = ms->cache_lut[pl ? pl->state : CS_I][ev];
    if (ri >= 0 && (ms->cache_rows[ri].actions & CA_HIT)) {
        engine_schedule(ms->e, (Cycle)ms->cfg->l1.latency, hit_event, ms, (uint64_t)ai);
        return;
    }
    access_attempt(ms, ai);
}

gboolean memsys_l1_has(const MemSys *ms, guint core, uint64_t addr, gboolean need_write)
{
    const Way *w = tags_find(ms, &ms->cores[core].l1, line_of(ms, addr));
    if (!w)
        return FALSE;
    guint s = w->pl->state;
    if (need_write)
        return s == CS_M || s == CS_E;
    return s == CS_S || s == CS_E || s == CS_O || s == CS_M || s == CS_SM_AD || s == CS_SM_A ||
           s == CS_OM_AC || s == CS_OM_A;
}

/* ======================================================================================
 * Lifecycle
 * ====================================================================================== */

static void build_lut(gint16 *lut, guint nev, const CohRow *rows, guint n)
{
    for (guint i = 0; i < n; i++)
        lut[rows[i].state * nev + rows[i].event] = (gint16)i;
}

MemSys *memsys_new(const QsimConfig *cfg, Engine *e, GError **error)
{
    const CohProtocol *p = cfg->protocol == PROTO_MOESI ? &coh_moesi : &coh_mesi;
    if (!coh_protocol_check(p, error))
        return NULL;
    if (cfg->llc_slices > cfg->topology.cores_per_socket && cfg->topology.ondie != ONDIE_CROSSBAR) {
        g_set_error(error, COH_ERROR, COH_ERROR_CONFIG,
                    "llc.slices (%" G_GINT64_FORMAT ") exceeds the ring/mesh stops (cores per socket)",
                    cfg->llc_slices);
        return NULL;
    }
    MemSys *ms = g_new0(MemSys, 1);
    ms->cfgv = *cfg;
    ms->cfg = &ms->cfgv;
    ms->e = e;
    ms->proto = p;
    ms->cache_rows = g_memdup2(p->cache, p->n_cache * sizeof(CohRow));
    ms->dir_rows = g_memdup2(p->dir, p->n_dir * sizeof(CohRow));
    memset(ms->cache_lut, 0xff, sizeof ms->cache_lut);
    memset(ms->dir_lut, 0xff, sizeof ms->dir_lut);
    build_lut(&ms->cache_lut[0][0], CE__N, ms->cache_rows, p->n_cache);
    build_lut(&ms->dir_lut[0][0], DE__N, ms->dir_rows, p->n_dir);
    ms->ncores = config_total_cores(cfg);
    ms->nsockets = (guint)cfg->topology.sockets;
    ms->cps = (guint)cfg->topology.cores_per_socket;
    ms->nslices = cfg->llc_slices ? (guint)cfg->llc_slices : ms->cps;
    ms->line_size = (guint)cfg->line_size;
    ms->line_shift = (guint)g_bit_storage(ms->line_size) - 1;
    ms->sharer_words = (ms->ncores + 63) / 64;
    build_sockets(ms);
    ms->cores = g_new0(Core, ms->ncores);
    for (guint i = 0; i < ms->ncores; i++) {
        Core *c = &ms->cores[i];
        c->id = i;
        c->socket = i / ms->cps;
        c->local = i % ms->cps;
        c->lines = g_hash_table_new(g_int64_hash, g_int64_equal);
    }
    ms->llc_ways = (guint)cfg->llc.ways;
    ms->llc_sets = (guint)(cfg->llc.size / (cfg->llc.ways * ms->line_size));
    ms->llc = g_new0(LlcSet, (gsize)ms->nsockets * ms->llc_sets);
    ms->dir = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, dir_entry_free);
    ms->acc = g_array_new(FALSE, FALSE, sizeof(Access));
    ms->acc_free = NIL;
    ms->msg = g_array_new(FALSE, FALSE, sizeof(Msg));
    ms->msg_free = NIL;
    ms->stats.inval_received = g_new0(guint64, ms->ncores);
    ms->stats.cache_rows_fired = g_new0(guint64, p->n_cache);
    ms->stats.dir_rows_fired = g_new0(guint64, p->n_dir);
    ms->violation = g_string_new("");
    return ms;
}

void memsys_free(MemSys *ms)
{
    if (!ms)
        return;
    for (guint i = 0; i < ms->ncores; i++) {
        Core *c = &ms->cores[i];
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init(&it, c->lines);
        while (g_hash_table_iter_next(&it, NULL, &v))
            g_free(v);
        g_hash_table_destroy(c->lines);
        g_free(c->l1.w);
        g_free(c->l2.w);
    }
    while (ms->pl_free) {
        PrivLine *n = ms->pl_free->free_next;
        g_free(ms->pl_free);
        ms->pl_free = n;
    }
    for (guint i = 0; i < ms->nsockets * ms->llc_sets; i++)
        g_free(ms->llc[i].l);
    for (guint i = 0; i < ms->msg->len; i++)
        g_free(msg_at(ms, i)->data);
    g_array_free(ms->msg, TRUE);
    g_array_free(ms->acc, TRUE);
    g_hash_table_destroy(ms->dir);
    g_free(ms->llc);
    g_free(ms->cores);
    g_free(ms->sock_cost);
    g_free(ms->sock_hops);
    g_free(ms->cache_rows);
    g_free(ms->dir_rows);
    g_free(ms->stats.inval_received);
    g_free(ms->stats.cache_rows_fired);
    g_free(ms->stats.dir_rows_fired);
    g_string_free(ms->violation, TRUE);
    g_free(ms);
}

void memsys_attach(MemSys *ms, guint core, const PortClient *client, void *core_obj)
{
    g_assert(core < ms->ncores);
    Core *c = &ms->cores[core];
    if (!c->l1.w) {
        /* Tag arrays are made for the cores in use only: a 2-thread run on a 64-core model
         * should not pay for 62 idle cores' caches. */
        tags_init(&c->l1, &ms->cfg->l1, ms->line_size);
        if (ms->cfg->l2_enabled)
            tags_init(&c->l2, &ms->cfg->l2, ms->line_size);
    }
    ms->cores[core].client = *client;
    ms->cores[core].obj = core_obj;
}

/* ======================================================================================
 * Functional access, checking, statistics
 * ====================================================================================== */

uint64_t memsys_peek(const MemSys *ms, uint64_t addr, guint size)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    return d ? bytes_get(d->golden + (addr & (ms->line_size - 1)), size) : 0;
}

void memsys_poke(MemSys *ms, uint64_t addr, guint size, uint64_t value)
{
    uint64_t line = line_of(ms, addr);
    guint off = (guint)(addr & (ms->line_size - 1));
    DirEntry *d = dir_get(ms, line);
    bytes_put(d->golden + off, size, value);
    bytes_put(d->mem + off, size, value);
    for (guint i = 0; i < ms->ncores; i++) {
        PrivLine *pl = pl_find(&ms->cores[i], line);
        if (pl)
            bytes_put(pl->data + off, size, value);
    }
}

static gboolean can_read(guint s)
{
    return s == CS_S || s == CS_E || s == CS_O || s == CS_M || s == CS_SM_AD || s == CS_SM_A ||
           s == CS_OM_AC || s == CS_OM_A;
}

/* Single writer or many readers; every readable copy holds the last stored value. */
static void check_line(MemSys *ms, uint64_t line)
{
    guint writers = 0, readers = 0, owners = 0;
    const DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    for (guint i = 0; i < ms->ncores; i++) {
        const PrivLine *pl = pl_find(&ms->cores[i], line);
        if (!pl)
            continue;
        guint s = pl->state;
        if (s == CS_M || s == CS_E)
            writers++;
        else if (can_read(s))
            readers++;
        if (s == CS_O || s == CS_OM_AC || s == CS_OM_A)
            owners++;
        if (can_read(s) && d && memcmp(pl->data, d->golden, ms->line_size))
            violation(ms, "core %u holds line 0x%" G_GINT64_MODIFIER "x in %s with stale data", i, line,
                      coh_cache_state_name(s));
    }
    if (writers > 1 || (writers == 1 && readers > 0) || owners > 1)
        violation(ms, "line 0x%" G_GINT64_MODIFIER "x: %u cores in M/E, %u more readers, %u owners", line,
                  writers, readers, owners);
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

gboolean memsys_check_invariants(const MemSys *ms, GError **error)
{
    MemSys *mm = (MemSys *)ms; /* check_line records into the violation log */
    g_autoptr(GArray) lines = memsys_lines(ms);
    for (guint i = 0; i < lines->len; i++) {
        uint64_t line = g_array_index(lines, uint64_t, i);
        check_line(mm, line);
        /* inclusion: a stable private copy is in its socket's LLC */
        for (guint c = 0; c < ms->ncores; c++) {
            const PrivLine *pl = pl_find(&ms->cores[c], line);
            if (pl && (pl->in_l1 || pl->in_l2) && !llc_has(ms, ms->cores[c].socket, line))
                violation(mm, "line 0x%" G_GINT64_MODIFIER "x in core %u's caches but not in its LLC",
                          line, c);
        }
    }
    if (ms->violation->len) {
        g_set_error(error, COH_ERROR, COH_ERROR_INVARIANT, "%s (%" G_GUINT64_FORMAT " violations)",
                    ms->violation->str, ms->n_violations);
        return FALSE;
    }
    return TRUE;
}

void memsys_set_check(MemSys *ms, gboolean on) { ms->check = on; }
void memsys_set_trace(MemSys *ms, void (*fn)(void *, guint, uint64_t, const char *), void *user)
{
    ms->trace = fn;
    ms->trace_user = user;
}

const MemStats *memsys_stats(const MemSys *ms) { return &ms->stats; }

LineStats memsys_line_stats(const MemSys *ms, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    return d ? d->st : (LineStats){ 0 };
}

const CohProtocol *memsys_protocol(const MemSys *ms) { return ms->proto; }

CohCacheState memsys_cache_state(const MemSys *ms, guint core, uint64_t addr)
{
    const PrivLine *pl = pl_find(&ms->cores[core], line_of(ms, addr));
    return pl ? pl->state : CS_I;
}

CohDirState memsys_dir_state(const MemSys *ms, uint64_t addr)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = g_hash_table_lookup(ms->dir, &line);
    return d ? d->state : DS_I;
}

void memsys_override_cache_row(MemSys *ms, CohCacheState s, CohCacheEvent e, guint32 actions,
                               CohCacheState next)
{
    gint16 i = ms->cache_lut[s][e];
    g_assert(i >= 0);
    ms->cache_rows[i].actions = actions;
    ms->cache_rows[i].next = next;
}

/* The memory system's private state, shared by the files of coherence/ that each hold one idea
 * of it (memsys.h describes the model and the latency of each path):
 *   cache_tags.c        a core's private hierarchy: its lines, the L1/L2 tag arrays (LRU),
 *                       fills and replacement
 *   llc.c               the per-socket inclusive LLC tags and back-invalidation
 *   set_table.c         cache sets made when first touched (L1, L2 and LLC tags)
 *   directory.c         the home's directory entries, their FIFO of waiting requests, and
 *                       the per-line queries (state, counters, the list of lines)
 *   interconnect.c      socket topology, hop costs, on-die distance, routes, broadcast bound
 *   messages.c          the access and message pools; sending and delivering messages
 *   cache_controller.c  the port (accesses in, hits) and the cache table applied to a line
 *   home_controller.c   the directory table applied at a line's home
 *   home_arbiter.c      the order in which a home serves the requests of one cycle
 *   invariants.c        single writer / many readers, values, inclusion; the violation log
 *   memsys_trace.c      the trace hook: each row that fires, with the messages it sends
 *   bus.c               topology.interconnect bus: the arbiter, the phases of a transaction,
 *                       the snoop of each request by every cache and the memory
 *   bus_cache.c         the cache table applied by a snooping cache (a bus system's
 *                       apply_cache_event)
 *   bus_memory.c        the memory controller's table on a bus
 *   memsys_ff.c         what a fast-forwarding core needs: its hits from frozen lines, and
 *                       the arithmetic of k more periods of them
 *   memsys.c            the public API's glue: lifecycle, functional peek/poke, statistics;
 *                       the lookup of a row in the MemSys's own copy of the tables
 * Helpers called on every access or message are `static inline` here, so that the split costs
 * no speed.  Nothing outside coherence/ includes it. */
#ifndef QSIM_MEMSYS_INTERNAL_H
#define QSIM_MEMSYS_INTERNAL_H

#include <string.h>
#include "coherence/memsys.h"

#define HOME (-1)
#define BUS MEMSYS_BUS
#define NO_LINE G_MAXUINT64
#define NIL (-1)

/* ======================================================================================
 * Types
 * ====================================================================================== */

typedef struct DirEntry DirEntry;

/* An access from a core, from memsys_issue() until `done`.  Pool slot; `next` links the MSHR
 * wait queue of a line, or the free list. */
typedef struct {
    MemRequest req;
    DirEntry *dir;              /* its line's directory entry (stable: see DirEntry) */
    guint core;
    guint8 thread;              /* the issuing hardware thread of `core` (its CPU's thread index) */
    Cycle issued;
    MemSource src;
    gboolean missed;            /* it waited for a transaction */
    gboolean fast;              /* a load the L1 answered at issue (memsys_issue's hit path) */
    gboolean cancelled;         /* its hit event does nothing (fast-forward took it over) */
    gboolean deferred;          /* waits for the sibling thread's hold on its line (access_attempt) */
    Cycle done;                 /* a fast one: when its hit event runs */
    gint32 next;
} Access;

/* A line in a core's private hierarchy (any state but I).  Invariant: in_l1 implies the line
 * is in the L1 tag array (and, with an L2, in_l2); a transient line may be in no array (it is
 * then only in its DirEntry's `held`, which plays the MSHR table). */
typedef struct PrivLine {
    uint64_t line;
    DirEntry *dir;              /* the line's directory entry, which holds this record in
                                 * `held` (stable: see DirEntry) */
    guint8 state;               /* CohCacheState */
    gboolean in_l1, in_l2;
    gboolean data_in;           /* the response of the own transaction has arrived */
    gint acks;                  /* acks still expected (negative: arrived before the count) */
    Cycle held_until;           /* an atomic's hold_cycles: snoops wait until then, and so do the
                                 * accesses of the other hardware thread of the core */
    guint8 held_by;             /* the hardware thread whose atomic holds it */
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

/* A cache's sets, each made (empty) when first touched: a run touches a few lines, while a
 * config may describe a 64 GiB LLC, whose sets in full would outgrow the host (100 GB LLCs on
 * 64 sockets asked for 200 GB at once).  Memory follows the lines a run uses, never the
 * configured size; set indices are 64-bit (a 64 GiB LLC of 16-byte lines has 2^32 sets). */
typedef struct {
    uint64_t index;             /* the key */
    uint64_t data[];            /* the set, set_bytes long */
} SetSlot;

/* Every set made is in `sets`; a table of up to SET_TABLE_DIRECT_MAX sets (the L1s and L2s of
 * the shipped configs) also keeps a pointer per index, NULL until made, so that the lookup on
 * every access is an index, not a hash (which cost 4% of the detailed engine's host
 * instructions): 32 KiB at most per cache, whatever its configured size. */
#define SET_TABLE_DIRECT_MAX (1u << 12)
typedef struct {
    uint64_t nsets;
    gsize set_bytes;
    void (*init)(void *set, gsize set_bytes);   /* makes a new set empty; NULL: zeroed is empty */
    GHashTable *sets;           /* &SetSlot.index -> SetSlot* */
    SetSlot **direct;           /* [nsets] when nsets <= SET_TABLE_DIRECT_MAX, else NULL */
} SetTable;

typedef struct {
    uint64_t sets;
    guint ways;                 /* 0 until tags_init */
    SetTable t;                 /* of Way[ways] */
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

/* The most hardware threads a core has (topology.threads_per_core's maximum). */
#define MEMSYS_MAX_THREADS 2

/* One hardware thread's port client (client.done NULL: none attached). */
typedef struct {
    PortClient client;
    void *obj;
} PortThread;

/* The memory system's side of one core (not the core model of cores/): where it sits on the
 * die, the port clients it answers (one per hardware thread attached: they share the core's
 * caches and are one agent to the protocol), its private L1/L2 tag arrays and the records of
 * every line it holds (the MSHRs included).  MemSys.cores is indexed by core id. */
typedef struct {
    guint id, socket, local;    /* core id, its socket, its stop on the socket's die */
    PortThread thr[MEMSYS_MAX_THREADS];
    guint nthr;                 /* hardware threads attached */
    TagArray l1, l2;            /* the records of every line not in I are in their
                                 * DirEntry's `held` (dir_holder) */
    /* Fast-forward (memsys_ff.c): anything but an L1 load hit bumps the epoch; the hits are
     * counted at issue and, by the line's stable state, at completion. */
    guint64 ff_epoch, ff_hits;
    guint64 ff_done[CS_M + 1];
    GArray *ff_pending;         /* gint32 Access: the fast ones in flight, in issue order */
} CoreCaches;

/* A message in flight or queued at a home.  Pool slot; data is a line buffer owned by it. */
typedef struct {
    guint8 type;                /* MsgType */
    gboolean has_data, excl;
    guint8 source;              /* MemSource of data */
    gint src, dst, req;         /* cores, or HOME */
    uint64_t line;
    DirEntry *dir;              /* the line's directory entry (stable: see DirEntry) */
    gint acks;
    gint32 acc;                 /* far atomic: the access */
    Cycle not_before;           /* broadcast snoops: data may not complete earlier */
    Cycle enq;                  /* when it joined the home FIFO (0: it did not) */
    Cycle held_since;           /* a snoop: when it found its line held by a locked op (0: it did not) */
    gboolean looked_up;         /* a snoop: the private caches have looked its line up (cache_receive) */
    gint32 next;                /* home FIFO link or free list */
    guint8 *data;
    guint64 trace_id;           /* MemTraceMsg.id while tracing, else 0 */
} Msg;

/* The home's record of a line: directory state, FIFO of waiting requests, memory contents and
 * the golden copy (the value of the last performed store, for checking), and where each core's
 * record of the line is.  Invariant: owner is not among the sharers; state is transient exactly
 * while a transaction is in flight.
 *
 * An entry is made when its line is first touched and freed only with the MemSys (nothing
 * removes one from MemSys.dir, and each is its own allocation, so the table growing never
 * moves one): a pointer to it stays valid as long as anything that refers to the line lives.
 * So messages, accesses and private records carry their line's entry, and the paths run on
 * every message and miss reach it, and through `held` each core's record, without a lookup
 * by address (those lookups were about 3% of the detailed engine's host time; see
 * docs/performance.md). */
struct DirEntry {
    uint64_t line;
    guint8 state;               /* CohDirState */
    gint owner;                 /* core or -1 */
    guint nsharers;
    gint req;                   /* requester of the transaction in flight */
    gint acks;                  /* far atomic: acks still expected */
    gint32 atomic_acc;
    gint32 q_head, q_tail;      /* queued Msg indices */
    guint64 llc_valid;          /* bit s: socket s's LLC holds memory's current data */
    gint8 f_socket;             /* MESIF: the socket whose LLC forwards a clean shared copy, or -1 */
    gint home;                  /* home socket, fixed at the first access; -1 before it */
    LineStats st;
    guint8 *mem, *golden;
    /* Core c's record of the line (NULL: the line is I there) is held[c / 64][c % 64]; a group
     * of 64 is made when one of its cores first makes a record, so that memory follows the
     * cores that use the line, not the configured core count.  [sharer_words] groups.  Set by
     * pl_new, cleared by pl_release: exactly while the record lives. */
    PrivLine ***held;
    guint64 sharers[];
};

/* Tracing: the row that fired last, until its actions are done, and the messages it sent
 * (pool indices, with when each arrives).  Invariant: open only inside a row's actions. */
/* topology.interconnect bus: the arbiter and the transaction on the bus (coherence/bus.c). */
typedef struct Bus Bus;

typedef struct {
    gboolean open;
    MemTraceRow row;
    GArray *sent;               /* MemTapeSend */
    GArray *msgs;               /* MemTraceMsg, built when the row is reported */
    GArray *queued;             /* guint64: the home FIFO's message ids, built likewise */
    guint64 next_msg_id;
} MemTraceTape;
typedef struct {
    gint32 mi;
    Cycle arrives;
} MemTapeSend;

struct MemSys {
    QsimConfig cfgv;            /* copied scalars (strings not used) */
    const QsimConfig *cfg;
    Engine *e;
    const CohProtocol *proto;
    CohRow *cache_rows, *dir_rows;           /* own copies: overridable per MemSys */
    gint16 cache_lut[CS__N][CE__N], dir_lut[DS__N][DE__N];
    guint ncores, nsockets, cps, nslices, line_shift, line_size, sharer_words;
    guint ncpus;                /* logical CPUs: ncores x topology.threads_per_core (config.h) */
    CoreCaches *cores;          /* per core id */
    SetTable *llc;              /* per socket, of LlcSet */
    uint64_t llc_sets;
    guint llc_ways;
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
    MemTraceFn trace;           /* NULL: no tracing */
    void *trace_user;
    MemTraceTape tape;          /* the row being traced and what it sends (memsys_trace.c) */
    Bus *bus;                   /* NULL: a directory (home_controller.c); else every message goes
                                 * through the bus and the tables are snooping ones */
    GArray *arrivals;           /* directory: the requests that reached their home this cycle,
                                 * as delivered (gint32 Msg indices; home_arbiter.c) */
    GArray *arriving;           /* the batch being served (its array, empty between) */
    gint *tie_first;            /* per home socket: the core first in its last contested batch,
                                 * -1: none yet */
};

/* ======================================================================================
 * Lookups (hot: static inline)
 * ====================================================================================== */

static inline uint64_t line_of(const MemSys *ms, uint64_t addr) { return addr & ~(uint64_t)(ms->line_size - 1); }
static inline uint64_t line_index(const MemSys *ms, uint64_t line) { return line >> ms->line_shift; }
static inline Access *acc_at(MemSys *ms, gint32 i) { return &g_array_index(ms->acc, Access, i); }
static inline Msg *msg_at(MemSys *ms, gint32 i) { return &g_array_index(ms->msg, Msg, i); }
/* Core `core`'s record of d's line, or NULL when the line is I there. */
static inline PrivLine *dir_holder(const DirEntry *d, guint core)
{
    PrivLine **g = d->held[core / 64];
    return g ? g[core % 64] : NULL;
}
/* The directory entry of `line`, or NULL when it was never touched (no entry is made). */
static inline DirEntry *dir_find(const MemSys *ms, uint64_t line)
{
    return g_hash_table_lookup(ms->dir, &line);
}
/* Core c's record of `line`, or NULL: by address, for the paths that have no entry at hand
 * (queries, checks, traces); the hot paths use dir_holder. */
static inline PrivLine *pl_find(const MemSys *ms, const CoreCaches *c, uint64_t line)
{
    const DirEntry *d = dir_find(ms, line);
    return d ? dir_holder(d, c->id) : NULL;
}
/* The socket of d's home: fixed at the first access; before it, interleaved (as
 * memsys_home_socket). */
static inline guint dir_home_socket(const MemSys *ms, const DirEntry *d)
{
    return d->home >= 0 ? (guint)d->home : (guint)(line_index(ms, d->line) % ms->nsockets);
}
/* The hardware thread that issued access `a`. */
static inline const PortThread *access_thread(const MemSys *ms, const Access *a)
{
    return &ms->cores[a->core].thr[a->thread];
}
/* Tells the access's thread what was just counted against it (PortClient.counted). */
static inline void access_counted(MemSys *ms, gint32 ai, MemCount what)
{
    if (ai == NIL)
        return;
    const Access *a = acc_at(ms, ai);
    const PortThread *t = access_thread(ms, a);
    if (t->client.counted)
        t->client.counted(t->obj, &a->req, what);
}
/* Logical CPU `cpu` (config.h's numbering) is hardware thread cpu / ncores of core cpu % ncores. */
static inline guint cpu_core(const MemSys *ms, guint cpu) { return G_LIKELY(cpu < ms->ncores) ? cpu : cpu % ms->ncores; }
static inline guint cpu_thread(const MemSys *ms, guint cpu) { return G_LIKELY(cpu < ms->ncores) ? 0 : cpu / ms->ncores; }
static inline guint access_cpu(const MemSys *ms, const Access *a) { return a->thread * ms->ncores + a->core; }
/* Every hardware thread of core c hears that its L1 copy of `line` went or lost write
 * permission (their L1 is one). */
static inline void core_tell_lost_line(CoreCaches *c, uint64_t line, LineLossCause cause)
{
    for (guint t = 0; t < c->nthr; t++)
        if (c->thr[t].client.line_lost)
            c->thr[t].client.line_lost(c->thr[t].obj, line, cause);
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

/* The on-die stop of the LLC slice holding `line`, and the cost of one on-die hop. */
static inline guint slice_stop(const MemSys *ms, uint64_t line)
{
    guint k = (guint)(line_index(ms, line) % ms->nslices);
    return (guint)((guint64)k * ms->cps / ms->nslices);
}
static inline Cycle hop(const MemSys *ms) { return (Cycle)ms->cfg->topology.ondie_hop_cycles; }

/* The set of `index` in t, or NULL when it was never touched (and so holds nothing). */
static inline void *set_table_find(const SetTable *t, uint64_t index)
{
    SetSlot *s = t->direct ? t->direct[index] : g_hash_table_lookup(t->sets, &index);
    return s ? s->data : NULL;
}

static inline uint64_t tags_set_index(const MemSys *ms, const TagArray *t, uint64_t line)
{
    return line_index(ms, line) % t->sets;
}
static inline Way *tags_find(const MemSys *ms, const TagArray *t, uint64_t line)
{
    Way *s = set_table_find(&t->t, tags_set_index(ms, t, line));
    for (guint i = 0; s && i < t->ways; i++)
        if (s[i].line == line)
            return &s[i];
    return NULL;
}

static inline gboolean pl_busy(const MemSys *ms, const PrivLine *pl)
{
    return !coh_cache_state_stable(pl->state) || pl->held_until > engine_now(ms->e);
}

/* Same-cycle ties, at the home (home_arbiter.c) and on the bus (bus.c): contender `core`'s
 * place in the rotation that starts after core `first` (the one first in the last contested
 * round; -1: none yet, core 0 first), core ids taken cyclically. */
static inline guint rotation_rank(gint core, gint first, guint ncores)
{
    return (guint)(core + (gint)ncores - 1 - first) % ncores;
}
/* The home's engine ticker: after every core's (ids are logical CPUs, below ncpus). */
static inline guint home_ticker(const MemSys *ms) { return ms->ncpus; }

static inline gboolean is_request(MsgType t)
{
    return t == MSG_GETS || t == MSG_GETM || t == MSG_UPGRADE || t == MSG_PUTS || t == MSG_PUTE ||
           t == MSG_PUTM || t == MSG_PUTO || t == MSG_FAR_ATOMIC;
}

/* ======================================================================================
 * Line bytes and RMWs (hot: static inline)
 * ====================================================================================== */

static inline uint64_t bytes_get(const guint8 *p, guint size)
{
    uint64_t v = 0;
    for (guint i = 0; i < size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline void bytes_put(guint8 *p, guint size, uint64_t v)
{
    for (guint i = 0; i < size; i++)
        p[i] = (guint8)(v >> (8 * i));
}
static inline uint64_t size_mask(guint size) { return size >= 8 ? G_MAXUINT64 : ((1ull << (8 * size)) - 1); }

/* Applies an RMW; returns the new value. */
static inline uint64_t rmw_apply(const MemRequest *r, uint64_t old)
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

/* ======================================================================================
 * Functions shared between the files, by file
 * ====================================================================================== */

/* messages.c */
gint32 acc_new(MemSys *ms);
void acc_release(MemSys *ms, gint32 i);
void msg_release(MemSys *ms, gint32 i);
/* Sends a message about d's line, arriving after `delay`. */
gint32 msg_send(MemSys *ms, MsgType type, gint src, gint dst, gint req, DirEntry *d, Cycle delay);
/* An engine event: message `arg` reaches its destination (a home or a cache). */
void msg_deliver(void *obj, uint64_t arg);

/* cache_tags.c */
PrivLine *pl_new(MemSys *ms, CoreCaches *c, DirEntry *d);
void pl_release(MemSys *ms, CoreCaches *c, PrivLine *pl);
void tags_init(TagArray *t, const CacheConfig *cc, guint line_size);
void tags_clear(TagArray *t);
void private_evict(MemSys *ms, CoreCaches *c, PrivLine *pl);
void private_fill(MemSys *ms, CoreCaches *c, PrivLine *pl);
void private_leave(MemSys *ms, CoreCaches *c, PrivLine *pl);

/* set_table.c */
void set_table_init(SetTable *t, uint64_t nsets, gsize set_bytes, void (*init)(void *set, gsize set_bytes));
/* Frees every set (each first through free_set, when given). */
void set_table_clear(SetTable *t, void (*free_set)(void *set));
/* The set of `index`, made empty when first asked for. */
void *set_table_get(SetTable *t, uint64_t index);

/* llc.c */
void llc_touch(MemSys *ms, guint socket, uint64_t line);
gboolean llc_has(const MemSys *ms, guint socket, uint64_t line);

/* directory.c */
DirEntry *dir_get(MemSys *ms, uint64_t line);
/* Records pl as core's record of d's line (NULL: it has none). */
void dir_holder_set(DirEntry *d, guint core, PrivLine *pl);
/* Frees d with the private records it still holds. */
void dir_entry_free(MemSys *ms, DirEntry *d);
void dir_queue_push(MemSys *ms, DirEntry *d, gint32 mi);
gint32 dir_queue_pop(MemSys *ms, DirEntry *d);

/* interconnect.c */
void interconnect_build(MemSys *ms);
Cycle route_core_home(const MemSys *ms, gint core, const DirEntry *d);
Cycle route_core_core(const MemSys *ms, gint a, gint b, const DirEntry *d);
Cycle route_socket_core(const MemSys *ms, guint s, gint core, uint64_t line);
gboolean home_broadcasts(const MemSys *ms, const DirEntry *d, guint32 actions, gint req);
Cycle broadcast_bound(const MemSys *ms, gint req, const DirEntry *d);

/* Something other than the core's own L1 load hit reads or changes core c's private caches:
 * a core asleep in a steady loop catches up first (port.h), and its loop is not steady. */
static inline void core_disturb(CoreCaches *c)
{
    for (guint t = 0; t < c->nthr; t++)
        if (c->thr[t].client.catch_up)
            c->thr[t].client.catch_up(c->thr[t].obj);
    c->ff_epoch++;
}

/* memsys.c: the rows of this MemSys's copy of the tables */
/* The index of (s, e)'s row in the cache or directory (bus: memory) table; a pair no row covers
 * is an internal error naming both. */
gint16 row_index(const MemSys *ms, gboolean dir, guint s, guint e);
/* The directory (bus: memory) row of (s, e), counted as fired. */
const CohRow *dir_row_fire(MemSys *ms, guint s, guint e);

/* cache_controller.c */
gboolean access_attempt(MemSys *ms, gint32 ai);
void hit_event(void *obj, uint64_t arg);
void apply_cache_event(MemSys *ms, CoreCaches *c, DirEntry *d, PrivLine *pl, CohCacheEvent ev,
                       gint32 mi, gint32 ai);
gboolean cache_receive(MemSys *ms, CoreCaches *c, gint32 mi);
/* Performs access ai on `data` (a cached line) and calls the core's `done`. */
void access_perform(MemSys *ms, gint32 ai, guint8 *data);
/* Queues access ai on the line until a row wakes it. */
void wait_push(MemSys *ms, PrivLine *pl, gint32 ai);
/* The start of a cache row, either interconnect's, once its row is found and counted: the trace
 * row opens (bus_wait: the cycles a bus's own-core row waited for its grant, else 0), a stall
 * queues access ai and ends the row, a line leaving I gets its record (*pl), a hit is
 * performed.  FALSE: the row stalled and is done. */
gboolean cache_row_begin(MemSys *ms, CoreCaches *c, DirEntry *d, PrivLine **pl, const CohRow *row,
                         gint32 mi, gint32 ai, Cycle bus_wait);
/* A row asks for the line (GetS, GetM, Upgrade): a write's request is an RFO, counted against
 * access ai; the own transaction's data and acks are still to come. */
void cache_request_start(MemSys *ms, PrivLine *pl, gint32 ai, gboolean rfo);
/* Data went cache to cache: counted for the system and the line. */
void cache_c2c_counted(MemSys *ms, DirEntry *d);
/* One cache row being run, either interconnect's: what its actions share.  The message that
 * caused it is read through cache_row_cause() alone, never kept: any send may move the message
 * pool (msg_at). */
typedef struct {
    MemSys *ms;
    CoreCaches *c;
    PrivLine *pl;       /* the line's record (NULL only for a row that leaves an absent line in I) */
    DirEntry *d;        /* the line's directory entry (d->line: the line) */
    const CohRow *row;
    guint state;        /* the line's state before the row */
    gint32 mi, ai;      /* the message or the access that caused the row (NIL: none) */
    gint32 waiters;     /* CA_WAKE: the accesses taken off the line, to retry after the row */
    gboolean data_timed; /* bus: data_leaves is known */
    Cycle data_leaves;  /* bus: when the row's data leaves the cache */
} CacheRowRun;
/* One action of a cache row (CA_*), a function each, run in the order the row lists them. */
typedef void (*CacheAction)(CacheRowRun *x);
static inline const Msg *cache_row_cause(const CacheRowRun *x) { return msg_at(x->ms, x->mi); }
/* Runs the row's actions in its order, each through `actions` (indexed by CA_* bit; NULL for
 * CA_STALL and CA_HIT, which cache_row_begin does), then moves the line to the row's next state. */
void cache_row_run(CacheRowRun *x, const CacheAction actions[]);
/* Actions both interconnects' tables run alike. */
void a_tell_core_invalidated(CacheRowRun *x);  /* CA_LOST_INV */
void a_tell_core_lost_write(CacheRowRun *x);   /* CA_LOST_DOWN */
void a_leave_arrays(CacheRowRun *x);           /* CA_LEAVE, CA_FREE (cache_row_end frees the record) */
void a_take_waiters(CacheRowRun *x);           /* CA_WAKE (they retry after the row) */
/* The end of a cache row, either interconnect's: frees, fills, closes the trace row, checks. */
void cache_row_end(MemSys *ms, CoreCaches *c, PrivLine *pl, uint64_t line, guint32 actions);
/* Tries access ai against its line's row now; TRUE if it was performed (a hit). */
gboolean access_attempt(MemSys *ms, gint32 ai);

/* bus.c */
Bus *bus_new(void);
void bus_free(Bus *b);
/* Every message of a bus system is delivered here; TRUE: keep it (it was rescheduled). */
gboolean bus_deliver(MemSys *ms, gint32 mi);
/* Whether access ai is the one the arbiter is granting the bus to now. */
gboolean bus_granted(const MemSys *ms, gint32 ai);
/* The request being granted: cycles it waited while other transactions held the bus. */
Cycle bus_grant_wait(const MemSys *ms);
/* Access ai of `core` needs the bus for `line`: it waits for the arbiter. */
void bus_ask(MemSys *ms, guint core, uint64_t line, gint32 ai);
/* The granted request goes on the bus: cycles until every cache and the memory see it. */
Cycle bus_request_delay(MemSys *ms);
/* A write-back takes the next slot on the bus: cycles until its PutM is seen (its data phase
 * ends bus.data_cycles later). */
Cycle bus_writeback_delay(MemSys *ms);
/* A snooped request is answered by a responder ready after `responder` cycles: cycles until
 * its data phase ends. */
Cycle bus_data_delay(MemSys *ms, Cycle responder);

/* bus_cache.c */
void bus_cache_event(MemSys *ms, CoreCaches *c, DirEntry *d, PrivLine *pl, CohCacheEvent ev,
                     gint32 mi, gint32 ai);

/* bus_memory.c */
void bus_memory_event(MemSys *ms, DirEntry *d, CohDirEvent ev, gint32 mi);

/* home_arbiter.c */
void home_arbiter_init(MemSys *ms);
void home_arbiter_clear(MemSys *ms);
/* Request mi reached its home: it is served at the cycle's end, with the cycle's others. */
void home_arrive(MemSys *ms, gint32 mi);

/* home_controller.c */
void home_apply(MemSys *ms, DirEntry *d, gint32 mi);
gboolean home_request(MemSys *ms, DirEntry *d, gint32 mi);

/* memsys_trace.c: where rows fire, the controllers call these when ms->trace is set. */
/* A row fired: core (or HOME), the access `ai` for own-core rows, the message `mi` that caused it. */
void trace_row_begin(MemSys *ms, gint core, uint64_t line, const CohRow *row, gboolean dir, gint32 ai, gint32 mi);
/* Message mi left, arriving after `delay`. */
void trace_msg_sent(MemSys *ms, gint32 mi, Cycle delay);
/* The row's actions are done: reports it with its messages (the home's entry `d`, or NULL). */
void trace_row_end(MemSys *ms, const DirEntry *d);
void trace_tape_clear(MemTraceTape *t);

/* invariants.c */
void invariant_violation(MemSys *ms, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void invariant_check_line(MemSys *ms, uint64_t line);

#endif

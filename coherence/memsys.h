/* The memory system: private caches, per-socket inclusive LLCs, the home directory, the
 * interconnect, and the backing store, driven through the port (coherence/port.h).
 *
 * Model (see DESIGN.md "Coherence"):
 *  - per core a private L1 (and an L2 when l2.enabled) holding one coherence state per line for
 *    the whole private hierarchy; L2 is inclusive of L1.  Set-associative, LRU.
 *  - per socket an inclusive LLC (tags, LRU); evicting a line from it back-invalidates the
 *    socket's private copies (line_lost(LINE_EVICTED)).
 *  - a flat directory at each line's home socket (home = line index mod sockets; slice = line
 *    index mod llc slices), blocking: one transaction per line at a time, later requests wait in
 *    a FIFO at the home (counted in home_queue_cycles).
 *  - topology.interconnect bus replaces the directory and the network with one atomic snooping
 *    bus (coherence/bus.c): see there for its model and timing.
 *  - protocols: the tables in coherence/msi.c, mesi.c and moesi.c.  `mesif` runs the MESI
 *    tables with Intel's F (forward) state kept where QPI keeps it, per socket: of the sockets
 *    whose (inclusive) LLC holds a clean shared copy, the newest reader's is F, and a reader
 *    whose own LLC lacks the line gets it from there instead of from memory; a write, or the F
 *    socket's LLC evicting it, ends it (then memory serves again).
 *  - snoops: a core's private caches answer a forwarded request or an invalidation after
 *    topology.snoop_response_cycles (R), plus topology.snoop_data_cycles (D) when the answer
 *    reads a dirty (M or O) line out of them.  topology.snoop_acts says when the snoop changes
 *    the line there: on arrival (the answer leaves R later), or after R, once looked up (the
 *    holder keeps the line, and may write it, until then; the answer leaves at once).  The sums
 *    below are the same either way.  cross_socket decides who is snooped: directory
 *    (only the holders), broadcast (every socket, for every miss not confined to the
 *    requester's socket), probe-filter (AMD HT Assist: directed, except that a write to a line
 *    with several sharers, or an owner and sharers, broadcasts its invalidations).
 *
 * Latency of each path, the sum of configured parts (hop = topology.ondie_hop_cycles,
 * d(x,y) on-die distance in stops between a core and the line's slice, S(a,b) the one-way
 * socket path cost, s = requester's socket, h = home socket, o = owner core on socket so):
 *   L1 hit                     l1.latency
 *   L2 hit                     l2.latency
 *   from the LLC               d(c,k)hop + S(s,h) + llc.latency + S(h,s) + d(k,c)hop
 *   from memory                d(c,k)hop + S(s,h) + memory.latency + S(h,s) + d(k,c)hop
 *   from the F socket f        d(c,k)hop + S(s,h) + llc.latency + S(h,f) + llc.latency + S(f,s)
 *                              + d(k,c)hop
 *   cache to cache             d(c,k)hop + S(s,h) + llc.latency + S(h,so) + d(k,o)hop
 *                              + R [+ D if dirty] + route(o -> c)
 *   with route(a -> b) = d(a,b)hop on one socket, else d(a,k)hop + S(sa,sb) + d(k,b)hop;
 *   an invalidation reaches a sharer x after llc.latency + d(x,k)hop + S(h,sx) and its ack
 *   leaves R later for route(x -> c); the access completes when the data and the last ack
 *   are in.  A broadcast snoop (see above) cannot complete before llc.latency +
 *   max_t(S(h,t) + S(t,s)) + R + d(k,c)hop after the request reached the home.
 *   memory.latency is DRAM load-to-use including the LLC miss, so it replaces llc.latency on
 *   that path.
 *
 * Determinism: everything is ordered by the engine; hash tables are only looked up, never
 * iterated for decisions (listings sort their keys).  No global mutable state. */
#ifndef QSIM_MEMSYS_H
#define QSIM_MEMSYS_H

#include <glib.h>
#include "coherence/port.h"
#include "coherence/protocol.h"
#include "sim/base/counters.h"

typedef struct MemSys MemSys;

/* Message types, for the counters. */
typedef enum {
    MSG_GETS, MSG_GETM, MSG_UPGRADE, MSG_PUTS, MSG_PUTE, MSG_PUTM, MSG_PUTO,
    MSG_FWD_GETS, MSG_FWD_GETM, MSG_INV, MSG_INV_ACK, MSG_PUT_ACK,
    MSG_DATA_MEM, MSG_DATA_LLC, MSG_DATA_C2C, MSG_ACK_COUNT, MSG_UNBLOCK, MSG_COPYBACK,
    MSG_FAR_ATOMIC, MSG_ATOMIC_REPLY,
    MSG__N
} MsgType;
const char *memsys_msg_name(MsgType t);

/* The memory system's counters, every field registered in mem_stats_registry
 * (coherence/mem_stats.c) with its unit and meaning; run-sized arrays carry their length. */
typedef struct {
    guint64 msgs[MSG__N];
    guint64 mem_reads, mem_writes;     /* DRAM accesses at the homes */
    guint64 l1_hits, l1_misses, l2_hits, l2_misses, llc_hits, llc_misses;
    guint64 c2c_transfers;
    guint64 rfos;                      /* GetM and Upgrade requests */
    guint64 home_queue_cycles;         /* requests waiting for a busy line at its home */
    guint64 home_queued;               /* requests that had to wait */
    guint64 hold_wait_cycles;          /* snoops waiting for an atomic's hold_cycles */
    guint64 back_invalidations;        /* private copies removed by an LLC eviction */
    guint64 evictions;                 /* lines leaving a private hierarchy by replacement */
    guint64 far_atomics;
    guint64 f_forwards;                /* MESIF: clean shared lines forwarded by another socket's LLC */
    guint64 bus_transactions;          /* bus: requests ordered on the bus (GetS, GetM, PutM) */
    guint64 bus_wait_cycles;           /* bus: cycles requests waited for the arbiter's grant */
    guint64 bus_snoops;                /* bus: caches that looked up another cache's request */
    guint64 sibling_hold_wait_cycles;  /* SMT: accesses waiting for the other hardware thread's
                                        * atomic's hold_cycles on a line of their shared L1 */
    guint64 *inval_received;           /* per core: invalidations (Inv, Fwd-GetM) received */
    gsize n_inval_received;            /* cores */
    guint64 *cache_rows_fired;         /* per cache-table row, in table order */
    gsize n_cache_rows_fired;
    guint64 *dir_rows_fired;           /* per directory-table row */
    gsize n_dir_rows_fired;
} MemStats;

/* Allocates the run-sized arrays (zeroed) and records their lengths; clear frees them. */
void mem_stats_init(MemStats *st, gsize ncores, gsize cache_rows, gsize dir_rows);
void mem_stats_clear(MemStats *st);
extern const CounterRegistry mem_stats_registry;

/* Counters of one line (memsys_line_stats), registered in line_stats_registry. */
typedef struct {
    guint64 msgs;                      /* messages about this line */
    guint64 invalidations;             /* copies invalidated */
    guint64 rfos;
    guint64 home_queue_cycles;
    guint64 c2c_transfers;
    guint64 mem_writes;
    guint64 l1_misses;                 /* accesses to it that missed in their L1 (or upgraded) */
} LineStats;
extern const CounterRegistry line_stats_registry;

/* ---- lifecycle ---- */
MemSys *memsys_new(const QsimConfig *cfg, Engine *e, GError **error);
void memsys_free(MemSys *ms);
/* Logical CPU `cpu` (0 .. total CPUs - 1: hardware thread cpu / cores of core cpu % cores, as
 * config.h numbers them; with one thread per core, the core) receives its completions and line
 * losses through client.  The hardware threads of a core share its caches: one agent to the
 * protocol, each told of its own accesses' answers and of every line the core loses, and each
 * of the others' stores to their L1 (LINE_SIBLING_STORE). */
void memsys_attach(MemSys *ms, guint core, const PortClient *client, void *core_obj);

/* ---- the port ---- */
/* Starts an access of logical CPU `cpu`; `done` follows from an engine event. */
void memsys_issue(MemSys *ms, guint core, const MemRequest *req);
/* What a core needs to fast-forward a steady loop (port.h; coherence/memsys_ff.c). */
extern const PortFastForward memsys_fast_forward;
/* TRUE when the core's L1 holds addr's line readable (need_write: writable, M or E).  Cheap. */
gboolean memsys_l1_has(const MemSys *ms, guint core, uint64_t addr, gboolean need_write);

/* ---- functional access ---- */
/* The coherent value (last performed store), little-endian, size 1/2/4/8. */
uint64_t memsys_peek(const MemSys *ms, uint64_t addr, guint size);
/* Sets the value everywhere it is held; for initialisation (the line must not be mid-transaction). */
void memsys_poke(MemSys *ms, uint64_t addr, guint size, uint64_t value);

/* ---- statistics and checking ---- */
const MemStats *memsys_stats(const MemSys *ms);
/* Per-line counters (zeroes for a line never touched). */
LineStats memsys_line_stats(const MemSys *ms, uint64_t addr);
/* The lines the system has seen, sorted by address (caller frees). */
GArray *memsys_lines(const MemSys *ms);
/* Single writer or many readers for every line, inclusion, and every load so far returned the
 * last store in coherence order. */
gboolean memsys_check_invariants(const MemSys *ms, GError **error);
/* With nothing in flight (the engine has no event left): every line stable in every cache and at
 * the home, else the first that is not, as a COH_ERROR_INVARIANT (coherence/invariants.c). */
gboolean memsys_check_quiet(const MemSys *ms, GError **error);
/* Check the invariants of a line after every transition (first failure kept, see above). */
void memsys_set_check(MemSys *ms, gboolean on);

/* ---- tracing (coherence/memsys_trace.c) ---- */
#define MEMSYS_HOME (-1)   /* MemTraceRow.core, MemTraceMsg.src/dst: the line's home directory
                            * (on a bus: the memory controller) */
#define MEMSYS_BUS (-2)    /* MemTraceMsg.dst: a request on the bus, seen by every cache and the memory */

/* A message as a trace shows it, with its fields as they were when it left. */
typedef struct {
    guint64 id;            /* from 1, in send order; rows name it as their cause */
    MsgType type;
    gint src, dst;         /* core, or MEMSYS_HOME */
    gint req;              /* the requester it serves (acks and data go there) */
    uint64_t line;
    Cycle sent, arrives;   /* it is delivered at `arrives` (and may then wait: a held line, a busy home) */
    gint acks;             /* data, ack counts and forwards: the invalidation acks to expect */
    gboolean data, excl;   /* carries the line's data; exclusive (E) data */
} MemTraceMsg;

/* A table row that fired, reported when its actions are done. */
typedef struct {
    Cycle cycle;
    gint core;             /* the cache's core, or MEMSYS_HOME for a directory row */
    gboolean dir;          /* a directory-table row (else a cache-table row) */
    guint index;           /* its index in memsys_protocol()'s cache or dir table */
    const CohRow *row;     /* the row as applied */
    uint64_t line;
    uint64_t addr;         /* own-core Load/Store rows: the access's address; else the line */
    gint access;           /* own-core rows: the access's MemKind; else -1 */
    guint64 cause;         /* the message whose arrival fired it (MemTraceMsg.id); 0: an access */
    gint dir_owner;        /* directory rows: the owner after it (core or -1) */
    guint64 dir_sharers;   /* directory rows: the sharers after it, cores 0..63 as bits */
    Cycle bus_wait;        /* a bus's own-core row fired at its grant: cycles the access waited for
                            * the bus while other transactions held it */
    gint cause_type;       /* the message's MsgType (a queued Upgrade served as GetM says so); -1: an access */
    gint cause_src;        /* the message's sender (core, or MEMSYS_HOME) */
    gboolean cause_data;   /* the message carried the line's data (else, say, an AckCount) */
    Cycle held_since;      /* the message arrived then and waited for a locked op's hold on the line
                            * (core.lock_hold_cycles); 0: it did not wait */
    Cycle queued_since;    /* a home row: the request waited in the home's FIFO since then; 0: it did not */
    gint dir_req;          /* directory rows: the requester whose transaction the line is busy with
                            * after the row (a stall row: the one it waits behind); -1: none */
    /* The line after the row, for the step-through page (valid during the hook only): */
    guint line_size;
    const guint8 *data;    /* the row's cache's copy when it holds valid data; else NULL */
    const guint8 *mem;     /* memory's copy at the home (NULL before the home has one) */
    const guint64 *queued; /* the requests (MemTraceMsg.id) waiting in the home's FIFO, oldest first */
    guint nqueued;
} MemTraceRow;

/* Called once per row that fires, with the messages the row sent (row != NULL), and once per
 * message sent outside any row (row == NULL: a far atomic's request). */
typedef void (*MemTraceFn)(void *user, const MemTraceRow *row, const MemTraceMsg *msgs, guint nmsgs);
/* fn NULL: no tracing (the default; tracing costs nothing then). */
void memsys_set_trace(MemSys *ms, MemTraceFn fn, void *user);
/* Whether a row is being applied now (its report comes when its actions are done): what a core
 * reports meanwhile (a machine clear, told of a lost line inside the row) comes after it. */
gboolean memsys_trace_row_open(const MemSys *ms);

/* Core `core` replaces addr's line from its private caches now (a Put to the home follows);
 * FALSE when it holds no stable copy.  For the latency probe. */
gboolean memsys_evict(MemSys *ms, guint core, uint64_t addr);
/* Socket `socket`'s LLC drops addr's line as an eviction would (its private copies go too);
 * FALSE when it does not hold the line or a transaction pins it.  For the latency probe. */
gboolean memsys_llc_drop(MemSys *ms, guint socket, uint64_t addr);

/* ---- introspection for tests and tools ---- */
const CohProtocol *memsys_protocol(const MemSys *ms);
CohCacheState memsys_cache_state(const MemSys *ms, guint core, uint64_t addr);
CohDirState memsys_dir_state(const MemSys *ms, uint64_t addr);
guint memsys_home_socket(const MemSys *ms, uint64_t addr);
guint memsys_core_socket(const MemSys *ms, guint core);
/* At most how long one access takes on a memory system with nothing else to do, its farthest
 * routes and every cost on the way (a bound for watchdogs, not a latency: sim/machine). */
Cycle memsys_longest_access(const MemSys *ms);
/* One-way cost and hop count between sockets. */
guint64 memsys_socket_cycles(const MemSys *ms, guint a, guint b);
guint memsys_socket_hops(const MemSys *ms, guint a, guint b);
/* On-die distance in stops between a core and the slice holding addr's line. */
guint memsys_ondie_distance(const MemSys *ms, guint core, uint64_t addr);
guint memsys_core_distance(const MemSys *ms, guint a, guint b);
/* How often each table row has fired, indexed like memsys_protocol()'s cache and dir arrays
 * (a stall row counts each access or request it queued).  For coverage tests and tools. */
const guint64 *memsys_cache_rows_fired(const MemSys *ms);
const guint64 *memsys_dir_rows_fired(const MemSys *ms);
/* Test hook: replace one cache-table cell for this MemSys only (seeded-bug tests); its actions
 * run in the order of their bits. */
void memsys_override_cache_row(MemSys *ms, CohCacheState s, CohCacheEvent e, guint32 actions,
                               CohCacheState next);
/* Test hook: replace one directory-table cell's home rules (CohDirRule) for this MemSys only. */
void memsys_override_dir_rules(MemSys *ms, CohDirState s, CohDirEvent e, guint rules);
/* The home rules one directory-table cell runs with in this MemSys (MESIF's added for a MESIF
 * config). */
guint memsys_dir_rules(const MemSys *ms, CohDirState s, CohDirEvent e);

#endif

/* The port: the one interface between a core and the memory system.
 *
 * A core issues an access (load, store, atomic read-modify-write) for an address; the memory
 * system moves lines through the caches under the configured protocol and, when the access has
 * been performed, calls the core's `done` with the value (the loaded value, or the old value
 * of an atomic).  Whenever a line leaves a core's L1 or loses write permission (a snoop
 * invalidation, a downgrade, an eviction) the memory system tells that core through
 * `line_lost`: that is what the core model's load-ordering rollback, LL/SC monitor and WFE
 * wake-up watch.  Cores and caches meet only here.
 *
 * Contract:
 *  - an access never crosses a naturally aligned boundary of its size (size 1, 2, 4 or 8);
 *  - `done` is called from an engine event, never from inside memsys_issue();
 *  - a core may keep any number of accesses in flight, to one line or to many; each is
 *    performed on its own, so two to one line may perform out of issue order (a load hits
 *    while an older store to its line waits for write permission): ordering them is the
 *    core's business;
 *  - a store or atomic is performed (visible to every later access in coherence order) when
 *    `done` runs; the line is then in M (or O/E->M) in the issuing core's L1, except for far
 *    atomics which are performed at the home;
 *  - `hold_cycles` > 0 on an atomic keeps the line in the L1 against snoops for that many
 *    cycles after it is performed (x86 locked RMW): snoops wait, and so do the accesses of the
 *    core's other hardware thread (SMT), and the waits are counted;
 *  - the hardware threads of one core (SMT) share its L1 and L2 and are one agent to the
 *    protocol: each gets `done` for its own accesses, every `line_lost` of the core, and a
 *    `line_lost` LINE_SIBLING_STORE when another thread's store or atomic writes a line in
 *    their L1; a thread's store buffer stays its own (no forwarding between threads);
 *  - before the memory system reads or changes a core's private caches for anything but that
 *    core's own access (a message for it, an eviction of its line), it calls the core's
 *    `catch_up`: a core that fast-forwards a steady loop brings itself up to date first.
 *  - `counted`, when the client has one, hears every L1 miss and request for ownership the
 *    memory system counts (MemStats l1_misses, rfos) with the access that caused it, at the
 *    moment it counts it, so a core can charge them to the op (`pc`) that issued the access
 *    (per-instruction profiles); it only counts, never issues.
 *
 * Fast-forward (cores/core_ff.c) asks the memory system for a little more (PortFastForward):
 * counters to tell that nothing but L1 load hits touched a core's caches between two points,
 * the hits themselves without engine events (the lines are frozen while the core sleeps), and
 * the arithmetic of k more periods of hits (counters, LRU).
 */
#ifndef QSIM_PORT_H
#define QSIM_PORT_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/engine.h"
#include "sim/base/config.h"

typedef enum {
    MEM_LOAD,      /* read `size` bytes */
    MEM_STORE,     /* write `value` (needs the line in M) */
    MEM_RMW,       /* atomic: needs the line in M unless `far` */
} MemKind;

typedef enum {
    RMW_CAS,       /* if old == expected: new = value.  A failing CAS still takes the line in M */
    RMW_XCHG,      /* new = value */
    RMW_ADD,       /* new = old + value */
    RMW_OR,        /* new = old | value */
    RMW_AND,       /* new = old & value */
} RmwKind;

typedef enum {
    MEM_SRC_L1, MEM_SRC_L2, MEM_SRC_LLC, MEM_SRC_PEER_SAME_SOCKET, MEM_SRC_PEER_REMOTE_SOCKET,
    MEM_SRC_MEMORY, MEM_SRC_HOME_ATOMIC,
    MEM_SRC_REMOTE_LLC,    /* MESIF: another socket's LLC, the line's F (forward) holder */
} MemSource;

typedef enum {
    LINE_INVALIDATED,  /* a remote write (GetM/upgrade) removed our copy */
    LINE_DOWNGRADED,   /* a remote read took M/E down to S/O: we lost write permission */
    LINE_EVICTED,      /* replaced in the L1 (capacity/conflict or back-invalidation) */
    LINE_SIBLING_STORE,/* SMT: the core's other hardware thread wrote the line in their shared L1
                        * (a store or atomic performed): nothing was lost, but a load that read
                        * it before may hold old data, as after a remote invalidation */
} LineLossCause;

/* What `counted` is told about. */
typedef enum {
    MEM_COUNT_L1_MISS,   /* the access missed in the L1 (or needed an upgrade) */
    MEM_COUNT_RFO,       /* the access sent a request for ownership (GetM, Upgrade) */
} MemCount;

typedef struct {
    MemKind kind;
    RmwKind rmw;
    uint64_t addr;
    uint8_t size;          /* 1, 2, 4, 8 */
    uint64_t value;        /* store data / atomic operand */
    uint64_t expected;     /* CAS compare value */
    gboolean far;          /* arm64 LSE far atomic: performed at the home */
    uint32_t hold_cycles;  /* see contract */
    uint64_t tag;          /* the core's, echoed back */
    int32_t pc;            /* the issuing op's program counter, for `counted` (0 when unset) */
} MemRequest;

typedef struct {
    uint64_t tag;
    uint64_t value;        /* loaded value, or an atomic's old value */
    MemSource source;
    Cycle issued, done;
} MemResponse;

typedef struct {
    void (*done)(void *core, const MemResponse *r);
    void (*line_lost)(void *core, uint64_t line_addr, LineLossCause cause);
    void (*catch_up)(void *core);   /* may be NULL */
    void (*counted)(void *core, const MemRequest *r, MemCount what);   /* NULL: not told */
} PortClient;

/* A load the L1 answers, in flight: issued, completing at `done`. */
typedef struct {
    MemRequest req;
    Cycle issued, done;
} PortFfHit;

/* The memory system's per-core fast-forward counters at one point (opaque to the core). */
typedef struct {
    guint64 w[8];
} PortFfMark;

typedef struct {
    /* The counters now; FALSE when this memory system cannot fast-forward now (a trace). */
    gboolean (*mark)(void *ms, guint core, PortFfMark *m);
    /* Whether only L1 load hits touched the core's caches from a to b. */
    gboolean (*quiet)(const PortFfMark *a, const PortFfMark *b);
    /* The core's L1 load hits in flight, in issue order (all of them: *n may exceed max). */
    void (*hits_in_flight)(void *ms, guint core, PortFfHit *out, guint max, guint *n);
    /* Drops those hits' events: the sleeping core completes them itself when it catches up. */
    void (*hits_cancel)(void *ms, guint core);
    /* A load the L1 answers: accounted as memsys_issue accounts an L1 hit; FALSE if it would
     * not hit.  *latency: its load-to-use cycles. */
    gboolean (*load_hit)(void *ms, guint core, const MemRequest *r, Cycle *latency);
    /* That hit completes: as its hit event would, calling the core's `done` now. */
    void (*hit_done)(void *ms, guint core, const MemRequest *r, Cycle issued);
    /* That hit is still in flight when the catch-up ends: it completes at `done` by an event. */
    void (*hit_resume)(void *ms, guint core, const MemRequest *r, Cycle issued, Cycle done);
    /* Adds k times what happened from a to b (hit counters, rows fired, LRU stamps). */
    void (*advance)(void *ms, guint core, const PortFfMark *a, const PortFfMark *b, guint64 k);
} PortFastForward;

#endif

/* The graph explorer's own types (graph_explore.h): a graph, its events, a thread's replay. */
#ifndef QSIM_MM_GRAPH_PRIV_H
#define QSIM_MM_GRAPH_PRIV_H

#include "sim/memmodel/graph_explore.h"
#include "sim/memmodel/model.h"

#define GT_WORDS (MM_GRAPH_MAX_THREAD_EVENTS / 64)
/* A set of one thread's events (bit i: its i-th event): what reaches a register or an event. */
typedef struct {
    uint64_t w[GT_WORDS];
} GTaint;

static inline void gt_or(GTaint *a, const GTaint *b)
{
    for (guint i = 0; i < GT_WORDS; i++)
        a->w[i] |= b->w[i];
}
static inline void gt_and(GTaint *a, const GTaint *b)
{
    for (guint i = 0; i < GT_WORDS; i++)
        a->w[i] &= b->w[i];
}
static inline void gt_add(GTaint *a, guint i) { a->w[i >> 6] |= (uint64_t)1 << (i & 63); }

/* An event reference: its thread and index there; the initial write of location l is
 * (GREF_INIT, l). */
#define GREF_INIT 0xfffu
static inline guint32 gref(guint t, guint i) { return (guint32)t << 20 | i; }
static inline guint gref_thread(guint32 r) { return r >> 20; }
static inline guint gref_index(guint32 r) { return r & 0xfffff; }

/* Events that are no memory events (ev.kind is not looked at), kept in the thread's order: a
 * store-exclusive that failed (the thread's choice); a sev; a wfe's wake-up, with rf naming
 * what woke it (another thread's sev, or a write clearing its monitor). */
#define GEV_STX_FAIL 1u
#define GEV_SEV 2u
#define GEV_WAKE 3u

typedef struct {
    MmEvent ev;                /* kind, location, value, size, flags, fence, pc, instance */
    guint32 marker;            /* 0, or GEV_STX_FAIL (ev is then not a memory event) */
    guint32 stamp;             /* when it was added: rf and po run from smaller stamps to larger */
    guint32 rf;                /* a read: the write it reads */
    int pair;                  /* the other event of its atomic or exclusive pair (same thread), or -1 */
    gboolean amo;
    uint64_t addr;
    GTaint addr_t, addr_p, data_t, data_p, ctrl_t, ctrl_p, reach_p;
} GEv;

/* A location: a whole access's bytes (every access to them has this address and size), or one
 * byte of a mixed-size block. */
typedef struct {
    uint64_t addr;
    unsigned size;
    uint64_t init;
} GLoc;

/* Mixed sizes (Flur et al., POPL 2017; herd -variant mixed): memory in aligned blocks of this
 * many bytes; a block accessed with two different addresses or sizes is mixed, and every access
 * to it is one byte event per byte, rf and co per byte, tied by sca-class in the model. */
#define GBLOCK 8u

typedef struct {
    guint nthreads;
    GArray **ev;               /* per thread: GEv, in program order */
    GArray **co;               /* per location: guint32 refs of its writes in coherence order (after the initial one) */
    guint nlocs;
    guint32 stamp;             /* the next stamp */
} GGraph;

GGraph *ggraph_new(guint nthreads);
GGraph *ggraph_copy(const GGraph *g);
void ggraph_free(GGraph *g);
static inline GEv *ggraph_ev(const GGraph *g, guint t, guint i) { return &g_array_index(g->ev[t], GEv, i); }

/* What is fixed over a search (graph_search.c owns it). */
typedef struct {
    const MmGraphOptions *o;
    IsaLayout *layout;
    guint8 *init;              /* initial memory image */
    uint32_t line_size;
    int32_t entry;
    guint unroll;
    GArray *locs;              /* GLoc, found as threads access them */
    GArray *mixed;             /* uint64_t: the mixed blocks' addresses, kept over restarts */
    GArray *blocks;            /* GBlock: where each mixed block's byte locations start */
    gboolean restart;          /* a block turned mixed: the search starts again */
} GWorld;

typedef struct {
    uint64_t addr;
    guint first;
} GBlock;

/* The locations of an access: one (*n = 1) or, in mixed blocks, one per byte (*n = size).
 * FALSE when it makes a block mixed that was not (w->restart is then set: the locations
 * found so far assumed whole accesses there). */
gboolean gworld_access(GWorld *w, uint64_t addr, unsigned size, int *locs, guint *n);
/* The location of futex word m's wait queue (graph_replay.c), outside memory. */
int gworld_queue(GWorld *w, uint64_t m);

typedef enum {
    GNEXT_READ,                /* ev: the read to add (choose its rf) */
    GNEXT_WRITE,               /* ev: the write to add (choose its co place) */
    GNEXT_FENCE,
    GNEXT_STX,                 /* ev: the write if it succeeds; it may fail */
    GNEXT_SEV,                 /* ev: the sev marker to add */
    GNEXT_WAKE,                /* ev: the wfe's wake-up marker to add */
    GNEXT_HALTED,
    GNEXT_WFE,                 /* asleep in wfe, nothing in the graph to wake it */
    GNEXT_BLOCKED,             /* spin-assume: block_from is its first blocking event */
    GNEXT_FAULT,
    GNEXT_BOUND,               /* the unroll bound */
    GNEXT_REFUSED,             /* an op this explorer does not take (why) */
} GNextKind;

typedef struct {
    GNextKind kind;
    GEv ev;
    guint block_from;
    IsaThread th;              /* the thread after its replay */
    char why[256];
} GNext;

/* Thread t of g replayed from its start through the thread step: its next event, or how it
 * ended. */
void greplay(GWorld *w, const GGraph *g, guint t, GNext *out);

#endif

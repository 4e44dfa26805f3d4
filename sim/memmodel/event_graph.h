/* A candidate execution's events and relations, as herd builds them: memory reads and writes
 * (one initial write per location first, on no thread), fences, each with its thread, program
 * order, location, value and annotations; the relations fixed by the threads' code (po, rmw,
 * the dependencies addr/data/ctrl and their "pick" variants, which thread_paths.c computes by
 * register taint) and the two a candidate chooses (rf, co).  Sets and relations are named as
 * in herd's cat files (mm_graph_builtin), so a model's rows can use them by name. */
#ifndef QSIM_MM_EVENT_GRAPH_H
#define QSIM_MM_EVENT_GRAPH_H

#include "sim/memmodel/relation.h"

typedef enum { MM_READ, MM_WRITE, MM_FENCE } MmKind;

/* What a fence orders: DMB SY/ISH and MFENCE are FULL, DMB LD and LFENCE LOAD, DMB ST and
 * SFENCE STORE; ISB is its own kind (it orders through control and address dependencies). */
typedef enum { MM_FENCE_NONE, MM_FENCE_FULL, MM_FENCE_LOAD, MM_FENCE_STORE, MM_FENCE_ISB } MmFenceKind;

/* MmEvent.flags: herd's annotations. */
enum {
    MM_ACQ = 1 << 0,       /* A: acquire (LDAR, LDAXR, the read of a CASA/SWPA/LDADDA...) */
    MM_ACQ_PC = 1 << 1,    /* Q: acquire-pc (LDAPR) */
    MM_REL = 1 << 2,       /* L: release (STLR, STLXR, the write of a ...L atomic) */
    MM_NORET = 1 << 3,     /* the read of an atomic whose result is discarded (Rt = ZR) */
    MM_ATOMIC = 1 << 4,    /* X: an event of an atomic instruction or of an exclusive */
    MM_EXCL = 1 << 5,      /* of a load- or store-exclusive */
    MM_INIT = 1 << 6,      /* the initial write of a location */
};

typedef struct {
    MmKind kind;
    int thread;            /* -1 for an initial write */
    guint instance;        /* the instruction it belongs to, counted in its thread's order */
    int loc;               /* location index; -1 for a fence */
    uint64_t value;        /* read or written, cut to size */
    guint8 size;           /* bytes */
    guint32 flags;
    MmFenceKind fence;
    int32_t pc;            /* the ISA instruction; -1 for an initial write */
} MmEvent;

/* The sets and relations a model may name.  The static ones follow from the events and the
 * code; rf and co are the candidate's choice (the "dynamic" ones). */
typedef enum {
    MM_SET_R, MM_SET_W, MM_SET_M, MM_SET_F, MM_SET_IW, MM_SET_A, MM_SET_Q, MM_SET_L, MM_SET_NORET,
    MM_SET_X, MM_SET_FENCE_FULL, MM_SET_FENCE_LOAD, MM_SET_FENCE_STORE, MM_SET_ISB,
    MM_SET__COUNT
} MmSetName;

typedef enum {
    MM_REL_ID, MM_REL_PO, MM_REL_LOC, MM_REL_EXT, MM_REL_INT, MM_REL_SAME_INSTANCE, MM_REL_SCA_CLASS,
    MM_REL_RMW, MM_REL_AMO, MM_REL_LXSX,
    MM_REL_ADDR, MM_REL_DATA, MM_REL_CTRL,
    MM_REL_PICK_ADDR, MM_REL_PICK_DATA, MM_REL_PICK_CTRL, MM_REL_PICK_BASIC,
    MM_REL_RF, MM_REL_CO,
    MM_REL__COUNT
} MmRelName;

/* Invariants: the initial writes come first, one per location, in location order; a thread's
 * events follow in program order.  sets[] and the static rels[] are valid after
 * mm_graph_finish (the dependency relations are the caller's).  A graph has any number of
 * events; a zeroed MmGraph (MM_GRAPH_INIT) is an empty one, and its storage is kept across
 * mm_graph_init for the next graph until mm_graph_clear. */
typedef struct {
    guint n;
    guint cap;
    MmEvent *ev;
    MmSet sets[MM_SET__COUNT];
    MmRel rels[MM_REL__COUNT];
} MmGraph;

#define MM_GRAPH_INIT { 0 }

/* Starts a graph with no events (g zeroed, or a graph used before). */
void mm_graph_init(MmGraph *g);
/* Releases g's storage; g is then zeroed. */
void mm_graph_clear(MmGraph *g);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MmGraph, mm_graph_clear)
/* Appends an event: its index. */
guint mm_graph_add(MmGraph *g, const MmEvent *e);
/* Computes the sets and the relations that follow from the events alone (id, po, loc, ext,
 * int, same-instance, sca-class) and clears the others to n events.  sca-class is herd's
 * single-copy-atomic class under mixed sizes: the byte events of one access (same thread and
 * instance, both reads or both writes), and each memory event with itself; with one event per
 * access it is the identity on memory events. */
void mm_graph_finish(MmGraph *g);

/* A name a model may use: a set (R, W, M, F, IW, A, Q, L, NoRet, X, DMB.FULL/MFENCE, DMB.LD,
 * DMB.ST, ISB) or a relation (id, po, loc, ext, int, same-instance, sca-class, rmw, amo, lxsx, addr,
 * data, ctrl, pick-addr-dep, pick-data-dep, pick-ctrl-dep, pick-basic-dep, rf, co).  FALSE
 * when there is no such name. */
gboolean mm_graph_builtin(const char *name, gboolean *is_set, guint *index);
/* Whether relation `index` is chosen by the candidate (rf, co) rather than fixed by the code. */
static inline gboolean mm_rel_is_dynamic(guint index) { return index == MM_REL_RF || index == MM_REL_CO; }

#endif

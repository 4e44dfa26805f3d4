/* The explorer: every execution of a program under a memory model, up to a bound, by a
 * breadth-first search over canonical states (explore_state.h) with a visited set.
 *
 * Why stateful search: the programs are locks in a harness, which spin; a spin-loop iteration
 * that reads the same values and changes nothing leads back to a state already visited, so the
 * space is finite without any bound on loop iterations (GenMC's "await" reduction, Kokologiannakis
 * et al., CAV 2021, falls out of hashing states), and breadth-first order makes the first
 * violation found a shortest counterexample.  Two reductions keep it exact:
 *
 *   - an op that only touches the thread's own registers or control (ExploreModel.local: ALU,
 *     branches, calls, `mark`, `work`, `pause`, ...) commutes with every other thread's move, so
 *     it is no scheduling point: a thread runs such ops at once up to its next memory access,
 *     fence or system call (explore_exec.h);
 *   - registers dead at a thread's pc are zeroed (explore_live.h).
 *
 * What is checked (ExploreProperty): in every state, that no two threads are inside exclusive
 * regions (a writer's critical section) at once, and no thread inside an exclusive region while
 * another is inside a shared one (a reader's); that no thread faulted (a bad access, a call too
 * deep, a loop of EXPLORE_RUNAWAY_OPS local ops); in a state with no move left, that every thread
 * halted (else a deadlock: every unfinished thread blocked in wfe or futex_wait) and the caller's
 * end check holds (the harness's counter); and, when the search completed, that from every
 * reachable state some execution finishes (else a thread can never finish: a lost wake-up
 * while others spin, a livelock with no way out). */
#ifndef QSIM_EXPLORE_H
#define QSIM_EXPLORE_H

#include "sim/explore/explore_model.h"

/* Defaults of the bounds. */
#define EXPLORE_DEFAULT_MAX_STATES G_GUINT64_CONSTANT(20000000)
/* Under arm64 a state costs more (views, messages, certification runs): a default search stops
 * within minutes rather than hours. */
#define EXPLORE_DEFAULT_MAX_STATES_ARM64 G_GUINT64_CONSTANT(250000)
#define EXPLORE_DEFAULT_MAX_MEMORY (G_GUINT64_CONSTANT(2048) << 20)
#define EXPLORE_DEFAULT_SB 16

/* A range of pcs, inclusive: a critical section. */
typedef struct {
    int32_t first, last;
    gboolean shared;           /* readers: may be inside together, never with a writer */
} ExploreRegion;

typedef struct {
    const ExploreModel *model;
    guint threads;
    uint32_t line_size;        /* 0: 64 */
    const char *entry;         /* NULL: "main" */
    guint sb_size;             /* store-buffer depth, 1..EXPLORE_SB_MAX (0: EXPLORE_DEFAULT_SB) */
    guint64 max_states;        /* 0: EXPLORE_DEFAULT_MAX_STATES */
    guint64 max_memory;        /* bytes the search may hold; 0: EXPLORE_DEFAULT_MAX_MEMORY */
    const ExploreRegion *regions;
    guint nregions;
    /* The check of a state in which every thread halted: NULL when it holds, else what failed
     * (newly allocated).  NULL: none. */
    char *(*end_check)(const ExploreWorld *w, const ExploreState *s, void *ctx);
    void *ctx;
    IsaRegMask keep_regs;        /* registers kept live everywhere (litmus: the ones a test's final state reads) */
    /* Called on the world before the search, to set initial memory beyond the program's own
     * (a litmus test's pointer locations): NULL for none.  Gets ctx. */
    void (*prepare)(ExploreWorld *w, void *ctx);
    /* Called after every EXPLORE_PROGRESS_EVERY states expanded, with the states found and the
     * transitions taken so far (verify's progress line on stderr): NULL for none. */
    void (*progress)(guint64 states, guint64 transitions, void *progress_ctx);
    void *progress_ctx;
} ExploreOptions;

#define EXPLORE_PROGRESS_EVERY 4096

typedef enum {
    EXPLORE_VERIFIED,          /* every reachable state explored, every check held */
    EXPLORE_FAILED,            /* a check failed: the trace reaches it */
    EXPLORE_INCOMPLETE,        /* a bound cut the search short: nothing failed in what it saw */
} ExploreVerdict;

typedef enum {
    EXPLORE_PROP_NONE,
    EXPLORE_PROP_EXCLUSION,    /* two threads inside at once */
    EXPLORE_PROP_FAULT,        /* a thread faulted */
    EXPLORE_PROP_DEADLOCK,     /* no move left, some thread unfinished */
    EXPLORE_PROP_END,          /* the end check failed */
    EXPLORE_PROP_NO_FINISH,    /* no execution from here finishes */
} ExploreProperty;

typedef enum {
    EXPLORE_CUT_NONE,
    EXPLORE_CUT_STATES,        /* --max-states */
    EXPLORE_CUT_MEMORY,        /* --max-memory */
    EXPLORE_CUT_BUFFER,        /* a store waited on a full buffer (--store-buffer) */
    EXPLORE_CUT_MODEL,         /* a bound of the model's own (arm64: messages, certification) */
} ExploreCut;

/* Most writes a step names besides its first source (graph counterexamples: an access of up to
 * 8 bytes reads at most 8 writes). */
#define EXPLORE_STEP_LINKS 8

/* A write a step names: its step (0: the initial value) and thread. */
typedef struct {
    guint step, thread;
} ExploreLink;

/* One move of a counterexample, as a person reads it. */
typedef struct {
    guint step;                /* 1.. */
    ExploreNote note;          /* what the move did (thread, kind, pc, read, wrote) */
    guint thread_step;         /* a step: the thread's k-th op (1..); a drain: 0 */
    char *op;                  /* the op's text (a drain: the store's) */
    char *at;                  /* "file:line" of it */
    char *addr;                /* the variable accessed ("flag+4"), or NULL */
    /* A read: where its value came from. */
    const char *source;        /* "initial", "memory", "forwarded", "mixed", or NULL */
    guint source_step;         /* the store's step (0: the initial value) */
    guint source_thread;
    guint source_in_memory;    /* "memory": the step it reached memory (its drain) */
    guint nsources;            /* graphs: every write its bytes read (more than one: a mixed read) */
    ExploreLink sources[EXPLORE_STEP_LINKS];
    guint nunseen;             /* graphs: newer writes to what it read, earlier in the steps */
    ExploreLink unseen[EXPLORE_STEP_LINKS];
    char *not_seen;            /* those in words ("did not see T1's st32 [lock], 0 at f.qs:9 (step 4)") */
    char *what;                /* the whole effect in words */
    char *buffers;             /* a read from memory: the thread's own store buffer, when not empty */
    char *pending;             /* a read from memory: other threads' buffered stores to what it read */
    char *after;               /* what followed at once ("acquired", "wakes T1"), or NULL */
} ExploreStep;

typedef struct {
    GPtrArray *steps;          /* ExploreStep* */
    char *end;                 /* each thread at the end: state, position, store buffer */
    gboolean without_promises; /* found in the pass without promises: a shortest one of those */
    gboolean from_graph;       /* an execution graph's events in an order po and rf agree with (not a shortest) */
} ExploreTrace;

typedef struct {
    ExploreVerdict verdict;
    ExploreProperty property;  /* EXPLORE_FAILED */
    ExploreCut cut;            /* EXPLORE_INCOMPLETE */
    char *message;             /* EXPLORE_FAILED: what failed; EXPLORE_INCOMPLETE: which bound */
    guint64 states, transitions;
    guint64 finished;          /* states where every thread halted */
    guint64 depth;             /* the longest shortest path, in moves */
    guint64 max_shared;        /* most threads inside shared regions at once */
    guint64 bytes;             /* memory the search held */
    gboolean buffer_full;      /* some store waited on a full buffer */
    double seconds;            /* host time (for people; never compared) */
    ExploreTrace *trace;       /* EXPLORE_FAILED */
    gboolean graphs;           /* from the graph explorer: states are graphs, transitions executions */
    guint64 blocked;           /* graphs: executions dropped with a thread blocked in a spin loop */
} ExploreResult;

/* Explores p under o.  FALSE with an error only for bad set-up (no entry point); otherwise the
 * verdict is in *r (explore_result_clear frees it). */
gboolean explore_run(const IsaProgram *p, const ExploreOptions *o, ExploreResult *r, GError **error);
void explore_result_clear(ExploreResult *r);

const char *explore_property_name(ExploreProperty p);   /* "mutual-exclusion", ... */
const char *explore_cut_option(ExploreCut c);           /* "--max-states", ... */

/* The path's moves replayed as steps a person can follow (explore_trace.c). */
ExploreTrace *explore_trace_build(const ExploreWorld *w, const ExploreModel *m, const ExploreMove *moves,
                                  guint n);
void explore_trace_free(ExploreTrace *t);
/* An empty trace whose steps (ExploreStep*, every string member allocated) it frees. */
ExploreTrace *explore_trace_new(void);

/* Text: a numbered table of the steps, then the end; JSON: the result's members
 * (docs/verify.md names each key). */
char *explore_trace_text(const ExploreTrace *t);
#include <json-glib/json-glib.h>
void explore_result_add_json(const ExploreResult *r, JsonBuilder *b);

#endif

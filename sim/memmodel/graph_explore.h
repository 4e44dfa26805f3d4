/* An execution-graph explorer: every consistent execution of an ISA program under an axiomatic
 * model (sc, tso, arm64: model.h), found by growing execution graphs one event at a time, as
 * GenMC does (Kokologiannakis, Raad, Vafeiadis, PLDI 2019; the TruSt algorithm, Kokologiannakis,
 * Marmanis, Gladstein, Vafeiadis, POPL 2022):
 *
 *   graph_replay.c  a thread's next event: the thread run from its start through the shared
 *                   thread step (cores/isa/thread_step.h), its reads answered from the graph,
 *                   with register taint for the arm64 dependencies (thread_paths.c's rules)
 *   graph_search.c  the search: a read takes each write of its location (forward); a write
 *                   takes each coherence placement and revisits each earlier read of its
 *                   location outside its porf-prefix (backward); the model checks each graph
 *
 * What is exact and what is bounded (docs/verify.md): the search is sound and complete for the
 * executions it reaches within the bounds, but not optimal (TruSt's maximal-extension rule is
 * not applied: a graph reached twice is recognised by its canonical bytes and explored once).
 * Spin loops: a thread back at a pc with the registers it had there, having written nothing
 * since, is blocked (spin-assume, Kokologiannakis, Ren, Vafeiadis, FMCAD 2021); a graph that
 * ends with a blocked thread whose blocking reads read coherence-latest writes is a liveness
 * failure, any other is dropped (a later write revisits the reads).  Other loops: `unroll`
 * backward jumps per thread, past which the verdict is "bound reached".  wfe sleeps until the
 * graph holds something to wake it (another thread's sev, a write to its monitored line after
 * what its ldx read): more wake-ups than hardware gives, never fewer, so a thread left asleep
 * at the end is a lost wake-up (a missing sev).
 * Mixed sizes: an 8-byte block accessed with two addresses or sizes is taken per byte, each
 * access one byte event per byte, rf and co per byte, tied by the model's sca-class (Flur et
 * al., POPL 2017; herd -variant mixed); finding such a block restarts the search.
 * Futex ops: atomic read-modify-writes of the word's wait queue (a location outside memory)
 * between full fences, so one word's futex ops are in one total order; a thread asleep waits
 * for the queue to lose it (a spin loop under spin-assume), and if nothing dequeues it, that
 * is a lost wake-up (graph_replay.c). */
#ifndef QSIM_MM_GRAPH_EXPLORE_H
#define QSIM_MM_GRAPH_EXPLORE_H

#include "sim/memmodel/memmodel.h"
#include "cores/isa/thread_step.h"

/* A step's address with this bit set is the futex wait queue of the word at the rest; its
 * value the sleepers, oldest first, thread id + 1 per 4 bits. */
#define MM_GRAPH_QUEUE_ADDR (G_GUINT64_CONSTANT(1) << 63)

#define MM_GRAPH_DEFAULT_UNROLL 64
#define MM_GRAPH_DEFAULT_MAX_GRAPHS G_GUINT64_CONSTANT(2000000)
/* Events one thread may add (the taint sets' width). */
#define MM_GRAPH_MAX_THREAD_EVENTS 512

/* A finished execution as the end check sees it. */
typedef struct MmGraphEnd MmGraphEnd;
/* Memory after the execution: the coherence-last write to each byte's location, else the
 * initial image. */
uint64_t mm_graph_end_load(const MmGraphEnd *e, uint64_t addr, unsigned size);
const IsaThread *mm_graph_end_thread(const MmGraphEnd *e, guint t);

typedef struct {
    const IsaProgram *prog;
    guint nthreads;
    uint32_t line_size;        /* 0: 64 */
    const char *entry;         /* NULL: "main" */
    const MmModelDef *model;
    Arch arch;                 /* ARMv8: the dependencies matter */
    guint unroll;              /* backward jumps per thread (0: MM_GRAPH_DEFAULT_UNROLL) */
    guint64 max_graphs;        /* 0: MM_GRAPH_DEFAULT_MAX_GRAPHS */
    /* NULL when the finished execution is fine, else what failed (newly allocated). */
    char *(*end_check)(const MmGraphEnd *e, void *ctx);
    void *ctx;
    /* Called with every finished consistent execution (tests: the final-state sets). */
    void (*on_execution)(const MmGraphEnd *e, void *ctx);
} MmGraphOptions;

typedef enum {
    MM_GRAPH_VERIFIED,
    MM_GRAPH_FAILED,
    MM_GRAPH_BOUND,            /* --unroll or --max-executions reached: not verified */
} MmGraphVerdict;

typedef enum {
    MM_GRAPH_FAIL_NONE,
    MM_GRAPH_FAIL_END,         /* the end check */
    MM_GRAPH_FAIL_FAULT,       /* a thread faulted */
    MM_GRAPH_FAIL_LIVENESS,    /* a thread spins forever reading the latest writes */
} MmGraphFailure;

/* Most writes one step names as its sources, or as writes it did not see (an access of 8
 * bytes reads at most 8 writes). */
#define MM_GRAPH_STEP_LINKS 8

/* A write a step names: its 1-based step (0: the initial value) and thread. */
typedef struct {
    guint step, thread;
} MmGraphLink;

/* One instruction's access in a counterexample (in a mixed block, its byte events taken
 * together; an atomic read-modify-write's read and write together), in an order consistent
 * with po and rf. */
typedef struct {
    guint thread;
    int32_t pc;
    MmKind kind;
    uint64_t addr, value;      /* the access's first byte; the value at its size, little-endian */
    unsigned size;
    gboolean has_source;       /* a read: where its value came from */
    guint source_step;         /* 1-based step of the (first) write; 0: the initial value */
    guint source_thread;
    guint nsources;            /* a read: the distinct writes its bytes read, in byte order */
    MmGraphLink sources[MM_GRAPH_STEP_LINKS];
    /* A read: writes to what it read, coherence-later than what it read and earlier in the
     * steps than it, so that a person sees what was not yet visible to it. */
    guint nunseen;             /* newest first */
    MmGraphLink unseen[MM_GRAPH_STEP_LINKS];
    guint unseen_total;        /* how many there were (unseen keeps the newest) */
    /* A read of an atomic read-modify-write: its write, the same instruction, in this step. */
    gboolean wrote;
    uint64_t wvalue;
    unsigned wsize;
} MmGraphStep;

typedef struct {
    MmGraphVerdict verdict;
    MmGraphFailure failure;
    char *message;             /* failed: what; bound: which */
    guint64 graphs;            /* graphs explored (each consistent partial graph once) */
    guint64 executions;        /* finished consistent executions */
    guint64 blocked;           /* executions dropped with a blocked thread (spin-assume) */
    GArray *steps;             /* failed: MmGraphStep, the failing graph linearised */
    double seconds;            /* host time, for people */
} MmGraphResult;

/* FALSE with an error for bad set-up or what the explorer refuses (futex ops with more than 15
 * threads). */
gboolean mm_graph_explore(const MmGraphOptions *o, MmGraphResult *r, GError **error);
void mm_graph_result_clear(MmGraphResult *r);

#endif

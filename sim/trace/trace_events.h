/* The trace of a run as one stream of typed events, produced by the memory system's trace hook
 * (a protocol row that fired, with the messages it sent), the cores' trace hook (pipeline
 * events, retirements) and the harness's marks (lock phases), and consumed by the writers:
 * text (sim/trace/trace_text.c), Perfetto JSON (sim/trace/trace_perfetto.c) and the step-through page
 * (sim/trace/trace_html.c).  Every writer sees the same events in the same order (the engine's), and
 * names lines and addresses through the program's layout (sim/trace/trace_names.h).
 *
 * Filters (--trace-line, --trace-only) are decided here once: each event reaches every sink
 * with `shown` (it passes both filters) and `line_ok` (it passes the line filter), so that a
 * writer can keep its picture of the caches whole while showing only what was asked. */
#ifndef QSIM_TRACE_EVENTS_H
#define QSIM_TRACE_EVENTS_H

#include <stdio.h>
#include <glib.h>
#include "coherence/memsys.h"
#include "cores/core.h"
#include "cores/isa/isa.h"
#include "sim/trace/trace_names.h"

typedef enum {
    TRACE_ROW,      /* a protocol table row fired, with the messages it sent */
    TRACE_MSG,      /* a message sent outside any row (a far atomic's request) */
    TRACE_PIPE,     /* a pipeline event: machine clear, mispredict, replay, WFE sleep */
    TRACE_LOCK,     /* a lock phase: calls lock, acquires, releases (the harness's marks) */
    TRACE_RETIRE,   /* the pipeline's bookkeeping, never shown: an op retired, a load issued or
                     * performed, a squash, a store entering or leaving the store buffer (pipe->kind
                     * says which; the page uses them for "next to retire" and its pipeline panel) */
} TraceKind;

/* The harness's marks (sim/workload/harness.c): mark 1 before `call lock`, 2 after it, 3 after unlock. */
typedef enum { TRACE_LOCK_CALL = 1, TRACE_LOCK_ACQUIRED = 2, TRACE_LOCK_RELEASED = 3 } TraceLockMark;

/* What --trace-only selects, as bits. */
typedef enum {
    TRACE_SHOW_TRANSITIONS = 1u << 0,  /* rows that fire, except a cache's hits and stalls */
    TRACE_SHOW_HITS        = 1u << 1,  /* a cache's hits that keep the state, and its stalls */
    TRACE_SHOW_MESSAGES    = 1u << 2,  /* the messages rows send */
    TRACE_SHOW_PIPELINE    = 1u << 3,  /* machine clears, mispredicts, replays, WFE sleeps */
    TRACE_SHOW_LOCKS       = 1u << 4,  /* lock phases */
} TraceShow;
/* The default: everything but hits and stalls, which writers collapse. */
#define TRACE_SHOW_DEFAULT (TRACE_SHOW_TRANSITIONS | TRACE_SHOW_MESSAGES | TRACE_SHOW_PIPELINE | TRACE_SHOW_LOCKS)

typedef struct {
    TraceKind kind;
    Cycle cycle;
    gint core;                   /* the core, or MEMSYS_HOME for a directory row */
    uint64_t line;               /* the line concerned; 0 when none (lock phases, mispredicts) */
    gboolean shown;              /* passes --trace-only and --trace-line */
    gboolean line_ok;            /* passes --trace-line */
    const MemTraceRow *row;      /* TRACE_ROW */
    const MemTraceMsg *msgs;     /* TRACE_ROW: the messages it sent; TRACE_MSG: the one */
    guint nmsgs;
    const CoreTraceEvent *pipe;  /* TRACE_PIPE, TRACE_RETIRE */
    TraceLockMark mark;          /* TRACE_LOCK */
    Cycle mark_since;            /* TRACE_LOCK: the core's previous mark (its phase began) */
    gint script_access;          /* the script's access in progress (TraceContext.script), -1: none */
} TraceEvent;

/* What the harness's marks (1, 2, 3) bracket: a lock's acquire and release, or a scenario's
 * body (`qsim run --scenario`); scripted accesses (`--script`) have none. */
typedef enum {
    TRACE_HARNESS_LOCK = 0,
    TRACE_HARNESS_SCENARIO,
    TRACE_HARNESS_SCRIPT,
} TraceHarness;

/* One access of a script (`qsim run --script`): as written ("1:st x=5"), and its core. */
typedef struct {
    const char *text;
    guint core;
} TraceScriptAccess;

/* Where a thread is, when more threads than cores share them (the OS model's time-sharing). */
typedef enum {
    TRACE_THREAD_RUNNING,        /* on a core */
    TRACE_THREAD_READY,          /* in a core's run queue */
    TRACE_THREAD_ASLEEP,         /* in futex_wait */
    TRACE_THREAD_DONE,           /* finished */
    TRACE_THREAD_LOADING,        /* being switched onto a core */
} TraceThreadWhere;

/* What the writers need to know about the run, borrowed for the stream's life. */
typedef struct {
    const char *config, *lock;
    const CohProtocol *proto;
    const IsaProgram *prog;
    const TraceNames *names;
    guint nthreads;
    const guint *cores;          /* per thread: its core */
    guint ncores;                /* cores of the machine (ids below this) */
    uint64_t lock_line;          /* the lock word's line, 0 when the program has none */
    guint machine_cores;         /* physical cores (0: as ncores, one hardware thread each) ... */
    guint threads_per_core;      /* ... and their hardware threads (0 or 1: no SMT) */
    TraceHarness harness;        /* what the marks bracket: the words for a thread's phase */
    const TraceScriptAccess *script; /* a script's accesses (TRACE_HARNESS_SCRIPT), else NULL */
    guint nscript;
    gboolean script_who;         /* the script names hardware threads (`0.1:st x`): the text trace
                                  * says, as each access starts, which thread does it */
    /* Where thread `t` is now and on (or for) which logical CPU, asked as the events come; NULL:
     * thread t runs on cores[t] throughout (no OS model). */
    TraceThreadWhere (*thread_where)(void *arg, guint t, guint *cpu);
    void *thread_where_arg;
} TraceContext;

/* A consumer of the stream.  `event` sees every event in order; `finish` runs once at the end
 * of the run (`end`: its last cycle) and may fail (a file it could not write). */
typedef struct TraceSink TraceSink;
struct TraceSink {
    void (*event)(TraceSink *s, const TraceContext *ctx, const TraceEvent *ev);
    gboolean (*finish)(TraceSink *s, const TraceContext *ctx, Cycle end, GError **error);
    void (*free)(TraceSink *s);
};

typedef struct {
    guint show;                  /* TraceShow bits */
    GArray *lines;               /* uint64_t: only these lines; NULL or empty: every line */
} TraceFilter;

/* Parses "transitions,messages" (any of transitions, hits, messages, pipeline, locks, all). */
gboolean trace_show_parse(const char *text, guint *show, GError **error);

typedef struct TraceStream TraceStream;

/* Takes ownership of the sinks added; the filter's lines are copied. */
TraceStream *trace_stream_new(const TraceContext *ctx, const TraceFilter *filter);
void trace_stream_add_sink(TraceStream *t, TraceSink *sink);
/* What a core reports while one of ms's rows is being applied (a machine clear: the row told it
 * of the lost line) is held until that row has been delivered: the cause comes first. */
void trace_stream_follow_rows(TraceStream *t, const MemSys *ms);
/* The hooks: pass them with the stream as user data. */
void trace_stream_mem(void *stream, const MemTraceRow *row, const MemTraceMsg *msgs, guint nmsgs);
void trace_stream_core(void *stream, guint core, const CoreTraceEvent *ev);
void trace_stream_mark(TraceStream *t, guint core, int64_t mark, Cycle when);
/* A script's access `i` (TraceContext.script) starts: the events until the next are its. */
void trace_stream_script_access(TraceStream *t, guint i);
/* Ends the stream: every sink's finish, the first error kept. */
gboolean trace_stream_finish(TraceStream *t, Cycle end, GError **error);
void trace_stream_free(TraceStream *t);

/* ---- the words every writer shares ---- */
/* A cache's hit that keeps its state, or a cache's stall: collapsed unless hits are asked for. */
gboolean trace_row_is_hit(const MemTraceRow *r);
/* "core 1", "home", "bus". */
const char *trace_who(gint core, char buf[16]);
/* A pipeline's (a logical CPU's) name: "core 3", or with SMT "core 3.1" (core 3's second
 * hardware thread: memory rows, which the core's threads share, say "core 3"). */
const char *trace_who_cpu(const TraceContext *ctx, gint cpu, char buf[16]);
/* "Upgrade to home", "Data(c2c) to core 1 (expect 1 ack)". Caller frees. */
char *trace_msg_text(const MemTraceMsg *m);
/* What a row did: the access ("atomic lock_word: "), the messages with their destinations,
 * the other actions in brief, and a directory row's entry after it.  Caller frees. */
char *trace_row_actions(const TraceContext *ctx, const MemTraceRow *r, const MemTraceMsg *msgs, guint n);
/* A pipeline event in words, with source positions and line names.  Caller frees. */
char *trace_pipe_text(const TraceContext *ctx, const CoreTraceEvent *ev);
/* "calls lock", "acquires (waited 24 cycles)", "releases (held 40 cycles)"; for a scenario
 * "calls body", "returns from body (after 24 cycles)", "ends the iteration".  Caller frees. */
char *trace_lock_text(const TraceContext *ctx, const TraceEvent *ev);
/* A thread's phase between the marks in words (0: before mark 1 or after mark 3; 1: between 1
 * and 2; 2: between 2 and 3): "outside the lock", "acquiring", "holding the lock" for a lock. */
const char *trace_phase_word(const TraceContext *ctx, guint phase);
/* What a span between two marks is, for a timeline (phase 1 or 2): "acquiring the lock". */
const char *trace_phase_span(const TraceContext *ctx, guint phase);
/* "ttas:9" and "xchg32.acq r0, [lock_word], 1" for a pc.  Caller frees. */
char *trace_insn_pos(const TraceContext *ctx, int32_t pc);
char *trace_insn_text(const TraceContext *ctx, int32_t pc);

#endif

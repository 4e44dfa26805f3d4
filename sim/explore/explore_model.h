/* A memory model for the explorer: what moves a state allows and what each does.  A model is one
 * table (ExploreModel) in one file: model_sc.c (sequential consistency: the reference
 * interpreter's), model_tso.c (x86-TSO: per-thread FIFO store buffers).  An ARMv8 model (an
 * operational one proven equal to the official axiomatic model, such as Promising-ARM, Pulte et
 * al., PLDI 2019) is one more file and one more row in explore_models[], with its own section
 * of the state (explore_state.h).
 *
 * What every op computes and how it acts on a thread is written once, in cores/isa/thread_step.h
 * (the interpreter runs the same step), and how it reaches the state once, in explore_exec.c; a model decides only where a plain load reads from, where a
 * plain store goes, when an op may run, and what other moves there are (a drain). */
#ifndef QSIM_EXPLORE_MODEL_H
#define QSIM_EXPLORE_MODEL_H

#include "sim/explore/explore_state.h"

typedef enum {
    EXPLORE_MOVE_STEP,     /* the thread runs its next op (the one at its pc) */
    EXPLORE_MOVE_DRAIN,    /* the oldest store in the thread's store buffer reaches memory */
    EXPLORE_MOVE_PROMISE,  /* (arm64) the thread promises a write it will make later */
} ExploreMoveKind;

typedef struct {
    guint thread;
    ExploreMoveKind kind;
    guint arg;                 /* which of the move's outcomes (arm64: the message read, the promise); 0 */
} ExploreMove;

/* What a move did, for counterexamples: filled by explore_exec.c and the model. */
typedef struct {
    guint thread;
    ExploreMoveKind kind;
    int32_t pc;                /* the op run, or (a drain) the store that put the entry there */
    gboolean read;             /* read raddr (rsize bytes), getting rvalue */
    uint64_t raddr, rvalue;
    unsigned rsize;
    gint8 from_buffer[8];      /* per byte read: the entry of the own store buffer that gave it
                                * (0 oldest), or -1: memory */
    gboolean wrote;            /* wrote wvalue to memory at waddr (wsize bytes) */
    uint64_t waddr, wvalue;
    unsigned wsize;
    gboolean buffered;         /* a store entered the thread's buffer (now its newest entry) */
    char why[320];             /* the model's own account of the step (arm64: views, promises), or "" */
    gboolean terse;            /* the caller needs no account (why stays "") */
} ExploreNote;

typedef struct ExploreModel {
    const char *name;          /* "sc", "tso": --model */
    const char *title;         /* "sequential consistency" */
    const char *reference;     /* where its rules come from */
    gboolean has_buffers;      /* states have store buffers (counterexamples show them) */
    /* Whether thread t may run op i now as a step of its own: one that reads and writes nothing
     * another thread can see or change, so it commutes with every other move and is no
     * scheduling point (explore_exec.c runs such ops at once). */
    gboolean (*local)(const ExploreWorld *w, const ExploreState *s, guint t, const IsaInsn *i);
    /* Appends the moves enabled in s, in a fixed order.  Sets *bounded when a move was left out
     * only because a bound of the model's (a full store buffer) disabled it. */
    void (*moves)(const ExploreWorld *w, const ExploreState *s, GArray *moves, gboolean *bounded);
    /* Performs m (one of moves()'s) on s. */
    void (*apply)(const ExploreWorld *w, ExploreState *s, ExploreMove m, ExploreNote *note);
    /* A plain load's value and a plain store's effect (ld, st; every other access acts on
     * memory, which `moves` enables only when the model allows). */
    uint64_t (*load)(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                     ExploreNote *note);
    void (*store)(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size, uint64_t value,
                  int32_t pc, ExploreNote *note);
    /* A model with its own section of the state (arm64): how it runs a local op (NULL:
     * explore_exec_op), and its section's life (NULL: none; explore_state.c calls them). */
    void (*exec)(const ExploreWorld *w, ExploreState *s, guint t, ExploreNote *note);
    const ExploreStateExt *ext;
    /* Whether thread t's position says what it has done (NULL: always).  A model where a thread
     * may make writes visible ahead of its position (arm64's promises) answers no while it holds
     * one: two threads inside at once is a violation only when neither holds a promise; a
     * section overlapping another through promised writes shows in what the sections did (the
     * harness's flag and counter, checked at the end). */
    gboolean (*position_settled)(const ExploreState *s, guint t);
    /* The model has moves that only widen what other moves reach (arm64's promises): the
     * search first explores without them (ExploreWorld.first_pass), where a failure found is
     * one of the model's executions, found sooner; then, finding none, with them. */
    gboolean has_promises;
    /* What to say when `moves` set *bounded (NULL: the store buffer's sentence). */
    const char *bound_message;
} ExploreModel;

extern const ExploreModel explore_model_sc;
extern const ExploreModel explore_model_tso;
extern const ExploreModel explore_model_arm64;

/* A row of the models --model names, the ones not built yet included. */
typedef struct {
    const char *name;
    const ExploreModel *model; /* NULL: not available yet */
    const char *why;           /* model NULL: what to say; else, why it is not yet its arch's default (NULL: it is) */
} ExploreModelRow;
extern const ExploreModelRow explore_models[];
/* The row named `name`, or NULL. */
const ExploreModelRow *explore_model_row(const char *name);
/* The model of an architecture: x86's is tso, arm64's arm64. */
const ExploreModelRow *explore_model_for_arch(Arch a);
/* "sc, tso, arm64" */
char *explore_model_names(void);

#endif

/* One op of one thread, the ISA's meaning written once for every program-level runner: the
 * reference interpreter (cores/isa/interp.c) and the explorer (sim/explore/explore_exec.c).
 * The step does registers, the pc, branches and calls, the ALU, `la`, marks, the exclusive
 * monitor and the event register, wfe/sev/sevl, and the futex ops' rules (compare and queue in
 * one step; wake the longest asleep first); for everything that touches the world (memory, a
 * fault's report, leaving or rejoining the runnable set, the futex queue's order) it calls the
 * runner's IsaStepOps.  Where the runners differ is only there: how a plain load or store reaches
 * memory (the interpreter's one memory; a memory model's buffers), how a fault is recorded, the
 * scheduler's bookkeeping and how the futex queue is numbered.
 *
 * The conventions (call stack, `stx`, events, futexes) are those written in cores/isa/interp.h. */
#ifndef QSIM_THREAD_STEP_H
#define QSIM_THREAD_STEP_H

#include "cores/isa/isa.h"
#include "cores/isa/isa_fault.h"

typedef enum {
    THREAD_RUNNABLE,
    THREAD_WFE,        /* blocked in wfe, waiting for an event */
    THREAD_FUTEX,      /* asleep in futex_wait, waiting for a futex_wake of its word */
    THREAD_HALTED,
    THREAD_FAULT,      /* a runtime error stopped it */
} IsaThreadState;

/* The part of a thread the step reads and writes.  A runner's own thread type begins with these
 * fields through ISA_THREAD_FIELDS (see IsaThreadUnion), so its code names them as its own and
 * hands the step the same bytes as an IsaThread. */
#define ISA_THREAD_FIELDS                                                                             \
    IsaThreadState state;                                                                             \
    int32_t pc;                                                                                       \
    uint64_t regs[ISA_NREG_SLOTS];                                                                    \
    int32_t stack[ISA_CALL_DEPTH];                                                                    \
    guint depth;                                                                                      \
    gboolean monitor;            /* exclusive monitor armed (by ldx) */                               \
    gboolean has_ldx_line;                                                                            \
    uint64_t ldx_line;           /* the line of the last ldx (address / line size) */                 \
    gboolean event;              /* event register (sevl, sev, a write clearing the monitor) */       \
    uint64_t marks[4];           /* how many times mark 1..3 ran (index 0: any other N) */            \
    uint64_t futex_addr;         /* THREAD_FUTEX: the word it sleeps on */

typedef struct {
    ISA_THREAD_FIELDS
} IsaThread;

/* The head of a runner's thread type: its fields by name, and the whole as `isa`. */
#define ISA_THREAD_HEAD                                                                               \
    union {                                                                                           \
        IsaThread isa;                                                                                \
        struct {                                                                                      \
            ISA_THREAD_FIELDS                                                                         \
        };                                                                                            \
    }

/* What a runner fills in.  Every callback gets the runner's context; NULL ones do nothing. */
typedef struct {
    IsaThread *(*thread)(void *ctx, guint t);
    /* A plain `ld` and `st`: through the runner's memory model. */
    uint64_t (*load)(void *ctx, guint t, uint64_t addr, unsigned size);
    void (*store)(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value, int32_t pc);
    /* Memory as it is, for the ops that act on it in one atomic step (read-modify-writes, ldx,
     * stx, futex_wait).  A write must end in isa_thread_write_seen (monitors and events). */
    uint64_t (*read)(void *ctx, guint t, uint64_t addr, unsigned size);
    void (*write)(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value);
    /* Thread t stopped on a fault (its state is THREAD_FAULT already). */
    void (*fault)(void *ctx, guint t, IsaFaultKind kind, uint64_t addr, unsigned size);
    /* Thread t left THREAD_RUNNABLE (wfe, futex_wait, halt, a fault), or came back to it. */
    void (*left_run)(void *ctx, guint t);
    void (*rejoined_run)(void *ctx, guint t);
    /* The futex queue: t has just gone to sleep (state and futex_addr set); the order key of a
     * sleeper (the smallest wakes first); u has just been woken (state RUNNABLE again). */
    void (*futex_slept)(void *ctx, guint t);
    uint64_t (*futex_order)(void *ctx, guint t);
    void (*futex_woken)(void *ctx, guint t);
} IsaStepOps;

/* A runner as the step sees it. */
typedef struct {
    const IsaStepOps *ops;
    void *ctx;
    const IsaProgram *p;
    const IsaLayout *layout;
    guint nthreads;
    uint32_t line_size;
} IsaStepWorld;

/* The op at thread th's pc, or NULL when the pc is outside the program. */
static inline const IsaInsn *isa_thread_insn(const IsaProgram *p, const IsaThread *th)
{
    if (th->pc < 0 || (guint)th->pc >= p->insns->len)
        return NULL;
    return &g_array_index(p->insns, IsaInsn, th->pc);
}

/* Runs thread t's next op (t is runnable).  FALSE when the op could not begin: its pc is outside
 * the program or its access outside memory (the thread faulted, the op is not counted); TRUE
 * when it ran, even if it faulted part-way (`la` of a thread that does not exist, a call too
 * deep, a `ret` with nothing to return to). */
gboolean isa_thread_step(const IsaStepWorld *w, guint t);

/* Thread t faults: state THREAD_FAULT, the runner told. */
void isa_thread_fault(const IsaStepWorld *w, guint t, IsaFaultKind kind, uint64_t addr, unsigned size);

/* A write by thread t at addr reached memory: it clears the other threads' armed monitors on
 * its line, and each clearing is an event for that thread.  A thread whose monitor is not armed
 * gets no event, even when it last ldx-ed this line: on arm64 the wake-up event is the clearing
 * of the global monitor (the Arm ARM's list of WFE wake-up events), so a wfe after the monitor was
 * cleared, and not re-armed, sleeps through later stores: the lost wake-up verify must catch. */
void isa_thread_write_seen(const IsaStepWorld *w, guint t, uint64_t addr);

#endif

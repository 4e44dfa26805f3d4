/* The reference interpreter: runs N threads of a program on sequentially consistent memory,
 * one op at a time, the next thread chosen by a seeded GRand.  It is the oracle for lock
 * correctness, independent of the timing model.  No globals: every run owns its state.
 *
 * Conventions (docs/isa.md): every thread starts at entry point `main` (or InterpOptions.entry)
 * with registers 0 except tid and nthreads; call/ret use a per-thread return stack of
 * INTERP_CALL_DEPTH entries outside memory; `stx` succeeds iff no other thread wrote the line
 * since this thread's `ldx`; an event is `sev` (any thread), `sevl` (this one), or another
 * thread's write to the line of this thread's armed monitor (clearing it: the monitor is armed by
 * `ldx` and cleared by that write or by this thread's `stx`); `wfe` consumes a pending event, else
 * blocks until the next one.  A `wfe` with no armed monitor and no `sev` coming never wakes: when
 * every unfinished thread sleeps, that is a deadlock; when others spin on, the step bound.
 *
 * The futex ops are Linux's FUTEX_WAIT and FUTEX_WAKE, each one atomic step (the kernel compares
 * and queues under the hash-bucket lock): `futex_wait rd, [m], v` sleeps if the 32-bit word at m
 * equals v (rd := 0 once woken), else returns rd := 1 (EAGAIN) at once; `futex_wake rd, [m], n`
 * wakes up to n threads sleeping on m, in the order they went to sleep, rd := how many.  No
 * wake-up is spurious and none times out, so a thread left asleep with nobody to wake it is a
 * lost wake-up: a deadlock when every unfinished thread sleeps, else the step bound. */
#ifndef QSIM_INTERP_H
#define QSIM_INTERP_H

#include "cores/isa/isa.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/thread_step.h"

#define INTERP_CALL_DEPTH ISA_CALL_DEPTH
#define INTERP_BASE 0x10000   /* address of the program's memory; 0 stays an invalid pointer */

/* A thread's run state (cores/isa/thread_step.h). */
typedef IsaThreadState InterpThreadState;

typedef enum {
    INTERP_RUNNING,    /* more steps to take */
    INTERP_FINISHED,   /* every thread halted */
    INTERP_DEADLOCK,   /* no thread can run: all left are blocked in wfe */
    INTERP_LIVELOCK,   /* the step bound ran out */
    INTERP_FAULT,      /* a thread hit a runtime error */
} InterpOutcome;

typedef struct {
    ISA_THREAD_HEAD;             /* state, pc, registers, call stack, monitor, event, marks,
                                  * futex word (cores/isa/thread_step.h) */
    uint64_t steps;              /* ops executed */
    uint64_t futex_seq;          /* THREAD_FUTEX: when it went to sleep (wake order) */
    uint64_t futex_sleeps;       /* futex_waits that slept */
    char *fault;                 /* the runtime error, when state == THREAD_FAULT */
} InterpThread;

typedef struct {
    guint threads;               /* 1.. */
    guint64 seed;
    guint64 max_steps;           /* livelock bound over all threads; 0: 10 million */
    uint32_t line_size;          /* 0: 64 */
    const char *entry;           /* NULL: "main" */
} InterpOptions;

typedef struct Interp Interp;

#define INTERP_ERROR (interp_error_quark())
GQuark interp_error_quark(void);
typedef enum { INTERP_ERROR_SETUP } InterpError;

/* NULL with an error when the entry point is missing or threads is 0. */
Interp *interp_new(const IsaProgram *p, const InterpOptions *o, GError **error);
void interp_free(Interp *in);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Interp, interp_free)

/* Runs one op of one runnable thread; returns the outcome so far. */
InterpOutcome interp_step(Interp *in);
/* Steps until the outcome is not INTERP_RUNNING. */
InterpOutcome interp_run(Interp *in);

InterpOutcome interp_outcome(const Interp *in);
const char *interp_outcome_name(InterpOutcome o);
uint64_t interp_steps(const Interp *in);
const InterpThread *interp_thread(const Interp *in, guint t);
const IsaLayout *interp_layout(const Interp *in);

/* Memory access for checkers (little-endian); FALSE when outside the program's memory. */
gboolean interp_read(const Interp *in, uint64_t addr, unsigned size, uint64_t *value);
/* Sets memory before a run (an initial state the declarations cannot express, such as a
 * pointer); FALSE when outside the program's memory. */
gboolean interp_write(Interp *in, uint64_t addr, unsigned size, uint64_t value);
/* The value of variable `sym` (thread t's copy), `size` bytes at offset 0; FALSE if no such
 * variable. */
gboolean interp_read_sym(const Interp *in, const char *sym, guint t, unsigned size, uint64_t *value);

/* Threads asleep in futex_wait now. */
guint interp_futex_sleepers(const Interp *in);

/* Each thread's state, pc (with source position and op) and registers, for reports. */
char *interp_describe(const Interp *in);

#endif

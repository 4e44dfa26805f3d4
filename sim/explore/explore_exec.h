/* How each op acts on an explorer state: the reference interpreter's semantics, written once in
 * cores/isa/thread_step.h (call stack, `stx` and the exclusive monitor, events and `wfe`, the
 * futex ops, faults), on a state a search can copy and hash.  Plain loads and stores go through the model (ExploreModel.load,
 * .store); every other memory access acts on memory, at the point the model enables it. */
#ifndef QSIM_EXPLORE_EXEC_H
#define QSIM_EXPLORE_EXEC_H

#include "sim/explore/explore_model.h"

/* The op at thread t's pc, or NULL when the pc is outside the program. */
const IsaInsn *explore_insn(const ExploreWorld *w, const ExploreState *s, guint t);

/* Runs thread t's op (one step; the thread is runnable). */
void explore_exec_op(const ExploreWorld *w, const ExploreModel *m, ExploreState *s, guint t, ExploreNote *note);

/* Brings s to rest after a move: each runnable thread runs its local ops (ExploreModel.local)
 * up to its next scheduling point (a thread that runs EXPLORE_RUNAWAY_OPS of them faults), then
 * dead registers are zeroed. */
void explore_settle(const ExploreWorld *w, const ExploreModel *m, ExploreState *s);

/* A write reaching memory, by thread t: clears the other threads' exclusive monitors on the line,
 * each clearing an event for that thread (waking its wfe), as the interpreter does. */
void explore_mem_store(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                       uint64_t value, ExploreNote *note);
/* A read of memory as it is, noted. */
uint64_t explore_mem_read(const ExploreWorld *w, const ExploreState *s, uint64_t addr, unsigned size,
                          ExploreNote *note);

/* The ops that never touch what other threads see (the op table's is_private). */
gboolean explore_op_is_private(const IsaInsn *i);
/* The ops that act on memory or on other threads as one atomic step, which TSO runs only with an
 * empty store buffer (the op table's is_atomic_step). */
gboolean explore_op_is_atomic_step(const IsaInsn *i);

#endif

/* Exact final states of a small multi-threaded ISA program under an axiomatic memory model,
 * the way herd7 finds them: enumerate every candidate execution (each thread's path through
 * its code for each choice of the values its reads return, then every reads-from and every
 * coherence order consistent with those values) and keep the ones the model's axioms allow.
 *
 *   thread_paths.c  one thread's event sequences and dependencies (register taint), per choice
 *   candidates.c    rf and co for one choice of paths, pruned as they grow
 *   model*.c        the models, as tables of cat rows; relation.c, cat_parse.c the algebra
 *   explore.c       the value sets, the combinations of paths, the final states
 *
 * Programs are loop-free in what they run: a backward branch may be taken `unroll` times per
 * thread (herd's -unroll), and a path that would take it again is cut and counted.  Every
 * thread starts at `main` with tid set, as the interpreter starts it. */
#ifndef QSIM_MEMMODEL_H
#define QSIM_MEMMODEL_H

#include <glib.h>
#include "cores/isa/isa.h"
#include "sim/base/arch.h"
#include "sim/memmodel/model.h"

#define MM_ERROR (mm_error_quark())
GQuark mm_error_quark(void);
typedef enum {
    MM_ERROR_MODEL,        /* a model row that does not compile (a bug of the table) */
    MM_ERROR_UNSUPPORTED,  /* an op the exhaustive models do not give a meaning (file:line) */
    MM_ERROR_TOO_BIG,      /* more events, paths or values than the search handles */
} MmErrorCode;

/* A memory location the threads share: where it is and what it holds first. */
typedef struct {
    uint64_t addr;
    uint64_t init;
} MmLocation;

typedef struct {
    const IsaProgram *prog;
    guint nthreads;
    const IsaLayout *layout;   /* where the program's symbols are, for `la` and [sym] */
    const MmLocation *locs;    /* every address the threads may access */
    guint nlocs;
    Arch arch;                 /* whose instruction semantics (ARMv8: herd's CAS alternatives) */
    const MmModelDef *model;
    guint unroll;              /* backward branches each thread may take (0: none) */
} MmProblem;

/* One reachable final state: thread t's registers at regs[t * ISA_NREG_SLOTS + r], location
 * l's value at mem[l]; how many consistent executions end in it. */
typedef struct {
    uint64_t *regs;
    uint64_t *mem;
    guint64 executions;
} MmOutcome;

typedef struct {
    GPtrArray *outcomes;       /* MmOutcome*, in the order the search first met them */
    guint64 candidates;        /* candidate executions (each judged whole, or cut off with a
                                * part the model already forbids) */
    guint64 consistent;        /* of those, allowed by the model */
    guint64 paths_cut;         /* thread paths that would have passed the unroll bound */
    guint64 paths_dropped;     /* thread paths that accessed memory outside the locations */
} MmResult;

MmResult *mm_explore(const MmProblem *p, GError **error);
void mm_result_free(MmResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MmResult, mm_result_free)

#endif

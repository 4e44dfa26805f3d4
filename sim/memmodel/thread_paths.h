/* One thread's paths through its code: for each choice of the value each read returns (from the
 * location's value set), of a CAS's outcome and of a store-exclusive's success, the sequence of
 * events the thread produces, its final registers, and the dependencies between its events.
 *
 * Dependencies are register taint, as herd's AArch64 semantics define them (aarch64deps.cat:
 * dtrm, register flow and "local memory read successor" through memory; pick-dtrm adds the
 * control inputs of a selection, iico_ctrl): every register carries the set of this path's
 * reads whose values reached it through data (t) and through data or selection (p).  An event
 * records the sets of its address inputs, its data inputs, and of the branches before it. */
#ifndef QSIM_MM_THREAD_PATHS_H
#define QSIM_MM_THREAD_PATHS_H

#include "sim/memmodel/memmodel.h"

#define MM_MAX_PATH_EVENTS 48

/* An event of a path with its dependencies; bit i of a set is this path's event i (a read). */
typedef struct {
    MmEvent ev;
    uint64_t addr_t, addr_p;   /* reads reaching the address (addr; pick-addr-dep) */
    uint64_t data_t, data_p;   /* reads reaching the value written (data; pick-data-dep) */
    uint64_t ctrl_t, ctrl_p;   /* reads reaching a branch before it (ctrl; pick-ctrl-dep) */
    uint64_t reach_p;          /* reads reaching it at all, through pick-dtrm (pick-basic-dep) */
    int pair;                  /* the other event of its atomic instruction, or the ldx a
                                * successful stx pairs with; -1 */
    gboolean amo;              /* pair is an atomic instruction's (amo), else exclusive (lxsx) */
} MmPathEvent;

typedef struct {
    guint nev;
    MmPathEvent *ev;
    uint64_t regs[ISA_NREG_SLOTS];
} MmPath;

void mm_path_free(MmPath *p);

/* Every path of thread `tid` with reads returning values from values[l] (GArray of uint64_t,
 * per location) into `out` (MmPath*).  Paths cut by the unroll bound and paths that accessed
 * memory outside the locations are counted, not returned.  FALSE with an error for an op the
 * models give no meaning, or more paths or events than the search takes. */
gboolean mm_thread_paths(const MmProblem *p, guint tid, GArray *const *values, GPtrArray *out,
                         guint64 *cut, guint64 *dropped, GError **error);

#endif

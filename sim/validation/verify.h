/* Lock verification: a lock plus the harness, checked for mutual exclusion, progress and
 * completion, in one of two ways:
 *
 *   explored  every execution under a memory model, up to a bound: VerifyOptions.model set;
 *             by states (sim/explore/: "verified" means every reachable state was seen) or,
 *             with VerifyOptions.graphs, by execution graphs against the axiomatic model of the
 *             same name (sim/memmodel/graph_explore.h: every consistent graph was seen);
 *   sampled   the reference interpreter (sequentially consistent) under seeded random
 *             interleavings: model NULL; a pass says only that those seeds held. */
#ifndef QSIM_VERIFY_H
#define QSIM_VERIFY_H

#include "cores/isa/isa.h"
#include "sim/workload/workload.h"
#include "sim/explore/explore.h"

typedef struct {
    WorkloadOptions workload;   /* the rows of `qsim verify`: threads, readers, data, cs_writes, iterations */
    ArchTarget target;       /* what the lock is assembled for: its `.if arch=/atomics=` code */
    guint line_size;         /* bytes: the memory layout's and the exclusive monitor's granule (0: 64) */
    const char *const *lock_params; /* `.param` values, "NAME=VALUE", NULL-terminated; NULL: defaults */
    guint seeds;             /* seeds first_seed .. first_seed + seeds - 1 */
    guint64 first_seed;
    guint64 max_steps;       /* sampled: livelock bound per run; 0: from the workload's size */
    const ExploreModel *model; /* explore under this model; NULL: sample the seeds */
    guint64 max_states;      /* explored: bounds (0: the explorer's defaults) */
    guint64 max_memory;      /* bytes */
    guint store_buffer;      /* entries per thread, models with store buffers */
    gboolean graphs;         /* explore execution graphs (sim/memmodel/graph_explore.h), not states */
    guint unroll;            /* graphs: backward jumps per thread (0: the explorer's default) */
} VerifyOptions;

typedef struct {
    guint runs;              /* seeds run (stops at the first failure) */
    gboolean ok;
    guint64 failed_seed;     /* when !ok */
    char *failure;           /* when !ok: what went wrong, with each thread's state */
    guint64 max_readers;     /* most readers seen inside at once, over all runs */
    guint64 steps;           /* interpreter steps, over all runs */
    ExploreResult explore;   /* explored: the search's result (ok: verified) */
    char *graphs_refused;    /* the graph explorer refused the program (why): explored by states instead */
} VerifyResult;

/* The library's defaults: the workload schema's for WL_VERIFY, x86, sampled with seeds 1..100
 * (the command line explores by default: it sets model). */
void verify_options_init(VerifyOptions *o);
void verify_result_clear(VerifyResult *r);

/* Assembles `lock_text` (named `lock_name` in positions) with the harness and explores it under
 * o->model, or runs the seeds.
 * FALSE with an error when the sources do not assemble or lack the entry points the workload
 * needs; TRUE otherwise, with the verdict in *r.  A run that ends with a thread asleep in
 * futex_wait and nobody left to wake it (deadlock, or the step bound while others spin) fails as
 * a lost wake-up. */
gboolean verify_lock(const char *lock_name, const char *lock_text, const VerifyOptions *o,
                     VerifyResult *r, GError **error);


#endif

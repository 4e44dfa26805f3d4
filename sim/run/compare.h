/* `qsim compare`: the answer to "does lock B beat lock A on this machine?" as a table of
 * verdicts.  Each row (a workload, a thread count) runs both locks over N seeds with timing
 * noise (sim/run/repeat.h), gives b/a of the cycles per acquisition with its 95% interval, says
 * in one sentence who wins and which counters moved with the cost, and asks whether the
 * seed's mechanism, load rollback, is where A's time goes: A again with core.rollback=none.
 * Where a published measurement of the same question exists (the seed's, on the machine the
 * config models) it stands beside the model's ratio.  The defaults are the seed's question:
 * qspin against qspin-cmpxchg on haswell, workloads A and B, 2 to 8 threads. */
#ifndef QSIM_COMPARE_H
#define QSIM_COMPARE_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/run/repeat.h"
#include "sim/workload/placement.h"

#define COMPARE_MAX_THREADS 16

typedef struct {
    const char *config;
    const char *lock_a, *lock_b;
    guint threads[COMPARE_MAX_THREADS];
    guint nthreads;
    HarnessPlacement data[2];    /* workloads: A (same-line), B (separate-line) */
    guint ndata;
    PlacementPolicy placements[3]; /* where the threads run: fill (cores of one socket), smt
                                    * (sibling hardware threads first), spread (across sockets) */
    guint nplacements;           /* 0: fill, and smt and spread where the machine has them */
    guint other_max_threads;     /* rows of smt and spread only up to this many threads (0: all):
                                  * the default's 8-thread rows cost most and say least */
    guint seeds;                 /* runs per lock and row (>= 2: an interval needs two) */
    guint iterations;            /* acquisitions per thread */
    guint jobs;                  /* rows run at once (0: the host's CPUs) */
} CompareOptions;

/* A measurement published for the same question: b/a over its own runs. */
typedef struct {
    const char *lock_a, *lock_b, *config;
    HarnessPlacement data;
    guint threads;
    guint n;                     /* runs per lock */
    double a[5], b[5];           /* the published times of each run */
    const char *machine, *source;
} CompareSeedFigure;

typedef struct {
    guint threads;
    HarnessPlacement data;
    PlacementPolicy placement;
    RepeatResult a, b;
    RepeatResult a_no_rollback;  /* A with core.rollback=none: is rollback A's cost? */
    RatioStats cost;             /* b / a, cycles per acquisition */
    RatioStats rollback_share;   /* a_no_rollback / a */
    const CompareSeedFigure *seed; /* or NULL */
    RatioStats seed_ratio;       /* the published b / a with its interval over its runs */
    char *sentence;              /* who wins, which counters moved, whether rollback matters */
} CompareRow;

typedef struct {
    CompareOptions o;
    char *config_name;
    GArray *rows;                /* CompareRow: by workload, then threads */
    gboolean ok;                 /* every run held mutual exclusion and finished */
    char *failure;               /* when !ok: the first failure */
} CompareResult;

void compare_options_init(CompareOptions *o);
/* Runs every row; FALSE with an error for bad input (a config or lock not found, more
 * threads than cores). */
CompareResult *compare_run(const CompareOptions *o, GError **error);
void compare_result_free(CompareResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CompareResult, compare_result_free)

char *compare_text(const CompareResult *r);
JsonNode *compare_json(const CompareResult *r);

/* The placements a machine offers: fill, then smt when its cores have two hardware threads, then
 * spread when it has two sockets or more. */
guint compare_default_placements(const QsimConfig *cfg, PlacementPolicy out[3]);
/* The published figure for this row, or NULL. */
const CompareSeedFigure *compare_seed_figure(const char *lock_a, const char *lock_b, const char *config,
                                             HarnessPlacement data, guint threads);

#endif

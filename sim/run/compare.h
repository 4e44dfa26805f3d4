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
#include "sim/run/compare_robust.h"
#include "sim/workload/placement.h"

#define COMPARE_MAX_THREADS 16
#define COMPARE_MAX_TIMINGS 8

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
    /* Harness timing as an axis: every row again at each think x jitter (the seed published
     * neither; docs/study-qspin-cmpxchg.md, "Harness timing", says why these). */
    guint thinks[COMPARE_MAX_TIMINGS], nthinks;
    guint jitters[COMPARE_MAX_TIMINGS], njitters;
    guint timing_seeds;          /* runs per lock and setting (0: no timing axis) */
    guint timing_iterations;     /* acquisitions per thread in those runs */
    /* The checks at the row's own timing: a measured window (throughput, per-thread share)
     * and the clear penalty's range (x86), each with this many seeds (0: neither). */
    guint check_seeds;
    guint64 window, warmup;      /* the window's cycles, and the cycles before it */
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
    /* regimes over the seeds, of cycles per acquisition (sample_modes.h); member: each seed's */
    SampleModes modes_a, modes_b;
    guint *member_a, *member_b;
    /* the timing axis: per setting (think-major), A and B, b/a and its verdict */
    RepeatResult *timing_a, *timing_b;
    RatioStats *timing_cost;
    CompareVerdict *timing_verdict;
    guint *timing_mode;          /* each setting's regime among the settings' b/a */
    TimingSpread timing;
    /* the measured window */
    RepeatResult window_a, window_b;
    RatioStats window_throughput; /* b / a of acquisitions per 1000 cycles: above 1, b wins */
    /* the clear penalty's range: the runs at its two ends, then at the probes between */
    RepeatResult penalty_a[2], penalty_b[2], probe_a, probe_b;
    guint probe;                 /* the penalty probe_a/b ran at (0: none pending) */
    PenaltyRange penalty;
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
/* Whether a row's seeds fell into separate regimes (then it has no one interval). */
gboolean compare_row_modal(const CompareRow *r);
/* The paragraph the text leads with: the answer over rows, timings, regimes and penalties. */
char *compare_lead(const CompareResult *r);
JsonNode *compare_json(const CompareResult *r);

/* The placements a machine offers: fill, then smt when its cores have two hardware threads, then
 * spread when it has two sockets or more. */
guint compare_default_placements(const QsimConfig *cfg, PlacementPolicy out[3]);
/* The published figure for this row, or NULL. */
const CompareSeedFigure *compare_seed_figure(const char *lock_a, const char *lock_b, const char *config,
                                             HarnessPlacement data, guint threads);

#endif

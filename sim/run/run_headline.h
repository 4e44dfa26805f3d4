/* What `qsim run` says of one run beside its report: a headline for people (what happened and
 * the counters that explain it) and warnings (what its figures may not say).  Both are made from
 * a RunHeadline, the few figures they need, which the runner fills from its own counters where
 * it builds the report from the same ones (sim/run/run.c): nothing is read back from the report,
 * so a member missing from it cannot turn into a silent 0 or a false verdict here. */
#ifndef QSIM_RUN_HEADLINE_H
#define QSIM_RUN_HEADLINE_H

#include <glib.h>

typedef struct {
    /* who ran what, as the report names it */
    gboolean scenario;           /* a --scenario run: no lock; an "acquisition" is one call of its body */
    char *lock;                  /* the lock's (or scenario's) name as given */
    char *config;
    const char *arch;            /* static */
    char *data;                  /* the workload's data placement: "separate-line", "same-line" */
    guint threads, readers;
    char *cpu_list;              /* --placement cpus:LIST as given (NULL for a policy), of cpu_list_len CPUs */
    guint cpu_list_len;
    guint64 jitter;              /* the workload's timing noise (0: none) */
    gboolean fixed_time;         /* --duration: the counts are of a measured window */
    /* what happened, in the measured window */
    guint64 cycles;
    guint64 acquisitions;
    guint64 *thread_acquisitions; /* per thread (`threads` of them) */
    guint64 longest_streak;      /* the most acquisitions one thread made in a row */
    gboolean mutual_exclusion, stalled, faulted, halted_in_lock;
    char *lock_lines;            /* the lock's variables whose lines are counted, space-separated */
    /* the counters that explain the cost: the cores' summed, the lock's lines' */
    guint64 memory_ordering_clears, paused_cycles, atomics, failed_cas, atomic_cycles;
    guint64 lock_lines_rfo, lock_lines_invalidations, lock_lines_l1_misses;
} RunHeadline;

void run_headline_clear(RunHeadline *h);
/* Moves *from into *to (which is overwritten), leaving *from empty. */
void run_headline_move(RunHeadline *to, RunHeadline *from);
/* The headline: two lines and a blank one. */
char *run_headline(const RunHeadline *h);
/* What a single run's figures may not say (strings, for stderr): a CPU list shorter than the
 * threads (they share CPUs); a run without timing noise that looks locked into one interleaving
 * (a writer that never acquired, a long streak of one thread's acquisitions). */
GPtrArray *run_warnings(const RunHeadline *h);

#endif

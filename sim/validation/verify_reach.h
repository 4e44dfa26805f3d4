/* Whether `qsim verify`'s search can reach a verdict within its bounds, estimated from the
 * harness's shape before the search starts, so that a bound in range but out of reach
 * (`--threads 4096`, `--iterations 100000000`) is refused at once, with the estimate, instead
 * of growing until --max-states or --max-memory cuts it (or for ever).
 *
 * The estimates are lower bounds, so nothing refused could have been verified:
 *   states    every vector of per-thread acquisition counts (0..iterations each) is reachable,
 *             by running the threads one after another, and the counts are part of a state
 *             (the harness's `mark 2`): at least (iterations + 1)^threads states;
 *   graphs    each order of the writers' acquisitions is a separate execution (the counter's
 *             loads read different stores): at least (W x I)! / (I!)^W executions for W
 *             writers of I acquisitions; and each thread adds at least 6 events per
 *             acquisition (the harness's own loads and stores), against the graph engine's
 *             per-thread limit, past which it hands the lock to the state search. */
#ifndef QSIM_VERIFY_REACH_H
#define QSIM_VERIFY_REACH_H

#include "sim/validation/verify.h"
#include "sim/workload/harness.h"

/* Events each harness acquisition adds at the least: write_body's loads of h_flag and
 * h_readers, stores to h_flag (twice) and the counter's load and store (harness.c). */
#define VERIFY_REACH_EVENTS_PER_ACQUISITION 6

/* FALSE with an error (G_OPTION_ERROR_BAD_VALUE: the estimate, the limit and what to lower)
 * when the search o explores for harness h needs more than o->max_states states or graphs. */
gboolean verify_reach_check(const HarnessOptions *h, const VerifyOptions *o, GError **error);

#endif

/* The candidate executions of one event graph: every reads-from (each read from a write of its
 * location with the value it returned, or from the initial write) and every coherence order
 * (a total order of each location's writes, the initial write first), judged by the model as
 * they grow, so that a part already forbidden is not completed. */
#ifndef QSIM_MM_CANDIDATES_H
#define QSIM_MM_CANDIDATES_H

#include "sim/memmodel/model.h"

typedef struct {
    guint64 candidates;    /* candidates, judged whole or in a part already forbidden */
    guint64 consistent;    /* of those, allowed */
} MmCandidateCounts;

/* Called with g's rf and co set to an allowed candidate. */
typedef void (*MmConsistentFn)(void *ctx, const MmGraph *g);

/* Enumerates g's candidates (g finished and its dependency relations set; rf and co are
 * overwritten; `ev` is prepared on g here) and calls fn for each the model allows. */
void mm_candidates_run(MmGraph *g, MmEval *ev, MmConsistentFn fn, void *ctx, MmCandidateCounts *counts);

#endif

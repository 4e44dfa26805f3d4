/* A small rig for the coherence tests: a config built in the test, an engine, a memory system
 * with invariant checking on, and blocking helpers that issue one access and run the engine
 * until it is done. */
#ifndef QSIM_TEST_COH_RIG_H
#define QSIM_TEST_COH_RIG_H

#include "coherence/memsys.h"

#define RIG_MAX_CORES 64

typedef struct {
    QsimConfig *cfg;
    Engine *e;
    MemSys *ms;
    guint ncores;
    gboolean got[RIG_MAX_CORES];
    MemResponse last[RIG_MAX_CORES];
    guint lost[RIG_MAX_CORES][3];      /* line_lost calls by cause */
    void *clients;                     /* per-core callback objects */
} CohRig;

/* YAML of a small machine; `extra` lines are appended (they may override keys via sets). */
char *rig_yaml(guint sockets, guint cores_per_socket, const char *protocol);
CohRig *rig_new(const char *yaml, const char *const *sets);
void rig_free(CohRig *r);
/* Issues one access on `core` and runs until it is done; returns its latency in cycles. */
Cycle rig_do(CohRig *r, guint core, MemKind kind, uint64_t addr, uint64_t value);
Cycle rig_rmw(CohRig *r, guint core, RmwKind op, uint64_t addr, uint64_t value, uint64_t expected,
              gboolean far, guint32 hold);
/* Runs the engine until nothing is pending. */
void rig_settle(CohRig *r);
/* Fails the test if an invariant was violated. */
void rig_assert_ok(CohRig *r);
/* Scale factor for long tests: 1, or 1/20 under QSIM_TEST_SCALE=quick. */
guint64 rig_scaled(guint64 n);

#endif

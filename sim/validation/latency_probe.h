/* The latency probe behind `qsim latency` and `qsim validate`: like ccbench (David, Guerraoui,
 * Trigonakis, SOSP 2013), every figure is measured on a fresh memory system: a line is put in a
 * state with real accesses through the port, then one access by core 0 is timed from issue to
 * completion at the port (the core's own cost of the op, e.g. a LOCK'd op's tail, is not in
 * it; microbenchmarks measure that).
 *
 * Coherence rows: op x the state another core (at a distance) holds the line in.
 *   ops       load, store, cas (compare-and-swap), fai (fetch-and-add), swap (exchange)
 *   states    M, E, S, I on every protocol, O on MOESI, F on MESIF:
 *             M  the other core wrote it;  E  it read it alone;
 *             S  shared by cores over there, no owner and (MESIF) no F copy anywhere
 *                (MSI, with no E: one reader there is enough);
 *             O  (MOESI) it wrote it and another core there read it: it owns, they share;
 *             F  (MESIF) shared over there, and that socket's LLC holds the F copy;
 *             I  in memory only, homed over there
 *   distances same-die (another core of core 0's socket), same-package (the other die of an
 *             MCM package), 1-hop, 2-hops (sockets by hop count): each the topology has.
 * Local rows: l1-hit, l2-hit, llc-hit, memory (core 0 alone, home on its socket) and
 * memory at each remote distance.  Combinations a machine cannot have are not measured;
 * latency_absent says why. */
#ifndef QSIM_LATENCY_PROBE_H
#define QSIM_LATENCY_PROBE_H

#include <glib.h>
#include "sim/base/config.h"

typedef struct {
    const char *op;        /* "load", "store", "cas", "fai", "swap"; local rows: "load" */
    const char *state;     /* "M", "O", "E", "S", "F", "I"; local rows: the level, "l1-hit" ... */
    char distance[24];     /* "same-die", "same-package", "1-hop", "2-hops"; local: "same-core"
                            * or the memory's distance */
    guint other_socket;    /* the other core's socket (I, memory: the line's home socket) */
    guint64 cycles;
} LatencyRow;

/* A (state, distance) pair the probe does not measure, and why. */
typedef struct {
    const char *state;
    char distance[24];
    const char *why;
} LatencyAbsent;

typedef struct {
    GArray *rows;          /* LatencyRow: coherence rows, op-major, then local rows */
    GArray *absent;        /* LatencyAbsent */
} LatencyTable;

LatencyTable *latency_measure(const QsimConfig *cfg, GError **error);
void latency_table_free(LatencyTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LatencyTable, latency_table_free)

/* The row for (op, state, distance), or NULL. */
const LatencyRow *latency_find(const LatencyTable *t, const char *op, const char *state, const char *distance);

#endif

/* The latency probe: like ccbench (David, Guerraoui, Trigonakis, SOSP 2013), it sets a line
 * up in a state with real accesses through the port of a fresh memory system, then times one
 * access by core 0.  `qsim latency` prints its rows; the tests hold them against published
 * figures. */
#ifndef QSIM_LATENCY_PROBE_H
#define QSIM_LATENCY_PROBE_H

#include <glib.h>
#include "sim/base/config.h"

typedef struct {
    const char *op;        /* "load", "store", "cas" */
    const char *state;     /* the other core's state: "M", "E", "S", "O", "I" */
    char distance[24];     /* "same-socket", "same-package", "1-hop", ... */
    guint other_socket;    /* the other core's socket (I: the line's home socket) */
    guint64 cycles;
} LatencyRow;
/* Measures every row by driving a fresh memory system through the port.  Array of LatencyRow. */
GArray *latency_measure(const QsimConfig *cfg, GError **error);

#endif

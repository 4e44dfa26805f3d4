/* Where `qsim validate --host` runs the model's threads: on the model's logical CPUs that stand
 * for the host CPUs the native threads run on, so that two host CPUs that are SMT siblings of
 * one core are modelled as one core's two hardware threads (and two cores as two cores).
 *
 * The model numbers its CPUs as Linux does on x86 (sim/workload/placement.h: CPU c and c + cores are one
 * core's threads); a host may number them otherwise (a VM's siblings may be 0 and 1), so the
 * host's topology as sysfs shows it (calib_host.h) is mapped, not its numbers: the host's LLC
 * domains in order of their first CPU are the model's sockets (as `qsim calibrate` writes them),
 * a domain's cores in that order the socket's cores, a core's CPUs in order its threads.  Where
 * the host does not fit the config (more LLC domains than sockets, more cores in one than the
 * config's cores_per_socket, more threads in a core than threads_per_core), the model keeps its
 * fill placement, one thread per core, and the text says why. */
#ifndef QSIM_HOST_PLACEMENT_H
#define QSIM_HOST_PLACEMENT_H

#include <glib.h>
#include "sim/base/config.h"
#include "sim/calibrate/calib_host.h"

typedef struct {
    guint threads;      /* the most threads both sides can run: CPUs given, and the config's CPUs
                         * (its cores when not mapped) */
    GArray *model;      /* guint: model thread i's CPU, for host CPU cpus[i], i < threads; NULL: fill */
    gboolean siblings;  /* two of those host CPUs are one core's threads */
    char *text;         /* "placement: ...": what was chosen, for the table */
} HostPlacement;

/* Chooses for host CPUs `cpus` (thread i on the i-th), at most `max_threads` of them (0: all). */
void host_placement_choose(HostPlacement *p, const CalibHost *h, const QsimConfig *cfg, const GArray *cpus,
                           guint max_threads);
void host_placement_clear(HostPlacement *p);

#endif

/* Where threads run: the documented policy that maps thread t to a logical CPU of the machine.
 * Logical CPUs are numbered as Linux numbers them on x86 (sim/base/config.h): CPU c is hardware
 * thread c / cores of core c mod cores, so with one thread per core a CPU is its core, and on a
 * machine with two threads per core CPUs 0 .. cores-1 are every core's first thread and the next
 * `cores` their siblings.  Core ids are socket * cores_per_socket + index within the socket.
 *   fill:     socket 0's cores first, then socket 1's, ... (threads share an LLC while they can),
 *             one thread per core (each core's first hardware thread);
 *   spread:   round-robin over sockets (thread t on socket t mod S), so 2 threads cross a link,
 *             one thread per core;
 *   smt:      sibling hardware threads first: threads 0 and 1 on core 0's two threads, 2 and 3 on
 *             core 1's, ... in fill's order of cores (with one thread per core, fill);
 *   cpus:LIST the logical CPUs listed, in order (`cpus:0,36`, ranges as `cpus:0-3,36-39`), as
 *             `qsim native --cpus` takes them.
 * Past the machine's cores (smt: its hardware threads; cpus: the list), the placement starts
 * over from the first (the OS model then shares each CPU among its threads). */
#ifndef QSIM_PLACEMENT_H
#define QSIM_PLACEMENT_H

#include <glib.h>
#include "sim/base/config.h"

typedef enum { PLACE_FILL, PLACE_SPREAD, PLACE_SMT, PLACE_CPUS } PlacementPolicy;

/* The most CPUs a list names (a thread each at most: --threads' maximum). */
#define PLACEMENT_CPUS_MAX 4096

/* A placement as given to --placement.  Invariant: ncpus is 0 unless policy is PLACE_CPUS, and
 * then 1 .. PLACEMENT_CPUS_MAX distinct CPUs are in cpus[0 .. ncpus). */
typedef struct {
    PlacementPolicy policy;
    guint ncpus;
    guint16 cpus[PLACEMENT_CPUS_MAX];
} Placement;
/* 64 sockets x 256 cores x 2 threads, the configs' largest, fit a guint16. */
G_STATIC_ASSERT(64 * 256 * 2 <= G_MAXUINT16 + 1);

/* "fill", "spread", "smt" or "cpus:LIST"; errors begin with `who` (NULL: "--placement") and the text. */
gboolean placement_parse(const char *who, const char *s, Placement *out, GError **error);
/* What placement_parse reads back: "fill", "cpus:0,36". */
char *placement_text(const Placement *p);
/* The policies' names, for help and docs, and "cpus:LIST" last (NULL-terminated). */
extern const char *const placement_choices[];

/* Fills cpus[0..threads) with logical CPUs.  A list's CPU outside the machine is an error. */
gboolean placement_assign(const QsimConfig *cfg, const Placement *p, guint threads, guint *cpus,
                          GError **error);
/* The same for a policy (not PLACE_CPUS). */
gboolean placement_assign_policy(const QsimConfig *cfg, PlacementPolicy p, guint threads, guint *cpus,
                                 GError **error);

#endif

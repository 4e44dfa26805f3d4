/* Where threads run: the documented policy that maps thread t to a core of the machine.
 *   fill:   socket 0's cores first, then socket 1's, ... (threads share an LLC while they can)
 *   spread: round-robin over sockets (thread t on socket t mod S), so 2 threads cross a link.
 * Past the machine's cores, the placement starts over from the first core.
 * Core ids are socket * cores_per_socket + index within the socket. */
#ifndef QSIM_PLACEMENT_H
#define QSIM_PLACEMENT_H

#include <glib.h>
#include "sim/base/config.h"

typedef enum { PLACE_FILL, PLACE_SPREAD } PlacementPolicy;

gboolean placement_parse(const char *s, PlacementPolicy *out, GError **error);
const char *placement_name(PlacementPolicy p);
/* Fills cores[0..threads).  With more threads than cores, thread t goes where thread
 * t mod cores does (the OS model then shares each core among its threads). */
gboolean placement_assign(const QsimConfig *cfg, PlacementPolicy p, guint threads, guint *cores,
                          GError **error);

#endif

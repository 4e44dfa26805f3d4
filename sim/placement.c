#include <string.h>
#include "sim/placement.h"

static const char *const names[] = { "fill", "spread" };

gboolean placement_parse(const char *s, PlacementPolicy *out, GError **error)
{
    for (guint i = 0; i < G_N_ELEMENTS(names); i++)
        if (s && !strcmp(s, names[i])) {
            *out = (PlacementPolicy)i;
            return TRUE;
        }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--placement %s: unknown policy (one of: fill, spread)", s ? s : "");
    return FALSE;
}

const char *placement_name(PlacementPolicy p) { return names[p]; }

gboolean placement_assign(const QsimConfig *cfg, PlacementPolicy p, guint threads, guint *cores,
                          GError **error)
{
    guint sockets = (guint)cfg->topology.sockets, per = (guint)cfg->topology.cores_per_socket;
    if (threads == 0) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--threads 0: a run needs a thread");
        return FALSE;
    }
    /* Past the last core the placement starts over: thread t shares thread t - cores's core. */
    for (guint t = 0; t < threads; t++) {
        guint u = t % (sockets * per);
        cores[t] = p == PLACE_FILL ? u : (u % sockets) * per + u / sockets;
    }
    return TRUE;
}

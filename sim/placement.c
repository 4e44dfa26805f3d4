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
    if (threads == 0 || threads > sockets * per) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--threads %u: config '%s' has %u cores (%u socket%s x %u)", threads, cfg->name,
                    sockets * per, sockets, sockets == 1 ? "" : "s", per);
        return FALSE;
    }
    for (guint t = 0; t < threads; t++)
        cores[t] = p == PLACE_FILL ? t : (t % sockets) * per + t / sockets;
    return TRUE;
}

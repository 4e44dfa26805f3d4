/* Per-branch 2-bit saturating counters, indexed by pc (programs are small). */
#include <string.h>
#include "cores/core_internal.h"

void bp_init(Core *c)
{
    c->bp = g_new(guint8, c->ncode + 1);
    memset(c->bp, 1, c->ncode + 1); /* weakly not-taken */
}

gboolean bp_predict(const Core *c, int32_t pc)
{
    return c->bp[pc] >= 2;
}

void bp_update(Core *c, int32_t pc, gboolean taken)
{
    if (taken && c->bp[pc] < 3)
        c->bp[pc]++;
    else if (!taken && c->bp[pc] > 0)
        c->bp[pc]--;
}

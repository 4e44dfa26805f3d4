/* The faults a class looks for (see protocol_fault.h), as a table: one row per fault and kind
 * of protocol. */
#include <string.h>
#include "coherence/protocol_fault.h"
#include "coherence/memsys_internal.h"
#include "sim/base/echo.h"

const CohFault coh_faults[] = {
    { "missing-inv", "a missing invalidation: a sharer answers Inv with its Inv-Ack but keeps its copy in S",
      FALSE, CS_S, CE_INV, CS_S, CA_LOST_INV | CA_FREE, "0:ld x, 1:ld x, 0:st x=5" },
    { "missing-inv", "a missing invalidation: a sharer snoops another core's GetM and keeps its copy in S",
      TRUE, CS_S, CE_OTHER_GETM, CS_S, CA_LOST_INV | CA_FREE, "0:ld x, 1:ld x, 0:st x=5" },
    { "wrong-next", "a wrong next state: the owner in M answers a Fwd-GetS with data and stays in M (not S)",
      FALSE, CS_M, CE_FWD_GETS, CS_M, CA_LOST_DOWN, "0:st x=5, 1:ld x" },
    { "wrong-next", "a wrong next state: the owner in M snoops another core's GetS, sends its data and stays in M "
      "(not S)", TRUE, CS_M, CE_OTHER_GETS, CS_M, CA_LOST_DOWN, "0:st x=5, 1:ld x" },
    { "dropped-ack", "a dropped ack: a sharer invalidates its copy on Inv but never sends the Inv-Ack the writer "
      "counts on", FALSE, CS_S, CE_INV, -1, CA_ACK_TO_REQ, "0:ld x, 1:ld x, 0:st x=5" },
};
const guint coh_n_faults = G_N_ELEMENTS(coh_faults);

const char *const *coh_fault_names(void)
{
    static const char *names[G_N_ELEMENTS(coh_faults) + 1];
    if (!names[0]) {
        guint n = 0;
        for (guint i = 0; i < coh_n_faults; i++)
            if (!n || strcmp(names[n - 1], coh_faults[i].name))
                names[n++] = coh_faults[i].name;
    }
    return names;
}

const CohFault *coh_fault_find(const char *name, gboolean bus)
{
    for (guint i = 0; i < coh_n_faults; i++)
        if (!strcmp(coh_faults[i].name, name) && coh_faults[i].bus == bus)
            return &coh_faults[i];
    return NULL;
}

/* The row without the fault's dropped actions, in the order the rest run. */
static void drop_actions(CohRow *r, guint32 drop)
{
    guint n = 0;
    for (guint i = 0; i < r->n_run; i++)
        if (!(r->run[i] & drop))
            r->run[n++] = r->run[i];
    r->n_run = (guint8)n;
    r->actions &= ~drop;
}

gboolean memsys_apply_fault(MemSys *ms, const char *name, GError **error)
{
    gboolean bus = ms->proto->bus;
    const CohFault *f = coh_fault_find(name, bus);
    if (!f) {
        gboolean known = coh_fault_find(name, !bus) != NULL;
        g_autofree char *list = g_strjoinv(", ", (char **)coh_fault_names());
        g_autofree char *said = echo_clip(name);
        g_set_error(error, COH_ERROR, COH_ERROR_CONFIG, known ? "fault %s: not on a %s (%s has no such row)"
                                                              : "no fault %s (the faults: %s)",
                    said, known ? (bus ? "bus" : "directory") : list, known ? ms->proto->name : "");
        return FALSE;
    }
    for (guint i = 0; i < ms->proto->n_cache; i++) {
        CohRow *r = &ms->cache_rows[i];
        if (r->state != f->state || r->event != f->event)
            continue;
        drop_actions(r, f->drop);
        if (f->next >= 0)
            r->next = (guint8)f->next;
        return TRUE;
    }
    g_set_error(error, COH_ERROR, COH_ERROR_CONFIG, "fault %s: %s has no row %s + %s", name, ms->proto->name,
                coh_cache_state_name(f->state), coh_cache_event_name(f->event));
    return FALSE;
}

/* The memory controller of a bus system (the Primer's "LLC/memory", Table 7.6 and its MESI
 * form in coherence/mesi_bus.c): the line's second table, applied when a request is snooped
 * and when an owner's data reaches the memory.  It keeps no list of holders, only whether the
 * memory or a cache owns the line; when the memory owns it, it answers with the data, from the
 * LLC when the LLC holds the line's current data (llc.latency), else from DRAM
 * (memory.latency). */
#include "coherence/memsys_internal.h"

void bus_memory_event(MemSys *ms, DirEntry *d, CohDirEvent ev, gint32 mi)
{
    const CohRow *row = dir_row_fire(ms, d->state, ev);
    guint32 a = row->actions;
    const gint req = msg_at(ms, mi)->req;
    if (ms->trace)
        trace_row_begin(ms, HOME, d->line, row, TRUE, NIL, mi);
    if (a & (DA_DATA_TO_REQ | DA_DATA_E_TO_REQ)) {
        gboolean from_llc = d->llc_valid & 1; /* a bus has one socket: bit 0 */
        if (from_llc)
            ms->stats.llc_hits++;
        else {
            ms->stats.llc_misses++;
            ms->stats.mem_reads++;
        }
        Cycle responder = (Cycle)(from_llc ? ms->cfg->llc.latency : ms->cfg->memory.latency);
        gint32 di = msg_send(ms, from_llc ? MSG_DATA_LLC : MSG_DATA_MEM, HOME, req, req, d,
                             bus_data_delay(ms, responder));
        Msg *dm = msg_at(ms, di);
        dm->has_data = TRUE;
        dm->excl = (a & DA_DATA_E_TO_REQ) != 0;
        dm->source = from_llc ? MEM_SRC_LLC : MEM_SRC_MEMORY;
        memcpy(dm->data, d->mem, ms->line_size);
        /* the LLC keeps the line for readers; a writer will make its copy stale (DR_STALE_LLC) */
        d->llc_valid = (row->rules & DR_STALE_LLC) ? 0 : 1;
    }
    if (a & DA_WRITE_MEM) {
        const Msg *m = msg_at(ms, mi);
        g_assert(m->has_data);
        memcpy(d->mem, m->data, ms->line_size);
        ms->stats.mem_writes++;
        d->st.mem_writes++;
        d->llc_valid = 1;
    }
    if (ms->trace)
        trace_row_end(ms, d);
    d->state = row->next;
    if (ms->check)
        invariant_check_line(ms, d->line);
}

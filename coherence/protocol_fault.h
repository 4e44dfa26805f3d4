/* "Find the broken protocol": one row of a protocol's cache table changed on purpose, for a
 * class to find by running accesses (`qsim run --script ... --fault NAME`, `qsim serve --fault
 * NAME`), in the manner of Vivio's bug button.  Each fault is a row of coh_faults: which row of
 * which kind of protocol it changes (a directory's or a bus's), what it does instead, and a
 * script that reveals it.  The run's own copy of the table is changed (memsys_new copies it),
 * never the protocol itself, so `qsim protocol` and every other run keep the right rows.
 *
 * Each fault is one the invariant checker catches when --check is on: a copy that should have
 * gone stays readable beside a writer (single writer, many readers), or an access that never
 * completes leaves the memory system quiet with a line still in a transient state (quiet means
 * stable, memsys_check_quiet). */
#ifndef QSIM_PROTOCOL_FAULT_H
#define QSIM_PROTOCOL_FAULT_H

#include "coherence/memsys.h"
#include "coherence/protocol.h"

typedef struct {
    const char *name;        /* "missing-inv" */
    const char *what;        /* in words, for --help and the page */
    gboolean bus;            /* changes a bus's table (else a directory protocol's) */
    guint8 state, event;     /* the cache-table row it changes (CohCacheState, CohCacheEvent) */
    gint next;               /* its next state instead (CohCacheState), or -1: unchanged */
    guint32 drop;            /* the actions it no longer runs (CohCacheAction bits) */
    const char *reveal;      /* a script that shows it on a teaching config */
} CohFault;

/* The faults, by name; a name may have a row for a directory and one for a bus. */
extern const CohFault coh_faults[];
extern const guint coh_n_faults;

/* The names, once each, in table order, NULL-terminated (static). */
const char *const *coh_fault_names(void);
/* The fault `name` for a directory (bus FALSE) or a bus protocol, or NULL. */
const CohFault *coh_fault_find(const char *name, gboolean bus);
/* Changes ms's copy of its cache table by the fault `name`; FALSE with a COH_ERROR_CONFIG
 * error for a name not in the list or one that has no row in ms's protocol. */
gboolean memsys_apply_fault(MemSys *ms, const char *name, GError **error);

#endif

/* Per-variable counters: the coherence traffic, L1 misses and machine clears of every line the
 * program's variables live in (the lock's and the harness's; a per-thread variable's copies
 * together), so that an Anderson lock's slots, MCS and CLH nodes or qrwlock's wait lock count as
 * the lock word does.  Variables that share a line are counted together under one name
 * ("lock_word+h_counter+h_flag+h_data" with same-line data): a line's traffic cannot be split
 * between them, and so the groups add up to the memory system's totals.
 *
 * A run makes the groups once it has laid the program out, snapshots them at the end of the
 * warm-up, and reports each group's counters over the measured window under
 * `variables.NAME.*`, and the lock's own lines (every group holding a variable the lock
 * declares) under `coherence.lock_lines.*`. */
#ifndef QSIM_RUN_VARS_H
#define QSIM_RUN_VARS_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "cores/isa/isa.h"
#include "sim/base/counters.h"
#include "coherence/memsys.h"
#include "sim/machine/machine.h"

typedef struct {
    guint64 messages;
    guint64 invalidations;
    guint64 rfo;
    guint64 c2c_transfers;
    guint64 l1_misses;
    guint64 machine_clears;
} VarStats;
extern const CounterRegistry var_stats_registry;

typedef struct RunVars RunVars;

/* The groups of `p` laid out by `l` for `nthreads` threads; `is_harness(name)` tells the
 * harness's variables from the lock's. */
RunVars *run_vars_new(const IsaProgram *p, const IsaLayout *l, gboolean (*is_harness)(const char *name));
void run_vars_free(RunVars *v);
/* Counts from here on (the end of the warm-up). */
void run_vars_snapshot(RunVars *v, const MemSys *ms, const Machine *m);
/* The `variables` object, and the lock's lines summed into *lock_lines (the `lock_lines` group's
 * stats); names of the lock's groups, space-separated (a CSV field that needs no quotes), into
 * *lock_names (caller frees). */
JsonObject *run_vars_report(const RunVars *v, const MemSys *ms, const Machine *m, VarStats *lock_lines,
                            char **lock_names);

#endif

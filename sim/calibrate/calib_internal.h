/* What the measuring files of `qsim calibrate` share: the plan (budgets and sizes, full or
 * quick) and the multi-CPU measurements that calib_measure.c calls. */
#ifndef QSIM_CALIB_INTERNAL_H
#define QSIM_CALIB_INTERNAL_H

#include "sim/calibrate/calibrate.h"

typedef enum { CALIB_B_CLOCK, CALIB_B_CHASE, CALIB_B_C2C, CALIB_B_INSN, CALIB_B__N } CalibBudgetKind;

/* How much to measure.  The full plan's worst case (every measurement out of time) stays under
 * two minutes on a 2-CPU host: see calib_measure.c. */
typedef struct {
    CalibBudget budget[CALIB_B__N];
    guint64 clock_iters;     /* loop iterations of 16 adds per clock run */
    guint64 run_cycles;      /* about how long a chase or instruction run is (sized by a probe):
                              * short, so that a run rarely loses its CPU on a shared host */
    guint c2c_lines;         /* lines per core-to-core round */
    guint64 max_memory;      /* the largest footprint chased, bytes */
} CalibPlan;

/* The rows of one CPU pair (ccbench's loads from M, E, S; stores and CAS to M and S), each
 * repeated under the plan's C2C budget; c < 0: no third CPU, so no S rows.  Appends to
 * r->c2c. */
gboolean calib_c2c_measure(CalibResult *r, CalibPairClass pair, guint a, guint b, gint c,
                           const CalibPlan *plan, double cycles_per_tick, GError **error);
/* arm64: CPU a sleeps in WFE on a line, CPU b stores to it; the time from the store to the
 * wake-up, into r->wfe_wakeup. */
gboolean calib_wfe_measure(CalibResult *r, guint a, guint b, const CalibPlan *plan,
                           double cycles_per_tick, GError **error);
/* Runs fn(arg) on a thread pinned to cpu and waits for it. */
gboolean calib_run_pinned(guint cpu, void *(*fn)(void *), void *arg, GError **error);

#endif

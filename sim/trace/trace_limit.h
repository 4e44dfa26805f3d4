/* The size limit of a trace (config key run.trace_limit): every writer counts the bytes it
 * writes (or, for the step-through page, would write) against it.  A trace that reaches it
 * writes nothing more and the run ends in an error saying so, with the cycle it reached it at,
 * rather than filling the disk or the memory with a trace nobody can open. */
#ifndef QSIM_TRACE_LIMIT_H
#define QSIM_TRACE_LIMIT_H

#include <glib.h>
#include "sim/base/engine.h"

/* Invariant: `written` <= `limit`; once `over`, no more is taken. */
typedef struct {
    guint64 limit;               /* bytes */
    guint64 written;
    gboolean over;
    Cycle over_at;               /* the cycle of the first thing that did not fit */
} TraceLimit;

static inline TraceLimit trace_limit_init(guint64 limit) { return (TraceLimit){ .limit = limit }; }
/* Whether `n` more bytes fit (then they are counted); the first time they do not, `cycle` is
 * kept (CYCLE_NEVER: the writer has no cycle to name), and from then on nothing fits. */
gboolean trace_limit_take(TraceLimit *l, guint64 n, Cycle cycle);
/* TRUE when the writer never went over; else FALSE with the error, which names the writer
 * (`what`: "--trace-out t.json"), the limit, the cycle, the key and the ways out.  `kept`: what
 * became of the file ("the file holds the events before it"). */
gboolean trace_limit_check(const TraceLimit *l, const char *what, const char *kept, GError **error);

#endif

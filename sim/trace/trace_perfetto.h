/* --trace-out FILE.json: the trace as Chrome Trace Event JSON, which Perfetto's UI
 * (ui.perfetto.dev, "Open trace file") and chrome://tracing ("Load") open.
 *
 * Tracks (pid/tid): process 1 "cores" has one thread per core (the lock phases as slices,
 * pipeline events as instants, a one-cycle slice for each message sent or received) and one
 * for the home directory; each cache line is a process of its own with one thread per cache
 * and one for the directory, whose slices are the line's state there over time.  Every
 * message is a flow arrow from its send to its arrival.  Timestamps: one cycle shows as one
 * nanosecond.  Written as the run goes; events are in the engine's order, not sorted by time
 * (the format does not ask for it). */
#ifndef QSIM_TRACE_PERFETTO_H
#define QSIM_TRACE_PERFETTO_H

#include "sim/trace/trace_events.h"

/* NULL with an error when the file cannot be created.  Its events take at most `limit` bytes
 * (trace_limit.h): past them it writes no more, closes the file as valid JSON, and finish
 * fails. */
TraceSink *trace_perfetto_new(const char *path, guint64 limit, GError **error);

#endif

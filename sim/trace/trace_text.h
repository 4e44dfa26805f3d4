/* The text trace (--trace): one line per event, in cycle order, lines and addresses named by
 * the program's variables:
 *
 *      cycle  who     line        row                       what it did
 *        248  core 1  lock_word   S + Store -> SM_AD        atomic lock_word: sends Upgrade to home
 *
 * A cache's hits and stalls are collapsed into one line per (core, line, row) unless
 * --trace-only asks for `hits`; with `messages` but not `transitions`, each message is a line
 * of its own.  `qsim protocol --legend` explains the states, events and messages. */
#ifndef QSIM_TRACE_TEXT_H
#define QSIM_TRACE_TEXT_H

#include <stdio.h>
#include "sim/trace/trace_events.h"

/* Writes to `out` (borrowed) as the events come; `show` is the stream's TraceShow bits.
 * `summaries`: print the collapsed hits and stalls as "N x ROW" lines (the default view;
 * a view narrowed by --trace-only leaves them out).  At most `limit` bytes (trace_limit.h):
 * past them it writes nothing more and finish fails. */
TraceSink *trace_text_new(FILE *out, guint show, gboolean summaries, guint64 limit);

#endif

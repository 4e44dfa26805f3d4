/* --trace-html FILE.html: a step-through page for a small run, one self-contained file (its
 * script, style and data inline; nothing fetched).  Each step is one event of the trace as the
 * text trace shows it (the same stream and filters): the caches' and the directory's state of
 * each traced line, the messages in flight, the protocol row that fired with its explanation,
 * each core's lock phase and the instruction it is about to retire.  Buttons and keys step
 * forward and back (Right/Left, j/k), jump to the next or previous transition of a chosen line
 * (n/p), and to the start or end (Home/End); `#step=42` in the URL opens step 42 (step 0 is
 * the state before the run), `&line=h_counter` chooses the line for n/p, and `&press=nj`
 * then presses those keys (a link to "the next transition after step 42"; the tests drive
 * the page's keys this way).
 *
 * Element ids the tests read: `step-no` (the step shown), `event`, `explain`, and the state
 * cells `cell-LINE-cN` (core N's cache) and `cell-LINE-dir`. */
#ifndef QSIM_TRACE_HTML_H
#define QSIM_TRACE_HTML_H

#include "sim/trace/trace_events.h"

/* The page is written when the stream finishes (it needs the whole run): its first 20000 steps
 * (the page says how many more there were), and only if it takes at most `limit` bytes
 * (trace_limit.h); else nothing is written and finish fails. */
TraceSink *trace_html_new(const char *path, guint64 limit);

#endif

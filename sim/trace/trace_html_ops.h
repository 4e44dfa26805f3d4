/* The step-through page's pipeline panel: loads in flight and store-buffer entries, each with
 * the page steps it spans (sim/trace/trace_html_ops.c).  For trace_html.c only. */
#ifndef QSIM_TRACE_HTML_OPS_H
#define QSIM_TRACE_HTML_OPS_H

#include <json-glib/json-glib.h>
#include "sim/trace/trace_events.h"

typedef struct HtmlOps HtmlOps;

HtmlOps *html_ops_new(void);
void html_ops_free(HtmlOps *o);
/* A core's bookkeeping event (TRACE_RETIRE's kinds) for the thread in column `col`; `at` is
 * the first page step that shows what it did. */
void html_ops_event(HtmlOps *o, guint col, const CoreTraceEvent *pe, guint at);
/* "ops": [[col, "l"|"s", pc, address, value|null, from, performed|-1, until|-1, end], ...],
 * the records that begin by step `last_step` on the page's `lines` (uint64_t, sorted: those
 * that pass --trace-line); end is "r" retired, "x" squashed, "w" written,
 * "" open at the run's end. */
void html_ops_json(JsonBuilder *b, const HtmlOps *o, const TraceContext *ctx, const GArray *lines, guint last_step);

#endif

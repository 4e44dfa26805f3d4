/* Running an access script (sim/workload/access_script.h) on a machine's memory system, no cores: each
 * access is issued on its thread's core when the one before it has completed and the memory
 * system has settled (no event pending), and the trace's writers see every row it fires.  The
 * result is a report: per access its latency, who answered it, the value, and the line's state
 * in every core (and at the home) afterwards. */
#ifndef QSIM_ACCESS_SCRIPT_RUN_H
#define QSIM_ACCESS_SCRIPT_RUN_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/workload/access_script.h"
#include "sim/run/run.h"

typedef struct ScriptRunOptions {
    const char *config;          /* name or path */
    const char *const *sets;     /* "key.path=value" overrides, NULL-terminated, may be NULL */
    guint64 seed;
    gboolean check;              /* coherence invariants after every transition: the first
                                  * complaint stops the script (the report's "invariant") */
    const char *fault;           /* a fault planted in the protocol (coherence/protocol_fault.h), or NULL */
    RunTraceOptions trace;       /* as a run's (sim/run/run.h) */
} ScriptRunOptions;

/* The report, or NULL with an error: a report whose "invariant" member is set (a string) is one
 * the invariant checker complained about, after the access it names, and the script stopped
 * there (an access that never completes stops it too); else the config's, or `who:line:col: thread N: ...` for an
 * access on a core the machine lacks.  `page_cut` (may be NULL): with --trace-html, whether the
 * page held the whole run. */
JsonNode *access_script_run(const AccessScript *s, const ScriptRunOptions *o, TraceHtmlCut *page_cut, GError **error);
/* The report as a table for people. */
char *access_script_report_text(JsonNode *report);

#endif

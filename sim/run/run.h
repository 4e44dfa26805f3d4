/* One simulated run of the lock benchmark: a lock plus the workload harness on a machine model,
 * from options to a report tree.  Used by `qsim run`, `make run`, the study and sweeps. */
#ifndef QSIM_RUN_H
#define QSIM_RUN_H

#include <stdio.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/base/config.h"
#include "sim/workload/workload.h"
#include "sim/report/run_report.h"
#include "sim/trace/trace_events.h"
#include "sim/trace/trace_html.h"
#include "sim/run/run_headline.h"

/* What a run traces (sim/trace/trace_events.h): any of the three writers, and the filters they share. */
typedef struct {
    FILE *text;                  /* --trace: the text trace (sim/trace/trace_text.h), or NULL */
    const char *perfetto;        /* --trace-out: Chrome Trace Event JSON for Perfetto, or NULL */
    const char *html;            /* --trace-html: the step-through page, or NULL */
    const char *const *lines;    /* --trace-line: variable names or addresses, NULL-terminated; NULL: all */
    guint show;                  /* --trace-only: TraceShow bits; 0: TRACE_SHOW_DEFAULT */
} RunTraceOptions;

/* The trace stream of `to`'s writers for a run named by `ctx` (copied), its --trace-line
 * names resolved through ctx->names; NULL with an error for a name the program lacks or a
 * file that cannot be written.  The caller hooks it to the memory system (and the cores).
 * `page_cut` (may be NULL), when the stream finishes, says whether the page held the whole run. */
TraceStream *run_trace_open(const RunTraceOptions *to, const TraceContext *ctx, guint64 limit, TraceHtmlCut *page_cut,
                            GError **error);

typedef struct {
    const char *config;          /* name or path */
    const char *const *sets;     /* "key.path=value" overrides, NULL-terminated, may be NULL */
    const char *lock;            /* lock name or path (lock_find), or NULL when lock_file is given */
    const char *lock_file;
    const char *scenario;        /* or a scenario's name or path (scenario_find): no lock at all */
    const char *const *lock_params; /* the lock's `.param` values, "NAME=VALUE", NULL-terminated, may be NULL */
    WorkloadOptions workload;    /* threads, iterations, critical section... (sim/workload/workload.h) */
    guint64 seed;
    gboolean check;              /* coherence invariants after every transition */
    gboolean host_time;          /* report host_seconds */
    gboolean fast_forward;       /* cores asleep in steady loops (the same report, cheaper) */
    guint64 progress_cycles;     /* the progress watchdog's window (0: run_progress_default) */
    RunTraceOptions trace;       /* nothing traced when every output is NULL */
    gboolean profile;            /* --profile: the report's "profile" array (sim/report/run_profile.h) */
    const char *command;         /* the command line, for the report's provenance, or NULL */
    /* A replay (`qsim run --replay DIR`): the config's YAML and the lock's source as the run
     * folder keeps them, read instead of finding `config` and `lock` (which name them), and the
     * provenance the first run reported, reported again.  NULL otherwise. */
    const char *config_text;
    const char *lock_text;
    JsonObject *replayed_provenance;
} RunOptions;

/* The defaults of `qsim run` (the workload schema's, config haswell, seed 1). */
void run_options_init(RunOptions *o);

/* --progress-cycles: the range, and the window used when none is given.  A run in which no
 * thread calls the lock, acquires it or releases it for that many cycles has stopped making
 * progress (a lock that never hands over, a thread looping for ever): it ends as a stall with
 * each thread's position.  The default outlasts everything a working lock can do between two
 * marks: run.stall_cycles, plus four times the longest stretch of the workload's own compute
 * (critical section, think time, each with its jitter and a jittered start), plus 10000 cycles
 * per thread for handoffs that queue behind every other thread's request at the line's home.
 * On a memory system whose accesses may take longer (`longest_access`,
 * memsys_longest_access; 0: not known) both memory terms grow with it: run.stall_cycles gives
 * way to one such access per thread and one more, as the stall window does
 * (machine_memory_quiet), and 10000 to 6 of them (the bound is several times a real access: 6 cover
 * about as many handoffs as 10000 cycles do on the shipped configs, whose bounds are under 1700). */
#define RUN_PROGRESS_MIN 1000
#define RUN_PROGRESS_MAX G_GUINT64_CONSTANT(1000000000000)
guint64 run_progress_default(const WorkloadOptions *w, guint64 stall_cycles, guint64 longest_access);

typedef struct {
    JsonNode *report;            /* the report tree (owned) */
    gboolean ok;                 /* mutual exclusion held (a scenario: not judged) and the run did not stall */
    char *failure;               /* when !ok: why, with what each core waited on */
    char *config_yaml;           /* what it ran: the effective config (config_to_yaml) ... */
    char *lock_source;           /* ... and the lock's source (what `--out` keeps) */
    RunHeadline headline;        /* what the headline and warnings say (run_headline, run_warnings) */
    TraceHtmlCut page_cut;       /* --trace-html: the page's steps, and the steps it left out */
} RunResult;

void run_result_clear(RunResult *r);
/* FALSE with an error for bad input (config, lock, options: exit 2); TRUE with the result
 * otherwise, which may still say the run failed (exit 1). */
gboolean run_simulation(const RunOptions *o, RunResult *r, GError **error);

/* The model's counter groups (stats NULL: a run fills them in), for the report and its docs. */
enum { RUN_GROUP_CORE, RUN_GROUP_MEMORY, RUN_GROUP_LOCK_LINE, RUN_GROUP_LOCK_LINES, RUN_GROUP_OS, RUN_GROUPS };
extern const CounterGroup run_counter_groups[RUN_GROUPS];
/* How each group's dump sums its counters, for docs/report.md (NULL: as they are). */
extern const char *const run_counter_group_sums[RUN_GROUPS];

#endif

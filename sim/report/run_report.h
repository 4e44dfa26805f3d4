/* The report of a lock benchmark run, built in one place from what any runner can hand over:
 * who ran what (config, arch, lock, workload, seed), the per-thread mark log, the verdicts,
 * groups of counters, each a registry plus the struct it describes (sim/base/counters.h), and
 * members of the runner's own at named places.  The model hands over its core, memory-system
 * and lock-line counters; the native backend its hardware counters and the members only the
 * host has (docs/native.md).  A group a runner lacks is left out (or passed with stats NULL)
 * and its keys are simply absent, never zero.
 *
 * Report layout, in order (keys documented in docs and relied on by tests):
 *   config, arch, lock, the workload echo (workload_add_json), mode, seed
 *     [RUN_REPORT_IDENTITY members]
 *   cycles, acquisitions, cycles_per_acquisition  [RUN_REPORT_TOTALS members]
 *   latency.{mean,p50,p99  [RUN_REPORT_LATENCY members]}
 *   per_thread[] {core|cpu, role, acquisitions, cycles_waiting}, fairness.{min,avg,max}
 *   the verdicts (mutual_exclusion, stalled)  [RUN_REPORT_VERDICTS members]
 *   headline counters (machine_clears.*, paused_cycles, atomics.*, coherence.*, l1_hit_rate,
 *   sim_instructions): sums and shares of named counters, from the table in run_report.c
 *   each group's full dump under its dump_key (cores_summed.*, memory_system.*, counters.*),
 *   or "unavailable (why)" for a group its runner could not count
 *     [RUN_REPORT_END members]
 *   host_seconds, host_cpu_seconds (when given), host_peak_rss_kib,
 *   host_fast_forward_share (when given) (all when host_time) */
#ifndef QSIM_RUN_REPORT_H
#define QSIM_RUN_REPORT_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/base/counters.h"
#include "sim/machine/mark_log.h"
#include "sim/workload/workload.h"

/* A set of counters of the run.  Headline rows name their group by `id`; the builder knows
 * "core" (CoreStats summed over cores), "memory" (MemStats), "lock_line" (LineStats of the lock
 * word's line) and "os" (OsStats, where the OS model ran). */
typedef struct {
    const char *id;
    const CounterRegistry *registry;
    const void *stats;             /* NULL: absent (its keys are left out) */
    const char *dump_key;          /* every counter of the group under this key, or NULL */
    const char *unavailable;       /* stats NULL: why it could not be counted, reported under
                                    * dump_key as "unavailable (why)"; NULL: the key is absent */
} CounterGroup;

/* Where a runner's own members go in the layout (above). */
typedef enum {
    RUN_REPORT_IDENTITY,           /* after the identity (native: cpus) */
    RUN_REPORT_TOTALS,             /* after the totals (native: ns, ns_per_acquisition) */
    RUN_REPORT_LATENCY,            /* inside latency, after p99 (native: unit, samples) */
    RUN_REPORT_VERDICTS,           /* after the verdicts (native: the evidence behind them) */
    RUN_REPORT_END,                /* after the counters, before host_seconds (model: profile) */
    RUN_REPORT_PLACES
} RunReportPlace;

/* A yes/no outcome of the run, reported as a boolean member. */
typedef struct {
    const char *key;               /* "mutual_exclusion", "stalled" */
    gboolean value;
} RunVerdict;

typedef struct {
    /* identity */
    const char *config;            /* config name ("native" on the host) */
    const char *arch;
    const char *lock;
    const WorkloadOptions *workload;
    WorkloadCommand command;       /* whose workload rows to echo: WL_RUN, WL_NATIVE */
    const guint64 *seed;           /* NULL: no seed (nothing random) */
    /* what happened */
    const guint64 *cycles;         /* the run's length, NULL when not measured in cycles */
    MarkLog *marks;                /* merged (mark_log_merge); its samples are sorted here */
    const char *place_key;         /* per_thread's placement member: "core" or "cpu" */
    const guint *place_cpu;        /* with SMT: per thread its logical CPU (`place` its core), or NULL */
    const guint *place;            /* per thread: where it ran */
    const RunVerdict *verdicts;
    guint nverdicts;
    const CounterGroup *groups;
    guint ngroups;
    gboolean host_time;            /* add host_seconds and host_peak_rss_kib */
    double host_seconds;
    const double *host_cpu_seconds;/* the run's process CPU time (user + system), or NULL */
    const double *fast_forward_share; /* model: core-cycles fast-forwarded / all, or NULL */
    const guint64 *longest_streak; /* the most acquisitions one thread made in a row, or NULL
                                    * (native threads keep no common order of acquisitions) */
    /* The runner's own members at each place, copied in the object's order; NULL: none.  Their
     * keys must not be the builder's. */
    JsonObject *extra[RUN_REPORT_PLACES];
} RunReportInput;

/* The report tree (a JSON object; caller owns it). */
JsonNode *run_report_build(const RunReportInput *in);
/* The headline counters as a Markdown table, for docs: key, group, and the counters it is made
 * of (a sum, where an array or per-core counter counts as its total; or a share). */
char *run_report_headline_markdown(void);
/* Every key of a report whose counters are `groups` (stats may be NULL), in report order, with
 * unit and meaning, as Markdown tables: the body of docs/report.md.  dump_docs[i] (or NULL)
 * says how group i's dump is summed (", each summed over the cores"). */
char *run_report_reference_markdown(const CounterGroup *groups, const char *const *dump_docs, guint ngroups);
/* The unit docs/report.md gives `key` (a flattened report key: "latency.p99",
 * "per_thread.3.cycles_waiting", "cores_summed.atomic_cycles"), or NULL for a key it does not
 * list; `groups` as a report of those counters has them. */
const char *run_report_key_unit(const CounterGroup *groups, guint ngroups, const char *key);

#endif

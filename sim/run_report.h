/* The report of a lock benchmark run, built in one place from what any runner can hand over:
 * who ran what (config, arch, lock, workload, seed), the per-thread mark log, the verdicts,
 * and groups of counters, each a registry plus the struct it describes (sim/base/counters.h).
 * The model hands over its core, memory-system and lock-line counters; a runner without them
 * leaves those groups out (or passes stats NULL) and their keys are simply absent, never zero.
 *
 * Report layout, in order (keys documented in docs and relied on by tests):
 *   config, arch, lock, the workload echo (workload_add_json), mode, seed
 *   cycles, acquisitions, cycles_per_acquisition, latency.{mean,p50,p99},
 *   per_thread[] {core|cpu, role, acquisitions, cycles_waiting}, fairness.{min,avg,max}
 *   the verdicts (mutual_exclusion, stalled)
 *   headline counters (machine_clears.*, paused_cycles, atomics.*, coherence.*, l1_hit_rate,
 *   sim_instructions): sums and shares of named counters, from the table in run_report.c
 *   each group's full dump under its dump_key (core_counters.*, memory_system.*)
 *   host_seconds, host_peak_rss_kib (when host_time) */
#ifndef QSIM_RUN_REPORT_H
#define QSIM_RUN_REPORT_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/base/counters.h"
#include "sim/mark_log.h"
#include "sim/workload.h"

/* A set of counters of the run.  Headline rows name their group by `id`; the builder knows
 * "core" (CoreStats summed over cores), "memory" (MemStats) and "lock_line" (LineStats of the
 * lock word's line). */
typedef struct {
    const char *id;
    const CounterRegistry *registry;
    const void *stats;             /* NULL: absent (its keys are left out) */
    const char *dump_key;          /* every counter of the group under this key, or NULL */
} CounterGroup;

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
    MarkLog *marks;                /* its latency samples are sorted for the percentiles */
    const char *place_key;         /* per_thread's placement member: "core" or "cpu" */
    const guint *place;            /* per thread: where it ran */
    const RunVerdict *verdicts;
    guint nverdicts;
    const CounterGroup *groups;
    guint ngroups;
    gboolean host_time;            /* add host_seconds and host_peak_rss_kib */
    double host_seconds;
} RunReportInput;

/* The report tree (a JSON object; caller owns it). */
JsonNode *run_report_build(const RunReportInput *in);

#endif

/* The native runner: a lock assembled with the workload harness (the same ISA text the
 * simulator runs), translated to C, compiled (through the cache) and run on the host, one
 * pinned thread per CPU.  It takes the simulator's workload options (sim/workload/workload.h) and adds
 * only what is the host's own, the CPUs.  The verdicts are read from the harness's own
 * variables, as the simulator reads them, the marks kept in the simulator's mark log, and the
 * report built by the simulator's report builder (sim/report/run_report.h), with the members only
 * the host has (docs/native.md). */
#ifndef QSIM_NATIVE_RUN_H
#define QSIM_NATIVE_RUN_H

#include <json-glib/json-glib.h>
#include "locks/native/native_cpus.h"
#include "locks/native/native_host.h"
#include "locks/native/native_lock.h"
#include "sim/workload/workload.h"

typedef struct {
    /* The rows of `qsim native` (WL_NATIVE); the others (the model's placement, jitter,
     * readers, duration in cycles) have no effect natively and are run at their defaults, so
     * the same options can be handed over from a model run.  Fixed time: duration_ms. */
    WorkloadOptions workload;
    GArray *cpus;              /* guint CPU numbers, thread i on the i-th (at least `threads` of
                                * them); NULL: the first CPUs of our affinity mask */
    const char *const *lock_params; /* the lock's `.param` values, "NAME=VALUE"; NULL: defaults */
    guint progress_ms;         /* the progress watchdog (0: native_progress_default) */
    const char *command;       /* the command line, for the report's provenance, or NULL */
} NativeRunOptions;

/* --progress-ms: the range, and the window used when none is given.  A run in which no thread
 * calls the lock, acquires it or releases it for that long has stopped making progress: its
 * threads are taken out of the program (locks/native/native_escape.h) and the run ends in an error
 * with each thread's last phase.  The default outlasts a descheduled lock holder on a busy
 * host (2 s) and the workload's compute: each thread's critical section and think time, at
 * 4 ns a work unit (about a cycle: even a slow host runs one in 1 ns). */
#define NATIVE_PROGRESS_MIN_MS 10
#define NATIVE_PROGRESS_MAX_MS 3600000
guint native_progress_default(const WorkloadOptions *w);

/* The defaults of `qsim native` (workload_init(WL_NATIVE)), no CPU list. */
void native_run_options_init(NativeRunOptions *o);

/* Latency samples a run keeps per thread (the first ones; every acquisition is still counted
 * and its latency summed): all of a fixed-work run's, within a bound on the memory of all
 * threads together, allocated before the threads start. */
guint64 native_run_sample_limit(const WorkloadOptions *w, guint threads);

/* The C text of the program a run of `lock` with `o` executes (for inspection and tests). */
char *native_program_c(const NativeLock *lock, const NativeRunOptions *o, GError **error);

/* Runs the lock; the report tree, or NULL with an error (bad options, no compiler, cannot pin;
 * and when the program fails at run time: a fault, `NATIVE_ERROR_INVALID`, as `thread 1 faulted
 * at lock.qs:6:5 `ld r0, [r1+3]`: 8-byte access at 0x... (lock_word+3) is not 8-byte aligned`,
 * the model's words; a `halt` inside the lock, the same code; no progress,
 * NATIVE_ERROR_NO_PROGRESS, with each thread's phase).  A mutual exclusion failure is a result,
 * not an error: key `mutual_exclusion`. */
JsonNode *native_run(const NativeLock *lock, const NativeRunOptions *o, GError **error);

#endif

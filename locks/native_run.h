/* The native runner: a lock assembled with the workload harness (the same ISA text the
 * simulator runs), translated to C, compiled (through the cache) and run on the host, one
 * pinned thread per CPU.  The verdicts are read from the harness's own variables, as the
 * simulator reads them; the result is a report tree with the keys of a simulated run where they
 * mean the same thing (docs/native.md). */
#ifndef QSIM_NATIVE_RUN_H
#define QSIM_NATIVE_RUN_H

#include <json-glib/json-glib.h>
#include "locks/native_cpus.h"
#include "locks/native_host.h"
#include "locks/native_lock.h"

typedef struct {
    guint threads;             /* 0: one per CPU of `cpus`, or 2 */
    guint64 iterations;        /* acquisitions per thread (fixed work) ... */
    guint duration_ms;         /* ... or, when iterations is 0, run this long (fixed time) */
    guint cs_writes;           /* extra words written in the critical section */
    gboolean data_same_line;   /* CS data in the lock's line (else its own line) */
    guint64 cs_work, think;    /* work units inside / after the critical section */
    GArray *cpus;              /* guint CPU numbers; NULL: the first CPUs of our affinity mask */
} NativeOptions;

/* The defaults of `qsim native`: 2 threads, 10000 iterations, separate-line data. */
void native_options_init(NativeOptions *o);

/* The C text of the program a run of `lock` with `o` executes (for inspection and tests). */
char *native_program_c(const NativeLock *lock, const NativeOptions *o, GError **error);

/* Runs the lock; the report tree, or NULL with an error (bad options, no compiler, cannot pin,
 * program fault).  A mutual exclusion failure is a result, not an error: key
 * `mutual_exclusion`. */
JsonNode *native_run(const NativeLock *lock, const NativeOptions *o, GError **error);

#endif

/* Hardware counters of a native run (perf_event_open), one set per thread, user space only,
 * enabled around the timed loop.  What they count is a counter registry (sim/base/counters.h),
 * so the report builder dumps them as it dumps the model's counters, and the docs list them
 * (docs/counters.md).  Where the kernel refuses them (most containers), the report says why
 * instead of giving numbers. */
#ifndef QSIM_NATIVE_PERF_H
#define QSIM_NATIVE_PERF_H

#include <stdint.h>
#include <glib.h>
#include "sim/base/counters.h"

/* Every field a guint64 registered in native_perf_registry, in NativePerfEvent order. */
typedef struct {
    guint64 cycles;
    guint64 instructions;
    guint64 machine_clears_memory_ordering;
} NativePerfStats;
extern const CounterRegistry native_perf_registry;

/* The events, in the registry's row order. */
typedef enum { NATIVE_CTR_CYCLES, NATIVE_CTR_INSNS, NATIVE_CTR_CLEARS, NATIVE_CTR_N } NativePerfEvent;

/* One thread's counters.  counted[i]: event i was opened (its value is meaningful once
 * stopped); err: errno of a required event that could not be opened (then none is counted). */
typedef struct {
    int fd[NATIVE_CTR_N];
    gboolean counted[NATIVE_CTR_N];
    int err;
    NativePerfStats stats;
} NativePerf;

/* Whether this host counts Intel's MACHINE_CLEARS.MEMORY_ORDERING (a GenuineIntel CPU). */
gboolean native_perf_host_is_intel(void);
/* Opens the counters for the calling thread, disabled; the Intel-only ones when `intel`. */
void native_perf_open(NativePerf *p, gboolean intel);
void native_perf_start(NativePerf *p);
/* Stops, reads and closes. */
void native_perf_stop(NativePerf *p);

/* The threads' counters together.  Where every thread counted: their sum in *total, and in
 * *counted a registry of the rows every thread counted (an event this host lacks is absent,
 * not zero), its rows stored in `rows`; NULL.  Else why not ("perf_event_open: why;
 * kernel.perf_event_paranoid=N"), to free. */
char *native_perf_total(NativePerf *const *threads, guint n, NativePerfStats *total,
                        CounterInfo rows[NATIVE_CTR_N], CounterRegistry *counted);

#endif

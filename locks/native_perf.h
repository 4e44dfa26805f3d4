/* Hardware counters of a native run (perf_event_open), one set per thread, user space only,
 * enabled around the timed loop.  Where the kernel refuses them (most containers), the report
 * says why instead of giving numbers. */
#ifndef QSIM_NATIVE_PERF_H
#define QSIM_NATIVE_PERF_H

#include <stdint.h>
#include <glib.h>

/* The counters, in native_perf_names order. */
enum { NATIVE_CTR_CYCLES, NATIVE_CTR_INSNS, NATIVE_CTR_CLEARS, NATIVE_CTR_N };
/* Their report keys. */
extern const char *const native_perf_names[NATIVE_CTR_N];

/* One thread's counters.  counted[i]: counter i was opened (its value is meaningful once
 * stopped); err: errno of a required counter that could not be opened (then none is counted). */
typedef struct {
    int fd[NATIVE_CTR_N];
    gboolean counted[NATIVE_CTR_N];
    int err;
    uint64_t value[NATIVE_CTR_N];
} NativePerf;

/* Whether this host counts Intel's MACHINE_CLEARS.MEMORY_ORDERING (a GenuineIntel CPU). */
gboolean native_perf_host_is_intel(void);
/* Opens the counters for the calling thread, disabled; the Intel-only ones when `intel`. */
void native_perf_open(NativePerf *p, gboolean intel);
void native_perf_start(NativePerf *p);
/* Stops, reads and closes. */
void native_perf_stop(NativePerf *p);
/* "unavailable (perf_event_open: why; kernel.perf_event_paranoid=N)" for a set that did not
 * open, else NULL. */
char *native_perf_unavailable(const NativePerf *p);

#endif

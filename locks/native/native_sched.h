/* How the host's scheduler treated a native run, and the warnings that calls for.  A thread
 * that loses its CPU while it holds the lock stalls every other thread: one such preemption
 * turns a mean latency of hundreds of cycles into tens of thousands, while the percentiles stay
 * put.  So each thread counts, over its timed loop, its involuntary context switches
 * (getrusage RUSAGE_THREAD) and the time it was runnable but waiting for a CPU
 * (/proc/thread-self/schedstat), and the run notes how many other tasks were runnable when it
 * started (/proc/loadavg).  The judgement is a pure function of those numbers (tests inject
 * them). */
#ifndef QSIM_NATIVE_SCHED_H
#define QSIM_NATIVE_SCHED_H

#include <glib.h>
#include <json-glib/json-glib.h>

/* One thread's scheduling over the timed loop (or a sample of the running totals). */
typedef struct {
    guint64 involuntary;   /* involuntary context switches: preempted while runnable */
    gint64 run_delay_ns;   /* time runnable but not running; -1 where the host does not say */
} NativeThreadSched;

/* The calling thread's totals so far. */
void native_sched_sample(NativeThreadSched *s);
/* What happened between two samples of one thread. */
NativeThreadSched native_sched_delta(const NativeThreadSched *start, const NativeThreadSched *end);
/* Tasks runnable on the host now besides `ours` (this process's runnable threads), from
 * /proc/loadavg; -1 where it cannot be read. */
gint native_sched_others_runnable(guint ours);

/* A waiting time of this share of the run or more is a thread descheduled. */
#define NATIVE_DESCHEDULED_SHARE 0.01
/* Fewer latency samples than this say nothing about a tail. */
#define NATIVE_TAIL_MIN_SAMPLES 100

/* What the judgement reads. */
typedef struct {
    guint nthreads;
    const NativeThreadSched *threads;
    const guint *cpus;             /* per thread */
    guint64 span_ns;               /* the timed span */
    gint others_runnable;          /* -1: unknown */
    guint online_cpus;
    double latency_mean, latency_p99;
    guint64 latency_samples;
    const char *latency_unit;
} NativeSchedInput;

/* The warnings (strings) a run calls for: a thread descheduled (it waited for a CPU for
 * NATIVE_DESCHEDULED_SHARE of the span or more, or was preempted where the waiting time is
 * unknown), the host busy (more other tasks runnable than CPUs this run left free), a latency
 * mean above its p99 (a few acquisitions took most of the time).  Empty when none. */
GPtrArray *native_sched_warnings(const NativeSchedInput *in);

/* The report's `scheduling` member: per thread `involuntary_switches` and `run_delay_ns` (absent
 * where unknown), `others_runnable` (absent where unknown), `online_cpus`, and `disturbed`
 * (whether native_sched_warnings had anything to say). */
JsonObject *native_sched_report(const NativeSchedInput *in);
/* The warnings of a finished run, from its report (the `scheduling` member, `cpus`, `ns` and
 * `latency`); empty for a report without `scheduling`. */
GPtrArray *native_report_warnings(JsonNode *report);

#endif

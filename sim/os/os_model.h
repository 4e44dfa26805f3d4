/* The OS model: what Linux does for a lock that sleeps, on the timing model.
 *
 * Threads: a run may have more threads than the machine has cores.  Each core has a run queue;
 * a thread runs until it sleeps in futex_wait, finishes, or its time slice ends (CFS's:
 * os.sched_latency_cycles shared by the core's runnable threads, at least
 * os.min_granularity_cycles), and the next in the queue runs after os.context_switch_cycles.
 * A thread leaving a core takes its architectural state with it (core_context_save); its marks
 * keep their times, so a lock's latency includes the time it was off the core, as a real
 * mutex's would.  With os.migration, a thread woken while its core is busy goes to an idle core
 * of that core's socket (else of the waker's), and a core left idle takes the oldest waiting
 * thread of the longest run queue, its own socket's first.
 *
 * System calls (sim/os/os_futex.c): futex_wait and futex_wake reach the OS at the ROB head.  Each
 * pays half of os.syscall_cycles going in and half coming out, and os.futex_key_cycles; the hash
 * bucket (Linux: jhash of the address into 256 x cores buckets, each a cache line holding a
 * waiter count and a spinlock) is a real line in the memory system, reached from the calling
 * core: futex_wait adds itself to the waiter count (an atomic), takes the lock (a compare-and-
 * swap; waiters queue behind the first, which polls the line, as a queued spinlock's head does),
 * reads the futex word, holds the lock os.futex_hold_cycles, and either queues the thread and
 * sleeps or (the word changed) undoes the count and returns 1.  futex_wake reads the waiter
 * count and returns at once when it is 0; else it takes the lock, dequeues up to n sleepers in
 * the order they slept, releases the lock, and wakes each (os.futex_wake_cycles apiece): a woken
 * thread waits in a run queue, or an idle core starts it after os.wakeup_cycles.  The woken
 * thread finishes its futex_wait (rd := 0) and the syscall exit before its user code runs.
 *
 * The model's own memory traffic uses requests tagged OS_MODEL_TAG; the machine routes their
 * answers here.  Everything is ordered by the engine; no host state leaks in. */
#ifndef QSIM_OS_MODEL_H
#define QSIM_OS_MODEL_H

#include <glib.h>
#include "sim/base/engine.h"
#include "sim/base/config.h"
#include "sim/base/counters.h"
#include "coherence/port.h"
#include "cores/core.h"

/* Tags of the OS model's memory requests have this bit set (core tags never do). */
#define OS_MODEL_TAG (1ULL << 63)

/* Kernel memory (the futex hash buckets) starts here, far above any program's memory. */
#define OS_KERNEL_BASE 0x40000000000ULL

/* The OS model's counters, summed over threads and cores (os_stats_registry). */
typedef struct {
    guint64 futex_syscalls;        /* futex_wait and futex_wake calls */
    guint64 futex_waits;           /* futex_wait calls */
    guint64 futex_eagain;          /* futex_waits that found the word changed and returned 1 */
    guint64 sleeps;                /* futex_waits that slept */
    guint64 futex_wakes;           /* futex_wake calls */
    guint64 futex_wakes_empty;     /* futex_wakes that found no waiter count and returned 0 */
    guint64 wakes;                 /* threads woken by futex_wake */
    guint64 context_switches;      /* a thread leaving a core for another (or for idle) */
    guint64 preemptions;           /* context switches at the end of a time slice */
    guint64 migrations;            /* a thread running on another core than before */
    guint64 cycles_asleep;         /* threads asleep in futex_wait, summed */
    guint64 runqueue_wait_cycles;  /* threads ready but waiting for their core, summed */
    guint64 wake_to_run_cycles;    /* from a thread's wake-up to its running again, summed */
    guint64 kernel_cycles;         /* cores in system calls (entry to return or sleep), summed */
    guint64 hb_lock_wait_cycles;   /* of which waiting for a hash-bucket lock */
    guint64 switch_cycles;         /* cores switching threads or waking from idle, summed */
    guint64 idle_cycles;           /* cores with no thread to run, summed */
} OsStats;

extern const CounterRegistry os_stats_registry;

typedef struct OsModel OsModel;

/* Whether a run needs the OS model: a program with system calls, or more threads than cores. */
gboolean os_model_needed(const IsaProgram *p, guint nthreads, guint ncores);

/* `issue`/`ms` reach the memory system as the cores do; `prog` and `layout` are the program's,
 * against which a futex op's word is judged (cores/isa/isa_fault.h).  Borrowed: all but nthreads. */
OsModel *os_model_new(const QsimConfig *cfg, Engine *e, const IsaProgram *prog, const IsaLayout *layout,
                      CoreIssueFn issue, void *ms, guint nthreads);
/* The run ends here (a fault): every event of the model pending is dropped, and answers still
 * to come from the memory system are ignored. */
void os_model_stop(OsModel *os);
void os_model_free(OsModel *os);
/* Core `c` runs threads; the OS sets its hooks.  Every core first, then every thread. */
void os_model_add_core(OsModel *os, Core *c);
/* Thread `tid` starts on core `core_id`; the first thread added for a core is the one running
 * on it (the Core was made with it), the others wait in its run queue in the order added. */
void os_model_add_thread(OsModel *os, guint tid, guint core_id, const CoreContext *initial);
/* At the start of the run (slices begin). */
void os_model_start(OsModel *os);

/* An answer to one of the model's requests (its tag has OS_MODEL_TAG), for core `core_id`. */
void os_model_mem_done(OsModel *os, guint core_id, const MemResponse *r);

/* How long the OS model's own costs, as configured, may hold a run (issue 29 item 9: accepted
 * settings made correct locks fail the watchdogs).  `retire`: with nothing retired on any
 * core, a futex system call's costs with the wake-ups and bucket-lock turns of every thread,
 * then an idle core's wake-up and a context switch.  `progress`: with no acquisition or
 * release, that, plus a ready thread's wait behind the others of its core's run queue (each a
 * time slice and a switch): a lock holder preempted holds every waiter that long. */
typedef struct {
    Cycle retire, progress;
} OsQuiet;
OsQuiet os_model_quiet(const OsModel *os);

/* Every thread has finished.  The run ends there: the model's pending time slices are dropped
 * at the last thread's halt, so its clock stops with the work, not at a slice or the stall
 * window. */
gboolean os_model_all_done(const OsModel *os);
/* One line per thread not finished: where it is (running, ready, asleep on which word). */
void os_model_describe(const OsModel *os, GString *out);
/* Where thread `tid` is now, for a trace that draws time-shared threads: on a core, being
 * switched onto one, in a core's run queue, asleep in futex_wait (woken but not yet queued counts
 * as asleep), or finished; *core is the core it runs on, waits for, or last ran on. */
typedef enum { OS_THREAD_RUNNING, OS_THREAD_READY, OS_THREAD_ASLEEP, OS_THREAD_DONE, OS_THREAD_LOADING } OsThreadWhere;
OsThreadWhere os_model_thread_where(const OsModel *os, guint tid, guint *core);
/* The counters so far, intervals still open (asleep, waiting, idle) counted up to now. */
void os_model_stats(const OsModel *os, OsStats *out);

#endif

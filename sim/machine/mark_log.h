/* The per-thread record of a lock benchmark: acquisitions, releases, time spent waiting and
 * latency samples, fed by the harness's marks (1: the lock call begins, 2: acquired,
 * 3: released).  Every runner keeps its marks here and hands the log to the report builder
 * (sim/report/run_report.h): the model from retired `mark` ops (sim/run/run.c), the native backend from
 * each host thread's time-stamp-counter readings (locks/native/native_run.c).
 *
 * Each thread has a record of its own (MarkLogThread) in cache lines of its own, touched only
 * by that thread while the run goes on, so threads that really run in parallel never share a
 * line through their bookkeeping.  Samples: a log made with a limit has room for that many per
 * thread from the start, and a mark never allocates (it keeps the first `limit` latencies and
 * still counts and sums every one); MARK_LOG_EVERY_SAMPLE keeps them all, growing as needed.
 * When the run is over, mark_log_merge moves every thread's samples into `latency`, which is
 * what the report reads.
 *
 * Invariants, per thread: kept == MIN(acquisitions, limit); until the merge kept <= room and
 * `samples` holds them; waiting is the sum of every latency, kept or not; after the merge,
 * latency holds every thread's kept samples and the threads' arrays are gone. */
#ifndef QSIM_MARK_LOG_H
#define QSIM_MARK_LOG_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/latency_stats.h"

/* What the progress watchdogs (the model's, sim/machine/machine.h, and the native runner's) count as
 * progress: an acquisition or a release.  Any other mark, the harness's `mark 1` too, may sit
 * in a lock's spin loop (`lock: mark 0; jmp lock`) and says nothing about the lock moving. */
static inline gboolean mark_is_progress(int64_t n) { return n == 2 || n == 3; }

/* Keep every latency sample (the log grows with the run). */
#define MARK_LOG_EVERY_SAMPLE G_MAXUINT64

typedef struct {
    guint64 call_began;           /* the open lock call's mark 1 */
    guint64 acquisitions;         /* mark 2s */
    guint64 releases;             /* mark 3s */
    guint64 waiting;              /* mark 1 to mark 2, summed */
    guint64 *samples;             /* mark 1 to mark 2 of the first `kept` acquisitions (NULL
                                   * once merged) */
    guint64 kept, room;
    guint64 limit;                /* the log's, here so that a mark reads this record only */
} MarkLogThread;

typedef struct {
    guint nthreads;
    MarkLogThread **threads;      /* nthreads records, each line-aligned */
    LatencySamples latency;       /* after mark_log_merge: every kept sample, in thread order */
    gboolean merged;
} MarkLog;

/* A log for `nthreads` threads keeping up to `sample_limit` latencies per thread (allocated
 * now), or every one (MARK_LOG_EVERY_SAMPLE). */
void mark_log_init(MarkLog *log, guint nthreads, guint64 sample_limit);
void mark_log_clear(MarkLog *log);

/* Out of line: more room for a log that keeps every sample. */
void mark_log_thread_grow(MarkLogThread *r);

/* Mark `n` of the thread whose record is `r`, at time `when` (marks other than 1..3, a lock's
 * own, are ignored).  Allocates only in a log that keeps every sample. */
static inline void mark_log_thread_mark(MarkLogThread *r, int64_t n, guint64 when)
{
    switch (n) {
    case 1:
        r->call_began = when;
        break;
    case 2: {
        guint64 lat = when - r->call_began;
        r->acquisitions++;
        r->waiting += lat;
        if (r->kept == r->room && r->kept < r->limit)
            mark_log_thread_grow(r);
        if (r->kept < r->room)
            r->samples[r->kept++] = lat;
        break;
    }
    case 3:
        r->releases++;
        break;
    default:
        break;
    }
}

/* Mark `n` of thread `t` at time `when`. */
static inline void mark_log_mark(MarkLog *log, guint t, int64_t n, guint64 when)
{
    g_assert(t < log->nthreads);
    mark_log_thread_mark(log->threads[t], n, when);
}

/* Re-expresses every time of the log in another unit (`factor` of them per tick), each sample
 * rounded to a whole unit: a runner whose clock ticks are not what it reports (the native
 * backend's arm64 timer, reported in ns).  Before mark_log_merge. */
void mark_log_convert(MarkLog *log, double factor);
/* Once, when the run is over (no marks after it): moves every thread's kept samples into
 * `latency`, in thread order, freeing each thread's array as it goes, so that the samples are
 * never held twice over. */
void mark_log_merge(MarkLog *log);
/* Acquisitions of every thread. */
guint64 mark_log_acquisitions(const MarkLog *log);

#endif

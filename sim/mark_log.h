/* The per-thread record of a lock benchmark: acquisitions, releases, cycles spent waiting and
 * one latency sample per acquisition, fed by the harness's marks (1: the lock call begins,
 * 2: acquired, 3: released).  The model feeds it from retired `mark` ops (sim/run.c); any
 * other runner with timestamps per thread can feed the same structure and hand it to the
 * report builder (sim/run_report.h).
 *
 * Invariant: every array has `nthreads` entries; latency holds one sample per acquisition. */
#ifndef QSIM_MARK_LOG_H
#define QSIM_MARK_LOG_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/latency_stats.h"

typedef struct {
    guint nthreads;
    guint64 *call_began;          /* per thread: the open lock call's mark 1 */
    guint64 *acquisitions;
    guint64 *releases;
    guint64 *waiting;             /* time from mark 1 to mark 2, summed */
    LatencySamples latency;       /* mark 1 to mark 2, every acquisition of every thread */
} MarkLog;

void mark_log_init(MarkLog *log, guint nthreads);
void mark_log_clear(MarkLog *log);
/* Mark `n` of thread `t` at time `when` (marks other than 1..3 are ignored). */
void mark_log_mark(MarkLog *log, guint t, int64_t n, guint64 when);
/* Acquisitions of every thread. */
guint64 mark_log_acquisitions(const MarkLog *log);

#endif

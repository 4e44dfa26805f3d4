/* What a thread's marks say, natively: the harness's `mark 1` (a lock call begins), `mark 2`
 * (acquired) and `mark 3` (released), as in the simulator's run (sim/run.c), counted from
 * time-stamp-counter readings.  Each thread keeps its own record, touched by no other thread
 * while it runs; the run sums them afterwards.  This is the whole of the bookkeeping a report
 * needs: acquisitions per thread, time spent waiting, and latency samples. */
#ifndef QSIM_NATIVE_MARKS_H
#define QSIM_NATIVE_MARKS_H

#include <stdint.h>
#include <glib.h>
#include "sim/base/latency_stats.h"

/* One thread's record.  Invariants: releases <= acquisitions; kept == MIN(acquisitions, cap);
 * waiting is the sum of every latency (kept or not). */
typedef struct {
    uint64_t began;            /* stamp of the open lock call's mark 1 */
    uint64_t acquisitions;     /* mark 2s */
    uint64_t releases;         /* mark 3s */
    uint64_t waiting;          /* mark 1 to mark 2, summed, in stamps */
    uint64_t *samples;         /* the first `cap` latencies, in stamps */
    uint64_t cap, kept;
} NativeMarks;

/* Room for `cap` latency samples (allocated now, not while the thread runs). */
void native_marks_init(NativeMarks *m, uint64_t cap);
void native_marks_clear(NativeMarks *m);

/* Mark `n` seen at stamp `now`; marks other than 1..3 (a lock's own) are ignored. */
static inline void native_marks_note(NativeMarks *m, int64_t n, uint64_t now)
{
    switch (n) {
    case 1:
        m->began = now;
        break;
    case 2: {
        uint64_t lat = now - m->began;
        m->acquisitions++;
        m->waiting += lat;
        if (m->kept < m->cap)
            m->samples[m->kept++] = lat;
        break;
    }
    case 3:
        m->releases++;
        break;
    default:
        break;
    }
}

/* Every thread's kept samples, in thread order, appended to `out` (initialised). */
void native_marks_latency(NativeMarks *const *threads, guint n, LatencySamples *out);

#endif

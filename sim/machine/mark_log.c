/* The per-thread mark record (see mark_log.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/machine/mark_log.h"

/* Two lines: Intel's adjacent-line prefetcher fetches lines in pairs, so a record alone in one
 * line could still be dragged between cores with its neighbour. */
#define MARK_LOG_ALIGN 128
/* First room of a log that keeps every sample (it doubles from there). */
#define MARK_LOG_FIRST_ROOM 256

/* Zeroed memory of whole aligned blocks, sharing no line with another allocation. */
static void *line_alloc(gsize bytes)
{
    gsize size = MAX((bytes + MARK_LOG_ALIGN - 1) / MARK_LOG_ALIGN * MARK_LOG_ALIGN, (gsize)MARK_LOG_ALIGN);
    void *p = aligned_alloc(MARK_LOG_ALIGN, size);
    g_assert(p);
    memset(p, 0, size);
    return p;
}

void mark_log_init(MarkLog *log, guint nthreads, guint64 sample_limit)
{
    memset(log, 0, sizeof *log);
    log->nthreads = nthreads;
    log->threads = g_new0(MarkLogThread *, MAX(nthreads, 1));
    guint64 room = sample_limit == MARK_LOG_EVERY_SAMPLE ? MARK_LOG_FIRST_ROOM : sample_limit;
    for (guint t = 0; t < nthreads; t++) {
        MarkLogThread *r = line_alloc(sizeof *r);
        r->limit = sample_limit;
        r->room = room;
        r->samples = line_alloc(room * sizeof *r->samples);
        log->threads[t] = r;
    }
    latency_init(&log->latency);
}

void mark_log_clear(MarkLog *log)
{
    for (guint t = 0; t < log->nthreads; t++) {
        free(log->threads[t]->samples);
        free(log->threads[t]);
    }
    g_free(log->threads);
    latency_clear(&log->latency);
    memset(log, 0, sizeof *log);
}

void mark_log_thread_grow(MarkLogThread *r)
{
    guint64 room = MIN(MAX(r->room * 2, (guint64)MARK_LOG_FIRST_ROOM), r->limit);
    guint64 *samples = line_alloc(room * sizeof *samples);
    memcpy(samples, r->samples, r->kept * sizeof *samples);
    free(r->samples);
    r->samples = samples;
    r->room = room;
}

void mark_log_convert(MarkLog *log, double factor)
{
    g_assert(!log->merged);
    for (guint t = 0; t < log->nthreads; t++) {
        MarkLogThread *r = log->threads[t];
        r->waiting = (guint64)llround((double)r->waiting * factor);
        for (guint64 i = 0; i < r->kept; i++)
            r->samples[i] = (guint64)llround((double)r->samples[i] * factor);
    }
}

void mark_log_merge(MarkLog *log)
{
    g_assert(!log->merged);
    guint64 total = 0;
    for (guint t = 0; t < log->nthreads; t++)
        total += log->threads[t]->kept;
    g_assert(total <= G_MAXUINT); /* a GArray's length */
    g_array_set_size(log->latency.samples, (guint)total);
    guint64 at = 0;
    for (guint t = 0; t < log->nthreads; t++) {
        MarkLogThread *r = log->threads[t];
        if (r->kept) /* an empty GArray may have no data at all */
            memcpy(&g_array_index(log->latency.samples, guint64, at), r->samples, r->kept * sizeof *r->samples);
        at += r->kept;
        free(r->samples);
        r->samples = NULL;
        r->room = 0;
    }
    log->merged = TRUE;
}

guint64 mark_log_acquisitions(const MarkLog *log)
{
    guint64 n = 0;
    for (guint t = 0; t < log->nthreads; t++)
        n += log->threads[t]->acquisitions;
    return n;
}

/* The per-thread mark record (see mark_log.h). */
#include <string.h>
#include "sim/mark_log.h"

void mark_log_init(MarkLog *log, guint nthreads)
{
    memset(log, 0, sizeof *log);
    log->nthreads = nthreads;
    log->call_began = g_new0(guint64, nthreads);
    log->acquisitions = g_new0(guint64, nthreads);
    log->releases = g_new0(guint64, nthreads);
    log->waiting = g_new0(guint64, nthreads);
    latency_init(&log->latency);
}

void mark_log_clear(MarkLog *log)
{
    latency_clear(&log->latency);
    g_free(log->call_began);
    g_free(log->acquisitions);
    g_free(log->releases);
    g_free(log->waiting);
    memset(log, 0, sizeof *log);
}

void mark_log_mark(MarkLog *log, guint t, int64_t n, guint64 when)
{
    g_assert(t < log->nthreads);
    switch (n) {
    case 1:
        log->call_began[t] = when;
        break;
    case 2:
        log->acquisitions[t]++;
        log->waiting[t] += when - log->call_began[t];
        latency_add(&log->latency, when - log->call_began[t]);
        break;
    case 3:
        log->releases[t]++;
        break;
    default:
        break;
    }
}

guint64 mark_log_acquisitions(const MarkLog *log)
{
    guint64 n = 0;
    for (guint t = 0; t < log->nthreads; t++)
        n += log->acquisitions[t];
    return n;
}

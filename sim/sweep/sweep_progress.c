/* Where a running sweep stands: the estimate of the time left, the progress text, and when a
 * batch log gets a line.  Pure functions of the numbers handed in, so tests can inject them;
 * the command line prints (sim/cli/cmd_sweep.c). */
#include <math.h>
#include "sim/sweep/sweep.h"

double sweep_eta(const SweepProgress *p)
{
    if (!p->done || p->done_seconds <= 0)
        return p->done >= p->total ? 0 : -1;
    if (p->done >= p->total)
        return 0;
    double mean = p->done_seconds / p->done;
    /* What the points in flight still need: the mean less what each has run (at least a little:
     * one running past the mean is a dear point, not a finished one). */
    double in_flight = 0, longest = 0;
    for (guint i = 0; i < p->nrunning; i++) {
        double left = MAX(mean - p->running[i], mean * 0.05);
        in_flight += left;
        longest = MAX(longest, left);
    }
    guint waiting = p->total - p->done > p->nrunning ? p->total - p->done - p->nrunning : 0;
    double work = in_flight + mean * waiting;
    guint workers = MAX(1u, MIN(p->workers, p->total - p->done));
    return MAX(work / workers, longest);
}

char *sweep_duration_text(double seconds)
{
    guint s = (guint)(MAX(seconds, 0) + 0.5);
    if (s >= 3600)
        return g_strdup_printf("%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
    return g_strdup_printf("%u:%02u", s / 60, s % 60);
}

char *sweep_progress_text(const SweepProgress *p)
{
    GString *s = g_string_new(NULL);
    guint pct = p->total ? (guint)((guint64)p->done * 100 / p->total) : 100;
    g_string_append_printf(s, "%u/%u points (%u%%)", p->done, p->total, pct);
    if (p->failed)
        g_string_append_printf(s, ", %u failed", p->failed);
    g_autofree char *el = sweep_duration_text(p->elapsed);
    g_string_append_printf(s, ", %s elapsed", el);
    if (p->done < p->total) {
        double eta = sweep_eta(p);
        g_autofree char *left = eta >= 0 ? sweep_duration_text(eta) : NULL;
        g_string_append_printf(s, ", %s%s left", left ? "about " : "", left ? left : "? (none finished yet)");
    }
    return g_string_free(s, FALSE);
}

gboolean sweep_progress_due(const SweepProgress *p, const SweepProgressMark *last)
{
    if (p->done >= p->total)
        return last->done < p->total;
    /* A tenth more of the points, by whole tenths (so 12 points print at 2, 3, 4, ...). */
    guint64 tenth_now = p->total ? (guint64)p->done * 10 / p->total : 0;
    guint64 tenth_then = p->total ? (guint64)last->done * 10 / p->total : 0;
    if (tenth_now > tenth_then)
        return TRUE;
    return p->elapsed - last->at >= SWEEP_PROGRESS_INTERVAL;
}

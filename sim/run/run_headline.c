/* The headline and warnings of a run (see run_headline.h). */
#include <string.h>
#include "sim/run/run_headline.h"

void run_headline_clear(RunHeadline *h)
{
    g_free(h->lock);
    g_free(h->config);
    g_free(h->data);
    g_free(h->cpu_list);
    g_free(h->thread_acquisitions);
    g_free(h->lock_lines);
    memset(h, 0, sizeof *h);
}

void run_headline_move(RunHeadline *to, RunHeadline *from)
{
    *to = *from;
    memset(from, 0, sizeof *from);
}

/* The lock's lines by their variables, " (a, b)", or "" when it has none. */
static char *lines_named(const RunHeadline *h)
{
    const char *lines = h->lock_lines ? h->lock_lines : "";
    g_auto(GStrv) names = g_strsplit(lines, " ", -1);
    g_autofree char *joined = g_strjoinv(", ", names);
    return *lines ? g_strdup_printf(" (%s)", joined) : g_strdup("");
}

/* A scenario's headline: no lock, so an "acquisition" is one call of its body, an iteration. */
static char *scenario_headline(const RunHeadline *h)
{
    gint64 n = (gint64)h->acquisitions;
    g_autofree char *named = lines_named(h);
    double per = (double)MAX(n, 1);
    g_autofree char *cost = h->stalled || h->faulted || !h->acquisitions
        ? g_strdup_printf("UNFINISHED after %" G_GINT64_FORMAT " cycles and %" G_GINT64_FORMAT " iterations",
                          (gint64)h->cycles, n)
        : g_strdup_printf("%.1f cycles per iteration", (double)h->cycles / (double)h->acquisitions);
    return g_strdup_printf("scenario %s on %s (%s), %" G_GINT64_FORMAT " threads, no lock: %s\n"
                           "  per iteration: %.2f memory-ordering machine clears, %.2f RFOs and %.2f invalidations of "
                           "the scenario's lines%s, %.2f L1 misses of them, %.1f paused cycles\n\n",
                           h->lock, h->config, h->arch, (gint64)h->threads, cost,
                           (double)h->memory_ordering_clears / per, (double)h->lock_lines_rfo / per,
                           (double)h->lock_lines_invalidations / per, named, (double)h->lock_lines_l1_misses / per,
                           (double)h->paused_cycles / per);
}

char *run_headline(const RunHeadline *h)
{
    if (h->scenario)
        return scenario_headline(h);
    double acq = (double)MAX(h->acquisitions, 1);
    GString *s = g_string_new(NULL);
    /* A run the model ended early has no cost per acquisition worth a headline: say so first,
     * not 30 lines down. */
    const char *ended = h->stalled ? "STALLED" : h->faulted ? "FAULTED" : h->halted_in_lock ? "HALTED IN THE LOCK" : NULL;
    g_autofree char *cost = ended ? g_strdup_printf("%s after %" G_GINT64_FORMAT " cycles and %" G_GINT64_FORMAT
                                                    " acquisitions (an unfinished run: the figures below describe it, "
                                                    "not the lock's cost)", ended, (gint64)h->cycles,
                                                    (gint64)h->acquisitions)
                            : h->acquisitions
                                ? g_strdup_printf("%.1f cycles per acquisition",
                                                  (double)h->cycles / (double)h->acquisitions)
                                : g_strdup("no acquisition in the measured window");
    g_string_append_printf(s, "%s on %s (%s), %" G_GINT64_FORMAT " threads, %s data: %s%s\n", h->lock, h->config,
                           h->arch, (gint64)h->threads, h->data, cost,
                           h->mutual_exclusion ? "" : "  ** MUTUAL EXCLUSION VIOLATED **");
    /* The lock's lines: every line a variable of the lock lives in (its nodes and slots too). */
    g_autofree char *named = lines_named(h);
    g_string_append_printf(s, "  per acquisition: %.2f memory-ordering machine clears, %.2f RFOs and %.2f "
                              "invalidations of the lock's lines%s, %.2f atomics (%.2f failed CAS), %.1f atomic "
                              "cycles, %.1f paused cycles\n\n",
                           (double)h->memory_ordering_clears / acq, (double)h->lock_lines_rfo / acq,
                           (double)h->lock_lines_invalidations / acq, named, (double)h->atomics / acq,
                           (double)h->failed_cas / acq, (double)h->atomic_cycles / acq,
                           (double)h->paused_cycles / acq);
    return g_string_free(s, FALSE);
}

GPtrArray *run_warnings(const RunHeadline *h)
{
    GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
    /* A CPU list shorter than the threads starts over (sim/workload/placement.h): legal, and a
     * way to share CPUs on purpose, so a warning, not an error; but a list is usually meant as
     * one CPU a thread, and the OS model it brings in changes every figure. */
    if (h->cpu_list && h->cpu_list_len < h->threads)
        g_ptr_array_add(w, g_strdup_printf("--placement %s names %u CPU%s for %u threads: the list starts over, so "
                                           "threads share CPUs through the OS model (list a CPU a thread to give "
                                           "each its own)", h->cpu_list, h->cpu_list_len,
                                           h->cpu_list_len == 1 ? "" : "s", h->threads));
    guint writers = h->threads - MIN(h->readers, h->threads);
    /* With noise each run draws its own interleaving; without, a run can lock into one. */
    if (h->jitter || writers < 2)
        return w;
    for (guint t = h->readers; h->fixed_time && t < h->threads; t++)
        if (!h->thread_acquisitions[t]) {
            g_ptr_array_add(w, g_strdup_printf("thread %u never acquired the lock in the measured window, and the run "
                                               "has no timing noise (--jitter 0), so it may have locked into one "
                                               "interleaving: try --jitter 50, or --repeat 10 for an interval", t));
            return w;
        }
    gint64 acq = (gint64)h->acquisitions, streak = (gint64)h->longest_streak;
    /* A streak as long as half a thread's share (and not a few in a row). */
    if (streak >= MAX(16, acq / (2 * (gint64)writers)))
        g_ptr_array_add(w, g_strdup_printf("one thread acquired the lock %" G_GINT64_FORMAT " times in a row (of %"
                                           G_GINT64_FORMAT " acquisitions), and the run has no timing noise "
                                           "(--jitter 0): it may have locked into one interleaving, and its figures "
                                           "describe that one: try --jitter 50, or --repeat 10 for an interval",
                                           streak, acq));
    return w;
}

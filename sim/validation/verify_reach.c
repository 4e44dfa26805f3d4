/* Refusing out-of-reach verify bounds (see verify_reach.h). */
#include <math.h>
#include "sim/validation/verify_reach.h"
#include "sim/memmodel/graph_explore.h"

/* graph_replay.c refuses a thread that adds more events than this (its taint sets' width less
 * its margin); the lock then goes to the state search. */
#define GRAPH_THREAD_EVENTS (MM_GRAPH_MAX_THREAD_EVENTS - 10)

/* The largest --max-states the command line takes (cmd_verify.c's range). */
#define MAX_STATES_CEILING G_GUINT64_CONSTANT(4000000000)

/* A count as log10 (for comparing counts past 64 bits) and, when it fits, exactly. */
typedef struct {
    double log10;
    guint64 exact;             /* G_MAXUINT64: too large to hold */
} Count;

static Count count_saturated(double log10)
{
    return (Count){ log10, G_MAXUINT64 };
}

/* (iterations + 1)^threads. */
static Count states_needed(guint threads, guint iterations)
{
    double lg = threads * log10(iterations + 1.0);
    if (lg > 18.5)
        return count_saturated(lg);
    guint64 n = 1;
    for (guint t = 0; t < threads; t++)
        n *= (guint64)iterations + 1;
    return (Count){ lg, n };
}

/* (W x I)! / (I!)^W: the orders of W writers' I acquisitions each. */
static Count executions_needed(guint writers, guint iterations)
{
    double n = (double)writers * iterations;
    double lg = (lgamma(n + 1) - writers * lgamma(iterations + 1.0)) / log(10);
    if (writers < 2)
        return (Count){ 0, 1 };
    if (lg > 18.5)
        return count_saturated(lg);
    /* the product of C(k I, I) for k = 2..W, each built up exactly (C(m, j) after step j) */
    unsigned __int128 total = 1;
    for (guint k = 2; k <= writers; k++) {
        unsigned __int128 c = 1;
        guint64 top = (guint64)k * iterations;
        for (guint j = 1; j <= iterations; j++)
            c = c * (top - iterations + j) / j;
        total *= c;
    }
    return (Count){ lg, total > G_MAXUINT64 ? G_MAXUINT64 : (guint64)total };
}

static gboolean fits(Count c, guint64 limit)
{
    return c.exact != G_MAXUINT64 ? c.exact <= limit : c.log10 <= log10((double)limit);
}

static char *count_text(Count c)
{
    return c.exact != G_MAXUINT64 ? g_strdup_printf("%" G_GUINT64_FORMAT, c.exact)
                                  : g_strdup_printf("10^%.0f", floor(c.log10));
}

typedef Count (*Needed)(guint threads, guint iterations);

/* What to lower: the most threads at these iterations and the most iterations at these
 * threads within `limit` (0 when none), as " (at most ...)" or "". */
static char *what_fits(Needed needed, guint threads, guint iterations, guint readers, guint64 limit,
                       guint max_iterations)
{
    guint most_t = 0, lo = 0, hi = MIN(iterations, max_iterations);
    for (guint t = 1; t <= threads && fits(needed(t > readers ? t - readers : 0, iterations), limit); t++)
        most_t = t;
    while (lo < hi) {          /* the largest i in 0..hi that fits; needed() grows with i */
        guint mid = lo + (hi - lo + 1) / 2;
        if (fits(needed(threads > readers ? threads - readers : 0, mid), limit))
            lo = mid;
        else
            hi = mid - 1;
    }
    GString *g = g_string_new(NULL);
    if (most_t > readers)
        g_string_append_printf(g, "at most %u thread%s at --iterations %u", most_t, most_t == 1 ? "" : "s",
                               iterations);
    if (lo)
        g_string_append_printf(g, "%sat most %u iteration%s at --threads %u", g->len ? ", or " : "", lo,
                               lo == 1 ? "" : "s", threads);
    if (g->len) {
        g_string_prepend(g, " (");
        g_string_append(g, ")");
    }
    return g_string_free(g, FALSE);
}

gboolean verify_reach_check(const HarnessOptions *h, const VerifyOptions *o, GError **error)
{
    if (!o->model)
        return TRUE;               /* sampling runs a fixed number of seeds */
    guint64 events = (guint64)h->iterations * VERIFY_REACH_EVENTS_PER_ACQUISITION;
    gboolean graphs = o->graphs && events <= GRAPH_THREAD_EVENTS;
    guint64 limit = o->max_states ? o->max_states
                    : graphs      ? MM_GRAPH_DEFAULT_MAX_GRAPHS
                                  : EXPLORE_DEFAULT_MAX_STATES;
    guint writers = harness_writers(h);
    /* states_needed counts every thread (readers mark their acquisitions too); the graph
     * estimate only the writers, whose orders the counter tells apart */
    Count need = graphs ? executions_needed(writers, h->iterations) : states_needed(h->threads, h->iterations);
    if (fits(need, limit))
        return TRUE;
    g_autofree char *n = count_text(need);
    g_autofree char *lower =
        graphs ? what_fits(executions_needed, h->threads, h->iterations, h->readers, limit,
                           GRAPH_THREAD_EVENTS / VERIFY_REACH_EVENTS_PER_ACQUISITION)
               : what_fits(states_needed, h->threads, h->iterations, 0, limit, G_MAXUINT);
    g_autofree char *handed = o->graphs && !graphs
        ? g_strdup_printf("the graph engine does not take it (at least %" G_GUINT64_FORMAT " events per thread, %d "
                          "per acquisition, more than its %d), and the state search it goes to ", events,
                          VERIFY_REACH_EVENTS_PER_ACQUISITION, GRAPH_THREAD_EVENTS)
        : g_strdup("the state search ");
    g_autofree char *why = graphs
        ? g_strdup_printf("the execution-graph search needs at least %s executions (each order of the %u writers' "
                          "%u acquisitions each is one)", n, writers, h->iterations)
        : g_strdup_printf("%sneeds at least %s states (each thread may stand before any of its %u acquisitions "
                          "or after the last)", handed, n, h->iterations);
    g_autofree char *raise = fits(need, MAX_STATES_CEILING)
        ? g_strdup_printf(", or raise --max-states to %s", n) : g_strdup("");
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "qsim verify: --threads %u --iterations %u is out of reach: %s, more than --max-states %"
                G_GUINT64_FORMAT "; lower --threads or --iterations%s%s",
                h->threads, h->iterations, why, limit, lower, raise);
    return FALSE;
}

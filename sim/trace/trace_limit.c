/* The size limit of a trace (see trace_limit.h). */
#include "sim/trace/trace_limit.h"

gboolean trace_limit_take(TraceLimit *l, guint64 n, Cycle cycle)
{
    if (l->over)
        return FALSE;
    if (n > l->limit - l->written) {
        l->over = TRUE;
        l->over_at = cycle;
        return FALSE;
    }
    l->written += n;
    return TRUE;
}

static char *size_text(guint64 n)
{
    if (n % 1048576 == 0)
        return g_strdup_printf("%" G_GUINT64_FORMAT " MiB", n / 1048576);
    if (n % 1024 == 0)
        return g_strdup_printf("%" G_GUINT64_FORMAT " KiB", n / 1024);
    return g_strdup_printf("%" G_GUINT64_FORMAT " bytes", n);
}

gboolean trace_limit_check(const TraceLimit *l, const char *what, const char *kept, GError **error)
{
    if (!l->over)
        return TRUE;
    g_autofree char *size = size_text(l->limit);
    g_autofree char *when = l->over_at == CYCLE_NEVER ? g_strdup("")
                                                      : g_strdup_printf(" at cycle %" G_GUINT64_FORMAT, l->over_at);
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                "%s: the trace reached its size limit of %s (run.trace_limit)%s; %s.  Trace fewer lines or kinds "
                "(--trace-line, --trace-only), a shorter run, or raise the limit (--set run.trace_limit=1GiB)",
                what, size, when, kept);
    return FALSE;
}

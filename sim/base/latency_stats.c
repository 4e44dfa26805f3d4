#include <math.h>
#include "sim/base/latency_stats.h"

void latency_init(LatencySamples *s) { s->samples = g_array_new(FALSE, FALSE, sizeof(uint64_t)); }

void latency_clear(LatencySamples *s)
{
    if (s->samples)
        g_array_free(s->samples, TRUE);
    s->samples = NULL;
}

double latency_mean(const LatencySamples *s)
{
    if (!s->samples->len)
        return 0;
    double sum = 0;
    for (guint i = 0; i < s->samples->len; i++)
        sum += (double)g_array_index(s->samples, uint64_t, i);
    return sum / s->samples->len;
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t latency_percentile(LatencySamples *s, double p)
{
    guint n = s->samples->len;
    if (!n)
        return 0;
    g_array_sort(s->samples, cmp_u64);
    guint rank = (guint)ceil(p / 100.0 * n);
    rank = CLAMP(rank, 1u, n);
    return g_array_index(s->samples, uint64_t, rank - 1);
}
